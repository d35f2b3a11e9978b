package com.payhandoff

import org.json.JSONObject

/**
 * An event for [Coordinator.send]: everything the host tells PayHandoff, each with the time it
 * happened ([nowMs], epoch milliseconds; the core reads no clock, so the default is the host's
 * clock at construction). One subclass per event `type` of docs/abi.md's table, named after it
 * (`pos.launch_failed` is [PosLaunchFailed]); [toJson] is the document the C ABI reads. Nothing
 * is checked here: the core checks every member and names the one it refuses. [toString] leaves
 * out API keys, the POS user token, nonces, tokens, deep-link URLs and result extras' values (a POS
 * answer may echo the user token), a session's checkout URL but for its origin and the gateway's
 * answer body, and a confirmation's card token.
 */
sealed class Event(val type: EventType) {
    /** When it happened, epoch milliseconds. */
    abstract val nowMs: Long

    /** The flow the event is about (`flow_id`); null for `app.foregrounded`, `tick` and `url`. */
    open val flowId: String?
        get() = null

    /** The event document (holds the API key or user token of a start). */
    fun toJson(): JSONObject = json(redact = false)

    override fun toString(): String = "Event${json(redact = true)}"

    private fun json(redact: Boolean): JSONObject {
        val o = JSONObject().put("type", type.wire).put("now", nowMs).putOpt("flow_id", flowId)
        members(o, redact)
        return o
    }

    /** Writes the members besides `type`, `now` and `flow_id`; [redact] replaces secrets for [toString]. */
    internal open fun members(o: JSONObject, redact: Boolean) {}

    /** `checkout.start`: a new checkout flow, started the way [start] says; [deadlineMs] epoch ms (default: now + the timeout). */
    class CheckoutStart @JvmOverloads constructor(
        override val flowId: String,
        val start: Start,
        /** The nonce to put into the return URL (or that the backend's session used); fresh when null. */
        val nonce: String? = null,
        val deadlineMs: Long? = null,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_START) {
        /** How a checkout starts. */
        sealed class Start {
            /** PayHandoff builds the gateway request (effect `send_request`; holds the API key). */
            class Request(val request: CheckoutRequest) : Start()

            /** The merchant backend creates the session with the return URL PayHandoff hands out (effect `create_session`). */
            data class Backend(val kind: CheckoutKind, val returnUrl: String) : Start()

            /** The backend already created [session] with [returnUrl] and the start's nonce. */
            class Session(val kind: CheckoutKind, val returnUrl: String, val session: CheckoutSessionInput) : Start()
        }

        override fun members(o: JSONObject, redact: Boolean) {
            when (start) {
                is Start.Request -> o.put("request", start.request.json(redact))
                is Start.Backend -> o.put("kind", start.kind.wire).put("return_url", start.returnUrl)
                is Start.Session -> o.put("kind", start.kind.wire).put("return_url", start.returnUrl).put("session", start.session.json(redact))
            }
            o.putOpt("nonce", if (redact && nonce != null) REDACTED else nonce).putOpt("deadline", deadlineMs)
        }
    }

    /** `checkout.session`: the session exists (or the gateway refused: the flow fails). */
    class CheckoutSession @JvmOverloads constructor(
        override val flowId: String,
        val session: CheckoutSessionInput,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_SESSION) {
        override fun members(o: JSONObject, redact: Boolean) {
            o.put("session", session.json(redact))
        }
    }

    /** `checkout.session_failed`: the request could not be sent. */
    class CheckoutSessionFailed @JvmOverloads constructor(
        override val flowId: String,
        val reason: String,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_SESSION_FAILED) {
        override fun members(o: JSONObject, redact: Boolean) {
            o.put("reason", reason)
        }
    }

    /** `checkout.browser_opened`: the tab is open. */
    class CheckoutBrowserOpened @JvmOverloads constructor(
        override val flowId: String,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_BROWSER_OPENED) {
    }

    /** `checkout.browser_dismissed`: the user closed the tab (never a failure). */
    class CheckoutBrowserDismissed @JvmOverloads constructor(
        override val flowId: String,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_BROWSER_DISMISSED) {
    }

    /**
     * `checkout.browser_result`: what the browser reported when it handed control back. [url] with
     * [BrowserResultCode.OK] only (it is the deep link, checked as one: the same return arriving
     * also through the intent filter is a `duplicate`); [BrowserResultCode.CANCELED] is
     * `checkout.browser_dismissed`; the verification codes and [BrowserResultCode.UNKNOWN] give
     * `reconcile`. [toString] leaves the URL out (it carries the nonce). From an Auth Tab result:
     * [fromAuthTab].
     */
    class CheckoutBrowserResult @JvmOverloads constructor(
        override val flowId: String,
        val channel: BrowserChannel,
        val code: BrowserResultCode,
        val url: String? = null,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_BROWSER_RESULT) {
        override fun members(o: JSONObject, redact: Boolean) {
            o.put("channel", channel.wire).put("code", code.wire)
            if (url != null) o.put("url", if (redact) Redact.url(url) else url)
        }

        companion object {
            /** `AuthTabIntent.RESULT_OK` (`Activity.RESULT_OK`). */
            const val AUTH_TAB_RESULT_OK = -1
            /** `AuthTabIntent.RESULT_CANCELED` (`Activity.RESULT_CANCELED`). */
            const val AUTH_TAB_RESULT_CANCELED = 0
            /** `AuthTabIntent.RESULT_VERIFICATION_FAILED`. */
            const val AUTH_TAB_RESULT_VERIFICATION_FAILED = 2
            /** `AuthTabIntent.RESULT_VERIFICATION_TIMED_OUT`. */
            const val AUTH_TAB_RESULT_VERIFICATION_TIMED_OUT = 3
            /** `AuthTabIntent.RESULT_UNKNOWN_CODE`. */
            const val AUTH_TAB_RESULT_UNKNOWN_CODE = -2

            /**
             * The event for an Auth Tab's `AuthResult` (`resultCode`, `resultUri?.toString()`),
             * without depending on androidx.browser: `RESULT_OK` with a URI is [BrowserResultCode.OK];
             * `RESULT_OK` without one, `RESULT_UNKNOWN_CODE` and any other value are
             * [BrowserResultCode.UNKNOWN] (the payment may have happened: reconcile).
             */
            @JvmStatic @JvmOverloads
            fun fromAuthTab(flowId: String, resultCode: Int, resultUri: String?, nowMs: Long = System.currentTimeMillis()): CheckoutBrowserResult {
                val code = when (resultCode) {
                    AUTH_TAB_RESULT_OK -> if (resultUri.isNullOrEmpty()) BrowserResultCode.UNKNOWN else BrowserResultCode.OK
                    AUTH_TAB_RESULT_CANCELED -> BrowserResultCode.CANCELED
                    AUTH_TAB_RESULT_VERIFICATION_FAILED -> BrowserResultCode.VERIFICATION_FAILED
                    AUTH_TAB_RESULT_VERIFICATION_TIMED_OUT -> BrowserResultCode.VERIFICATION_TIMED_OUT
                    else -> BrowserResultCode.UNKNOWN
                }
                return CheckoutBrowserResult(flowId, BrowserChannel.AUTH_TAB, code, if (code == BrowserResultCode.OK) resultUri else null, nowMs)
            }
        }
    }

    /** `checkout.confirmation`: the backend relayed the webhook, the only thing that confirms. */
    class CheckoutConfirmation @JvmOverloads constructor(
        override val flowId: String,
        val event: ConfirmationEvent,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.CHECKOUT_CONFIRMATION) {
        override fun members(o: JSONObject, redact: Boolean) {
            o.put("event", event.json(redact))
        }
    }

    /**
     * `pos.start`: open the terminal app for [request] (any [PosAppRequest]: Billpocket's
     * [PosRequest], [SquareRequest], [SumUpRequest], [ClipRequest]) with `<identifier>~<token>`. A
     * Billpocket refund names its sale ([refundOf]); [graceMs] overrides the coordinator's grace
     * period; [token] is the flow's (fresh when null).
     */
    class PosStart @JvmOverloads constructor(
        override val flowId: String,
        val request: PosAppRequest,
        val refundOf: RefundOf? = null,
        val graceMs: Long? = null,
        val token: String? = null,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.POS_START) {
        /** The sale a refund refunds. */
        sealed class RefundOf {
            /** An approved sale flow of this coordinator (`sale_flow_id`). */
            data class SaleFlow(val flowId: String) : RefundOf()

            /** A sale known from elsewhere (`sale`). */
            data class Sale(val sale: PosSale) : RefundOf()
        }

        override fun members(o: JSONObject, redact: Boolean) {
            o.put("request", if (redact) request.toRedactedJson() else request.toJson())
            when (refundOf) {
                is RefundOf.SaleFlow -> o.put("sale_flow_id", refundOf.flowId)
                is RefundOf.Sale -> o.put("sale", refundOf.sale.toJson())
                null -> {}
            }
            o.putOpt("grace_ms", graceMs).putOpt("token", if (redact && token != null) REDACTED else token)
        }
    }

    /** `pos.launched`: the POS app opened. */
    class PosLaunched @JvmOverloads constructor(
        override val flowId: String,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.POS_LAUNCHED) {
    }

    /** `pos.launch_failed`: the POS app could not be opened (never "declined"). */
    class PosLaunchFailed @JvmOverloads constructor(
        override val flowId: String,
        val reason: String? = null,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.POS_LAUNCH_FAILED) {
        override fun members(o: JSONObject, redact: Boolean) {
            o.putOpt("reason", reason)
        }
    }

    /**
     * `pos.result`: the terminal app answered through `onActivityResult`; [extras] are its result
     * extras as text. Null (or empty) when `onActivityResult` brought no data or no extras (the
     * user backed out, the app crashed or was uninstalled): the core moves a launched flow to
     * `returned_without_response` with `reconcile` at once, never declined, and a late genuine
     * answer still resolves it. [resultCode] is `onActivityResult`'s (`RESULT_OK` = -1,
     * `RESULT_CANCELED` = 0), written as `result_code` when given: the core reads it, the extras
     * decide (Clip answers errors with `RESULT_OK`).
     */
    class PosResult @JvmOverloads constructor(
        override val flowId: String,
        val extras: Map<String, String>?,
        override val nowMs: Long = System.currentTimeMillis(),
        val resultCode: Int? = null
    ) : Event(EventType.POS_RESULT) {
        override fun members(o: JSONObject, redact: Boolean) {
            o.putOpt("result_code", resultCode)
            // The POS app may echo the user token or the PIN among its extras: toString shows the keys only.
            // No extras: the member is left out (the core reads absent, null and {} alike).
            if (extras != null) o.put("extras", if (redact) org.json.JSONArray(extras.keys) else JSONObject(extras))
        }

        companion object {
            /** `Activity.RESULT_OK`. */
            const val RESULT_OK = -1
            /** `Activity.RESULT_CANCELED`. */
            const val RESULT_CANCELED = 0

            /**
             * The event for `onActivityResult(requestCode, resultCode, data)`: [extras] is
             * `data?.extras` as text (null for no data), [resultCode] as Android gave it.
             */
            @JvmStatic @JvmOverloads
            fun fromActivityResult(flowId: String, resultCode: Int, extras: Map<String, String>?, nowMs: Long = System.currentTimeMillis()) =
                PosResult(flowId, extras, nowMs, resultCode)
        }
    }

    /** `app.foregrounded`: the app is in front again (starts the POS grace period). */
    class AppForegrounded @JvmOverloads constructor(
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.APP_FOREGROUNDED) {
    }

    /** `tick`: time passed (deadlines and grace periods are checked). */
    class Tick @JvmOverloads constructor(
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.TICK) {
    }

    /** `url`: a deep link arrived (the same as [Coordinator.handleUrl]). */
    class Url @JvmOverloads constructor(
        val url: String,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.URL) {
        override fun members(o: JSONObject, redact: Boolean) {
            // A POS answer URL may echo the user token: toString leaves it out.
            o.put("url", if (redact) REDACTED else url)
        }
    }

    /**
     * `flow.remove`: forget a flow. One still waiting for its answer, callback or confirmation only
     * with [giveUp] (a given-up refund counts as refunded: it may have happened).
     */
    class FlowRemove @JvmOverloads constructor(
        override val flowId: String,
        val giveUp: Boolean = false,
        override val nowMs: Long = System.currentTimeMillis()
    ) : Event(EventType.FLOW_REMOVE) {
        override fun members(o: JSONObject, redact: Boolean) {
            if (giveUp) o.put("give_up", true)
        }
    }
}
