// android.content.ActivityNotFoundException — upstream: AOSP platform/frameworks/base,
// core/java/android/content/ActivityNotFoundException.java (tag android-15.0.0_r1, API 35).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package android.content;

public class ActivityNotFoundException extends RuntimeException {
    public ActivityNotFoundException() { throw new RuntimeException("Stub!"); }
}
