// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: AOSP frameworks/base `core/java/android/content/SharedPreferences.java` at android-15.0.0_r1.
package android.content;

public interface SharedPreferences {
  String getString(String key, String defValue);

  int getInt(String key, int defValue);

  boolean contains(String key);

  Editor edit();

  interface Editor {
    Editor putString(String key, String value);

    Editor putInt(String key, int value);

    Editor remove(String key);

    boolean commit();

    void apply();
  }
}
