// androidx.activity.result.ActivityResultCallback — upstream: androidx/androidx,
// activity/activity/src/main/java/androidx/activity/result/ActivityResultCallback.kt (androidx.activity
// 1.10.1; a Kotlin fun interface there, a Java one here: both are SAM-converted from a Kotlin lambda).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.activity.result;

public interface ActivityResultCallback<O> {
    void onActivityResult(O result);
}
