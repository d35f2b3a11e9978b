// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: AOSP frameworks/base `core/java/android/content/ActivityNotFoundException.java` at android-15.0.0_r1.
package android.content;

public class ActivityNotFoundException extends RuntimeException {
  public ActivityNotFoundException() {
    throw new UnsupportedOperationException("stand-in");
  }

  public ActivityNotFoundException(String name) {
    throw new UnsupportedOperationException("stand-in");
  }
}
