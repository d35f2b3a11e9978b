// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import android.app.Activity;
import android.content.ActivityNotFoundException;
import android.content.Context;
import android.content.Intent;
import android.os.Bundle;

/**
 * The activity between the app and the POS app (declared in android/src/main/AndroidManifest.xml:
 * not exported, translucent, no UI): it starts the POS app for a result and receives that result
 * itself, so the result is stored (PosResultStore, on disk) even when the app's process died while
 * the POS app was in front. Then React Native is not running when Android delivers the result, and
 * drops any result sent to its activity before its context is ready (ReactHostImpl.onActivityResult:
 * "Tried to access onActivityResult while context is not ready"); this activity is recreated from
 * its saved state and needs no React Native to store it. JavaScript takes it when it subscribes.
 *
 * <p>Started by PosIntentLauncherModule for a result with the launch's request code: when it
 * finishes, the module (if React Native runs) tells JavaScript that results wait. Never logs:
 * the target intent holds the POS app's secrets, the result may hold tokens.
 */
public final class PosResultActivity extends Activity {
  /** The POS app's Intent (Parcelable). */
  static final String EXTRA_TARGET = "com.payhandoff.reactnative.TARGET";
  /** The launch's request code (PosResultStore's range). */
  static final String EXTRA_REQUEST_CODE = "com.payhandoff.reactnative.REQUEST_CODE";
  private static final String STATE_LAUNCHED = "com.payhandoff.reactnative.LAUNCHED";

  private boolean launched;

  @Override
  protected void onCreate(Bundle savedInstanceState) {
    super.onCreate(savedInstanceState);
    // Recreated (after a process death, or a configuration change): the POS app was started
    // already; its result comes to onActivityResult.
    launched = savedInstanceState != null && savedInstanceState.getBoolean(STATE_LAUNCHED, false);
    if (launched) return;
    Intent start = getIntent();
    int requestCode = start == null ? -1 : start.getIntExtra(EXTRA_REQUEST_CODE, -1);
    Intent target = start == null ? null : target(start);
    if (target == null || !PosResultStore.ours(requestCode)) {
      finish(); // not started by the module
      return;
    }
    String error = null;
    try {
      startActivityForResult(target, requestCode);
      launched = true;
    } catch (ActivityNotFoundException e) {
      error = "not_found";
    } catch (SecurityException e) {
      error = "not_permitted";
    }
    if (error != null) {
      store().unregister(requestCode);
      setResult(RESULT_CANCELED);
      finish();
    }
    PosLaunches.settle(requestCode, error);
  }

  @SuppressWarnings("deprecation") // getParcelableExtra(String, Class) is API 33; minSdk is 24
  private static Intent target(Intent start) {
    return start.getParcelableExtra(EXTRA_TARGET);
  }

  @Override
  protected void onSaveInstanceState(Bundle outState) {
    super.onSaveInstanceState(outState);
    outState.putBoolean(STATE_LAUNCHED, launched);
  }

  @Override
  protected void onActivityResult(int requestCode, int resultCode, Intent data) {
    super.onActivityResult(requestCode, resultCode, data);
    PosResultStore store = store();
    String flowId = store.complete(requestCode);
    if (flowId != null) store.add(PosIntents.result(requestCode, resultCode, data, flowId));
    setResult(RESULT_OK);
    finish();
  }

  private PosResultStore store() {
    return new PosResultStore(getSharedPreferences(PosResultStore.PREFERENCES, Context.MODE_PRIVATE));
  }
}
