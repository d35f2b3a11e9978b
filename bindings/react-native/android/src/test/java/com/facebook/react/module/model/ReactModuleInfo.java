// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package com.facebook.react.module.model;

public class ReactModuleInfo {
  private final String name;
  private final String className;
  public final boolean canOverrideExistingModule;
  public final boolean needsEagerInit;
  public final boolean isCxxModule;
  public final boolean isTurboModule;

  public ReactModuleInfo(String name, String className, boolean canOverrideExistingModule,
      boolean needsEagerInit, boolean isCxxModule, boolean isTurboModule) {
    this.name = name;
    this.className = className;
    this.canOverrideExistingModule = canOverrideExistingModule;
    this.needsEagerInit = needsEagerInit;
    this.isCxxModule = isCxxModule;
    this.isTurboModule = isTurboModule;
  }

  public String name() {
    return name;
  }

  public String className() {
    return className;
  }
}
