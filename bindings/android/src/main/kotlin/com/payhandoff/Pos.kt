package com.payhandoff

import org.json.JSONObject

/** A key/value pair of a POS URL, in order ([toString] hides the user token and the identifier's token). */
data class PosField(val key: String, val value: String) {
    override fun toString(): String = "PosField($key=${when {
        Redact.isSecretKey(key) -> REDACTED
        key == "identifier" -> Redact.identifier(value)
        else -> value
    }})"
}

/**
 * A Billpocket request, keyed like Billpocket's table; [toJson] is the document
 * `payhandoff_pos_build_url` reads (and `pos.start`'s `request`). Nothing is checked here: the
 * core validates. Holds the user token: [toString] leaves it out.
 *
 * [androidAction] is the action of the Android intent that starts the POS app ([PosUrl.intent]),
 * not a field sent to it: null leaves it to the core, whose default is
 * [PosAndroidAction.BILLPOCKET_PAYMENTS_START] (Billpocket's own plugin's; docs/abi.md, "The
 * Android action"). Set the other with `request.copy(androidAction = …)`.
 */
data class PosRequest @JvmOverloads constructor(
    val transaction: PosOperation,
    val usertoken: String,
    val identifier: String,
    val urlScheme: String,
    val amount: Amount? = null,
    val transactionId: String? = null,
    val tip: Amount? = null,
    val msi: Int? = null,
    val reference: String? = null,
    val email: String? = null,
    val phone: String? = null,
    val showPhotoButton: Boolean? = null,
    val mandatoryPhoto: Boolean? = null,
    val comesFromQR: Boolean? = null,
    val androidAction: PosAndroidAction? = null
) {
    /** The request document (holds the user token). */
    fun toJson(): JSONObject = json(redact = false)

    internal fun json(redact: Boolean): JSONObject = JSONObject()
        .put("transaction", transaction.wire)
        .put("usertoken", if (redact) REDACTED else usertoken)
        .put("identifier", identifier)
        .put("urlScheme", urlScheme)
        .putOpt("amount", amount?.json)
        .putOpt("transactionId", transactionId)
        .putOpt("tip", tip?.json)
        .putOpt("msi", msi)
        .putOpt("reference", reference)
        .putOpt("email", email)
        .putOpt("phone", phone)
        .putOpt("showPhotoButton", showPhotoButton)
        .putOpt("mandatoryPhoto", mandatoryPhoto)
        .putOpt("comesFromQR", comesFromQR)
        .putOpt("android_action", androidAction?.wire)

    override fun toString(): String = "PosRequest${json(redact = true)}"

    companion object {
        /** A sale (`venta`) of [amount]. */
        @JvmStatic
        fun sale(usertoken: String, identifier: String, amount: Amount, urlScheme: String) =
            PosRequest(PosOperation.VENTA, usertoken, identifier, urlScheme, amount = amount)

        /** A sale (`venta`) of [amount], decimal text (`"100.00"`). */
        @JvmStatic
        fun sale(usertoken: String, identifier: String, amount: String, urlScheme: String) =
            sale(usertoken, identifier, Amount.of(amount), urlScheme)

        /**
         * A refund (`devolucion`) of the sale whose `transactionid` is [transactionId]; without
         * [amount] the coordinator refunds what is left of the sale.
         */
        @JvmStatic
        @JvmOverloads
        fun refund(usertoken: String, identifier: String, transactionId: String, urlScheme: String, amount: Amount? = null) =
            PosRequest(PosOperation.DEVOLUCION, usertoken, identifier, urlScheme, amount = amount, transactionId = transactionId)

        /** A refund of [amount], decimal text (`"40.00"`). */
        @JvmStatic
        fun refund(usertoken: String, identifier: String, transactionId: String, urlScheme: String, amount: String) =
            refund(usertoken, identifier, transactionId, urlScheme, Amount.of(amount))
    }
}

/**
 * An approved sale a refund refers to when the coordinator has no flow of it (`pos.start`'s `sale`,
 * and the sale of [Pos.refundCheck]). Times are epoch seconds.
 */
data class PosSale @JvmOverloads constructor(
    val transactionId: String,
    val amount: Amount,
    val approvedAtSeconds: Long,
    val bpVersion: String? = null
) {
    /** `{"transactionid", "amount", "approved_at", "bp_version"}`. */
    fun toJson(): JSONObject = JSONObject()
        .put("transactionid", transactionId)
        .put("amount", amount.json)
        .put("approved_at", approvedAtSeconds)
        .putOpt("bp_version", bpVersion)
}

/**
 * The Android intent that starts the POS app: [action] (the request's `android_action`) with
 * [extras] in order (`userToken` in camelCase), for the POS app's package [packageName]
 * (`com.billpocket.billpocket`: set it on the intent, so that no other app declaring the action
 * receives the user token, or check that it is installed). Both actions are in use: when
 * `resolveActivity` finds nothing for [action], try the same intent with [otherAction].
 */
data class PosIntent(val action: String, val extras: List<PosField>, val packageName: String) {
    /** [action] as the vocabulary's constant; null for an action this binding does not know. */
    val androidAction: PosAndroidAction?
        get() = PosAndroidAction.of(action)

    /** The other action that starts the POS app (the fallback when nothing resolves [action]). */
    val otherAction: String
        get() = (PosAndroidAction.values().firstOrNull { it.wire != action } ?: PosAndroidAction.BILLPOCKET_PAYMENTS_START).wire

    override fun toString(): String = "PosIntent($action, $packageName, <holds the user token>)"
}

/**
 * `payhandoff_pos_build_url`'s result: the URL that opens the POS app, its fields in order, and the
 * same request as an Android [intent]. With a token, [identifier] is the identifier sent
 * (`<identifier>~<token>`, which the answer must echo) and [token] the token; both are null
 * otherwise. Holds the user token: do not log it.
 */
class PosUrl internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    val url: String = json.getString("url")
    val fields: List<PosField> = fields(json, "fields")
    val intent: PosIntent = json.getJSONObject("intent").let { PosIntent(it.getString("action"), fields(it, "extras"), it.getString("package")) }
    val identifier: String? = json.stringOrNull("identifier")
    val token: String? = json.stringOrNull("token")

    override fun toString(): String = "PosUrl(<holds the user token>)"

    private companion object {
        fun fields(json: JSONObject, key: String): List<PosField> = json.objects(key) { PosField(it.getString("key"), it.getString("value")) }
    }
}

/**
 * The POS app's answer: every member of the answer document (docs/abi.md), keyed like Billpocket's
 * response table. [result] and [identifier] are always there; the others are null when the
 * answer left them out. Amounts are the text the core prints (`"100.00"`); [creditCard] is the
 * card's last four digits.
 */
class PosResponse internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    /**
     * `result`: approved, declined or error; [PosResult.UNRECOGNIZED] for a word PayHandoff does
     * not know (never an approval: the outcome is unknown, reconcile it; the word is [resultWord]).
     */
    val result: PosResult = Words.read(json, "result") { PosResult.of(it) }
    /** `result_word`: the POS app's word as sent, only when [result] is [PosResult.UNRECOGNIZED]. */
    val resultWord: String? = json.stringOrNull("result_word")
    /**
     * `identifier` as echoed: `<identifier>~<token>` when the request carried a token; in a
     * transition's details ([PosFlowDetails.response]) the app's identifier alone.
     */
    val identifier: String = json.getString("identifier")
    /** `statusinfo`: why, typically on error or decline. */
    val statusInfo: String? = json.stringOrNull("statusinfo")
    /** `amount`, tip excluded. */
    val amount: String? = json.stringOrNull("amount")
    /** `tip`. */
    val tip: String? = json.stringOrNull("tip")
    /** `reference`: the request's reference text. */
    val reference: String? = json.stringOrNull("reference")
    /** `transactionid`: Billpocket's transaction id (a refund needs it). */
    val transactionId: String? = json.stringOrNull("transactionid")
    /** `msi`: monthly installments. */
    val msi: Int? = if (json.has("msi")) json.getInt("msi") else null
    /** `authorization`: the issuer's authorization code. */
    val authorization: String? = json.stringOrNull("authorization")
    /** `creditcard`: the card's last four digits. */
    val creditCard: String? = json.stringOrNull("creditcard")
    /** `cardtype`. */
    val cardType: String? = json.stringOrNull("cardtype")
    /** `email`: the customer's e-mail. */
    val email: String? = json.stringOrNull("email")
    /** `phone`: the customer's phone. */
    val phone: String? = json.stringOrNull("phone")
    /** `arqc`: the chip cryptogram. */
    val arqc: String? = json.stringOrNull("arqc")
    /** `aid`: the chip application identifier. */
    val aid: String? = json.stringOrNull("aid")
    /** `applabel`: the chip application label. */
    val appLabel: String? = json.stringOrNull("applabel")
    /** `url`: the digital voucher's identifier. */
    val voucherUrl: String? = json.stringOrNull("url")
    /** `bank`: the card issuer. */
    val bank: String? = json.stringOrNull("bank")
    /** `accountType`: credit or debit. */
    val accountType: AccountType? = Words.readOptional(json, "accountType") { AccountType.of(it) }
    /** `name`: the cardholder's name. */
    val cardholderName: String? = json.stringOrNull("name")
    /** `bp_version`: the POS app's version. */
    val bpVersion: String? = json.stringOrNull("bp_version")
    /** `extra`: keys PayHandoff does not know, as sent. */
    val extra: Map<String, String> = json.stringMap("extra")
    /** `truncated`: in a flow's stored copy, the members cut short or left out; empty otherwise. */
    val truncated: List<String> = json.stringList("truncated")

    /** The document with the identifier's token hidden (`ord-1~<redacted>`). */
    override fun toString(): String = "PosResponse(${JSONObject(json.toString()).put("identifier", Redact.identifier(identifier))})"
}

/**
 * `payhandoff_pos_refund_check`'s verdict: whether a sale can be refunded now; a "no" is a verdict,
 * not an error. Times are epoch seconds (the `…Local` forms Mexico City time, ISO 8601).
 */
class RefundCheck internal constructor(val json: JSONObject) {
    /** Why the refund is not possible now. */
    data class Reason(val code: RefundReason, val message: String)

    /** What could not be checked, without blocking the refund. */
    data class Warning(val code: RefundWarning, val message: String)

    val version: Int = json.getInt("version")
    val eligible: Boolean = json.getBoolean("eligible")
    /** The amount the refund would be (the sale's when none was asked). */
    val refundAmount: String = json.getString("refund_amount")
    /** The first second a refund is allowed (one minute after approval). */
    val eligibleFrom: Long = json.getLong("eligible_from")
    val eligibleFromLocal: String = json.getString("eligible_from_local")
    /** The first second a refund is no longer allowed (23:00 Mexico City on the sale's day). */
    val deadline: Long = json.getLong("deadline")
    val deadlineLocal: String = json.getString("deadline_local")
    val reasons: List<Reason> = json.objects("reasons") { Reason(Words.read(it, "code") { w -> RefundReason.of(w) }, it.getString("message")) }
    val warnings: List<Warning> = json.objects("warnings") { Warning(Words.read(it, "code") { w -> RefundWarning.of(w) }, it.getString("message")) }

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
        buildUrlJson(request.toJson().putOpt("token", token).toString())

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
    fun parseResponse(url: String, urlScheme: String, identifier: String? = null, token: String? = null): PosResponse =
        parseResponseJson(url, JSONObject().put("urlScheme", urlScheme).putOpt("identifier", identifier).putOpt("token", token).toString())

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
    fun parseResult(extras: Map<String, String>, identifier: String? = null, token: String? = null): PosResponse =
        parseResultJson(JSONObject(extras).toString(), JSONObject().putOpt("identifier", identifier).putOpt("token", token).toString())

    /** payhandoff_pos_parse_result with its documents as text: `{"result": "aprobada", …}` and `{"identifier", "token"}`. */
    @JvmStatic
    fun parseResultJson(extrasJson: String, optionsJson: String): PosResponse {
        val status = IntArray(1)
        val bytes = Native.posParseResult(Call.utf8(extrasJson, "extras_json"), Call.utf8(optionsJson, "options_json"), status)
        return PosResponse(Call.document(status, bytes))
    }

    /**
     * payhandoff_pos_refund_check: whether [sale] can be refunded now ([nowSeconds], epoch
     * seconds), for [amount] or, without it, the whole sale.
     */
    @JvmStatic
    @JvmOverloads
    fun refundCheck(sale: PosSale, nowSeconds: Long, amount: Amount? = null): RefundCheck =
        refundCheckJson(JSONObject().put("sale", sale.toJson()).putOpt("amount", amount?.json).put("now", nowSeconds).toString())

    /** payhandoff_pos_refund_check: `{"sale": {…}, "amount", "now"}` (epoch seconds). */
    @JvmStatic
    fun refundCheckJson(inputJson: String): RefundCheck {
        val status = IntArray(1)
        return RefundCheck(Call.document(status, Native.posRefundCheck(Call.utf8(inputJson, "input_json"), status)))
    }
}
