// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: AOSP frameworks/base `core/java/android/app/Activity.java` at android-15.0.0_r1 (in the
// SDK's android.jar, API 35). The hierarchy is shortened: ContextThemeWrapper is left out.
package android.app;

import android.content.ContextWrapper;
import android.content.Intent;
import android.os.Bundle;

public class Activity extends ContextWrapper {
  public static final int RESULT_CANCELED = 0;
  public static final int RESULT_OK = -1;

  public Activity() {
    super(null);
    throw new UnsupportedOperationException("stand-in");
  }

  protected void onCreate(Bundle savedInstanceState) {
    throw new UnsupportedOperationException("stand-in");
  }

  protected void onSaveInstanceState(Bundle outState) {
    throw new UnsupportedOperationException("stand-in");
  }

  protected void onActivityResult(int requestCode, int resultCode, Intent data) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent getIntent() {
    throw new UnsupportedOperationException("stand-in");
  }

  public final void setResult(int resultCode) {
    throw new UnsupportedOperationException("stand-in");
  }

  public void finish() {
    throw new UnsupportedOperationException("stand-in");
  }

  public void startActivityForResult(Intent intent, int requestCode) {
    throw new UnsupportedOperationException("stand-in");
  }
}
