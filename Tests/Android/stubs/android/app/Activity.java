// android.app.Activity — upstream: AOSP platform/frameworks/base, core/java/android/app/Activity.java
// (tag android-15.0.0_r1, API 35). Upstream it extends Context through ContextThemeWrapper and
// ContextWrapper; here directly.
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package android.app;

import android.content.Context;
import android.content.Intent;
import android.os.Bundle;

public class Activity extends Context {
    public static final int RESULT_CANCELED = 0;
    public static final int RESULT_OK = -1;
    public Activity() { throw new RuntimeException("Stub!"); }
    protected void onCreate(Bundle savedInstanceState) { throw new RuntimeException("Stub!"); }
    protected void onNewIntent(Intent intent) { throw new RuntimeException("Stub!"); }
    public Intent getIntent() { throw new RuntimeException("Stub!"); }
    public void startActivity(Intent intent) { throw new RuntimeException("Stub!"); }
}
