// Signature-only stand-in of android.net.Uri (make consumer-check; bodies throw, as android.jar's).
package android.net;

public abstract class Uri {
    public static Uri parse(String uriString) { throw new RuntimeException("Stub!"); }
    @Override public abstract String toString();
}
