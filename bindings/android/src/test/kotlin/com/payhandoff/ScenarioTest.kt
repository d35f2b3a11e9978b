package com.payhandoff

import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import java.io.File
import java.lang.ref.PhantomReference
import java.lang.reflect.Modifier
import java.lang.ref.ReferenceQueue

/**
 * The scenarios the TypeScript binding runs (bindings/react-native/test/flows.test.js), with typed
 * events and typed answers, plus the binding's own rules (text, handles, ABI check).
 */
class ScenarioTest {
    private val t0 = 1796054400000L
    private val nonce = "0123456789abcdef0123"
    private val returnUrl = "fixapp://checkout-callback"
    private val token = "9f86d081884c7d659a2feaa0c55ad015"
    private val cardRequest = CheckoutRequest.Cards(
        apiKey = "sk_test_1", provider = "dinelco", customerId = "cus_1", returnUrl = returnUrl,
        targetOrigin = listOf("https://fix.example.com"),
        customer = CheckoutRequest.Customer("Juan", "Pérez", "juan@example.com", "+595981234567"))
    private val sale = PosRequest.sale("tok_secret_1", "ord-1", "100.00", "myapp")
    /** The POS app's answer: it echoes the identifier it was sent, the app's reference and the token. */
    private val saleAnswer = "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~$token&creditcard=4242&bp_version=4.3.24"

    /** The gateway's redirect: the return URL PayHandoff handed out (the nonce rides in it) plus the gateway's query. */
    private fun callbackUrl(sent: String, status: CheckoutStatus, extra: String = "&card_id=card_xyz") = "$sent?status=${status.wire}$extra"

    /** The return URL a checkout.start answer hands out (send_request's body or create_session's). */
    private fun returnUrlSent(answer: Answer): String {
        val sent = when (val effect = answer.transitions[0].effects[0]) {
            is Effect.SendRequest -> effect.request.body.getString("return_url")
            is Effect.CreateSession -> effect.returnUrl
            else -> throw AssertionError("no return URL in $effect")
        }
        assertTrue("the return URL sent carries the nonce: $sent", sent.startsWith(returnUrl) && sent.contains(nonce))
        return sent
    }

    /** (flow id, state, effect types) of every transition. */
    private fun steps(answer: Answer) = answer.transitions.map { Triple(it.flowId, it.state, it.effects.map { e -> e.type }) }

    private fun step(flowId: String, state: Enum<*>, vararg effects: EffectType) = listOf(Triple(flowId, state, effects.toList()))

    @Test
    fun checkoutCardRegistration() {
        Coordinator().use { c ->
            var a = c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Request(cardRequest), nonce = nonce, nowMs = t0))
            assertEquals(Outcome.Accepted, a.outcome)
            assertEquals(step("c1", CheckoutState.AWAITING_SESSION, EffectType.SEND_REQUEST, EffectType.PERSIST), steps(a))
            val send = a.transitions[0].effects[0] as Effect.SendRequest
            assertEquals("https://api.pay.ingalca.com/v1/cards", send.request.url)
            assertEquals(Header("Authorization", "Bearer sk_test_1"), send.request.headers[0])
            val sent = returnUrlSent(a)
            assertTrue(a.persist)

            a = c.send(Event.CheckoutSession("c1", CheckoutSessionInput.Gateway(CheckoutKind.CARDS, 201,
                JSONObject("""{"data": {"registration": {"checkout_url": "https://checkout.pay.ingalca.com/r/9f8e"}}}""")), t0 + 1000))
            assertEquals(step("c1", CheckoutState.READY, EffectType.OPEN_BROWSER, EffectType.PERSIST), steps(a))
            assertEquals(Effect.OpenBrowser("https://checkout.pay.ingalca.com/r/9f8e", ReturnTo.Scheme("fixapp")), a.transitions[0].effects[0])
            val details = a.transitions[0].details as CheckoutFlowDetails
            // Details show the checkout URL's origin only (it may echo the return URL with the nonce:
            // issue 35, item 7); the effect above carries it whole.
            assertEquals("https://checkout.pay.ingalca.com/<redacted>", details.session!!.checkoutUrl)
            // Details may be logged: the nonce is only in the (secret-bearing) snapshot.
            assertFalse(details.json.toString().contains(nonce))
            assertEquals(nonce, c.snapshotDocument().flows[0].json.getString("nonce"))

            a = c.send(Event.CheckoutBrowserOpened("c1", t0 + 2000))
            assertEquals(step("c1", CheckoutState.IN_BROWSER, EffectType.PERSIST), steps(a))

            a = c.handleUrl(callbackUrl(sent, CheckoutStatus.COMPLETED), t0 + 60000)
            assertEquals(Outcome.Accepted, a.outcome)
            assertEquals(step("c1", CheckoutState.AWAITING_CONFIRMATION, EffectType.CLOSE_BROWSER, EffectType.SHOW_PENDING, EffectType.PERSIST), steps(a))
            val callback = (a.transitions[0].details as CheckoutFlowDetails).callback!!
            assertTrue(callback.verified)
            assertEquals(CheckoutStatus.COMPLETED, callback.status)
            assertEquals("card_xyz", callback.cardId)

            // The webhook, relayed by the backend, is the only thing that confirms.
            a = c.send(Event.CheckoutConfirmation("c1", ConfirmationEvent(ConfirmationType.CARD_REGISTERED,
                JSONObject().put("card_id", "card_xyz").put("brand", "visa").put("last_four", "4242").put("token", "tok_abc")), t0 + 70000))
            assertEquals(step("c1", CheckoutState.CONFIRMED, EffectType.PERSIST), steps(a))
            val confirmation = (a.transitions[0].details as CheckoutFlowDetails).confirmation!!
            assertEquals(ConfirmationType.CARD_REGISTERED, confirmation.type)
            assertEquals("visa", confirmation.data.getString("brand"))
        }
    }

    @Test
    fun checkoutPaymentDismissedFirstThenTheDeepLinkResolvesIt() {
        Coordinator().use { c ->
            var a = c.send(Event.CheckoutStart("pay1", Event.CheckoutStart.Start.Backend(CheckoutKind.PAYMENTS, returnUrl), nonce = nonce, nowMs = t0))
            assertEquals(step("pay1", CheckoutState.AWAITING_SESSION, EffectType.CREATE_SESSION, EffectType.PERSIST), steps(a))
            val sent = returnUrlSent(a)
            assertEquals(Effect.CreateSession(CheckoutKind.PAYMENTS, sent), a.transitions[0].effects[0])
            a = c.send(Event.CheckoutSession("pay1", CheckoutSessionInput.Backend(CheckoutKind.PAYMENTS,
                "https://checkout.pay.ingalca.com/p/1", paymentId = "pay_1"), t0 + 500))
            assertEquals(step("pay1", CheckoutState.READY, EffectType.OPEN_BROWSER, EffectType.PERSIST), steps(a))
            c.send(Event.CheckoutBrowserOpened("pay1", t0 + 1000))

            // The Custom Tab was closed before any deep link.
            a = c.send(Event.CheckoutBrowserDismissed("pay1", t0 + 20000))
            assertEquals(step("pay1", CheckoutState.RETURNED_WITHOUT_RESULT, EffectType.PERSIST), steps(a))

            a = c.handleUrl(callbackUrl(sent, CheckoutStatus.COMPLETED, "&payment_id=pay_1"), t0 + 25000)
            assertEquals(step("pay1", CheckoutState.AWAITING_CONFIRMATION, EffectType.CLOSE_BROWSER, EffectType.SHOW_PENDING, EffectType.PERSIST), steps(a))
            // The tab closing after the deep link (the usual order) changes nothing.
            assertEquals(Outcome.Ignored, c.send(Event.CheckoutBrowserDismissed("pay1", t0 + 26000)).outcome)
            a = c.send(Event.CheckoutConfirmation("pay1", ConfirmationEvent(ConfirmationType.PAYMENT_CONFIRMED,
                JSONObject().put("payment_id", "pay_1").put("amount", "150.00")), t0 + 30000))
            assertEquals(step("pay1", CheckoutState.CONFIRMED, EffectType.PERSIST), steps(a))
        }
    }

    @Test
    fun spoofedCallbacksAreRejectedForeignUrlsAreNotOurs() {
        Coordinator().use { c ->
            val sent = returnUrlSent(c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Backend(CheckoutKind.CARDS, returnUrl),
                nonce = nonce, nowMs = t0)))
            // Another nonce, or none at all (the registered URL, which anyone can send): refused, nothing changes.
            for (spoof in listOf(callbackUrl(sent.replace(nonce, "zzzzzzzzzzzzzzzzzzzz"), CheckoutStatus.COMPLETED),
                                 callbackUrl(returnUrl, CheckoutStatus.COMPLETED))) {
                val rejected = c.handleUrl(spoof, t0 + 1000).outcome as Outcome.Rejected
                assertEquals(ErrorCode.CALLBACK_MISMATCH to "nonce", rejected.error.code to rejected.error.field)
                assertEquals(CheckoutState.AWAITING_SESSION, c.snapshotDocument().flows[0].state)
            }
            assertEquals(Outcome.NotOurs, c.handleUrl("otherapp://somewhere?x=1", t0 + 1000).outcome)
            val failed = c.handleUrl(callbackUrl(sent, CheckoutStatus.FAILED, "&reason=card_declined"), t0 + 2000)
            assertEquals(CheckoutState.FAILED, failed.transitions[0].state)
            assertEquals("card_declined", (failed.transitions[0].details as CheckoutFlowDetails).callback!!.reason)
            assertEquals(Outcome.Ignored, c.handleUrl(callbackUrl(sent, CheckoutStatus.CANCELLED), t0 + 3000).outcome)
        }
    }

    @Test
    fun unverifiedCallbacksAreOnlyClaims() {
        Coordinator(CoordinatorConfig(acceptUnverifiedCallbacks = true)).use { c ->
            assertTrue(c.snapshotDocument().config.acceptUnverifiedCallbacks)
            c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Backend(CheckoutKind.PAYMENTS, returnUrl), nonce = nonce, nowMs = t0))
            // Anyone can send this URL: the claim is kept and may show "confirming…", but it never
            // moves the flow, so the genuine session still opens the browser.
            var a = c.handleUrl(callbackUrl(returnUrl, CheckoutStatus.COMPLETED, "&payment_id=pay_1"), t0 + 1000)
            assertEquals(step("c1", CheckoutState.AWAITING_SESSION, EffectType.SHOW_PENDING, EffectType.PERSIST), steps(a))
            assertFalse((a.transitions[0].details as CheckoutFlowDetails).callback!!.verified)
            a = c.send(Event.CheckoutSession("c1", CheckoutSessionInput.Backend(CheckoutKind.PAYMENTS,
                "https://checkout.pay.ingalca.com/p/1", paymentId = "pay_1"), t0 + 1500))
            assertEquals(step("c1", CheckoutState.READY, EffectType.OPEN_BROWSER, EffectType.PERSIST), steps(a))
            // A flow still waiting is removed only when the app gives it up.
            a = c.send(Event.FlowRemove("c1", nowMs = t0 + 2000))
            assertEquals(ErrorCode.INVALID_STATE, (a.outcome as Outcome.Rejected).error.code)
            assertEquals(Outcome.Accepted, c.send(Event.FlowRemove("c1", giveUp = true, nowMs = t0 + 2000)).outcome)
            assertEquals(emptyList<FlowDetails>(), c.snapshotDocument().flows)
        }
    }

    @Test
    fun posSaleUnknownOutcomeThenLateApprovalAndRefunds() {
        Coordinator().use { c ->
            var a = c.send(Event.PosStart("p1", sale, token = token, nowMs = t0))
            assertEquals(step("p1", PosState.READY, EffectType.OPEN_POS_APP, EffectType.PERSIST), steps(a))
            // The URL the stateless call builds with the same token: the identifier sent is ord-1~token.
            val built = Pos.buildUrl(sale, token)
            assertEquals(Effect.OpenPosApp(built.url), a.transitions[0].effects[0])
            assertEquals("ord-1~$token" to token, built.identifier to built.token)
            val details = a.transitions[0].details as PosFlowDetails
            assertEquals("ord-1" to PosOperation.VENTA, details.identifier to details.operation)
            assertFalse("details may be logged: no token", details.json.toString().contains(token))
            assertEquals("100.00", details.amount)
            c.send(Event.PosLaunched("p1", t0 + 1000))
            c.send(Event.AppForegrounded(t0 + 30000))
            a = c.send(Event.Tick(t0 + 34000))
            assertEquals(step("p1", PosState.RETURNED_WITHOUT_RESPONSE, EffectType.RECONCILE, EffectType.PERSIST), steps(a))
            assertEquals(t0 + 30000, (a.transitions[0].details as PosFlowDetails).foregroundedAtMs)

            a = c.handleUrl(saleAnswer, t0 + 40000)
            assertEquals(Outcome.Accepted, a.outcome)
            assertEquals(step("p1", PosState.APPROVED, EffectType.PERSIST), steps(a))
            val approved = a.transitions[0].details as PosFlowDetails
            val response = approved.response!!
            assertEquals(PosResult.APPROVED, response.result)
            assertEquals("720371" to "4242", response.transactionId to response.creditCard)
            // The answer echoed ord-1~token; details show the app's identifier alone.
            assertEquals("ord-1", response.identifier)
            assertEquals(t0 + 40000, approved.answeredAtMs)

            fun refund(flowId: String, nowMs: Long, amount: Amount?) = c.send(Event.PosStart(flowId,
                PosRequest.refund("tok_secret_1", flowId.replace("r", "ref-"), "720371", "myapp", amount),
                refundOf = Event.PosStart.RefundOf.SaleFlow("p1"), token = token, nowMs = nowMs))
            a = refund("r1", t0 + 120000, Amount.of("40.00"))
            assertEquals(step("r1", PosState.READY, EffectType.OPEN_POS_APP, EffectType.PERSIST), steps(a))
            assertEquals(PosOperation.DEVOLUCION to "720371", (a.transitions[0].details as PosFlowDetails).let { it.operation to it.saleTransactionId })
            a = c.send(Event.PosLaunchFailed("r1", "Billpocket is not installed", t0 + 121000))
            assertEquals(step("r1", PosState.LAUNCH_FAILED, EffectType.SHOW_HINT, EffectType.PERSIST), steps(a))
            assertEquals("Billpocket is not installed", (a.transitions[0].details as PosFlowDetails).launchFailure)
            // Android: the POS app answers through onActivityResult; its extras are the answer.
            a = c.send(Event.PosResult("r1", mapOf("result" to "aprobada", "amount" to "40.00", "transactionid" to "990001",
                "identifier" to "ref-1~$token"), t0 + 130000))
            assertEquals(step("r1", PosState.APPROVED, EffectType.PERSIST), steps(a))
            // The ledger to the centavo: the sale, what its refunds paid back, the refund.
            val ledger = c.snapshotDocument().ledger
            assertEquals(listOf(listOf<Any>("720371", 10000L, 4000L, t0 + 40000)),
                ledger.sales.map { listOf<Any>(it.transactionId, it.amountMinor, it.refundedMinor, it.approvedAtMs) })
            assertEquals(listOf(listOf<Any>("990001", 4000L, t0 + 130000)), ledger.refunds.map { listOf<Any>(it.transactionId, it.amountMinor, it.approvedAtMs) })
            assertEquals(0L to 0, ledger.prunedThroughMs to ledger.unknown.size)
            // Ended flows are removed without giving anything up; a second refund without an amount refunds the rest.
            assertEquals(Outcome.Accepted, c.send(Event.FlowRemove("r1", nowMs = t0 + 131000)).outcome)
            a = refund("r2", t0 + 140000, null)
            assertTrue((a.transitions[0].effects[0] as Effect.OpenPosApp).url!!.contains(Regex("&amount=60\\.00(&|$)")))
        }
    }

    @Test
    fun posDeclinedAndAnswersForAnotherRequest() {
        Coordinator().use { c ->
            c.send(Event.PosStart("p1", sale, token = token, nowMs = t0))
            // Our scheme, but no hand-off with that identifier, or the app's reference without the
            // flow's token (a forged approval): a claim this app cannot match.
            for (identifier in listOf("ord-999", "ord-1", "ord-1~" + "0".repeat(32))) {
                val a = c.handleUrl("myapp://result=aprobada&amount=100.00&transactionid=1&identifier=$identifier", t0 + 1000)
                val error = (a.outcome as Outcome.Rejected).error
                assertEquals(ErrorCode.CALLBACK_MISMATCH to "identifier", error.code to error.field)
                assertEquals(PosState.READY, c.snapshotDocument().flows[0].state)
            }
            // A second sale for the same order with the same token: one answer could fit both.
            val twin = (c.send(Event.PosStart("p2", sale, token = token, nowMs = t0 + 1500)).outcome as Outcome.Rejected).error
            assertEquals(ErrorCode.CONFLICT to "token", twin.code to twin.field)
            // With its own token it is another hand-off: each answer names exactly one of them.
            assertEquals(Outcome.Accepted, c.send(Event.PosStart("p3", sale, nowMs = t0 + 1600)).outcome)
            // A token may not hold '~' (the identifier sent splits at its last '~').
            val tilde = expect { c.send(Event.PosStart("p4", sale, token = "abcdefgh~ijklmnop", nowMs = t0 + 1700)) }
            assertEquals(ErrorCode.VALIDATION to "token", tilde.code to tilde.field)
            val a = c.handleUrl("myapp://result=rechazada&amount=100.00&identifier=ord-1~$token&statusinfo=Fondos%20insuficientes", t0 + 2000)
            assertEquals(step("p1", PosState.DECLINED, EffectType.PERSIST), steps(a))
            val response = (a.transitions[0].details as PosFlowDetails).response!!
            assertEquals(PosResult.DECLINED to "Fondos insuficientes", response.result to response.statusInfo)
            assertEquals(PosState.READY, c.snapshotDocument().flows.first { it.id == "p3" }.state)
        }
    }

    @Test
    fun theSameDeepLinkTwiceIsADuplicate() {
        Coordinator().use { c ->
            val sent = returnUrlSent(c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Backend(CheckoutKind.CARDS, returnUrl),
                nonce = nonce, nowMs = t0)))
            val url = callbackUrl(sent, CheckoutStatus.COMPLETED)
            // onCreate's intent and onNewIntent may both carry it; the url event is the same door.
            val outcomes = listOf(
                c.handleUrl(url, t0 + 6000),
                c.send(Event.Url(url, t0 + 7000)),
                c.handleUrl(callbackUrl(sent, CheckoutStatus.CANCELLED), t0 + 8000),   // verified, after the hand-off was consumed
                c.handleUrl("$returnUrl?status=cancelled", t0 + 9000),                  // without the nonce: anyone could send it
                c.handleUrl("https://example.com/not-a-deep-link-of-ours", t0 + 10000),
                c.handleUrl("$sent?status=%zz", t0 + 11000)
            ).map { it.outcome.type }
            assertEquals(listOf(EventOutcome.ACCEPTED, EventOutcome.DUPLICATE, EventOutcome.IGNORED, EventOutcome.REJECTED,
                EventOutcome.NOT_OURS, EventOutcome.REJECTED), outcomes)
            assertEquals(CheckoutState.AWAITING_CONFIRMATION, c.snapshotDocument().flows[0].state)
        }
    }

    @Test
    fun snapshotRestoreAcrossProcessDeath() {
        val first = Coordinator(CoordinatorConfig(posGraceMs = 5000))
        val sent = returnUrlSent(first.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Request(cardRequest), nonce = nonce, nowMs = t0)))
        first.send(Event.CheckoutSession("c1", CheckoutSessionInput.Backend(CheckoutKind.CARDS, "https://checkout.pay.ingalca.com/r/1"), t0 + 1000))
        first.send(Event.CheckoutBrowserOpened("c1", t0 + 2000))
        first.send(Event.PosStart("p1", sale, token = token, nowMs = t0 + 3000))
        first.send(Event.PosLaunched("p1", t0 + 4000))
        assertEquals(Outcome.Accepted, first.handleUrl(saleAnswer, t0 + 5000).outcome)
        val saved = first.snapshot()
        assertFalse("no API key in the snapshot", saved.contains("sk_test_1"))
        assertFalse("no POS user token in the snapshot", saved.contains("tok_secret_1"))
        first.close() // the process dies

        Coordinator.restore(saved).use { c ->
            val snapshot = c.snapshotDocument()
            assertEquals(4, snapshot.version)
            assertEquals(5000L, snapshot.config.posGraceMs)
            assertEquals(listOf(Triple("720371", 10000L, 0L)), snapshot.ledger.sales.map { Triple(it.transactionId, it.amountMinor, it.refundedMinor) })
            assertEquals(listOf("c1" to CheckoutState.IN_BROWSER, "p1" to PosState.APPROVED), snapshot.flows.map { it.id to it.state })
            assertEquals(listOf(FlowType.CHECKOUT, FlowType.POS), snapshot.flows.map { it.type })
            assertTrue(TestJson.same(JSONObject(saved), snapshot.json))
            assertEquals(Outcome.Duplicate, c.handleUrl(saleAnswer, t0 + 6000).outcome)
            val a = c.handleUrl(callbackUrl(sent, CheckoutStatus.COMPLETED), t0 + 7000)
            assertEquals(step("c1", CheckoutState.AWAITING_CONFIRMATION, EffectType.CLOSE_BROWSER, EffectType.SHOW_PENDING, EffectType.PERSIST), steps(a))
        }
    }

    @Test
    fun restoreRefusesDamagedAndNewerSnapshots() {
        fun check(snapshot: String, code: ErrorCode, field: String?) {
            val e = expect { Coordinator.restore(snapshot) }
            assertEquals(snapshot, code to field, e.code to e.field)
        }
        check("""{"version": 3, "config": {}, "ledger": {}, "flows": [{"id": "p1", "type": "pos", "state": "no_such_state",
            "operation": "venta", "identifier": "o", "token": "$token", "answer_scheme": "myapp", "grace_ms": 0}]}""",
            ErrorCode.VALIDATION, "flows[0].state")
        // PayHandoff 0.2's format 2 is read (converted), with the same rules.
        check("""{"version": 2, "config": {}, "ledger": [], "flows": [{"id": "p1", "type": "pos", "state": "no_such_state",
            "operation": "venta", "identifier": "o", "token": "$token", "answer_scheme": "myapp", "grace_ms": 0}]}""",
            ErrorCode.VALIDATION, "flows[0].state")
        check("""{"version": 5, "config": {}, "flows": [], "ledger": {}}""", ErrorCode.UNSUPPORTED_VERSION, "version")
        // Format 1 (before the refund ledger) is not read either.
        check("""{"version": 1, "config": {}, "flows": [], "refunded": {}}""", ErrorCode.UNSUPPORTED_VERSION, "version")
        assertEquals(ErrorCode.INVALID_JSON, expect { Coordinator.restore("""{"version": 1,""") }.code)
        assertEquals(ErrorCode.INVALID_JSON, expect { Coordinator.restore("") }.code)
    }

    @Test
    fun errorsAreOneExceptionType() {
        val e = expect { Pos.buildUrl(PosRequest.sale("tok_1", "ord-1", "100.001", "myapp")) }
        assertEquals(ErrorCode.VALIDATION to "amount", e.code to e.field)
        assertTrue(e.message!!, e.message!!.startsWith("validation (amount): "))
        // Money is never a fractional number: the JSON door refuses one.
        assertEquals(ErrorCode.INVALID_JSON, expect { Pos.buildUrlJson(sale.toJson().put("amount", 100.5).toString()) }.code)
        assertEquals(ErrorCode.INVALID_JSON, expect { Pos.buildUrlJson("{\"a\": 1, \"a\": 2}") }.code)
        assertEquals(ErrorCode.VALIDATION, expect { Coordinator(CoordinatorConfig(posGraceMs = -1)) }.code)
        Coordinator().use { c ->
            val late = expect { c.handleUrl("myapp://x", Long.MAX_VALUE) }
            assertEquals(ErrorCode.VALIDATION to "now_ms", late.code to late.field)
            val invalid = expect { c.send("""{"type": "tick"}""") }
            assertEquals(ErrorCode.VALIDATION to "now", invalid.code to invalid.field)
            // A typed event with a bad member: the core names it, from the event's root.
            val bad = expect { c.send(Event.PosStart("p1", PosRequest.sale("tok_1", "ord-1", "1.001", "myapp"), nowMs = t0)) }
            assertEquals(ErrorCode.VALIDATION to "request.amount", bad.code to bad.field)
            assertEquals(ErrorCode.VALIDATION to "flow_id", expect { c.send(Event.PosLaunched("a b", t0)) }.let { it.code to it.field })
            assertEquals(ErrorCode.VALIDATION to "now", expect { c.send(Event.Tick(-1)) }.let { it.code to it.field })
            assertEquals(emptyList<FlowDetails>(), c.snapshotDocument().flows)
        }
    }

    @Test
    fun statelessCalls() {
        val request = PosRequest(PosOperation.VENTA, "tok_1", "ord-1", "myapp", amount = Amount.of("100.00"), tip = Amount.ofMinorUnits(1500), msi = 3)
        val url = Pos.buildUrl(request)
        assertEquals("billpocket://transaction=venta&usertoken=tok_1&identifier=ord-1&amount=100.00&urlScheme=myapp&tip=15.00&msi=3", url.url)
        assertEquals("billpocket.payments.START" to "com.billpocket.billpocket", url.intent.action to url.intent.packageName)
        assertEquals(PosField("userToken", "tok_1"), url.intent.extras[1])
        assertEquals(null, url.token)
        val response = Pos.parseResponse("myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1&msi=3&accountType=Debit", "myapp", "ord-1")
        assertEquals(PosResult.APPROVED, response.result)
        assertEquals(3, response.msi)
        assertEquals(AccountType.DEBIT, response.accountType)
        // With a fresh token the answer must echo the identifier sent; the app's reference alone is refused.
        val tokened = Pos.buildUrlWithFreshToken(request)
        val fresh = tokened.token!!
        assertNotEquals(fresh, Pos.buildUrlWithFreshToken(request).token)
        assertEquals("ord-1~$fresh", tokened.identifier)
        assertEquals(PosField("identifier", "ord-1~$fresh"), tokened.intent.extras[2])
        val echoed = Pos.parseResponse("myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~$fresh", "myapp", "ord-1", fresh)
        assertEquals("ord-1~$fresh", echoed.identifier)
        assertEquals(ErrorCode.CALLBACK_MISMATCH, expect {
            Pos.parseResponse("myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1", "myapp", "ord-1", fresh)
        }.code)
        // The same answer as Android result extras: decoded text, never percent-decoded again.
        val extras = linkedMapOf("result" to "aprobada", "amount" to "100.00", "transactionid" to "720371",
            "identifier" to "ord-1~$fresh", "reference" to "a%26b", "userToken" to "tok_1")
        val result = Pos.parseResult(extras, "ord-1", fresh)
        assertEquals(PosResult.APPROVED, result.result)
        assertEquals("a%26b", result.reference)
        assertFalse(result.json.toString().contains("tok_1"))
        val forged = expect { Pos.parseResult(extras + ("identifier" to "ord-1"), "ord-1", fresh) }
        assertEquals(ErrorCode.CALLBACK_MISMATCH to "identifier", forged.code to forged.field)
        assertEquals(ErrorCode.INVALID_JSON to "amount", expect { Pos.parseResultJson("""{"result": "aprobada", "amount": 100}""", "{}") }.let { it.code to it.field })

        val verdict = Pos.refundCheck(PosSale("720371", Amount.of("100.00"), 1764518400, "4.3.24"), 1764518430, Amount.of("40.00"))
        assertFalse(verdict.eligible)
        assertEquals(listOf(RefundReason.TOO_SOON), verdict.reasons.map { it.code })
        assertEquals(emptyList<RefundCheck.Warning>(), verdict.warnings)
        assertEquals("40.00" to 1764518460L, verdict.refundAmount to verdict.eligibleFrom)
        assertEquals("2025-11-30T10:01:00-06:00", verdict.eligibleFromLocal)
        val unknownVersion = Pos.refundCheck(PosSale("720371", Amount.ofMinorUnits(10000), 1764518400), 1764518530)
        assertTrue(unknownVersion.eligible)
        assertEquals("100.00", unknownVersion.refundAmount)
        assertEquals(listOf(RefundWarning.POS_APP_VERSION_UNKNOWN), unknownVersion.warnings.map { it.code })

        val built = Checkout.buildRequest(cardRequest, nonce)
        assertEquals("https://api.pay.ingalca.com/v1/cards", built.request.url)
        assertEquals(Header("Authorization", "Bearer sk_test_1"), built.request.headers[0])
        assertEquals("Pérez", built.request.body.getJSONObject("customer").getString("lastname"))
        assertEquals(built.returnUrl, built.request.body.getString("return_url"))
        assertEquals(nonce, built.nonce)
        assertNotEquals(nonce, Checkout.buildRequest(cardRequest).nonce)
        val iframe = Checkout.buildRequest(CheckoutRequest.Payments("sk_test_1", integration = CheckoutIntegration.IFRAME,
            fields = JSONObject().put("amount", 10000)))
        assertEquals(null to null, iframe.returnUrl to iframe.nonce)
        assertEquals(10000, iframe.request.body.getInt("amount"))
        val callbackUrl = "${built.returnUrl}?status=completed&card_id=card_xyz"
        val callback = Checkout.parseCallback(callbackUrl, CheckoutKind.CARDS, returnUrl, nonce)
        assertEquals(CheckoutStatus.COMPLETED, callback.status)
        assertTrue(callback.verified)
        val required = expect { Checkout.parseCallback(callbackUrl, CheckoutKind.CARDS, returnUrl) }
        assertEquals(ErrorCode.VALIDATION to "nonce", required.code to required.field)
        val mismatch = expect { Checkout.parseCallback("$returnUrl?status=completed&card_id=card_xyz", CheckoutKind.CARDS, returnUrl, nonce) }
        assertEquals(ErrorCode.CALLBACK_MISMATCH to "nonce", mismatch.code to mismatch.field)
        val claim = Checkout.parseCallback("$returnUrl?status=completed&card_id=card_xyz", CheckoutKind.CARDS, returnUrl, acceptUnverified = true)
        assertFalse(claim.verified)
        val session = Checkout.parseSession(CheckoutSessionInput.Gateway(CheckoutKind.CARDS, 201,
            JSONObject("""{"data": {"registration": {"checkout_url": "https://checkout.pay.ingalca.com/r/9f8e"}}}""")))
        assertEquals("https://checkout.pay.ingalca.com/r/9f8e", session.checkoutUrl)
        // A body as Kotlin maps (e.g. from another JSON library) is the same document.
        val fromMaps = Checkout.parseSession(CheckoutSessionInput.Gateway(CheckoutKind.CARDS, 201,
            mapOf("data" to mapOf("registration" to mapOf("checkout_url" to "https://checkout.pay.ingalca.com/r/9f8e")))))
        assertTrue(TestJson.same(session.json, fromMaps.json))
        assertEquals(ErrorCode.GATEWAY_ERROR, expect {
            Checkout.parseSession(CheckoutSessionInput.Gateway(CheckoutKind.CARDS, 402, JSONObject("""{"error": {"message": "no"}}""")))
        }.code)
        val confirmation = Checkout.parseConfirmation(ConfirmationEvent(ConfirmationType.CARD_REGISTERED,
            JSONObject("""{"card_id": "card_xyz", "brand": "visa", "last_four": "4242", "token": "tok_abc", "created_at": "2026-11-30T16:00:00Z", "updated_at": 1764518400000}""")))
        assertEquals(ConfirmationType.CARD_REGISTERED, confirmation.type)
        assertEquals(listOf("card_xyz", "4242", "tok_abc"), listOf(confirmation.cardId, confirmation.lastFour, confirmation.token))
        assertEquals(mapOf("created_at" to "2026-11-30T16:00:00Z", "updated_at" to 1764518400000L), confirmation.timestamps)
    }

    @Test
    fun textCrossesAsUtf8() {
        // Non-BMP text (emoji) survives both ways, byte for byte (JNI's modified UTF-8 would mangle it).
        val reference = "caf\u00e9 \ud83d\udcb3\ud83c\uddf2\ud83c\uddfd"
        val url = Pos.buildUrl(PosRequest(PosOperation.VENTA, "tok_1", "ord-1", "myapp", amount = Amount.of("1.00"), reference = reference))
        assertEquals(reference, url.fields.first { it.key == "reference" }.value)
        val response = Pos.parseResponse(url.url!!.replace("billpocket://transaction=venta&usertoken=tok_1", "myapp://result=aprobada"), "myapp")
        assertEquals(reference, response.reference)
        // A lone surrogate has no UTF-8 form: refused before the call, naming the parameter (never '?'),
        // as React Native and the web refuse it; a typed request's document is the parameter.
        val lone = expect { Pos.parseResponse("myapp://result=aprobada&reference=\ud83d", "myapp") }
        assertEquals(ErrorCode.INVALID_ARGUMENT to "url", lone.code to lone.field)
        assertEquals(ErrorCode.INVALID_ARGUMENT to "request_json", expect { Pos.buildUrlJson("{\"reference\": \"\ud83d\"}") }.let { it.code to it.field })
        val typed = expect { Pos.buildUrl(PosRequest.sale("tok_1", "ord-1\udc00", "1.00", "myapp")) }
        assertEquals(ErrorCode.INVALID_ARGUMENT to "request_json", typed.code to typed.field)
        Coordinator().use { c ->
            val event = expect { c.send(Event.PosStart("p1", PosRequest.sale("tok_1", "\ud83d", "1.00", "myapp"), nowMs = t0)) }
            assertEquals(ErrorCode.INVALID_ARGUMENT to "event_json", event.code to event.field)
            assertEquals(emptyList<FlowDetails>(), c.snapshotDocument().flows)
            // A surrogate pair in the same place is an ordinary character.
            assertEquals(Outcome.Accepted, c.send(Event.PosStart("p1", PosRequest.sale("tok_1", "\ud83d\udcb3", "1.00", "myapp"), nowMs = t0)).outcome)
        }
        assertEquals(ErrorCode.INVALID_ARGUMENT to "snapshot_json", expect { Coordinator.restore("\udfff") }.let { it.code to it.field })
        // U+0000 cannot cross a C string: refused before the call, naming the parameter.
        val nul = expect { Pos.parseResponse("myapp://result=aprobada\u0000&x=1", "myapp") }
        assertEquals(ErrorCode.INVALID_ARGUMENT to "url", nul.code to nul.field)
        // Inside a JSON document it is escaped (\u0000) and reaches the core, which decides: a POS
        // request refuses it (its answer could never be read back).
        val inDocument = expect { Pos.buildUrl(PosRequest.sale("tok_1", "ord\u0000", "1.00", "myapp")) }
        assertEquals(ErrorCode.VALIDATION to "identifier", inDocument.code to inDocument.field)
    }

    /** A snapshot of the shape restore reads (format 3) whose ledger holds [sales] approved sales, [minor] centavos each. */
    private fun ledgerSnapshot(sales: Int, minor: Long = 10000L): String {
        val entries = (0 until sales).joinToString(",") { """["${7200000000L + it}",$minor,0,${t0 + it}]""" }
        return """{"version":3,"config":{},"flows":[],"ledger":{"pruned_through":0,"sales":[$entries],"refunds":[],"unknown":[]}}"""
    }

    @Test
    fun snapshotsOver64KiBCrossBothWays() {
        // 3000 sales of one day: about 111 KB, over PAYHANDOFF_MAX_JSON_BYTES and within
        // PAYHANDOFF_MAX_SNAPSHOT_BYTES, through the JNI byte arrays in and out.
        val text = ledgerSnapshot(3000)
        assertTrue(text.length in (PayHandoff.MAX_JSON_BYTES + 1)..PayHandoff.MAX_SNAPSHOT_BYTES)
        assertEquals(262144, PayHandoff.MAX_SNAPSHOT_BYTES)
        Coordinator.restore(text).use { c ->
            val saved = c.snapshot()
            assertTrue("${saved.length} bytes", saved.toByteArray(Charsets.UTF_8).size > PayHandoff.MAX_JSON_BYTES)
            assertEquals(3000, c.snapshotDocument().ledger.sales.size)
            Coordinator.restore(saved).use { again -> assertEquals(saved, again.snapshot()) }
            // A refund of one of those sales reads its balance from the restored ledger.
            val refund = c.send(Event.PosStart("r1", PosRequest.refund("tok_1", "ref-1", "7200001234", "myapp"),
                refundOf = Event.PosStart.RefundOf.Sale(PosSale("7200001234", Amount.of("100.00"), (t0 + 1234) / 1000)), nowMs = t0 + 3600000))
            assertEquals(Outcome.Accepted, refund.outcome)
        }
        // Every other JSON input stays within PAYHANDOFF_MAX_JSON_BYTES.
        val big = expect { Pos.buildUrlJson("{\"reference\": \"${"x".repeat(PayHandoff.MAX_JSON_BYTES)}\"}") }
        assertEquals(ErrorCode.LIMIT_EXCEEDED, big.code)
        // Over PAYHANDOFF_MAX_SNAPSHOT_BYTES a snapshot is not read.
        val over = ledgerSnapshot(3000).replace("\"flows\":[]", "\"flows\":[]" + " ".repeat(PayHandoff.MAX_SNAPSHOT_BYTES))
        assertEquals(ErrorCode.LIMIT_EXCEEDED to "snapshot_json", expect { Coordinator.restore(over) }.let { it.code to it.field })
    }

    @Test
    fun restoreSalvageKeepsWhatIsIntact() {
        val saved = Coordinator().use { c ->
            c.send(Event.PosStart("p1", sale, token = token, nowMs = t0))
            c.send(Event.PosLaunched("p1", t0 + 1000))
            c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Backend(CheckoutKind.CARDS, returnUrl), nonce = nonce, nowMs = t0 + 2000))
            c.snapshot()
        }
        // A hand edit broke the checkout: restore refuses the whole snapshot, naming the member.
        val damaged = JSONObject(saved).also { it.getJSONArray("flows").getJSONObject(1).put("state", "no_such_state") }.toString()
        val refused = expect { Coordinator.restore(damaged) }
        assertEquals(ErrorCode.VALIDATION to "flows[1].state", refused.code to refused.field)
        val salvage = Coordinator.restoreSalvage(damaged)
        salvage.coordinator.use { c ->
            assertEquals(1, salvage.dropped.size)
            val dropped = salvage.dropped[0]
            assertEquals(listOf("flows[1]", ErrorCode.VALIDATION, "flows[1].state"), listOf(dropped.member, dropped.code, dropped.field))
            assertEquals(ErrorCode.VALIDATION to "flows[1].state", dropped.error.code to dropped.error.field)
            assertEquals(listOf("p1" to PosState.LAUNCHED), c.snapshotDocument().flows.map { it.id to it.state })
            assertTrue(TestJson.same(salvage.snapshot.json, JSONObject(c.snapshot())))
            Typed.check("the salvage (typed)", Typed.salvage(salvage), salvage.json)
            // The kept sale still takes its genuine answer.
            assertEquals(step("p1", PosState.APPROVED, EffectType.PERSIST), steps(c.handleUrl(saleAnswer, t0 + 5000)))
        }
        // An intact snapshot drops nothing; a torn write (not JSON) salvages nothing.
        Coordinator.restoreSalvage(saved).let { it.coordinator.close(); assertEquals(emptyList<Coordinator.Salvage.Dropped>(), it.dropped) }
        assertEquals(ErrorCode.INVALID_JSON, expect { Coordinator.restoreSalvage(saved.substring(0, saved.length / 2)) }.code)
        assertEquals(ErrorCode.UNSUPPORTED_VERSION, expect { Coordinator.restoreSalvage("""{"version": 9}""") }.code)
    }

    @Test
    fun aStartForgetsEndedFlowsWhenTheSnapshotIsFull() {
        Coordinator().use { c ->
            var forgotten = emptyList<String>()
            var started = 0
            // Declined sales end at once; each start reserves room for everything its flow may
            // still receive, so the snapshot fills up with ended flows long before 256 KiB of text.
            while (forgotten.isEmpty() && started < 2000) {
                val id = "p$started"
                val flowToken = "%032x".format(started)
                val a = c.send(Event.PosStart(id, PosRequest.sale("tok_1", "ord-$started", "1.00", "myapp"), token = flowToken, nowMs = t0 + started))
                assertEquals("start $started: ${a.outcome}", Outcome.Accepted, a.outcome)
                forgotten = a.forgotten
                Typed.check("start $started (typed)", Typed.answer(a), a.json)
                val declined = c.handleUrl("myapp://result=rechazada&identifier=ord-$started~$flowToken", t0 + started)
                assertEquals(PosState.DECLINED, declined.transitions[0].state)
                started++
            }
            assertEquals(listOf("p0"), forgotten)
            assertEquals("p1", c.snapshotDocument().flows.first().id)
            assertTrue(c.snapshot().length <= PayHandoff.MAX_SNAPSHOT_BYTES)
            Coordinator.restore(c.snapshot()).close()
        }
    }

    @Test
    fun handleIsFreedOnce() {
        val c = Coordinator(CoordinatorConfig(posGraceMs = 5000))
        assertEquals(5000L, c.snapshotDocument().config.posGraceMs)
        c.close()
        c.close()
        try {
            c.snapshot()
            fail("a closed coordinator answered")
        } catch (e: IllegalStateException) {
            assertTrue(e.message!!.contains("closed"))
        }
        // Unclosed coordinators: the finalizer path frees them (never twice: some were closed already).
        val queue = ReferenceQueue<Coordinator>()
        val refs = (0 until 200).map { abandon(queue, closeFirst = it % 2 == 0) }
        val deadline = System.currentTimeMillis() + 30000
        var reclaimed = 0
        while (reclaimed < refs.size && System.currentTimeMillis() < deadline) {
            System.gc()
            System.runFinalization()
            while (queue.poll() != null) reclaimed++
        }
        // A phantom reference is enqueued only after the object's finalizer has run.
        assertEquals(refs.size, reclaimed)
    }

    private fun abandon(queue: ReferenceQueue<Coordinator>, closeFirst: Boolean): PhantomReference<Coordinator> {
        val c = Coordinator()
        c.send(Event.PosStart("p1", PosRequest.sale("tok_1", "ord-1", "1.00", "myapp"), nowMs = t0))
        if (closeFirst) c.close()
        return PhantomReference(c, queue)
    }

    @Test
    fun everyCFunctionHasItsShim() {
        // Native's external functions are named after the C ABI's (payhandoff_pos_parse_result ->
        // posParseResult); payhandoff_string_free is the shim's own business (every answer is copied, then freed).
        val symbols = File(TestJson.vectorsDir, "../../abi/symbols.txt").readLines().filter { it.isNotBlank() }
        val expected = symbols.map { symbol ->
            symbol.removePrefix("payhandoff_").split('_').let { parts -> parts[0] + parts.drop(1).joinToString("") { Character.toUpperCase(it[0]) + it.substring(1) } }
        }.filter { it != "stringFree" }.toSet()
        val external = Class.forName("com.payhandoff.Native").declaredMethods.filter { Modifier.isNative(it.modifiers) }.map { it.name }.toSet()
        assertTrue("the shim misses ${expected - external}", external.containsAll(expected))
        assertEquals("external functions without a C function", emptySet<String>(), external - expected)
        assertEquals(symbols.size - 1, external.size)
    }

    @Test
    fun abiVersionIsChecked() {
        PayHandoff.load()
        assertEquals(PayHandoff.ABI_VERSION, PayHandoff.abiVersion)
        assertNotNull(Regex("^[0-9]+\\.[0-9]+\\.[0-9]+").find(PayHandoff.version))
        try {
            PayHandoff.checkAbi(PayHandoff.ABI_VERSION + 1)
            fail("a mismatched ABI version was accepted")
        } catch (e: IllegalStateException) {
            assertTrue(e.message!!, e.message!!.contains("ABI version ${PayHandoff.ABI_VERSION + 1}"))
        }
    }

    private fun expect(body: () -> Unit): PayHandoffException {
        try {
            body()
        } catch (e: PayHandoffException) {
            return e
        }
        throw AssertionError("no PayHandoffException")
    }
}
