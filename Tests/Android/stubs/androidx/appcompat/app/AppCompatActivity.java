// androidx.appcompat.app.AppCompatActivity — upstream: androidx/androidx,
// appcompat/appcompat/src/main/java/androidx/appcompat/app/AppCompatActivity.java (androidx.appcompat
// 1.7.0). Upstream it extends ComponentActivity through androidx.fragment.app.FragmentActivity; here directly.
// Signature-only stand-in (no Android SDK, no androidx here): the signatures the guides' examples
// use, every body throws as android.jar's do; no upstream code. make consumer-check compiles
// bindings/android/README.md's examples against these and the AAR's classes.jar.
package androidx.appcompat.app;

public class AppCompatActivity extends androidx.activity.ComponentActivity {
    public AppCompatActivity() { throw new RuntimeException("Stub!"); }
}
