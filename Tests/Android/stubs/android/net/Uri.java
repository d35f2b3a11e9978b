// android.net.Uri — upstream: AOSP platform/frameworks/base, core/java/android/net/Uri.java
// (tag android-15.0.0_r1, API 35).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package android.net;

public abstract class Uri {
    public static Uri parse(String uriString) { throw new RuntimeException("Stub!"); }
    @Override public abstract String toString();
}
