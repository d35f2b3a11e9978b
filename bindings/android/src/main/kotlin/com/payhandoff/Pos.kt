package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject

/**
 * One extra of the Android intent that starts a terminal app ([PosIntent.extras]), in the Java type
 * the app reads it as: [PosField] (`putExtra(String, String)`: every Billpocket extra), [IntValue]
 * (Square's `TOTAL_AMOUNT`), [LongValue] (Square's `AUTO_RETURN_TIMEOUT_MS`), [Bool] (Clip's
 * flags) and [StringArray] (`putStringArrayListExtra`: Square's `TENDER_TYPES`). [toString] hides
 * the value of a secret key (the user token, a PIN, SumUp's affiliate key) and the identifier's token.
 */
sealed class PosExtra {
    /** The extra's key. */
    abstract val key: String

    /** The value: a String, Int, Long, Boolean or List<String>, as the subclass says. */
    abstract val value: Any

    /** `putExtra(key, int)`. */
    data class IntValue(override val key: String, override val value: Int) : PosExtra()

    /** `putExtra(key, long)`. */
    data class LongValue(override val key: String, override val value: Long) : PosExtra()

    /** `putExtra(key, boolean)`. */
    data class Bool(override val key: String, override val value: Boolean) : PosExtra()

    /** `putStringArrayListExtra(key, ArrayList(value))`. */
    data class StringArray(override val key: String, override val value: List<String>) : PosExtra()

    internal companion object {
        /** An extra of the intent document: `{"key", "value"}` (a string) or `{"key", "type", "value"}`. */
        fun of(json: JSONObject): PosExtra {
            val key = json.getString("key")
            return when (val type = json.stringOrNull("type")) {
                null -> PosField(key, json.getString("value"))
                "int" -> IntValue(key, json.getInt("value"))
                "long" -> LongValue(key, json.getLong("value"))
                "bool" -> Bool(key, json.getBoolean("value"))
                "string_array" -> StringArray(key, json.getJSONArray("value").let { a -> (0 until a.length()).map { a.getString(it) } })
                else -> throw PayHandoffException(ErrorCode.ABI_MISMATCH, "type", "unknown intent extra type '$type' (${Words.NEWER})")
            }
        }
    }
}

/**
 * A key/value pair of a POS URL, in order, and a string intent extra ([toString] hides the user
 * token, SumUp's affiliate key and the identifier's token).
 */
data class PosField(override val key: String, override val value: String) : PosExtra() {
    override fun toString(): String = "PosField($key=${when {
        Redact.isSecretKey(key) -> REDACTED
        key == "identifier" || key == "PAYMENT_REFERENCE" || key.endsWith("REQUEST_METADATA") -> Redact.identifier(value)
        else -> value
    }})"
}

/**
 * A request for one terminal app, as `payhandoff_pos_build_url` and `pos.start` read it: [PosRequest]
 * (Billpocket: sales and refunds), [SquareRequest], [SumUpRequest] and [ClipRequest] (sales; their
 * refunds go through each provider's server API). Build them with [PosRequest.sale],
 * [PosRequest.refund], [PosRequest.square], [PosRequest.sumup] and [PosRequest.clip]. Nothing is
 * checked here: the core validates and names the member it refuses. [toString] never shows a
 * secret (the Billpocket user token, SumUp's affiliate key).
 */
interface PosAppRequest {
    /** The terminal app (`pos_app`; Billpocket's document leaves it out: absent means billpocket). */
    val posApp: PosApp

    /** The app's order reference; the app is sent `<identifier>~<token>`. */
    val identifier: String

    /** The request document (holds the secrets the terminal app needs). */
    fun toJson(): JSONObject

    /** The request document with every secret replaced by `<redacted>` (what [toString] prints). */
    fun toRedactedJson(): JSONObject
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
 *
 * The other terminal apps have their own request classes, made by the factories of this class's
 * companion ([square], [sumup], [clip]); all of them are [PosAppRequest]s.
 */
data class PosRequest @JvmOverloads constructor(
    val transaction: PosOperation,
    val usertoken: String,
    override val identifier: String,
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
) : PosAppRequest {
    /** [PosApp.BILLPOCKET]. */
    override val posApp: PosApp
        get() = PosApp.BILLPOCKET

    /** The request document (holds the user token). */
    override fun toJson(): JSONObject = json(redact = false)

    /** The request document without the user token. */
    override fun toRedactedJson(): JSONObject = json(redact = true)

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

        /**
         * A Square Point of Sale sale of [amount] in [currency] (ISO 4217, two decimals: `USD`,
         * `EUR`, …). [clientId] is Square's application id (public: it ships in every app, not a
         * secret); [callbackUrl] is where Square answers on iOS (`myapp://square-callback`). The
         * optional fields: `copy(notes = …, tenderTypes = …)` or [SquareRequest]'s constructor.
         */
        @JvmStatic
        fun square(clientId: String, identifier: String, amount: Amount, currency: String, callbackUrl: String) =
            SquareRequest(clientId, identifier, amount, currency, callbackUrl)

        /** [square] with the amount as decimal text (`"100.00"`). */
        @JvmStatic
        fun square(clientId: String, identifier: String, amount: String, currency: String, callbackUrl: String) =
            square(clientId, identifier, Amount.of(amount), currency, callbackUrl)

        /**
         * A SumUp sale of [amount] in [currency] (the logged-in merchant's). [affiliateKey] is a
         * secret bound to [appId] (your Android application id); [callbackUrl] is where SumUp
         * answers (`myapp://sumup-result`). The optional fields: `copy(title = …)` or
         * [SumUpRequest]'s constructor.
         */
        @JvmStatic
        fun sumup(affiliateKey: String, appId: String, identifier: String, amount: Amount, currency: String, callbackUrl: String) =
            SumUpRequest(affiliateKey, appId, identifier, amount, currency, callbackUrl)

        /** [sumup] with the amount as decimal text (`"100.00"`). */
        @JvmStatic
        fun sumup(affiliateKey: String, appId: String, identifier: String, amount: String, currency: String, callbackUrl: String) =
            sumup(affiliateKey, appId, identifier, Amount.of(amount), currency, callbackUrl)

        /**
         * A Clip sale of [amount] (Mexican pesos), for an app running on the Clip terminal itself.
         * The optional fields: `copy(tip = …, autoReturn = true)` or [ClipRequest]'s constructor.
         */
        @JvmStatic
        fun clip(identifier: String, amount: Amount) = ClipRequest(identifier, amount)

        /** [clip] with the amount as decimal text (`"100.00"`). */
        @JvmStatic
        fun clip(identifier: String, amount: String) = clip(identifier, Amount.of(amount))
    }
}

/** A tender Square may take (`tender_types`); the core maps each to Square's own word per platform. */
enum class SquareTenderType(val wire: String) {
    CARD("card"),
    CASH("cash"),
    OTHER("other"),
    CARD_ON_FILE("card_on_file");
}

/**
 * A Square Point of Sale sale (`pos_app: square`): JSON in `square-commerce-v1://payment/create?data=`
 * on iOS, an explicit `com.squareup.pos.action.CHARGE` intent on Android. [clientId] is Square's
 * application id, which is public (not redacted). [autoReturnMs] is 0 (none) or 3200…10000;
 * [skipReceipt] applies on iOS only.
 */
data class SquareRequest @JvmOverloads constructor(
    val clientId: String,
    override val identifier: String,
    val amount: Amount,
    val currency: String,
    val callbackUrl: String,
    val notes: String? = null,
    val locationId: String? = null,
    val customerId: String? = null,
    val tenderTypes: List<SquareTenderType>? = null,
    val autoReturnMs: Long? = null,
    val skipReceipt: Boolean? = null
) : PosAppRequest {
    override val posApp: PosApp
        get() = PosApp.SQUARE

    override fun toJson(): JSONObject = JSONObject()
        .put("pos_app", posApp.wire)
        .put("client_id", clientId)
        .put("identifier", identifier)
        .put("amount", amount.json)
        .put("currency", currency)
        .put("callback_url", callbackUrl)
        .putOpt("notes", notes)
        .putOpt("location_id", locationId)
        .putOpt("customer_id", customerId)
        .putOpt("tender_types", tenderTypes?.let { JSONArray(it.map { t -> t.wire }) })
        .putOpt("auto_return_ms", autoReturnMs)
        .putOpt("skip_receipt", skipReceipt)

    /** Square's request holds no secret: the same document. */
    override fun toRedactedJson(): JSONObject = toJson()

    override fun toString(): String = "SquareRequest${toJson()}"
}

/**
 * A SumUp sale (`pos_app: sumup`), through `sumupmerchant://pay/1.0?…` on both platforms (Android:
 * `ACTION_VIEW` on the URI). The `foreign-tx-id` SumUp gets is `<identifier>~<token>`: at most 128
 * bytes of printable ASCII, fresh for every `pos.start`. [affiliateKey] is a secret: [toString] and
 * [toRedactedJson] leave it out.
 */
data class SumUpRequest @JvmOverloads constructor(
    val affiliateKey: String,
    val appId: String,
    override val identifier: String,
    val amount: Amount,
    val currency: String,
    val callbackUrl: String,
    val title: String? = null,
    val receiptEmail: String? = null,
    val receiptPhone: String? = null,
    val skipSuccessScreen: Boolean? = null
) : PosAppRequest {
    override val posApp: PosApp
        get() = PosApp.SUMUP

    override fun toJson(): JSONObject = json(redact = false)

    override fun toRedactedJson(): JSONObject = json(redact = true)

    private fun json(redact: Boolean): JSONObject = JSONObject()
        .put("pos_app", posApp.wire)
        .put("affiliate_key", if (redact) REDACTED else affiliateKey)
        .put("app_id", appId)
        .put("identifier", identifier)
        .put("amount", amount.json)
        .put("currency", currency)
        .put("callback_url", callbackUrl)
        .putOpt("title", title)
        .putOpt("receipt_email", receiptEmail)
        .putOpt("receipt_phone", receiptPhone)
        .putOpt("skip_success_screen", skipSuccessScreen)

    override fun toString(): String = "SumUpRequest${json(redact = true)}"
}

/**
 * A Clip sale (`pos_app: clip`): an explicit `ACTION_MAIN` intent to Clip's payment activity, on the
 * Clip terminal itself (Android only; no URL, no iOS). Amounts go as exact decimal text; more than
 * 15 significant digits are refused. [component] (`"package/class"`) overrides Clip's activity
 * (null: the core's default). `CLIP_LOGIN_CREDENTIALS` is a Parcelable PayHandoff does not take:
 * add it to the intent yourself.
 */
data class ClipRequest @JvmOverloads constructor(
    override val identifier: String,
    val amount: Amount,
    val tip: Amount? = null,
    val autoReturn: Boolean? = null,
    val retry: Boolean? = null,
    val share: Boolean? = null,
    val component: String? = null
) : PosAppRequest {
    override val posApp: PosApp
        get() = PosApp.CLIP

    override fun toJson(): JSONObject = JSONObject()
        .put("pos_app", posApp.wire)
        .put("identifier", identifier)
        .put("amount", amount.json)
        .putOpt("tip", tip?.json)
        .putOpt("auto_return", autoReturn)
        .putOpt("retry", retry)
        .putOpt("share", share)
        .putOpt("component", component)

    /** Clip's request holds no secret: the same document. */
    override fun toRedactedJson(): JSONObject = toJson()

    override fun toString(): String = "ClipRequest${toJson()}"
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

/** An explicit component, `setClassName(packageName, className)` (Clip's payment activity). */
data class PosComponent(val packageName: String, val className: String) {
    /** `"package/class"`, as the documents write it. */
    override fun toString(): String = "$packageName/$className"

    companion object {
        /** The component written `"package/class"`; the class may start with `.` (relative to the package, as Android reads it). */
        @JvmStatic
        fun of(text: String): PosComponent {
            val slash = text.indexOf('/')
            require(slash > 0 && slash < text.length - 1) { "a component is \"package/class\"" }
            val cls = text.substring(slash + 1)
            val pkg = text.substring(0, slash)
            return PosComponent(pkg, if (cls.startsWith(".")) pkg + cls else cls)
        }
    }
}

/**
 * The Android intent that starts the terminal app, as data (android.* is not needed to read it):
 * [action]; the app's package [packageName] (`setPackage`; Billpocket `com.billpocket.billpocket`,
 * Square `com.squareup`, which the host may replace by the `com.squareup*` package installed) or
 * its [component] (`setClassName`; Clip); the [data] URI (`setData`; SumUp's
 * `sumupmerchant://pay/1.0?…`); the [extras] in order, typed ([PosExtra]). bindings/android/README.md
 * shows the five lines that make an `android.content.Intent` of it. An intent with neither
 * package nor component (SumUp) is implicit: set SumUp's package yourself to make it explicit.
 *
 * Billpocket: both actions are in use: when `resolveActivity` finds nothing for [action], try the
 * same intent with [otherAction]. Holds secrets (the user token, SumUp's affiliate key in [data],
 * the token): [toString] shows the action and the target only.
 */
data class PosIntent @JvmOverloads constructor(
    val action: String,
    val extras: List<PosExtra>,
    val packageName: String?,
    val component: PosComponent? = null,
    val data: String? = null
) {
    /** [action] as the vocabulary's constant; null for an action this binding does not know (every app but Billpocket). */
    val androidAction: PosAndroidAction?
        get() = PosAndroidAction.of(action)

    /** Billpocket's other action that starts the POS app (the fallback when nothing resolves [action]). */
    val otherAction: String
        get() = (PosAndroidAction.values().firstOrNull { it.wire != action } ?: PosAndroidAction.BILLPOCKET_PAYMENTS_START).wire

    /** Whether the intent names its target (a package or a component): only that app can receive it. */
    val isExplicit: Boolean
        get() = packageName != null || component != null

    override fun toString(): String =
        "PosIntent($action, ${component ?: packageName ?: "implicit"}${if (data != null) ", data <redacted>" else ""}, ${extras.size} extras <may hold secrets>)"

    internal companion object {
        fun of(json: JSONObject): PosIntent = PosIntent(
            json.getString("action"), json.objects("extras") { PosExtra.of(it) }, json.stringOrNull("package"),
            json.stringOrNull("component")?.let { PosComponent.of(it) }, json.stringOrNull("data"))
    }
}

/**
 * `payhandoff_pos_build_url`'s result: the terminal app ([posApp]), the [url] that opens it (iOS,
 * and Billpocket or SumUp anywhere; null for Clip, which has no URL), Billpocket's fields in order
 * (empty for the other apps), and the same request as an Android [intent]. With a token,
 * [identifier] is the identifier sent (`<identifier>~<token>`, which the answer must echo) and
 * [token] the token; both are null otherwise. Holds secrets: do not log it.
 */
class PosUrl internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    /** `pos_app` (always written; billpocket when absent). */
    val posApp: PosApp = Words.readOptional(json, "pos_app") { PosApp.of(it) } ?: PosApp.BILLPOCKET
    /** The URL that opens the app; null for Clip (Android intent only). */
    val url: String? = json.stringOrNull("url")
    /** Billpocket's fields, in order (the other apps' documents have none). */
    val fields: List<PosField> = json.objects("fields") { PosField(it.getString("key"), it.getString("value")) }
    val intent: PosIntent = PosIntent.of(json.getJSONObject("intent"))
    val identifier: String? = json.stringOrNull("identifier")
    val token: String? = json.stringOrNull("token")

    override fun toString(): String = "PosUrl($posApp, <holds secrets>)"
}

/**
 * The terminal app's answer: every member of the answer document (docs/abi.md), keyed like
 * Billpocket's response table (the other apps' answers are mapped onto the same keys: their
 * transaction id is [transactionId], the echoed correlation value [identifier]). [result] and
 * [identifier] are always there; the others are null when the answer left them out. Amounts are
 * the text the core prints (`"100.00"`); [creditCard] is the card's last four digits.
 */
class PosResponse internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    /** `pos_app`: the app that answered (absent: Billpocket). */
    val posApp: PosApp = Words.readOptional(json, "pos_app") { PosApp.of(it) } ?: PosApp.BILLPOCKET
    /**
     * `result`: approved, declined or error; [PosResult.CANCELLED] when the sale was cancelled in
     * the terminal app (nothing charged; never Billpocket, whose cancelled sale is an error);
     * [PosResult.UNRECOGNIZED] for a word PayHandoff does not know, or an answer it cannot tie to
     * an outcome (never an approval: the outcome is unknown, reconcile it; the word is [resultWord]).
     */
    val result: PosResult = Words.read(json, "result") { PosResult.of(it) }
    /** `error_code`: the terminal app's error code as written (Square `ERROR_CODE`, Clip `PAYMENT_ERROR`), when the document has it. */
    val errorCode: String? = json.stringOrNull("error_code")
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
    /** `transactionid`: the app's transaction id (a Billpocket refund needs it; Square's server id, SumUp's `smp-tx-code`, Clip's receipt number). */
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

    /** The document with the identifier's token hidden (`ord-1~<redacted>`), and any `extra` under a secret's key (an echoed affiliate key). */
    override fun toString(): String {
        val shown = JSONObject(json.toString()).put("identifier", Redact.identifier(identifier))
        shown.optJSONObject("extra")?.let { extra -> for (key in extra.keys().asSequence().toList()) if (Redact.isSecretKey(key)) extra.put(key, REDACTED) }
        return "PosResponse($shown)"
    }
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

/** The POS hand-off's stateless calls, for every terminal app. The `…Json` forms take the C ABI's documents as text. */
object Pos {
    /**
     * payhandoff_pos_build_url. With [token] (16-128 unreserved characters) the identifier sent is
     * `<identifier>~<token>`, so that only an answer echoing it can be read as this sale's.
     */
    @JvmStatic
    @JvmOverloads
    fun buildUrl(request: PosAppRequest, token: String? = null): PosUrl =
        buildUrlJson(request.toJson().putOpt("token", token).toString())

    /** payhandoff_pos_build_url with a fresh token from the system's random source ([PosUrl.token]). */
    @JvmStatic
    fun buildUrlWithFreshToken(request: PosAppRequest): PosUrl = buildUrlJson(request.toJson().put("token", true).toString())

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

    /**
     * payhandoff_pos_parse_response for [posApp]'s answer URL: Square on iOS and SumUp answer on
     * their request's [answerOn] (its `callback_url`); Billpocket on its `urlScheme` ([answerOn]
     * is then the scheme, as in the other [parseResponse]). Clip has no URL answer (its answer is
     * [parseResult]'s). [identifier] and [token] as in the other [parseResponse].
     */
    @JvmStatic
    @JvmOverloads
    fun parseResponse(url: String, posApp: PosApp, answerOn: String, identifier: String? = null, token: String? = null): PosResponse =
        parseResponseJson(url, JSONObject().put("pos_app", posApp.wire)
            .put(if (posApp == PosApp.BILLPOCKET) "urlScheme" else "callback_url", answerOn)
            .putOpt("identifier", identifier).putOpt("token", token).toString())

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

    /**
     * payhandoff_pos_parse_result for [posApp]'s Android result (`onActivityResult(requestCode,
     * resultCode, data)`): [resultCode] as Android gave it (`RESULT_OK` = -1, `RESULT_CANCELED` =
     * 0; null when unknown: the core only reads it, the extras decide) and [extras] the data's
     * extras as text, null when the result brought no data (the app crashed, was uninstalled or
     * the user backed out): there is no answer to read, and the core says so (its error); in a
     * coordinator, `Event.PosResult` with null extras moves the flow to
     * `RETURNED_WITHOUT_RESPONSE` with `Reconcile`. Billpocket, Square and Clip answer this way;
     * SumUp by URL only. [identifier] and [token] as in [parseResponse].
     */
    @JvmStatic
    @JvmOverloads
    fun parseResult(posApp: PosApp, resultCode: Int?, extras: Map<String, String>?, identifier: String? = null, token: String? = null): PosResponse =
        parseResultJson(extras?.let { JSONObject(it).toString() } ?: "null",
            JSONObject().put("pos_app", posApp.wire).putOpt("result_code", resultCode).putOpt("identifier", identifier).putOpt("token", token).toString())

    /** payhandoff_pos_parse_result with its documents as text: `{"result": "aprobada", …}` (or `null`: no data) and `{"pos_app", "result_code", "identifier", "token"}`. */
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
