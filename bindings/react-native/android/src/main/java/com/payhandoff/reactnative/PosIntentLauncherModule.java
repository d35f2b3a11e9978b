// SPDX-License-Identifier: Apache-2.0
package com.payhandoff.reactnative;

import android.app.Activity;
import android.content.ActivityNotFoundException;
import android.content.Context;
import android.content.Intent;
import com.facebook.react.bridge.ActivityEventListener;
import com.facebook.react.bridge.Promise;
import com.facebook.react.bridge.ReactApplicationContext;
import com.facebook.react.bridge.ReactContextBaseJavaModule;
import com.facebook.react.bridge.ReactMethod;

/**
 * 'PosIntentLauncher': starts a POS app's intent for a result and hands the result to JavaScript,
 * so an app reaches Square, Clip or Billpocket on Android without native code of its own. The
 * intent is the core's `intent` document (pos_build_url, the open_pos_app effect), passed as JSON
 * text; the result is kept (PosResultStore) until JavaScript takes it, and the
 * {@link #RESULTS_EVENT} device event only says that results wait (it carries none: each result
 * is taken once, by takeResults). src/posIntentLauncher.ts is the JavaScript side.
 *
 * <p>Nothing here logs: the intent's extras hold SumUp's affiliate key or Billpocket's user token,
 * and a result's extras may hold tokens. Rejections name a member or key, never a value.
 *
 * <p>Process death: a result delivered to a process React Native has not finished starting is
 * dropped by React Native itself (ReactHostImpl.onActivityResult: "Tried to access
 * onActivityResult while context is not ready"), before any module sees it; README, "POS apps on
 * Android", says what the coordinator does then (reconcile, never declined).
 */
public final class PosIntentLauncherModule extends ReactContextBaseJavaModule implements ActivityEventListener {
  public static final String NAME = "PosIntentLauncher";
  /** Emitted (without data) whenever a result waits to be taken. */
  public static final String RESULTS_EVENT = "PosIntentLauncher.results";

  private final PosResultStore store;

  public PosIntentLauncherModule(ReactApplicationContext reactContext) {
    super(reactContext);
    store = new PosResultStore(reactContext.getSharedPreferences(PosResultStore.PREFERENCES, Context.MODE_PRIVATE));
    reactContext.addActivityEventListener(this);
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public void invalidate() {
    getReactApplicationContext().removeActivityEventListener(this);
  }

  /**
   * Starts the intent for a result. Resolves with the request code once the activity was started
   * (send `pos.launched`); rejects with code `bad_intent` (the document is wrong: the message names
   * the member), `no_activity` (the app is not in front) or `not_found` / `not_permitted` (nothing
   * may receive the intent: send `pos.launch_failed`).
   *
   * @param intentJson The `intent` document as JSON text.
   * @param flowId The coordinator flow the result belongs to; it comes back in the result.
   * @param promise Settled as above.
   */
  @ReactMethod
  public void startForResult(String intentJson, String flowId, Promise promise) {
    Intent intent;
    try {
      intent = PosIntents.toIntent(intentJson);
    } catch (PosIntents.BadIntentException e) {
      promise.reject("bad_intent", e.getMessage());
      return;
    }
    if (flowId == null || flowId.isEmpty()) {
      promise.reject("bad_intent", "flowId is empty");
      return;
    }
    Activity activity = getCurrentActivity();
    if (activity == null) {
      promise.reject("no_activity", "no activity is in front to start the POS app from");
      return;
    }
    int requestCode = store.register(flowId);
    try {
      activity.startActivityForResult(intent, requestCode);
    } catch (ActivityNotFoundException e) {
      store.unregister(requestCode);
      promise.reject("not_found", "no installed app handles the intent (is it in <queries>? is the POS app installed?)");
      return;
    } catch (SecurityException e) {
      store.unregister(requestCode);
      promise.reject("not_permitted", "the POS app's activity may not be started by this app");
      return;
    }
    promise.resolve(requestCode);
  }

  /**
   * Hands out the results that wait, oldest first, as JSON text of an array of result documents
   * (PosIntents.result), and forgets them.
   *
   * @param promise Resolved with the JSON text ("[]" when none waits).
   */
  @ReactMethod
  public void takeResults(Promise promise) {
    promise.resolve(store.takeAll().toString());
  }

  @Override
  public void onActivityResult(Activity activity, int requestCode, int resultCode, Intent data) {
    String flowId = store.complete(requestCode);
    if (flowId == null) return; // not ours
    store.add(PosIntents.result(requestCode, resultCode, data, flowId));
    signal();
  }

  @Override
  public void onNewIntent(Intent intent) {}

  /** ActivityEventListener's third method (a Kotlin default method in React Native's interface). */
  public void onUserLeaveHint(Activity activity) {}

  private void signal() {
    try {
      getReactApplicationContext().emitDeviceEvent(RESULTS_EVENT, null);
    } catch (RuntimeException e) {
      // JavaScript is not running (yet): the result waits in the store for takeResults.
    }
  }
}
