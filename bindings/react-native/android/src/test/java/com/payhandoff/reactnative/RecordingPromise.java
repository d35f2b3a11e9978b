// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import com.facebook.react.bridge.Promise;

/** TEST FAKE: a Promise that records how it was settled (once). */
final class RecordingPromise implements Promise {
  Object resolved;
  String code;
  String message;
  int settled;

  @Override
  public void resolve(Object value) {
    resolved = value;
    settled++;
  }

  @Override
  public void reject(String code, String message) {
    this.code = code;
    this.message = message;
    settled++;
  }
}
