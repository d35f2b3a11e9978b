// SPDX-License-Identifier: Apache-2.0
// TEST FAKE (make react-native-java-test), written for these tests: the same signatures as the
// stand-in of the same name (src/test/stand-ins), with behaviour the tests can observe. It
// shadows the stand-in on the JUnit class path; PosIntentLauncher's classes, compiled against
// the stand-ins, run against it (a signature that differs fails as NoSuchMethodError).
package com.facebook.react.bridge;

import android.app.Activity;
import android.content.Context;
import android.content.ContextWrapper;
import java.util.ArrayList;
import java.util.List;

public abstract class ReactContext extends ContextWrapper {
  public final List<ActivityEventListener> listeners = new ArrayList<>();
  /** Every emitted event: its name, then its data's String.valueOf. */
  public final List<String> events = new ArrayList<>();
  public Activity currentActivity;
  /** JavaScript is not running: emitDeviceEvent throws, as getJSModule does before the instance is set up. */
  public boolean jsNotReady;

  public ReactContext(Context base) {
    super(base);
  }

  public void addActivityEventListener(ActivityEventListener listener) {
    listeners.add(listener);
  }

  public void removeActivityEventListener(ActivityEventListener listener) {
    listeners.remove(listener);
  }

  public void emitDeviceEvent(String eventName, Object args) {
    if (jsNotReady) throw new IllegalStateException("Tried to access a JS module before the React instance was fully set up.");
    events.add(eventName + " " + args);
  }

  public Activity getCurrentActivity() {
    return currentActivity;
  }

  /** As ReactContext.onActivityResult: every listener, in order. */
  public void deliverActivityResult(Activity activity, int requestCode, int resultCode, android.content.Intent data) {
    for (ActivityEventListener listener : new ArrayList<>(listeners)) listener.onActivityResult(activity, requestCode, resultCode, data);
  }
}
