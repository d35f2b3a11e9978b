// Signature-only stand-in of android.os.Bundle (no Android SDK here): what the guides' examples
// call compiles against it; every body throws, like the SDK's android.jar. make consumer-check.
package android.os;

public class Bundle {
    public Bundle() { throw new RuntimeException("Stub!"); }
}
