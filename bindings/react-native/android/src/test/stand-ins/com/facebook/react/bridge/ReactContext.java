// SPDX-License-Identifier: Apache-2.0
// STAND-IN, SIGNATURES ONLY, FOR javac (make react-native-java-test): React Native's and the
// Android SDK's jars are not on this machine. Declares only what PosIntentLauncher and
// PayHandoffPackage use, with upstream's JVM signatures; no upstream code. Bodies throw.
// Upstream: facebook/react-native `packages/react-native/ReactAndroid/src/main/java/com/facebook/react/bridge/ReactContext.java` (read at commit 02008ed78311d03b7136277c06e63333e811e214: addActivityEventListener, removeActivityEventListener, emitDeviceEvent(String, Object), getCurrentActivity).
package com.facebook.react.bridge;

import android.app.Activity;
import android.content.Context;
import android.content.ContextWrapper;

public abstract class ReactContext extends ContextWrapper {
  public ReactContext(Context base) {
    super(base);
    throw new UnsupportedOperationException("stand-in");
  }

  public void addActivityEventListener(ActivityEventListener listener) {
    throw new UnsupportedOperationException("stand-in");
  }

  public void removeActivityEventListener(ActivityEventListener listener) {
    throw new UnsupportedOperationException("stand-in");
  }

  public void emitDeviceEvent(String eventName, Object args) {
    throw new UnsupportedOperationException("stand-in");
  }

  public Activity getCurrentActivity() {
    throw new UnsupportedOperationException("stand-in");
  }
}
