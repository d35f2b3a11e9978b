// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package android.content;

import android.net.Uri;
import android.os.Bundle;
import android.os.Parcelable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Intent implements Parcelable {
  /** Every call, in order, with the Java type of its value: "putExtra(int) KEY=10000". */
  public final List<String> calls = new ArrayList<>();
  private Bundle extras;

  public Intent(String action) {
    calls.add("new Intent(" + action + ")");
  }

  public Intent(Context packageContext, Class<?> cls) {
    calls.add("new Intent(" + cls.getSimpleName() + ")");
  }

  public Intent setPackage(String packageName) {
    calls.add("setPackage(" + packageName + ")");
    return this;
  }

  public Intent setComponent(ComponentName component) {
    calls.add("setComponent(" + component.getPackageName() + ", " + component.getClassName() + ")");
    return this;
  }

  public Intent setData(Uri data) {
    calls.add("setData(" + data + ")");
    return this;
  }

  private Intent put(String type, String name, Object value, String shown) {
    calls.add("putExtra(" + type + ") " + name + "=" + shown);
    if (extras == null) extras = new Bundle();
    extras.with(name, value);
    return this;
  }

  public Intent putExtra(String name, String value) {
    return put("String", name, value, value);
  }

  public Intent putExtra(String name, int value) {
    return put("int", name, value, Integer.toString(value));
  }

  public Intent putExtra(String name, long value) {
    return put("long", name, value, Long.toString(value));
  }

  public Intent putExtra(String name, boolean value) {
    return put("boolean", name, value, Boolean.toString(value));
  }

  public Intent putExtra(String name, String[] value) {
    return put("String[]", name, value, Arrays.toString(value));
  }

  public Intent putExtra(String name, Parcelable value) {
    return put("Parcelable", name, value, value == null ? "null" : value.getClass().getSimpleName());
  }

  public int getIntExtra(String name, int defaultValue) {
    Object v = extras == null ? null : extras.get(name);
    return v instanceof Integer ? (Integer) v : defaultValue;
  }

  @Deprecated
  @SuppressWarnings("unchecked")
  public <T extends Parcelable> T getParcelableExtra(String name) {
    Object v = extras == null ? null : extras.get(name);
    return v instanceof Parcelable ? (T) v : null;
  }

  /** Test helper: a result Intent holding these extras. */
  public static Intent withExtras(Bundle bundle) {
    Intent intent = new Intent("result");
    intent.extras = bundle;
    return intent;
  }

  public Bundle getExtras() {
    return extras;
  }
}
