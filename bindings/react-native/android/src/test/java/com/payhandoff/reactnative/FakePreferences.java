// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import android.content.Context;
import android.content.SharedPreferences;
import java.util.HashMap;
import java.util.Map;

/**
 * TEST FAKE: SharedPreferences over a map that stands for the file on disk. Editors write only on
 * commit() (apply() is counted apart: the store must commit, so a result is on disk before the
 * process can die). A second store over the same `disk` is the next process.
 */
final class FakePreferences implements SharedPreferences {
  final Map<String, Object> disk;
  int commits;
  int applies;

  FakePreferences(Map<String, Object> disk) {
    this.disk = disk;
  }

  FakePreferences() {
    this(new HashMap<>());
  }

  /** A Context whose getSharedPreferences answers this (and records the name and mode asked for). */
  Context context(final String[] asked) {
    return new Context() {
      @Override
      public SharedPreferences getSharedPreferences(String name, int mode) {
        asked[0] = name + " mode " + mode;
        return FakePreferences.this;
      }
    };
  }

  @Override
  public String getString(String key, String defValue) {
    Object v = disk.get(key);
    return v instanceof String ? (String) v : defValue;
  }

  @Override
  public int getInt(String key, int defValue) {
    Object v = disk.get(key);
    return v instanceof Integer ? (Integer) v : defValue;
  }

  @Override
  public boolean contains(String key) {
    return disk.containsKey(key);
  }

  @Override
  public Editor edit() {
    final Map<String, Object> puts = new HashMap<>();
    final java.util.Set<String> removes = new java.util.HashSet<>();
    return new Editor() {
      @Override
      public Editor putString(String key, String value) {
        puts.put(key, value);
        return this;
      }

      @Override
      public Editor putInt(String key, int value) {
        puts.put(key, value);
        return this;
      }

      @Override
      public Editor remove(String key) {
        removes.add(key);
        return this;
      }

      @Override
      public boolean commit() {
        for (String key : removes) disk.remove(key);
        disk.putAll(puts);
        commits++;
        return true;
      }

      @Override
      public void apply() {
        applies++;
        commit();
      }
    };
  }
}
