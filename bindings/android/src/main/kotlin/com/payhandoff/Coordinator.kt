package com.payhandoff

import org.json.JSONObject
import java.io.Closeable

/** What the coordinator did with an event or URL. */
sealed class Outcome {
    /** The event moved one or more flows. */
    object Accepted : Outcome()
    /** Already processed (the same deep link again): nothing changed. */
    object Duplicate : Outcome()
    /** Read, but it changes nothing (for example a deep link after the flow ended). */
    object Ignored : Outcome()
    /** Refused by a rule ([error] says which); nothing changed. */
    class Rejected(val error: PayHandoffException) : Outcome() {
        override fun toString(): String = "Rejected(${error.message})"
    }
    /** No flow of this coordinator is addressed (a deep link for another part of the app). */
    object NotOurs : Outcome()

    override fun toString(): String = javaClass.simpleName

    internal companion object {
        fun of(json: JSONObject): Outcome = when (val name = json.getString("outcome")) {
            "accepted" -> Accepted
            "duplicate" -> Duplicate
            "ignored" -> Ignored
            "rejected" -> Rejected(PayHandoffException.from(json.getJSONObject("error")))
            "not_ours" -> NotOurs
            else -> throw IllegalStateException("unknown coordinator outcome $name")
        }
    }
}

/** What the host must do, in order. The core never performs I/O: these are its requests to the app. */
sealed class Effect {
    /** POST this request to the gateway and send its answer back as `checkout.session` (holds the API key). */
    class SendRequest(val request: JSONObject) : Effect() {
        override fun toString(): String = "SendRequest(<holds the API key>)"
    }
    /** Ask the merchant backend to create the session with this return URL, then send `checkout.session`. */
    data class CreateSession(val kind: CheckoutKind, val returnUrl: String) : Effect()
    /** Open the checkout in the system browser tab (Custom Tabs). */
    data class OpenBrowser(val url: String) : Effect()
    /** Close the browser tab. */
    object CloseBrowser : Effect()
    /** Show "waiting for confirmation". */
    object ShowPending : Effect()
    /** Open the Billpocket app with this URL (holds the user token). */
    class OpenPosApp(val url: String) : Effect() {
        override fun toString(): String = "OpenPosApp(<holds the user token>)"
    }
    /** Show this hint to the user. */
    data class ShowHint(val message: String) : Effect()
    /** Ask the backend what really happened (for example after an unknown POS outcome). */
    data class Reconcile(val reason: String) : Effect()
    /** Save [Coordinator.snapshot] now. */
    object Persist : Effect()

    override fun toString(): String = javaClass.simpleName

    /** The effect's `type` as the C ABI spells it (`open_browser`, `persist`, …). */
    val type: String
        get() = when (this) {
            is SendRequest -> "send_request"
            is CreateSession -> "create_session"
            is OpenBrowser -> "open_browser"
            is CloseBrowser -> "close_browser"
            is ShowPending -> "show_pending"
            is OpenPosApp -> "open_pos_app"
            is ShowHint -> "show_hint"
            is Reconcile -> "reconcile"
            is Persist -> "persist"
        }

    internal companion object {
        fun of(json: JSONObject): Effect = when (val type = json.getString("type")) {
            "send_request" -> SendRequest(json.getJSONObject("request"))
            "create_session" -> CreateSession(checkoutKind(json.getString("kind")), json.getString("return_url"))
            "open_browser" -> OpenBrowser(json.getString("url"))
            "close_browser" -> CloseBrowser
            "show_pending" -> ShowPending
            "open_pos_app" -> OpenPosApp(json.getString("url"))
            "show_hint" -> ShowHint(json.getString("message"))
            "reconcile" -> Reconcile(json.getString("reason"))
            "persist" -> Persist
            else -> throw IllegalStateException("unknown effect $type")
        }
    }
}

/** One flow after an event: its state (`in_browser`, `approved`, …), the effects, and its full document. */
class Transition internal constructor(json: JSONObject) {
    val flowId: String = json.getString("flow_id")
    /** `checkout` or `pos`. */
    val flow: String = json.getString("flow")
    val state: String = json.getString("state")
    val effects: List<Effect> = json.getJSONArray("effects").let { a -> (0 until a.length()).map { Effect.of(a.getJSONObject(it)) } }
    /** The flow's snapshot document (amount, identifier, response, confirmation, …). */
    val details: JSONObject = json.getJSONObject("details")

    override fun toString(): String = "Transition($flowId: $state, $effects)"
}

/** The coordinator's answer to an event or URL. */
class Answer internal constructor(val json: JSONObject) {
    val outcome: Outcome = Outcome.of(json)
    /** Whether the snapshot changed and should be saved now. */
    val persist: Boolean = json.getBoolean("persist")
    val transitions: List<Transition> = json.getJSONArray("transitions").let { a ->
        (0 until a.length()).map { Transition(a.getJSONObject(it)) }
    }

    override fun toString(): String = "Answer($outcome, $transitions)"
}

/**
 * Every pending hand-off of the app, one deep-link entry point, one snapshot (a
 * `payhandoff_coordinator` handle; [Closeable], so [AutoCloseable] and `use {}` with any Kotlin). Calls on one coordinator are serialized (the C ABI requires
 * it), so it may be shared between threads. [close] frees the handle exactly once (a second
 * close, or the finalizer after close, does nothing); using a closed coordinator throws
 * [IllegalStateException].
 */
class Coordinator private constructor(private var handle: Long) : Closeable {
    /**
     * A new, empty coordinator; [configJson] e.g. `{"pos_grace_ms": 3000, "accept_unverified_callbacks": false}`,
     * null for the defaults.
     */
    @JvmOverloads
    constructor(configJson: String? = null) : this(open(configJson, restore = false))

    /** payhandoff_coordinator_send: an event document (docs/abi.md), e.g. `{"type": "tick", "now": …}`. */
    fun send(eventJson: String): Answer = call { h, status ->
        Native.coordinatorSend(h, Call.utf8(eventJson, "event_json"), status)
    }

    fun send(event: JSONObject): Answer = send(event.toString())

    /** payhandoff_coordinator_handle_url: a deep link the OS handed the app, [nowMs] when it arrived. */
    @JvmOverloads
    fun handleUrl(uri: String, nowMs: Long = System.currentTimeMillis()): Answer = call { h, status ->
        Native.coordinatorHandleUrl(h, Call.utf8(uri, "url"), nowMs, status)
    }

    /**
     * The versioned snapshot to save; [restore] reads it after process death. No API key or POS
     * user token, but the flows' nonces and tokens: keep it in app-private storage.
     */
    fun snapshot(): String = synchronized(this) {
        val status = IntArray(1)
        Call.document(status, Native.coordinatorSnapshot(live(), status)).toString()
    }

    /** Every flow's id and state, in the coordinator's order (read from the snapshot). */
    fun flowStates(): Map<String, String> {
        val flows = JSONObject(snapshot()).getJSONArray("flows")
        val states = LinkedHashMap<String, String>()
        for (i in 0 until flows.length()) {
            val flow = flows.getJSONObject(i)
            states[flow.getString("id")] = flow.getString("state")
        }
        return states
    }

    /** Frees the handle; later calls do nothing. */
    override fun close() {
        synchronized(this) {
            val h = handle
            handle = 0L
            if (h != 0L) Native.coordinatorFree(h)
        }
    }

    /**
     * The safety net for a coordinator nobody closed. Holding the lock on `this` keeps the object
     * reachable during every call (JLS 12.6.1: an object whose finalizer synchronizes on it is
     * reachable while a lock on it is held), so the finalizer cannot free a handle in use.
     */
    protected fun finalize() {
        try {
            close()
        } catch (ignored: Throwable) {
        }
    }

    private fun live(): Long {
        if (handle == 0L) throw IllegalStateException("this Coordinator is closed")
        return handle
    }

    private inline fun call(body: (Long, IntArray) -> ByteArray?): Answer = synchronized(this) {
        val status = IntArray(1)
        val bytes = body(live(), status)
        Answer(Call.document(status, bytes))
    }

    companion object {
        /** A coordinator from a [snapshot] (all or nothing); another format than this library's is `unsupported_version`. */
        @JvmStatic
        fun restore(snapshot: String): Coordinator = Coordinator(open(snapshot, restore = true))

        private fun open(text: String?, restore: Boolean): Long {
            val handle = LongArray(1)
            val status = IntArray(1)
            val bytes = if (restore) {
                Native.coordinatorRestore(Call.utf8(text, "snapshot_json"), handle, status)
            } else {
                Native.coordinatorNew(Call.utf8(text, "config_json"), handle, status)
            }
            try {
                Call.document(status, bytes)
            } catch (e: Throwable) {
                if (handle[0] != 0L) Native.coordinatorFree(handle[0])
                throw e
            }
            return handle[0]
        }
    }
}
