// androidx.browser.auth.AuthTabIntent — upstream: androidx/androidx,
// browser/browser/src/main/java/androidx/browser/auth/AuthTabIntent.java (androidx.browser 1.9.0;
// signatures and result codes read at commit 15507cedb72c10372353c6d435fec78300de21f2).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.browser.auth;

import android.content.Intent;
import android.net.Uri;
import androidx.activity.result.ActivityResultCallback;
import androidx.activity.result.ActivityResultCaller;
import androidx.activity.result.ActivityResultLauncher;

public class AuthTabIntent {
    public static final int RESULT_CANCELED = 0;
    public static final int RESULT_OK = -1;
    public static final int RESULT_VERIFICATION_FAILED = 2;
    public static final int RESULT_VERIFICATION_TIMED_OUT = 3;
    public static final int RESULT_UNKNOWN_CODE = -2;

    public final Intent intent;

    private AuthTabIntent() { throw new RuntimeException("Stub!"); }

    public void launch(ActivityResultLauncher<Intent> launcher, Uri url, String redirectScheme) { throw new RuntimeException("Stub!"); }
    public void launch(ActivityResultLauncher<Intent> launcher, Uri url, String redirectHost, String redirectPath) {
        throw new RuntimeException("Stub!");
    }

    public static ActivityResultLauncher<Intent> registerActivityResultLauncher(ActivityResultCaller caller,
                                                                                ActivityResultCallback<AuthResult> callback) {
        throw new RuntimeException("Stub!");
    }

    public static final class Builder {
        public Builder() { throw new RuntimeException("Stub!"); }
        public AuthTabIntent build() { throw new RuntimeException("Stub!"); }
    }

    public static final class AuthResult {
        public final int resultCode;
        public final Uri resultUri;
        AuthResult(int resultCode, Uri resultUri) { throw new RuntimeException("Stub!"); }
    }
}
