// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package android.app;

import android.content.Intent;
import java.util.ArrayList;
import java.util.List;

public class Activity {
  /** Every startActivityForResult call: the intent and its request code. */
  public final List<Intent> started = new ArrayList<>();
  public final List<Integer> requestCodes = new ArrayList<>();
  /** Thrown by the next start, when set (ActivityNotFoundException, SecurityException). */
  public RuntimeException failNext;

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
