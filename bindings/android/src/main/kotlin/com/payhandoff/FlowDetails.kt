package com.payhandoff

import org.json.JSONObject

/**
 * A flow as the coordinator's snapshot holds it (a transition's `details`, a snapshot's `flows`):
 * [CheckoutFlowDetails] or [PosFlowDetails]. Copies of what came from outside are bounded (docs/abi.md).
 * Holds the flow's nonce or token, which make its answers genuine: [toString] leaves them out.
 */
sealed class FlowDetails(val json: JSONObject) {
    val id: String = json.getString("id")
    val type: FlowType = Words.read(json, "type") { FlowType.of(it) }
    /** A [CheckoutState] or [PosState]; the subclasses type it. */
    abstract val state: Enum<*>

    /** The state named [word] in this flow type's states, or null for a word this binding does not know. */
    internal abstract fun stateOf(word: String): Enum<*>?

    override fun toString(): String = "${javaClass.simpleName}($id: $state)"

    internal companion object {
        fun of(json: JSONObject): FlowDetails = when (Words.read(json, "type") { FlowType.of(it) }) {
            FlowType.CHECKOUT -> CheckoutFlowDetails(json)
            FlowType.POS -> PosFlowDetails(json)
        }
    }
}

/** A checkout flow: where it stands, and what the gateway, the deep link and the webhook said. */
class CheckoutFlowDetails internal constructor(json: JSONObject) : FlowDetails(json) {
    override val state: CheckoutState = Words.read(json, "state") { CheckoutState.of(it) }
    val kind: CheckoutKind = Words.read(json, "kind") { CheckoutKind.of(it) }
    /** The return URL as registered (without the nonce). */
    val returnUrl: String = json.getString("return_url")
    /** Null only for a checkout started without one under `accept_unverified_callbacks`. */
    val nonce: String? = json.stringOrNull("nonce")
    /** When the flow expires, epoch ms. */
    val deadlineMs: Long = json.getLong("deadline")
    val session: CheckoutSession? = json.objectOrNull("session") { CheckoutSession(it) }
    val callback: CheckoutCallback? = json.objectOrNull("callback") { CheckoutCallback(it) }
    /** The relayed webhook, as received. */
    val confirmation: ConfirmationEvent? = json.objectOrNull("confirmation") { ConfirmationEvent.read(it) }
    val failureReason: String? = json.stringOrNull("failure_reason")

    override fun stateOf(word: String): Enum<*>? = CheckoutState.of(word)
}

/** A POS hand-off: what was sent, and what the POS app answered. */
class PosFlowDetails internal constructor(json: JSONObject) : FlowDetails(json) {
    override val state: PosState = Words.read(json, "state") { PosState.of(it) }
    val operation: PosOperation = Words.read(json, "operation") { PosOperation.of(it) }
    /** The app's identifier; the POS app is sent `<identifier>~<token>`. */
    val identifier: String = json.getString("identifier")
    /** The flow's token (what makes its answer genuine). */
    val token: String = json.getString("token")
    /** The `urlScheme` the answer comes back on. */
    val answerScheme: String = json.getString("answer_scheme")
    /** The amount sent, as the core prints it. */
    val amount: String? = json.stringOrNull("amount")
    /** A refund's sale. */
    val saleTransactionId: String? = json.stringOrNull("sale_transactionid")
    val graceMs: Long = json.getLong("grace_ms")
    /** When the app came back to the front, epoch ms (the grace period's start). */
    val foregroundedAtMs: Long? = json.longOrNull("foregrounded_at")
    /** The answer (its stored copy: see [PosResponse.truncated]). */
    val response: PosResponse? = json.objectOrNull("response") { PosResponse(it) }
    val answeredAtMs: Long? = json.longOrNull("answered_at")
    val launchFailure: String? = json.stringOrNull("launch_failure")

    override fun stateOf(word: String): Enum<*>? = PosState.of(word)
}

/** One booked approval of the refund ledger (dropped when the sale's refund window closes). */
class LedgerEntry internal constructor(val json: JSONObject) {
    val transactionId: String = json.getString("transactionid")
    /** The flow that booked it; null for a sale known only from a refund's `sale` document. */
    val flowId: String? = json.stringOrNull("flow_id")
    val operation: PosOperation = Words.read(json, "operation") { PosOperation.of(it) }
    /** A sale's refundable amount, or what a refund booked. */
    val amount: String = json.getString("amount")
    val refunded: String = json.getString("refunded")
    val approvedAtMs: Long = json.getLong("approved_at")
    val expiresAtMs: Long = json.getLong("expires_at")

    override fun toString(): String = "LedgerEntry($json)"
}

/**
 * The coordinator's snapshot as a document ([Coordinator.snapshotDocument]): its configuration,
 * every flow and the refund ledger. No API key or user token, but the flows' nonces and tokens.
 */
class CoordinatorSnapshot internal constructor(val json: JSONObject) {
    /** The configuration in force, every member filled in. */
    class Config internal constructor(json: JSONObject) {
        val singlePendingPerKind: Boolean = json.getBoolean("single_pending_per_kind")
        val checkoutTimeoutMs: Long = json.getLong("checkout_timeout_ms")
        val posGraceMs: Long = json.getLong("pos_grace_ms")
        val acceptUnverifiedCallbacks: Boolean = json.getBoolean("accept_unverified_callbacks")
    }

    /** The snapshot format (2 for this library). */
    val version: Int = json.getInt("version")
    val config: Config = Config(json.getJSONObject("config"))
    val flows: List<FlowDetails> = json.objects("flows") { FlowDetails.of(it) }
    val ledger: List<LedgerEntry> = json.objects("ledger") { LedgerEntry(it) }

    override fun toString(): String = "CoordinatorSnapshot(flows=$flows, ledger=${ledger.size} entries)"
}
