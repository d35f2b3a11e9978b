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
 * text. PosResultActivity starts it and receives the result, which PosResultStore keeps on disk
 * until JavaScript takes it — also when the process died while the POS app was in front, where
 * React Native itself would have dropped the result. This module is that activity's
 * ActivityEventListener: when it finishes, the {@link #RESULTS_EVENT} device event says that
 * results wait (it carries none: each result is taken once, by takeResults).
 * src/posIntentLauncher.ts is the JavaScript side.
 *
 * <p>Nothing here logs: the intent's extras hold SumUp's affiliate key or Billpocket's user token,
 * and a result's extras may hold tokens. Rejections name a member or key, never a value.
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
   * Starts the intent for a result (through PosResultActivity). Resolves with the request code
   * once the POS app was started (send `pos.launched`); rejects with code `bad_intent` (the
   * document is wrong: the message names the member), `no_activity` (the app is not in front) or
   * `not_found` / `not_permitted` (nothing may receive the intent: send `pos.launch_failed`).
   *
   * @param intentJson The `intent` document as JSON text.
   * @param flowId The coordinator flow the result belongs to; it comes back in the result.
   * @param promise Settled as above.
   */
  @ReactMethod
  public void startForResult(String intentJson, String flowId, final Promise promise) {
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
    // The context's: ReactContextBaseJavaModule.getCurrentActivity() is deprecated in the New Architecture.
    Activity activity = getReactApplicationContext().getCurrentActivity();
    if (activity == null) {
      promise.reject("no_activity", "no activity is in front to start the POS app from");
      return;
    }
    final int requestCode = store.register(flowId);
    PosLaunches.await(requestCode, new PosLaunches.Outcome() {
      @Override
      public void settle(String errorCode) {
        if (errorCode == null) promise.resolve(requestCode);
        else if (errorCode.equals("not_found")) promise.reject(errorCode, "no installed app handles the intent (is the POS app installed, and is its component or package right?)");
        else promise.reject(errorCode, "the POS app's activity may not be started by this app");
      }
    });
    Intent launcher = new Intent(activity, PosResultActivity.class);
    launcher.putExtra(PosResultActivity.EXTRA_TARGET, intent);
    launcher.putExtra(PosResultActivity.EXTRA_REQUEST_CODE, requestCode);
    try {
      activity.startActivityForResult(launcher, requestCode);
    } catch (ActivityNotFoundException e) {
      store.unregister(requestCode);
      PosLaunches.settle(requestCode, "not_found");
    } catch (SecurityException e) {
      store.unregister(requestCode);
      PosLaunches.settle(requestCode, "not_permitted");
    }
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

  /** PosResultActivity finished: it stored the POS app's result (or the launch failed). */
  @Override
  public void onActivityResult(Activity activity, int requestCode, int resultCode, Intent data) {
    if (PosResultStore.ours(requestCode) && store.pending() > 0) signal();
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
