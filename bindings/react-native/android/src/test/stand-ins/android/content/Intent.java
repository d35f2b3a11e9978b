// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: AOSP frameworks/base `core/java/android/content/Intent.java` at android-15.0.0_r1 (putExtra overloads return the Intent).
package android.content;

import android.net.Uri;
import android.os.Bundle;
import android.os.Parcelable;

public class Intent implements Parcelable {
  public Intent(String action) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent(Context packageContext, Class<?> cls) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent setPackage(String packageName) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent setComponent(ComponentName component) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent setData(Uri data) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent putExtra(String name, String value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent putExtra(String name, int value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent putExtra(String name, long value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent putExtra(String name, boolean value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent putExtra(String name, String[] value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Intent putExtra(String name, Parcelable value) {
    throw new UnsupportedOperationException("stand-in");
  }

  public int getIntExtra(String name, int defaultValue) {
    throw new UnsupportedOperationException("stand-in");
  }

  /** Deprecated in API 33 for getParcelableExtra(String, Class), which API 24 lacks. */
  @Deprecated
  public <T extends Parcelable> T getParcelableExtra(String name) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Bundle getExtras() {
    throw new UnsupportedOperationException("stand-in");
  }
}
