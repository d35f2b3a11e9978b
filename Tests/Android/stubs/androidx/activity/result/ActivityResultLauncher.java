// androidx.activity.result.ActivityResultLauncher — upstream: androidx/androidx,
// activity/activity/src/main/java/androidx/activity/result/ActivityResultLauncher.kt (androidx.activity 1.10.1).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.activity.result;

public abstract class ActivityResultLauncher<I> {
    public ActivityResultLauncher() { throw new RuntimeException("Stub!"); }
    public void launch(I input) { throw new RuntimeException("Stub!"); }
    public abstract void unregister();
}
