// Signature-only stand-in of android.content.Intent (make consumer-check; bodies throw, as android.jar's).
package android.content;

import android.net.Uri;

public class Intent {
    public static final String ACTION_VIEW = "android.intent.action.VIEW";
    public Intent(String action, Uri uri) { throw new RuntimeException("Stub!"); }
    public Uri getData() { throw new RuntimeException("Stub!"); }
}
