// android.content.Intent — upstream: AOSP platform/frameworks/base, core/java/android/content/Intent.java
// (tag android-15.0.0_r1, API 35).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package android.content;

import android.net.Uri;

public class Intent {
    public static final String ACTION_VIEW = "android.intent.action.VIEW";
    public Intent(String action, Uri uri) { throw new RuntimeException("Stub!"); }
    public Uri getData() { throw new RuntimeException("Stub!"); }
}
