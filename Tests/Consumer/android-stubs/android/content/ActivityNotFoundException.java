// Signature-only stand-in of android.content.ActivityNotFoundException (make consumer-check).
package android.content;

public class ActivityNotFoundException extends RuntimeException {
    public ActivityNotFoundException() { throw new RuntimeException("Stub!"); }
}
