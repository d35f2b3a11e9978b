// androidx.browser.customtabs.CustomTabsClient — upstream: androidx/androidx,
// browser/browser/src/main/java/androidx/browser/customtabs/CustomTabsClient.java (androidx.browser 1.9.0).
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.browser.customtabs;

import android.content.Context;
import java.util.List;

public class CustomTabsClient {
    CustomTabsClient() { throw new RuntimeException("Stub!"); }
    public static String getPackageName(Context context, List<String> packages) { throw new RuntimeException("Stub!"); }
    public static boolean isAuthTabSupported(Context context, String provider) { throw new RuntimeException("Stub!"); }
}
