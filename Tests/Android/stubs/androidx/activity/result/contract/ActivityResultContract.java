// androidx.activity.result.contract.ActivityResultContract — upstream: androidx/androidx,
// activity/activity/src/main/java/androidx/activity/result/contract/ActivityResultContract.kt
// (androidx.activity 1.10.1).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.activity.result.contract;

import android.content.Context;
import android.content.Intent;

public abstract class ActivityResultContract<I, O> {
    public ActivityResultContract() { throw new RuntimeException("Stub!"); }
    public abstract Intent createIntent(Context context, I input);
    public abstract O parseResult(int resultCode, Intent intent);
}
