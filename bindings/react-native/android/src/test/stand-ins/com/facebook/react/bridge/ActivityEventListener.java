// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/ActivityEventListener.kt` (read at commit a822789f0981710da0b751c7d9c4b8794fee81e1; Java until 0.76, same JVM signatures; onUserLeaveHint has a Kotlin default body).
package com.facebook.react.bridge;

import android.app.Activity;
import android.content.Intent;

public interface ActivityEventListener {
  void onActivityResult(Activity activity, int requestCode, int resultCode, Intent data);

  void onNewIntent(Intent intent);

  default void onUserLeaveHint(Activity activity) {}
}
