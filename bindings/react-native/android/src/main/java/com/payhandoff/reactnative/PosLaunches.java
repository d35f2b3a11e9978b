// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import java.util.HashMap;
import java.util.Map;

/**
 * The startForResult calls waiting to hear whether PosResultActivity could start the POS app, by
 * request code: in memory only (a promise dies with its process, and so does the JavaScript that
 * awaits it). The activity settles each one once.
 */
final class PosLaunches {
  private PosLaunches() {}

  /** How a launch ended: `errorCode` null when the POS app was started, else `not_found` or `not_permitted`. */
  interface Outcome {
    void settle(String errorCode);
  }

  private static final Map<Integer, Outcome> WAITING = new HashMap<>();

  static void await(int requestCode, Outcome outcome) {
    synchronized (WAITING) {
      WAITING.put(requestCode, outcome);
    }
  }

  /** Settles the launch of `requestCode`, if one waits (none after a process death). */
  static void settle(int requestCode, String errorCode) {
    Outcome outcome;
    synchronized (WAITING) {
      outcome = WAITING.remove(requestCode);
    }
    if (outcome != null) outcome.settle(errorCode);
  }
}
