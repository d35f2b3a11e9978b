// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package android.os;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

public final class Bundle {
  private final Map<String, Object> values = new LinkedHashMap<>();

  /** Test helper: what a POS app's putExtra would leave in the result. */
  public Bundle with(String key, Object value) {
    values.put(key, value);
    return this;
  }

  public void putBoolean(String key, boolean value) {
    values.put(key, value);
  }

  public boolean getBoolean(String key, boolean defaultValue) {
    Object v = values.get(key);
    return v instanceof Boolean ? (Boolean) v : defaultValue;
  }

  public Set<String> keySet() {
    return values.keySet();
  }

  public Object get(String key) {
    return values.get(key);
  }
}
