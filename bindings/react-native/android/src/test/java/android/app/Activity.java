// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package android.app;

import android.content.Context;
import android.content.ContextWrapper;
import android.content.Intent;
import android.os.Bundle;
import java.util.ArrayList;
import java.util.List;

public class Activity extends ContextWrapper {
  public static final int RESULT_CANCELED = 0;
  public static final int RESULT_OK = -1;

  /** Every startActivityForResult call: the intent and its request code. */
  public final List<Intent> started = new ArrayList<>();
  public final List<Integer> requestCodes = new ArrayList<>();
  /** Thrown by the next start, when set (ActivityNotFoundException, SecurityException). */
  public RuntimeException failNext;
  public Integer resultCode;
  public boolean finished;
  private Intent intent;

  public Activity() {
    super(null);
  }

  /** Test helper: what Android gives an activity it creates (its Context, its Intent). */
  public <A extends Activity> A attach(Context base, Intent startedWith) {
    attachBaseContext(base);
    intent = startedWith;
    @SuppressWarnings("unchecked")
    A self = (A) this;
    return self;
  }

  protected void onCreate(Bundle savedInstanceState) {}

  protected void onSaveInstanceState(Bundle outState) {}

  protected void onActivityResult(int requestCode, int resultCode, Intent data) {}

  public Intent getIntent() {
    return intent;
  }

  public final void setResult(int resultCode) {
    this.resultCode = resultCode;
  }

  public void finish() {
    finished = true;
  }

  public void startActivityForResult(Intent intent, int requestCode) {
    if (failNext != null) {
      RuntimeException e = failNext;
      failNext = null;
      throw e;
    }
    started.add(intent);
    requestCodes.add(requestCode);
  }
}
