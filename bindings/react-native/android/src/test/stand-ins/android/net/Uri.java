// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: AOSP frameworks/base `core/java/android/net/Uri.java` at android-15.0.0_r1.
package android.net;

public abstract class Uri {
  public static Uri parse(String uriString) {
    throw new UnsupportedOperationException("stand-in");
  }
}
