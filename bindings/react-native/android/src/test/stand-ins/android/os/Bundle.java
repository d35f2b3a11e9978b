// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: AOSP frameworks/base `core/java/android/os/Bundle.java` and `BaseBundle.java` (keySet, get: declared in BaseBundle, deprecated since API 33 for typed getters; kept here on Bundle) at android-15.0.0_r1.
package android.os;

import java.util.Set;

public final class Bundle {
  public Set<String> keySet() {
    throw new UnsupportedOperationException("stand-in");
  }

  public void putBoolean(String key, boolean value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public boolean getBoolean(String key, boolean defaultValue) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Object get(String key) {
    throw new UnsupportedOperationException("stand-in");
  }
}
