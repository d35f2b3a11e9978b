// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package com.facebook.react.bridge;

public abstract class ReactContextBaseJavaModule extends BaseJavaModule {
  public ReactContextBaseJavaModule(ReactApplicationContext reactContext) {
    super(reactContext);
  }
}
