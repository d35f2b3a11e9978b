package com.payhandoff

import org.json.JSONObject

/** What the coordinator did with an event or URL; [type] is its `outcome` word. */
sealed class Outcome(val type: EventOutcome) {
    /** The event moved one or more flows. */
    object Accepted : Outcome(EventOutcome.ACCEPTED)
    /** Already processed (the same deep link again): nothing changed. */
    object Duplicate : Outcome(EventOutcome.DUPLICATE)
    /** Read, but it changes nothing (for example a deep link after the flow ended). */
    object Ignored : Outcome(EventOutcome.IGNORED)
    /** Refused by a rule ([error] says which); nothing changed. */
    class Rejected(val error: PayHandoffException) : Outcome(EventOutcome.REJECTED) {
        override fun toString(): String = "Rejected(${error.message})"
    }
    /** No flow of this coordinator is addressed (a deep link for another part of the app). */
    object NotOurs : Outcome(EventOutcome.NOT_OURS)

    override fun toString(): String = javaClass.simpleName

    internal companion object {
        fun of(json: JSONObject): Outcome = when (Words.read(json, "outcome") { EventOutcome.of(it) }) {
            EventOutcome.ACCEPTED -> Accepted
            EventOutcome.DUPLICATE -> Duplicate
            EventOutcome.IGNORED -> Ignored
            EventOutcome.REJECTED -> Rejected(PayHandoffException.from(json.getJSONObject("error")))
            EventOutcome.NOT_OURS -> NotOurs
        }
    }
}

/**
 * What the host must do, in order; [type] is its `type` word. The core never performs I/O: these
 * are its requests to the app. One subclass per [EffectType], named after it.
 */
sealed class Effect(val type: EffectType) {
    /** POST this request to the gateway and send its answer back as `checkout.session` (holds the API key). */
    class SendRequest(val request: HttpRequest) : Effect(EffectType.SEND_REQUEST) {
        override fun toString(): String = "SendRequest(<holds the API key>)"
    }
    /**
     * Ask the merchant backend to create the session with this return URL, then send `checkout.session`
     * ([returnUrl] carries the flow's nonce: do not log it).
     */
    data class CreateSession(val kind: CheckoutKind, val returnUrl: String) : Effect(EffectType.CREATE_SESSION) {
        override fun toString(): String = "CreateSession($kind, <the return URL holds the nonce>)"
    }
    /**
     * Open the checkout in the system browser tab (Custom Tabs), or in an Auth Tab launched with
     * [returnTo] (`null` when no OS channel can capture the return URL). The gateway's page may
     * carry the return URL with the flow's nonce, and an https [returnTo]'s path holds it:
     * [toString] shows the origin and the path without the nonce only.
     */
    data class OpenBrowser @JvmOverloads constructor(val url: String, val returnTo: ReturnTo? = null) : Effect(EffectType.OPEN_BROWSER) {
        override fun toString(): String = "OpenBrowser(${Redact.url(url)}${returnTo?.let { ", $it" } ?: ""})"
    }
    /** Close the browser tab if it is still open. */
    object CloseBrowser : Effect(EffectType.CLOSE_BROWSER)
    /** Show "waiting for confirmation": the deep link said completed, the confirmation has not arrived. */
    object ShowPending : Effect(EffectType.SHOW_PENDING)
    /**
     * Open the terminal app [posApp]: Billpocket with [url] (its effect has no [intent]: build one
     * with [Pos.buildUrl] if you start it by intent); Square, SumUp and Clip by [intent] on Android
     * ([PosIntent]: explicit package or component, typed extras) and by [url] on iOS (null for
     * Clip, which has no URL). Holds secrets (the user token, SumUp's affiliate key, the token).
     */
    class OpenPosApp @JvmOverloads constructor(
        val url: String?,
        val posApp: PosApp = PosApp.BILLPOCKET,
        val intent: PosIntent? = null
    ) : Effect(EffectType.OPEN_POS_APP) {
        override fun equals(other: Any?): Boolean = other is OpenPosApp && other.url == url && other.posApp == posApp && other.intent == intent
        override fun hashCode(): Int = (url?.hashCode() ?: 0) * 31 + posApp.hashCode()
        override fun toString(): String = "OpenPosApp($posApp, <holds secrets>)"
    }
    /** Show this hint to the user (install or log in to the POS app). */
    data class ShowHint(val message: String) : Effect(EffectType.SHOW_HINT)
    /** Ask the backend what really happened (an unknown or suspicious outcome). */
    data class Reconcile(val reason: String) : Effect(EffectType.RECONCILE)
    /** Save [Coordinator.snapshot] now: it changed. */
    object Persist : Effect(EffectType.PERSIST)

    override fun toString(): String = javaClass.simpleName

    internal companion object {
        fun of(json: JSONObject): Effect = when (Words.read(json, "type") { EffectType.of(it) }) {
            EffectType.SEND_REQUEST -> SendRequest(HttpRequest(json.getJSONObject("request")))
            EffectType.CREATE_SESSION -> CreateSession(Words.read(json, "kind") { CheckoutKind.of(it) }, json.getString("return_url"))
            EffectType.OPEN_BROWSER -> OpenBrowser(json.getString("url"), json.optJSONObject("return_to")?.let { ReturnTo.of(it) })
            EffectType.CLOSE_BROWSER -> CloseBrowser
            EffectType.SHOW_PENDING -> ShowPending
            EffectType.OPEN_POS_APP -> OpenPosApp(json.stringOrNull("url"), Words.readOptional(json, "pos_app") { PosApp.of(it) } ?: PosApp.BILLPOCKET,
                json.optJSONObject("intent")?.let { PosIntent.of(it) })
            EffectType.SHOW_HINT -> ShowHint(json.getString("message"))
            EffectType.RECONCILE -> Reconcile(json.getString("reason"))
            EffectType.PERSIST -> Persist
        }
    }
}

/**
 * What `AuthTabIntent.launch` needs to hand the return straight back to the app (`return_to` of
 * `open_browser`): `launch(launcher, url, scheme)` for [Scheme], `launch(launcher, url, host, path)`
 * for [Https] (its [Https.path] ends with `ph_<nonce>`: [toString] leaves the nonce out).
 */
sealed class ReturnTo {
    /** A custom-scheme return URL's scheme, lowercased. */
    data class Scheme(val scheme: String) : ReturnTo()
    /** An https return URL's host and path (with `ph_<nonce>`). */
    data class Https(val host: String, val path: String) : ReturnTo() {
        override fun toString(): String = "Https($host, ${Redact.noncePath(path)})"
    }

    internal companion object {
        fun of(json: JSONObject): ReturnTo =
            if (json.has("scheme")) Scheme(json.getString("scheme")) else Https(json.getString("https_host"), json.getString("https_path"))
    }
}

/**
 * One flow after an event: its [state] (a [CheckoutState] or [PosState], as [flow] says), the
 * [effects] to perform in order, and the flow's stored document as [details], without its nonce
 * or token (details may be logged; the effects [Effect.SendRequest], [Effect.CreateSession] and
 * [Effect.OpenPosApp] carry secrets and must not be).
 */
class Transition internal constructor(val json: JSONObject) {
    val flowId: String = json.getString("flow_id")
    val flow: FlowType = Words.read(json, "flow") { FlowType.of(it) }
    val effects: List<Effect> = json.objects("effects") { Effect.of(it) }
    /** The flow as the snapshot holds it, without its nonce or token: [CheckoutFlowDetails] or [PosFlowDetails]. */
    val details: FlowDetails = FlowDetails.of(json.getJSONObject("details"))
    /** The flow's state after the event: the [CheckoutState] or [PosState] of [details]. */
    val state: Enum<*> = Words.read(json, "state") { details.stateOf(it) }

    override fun toString(): String = "Transition($flowId: $state, $effects)"
}

/** The coordinator's answer to an event or URL (status 0 whenever the event was read). */
class Answer internal constructor(val json: JSONObject) {
    val version: Int = json.getInt("version")
    /** What happened; a [Outcome.Rejected] carries the broken rule. */
    val outcome: Outcome = Outcome.of(json)
    /** Whether the snapshot changed and should be saved now. */
    val persist: Boolean = json.getBoolean("persist")
    val transitions: List<Transition> = json.objects("transitions") { Transition(it) }
    /**
     * Ended flows a start forgot to make room in the snapshot, oldest first (their results were
     * handed out already; their ledger entries stay); usually empty.
     */
    val forgotten: List<String> = json.stringList("forgotten")

    override fun toString(): String = "Answer($outcome, $transitions${if (forgotten.isEmpty()) "" else ", forgotten $forgotten"})"
}
