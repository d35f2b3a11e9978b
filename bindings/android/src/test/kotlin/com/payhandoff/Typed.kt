package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject
import org.junit.Assert.assertTrue

/**
 * Rebuilds each result document from the typed properties of its Kotlin class alone (never from
 * `json`), so that comparing the rebuilt document with the core's proves that every member the
 * document has is exposed, typed and equal to the document's value ([check]).
 */
object Typed {
    /** Asserts that [rebuilt] (from typed properties) equals [document] (the core's), key order ignored. */
    fun check(what: String, rebuilt: JSONObject, document: JSONObject) {
        assertTrue("$what: the typed properties give\n  $rebuilt\nthe document is\n  $document", TestJson.same(rebuilt, document))
    }

    /** The typed answer of a vector's call, rebuilt; null for a type without a rebuild. */
    fun rebuild(result: Any): JSONObject = when (result) {
        is PosUrl -> posUrl(result)
        is PosResponse -> posResponse(result)
        is RefundCheck -> refundCheck(result)
        is BuiltCheckoutRequest -> builtRequest(result)
        is CheckoutSession -> session(result)
        is CheckoutCallback -> callback(result)
        is CheckoutConfirmation -> confirmation(result)
        is Answer -> answer(result)
        is CoordinatorSnapshot -> snapshot(result)
        else -> throw AssertionError("no rebuild for ${result.javaClass}")
    }

    private fun fields(list: List<PosField>) = JSONArray(list.map { JSONObject().put("key", it.key).put("value", it.value) })

    /** An intent extra from its typed subclass: a string has no `type` (as Billpocket's always were). */
    fun extra(e: PosExtra): JSONObject = when (e) {
        is PosField -> JSONObject().put("key", e.key).put("value", e.value)
        is PosExtra.IntValue -> JSONObject().put("key", e.key).put("type", "int").put("value", e.value)
        is PosExtra.LongValue -> JSONObject().put("key", e.key).put("type", "long").put("value", e.value)
        is PosExtra.Bool -> JSONObject().put("key", e.key).put("type", "bool").put("value", e.value)
        is PosExtra.StringArray -> JSONObject().put("key", e.key).put("type", "string_array").put("value", JSONArray(e.value))
    }

    fun intent(i: PosIntent): JSONObject = JSONObject().put("action", i.action).putOpt("package", i.packageName)
        .putOpt("component", i.component?.let { "${it.packageName}/${it.className}" }).putOpt("data", i.data)
        .put("extras", JSONArray(i.extras.map { extra(it) }))

    /** Billpocket's document always has `fields`; the other apps' have none. */
    fun posUrl(u: PosUrl): JSONObject = JSONObject().put("version", u.version).put("pos_app", u.posApp.wire).putOpt("url", u.url)
        .putOpt("fields", if (u.posApp == PosApp.BILLPOCKET || u.fields.isNotEmpty()) fields(u.fields) else null)
        .put("intent", intent(u.intent))
        .putOpt("identifier", u.identifier).putOpt("token", u.token)

    /** The 21 answer keys and version, result_word, extra and truncated, each from its typed property. */
    fun posResponse(r: PosResponse): JSONObject = JSONObject()
        .put("version", r.version)
        .putOpt("pos_app", if (r.posApp == PosApp.BILLPOCKET) null else r.posApp.wire)
        .put("result", r.result.wire)
        .putOpt("result_word", r.resultWord)
        .putOpt("error_code", r.errorCode)
        .put("identifier", r.identifier)
        .putOpt("statusinfo", r.statusInfo)
        .putOpt("amount", r.amount)
        .putOpt("tip", r.tip)
        .putOpt("reference", r.reference)
        .putOpt("transactionid", r.transactionId)
        .putOpt("msi", r.msi)
        .putOpt("authorization", r.authorization)
        .putOpt("creditcard", r.creditCard)
        .putOpt("cardtype", r.cardType)
        .putOpt("email", r.email)
        .putOpt("phone", r.phone)
        .putOpt("arqc", r.arqc)
        .putOpt("aid", r.aid)
        .putOpt("applabel", r.appLabel)
        .putOpt("url", r.voucherUrl)
        .putOpt("bank", r.bank)
        .putOpt("accountType", r.accountType?.wire)
        .putOpt("name", r.cardholderName)
        .putOpt("bp_version", r.bpVersion)
        .putOpt("extra", if (r.extra.isEmpty()) null else JSONObject(r.extra))
        .putOpt("truncated", if (r.truncated.isEmpty()) null else JSONArray(r.truncated))

    fun refundCheck(v: RefundCheck): JSONObject = JSONObject().put("version", v.version).put("eligible", v.eligible)
        .put("refund_amount", v.refundAmount).put("eligible_from", v.eligibleFrom).put("eligible_from_local", v.eligibleFromLocal)
        .put("deadline", v.deadline).put("deadline_local", v.deadlineLocal)
        .put("reasons", JSONArray(v.reasons.map { JSONObject().put("code", it.code.wire).put("message", it.message) }))
        .put("warnings", JSONArray(v.warnings.map { JSONObject().put("code", it.code.wire).put("message", it.message) }))

    fun httpRequest(h: HttpRequest): JSONObject = JSONObject().put("method", h.method).put("url", h.url)
        .put("headers", JSONArray(h.headers.map { JSONObject().put("name", it.name).put("value", it.value) })).put("body", h.body)

    fun builtRequest(b: BuiltCheckoutRequest): JSONObject = JSONObject().put("version", b.version).put("kind", b.kind.wire)
        .put("request", httpRequest(b.request)).putOpt("return_url", b.returnUrl).putOpt("nonce", b.nonce)
        .put("warnings", JSONArray(b.warnings))

    fun session(s: CheckoutSession): JSONObject = JSONObject().put("version", s.version).put("kind", s.kind.wire)
        .put("checkout_url", s.checkoutUrl).putOpt("session_id", s.sessionId).putOpt("card_id", s.cardId).putOpt("payment_id", s.paymentId)

    fun callback(c: CheckoutCallback): JSONObject = JSONObject().put("version", c.version).put("kind", c.kind.wire)
        .put("status", c.status.wire).put("verified", c.verified).putOpt("card_id", c.cardId).putOpt("payment_id", c.paymentId)
        .putOpt("reason", c.reason).putOpt("extra", if (c.extra.isEmpty()) null else JSONObject(c.extra))
        .putOpt("truncated", if (c.truncated.isEmpty()) null else JSONArray(c.truncated))

    fun confirmation(c: CheckoutConfirmation): JSONObject = JSONObject().put("version", c.version).put("type", c.type.wire)
        .putOpt("card_id", c.cardId).putOpt("payment_id", c.paymentId).putOpt("brand", c.brand).putOpt("last_four", c.lastFour)
        .putOpt("token", c.token).putOpt("amount", c.amount).put("timestamps", JSONObject(c.timestamps))

    fun effect(e: Effect): JSONObject {
        val o = JSONObject().put("type", e.type.wire)
        when (e) {
            is Effect.SendRequest -> o.put("request", httpRequest(e.request))
            is Effect.CreateSession -> o.put("kind", e.kind.wire).put("return_url", e.returnUrl)
            is Effect.OpenBrowser -> o.put("url", e.url).putOpt("return_to", when (val r = e.returnTo) {
                is ReturnTo.Scheme -> JSONObject().put("scheme", r.scheme)
                is ReturnTo.Https -> JSONObject().put("https_host", r.host).put("https_path", r.path)
                null -> null
            })
            // Billpocket's effect is the URL alone; the other apps' name the app and carry the intent.
            is Effect.OpenPosApp -> o.putOpt("pos_app", if (e.posApp == PosApp.BILLPOCKET && e.intent == null) null else e.posApp.wire)
                .putOpt("url", e.url).putOpt("intent", e.intent?.let { intent(it) })
            is Effect.ShowHint -> o.put("message", e.message)
            is Effect.Reconcile -> o.put("reason", e.reason)
            Effect.CloseBrowser, Effect.ShowPending, Effect.Persist -> {}
        }
        return o
    }

    private fun stateWord(state: Enum<*>): String = when (state) {
        is CheckoutState -> state.wire
        is PosState -> state.wire
        else -> throw AssertionError("a state that is neither a CheckoutState nor a PosState: $state")
    }

    /**
     * A flow's details from its typed properties. Details carry no nonce or token; a snapshot's
     * flows do ([withSecrets]), and those are deliberately left untyped: they are copied from the
     * document, so the rebuild still proves every other member typed.
     */
    fun flow(f: FlowDetails, withSecrets: Boolean = false): JSONObject {
        val o = JSONObject().put("id", f.id).put("type", f.type.wire).put("state", stateWord(f.state))
        if (withSecrets && f.keyGiven) o.put("given_key", true)
        when (f) {
            is CheckoutFlowDetails -> o.put("kind", f.kind.wire).put("return_url", f.returnUrl)
                .putOpt("nonce", if (withSecrets) f.json.opt("nonce") else null)
                .put("deadline", f.deadlineMs).putOpt("session", f.session?.let { session(it) })
                .putOpt("callback", f.callback?.let { callback(it) }).putOpt("confirmation", f.confirmation?.toJson())
                .putOpt("failure_reason", f.failureReason)
            is PosFlowDetails -> o.putOpt("pos_app", if (f.posApp == PosApp.BILLPOCKET) null else f.posApp.wire)
                .put("operation", f.operation.wire).put("identifier", f.identifier)
                .putOpt("token", if (withSecrets) f.json.opt("token") else null)
                .putOpt("answer_scheme", f.answerScheme).putOpt("amount", f.amount).putOpt("sale_transactionid", f.saleTransactionId)
                .put("grace_ms", f.graceMs).putOpt("foregrounded_at", f.foregroundedAtMs).putOpt("response", f.response?.let { posResponse(it) })
                .putOpt("answered_at", f.answeredAtMs).putOpt("launch_failure", f.launchFailure)
        }
        return o
    }

    fun answer(a: Answer): JSONObject {
        val o = JSONObject().put("version", a.version).put("outcome", a.outcome.type.wire).put("persist", a.persist)
            .put("transitions", JSONArray(a.transitions.map { t ->
                JSONObject().put("flow_id", t.flowId).put("flow", t.flow.wire).put("state", stateWord(t.state))
                    .put("effects", JSONArray(t.effects.map { effect(it) })).put("details", flow(t.details))
            }))
        if (a.forgotten.isNotEmpty()) o.put("forgotten", JSONArray(a.forgotten))
        val outcome = a.outcome
        if (outcome is Outcome.Rejected) {
            o.put("error", JSONObject().put("code", outcome.error.code.wire).put("field", outcome.error.field ?: JSONObject.NULL)
                .put("message", outcome.error.reason))
        }
        return o
    }

    fun snapshot(s: CoordinatorSnapshot): JSONObject = JSONObject().put("version", s.version)
        .put("config", JSONObject().put("single_pending_per_kind", s.config.singlePendingPerKind)
            .put("checkout_timeout_ms", s.config.checkoutTimeoutMs).put("pos_grace_ms", s.config.posGraceMs)
            .put("accept_unverified_callbacks", s.config.acceptUnverifiedCallbacks))
        .put("flows", JSONArray(s.flows.map { flow(it, withSecrets = true) }))
        .put("ledger", JSONObject().put("pruned_through", s.ledger.prunedThroughMs)
            .put("sales", JSONArray(s.ledger.sales.map { JSONArray(listOf(it.transactionId, it.amountMinor, it.refundedMinor, it.approvedAtMs)) }))
            .put("refunds", JSONArray(s.ledger.refunds.map { JSONArray(listOf(it.transactionId, it.amountMinor, it.approvedAtMs)) }))
            .put("unknown", JSONArray(s.ledger.unknown.map { JSONArray(listOf(it.transactionId, it.untilMs)) })))
        .also { o -> s.convertedReserveBytes?.let { o.put("converted_reserve", it) } }
        .also { o ->
            if (s.rememberedKeys.isNotEmpty()) o.put("remembered_keys", JSONArray(s.rememberedKeys.map { JSONArray(listOf(it.digest, it.untilMs)) }))
            s.latestEventMs?.let { o.put("latest_event", it) }
        }

    fun salvage(s: Coordinator.Salvage): JSONObject = JSONObject().put("version", s.version).put("snapshot", snapshot(s.snapshot))
        .put("dropped", JSONArray(s.dropped.map { d ->
            JSONObject().put("member", d.member).put("code", d.code.wire).put("field", d.field ?: JSONObject.NULL).put("message", d.message)
        }))
}
