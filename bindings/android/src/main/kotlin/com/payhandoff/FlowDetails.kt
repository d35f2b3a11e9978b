package com.payhandoff

import org.json.JSONObject

/**
 * A flow as a transition's `details` show it (and a snapshot's `flows`): [CheckoutFlowDetails] or
 * [PosFlowDetails]. Copies of what came from outside are bounded (docs/abi.md). Details carry no
 * correlation secret (no checkout nonce, no POS token), so an app may log them; a snapshot's
 * flows do hold them, in [json] only (the snapshot is secret-bearing).
 */
sealed class FlowDetails(val json: JSONObject) {
    val id: String = json.getString("id")
    val type: FlowType = Words.read(json, "type") { FlowType.of(it) }
    /** Whether the host gave this flow's nonce or token (`given_key`, in a snapshot's flows only): its key is remembered once the flow is forgotten. */
    val keyGiven: Boolean = json.optBoolean("given_key", false)
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
    /** When the flow expires, epoch ms. */
    val deadlineMs: Long = json.getLong("deadline")
    val session: CheckoutSession? = json.objectOrNull("session") { CheckoutSession(it) }
    val callback: CheckoutCallback? = json.objectOrNull("callback") { CheckoutCallback(it) }
    /** The relayed webhook, as received. */
    val confirmation: ConfirmationEvent? = json.objectOrNull("confirmation") { ConfirmationEvent.read(it) }
    /** Why the session could not be created (`checkout.session_failed`); a failed callback's reason is in [callback]. */
    val failureReason: String? = json.stringOrNull("failure_reason")

    override fun stateOf(word: String): Enum<*>? = CheckoutState.of(word)
}

/** A POS hand-off: what was sent, and what the terminal app answered. */
class PosFlowDetails internal constructor(json: JSONObject) : FlowDetails(json) {
    /** The terminal app (`pos_app`; absent: Billpocket). */
    val posApp: PosApp = Words.readOptional(json, "pos_app") { PosApp.of(it) } ?: PosApp.BILLPOCKET
    /** [PosState.CANCELLED]: cancelled in the terminal app, nothing charged (never Billpocket). */
    override val state: PosState = Words.read(json, "state") { PosState.of(it) }
    val operation: PosOperation = Words.read(json, "operation") { PosOperation.of(it) }
    /** The app's identifier; the POS app is sent `<identifier>~<token>` (the token is not shown here). */
    val identifier: String = json.getString("identifier")
    /** The scheme the answer comes back on (Billpocket's `urlScheme`, Square's or SumUp's callback URL's); null for Clip (it answers by `onActivityResult` only). */
    val answerScheme: String? = json.stringOrNull("answer_scheme")
    /** The amount sent, as the core prints it. */
    val amount: String? = json.stringOrNull("amount")
    /** A refund's sale. */
    val saleTransactionId: String? = json.stringOrNull("sale_transactionid")
    val graceMs: Long = json.getLong("grace_ms")
    /** When the app came back to the front, epoch ms (the grace period's start). */
    val foregroundedAtMs: Long? = json.longOrNull("foregrounded_at")
    /** The answer (its stored copy: see [PosResponse.truncated]; its identifier is the app's, without the token). */
    val response: PosResponse? = json.objectOrNull("response") { PosResponse(it) }
    val answeredAtMs: Long? = json.longOrNull("answered_at")
    val launchFailure: String? = json.stringOrNull("launch_failure")

    override fun stateOf(word: String): Enum<*>? = PosState.of(word)
}

/**
 * The refund ledger of a snapshot (format 4, as format 3's): what approved sales may still refund, tracked to the
 * centavo until 23:00 Mexico City on the sale's day. Amounts are integer centavos.
 */
class RefundLedger internal constructor(val json: JSONObject) {
    /** An approved sale: [amountMinor] refundable, [refundedMinor] of it paid back by approved refunds. */
    class Sale internal constructor(val transactionId: String, val amountMinor: Long, val refundedMinor: Long, val approvedAtMs: Long) {
        override fun toString(): String = "Sale($transactionId: $refundedMinor of $amountMinor refunded)"
    }

    /** An approved refund and what it took from its sale. */
    class Refund internal constructor(val transactionId: String, val amountMinor: Long, val approvedAtMs: Long) {
        override fun toString(): String = "Refund($transactionId: $amountMinor)"
    }

    /** A sale whose balance is unknown (a salvaged snapshot lost its record): its refunds are refused until [untilMs]. */
    class Unknown internal constructor(val transactionId: String, val untilMs: Long) {
        override fun toString(): String = "Unknown($transactionId until $untilMs)"
    }

    /** Every entry whose window closed at or before this time (epoch ms) may have been dropped; 0 when none was. */
    val prunedThroughMs: Long = json.optLong("pruned_through", 0L)
    /** `[transactionid, amount, refunded, approved_at]` each. */
    val sales: List<Sale> = json.listOf("sales") { a, i ->
        a.getJSONArray(i).let { Sale(it.getString(0), it.getLong(1), it.getLong(2), it.getLong(3)) }
    }
    /** `[transactionid, amount, approved_at]` each. */
    val refunds: List<Refund> = json.listOf("refunds") { a, i ->
        a.getJSONArray(i).let { Refund(it.getString(0), it.getLong(1), it.getLong(2)) }
    }
    /** `[transactionid, until]` each. */
    val unknown: List<Unknown> = json.listOf("unknown") { a, i -> a.getJSONArray(i).let { Unknown(it.getString(0), it.getLong(1)) } }

    override fun toString(): String = "RefundLedger(${sales.size} sales, ${refunds.size} refunds, ${unknown.size} unknown)"
}

/**
 * The coordinator's snapshot as a document ([Coordinator.snapshotDocument]): its configuration,
 * every flow and the refund ledger. No API key or user token, but the flows' nonces and tokens (in
 * [json]): secret-bearing, keep it in the app's private storage.
 */
class CoordinatorSnapshot internal constructor(val json: JSONObject) {
    /** The configuration in force, every member filled in. */
    class Config internal constructor(json: JSONObject) {
        val singlePendingPerKind: Boolean = json.getBoolean("single_pending_per_kind")
        val checkoutTimeoutMs: Long = json.getLong("checkout_timeout_ms")
        val posGraceMs: Long = json.getLong("pos_grace_ms")
        val acceptUnverifiedCallbacks: Boolean = json.getBoolean("accept_unverified_callbacks")
    }

    /** The snapshot format (4 for this library). */
    val version: Int = json.getInt("version")
    val config: Config = Config(json.getJSONObject("config"))
    val flows: List<FlowDetails> = json.objects("flows") { FlowDetails.of(it) }
    val ledger: RefundLedger = RefundLedger(json.optJSONObject("ledger") ?: JSONObject())
    /** Only in a coordinator converted from format 3 or 2 whose flows reserved past its limit: what
     *  they reserve, in bytes; starts are refused until they fit (docs/abi.md). */
    val convertedReserveBytes: Long? = if (json.has("converted_reserve")) json.getLong("converted_reserve") else null

    /** A forgotten flow's host-given key, kept as a digest until [untilMs] (`"*"`: every host-given key, after a salvage that could not read them; [untilMs] 0 until the next event). */
    class RememberedKey internal constructor(val digest: String, val untilMs: Long) {
        override fun toString(): String = "RememberedKey(until $untilMs)"
    }

    /** `remembered_keys`: the host-given keys of forgotten flows, until their horizon. */
    val rememberedKeys: List<RememberedKey> = json.optJSONArray("remembered_keys")?.let { a ->
        (0 until a.length()).map { i -> a.getJSONArray(i).let { RememberedKey(it.getString(0), it.getLong(1)) } }
    } ?: emptyList()

    /** `latest_event`: the latest event time the coordinator saw, beside [rememberedKeys] (their
     *  horizons count time seen to pass from it, at most 12 h per jump); null without remembered keys. */
    val latestEventMs: Long? = if (json.has("latest_event")) json.getLong("latest_event") else null

    override fun toString(): String = "CoordinatorSnapshot(flows=$flows, $ledger)"
}
