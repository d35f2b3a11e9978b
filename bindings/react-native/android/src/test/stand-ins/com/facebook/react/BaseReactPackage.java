// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/BaseReactPackage.kt` (0.74 and later: getModule, getReactModuleInfoProvider).
package com.facebook.react;

import com.facebook.react.bridge.NativeModule;
import com.facebook.react.bridge.ReactApplicationContext;
import com.facebook.react.module.model.ReactModuleInfoProvider;

public abstract class BaseReactPackage implements ReactPackage {
  public abstract NativeModule getModule(String name, ReactApplicationContext reactContext);

  public abstract ReactModuleInfoProvider getReactModuleInfoProvider();
}
