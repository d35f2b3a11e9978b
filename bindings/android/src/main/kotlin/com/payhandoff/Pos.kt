package com.payhandoff

import org.json.JSONObject

/** A key/value pair of a POS URL, in order. */
data class PosField(val key: String, val value: String)

/**
 * A Billpocket request, keyed like Billpocket's table; [toJson] is the document
 * `payhandoff_pos_build_url` reads. Nothing is checked here: the core validates.
 * Amounts are decimal text ("100.00") or integer minor units, never floating point.
 */
data class PosRequest(
    val transaction: String,
    val usertoken: String,
    val identifier: String,
    val urlScheme: String,
    val amount: String? = null,
    val transactionId: String? = null,
    val tip: String? = null,
    val msi: Int? = null,
    val reference: String? = null,
    val email: String? = null,
    val phone: String? = null,
    val showPhotoButton: Boolean? = null,
    val mandatoryPhoto: Boolean? = null,
    val comesFromQR: Boolean? = null
) {
    fun toJson(): JSONObject {
        val o = JSONObject()
        o.put("transaction", transaction).put("usertoken", usertoken).put("identifier", identifier)
        o.put("urlScheme", urlScheme)
        if (amount != null) o.put("amount", amount)
        if (transactionId != null) o.put("transactionId", transactionId)
        if (tip != null) o.put("tip", tip)
        if (msi != null) o.put("msi", msi)
        if (reference != null) o.put("reference", reference)
        if (email != null) o.put("email", email)
        if (phone != null) o.put("phone", phone)
        if (showPhotoButton != null) o.put("showPhotoButton", showPhotoButton)
        if (mandatoryPhoto != null) o.put("mandatoryPhoto", mandatoryPhoto)
        if (comesFromQR != null) o.put("comesFromQR", comesFromQR)
        return o
    }

    override fun toString(): String = "PosRequest(transaction=$transaction, identifier=$identifier, usertoken=<redacted>)"

    companion object {
        fun sale(usertoken: String, identifier: String, amount: String, urlScheme: String) =
            PosRequest("venta", usertoken, identifier, urlScheme, amount = amount)

        fun refund(usertoken: String, identifier: String, transactionId: String, urlScheme: String, amount: String? = null) =
            PosRequest("devolucion", usertoken, identifier, urlScheme, amount = amount, transactionId = transactionId)
    }
}

/** The Android intent that starts the POS app: [action] with [extras] in order (`userToken` in camelCase). */
data class PosIntent(val action: String, val extras: List<PosField>) {
    override fun toString(): String = "PosIntent($action, <holds the user token>)"
}

/**
 * The URL that opens the POS app, its fields in order, and the same request as an Android
 * [intent]. With a token, [identifier] is the identifier sent (`<identifier>~<token>`, which the
 * answer must echo) and [token] the token; both are null otherwise. Holds the user token: do not log it.
 */
class PosUrl internal constructor(val json: JSONObject) {
    val url: String = json.getString("url")
    val fields: List<PosField> = fields(json.getJSONArray("fields"))
    val intent: PosIntent = json.getJSONObject("intent").let { PosIntent(it.getString("action"), fields(it.getJSONArray("extras"))) }
    val identifier: String? = json.stringOrNull("identifier")
    val token: String? = json.stringOrNull("token")

    override fun toString(): String = "PosUrl(<holds the user token>)"

    private companion object {
        fun fields(array: org.json.JSONArray): List<PosField> = (0 until array.length()).map {
            val o = array.getJSONObject(it)
            PosField(o.getString("key"), o.getString("value"))
        }
    }
}

/** The POS app's answer. */
class PosResponse internal constructor(val json: JSONObject) {
    enum class Result { APPROVED, DECLINED, ERROR }

    val result: Result = when (val r = json.getString("result")) {
        "approved" -> Result.APPROVED
        "declined" -> Result.DECLINED
        "error" -> Result.ERROR
        else -> throw IllegalStateException("unknown POS result $r")
    }
    val identifier: String? = json.stringOrNull("identifier")
    val amount: String? = json.stringOrNull("amount")
    val tip: String? = json.stringOrNull("tip")
    val transactionId: String? = json.stringOrNull("transactionid")
    val authorization: String? = json.stringOrNull("authorization")
    val statusInfo: String? = json.stringOrNull("statusinfo")
    val reference: String? = json.stringOrNull("reference")
    val msi: Int? = if (json.has("msi")) json.getInt("msi") else null
    val creditCard: String? = json.stringOrNull("creditcard")
    val cardType: String? = json.stringOrNull("cardtype")
    val accountType: String? = json.stringOrNull("accountType")
    val bpVersion: String? = json.stringOrNull("bp_version")
    /** Keys PayHandoff does not know, as sent. */
    val extra: Map<String, String> = json.stringMap("extra")

    override fun toString(): String = "PosResponse($json)"
}

/**
 * Whether a sale can be refunded now; a "no" is a verdict, not an error. [reasons] say why not;
 * [warnings] name what could not be checked without blocking (`pos_app_version_unknown`).
 */
class RefundCheck internal constructor(val json: JSONObject) {
    data class Reason(val code: String, val message: String)

    val eligible: Boolean = json.getBoolean("eligible")
    val refundAmount: String? = json.stringOrNull("refund_amount")
    val eligibleFrom: Long? = if (json.has("eligible_from")) json.getLong("eligible_from") else null
    val deadline: Long? = if (json.has("deadline")) json.getLong("deadline") else null
    val reasons: List<Reason> = reasons(json, "reasons")
    val warnings: List<Reason> = reasons(json, "warnings")

    private companion object {
        fun reasons(json: JSONObject, key: String): List<Reason> = json.optJSONArray(key).let { a ->
            if (a == null) emptyList() else (0 until a.length()).map {
                Reason(a.getJSONObject(it).getString("code"), a.getJSONObject(it).getString("message"))
            }
        }
    }

    override fun toString(): String = "RefundCheck($json)"
}

/** Billpocket POS, stateless calls. The `…Json` forms take the C ABI's documents as text. */
object Pos {
    /**
     * payhandoff_pos_build_url. With [token] (16-128 unreserved characters) the identifier sent is
     * `<identifier>~<token>`, so that only an answer echoing it can be read as this sale's.
     */
    @JvmStatic
    @JvmOverloads
    fun buildUrl(request: PosRequest, token: String? = null): PosUrl =
        buildUrlJson(request.toJson().also { if (token != null) it.put("token", token) }.toString())

    /** payhandoff_pos_build_url with a fresh token from the system's random source ([PosUrl.token]). */
    @JvmStatic
    fun buildUrlWithFreshToken(request: PosRequest): PosUrl = buildUrlJson(request.toJson().put("token", true).toString())

    @JvmStatic
    fun buildUrlJson(requestJson: String): PosUrl {
        val status = IntArray(1)
        return PosUrl(Call.document(status, Native.posBuildUrl(Call.utf8(requestJson, "request_json"), status)))
    }

    /**
     * payhandoff_pos_parse_response; with [identifier], an answer to another request is
     * `callback_mismatch` (reported before any other problem); with [token] too, the answer must
     * echo `<identifier>~<token>` ([PosUrl.identifier]).
     */
    @JvmStatic
    @JvmOverloads
    fun parseResponse(url: String, urlScheme: String, identifier: String? = null, token: String? = null): PosResponse {
        val options = JSONObject().put("urlScheme", urlScheme)
        if (identifier != null) options.put("identifier", identifier)
        if (token != null) options.put("token", token)
        return parseResponseJson(url, options.toString())
    }

    @JvmStatic
    fun parseResponseJson(url: String, optionsJson: String): PosResponse {
        val status = IntArray(1)
        val bytes = Native.posParseResponse(Call.utf8(url, "url"), Call.utf8(optionsJson, "options_json"), status)
        return PosResponse(Call.document(status, bytes))
    }

    /**
     * payhandoff_pos_parse_result: the POS app's answer as Android result extras
     * (`onActivityResult`), read by the same rules as an answer URL but without percent-decoding.
     * [identifier] and [token] as in [parseResponse].
     */
    @JvmStatic
    @JvmOverloads
    fun parseResult(extras: Map<String, String>, identifier: String? = null, token: String? = null): PosResponse {
        val document = JSONObject()
        for ((key, value) in extras) document.put(key, value)
        val options = JSONObject()
        if (identifier != null) options.put("identifier", identifier)
        if (token != null) options.put("token", token)
        return parseResultJson(document.toString(), options.toString())
    }

    /** payhandoff_pos_parse_result with its documents as text: `{"result": "aprobada", …}` and `{"identifier", "token"}`. */
    @JvmStatic
    fun parseResultJson(extrasJson: String, optionsJson: String): PosResponse {
        val status = IntArray(1)
        val bytes = Native.posParseResult(Call.utf8(extrasJson, "extras_json"), Call.utf8(optionsJson, "options_json"), status)
        return PosResponse(Call.document(status, bytes))
    }

    /** payhandoff_pos_refund_check: `{"sale": {…}, "amount", "now"}` (epoch seconds). */
    @JvmStatic
    fun refundCheckJson(inputJson: String): RefundCheck {
        val status = IntArray(1)
        return RefundCheck(Call.document(status, Native.posRefundCheck(Call.utf8(inputJson, "input_json"), status)))
    }
}
