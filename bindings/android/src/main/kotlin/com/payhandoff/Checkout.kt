package com.payhandoff

import org.json.JSONObject

/**
 * A hosted-checkout session request, the document `payhandoff_checkout_build_request` reads (and
 * `checkout.start`'s `request`): a card registration ([Cards]) or a payment ([Payments]). Nothing
 * is checked here: the core validates. Holds the API key: [toString] leaves it out.
 */
sealed class CheckoutRequest {
    abstract val kind: CheckoutKind
    abstract val apiKey: String
    /** The return URL as registered (without the nonce); null for the iframe integration. */
    abstract val returnUrl: String?
    /** The gateway's base URL; null for the default. */
    abstract val baseUrl: String?
    abstract val integration: CheckoutIntegration?
    /** Extra body members passed through to the gateway (amounts as integer minor units or text). */
    abstract val fields: JSONObject?

    /** Card registration: `POST /v1/cards`, confirmed by `card.registered`. */
    class Cards @JvmOverloads constructor(
        override val apiKey: String,
        val provider: String,
        val customerId: String,
        /** The origins the checkout page may talk to (at least one). */
        val targetOrigin: List<String>,
        val customer: Customer,
        override val returnUrl: String? = null,
        override val baseUrl: String? = null,
        override val integration: CheckoutIntegration? = null,
        override val fields: JSONObject? = null
    ) : CheckoutRequest() {
        override val kind: CheckoutKind get() = CheckoutKind.CARDS
    }

    /** Payment: `POST /v1/payments`, confirmed by `payment.confirmed`. */
    class Payments @JvmOverloads constructor(
        override val apiKey: String,
        override val returnUrl: String? = null,
        override val fields: JSONObject? = null,
        override val baseUrl: String? = null,
        override val integration: CheckoutIntegration? = null
    ) : CheckoutRequest() {
        override val kind: CheckoutKind get() = CheckoutKind.PAYMENTS
    }

    /** The card holder of a card registration. */
    data class Customer @JvmOverloads constructor(val name: String, val lastname: String, val email: String, val phone: String? = null)

    /** The request document (holds the API key). */
    fun toJson(): JSONObject = json(redact = false)

    internal fun json(redact: Boolean): JSONObject {
        val o = JSONObject().put("kind", kind.wire).put("api_key", if (redact) REDACTED else apiKey)
        if (this is Cards) {
            o.put("provider", provider).put("customer_id", customerId).put("target_origin", org.json.JSONArray(targetOrigin))
            o.put("customer", JSONObject().put("name", customer.name).put("lastname", customer.lastname)
                .put("email", customer.email).putOpt("phone", customer.phone))
        }
        return o.putOpt("return_url", returnUrl).putOpt("base_url", baseUrl).putOpt("integration", integration?.wire)
            .putOpt("fields", fields)
    }

    override fun toString(): String = "CheckoutRequest${json(redact = true)}"
}

/**
 * A checkout session as the host learned it, the document `payhandoff_checkout_parse_session` reads
 * (and `checkout.session`'s `session`): the gateway's answer as received ([Gateway]), or what the
 * merchant backend passed on ([Backend]).
 */
sealed class CheckoutSessionInput {
    abstract val kind: CheckoutKind

    /**
     * The gateway's HTTP answer: [status] and [body] as received (a JSONObject, JSONArray, String, a
     * Map or List of such values, …; null for none).
     */
    class Gateway(override val kind: CheckoutKind, val status: Int, val body: Any?) : CheckoutSessionInput() {
        override fun toString(): String = "Gateway(kind=$kind, status=$status)"
    }

    /** The session the merchant backend created: where to send the user, and its ids if known. */
    data class Backend @JvmOverloads constructor(
        override val kind: CheckoutKind,
        val checkoutUrl: String,
        val sessionId: String? = null,
        val cardId: String? = null,
        val paymentId: String? = null
    ) : CheckoutSessionInput() {
        override fun toString(): String = "Backend${json(redact = true)}"
    }

    /** The session document. */
    fun toJson(): JSONObject = json(redact = false)

    /** [toJson], or with [redact] what `toString()` shows: the checkout URL's origin, no gateway body. */
    internal fun json(redact: Boolean): JSONObject = when (this) {
        is Gateway -> JSONObject().put("kind", kind.wire).put("status", status)
            .put("body", if (redact) REDACTED else JSONObject.wrap(body) ?: JSONObject.NULL)
        is Backend -> JSONObject().put("kind", kind.wire).put("checkout_url", if (redact) Redact.url(checkoutUrl) else checkoutUrl)
            .putOpt("session_id", sessionId).putOpt("card_id", cardId).putOpt("payment_id", paymentId)
    }
}

/**
 * The gateway's webhook as the merchant backend relays it (`checkout.confirmation`'s `event`, and
 * a checkout flow's stored `confirmation`): the only thing that confirms a checkout.
 */
class ConfirmationEvent(val type: ConfirmationType, val data: JSONObject) {
    /** `{"type": "card.registered", "data": {…}}`. */
    fun toJson(): JSONObject = json(redact = false)

    /** [toJson], or with [redact] what `toString()` shows: `data.token` (the card token's reference) hidden. */
    internal fun json(redact: Boolean): JSONObject {
        val shown = if (redact && data.has("token")) JSONObject(data.toString()).put("token", REDACTED) else data
        return JSONObject().put("type", type.wire).put("data", shown)
    }

    override fun toString(): String = "ConfirmationEvent(${json(redact = true)})"

    internal companion object {
        fun read(json: JSONObject) = ConfirmationEvent(Words.read(json, "type") { ConfirmationType.of(it) }, json.getJSONObject("data"))
    }
}

/** One HTTP header of a gateway request. */
data class Header(val name: String, val value: String) {
    override fun toString(): String = "Header($name, <value not shown: may hold the API key>)"
}

/** An HTTP request to send to the gateway as it is. Holds the API key (`Authorization`): do not log it. */
class HttpRequest internal constructor(val json: JSONObject) {
    val method: String = json.getString("method")
    val url: String = json.getString("url")
    val headers: List<Header> = json.objects("headers") { Header(it.getString("name"), it.getString("value")) }
    /** The JSON body to send. */
    val body: JSONObject = json.getJSONObject("body")

    override fun toString(): String = "HttpRequest($method $url, <holds the API key>)"
}

/**
 * `payhandoff_checkout_build_request`'s result: the gateway [request] to send and [returnUrl], the
 * return URL with PayHandoff's nonce in it (the one the body already carries; register only the
 * URL without it). Holds the API key: do not log it.
 */
class BuiltCheckoutRequest internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    val kind: CheckoutKind = Words.read(json, "kind") { CheckoutKind.of(it) }
    val request: HttpRequest = HttpRequest(json.getJSONObject("request"))
    /** Null for the iframe integration (no return URL); [browserReturnUrl] is the same, non-null. */
    val returnUrl: String? = json.stringOrNull("return_url")
    /**
     * The return URL with the nonce, for a browser-tab request (the default integration, the only
     * one with a return URL): where the gateway sends the user back. Throws
     * [IllegalStateException] for an iframe request, which has none.
     */
    val browserReturnUrl: String
        get() = returnUrl ?: throw IllegalStateException("an iframe checkout request has no return URL")
    /** Null for the iframe integration (no return URL). */
    val nonce: String? = json.stringOrNull("nonce")
    /** Advice about the request (a live key in an app, an iframe with a return URL). */
    val warnings: List<String> = json.stringList("warnings")

    override fun toString(): String = "BuiltCheckoutRequest(kind=$kind, url=${request.url}, <holds the API key>)"
}

/** `payhandoff_checkout_parse_session`'s result: where to send the user. */
class CheckoutSession internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    val kind: CheckoutKind = Words.read(json, "kind") { CheckoutKind.of(it) }
    val checkoutUrl: String = json.getString("checkout_url")
    val sessionId: String? = json.stringOrNull("session_id")
    val cardId: String? = json.stringOrNull("card_id")
    val paymentId: String? = json.stringOrNull("payment_id")

    /** The checkout URL shows its origin only: the gateway's page may carry the return URL with the nonce. */
    override fun toString(): String = "CheckoutSession(${JSONObject(json.toString()).put("checkout_url", Redact.url(checkoutUrl))})"
}

/** A checked checkout deep link. [CheckoutStatus.COMPLETED] means awaiting confirmation, never confirmed. */
class CheckoutCallback internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    val kind: CheckoutKind = Words.read(json, "kind") { CheckoutKind.of(it) }
    val status: CheckoutStatus = Words.read(json, "status") { CheckoutStatus.of(it) }
    /** False when the callback carried no nonce: it confirms nothing by itself. */
    val verified: Boolean = json.getBoolean("verified")
    val cardId: String? = json.stringOrNull("card_id")
    val paymentId: String? = json.stringOrNull("payment_id")
    val reason: String? = json.stringOrNull("reason")
    /** Query parameters PayHandoff does not know, as sent. */
    val extra: Map<String, String> = json.stringMap("extra")
    /** `truncated`: in a flow's stored copy, the members cut short or left out; empty otherwise. */
    val truncated: List<String> = json.stringList("truncated")

    /**
     * The document with the other parameters' values hidden: whoever sent the URL chose them, and a
     * gateway or an older app may echo the nonce there (`ph_nonce=`, as PayHandoff 0.2 sent it).
     */
    override fun toString(): String {
        val shown = JSONObject(json.toString())
        val hidden = JSONObject()
        for (key in extra.keys) hidden.put(key, REDACTED)
        if (extra.isNotEmpty()) shown.put("extra", hidden)
        return "CheckoutCallback($shown)"
    }
}

/**
 * `payhandoff_checkout_parse_confirmation`'s result: a relayed webhook, the source of truth.
 * [cardId] is set for `card.registered`, [paymentId] for `payment.confirmed`.
 */
class CheckoutConfirmation internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    val type: ConfirmationType = Words.read(json, "type") { ConfirmationType.of(it) }
    val cardId: String? = json.stringOrNull("card_id")
    val paymentId: String? = json.stringOrNull("payment_id")
    val brand: String? = json.stringOrNull("brand")
    val lastFour: String? = json.stringOrNull("last_four")
    /** `token`: the reference of the card token the gateway stored. */
    val token: String? = json.stringOrNull("token")
    /** The confirmed amount, as the core prints it (`"100.00"`). */
    val amount: String? = json.stringOrNull("amount")
    /** The webhook's `…_at` members as they came: each a `String` (`"2026-11-30T16:00:00Z"`) or a `Long`. */
    val timestamps: Map<String, Any> = json.getJSONObject("timestamps").let { o ->
        val map = LinkedHashMap<String, Any>()
        for (key in o.keys()) {
            val value = o.get(key)
            map[key] = if (value is Number) value.toLong() else value.toString()
        }
        map
    }

    override fun toString(): String = "CheckoutConfirmation(type=$type, card_id=$cardId, payment_id=$paymentId)"
}

/** Hosted checkout, stateless calls. The `…Json` forms take the C ABI's documents as text (docs/abi.md). */
object Checkout {
    /**
     * payhandoff_checkout_build_request; [nonce] (16-128 unreserved characters) is the one to put
     * into the return URL, a fresh one from the system random source when null.
     */
    @JvmStatic
    @JvmOverloads
    fun buildRequest(request: CheckoutRequest, nonce: String? = null): BuiltCheckoutRequest =
        buildRequestJson(request.toJson().putOpt("nonce", nonce).toString())

    /** payhandoff_checkout_build_request: `{"kind", "api_key", "return_url", …}`. */
    @JvmStatic
    fun buildRequestJson(requestJson: String): BuiltCheckoutRequest {
        val status = IntArray(1)
        return BuiltCheckoutRequest(Call.document(status,
            Native.checkoutBuildRequest(Call.utf8(requestJson, "request_json"), status)))
    }

    /** payhandoff_checkout_parse_session: a non-2xx gateway answer is `gateway_error`. */
    @JvmStatic
    fun parseSession(session: CheckoutSessionInput): CheckoutSession = parseSessionJson(session.toJson().toString())

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
        val options = JSONObject().put("kind", kind.wire).put("return_url", returnUrl).putOpt("nonce", nonce)
            .putOpt("expected_id", expectedId)
        if (acceptUnverified) options.put("accept_unverified", true)
        return parseCallbackJson(url, options.toString())
    }

    @JvmStatic
    fun parseCallbackJson(url: String, optionsJson: String): CheckoutCallback {
        val status = IntArray(1)
        val bytes = Native.checkoutParseCallback(Call.utf8(url, "url"), Call.utf8(optionsJson, "options_json"), status)
        return CheckoutCallback(Call.document(status, bytes))
    }

    /** payhandoff_checkout_parse_confirmation: the relayed webhook. */
    @JvmStatic
    fun parseConfirmation(event: ConfirmationEvent): CheckoutConfirmation = parseConfirmationJson(event.toJson().toString())

    /** payhandoff_checkout_parse_confirmation: `{"type": "card.registered" | "payment.confirmed", "data": {…}}`. */
    @JvmStatic
    fun parseConfirmationJson(eventJson: String): CheckoutConfirmation {
        val status = IntArray(1)
        return CheckoutConfirmation(Call.document(status,
            Native.checkoutParseConfirmation(Call.utf8(eventJson, "event_json"), status)))
    }
}
