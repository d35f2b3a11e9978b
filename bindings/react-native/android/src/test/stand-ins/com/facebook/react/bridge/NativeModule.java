// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/NativeModule.kt` (NativeModule.java before 0.77). The members BaseJavaModule implements are left out but for getName, initialize and invalidate.
package com.facebook.react.bridge;

public interface NativeModule {
  String getName();

  void initialize();

  void invalidate();
}
