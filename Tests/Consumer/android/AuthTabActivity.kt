@file:Suppress("UNUSED_PARAMETER")

// What the Android guide's *Auth Tab* block (bindings/android/README.md) takes from the Activity it
// joins: make consumer-check pastes the block, as written, at the marker below and compiles it
// against the AAR's classes.jar and the stand-ins of Tests/Android/stubs (androidx.browser 1.9.0,
// androidx.activity, android.*). Not part of the guide; the imports are the ones the guide names.
import android.net.Uri
import androidx.appcompat.app.AppCompatActivity
import androidx.browser.auth.AuthTabIntent
import androidx.browser.customtabs.CustomTabsClient
import androidx.browser.customtabs.CustomTabsIntent
import com.payhandoff.Answer
import com.payhandoff.Coordinator
import com.payhandoff.Effect
import com.payhandoff.Event
import com.payhandoff.ReturnTo

class AuthTabActivity : AppCompatActivity() {
    private lateinit var coordinator: Coordinator
    private var pendingCheckoutFlowId: String? = null
    private fun render(answer: Answer) {}

    // README: Auth Tab
}
