@file:Suppress("UNUSED_PARAMETER")

// What the Android guide's Kotlin Activity takes from the app itself (bindings/android/README.md,
// *First integration*): compiled next to it by make consumer-check. Not part of the guide.
import com.payhandoff.Effect
import com.payhandoff.Transition

val posUserToken = "bp-user-token"
fun savedSnapshot(): String? = null
fun saveSnapshot(snapshot: String) {}
fun show(transition: Transition, effect: Effect) {}
