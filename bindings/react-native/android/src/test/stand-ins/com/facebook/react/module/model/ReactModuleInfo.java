// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/module/model/ReactModuleInfo.kt` (read at commit 0c3851beb3a34e07dad8f9f56f69a34730d32398: the six-argument constructor; the seven-argument one with hasConstants is deprecated).
package com.facebook.react.module.model;

public class ReactModuleInfo {
  public ReactModuleInfo(String name, String className, boolean canOverrideExistingModule,
      boolean needsEagerInit, boolean isCxxModule, boolean isTurboModule) {
    throw new UnsupportedOperationException("stand-in");
  }

  public String name() {
    throw new UnsupportedOperationException("stand-in");
  }

  public String className() {
    throw new UnsupportedOperationException("stand-in");
  }
}
