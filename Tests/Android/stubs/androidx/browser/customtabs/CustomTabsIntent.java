// androidx.browser.customtabs.CustomTabsIntent — upstream: androidx/androidx,
// browser/browser/src/main/java/androidx/browser/customtabs/CustomTabsIntent.java (androidx.browser 1.9.0).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.browser.customtabs;

import android.content.Context;
import android.content.Intent;
import android.net.Uri;

public final class CustomTabsIntent {
    public final Intent intent;

    CustomTabsIntent() { throw new RuntimeException("Stub!"); }

    public void launchUrl(Context context, Uri url) { throw new RuntimeException("Stub!"); }

    public static final class Builder {
        public Builder() { throw new RuntimeException("Stub!"); }
        public CustomTabsIntent build() { throw new RuntimeException("Stub!"); }
    }
}
