// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/ReactApplicationContext.java` (ReactApplicationContext.kt later).
package com.facebook.react.bridge;

import android.content.Context;

public class ReactApplicationContext extends ReactContext {
  public ReactApplicationContext(Context context) {
    super(context);
    throw new UnsupportedOperationException("stand-in");
  }
}
