// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/ReactContextBaseJavaModule.java` (read at commit 1ca54bcc9bff742d262a6180862cc4d9d733d5be).
package com.facebook.react.bridge;

public abstract class ReactContextBaseJavaModule extends BaseJavaModule {
  public ReactContextBaseJavaModule(ReactApplicationContext reactContext) {
    super(reactContext);
    throw new UnsupportedOperationException("stand-in");
  }
}
