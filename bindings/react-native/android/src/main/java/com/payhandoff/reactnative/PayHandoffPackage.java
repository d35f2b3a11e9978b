// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import com.facebook.react.BaseReactPackage;
import com.facebook.react.ReactPackage;
import com.facebook.react.bridge.NativeModule;
import com.facebook.react.bridge.ReactApplicationContext;
import com.facebook.react.module.model.ReactModuleInfo;
import com.facebook.react.module.model.ReactModuleInfoProvider;
import java.util.HashMap;
import java.util.Map;

/**
 * The package autolinking lists (the first source file of the library that matches its expressions:
 * this one, README "Android autolinking"). It offers one Java module, 'PosIntentLauncher'
 * (starting a POS app's intent for a result); the 'PayHandoff' module is C++
 * (cpp/NativePayHandoffModule.h), created by the app's generated autolinking.cpp from
 * react-native.config.js's cxxModuleHeaderName, and this package never offers that name, so no
 * Java module can shadow it. `implements ReactPackage` repeats what BaseReactPackage already
 * implements: expo-modules-autolinking before 2.0.6 finds a Java package class only by
 * `implements …ReactPackage` or `extends TurboReactPackage`.
 */
public final class PayHandoffPackage extends BaseReactPackage implements ReactPackage {
  @Override
  public NativeModule getModule(String name, ReactApplicationContext reactContext) {
    return PosIntentLauncherModule.NAME.equals(name) ? new PosIntentLauncherModule(reactContext) : null;
  }

  @Override
  public ReactModuleInfoProvider getReactModuleInfoProvider() {
    return () -> {
      Map<String, ReactModuleInfo> modules = new HashMap<>();
      // A legacy (bridge) module, reached in the New Architecture through the TurboModule interop
      // layer: not a TurboModule, not C++, created when JavaScript first asks for it.
      modules.put(PosIntentLauncherModule.NAME, new ReactModuleInfo(PosIntentLauncherModule.NAME,
          PosIntentLauncherModule.class.getName(), false, false, false, false));
      return modules;
    };
  }
}
