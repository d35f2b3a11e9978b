// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import android.content.ComponentName;
import android.content.Intent;
import android.net.Uri;
import android.os.Bundle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * The two translations PosIntentLauncher makes, with no React Native type in them (so JUnit drives
 * them on the host): the `intent` document the core hands out (`pos_build_url`'s `intent`, an
 * `open_pos_app` effect's `intent`) into an {@link Intent}, and an activity result into the result
 * document JavaScript receives. Neither decides what a provider's answer means: the core does.
 *
 * <p>No value of a document or a Bundle is ever written to a log or an error message (the request
 * extras hold SumUp's affiliate key or Billpocket's user token, the result extras may hold tokens):
 * errors name the member or the extra's key only.
 */
final class PosIntents {
  private PosIntents() {}

  /** Integers JavaScript holds exactly (Number.MAX_SAFE_INTEGER): a long beyond it travels as text. */
  static final long MAX_SAFE_INTEGER = 9007199254740991L;

  /** A document PosIntentLauncher refuses; {@link #getMessage()} names a member, never a value. */
  static final class BadIntentException extends Exception {
    private static final long serialVersionUID = 1L;

    BadIntentException(String message) {
      super(message);
    }
  }

  private static final Set<String> INTENT_MEMBERS =
      new HashSet<>(java.util.Arrays.asList("action", "package", "component", "data", "extras"));
  private static final Set<String> EXTRA_MEMBERS = new HashSet<>(java.util.Arrays.asList("key", "type", "value"));

  /**
   * Reads an `intent` document (JSON text) into an Intent: `action` (required), `package`,
   * `component` (`"pkg/class"`, `"pkg/.Class"` as Android's flattened form), `data` (a URI) and
   * `extras` (`{"key", "value"}` strings, or `{"key", "type": "int" | "long" | "bool" |
   * "string_array", "value"}`). Unknown members, duplicate keys, a value of the wrong type, an
   * `int` outside 32 bits, a number with a fraction, a `component` of another `package`: refused.
   *
   * @param json The document as JavaScript serialised it.
   * @return The intent, every extra put with its Java type.
   * @throws BadIntentException naming the member (never the value) that is wrong.
   */
  static Intent toIntent(String json) throws BadIntentException {
    JSONObject doc;
    try {
      doc = new JSONObject(json);
    } catch (JSONException | NullPointerException e) {
      // org.json's message quotes the whole input (the secrets with it): never pass it on.
      throw new BadIntentException("the intent is not a JSON object");
    }
    for (Iterator<String> keys = doc.keys(); keys.hasNext(); ) {
      String key = keys.next();
      if (!INTENT_MEMBERS.contains(key)) throw new BadIntentException("intent." + key + " is not a member of an intent document");
    }
    String action = requiredString(doc, "action", "intent.action");
    String pkg = optionalString(doc, "package", "intent.package");
    String component = optionalString(doc, "component", "intent.component");
    String data = optionalString(doc, "data", "intent.data");
    Intent intent = new Intent(action);
    if (component != null) {
      ComponentName name = parseComponent(component);
      if (pkg != null && !pkg.equals(name.getPackageName())) {
        throw new BadIntentException("intent.component names another package than intent.package");
      }
      intent.setComponent(name);
    }
    if (pkg != null) {
      if (pkg.isEmpty()) throw new BadIntentException("intent.package is empty");
      intent.setPackage(pkg);
    }
    if (data != null) {
      if (data.isEmpty()) throw new BadIntentException("intent.data is empty");
      intent.setData(Uri.parse(data));
    }
    if (doc.has("extras") && !doc.isNull("extras")) {
      Object extras = doc.opt("extras");
      if (!(extras instanceof JSONArray)) throw new BadIntentException("intent.extras is not an array");
      putExtras(intent, (JSONArray) extras);
    }
    return intent;
  }

  /** `"pkg/class"` into a ComponentName; a class starting with '.' is in the package (Android's flattened form). */
  static ComponentName parseComponent(String flat) throws BadIntentException {
    int slash = flat.indexOf('/');
    if (slash <= 0 || slash == flat.length() - 1 || flat.indexOf('/', slash + 1) >= 0) {
      throw new BadIntentException("intent.component is not \"package/class\"");
    }
    String pkg = flat.substring(0, slash);
    String cls = flat.substring(slash + 1);
    if (cls.charAt(0) == '.') cls = pkg + cls;
    return new ComponentName(pkg, cls);
  }

  private static void putExtras(Intent intent, JSONArray extras) throws BadIntentException {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < extras.length(); i++) {
      String where = "intent.extras[" + i + "]";
      Object item = extras.opt(i);
      if (!(item instanceof JSONObject)) throw new BadIntentException(where + " is not an object");
      JSONObject extra = (JSONObject) item;
      for (Iterator<String> keys = extra.keys(); keys.hasNext(); ) {
        String key = keys.next();
        if (!EXTRA_MEMBERS.contains(key)) throw new BadIntentException(where + "." + key + " is not a member of an extra");
      }
      String key = requiredString(extra, "key", where + ".key");
      if (key.isEmpty()) throw new BadIntentException(where + ".key is empty");
      if (!seen.add(key)) throw new BadIntentException("intent.extras has " + key + " twice");
      String type = optionalString(extra, "type", where + ".type");
      String named = "intent extra " + key;
      if (!extra.has("value") || extra.isNull("value")) throw new BadIntentException(named + " has no value");
      Object value = extra.opt("value");
      if (type == null || type.equals("string")) {
        if (!(value instanceof String)) throw new BadIntentException(named + " is not a string");
        intent.putExtra(key, (String) value);
      } else if (type.equals("int")) {
        long n = integer(value, named);
        if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) throw new BadIntentException(named + " is outside an int's range");
        intent.putExtra(key, (int) n);
      } else if (type.equals("long")) {
        intent.putExtra(key, integer(value, named));
      } else if (type.equals("bool")) {
        if (!(value instanceof Boolean)) throw new BadIntentException(named + " is not a boolean");
        intent.putExtra(key, ((Boolean) value).booleanValue());
      } else if (type.equals("string_array")) {
        if (!(value instanceof JSONArray)) throw new BadIntentException(named + " is not an array of strings");
        JSONArray array = (JSONArray) value;
        String[] strings = new String[array.length()];
        for (int j = 0; j < strings.length; j++) {
          Object s = array.opt(j);
          if (!(s instanceof String)) throw new BadIntentException(named + "[" + j + "] is not a string");
          strings[j] = (String) s;
        }
        intent.putExtra(key, strings);
      } else {
        throw new BadIntentException(named + " has an unknown type (string, int, long, bool, string_array)");
      }
    }
  }

  /** A JSON integer, exactly: org.json reads one as Integer or Long; a Double is a fraction or beyond a long. */
  private static long integer(Object value, String named) throws BadIntentException {
    if (value instanceof Integer || value instanceof Long) return ((Number) value).longValue();
    if (value instanceof Number) throw new BadIntentException(named + " is not an integer (a fraction, an exponent or beyond 64 bits)");
    throw new BadIntentException(named + " is not a number");
  }

  private static String requiredString(JSONObject doc, String member, String where) throws BadIntentException {
    String s = optionalString(doc, member, where);
    if (s == null) throw new BadIntentException(where + " is missing");
    return s;
  }

  private static String optionalString(JSONObject doc, String member, String where) throws BadIntentException {
    if (!doc.has(member) || doc.isNull(member)) return null;
    Object value = doc.opt(member);
    if (!(value instanceof String)) throw new BadIntentException(where + " is not a string");
    return (String) value;
  }

  /**
   * The document JavaScript receives for one activity result: `request_code`, `result_code`
   * (Android's: RESULT_OK -1, RESULT_CANCELED 0), `flow_id` (the one startForResult was given),
   * `extras` — the result's string extras as an object, `null` when the result carried no Intent
   * (the POS app crashed, was uninstalled, or the user backed out), `{}` for an Intent without
   * extras — and, only when the Bundle holds other types, `other_extras` (numbers, booleans,
   * arrays, nested Bundles, null; a long beyond 2^53 as its decimal text) and
   * `unsupported_extras` (the keys of values JSON cannot hold: Parcelables, Serializables, …).
   * The core reads result extras as text (every provider's documented result extras are
   * strings), so `extras` is what goes to the coordinator's `pos.result`.
   *
   * @param requestCode The request code startForResult used.
   * @param resultCode The activity's result code.
   * @param data The result Intent, or null.
   * @param flowId The flow the launch was for.
   * @return The result document.
   */
  static JSONObject result(int requestCode, int resultCode, Intent data, String flowId) {
    JSONObject out = new JSONObject();
    try {
      out.put("request_code", requestCode);
      out.put("result_code", resultCode);
      out.put("flow_id", flowId);
      if (data == null) {
        out.put("extras", JSONObject.NULL);
        return out;
      }
      Bundle bundle = data.getExtras();
      JSONObject strings = new JSONObject();
      JSONObject others = new JSONObject();
      List<String> unsupported = new ArrayList<>();
      if (bundle != null) {
        List<String> keys = new ArrayList<>(bundle.keySet());
        Collections.sort(keys);
        for (String key : keys) {
          Object value = bundle.get(key);
          if (value instanceof CharSequence) {
            strings.put(key, value.toString());
          } else {
            Object json = toJson(value);
            if (json == UNSUPPORTED) unsupported.add(key);
            else others.put(key, json);
          }
        }
      }
      out.put("extras", strings);
      if (others.length() > 0) out.put("other_extras", others);
      if (!unsupported.isEmpty()) out.put("unsupported_extras", new JSONArray(unsupported));
    } catch (JSONException e) {
      // put() refuses only non-finite numbers and null keys, which toJson never gives.
      throw new IllegalStateException("result document", e);
    }
    return out;
  }

  private static final Object UNSUPPORTED = new Object();

  /** A Bundle value as JSON, or UNSUPPORTED. Doubles that are not finite are unsupported (JSON has no NaN). */
  @SuppressWarnings("deprecation")
  static Object toJson(Object value) throws JSONException {
    if (value == null) return JSONObject.NULL;
    if (value instanceof CharSequence) return value.toString();
    if (value instanceof Boolean) return value;
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) return ((Number) value).intValue();
    if (value instanceof Long) return safeLong((Long) value);
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isNaN(d) || Double.isInfinite(d) ? UNSUPPORTED : (Object) d;
    }
    if (value instanceof Character) return value.toString();
    if (value instanceof String[] || value instanceof CharSequence[]) {
      JSONArray a = new JSONArray();
      for (CharSequence s : (CharSequence[]) value) a.put(s == null ? JSONObject.NULL : s.toString());
      return a;
    }
    if (value instanceof int[]) {
      JSONArray a = new JSONArray();
      for (int n : (int[]) value) a.put(n);
      return a;
    }
    if (value instanceof long[]) {
      JSONArray a = new JSONArray();
      for (long n : (long[]) value) a.put(safeLong(n));
      return a;
    }
    if (value instanceof boolean[]) {
      JSONArray a = new JSONArray();
      for (boolean b : (boolean[]) value) a.put(b);
      return a;
    }
    if (value instanceof ArrayList) {
      JSONArray a = new JSONArray();
      for (Object item : (ArrayList<?>) value) {
        if (item != null && !(item instanceof CharSequence) && !(item instanceof Integer)) return UNSUPPORTED;
        a.put(item == null ? JSONObject.NULL : item instanceof Integer ? item : item.toString());
      }
      return a;
    }
    if (value instanceof Bundle) {
      Bundle bundle = (Bundle) value;
      JSONObject o = new JSONObject();
      for (String key : bundle.keySet()) {
        Object json = toJson(bundle.get(key));
        if (json == UNSUPPORTED) return UNSUPPORTED;
        o.put(key, json);
      }
      return o;
    }
    return UNSUPPORTED;
  }

  private static Object safeLong(long n) {
    return n >= -MAX_SAFE_INTEGER && n <= MAX_SAFE_INTEGER ? (Object) n : Long.toString(n);
  }
}
