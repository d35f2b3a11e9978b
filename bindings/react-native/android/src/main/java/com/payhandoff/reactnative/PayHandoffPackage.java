// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import com.facebook.react.BaseReactPackage;
import com.facebook.react.ReactPackage;
import com.facebook.react.bridge.NativeModule;
import com.facebook.react.bridge.ReactApplicationContext;
import com.facebook.react.module.model.ReactModuleInfoProvider;
import java.util.HashMap;

/**
 * Gives autolinking a package to list, and nothing else: the 'PayHandoff' module is C++
 * (cpp/NativePayHandoffModule.h) and the app's generated autolinking.cpp creates it by
 * react-native.config.js's cxxModuleHeaderName. No Java module is offered, so none can shadow it.
 * Why a package at all: README, "Android autolinking". `implements ReactPackage` repeats what
 * BaseReactPackage already implements: expo-modules-autolinking before 2.0.6 finds a Java package
 * class only by `implements …ReactPackage` or `extends TurboReactPackage`.
 */
public final class PayHandoffPackage extends BaseReactPackage implements ReactPackage {
  @Override
  public NativeModule getModule(String name, ReactApplicationContext reactContext) {
    return null;
  }

  @Override
  public ReactModuleInfoProvider getReactModuleInfoProvider() {
    return HashMap::new;
  }
}
