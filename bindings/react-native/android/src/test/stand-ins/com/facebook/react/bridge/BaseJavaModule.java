// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/BaseJavaModule.java` (read at commit 2d069323e05285a5e289628ae0e09fd2891dea21; BaseJavaModule.kt later).
package com.facebook.react.bridge;

public abstract class BaseJavaModule implements NativeModule {
  public BaseJavaModule(ReactApplicationContext reactContext) {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void initialize() {
    throw new UnsupportedOperationException("stand-in");
  }

  @Override
  public void invalidate() {
    throw new UnsupportedOperationException("stand-in");
  }

  protected final ReactApplicationContext getReactApplicationContext() {
    throw new UnsupportedOperationException("stand-in");
  }
}
