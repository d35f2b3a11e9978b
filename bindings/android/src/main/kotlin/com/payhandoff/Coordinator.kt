package com.payhandoff

import org.json.JSONObject
import java.io.Closeable

/**
 * A coordinator's configuration (`payhandoff_coordinator_new`'s document); a null member takes the
 * core's default. [acceptUnverifiedCallbacks] lets a checkout callback without the nonce reach its
 * flow as a claim that never ends it.
 */
data class CoordinatorConfig @JvmOverloads constructor(
    val singlePendingPerKind: Boolean? = null,
    val checkoutTimeoutMs: Long? = null,
    val posGraceMs: Long? = null,
    val acceptUnverifiedCallbacks: Boolean? = null
) {
    /** `{"single_pending_per_kind", "checkout_timeout_ms", "pos_grace_ms", "accept_unverified_callbacks"}`, the members given. */
    fun toJson(): JSONObject = JSONObject()
        .putOpt("single_pending_per_kind", singlePendingPerKind)
        .putOpt("checkout_timeout_ms", checkoutTimeoutMs)
        .putOpt("pos_grace_ms", posGraceMs)
        .putOpt("accept_unverified_callbacks", acceptUnverifiedCallbacks)
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
    constructor(configJson: String? = null) : this(open(configJson))

    /** A new, empty coordinator with [config]. */
    constructor(config: CoordinatorConfig) : this(config.toJson().toString())

    /**
     * payhandoff_coordinator_send: what happened ([Event]'s subclasses are the event table of
     * docs/abi.md). A rejected event is an answer ([Outcome.Rejected], nothing changed); an event
     * the core cannot read (a bad member) throws [PayHandoffException].
     */
    fun send(event: Event): Answer = send(event.toJson().toString())

    /** payhandoff_coordinator_send with the event document as text, e.g. `{"type": "tick", "now": …}`. */
    fun send(eventJson: String): Answer = call { h, status ->
        Native.coordinatorSend(h, Call.utf8(eventJson, "event_json"), status)
    }

    /** payhandoff_coordinator_send with the event document as org.json. */
    fun send(event: JSONObject): Answer = send(event.toString())

    /** payhandoff_coordinator_handle_url: a deep link the OS handed the app, [nowMs] when it arrived. */
    @JvmOverloads
    fun handleUrl(uri: String, nowMs: Long = System.currentTimeMillis()): Answer = call { h, status ->
        Native.coordinatorHandleUrl(h, Call.utf8(uri, "url"), nowMs, status)
    }

    /**
     * The versioned snapshot to save; [restore] reads it after process death. No API key or POS
     * user token, but the flows' nonces and tokens (secret-bearing): keep it in a file of the
     * app's private storage, written atomically (a temporary file renamed into place), not in a
     * `Bundle` (it may take up to [PayHandoff.MAX_SNAPSHOT_BYTES]: over ~100 KB `onSaveInstanceState`
     * risks `TransactionTooLargeException`).
     */
    fun snapshot(): String = synchronized(this) {
        val status = IntArray(1)
        Call.document(status, Native.coordinatorSnapshot(live(), status)).toString()
    }

    /** The snapshot as a document: configuration, flows (typed, with their states) and the refund ledger. */
    fun snapshotDocument(): CoordinatorSnapshot = CoordinatorSnapshot(JSONObject(snapshot()))

    /** Every flow's id and state word (`in_browser`, `approved`, …), in the coordinator's order (read from the snapshot). */
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

    /**
     * What [restoreSalvage] kept of a damaged snapshot: the [coordinator] (every flow and ledger
     * entry that reads by [restore]'s rules; close it as any other) and what was [dropped], in
     * document order (empty for an intact snapshot). Show or log [dropped]: those flows are gone.
     */
    class Salvage internal constructor(val coordinator: Coordinator, val json: JSONObject) {
        /** One member left out: [member] by its path (`flows[2]`, `ledger.sales[0]`, `config`), and why, as [restore] would have refused it. */
        class Dropped internal constructor(val json: JSONObject) {
            val member: String = json.getString("member")
            val code: ErrorCode = Words.read(json, "code") { ErrorCode.of(it) }
            val field: String? = json.stringOrNull("field")
            val message: String = json.getString("message")

            /** The reason as the exception [restore] would have thrown. */
            val error: PayHandoffException
                get() = PayHandoffException(code, this.field, message)

            override fun toString(): String = "Dropped($member: ${error.message})"
        }

        val version: Int = json.getInt("version")
        /** The salvaged coordinator's snapshot (save it in place of the damaged one). */
        val snapshot: CoordinatorSnapshot = CoordinatorSnapshot(json.getJSONObject("snapshot"))
        val dropped: List<Dropped> = json.objects("dropped") { Dropped(it) }

        override fun toString(): String = "Salvage(${dropped.size} dropped: $dropped)"
    }

    companion object {
        /**
         * A coordinator from a [snapshot] (all or nothing); reads up to [PayHandoff.MAX_SNAPSHOT_BYTES]
         * of it, format 4, and PayHandoff 0.3's format 3 and 0.2's format 2 (converted). Another format is `unsupported_version`; a
         * damaged one throws naming the member (then [restoreSalvage] keeps what is intact).
         */
        @JvmStatic
        fun restore(snapshot: String): Coordinator = Coordinator(open(snapshot, Native::coordinatorRestore).first)

        /**
         * payhandoff_coordinator_restore_salvage: what is intact of a [snapshot] damaged outside the
         * library (a hand edit, a file mixed from two versions). Use it only after [restore] refused:
         * it keeps every valid flow and ledger entry, never widens what may be refunded (a lost
         * ledger record keeps its sale's refunds refused until its window closes), and lists what it
         * [Salvage.dropped]. Text that is not JSON (a torn write) or another format salvages nothing:
         * it throws as [restore] does.
         */
        @JvmStatic
        fun restoreSalvage(snapshot: String): Salvage {
            val (handle, document) = open(snapshot, Native::coordinatorRestoreSalvage)
            val coordinator = Coordinator(handle)
            try {
                return Salvage(coordinator, document)
            } catch (e: Throwable) {
                coordinator.close()
                throw e
            }
        }

        private fun open(text: String?, restore: (ByteArray?, LongArray, IntArray) -> ByteArray?): Pair<Long, JSONObject> {
            val bytes = Call.utf8(text, "snapshot_json")
            return created { handle, status -> restore(bytes, handle, status) }
        }

        private fun open(configJson: String?): Long =
            created { handle, status -> Native.coordinatorNew(Call.utf8(configJson, "config_json"), handle, status) }.first

        /** Runs a handle-creating call; on any failure the handle it may have written is freed. */
        private inline fun created(call: (LongArray, IntArray) -> ByteArray?): Pair<Long, JSONObject> {
            val handle = LongArray(1)
            val status = IntArray(1)
            try {
                val document = Call.document(status, call(handle, status))
                return handle[0] to document
            } catch (e: Throwable) {
                if (handle[0] != 0L) Native.coordinatorFree(handle[0])
                throw e
            }
        }
    }
}
