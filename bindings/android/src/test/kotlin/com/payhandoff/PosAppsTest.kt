package com.payhandoff

import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Assume.assumeTrue
import org.junit.Test

/**
 * The terminal apps beside Billpocket (issue 39) through the typed Kotlin API: each provider's
 * documented sale (SumUp: sumup/sumup-ios-url-scheme and sumup-android-url-scheme READMEs; Clip:
 * ClipMX/mobile.android.blaze.pinpad.sdk SystemClipIntentProvider.kt, ActivityClipResultManager.kt)
 * built, answered and moved through a coordinator — approved once, a replay a duplicate, a forged
 * answer refused with nothing changed, cancelled, no data — and SumUp's affiliate key in no
 * toString; Square (SquarePointOfSaleSDK-iOS `SCCAPIResponse.m`, point-of-sale-android-sdk
 * `PosApi.java`) on iOS and Android.
 */
class PosAppsTest {
    private val t0 = 1796054400000L
    private val token = "fedcba9876543210fedcba9876543210"
    private val affiliateKey = "sup_afk_SECRETKEY42"
    private val sumup = PosRequest.sumup(affiliateKey, "com.example.shop", "ord-1", "100.00", "EUR", "myapp://sumup-result")
        .copy(title = "Coffee", receiptPhone = "+4915112345678")
    private val clip = PosRequest.clip("ord-1", "100.00").copy(tip = Amount.of("10.00"), autoReturn = true)

    private fun steps(answer: Answer) = answer.transitions.map { Triple(it.flowId, it.state, it.effects.map { e -> e.type }) }

    private fun step(flowId: String, state: Enum<*>, vararg effects: EffectType) = listOf(Triple(flowId, state, effects.toList()))

    private fun state(c: Coordinator, flowId: String): Enum<*> = c.snapshotDocument().flows.first { it.id == flowId }.state

    private fun sumupAnswer(query: String) = "myapp://sumup-result?$query"

    /** Clip's result extras: `PAYMENT_RESPONSE` as the SDK's Gson writes `PaymentResult`, and `PAYMENT_ERROR`. */
    private fun clipExtras(reference: String?, status: String, amount: String = "100.0", error: String? = null): Map<String, String> {
        val response = JSONObject().putOpt("reference", reference).put("status", status).put("amount", amount)
            .put("receiptNumber", "R-77").put("wasSessionReplaced", false)
        return if (error == null) mapOf("PAYMENT_RESPONSE" to response.toString())
        else mapOf("PAYMENT_RESPONSE" to response.toString(), "PAYMENT_ERROR" to error)
    }

    private fun expect(block: () -> Any?): PayHandoffException {
        try {
            block()
        } catch (e: PayHandoffException) {
            return e
        }
        throw AssertionError("no error")
    }

    @Test
    fun sumupBuildsTheIosUrlAndTheAndroidViewIntent() {
        val built = Pos.buildUrl(sumup, token)
        Typed.check("sumup build (typed)", Typed.posUrl(built), built.json)
        assertEquals(PosApp.SUMUP, built.posApp)
        val sent = "ord-1~$token"
        assertEquals("sumupmerchant://pay/1.0?amount=100.00&currency=EUR&affiliate-key=$affiliateKey&foreign-tx-id=$sent" +
            "&callbacksuccess=myapp%3A%2F%2Fsumup-result&callbackfail=myapp%3A%2F%2Fsumup-result&title=Coffee&receipt-mobilephone=%2B4915112345678", built.url)
        assertEquals(emptyList<PosField>(), built.fields)
        val intent = built.intent
        assertEquals("android.intent.action.VIEW", intent.action)
        assertNull("SumUp claims its scheme: no package", intent.packageName)
        assertNull(intent.component)
        assertFalse(intent.isExplicit)
        assertEquals("sumupmerchant://pay/1.0?total=100.00&currency=EUR&affiliate-key=$affiliateKey&app-id=com.example.shop&foreign-tx-id=$sent" +
            "&callback=myapp%3A%2F%2Fsumup-result&title=Coffee&receipt-mobilephone=%2B4915112345678", intent.data)
        assertEquals(emptyList<PosExtra>(), intent.extras)
        assertEquals(sent, built.identifier)
        // The request document is what the core reads; its rules are the core's.
        assertEquals("sumup", sumup.toJson().getString("pos_app"))
        assertEquals(ErrorCode.VALIDATION to "currency", expect { Pos.buildUrl(sumup.copy(currency = "JPY"), token) }.let { it.code to it.field })
        assertEquals(ErrorCode.VALIDATION to "identifier", expect { Pos.buildUrl(sumup.copy(identifier = "x".repeat(96)), token) }.let { it.code to it.field })
        // A fresh token per build: every retry is a fresh foreign-tx-id.
        assertNotEquals(Pos.buildUrlWithFreshToken(sumup).intent.data, Pos.buildUrlWithFreshToken(sumup).intent.data)
    }

    @Test
    fun sumupSaleApprovesOnceAndRefusesForgedAnswers() {
        Coordinator().use { c ->
            val started = c.send(Event.PosStart("s1", sumup, token = token, nowMs = t0))
            Typed.check("start (typed)", Typed.answer(started), started.json)
            val open = started.transitions[0].effects[0] as Effect.OpenPosApp
            assertEquals(PosApp.SUMUP, open.posApp)
            assertEquals(Pos.buildUrl(sumup, token).url, open.url)
            assertEquals(Pos.buildUrl(sumup, token).intent, open.intent)
            val details = started.transitions[0].details as PosFlowDetails
            assertEquals(PosApp.SUMUP, details.posApp)
            assertEquals("myapp", details.answerScheme)
            c.send(Event.PosLaunched("s1", t0 + 1000))
            val before = c.snapshot()
            // Forged: without the token, with another token, without foreign-tx-id.
            for (forged in listOf("smp-status=success&smp-tx-code=T1&foreign-tx-id=ord-1",
                    "smp-status=success&smp-tx-code=T1&foreign-tx-id=ord-1~0123456789abcdef0123456789abcdef",
                    "smp-status=success&smp-tx-code=T1")) {
                val refused = c.handleUrl(sumupAnswer(forged), t0 + 5000)
                assertNotEquals(forged, Outcome.Accepted, refused.outcome)
                assertEquals(forged, before, c.snapshot())
            }
            val url = sumupAnswer("smp-status=success&smp-tx-code=TEENSY42&smp-receipt-sent=false&foreign-tx-id=ord-1~$token")
            // The answer read alone, as the app may read it before routing.
            val read = Pos.parseResponse(url, PosApp.SUMUP, "myapp://sumup-result", "ord-1", token)
            Typed.check("parsed (typed)", Typed.posResponse(read), read.json)
            assertEquals(PosApp.SUMUP to PosResult.APPROVED, read.posApp to read.result)
            assertEquals("TEENSY42", read.transactionId)
            val approved = c.handleUrl(url, t0 + 60000)
            Typed.check("approved (typed)", Typed.answer(approved), approved.json)
            assertEquals(step("s1", PosState.APPROVED, EffectType.PERSIST), steps(approved))
            val response = (approved.transitions[0].details as PosFlowDetails).response!!
            assertEquals(PosApp.SUMUP, response.posApp)
            assertEquals("TEENSY42", response.transactionId)
            assertEquals("ord-1", response.identifier)
            assertEquals(Outcome.Duplicate, c.handleUrl(url, t0 + 61000).outcome)
            assertEquals("only Billpocket approvals are booked", 0, c.snapshotDocument().ledger.sales.size)
            // Process death: the approved SumUp flow restores, and a replay is still a duplicate.
            Coordinator.restore(c.snapshot()).use { restored ->
                assertEquals(PosState.APPROVED, state(restored, "s1"))
                assertEquals(PosApp.SUMUP, (restored.snapshotDocument().flows[0] as PosFlowDetails).posApp)
                assertEquals(Outcome.Duplicate, restored.handleUrl(url, t0 + 62000).outcome)
            }
            // SumUp refunds through its server API.
            val refund = c.send(Event.PosStart("r1", PosRequest.refund("tok", "ref-1", "TEENSY42", "myapp"), Event.PosStart.RefundOf.SaleFlow("s1"), nowMs = t0 + 120000))
            val rejected = refund.outcome as Outcome.Rejected
            assertEquals(ErrorCode.NOT_ELIGIBLE, rejected.error.code)
            assertTrue(rejected.error.reason, rejected.error.reason.contains("sumup_server_refund"))
        }
    }

    @Test
    fun sumupFailuresMapToDeclinedErrorOrReconcile() {
        val cases = listOf(
            "smp-status=failed&smp-failure-cause=transaction-failed&smp-tx-code=T2" to PosState.DECLINED,
            "smp-status=failed&smp-failure-cause=invalid-token" to PosState.ERROR,
            "smp-status=failed" to PosState.UNRECOGNIZED_RESULT,
            "smp-status=success" to PosState.UNRECOGNIZED_RESULT)
        Coordinator().use { c ->
            for ((i, case) in cases.withIndex()) {
                val (query, expected) = case
                val flowToken = "%032x".format(i + 1)
                c.send(Event.PosStart("s$i", sumup, token = flowToken, nowMs = t0))
                val a = c.handleUrl(sumupAnswer("$query&foreign-tx-id=ord-1~$flowToken"), t0 + 10000)
                Typed.check(query, Typed.answer(a), a.json)
                assertEquals(query, expected, a.transitions[0].state)
                if (expected == PosState.UNRECOGNIZED_RESULT) assertTrue(query, a.transitions[0].effects.any { it is Effect.Reconcile })
            }
        }
    }

    /**
     * SumUp has no "no data" result (it answers by URL, and "if the URL is down, the response will
     * be lost": sumup-android-url-scheme #8): the app comes back without an answer, and after the
     * grace period the flow is `RETURNED_WITHOUT_RESPONSE` with `Reconcile`, never declined; the
     * genuine answer arriving late still resolves it.
     */
    @Test
    fun sumupWithoutAnAnswerIsReconciledNeverDeclined() {
        Coordinator(CoordinatorConfig(posGraceMs = 3000)).use { c ->
            c.send(Event.PosStart("s1", sumup, token = token, nowMs = t0))
            c.send(Event.PosLaunched("s1", t0 + 1000))
            c.send(Event.AppForegrounded(t0 + 20000))
            val lost = c.send(Event.Tick(t0 + 23001))
            Typed.check("lost (typed)", Typed.answer(lost), lost.json)
            assertEquals(step("s1", PosState.RETURNED_WITHOUT_RESPONSE, EffectType.RECONCILE, EffectType.PERSIST), steps(lost))
            assertTrue((lost.transitions[0].effects[0] as Effect.Reconcile).reason.contains("SumUp"))
            val late = c.handleUrl(sumupAnswer("smp-status=success&smp-tx-code=LATE1&foreign-tx-id=ord-1~$token"), t0 + 60000)
            assertEquals(PosState.APPROVED, late.transitions[0].state)
        }
    }

    @Test
    fun clipBuildsTheExplicitIntentWithExactDecimalText() {
        val built = Pos.buildUrl(clip.copy(amount = Amount.of("10000000.00"), retry = false), token)
        Typed.check("clip build (typed)", Typed.posUrl(built), built.json)
        assertEquals(PosApp.CLIP, built.posApp)
        assertNull("Clip has no URL", built.url)
        val intent = built.intent
        assertEquals("android.intent.action.MAIN", intent.action)
        assertEquals(PosComponent("com.payclip.blaze.pinpad", "com.payclip.blaze.pinpad.shared.ui.MainActivity"), intent.component)
        assertTrue(intent.isExplicit)
        assertNull(intent.data)
        assertEquals(listOf(PosField("PAYMENT_REFERENCE", "ord-1~$token"), PosField("PAYMENT_AMOUNT", "10000000.00"),
            PosField("PAYMENT_TIP_AMOUNT", "10.00"), PosExtra.Bool("PAYMENT_AUTO_RETURN", true), PosExtra.Bool("PAYMENT_RETRY", false)), intent.extras)
        // Another build of Clip's app: the component is the host's to override.
        val qa = Pos.buildUrl(clip.copy(component = "com.payclip.blaze.pinpad.qa/com.payclip.blaze.pinpad.shared.ui.MainActivity"))
        assertEquals("com.payclip.blaze.pinpad.qa", qa.intent.component!!.packageName)
        assertEquals(ErrorCode.VALIDATION to "amount", expect { Pos.buildUrl(clip.copy(amount = Amount.of("10000000000000.00"))) }.let { it.code to it.field })
        assertEquals(ErrorCode.VALIDATION to "component", expect { Pos.buildUrl(clip.copy(component = "nopackage")) }.let { it.code to it.field })
        assertEquals(PosComponent("com.example", "com.example.Main"), PosComponent.of("com.example/.Main"))
    }

    @Test
    fun clipSaleApprovesOnceCancelsAndRefusesForgedAnswers() {
        Coordinator().use { c ->
            val started = c.send(Event.PosStart("k1", clip, token = token, nowMs = t0))
            Typed.check("start (typed)", Typed.answer(started), started.json)
            val open = started.transitions[0].effects[0] as Effect.OpenPosApp
            assertEquals(PosApp.CLIP, open.posApp)
            assertNull("Clip has no URL", open.url)
            assertEquals(Pos.buildUrl(clip, token).intent, open.intent)
            val details = started.transitions[0].details as PosFlowDetails
            assertEquals(PosApp.CLIP to null, details.posApp to details.answerScheme)
            c.send(Event.PosLaunched("k1", t0 + 1000))
            val before = c.snapshot()
            // Forged: an approval echoing the identifier without the token, or another token.
            for (reference in listOf("ord-1", "ord-1~0123456789abcdef0123456789abcdef")) {
                val refused = c.send(Event.PosResult("k1", clipExtras(reference, "approved"), t0 + 5000))
                assertTrue(reference, refused.outcome is Outcome.Rejected)
                assertEquals(reference, before, c.snapshot())
            }
            val extras = clipExtras("ord-1~$token", "approved")
            // resultCode null: result_code is resultCodeTravelsWithTheResult's (the core does not read it yet).
            val read = Pos.parseResult(PosApp.CLIP, null, extras, "ord-1", token)
            Typed.check("parsed (typed)", Typed.posResponse(read), read.json)
            assertEquals(listOf(PosApp.CLIP, PosResult.APPROVED, "100.00", "R-77"), listOf(read.posApp, read.result, read.amount, read.transactionId))
            val approved = c.send(Event.PosResult("k1", extras, t0 + 30000))
            Typed.check("approved (typed)", Typed.answer(approved), approved.json)
            assertEquals(step("k1", PosState.APPROVED, EffectType.PERSIST), steps(approved))
            assertEquals(Outcome.Duplicate, c.send(Event.PosResult("k1", extras, t0 + 31000)).outcome)
            assertEquals("only Billpocket approvals are booked", 0, c.snapshotDocument().ledger.sales.size)
            Coordinator.restore(c.snapshot()).use { restored ->
                assertEquals(PosState.APPROVED, state(restored, "k1"))
                assertEquals(Outcome.Duplicate, restored.send(Event.PosResult("k1", extras, t0 + 32000)).outcome)
            }

            // Cancelled in Clip's app (RESULT_OK with PAYMENT_ERROR CANCELLED): the flow ends cancelled, nothing charged.
            val second = "00112233445566778899aabbccddeeff"
            c.send(Event.PosStart("k2", clip.copy(identifier = "ord-2"), token = second, nowMs = t0))
            val cancelledExtras = clipExtras("ord-2~$second", "error", error = "CANCELLED")
            val cancelledRead = Pos.parseResult(PosApp.CLIP, null, cancelledExtras)
            assertEquals(PosResult.CANCELLED to "CANCELLED", cancelledRead.result to (cancelledRead.errorCode ?: cancelledRead.statusInfo))
            val cancelled = c.send(Event.PosResult("k2", cancelledExtras, t0 + 30000))
            Typed.check("cancelled (typed)", Typed.answer(cancelled), cancelled.json)
            assertEquals(PosState.CANCELLED, cancelled.transitions[0].state)
            assertEquals(PosResult.CANCELLED, (cancelled.transitions[0].details as PosFlowDetails).response!!.result)
            assertEquals("a late approval changes nothing", PosState.CANCELLED,
                c.send(Event.PosResult("k2", clipExtras("ord-2~$second", "approved"), t0 + 40000)).let { state(c, "k2") })
            Coordinator.restore(c.snapshot()).use { restored -> assertEquals(PosState.CANCELLED, state(restored, "k2")) }
        }
    }

    @Test
    fun clipWithNoDataIsReturnedWithoutResponseNeverDeclined() {
        Coordinator().use { c ->
            c.send(Event.PosStart("k1", clip, token = token, nowMs = t0))
            c.send(Event.PosLaunched("k1", t0 + 1000))
            // onActivityResult(requestCode, RESULT_CANCELED, null): Clip crashed or the user backed out.
            val a = c.send(Event.PosResult("k1", null, t0 + 5000))
            Typed.check("no data (typed)", Typed.answer(a), a.json)
            assertEquals(step("k1", PosState.RETURNED_WITHOUT_RESPONSE, EffectType.RECONCILE, EffectType.PERSIST), steps(a))
            assertTrue((a.transitions[0].effects[0] as Effect.Reconcile).reason.contains("Clip"))
            // The genuine answer arriving later still resolves it.
            val late = c.send(Event.PosResult("k1", clipExtras("ord-1~$token", "approved"), t0 + 60000))
            assertEquals(PosState.APPROVED, late.transitions[0].state)
        }
    }

    /**
     * `resultCode` travels as `result_code` (spec: `pos.result` and `pos_parse_result`'s options
     * gain it; the extras decide). This needs the core to read the member: until it does, the core
     * refuses it as an unknown member, and this test says so.
     */
    @Test
    fun resultCodeTravelsWithTheResult() {
        val event = Event.PosResult.fromActivityResult("k1", Event.PosResult.RESULT_OK, clipExtras("ord-1~$token", "approved"), t0 + 5000)
        assertEquals(-1, event.toJson().getInt("result_code"))
        assertFalse(Event.PosResult("k1", null, t0).toJson().has("result_code"))
        Coordinator().use { c ->
            c.send(Event.PosStart("k1", clip, token = token, nowMs = t0))
            val a = try {
                c.send(event)
            } catch (e: PayHandoffException) {
                fail("the core refused pos.result's result_code: ${e.code} (${e.field}) ${e.reason}")
                return
            }
            assertEquals(PosState.APPROVED, a.transitions[0].state)
        }
        val read = Pos.parseResult(PosApp.CLIP, Event.PosResult.RESULT_OK, clipExtras("ord-1~$token", "approved"), "ord-1", token)
        assertEquals(PosResult.APPROVED, read.result)
    }

    private val square = PosRequest.square("sq0idp-APP", "ord-1", "100.00", "USD", "myapp://square-callback")

    /** Square's iOS answer (SquarePointOfSaleSDK-iOS `SCCAPIResponse.m`): the callback with `data=<JSON>`. */
    private fun squareAnswer(data: JSONObject) = "myapp://square-callback?data=" + java.net.URLEncoder.encode(data.toString(), "UTF-8")

    /** Square on iOS: the answer URL on the callback approves once; forged (no state echo) is refused; cancelled ends cancelled. */
    @Test
    fun squareIosSaleApprovesOnceAndCancels() {
        Coordinator().use { c ->
            val started = c.send(Event.PosStart("q1", square, token = token, nowMs = t0))
            Typed.check("start (typed)", Typed.answer(started), started.json)
            val open = started.transitions[0].effects[0] as Effect.OpenPosApp
            assertEquals(PosApp.SQUARE, open.posApp)
            assertTrue(open.url!!.startsWith("square-commerce-v1://payment/create?data="))
            assertEquals("com.squareup.pos.action.CHARGE" to "com.squareup", open.intent!!.action to open.intent!!.packageName)
            c.send(Event.PosLaunched("q1", t0 + 1000))
            val before = c.snapshot()
            for (state in listOf("ord-1", "ord-1~0123456789abcdef0123456789abcdef")) {
                val forged = c.handleUrl(squareAnswer(JSONObject().put("status", "ok").put("transaction_id", "SRV1").put("state", state)), t0 + 5000)
                assertNotEquals(state, Outcome.Accepted, forged.outcome)
                assertEquals(state, before, c.snapshot())
            }
            val url = squareAnswer(JSONObject().put("status", "ok").put("transaction_id", "SRV1").put("client_transaction_id", "CLI1").put("state", "ord-1~$token"))
            val read = Pos.parseResponse(url, PosApp.SQUARE, "myapp://square-callback", "ord-1", token)
            Typed.check("parsed (typed)", Typed.posResponse(read), read.json)
            assertEquals(listOf(PosApp.SQUARE, PosResult.APPROVED, "SRV1"), listOf(read.posApp, read.result, read.transactionId))
            val approved = c.handleUrl(url, t0 + 30000)
            Typed.check("approved (typed)", Typed.answer(approved), approved.json)
            assertEquals(step("q1", PosState.APPROVED, EffectType.PERSIST), steps(approved))
            assertEquals(Outcome.Duplicate, c.handleUrl(url, t0 + 31000).outcome)
            assertEquals(0, c.snapshotDocument().ledger.sales.size)

            val second = "00112233445566778899aabbccddeeff"
            c.send(Event.PosStart("q2", square.copy(identifier = "ord-2"), token = second, nowMs = t0))
            val cancelled = c.handleUrl(squareAnswer(JSONObject().put("status", "error").put("error_code", "payment_canceled").put("state", "ord-2~$second")), t0 + 30000)
            Typed.check("cancelled (typed)", Typed.answer(cancelled), cancelled.json)
            assertEquals(PosState.CANCELLED, cancelled.transitions[0].state)
        }
    }

    /** Square on Android: `onActivityResult` with its extras (`PosApi.java`), `resultCode` carried; no data is reconcile, never declined. */
    @Test
    fun squareAndroidResultsAndNoData() {
        Coordinator().use { c ->
            c.send(Event.PosStart("q1", square, token = token, nowMs = t0))
            c.send(Event.PosLaunched("q1", t0 + 1000))
            val ok = mapOf("com.squareup.pos.SERVER_TRANSACTION_ID" to "SRV9", "com.squareup.pos.CLIENT_TRANSACTION_ID" to "CLI9",
                "com.squareup.pos.REQUEST_METADATA" to "ord-1~$token")
            val read = Pos.parseResult(PosApp.SQUARE, Event.PosResult.RESULT_OK, ok, "ord-1", token)
            assertEquals(PosResult.APPROVED to "SRV9", read.result to read.transactionId)
            val approved = c.send(Event.PosResult.fromActivityResult("q1", Event.PosResult.RESULT_OK, ok, t0 + 30000))
            Typed.check("approved (typed)", Typed.answer(approved), approved.json)
            assertEquals(PosState.APPROVED, approved.transitions[0].state)
            assertEquals(Outcome.Duplicate, c.send(Event.PosResult.fromActivityResult("q1", Event.PosResult.RESULT_OK, ok, t0 + 31000)).outcome)

            // The app crashed or was uninstalled: data == null.
            val second = "00112233445566778899aabbccddeeff"
            c.send(Event.PosStart("q2", square.copy(identifier = "ord-2"), token = second, nowMs = t0))
            c.send(Event.PosLaunched("q2", t0 + 1000))
            val none = c.send(Event.PosResult.fromActivityResult("q2", Event.PosResult.RESULT_CANCELED, null, t0 + 5000))
            assertEquals(step("q2", PosState.RETURNED_WITHOUT_RESPONSE, EffectType.RECONCILE, EffectType.PERSIST), steps(none))
            // Cancelled by the merchant: RESULT_CANCELED with ERROR_TRANSACTION_CANCELED.
            val third = "112233445566778899aabbccddeeff00"
            c.send(Event.PosStart("q3", square.copy(identifier = "ord-3"), token = third, nowMs = t0))
            val cancelled = c.send(Event.PosResult.fromActivityResult("q3", Event.PosResult.RESULT_CANCELED,
                mapOf("com.squareup.pos.ERROR_CODE" to "com.squareup.pos.ERROR_TRANSACTION_CANCELED", "com.squareup.pos.REQUEST_METADATA" to "ord-3~$third"), t0 + 5000))
            assertEquals(PosState.CANCELLED, cancelled.transitions[0].state)
        }
    }

    @Test
    fun squareRequestIsTheSpecsDocument() {
        val square = PosRequest.square("sq0idp-APP", "ord-1", "100.00", "USD", "myapp://square-callback")
            .copy(notes = "Coffee", tenderTypes = listOf(SquareTenderType.CARD, SquareTenderType.CASH), autoReturnMs = 4000L, skipReceipt = true)
        val json = square.toJson()
        assertTrue(TestJson.same(JSONObject("""{"pos_app": "square", "client_id": "sq0idp-APP", "identifier": "ord-1", "amount": "100.00",
            "currency": "USD", "callback_url": "myapp://square-callback", "notes": "Coffee", "tender_types": ["card", "cash"],
            "auto_return_ms": 4000, "skip_receipt": true}"""), json))
        assertEquals(PosApp.SQUARE, square.posApp)
        assertTrue("the client id is Square's public application id: shown", square.toString().contains("sq0idp-APP"))
        // The round trip (iOS data= URL, CHARGE intent with typed extras) is the core's Square rules'; this build answers:
        val built = try {
            Pos.buildUrl(square, token)
        } catch (e: PayHandoffException) {
            assertEquals(ErrorCode.VALIDATION to "pos_app", e.code to e.field)
            val reason = "the core on this branch has no Square rules yet (${e.reason})"
            println("skip: PosAppsTest Square round trip: $reason")
            assumeTrue(reason, false)
            return
        }
        Typed.check("square build (typed)", Typed.posUrl(built), built.json)
        assertEquals(PosApp.SQUARE, built.posApp)
        assertEquals("com.squareup.pos.action.CHARGE", built.intent.action)
        assertEquals("com.squareup", built.intent.packageName)
        assertTrue(built.intent.extras.contains(PosExtra.IntValue("com.squareup.pos.TOTAL_AMOUNT", 10000)))
        assertTrue(built.intent.extras.contains(PosExtra.StringArray("com.squareup.pos.TENDER_TYPES",
            listOf("com.squareup.pos.TENDER_CARD", "com.squareup.pos.TENDER_CASH"))))
        assertTrue(built.intent.extras.contains(PosExtra.LongValue("com.squareup.pos.AUTO_RETURN_TIMEOUT_MS", 4000L)))
        assertTrue(built.url!!.startsWith("square-commerce-v1://payment/create?data="))
    }

    /**
     * An answer echoing the affiliate key (SumUp's does not; a forged or buggy one may): the key
     * is dropped, as Billpocket's echoed user token and PIN are, so no answer, details, snapshot
     * or toString holds it (h39vec's vectors decide the same).
     */
    @Test
    fun anEchoedAffiliateKeyIsDropped() {
        Coordinator().use { c ->
            c.send(Event.PosStart("s1", sumup, token = token, nowMs = t0))
            val url = sumupAnswer("smp-status=success&smp-tx-code=T1&affiliate-key=$affiliateKey&foreign-tx-id=ord-1~$token")
            val read = Pos.parseResponse(url, PosApp.SUMUP, "myapp://sumup-result", "ord-1", token)
            assertFalse("toString: $read", read.toString().contains(affiliateKey))
            val echo = c.handleUrl(url, t0 + 1000)
            assertEquals(PosState.APPROVED, echo.transitions[0].state)
            for (value in listOf<Any>(echo, echo.transitions, c.snapshotDocument())) assertFalse(value.toString(), value.toString().contains(affiliateKey))
            assertFalse("the answer keeps it: ${read.extra}", read.json.toString().contains(affiliateKey))
            assertFalse("the snapshot keeps it", c.snapshot().contains(affiliateKey))
        }
    }

    @Test
    fun theAffiliateKeyIsInNoToString() {
        val built = Pos.buildUrl(sumup, token)
        assertTrue("the app needs it: the URL and the intent carry it", built.url!!.contains(affiliateKey) && built.intent.data!!.contains(affiliateKey))
        assertTrue(sumup.toJson().getString("affiliate_key") == affiliateKey)
        val shown = ArrayList<Any>(listOf(sumup, sumup.toRedactedJson(), built, built.intent, Event.PosStart("s1", sumup, token = token, nowMs = t0),
            PosField("affiliate-key", affiliateKey), PosField("AFFILIATE_KEY", affiliateKey),
            Effect.OpenPosApp(built.url, PosApp.SUMUP, built.intent)))
        Coordinator().use { c ->
            val started = c.send(Event.PosStart("s1", sumup, token = token, nowMs = t0))
            shown.addAll(listOf(started, started.transitions, started.transitions[0].effects, started.transitions[0].details, c.snapshotDocument()))
            assertFalse("the snapshot never holds it", c.snapshot().contains(affiliateKey))
        }
        val refused = expect { Pos.buildUrl(sumup.copy(currency = "XXXX")) }
        shown.add(refused)
        shown.add(refused.message ?: "")
        for (value in shown) {
            val text = value.toString()
            assertFalse("${value.javaClass.simpleName}.toString() shows the affiliate key: $text", text.contains(affiliateKey))
            assertFalse("${value.javaClass.simpleName}.toString() shows the token: $text", text.contains(token))
        }
        assertTrue(sumup.toString().contains("com.example.shop"))
    }
}
