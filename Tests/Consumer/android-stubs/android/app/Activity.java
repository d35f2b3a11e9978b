// Signature-only stand-in of android.app.Activity: the methods the guides' Activities use (make
// consumer-check; bodies throw, as android.jar's).
package android.app;

import android.content.Intent;
import android.os.Bundle;

public class Activity {
    public Activity() { throw new RuntimeException("Stub!"); }
    protected void onCreate(Bundle savedInstanceState) { throw new RuntimeException("Stub!"); }
    protected void onNewIntent(Intent intent) { throw new RuntimeException("Stub!"); }
    public Intent getIntent() { throw new RuntimeException("Stub!"); }
    public void startActivity(Intent intent) { throw new RuntimeException("Stub!"); }
}
