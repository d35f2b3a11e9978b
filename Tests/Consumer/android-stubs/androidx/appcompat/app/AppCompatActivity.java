// Signature-only stand-in of androidx.appcompat.app.AppCompatActivity (make consumer-check).
package androidx.appcompat.app;

public class AppCompatActivity extends android.app.Activity {
    public AppCompatActivity() { throw new RuntimeException("Stub!"); }
}
