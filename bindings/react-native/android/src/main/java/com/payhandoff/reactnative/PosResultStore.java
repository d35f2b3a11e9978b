// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import android.content.SharedPreferences;
import java.util.Iterator;
import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * What PosIntentLauncher keeps across JavaScript's absence and across process death: the launches
 * still waiting for a result (request code → flow id) and the results JavaScript has not taken
 * yet, in the app's private SharedPreferences, written with commit() (on disk before the call
 * returns), so a result received just before the process dies is still there when JavaScript
 * subscribes in the next process. A result is removed when JavaScript takes it (once: take is the
 * only read). At most {@link #CAPACITY} results are kept: the oldest goes first (a coordinator
 * that never listens must not grow the file without bound). The file is as secret as the
 * coordinator's snapshot (result extras may hold a provider's tokens): MODE_PRIVATE, and never
 * logged.
 *
 * <p>Request codes are {@link #FIRST_REQUEST_CODE} … + {@link #REQUEST_CODES} − 1: below 2^16, as
 * androidx's ComponentActivity requires, and a range of its own so results of the app's other
 * launches are left alone.
 */
final class PosResultStore {
  static final String PREFERENCES = "com.payhandoff.reactnative.PosIntentLauncher";
  static final int FIRST_REQUEST_CODE = 0x5A00;
  static final int REQUEST_CODES = 256;
  static final int CAPACITY = 16;

  private static final String RESULTS = "results";
  private static final String LAUNCHES = "launches";
  private static final String NEXT = "next_request_code";

  // One lock for the process: the module (native-modules thread) and PosResultActivity (UI
  // thread) each hold a store over the same file, and each method reads, changes and writes it.
  private static final Object LOCK = new Object();

  private final SharedPreferences preferences;

  PosResultStore(SharedPreferences preferences) {
    this.preferences = preferences;
  }

  /** Whether `requestCode` is of this store's range. */
  static boolean ours(int requestCode) {
    return requestCode >= FIRST_REQUEST_CODE && requestCode < FIRST_REQUEST_CODE + REQUEST_CODES;
  }

  /**
   * Records a launch for `flowId` and returns its request code (the next of the range, round
   * robin; a code still waiting from 256 launches ago is taken over).
   */
  int register(String flowId) {
    synchronized (LOCK) {
      int next = preferences.getInt(NEXT, 0);
      if (next < 0 || next >= REQUEST_CODES) next = 0;
      int code = FIRST_REQUEST_CODE + next;
      JSONObject launches = object(LAUNCHES);
      try {
        launches.put(Integer.toString(code), flowId);
      } catch (JSONException e) {
        throw new IllegalStateException("launches", e);
      }
      preferences.edit().putString(LAUNCHES, launches.toString()).putInt(NEXT, (next + 1) % REQUEST_CODES).commit();
      return code;
    }
  }

  /** Forgets a launch that did not start (no activity, nothing resolved the intent). */
  void unregister(int requestCode) {
    synchronized (LOCK) {
      JSONObject launches = object(LAUNCHES);
      if (launches.remove(Integer.toString(requestCode)) != null) {
        preferences.edit().putString(LAUNCHES, launches.toString()).commit();
      }
    }
  }

  /**
   * Takes the launch a result belongs to.
   *
   * @return its flow id, or null when the request code is not one of this store's waiting launches
   *     (another module's, or a result delivered twice).
   */
  String complete(int requestCode) {
    synchronized (LOCK) {
      if (!ours(requestCode)) return null;
      JSONObject launches = object(LAUNCHES);
      Object flowId = launches.remove(Integer.toString(requestCode));
      if (!(flowId instanceof String)) return null;
      preferences.edit().putString(LAUNCHES, launches.toString()).commit();
      return (String) flowId;
    }
  }

  /** Keeps a result until JavaScript takes it (the oldest goes beyond CAPACITY). */
  void add(JSONObject result) {
    synchronized (LOCK) {
      JSONArray results = array(RESULTS);
      JSONArray kept = new JSONArray();
      int drop = Math.max(0, results.length() + 1 - CAPACITY);
      for (int i = drop; i < results.length(); i++) kept.put(results.opt(i));
      kept.put(result);
      preferences.edit().putString(RESULTS, kept.toString()).commit();
    }
  }

  /** Hands out every kept result, oldest first, and forgets them: each is taken once. */
  JSONArray takeAll() {
    synchronized (LOCK) {
      JSONArray results = array(RESULTS);
      if (results.length() > 0 || preferences.contains(RESULTS)) preferences.edit().remove(RESULTS).commit();
      return results;
    }
  }

  /** How many results wait (tests, and the module's signal). */
  int pending() {
    synchronized (LOCK) {
      return array(RESULTS).length();
    }
  }

  // A value this class did not write (another version's, a damaged file) reads as empty: what it
  // held cannot be delivered, and keeping it would block every later result.
  private JSONArray array(String key) {
    String text = preferences.getString(key, null);
    if (text == null) return new JSONArray();
    try {
      return new JSONArray(text);
    } catch (JSONException e) {
      return new JSONArray();
    }
  }

  private JSONObject object(String key) {
    String text = preferences.getString(key, null);
    if (text == null) return new JSONObject();
    try {
      JSONObject o = new JSONObject(text);
      for (Iterator<String> keys = o.keys(); keys.hasNext(); ) {
        if (!(o.opt(keys.next()) instanceof String)) return new JSONObject();
      }
      return o;
    } catch (JSONException e) {
      return new JSONObject();
    }
  }
}
