// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/Promise.java` (read at commit 2dce183277dd2ba219acd85958a5529de2ef7dc8; Promise.kt in later releases). Only the two methods the module calls.
package com.facebook.react.bridge;

public interface Promise {
  void resolve(Object value);

  void reject(String code, String message);
}
