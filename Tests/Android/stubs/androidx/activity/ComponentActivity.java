// androidx.activity.ComponentActivity — upstream: androidx/androidx,
// activity/activity/src/main/java/androidx/activity/ComponentActivity.kt (androidx.activity 1.10.1).
// Upstream it extends androidx.core.app.ComponentActivity, an Activity; here Activity directly.
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.activity;

import androidx.activity.result.ActivityResultCallback;
import androidx.activity.result.ActivityResultCaller;
import androidx.activity.result.ActivityResultLauncher;
import androidx.activity.result.contract.ActivityResultContract;

public class ComponentActivity extends android.app.Activity implements ActivityResultCaller {
    public ComponentActivity() { throw new RuntimeException("Stub!"); }
    @Override
    public final <I, O> ActivityResultLauncher<I> registerForActivityResult(ActivityResultContract<I, O> contract,
                                                                            ActivityResultCallback<O> callback) {
        throw new RuntimeException("Stub!");
    }
}
