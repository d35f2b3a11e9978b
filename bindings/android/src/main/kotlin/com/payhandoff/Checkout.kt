package com.payhandoff

import org.json.JSONObject

/** The [CheckoutKind] (Vocabulary.kt) of a document the core wrote: always one it knows. */
internal fun checkoutKind(wire: String): CheckoutKind =
    CheckoutKind.of(wire) ?: throw IllegalStateException("unknown checkout kind $wire")

/** One HTTP header of a gateway request. */
data class Header(val name: String, val value: String)

/**
 * The gateway request to send and [returnUrl], the return URL with PayHandoff's nonce in it (the
 * one the body already carries; register only the URL without it). Holds the API key: do not log it.
 */
class CheckoutRequest internal constructor(val json: JSONObject) {
    val kind: CheckoutKind = checkoutKind(json.getString("kind"))
    val method: String = json.getJSONObject("request").getString("method")
    val url: String = json.getJSONObject("request").getString("url")
    val headers: List<Header> = json.getJSONObject("request").getJSONArray("headers").let { a ->
        (0 until a.length()).map { Header(a.getJSONObject(it).getString("name"), a.getJSONObject(it).getString("value")) }
    }
    /** The JSON body to POST. */
    val body: JSONObject = json.getJSONObject("request").getJSONObject("body")
    /** Null for the iframe integration (no return URL). */
    val returnUrl: String? = json.stringOrNull("return_url")
    val nonce: String? = json.stringOrNull("nonce")
    val warnings: List<String> = json.optJSONArray("warnings").let { a ->
        if (a == null) emptyList() else (0 until a.length()).map { a.get(it).toString() }
    }

    override fun toString(): String = "CheckoutRequest(kind=$kind, url=$url, <holds the API key>)"
}

/** A checkout session: where to send the user. */
class CheckoutSession internal constructor(val json: JSONObject) {
    val kind: CheckoutKind = checkoutKind(json.getString("kind"))
    val checkoutUrl: String = json.getString("checkout_url")
    val sessionId: String? = json.stringOrNull("session_id")
    val cardId: String? = json.stringOrNull("card_id")
    val paymentId: String? = json.stringOrNull("payment_id")

    override fun toString(): String = "CheckoutSession($json)"
}

/** A checked checkout deep link. `completed` means awaiting confirmation, never confirmed. */
class CheckoutCallback internal constructor(val json: JSONObject) {
    enum class Status { COMPLETED, FAILED, CANCELLED }

    val kind: CheckoutKind = checkoutKind(json.getString("kind"))
    val status: Status = when (val s = json.getString("status")) {
        "completed" -> Status.COMPLETED
        "failed" -> Status.FAILED
        "cancelled" -> Status.CANCELLED
        else -> throw IllegalStateException("unknown checkout status $s")
    }
    /** False when the callback carried no nonce: it confirms nothing by itself. */
    val verified: Boolean = json.getBoolean("verified")
    val cardId: String? = json.stringOrNull("card_id")
    val paymentId: String? = json.stringOrNull("payment_id")
    val reason: String? = json.stringOrNull("reason")
    val extra: Map<String, String> = json.stringMap("extra")

    override fun toString(): String = "CheckoutCallback($json)"
}

/** A relayed webhook (`card.registered` / `payment.confirmed`): the source of truth. */
class CheckoutConfirmation internal constructor(val json: JSONObject) {
    val type: String = json.getString("type")
    val cardId: String? = json.stringOrNull("card_id")
    val paymentId: String? = json.stringOrNull("payment_id")
    val brand: String? = json.stringOrNull("brand")
    val lastFour: String? = json.stringOrNull("last_four")
    val amount: String? = json.stringOrNull("amount")
    val timestamps: Map<String, String> = json.stringMap("timestamps")

    override fun toString(): String = "CheckoutConfirmation(type=$type, card_id=$cardId, payment_id=$paymentId)"
}

/** Hosted checkout, stateless calls. The `…Json` forms take the C ABI's documents as text (docs/abi.md). */
object Checkout {
    /** payhandoff_checkout_build_request: `{"kind", "api_key", "return_url", …}`. */
    @JvmStatic
    fun buildRequestJson(requestJson: String): CheckoutRequest {
        val status = IntArray(1)
        return CheckoutRequest(Call.document(status,
            Native.checkoutBuildRequest(Call.utf8(requestJson, "request_json"), status)))
    }

    /** payhandoff_checkout_parse_session: the gateway's `{"kind", "status", "body"}` or the backend's data. */
    @JvmStatic
    fun parseSessionJson(sessionJson: String): CheckoutSession {
        val status = IntArray(1)
        return CheckoutSession(Call.document(status,
            Native.checkoutParseSession(Call.utf8(sessionJson, "session_json"), status)))
    }

    /**
     * payhandoff_checkout_parse_callback, [returnUrl] as registered (without the nonce). [nonce] is
     * required unless [acceptUnverified]; then a callback without the nonce comes back with
     * `verified == false` (anyone can send one: never let it end anything).
     */
    @JvmStatic
    @JvmOverloads
    fun parseCallback(url: String, kind: CheckoutKind, returnUrl: String, nonce: String? = null,
                      expectedId: String? = null, acceptUnverified: Boolean = false): CheckoutCallback {
        val options = JSONObject().put("kind", kind.wire).put("return_url", returnUrl)
        if (nonce != null) options.put("nonce", nonce)
        if (expectedId != null) options.put("expected_id", expectedId)
        if (acceptUnverified) options.put("accept_unverified", true)
        return parseCallbackJson(url, options.toString())
    }

    @JvmStatic
    fun parseCallbackJson(url: String, optionsJson: String): CheckoutCallback {
        val status = IntArray(1)
        val bytes = Native.checkoutParseCallback(Call.utf8(url, "url"), Call.utf8(optionsJson, "options_json"), status)
        return CheckoutCallback(Call.document(status, bytes))
    }

    /** payhandoff_checkout_parse_confirmation: `{"type": "card.registered" | "payment.confirmed", "data": {…}}`. */
    @JvmStatic
    fun parseConfirmationJson(eventJson: String): CheckoutConfirmation {
        val status = IntArray(1)
        return CheckoutConfirmation(Call.document(status,
            Native.checkoutParseConfirmation(Call.utf8(eventJson, "event_json"), status)))
    }
}
