// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: Android SDK `android.jar` (API 35), android/app/Activity.java in AOSP frameworks/base `core/java/android/app/Activity.java` at android-15.0.0_r1. The superclasses (ContextThemeWrapper, ContextWrapper) are left out: the module only starts an activity.
package android.app;

import android.content.Intent;

public class Activity {
  public void startActivityForResult(Intent intent, int requestCode) {
    throw new UnsupportedOperationException("stand-in");
  }
}
