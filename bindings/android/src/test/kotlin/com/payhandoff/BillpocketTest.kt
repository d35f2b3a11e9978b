package com.payhandoff

import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

/**
 * What real Billpocket integrations send and expect (issue 30), through the typed Kotlin API:
 * `onActivityResult` with no data, the result words (`declinada`, an unknown word), an echoed
 * PIN, and the intent's two actions and package.
 */
class BillpocketTest {
    private val t0 = 1796054400000L
    private val token = "9f86d081884c7d659a2feaa0c55ad015"
    private val sale = PosRequest.sale("tok_secret_1", "ord-1", "100.00", "myapp")
    private val approval = "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~$token&creditcard=4242"

    /** (flow id, state, effect types) of every transition. */
    private fun steps(answer: Answer) = answer.transitions.map { Triple(it.flowId, it.state, it.effects.map { e -> e.type }) }

    private fun step(flowId: String, state: Enum<*>, vararg effects: EffectType) = listOf(Triple(flowId, state, effects.toList()))

    /** A coordinator with sale p1 started (with [token]) and launched. */
    private fun launched(): Coordinator {
        val c = Coordinator()
        c.send(Event.PosStart("p1", sale, token = token, nowMs = t0))
        assertEquals(step("p1", PosState.LAUNCHED, EffectType.PERSIST), steps(c.send(Event.PosLaunched("p1", t0 + 1000))))
        return c
    }

    private fun state(c: Coordinator, flowId: String): Enum<*> = c.snapshotDocument().flows.first { it.id == flowId }.state

    @Test
    fun noDataBackIsReturnedWithoutResponseAtOnceAndALateAnswerStillResolvesIt() {
        // onActivityResult(requestCode, resultCode, data = null): no extras at all.
        val event = Event.PosResult("p1", null, t0 + 5000)
        assertFalse("no extras: the member is left out", event.toJson().has("extras"))
        launched().use { c ->
            // No app.foregrounded, no tick: the answer is "no answer" at once, never declined.
            val a = c.send(event)
            assertEquals(Outcome.Accepted, a.outcome)
            assertEquals(step("p1", PosState.RETURNED_WITHOUT_RESPONSE, EffectType.RECONCILE, EffectType.PERSIST), steps(a))
            val reconcile = a.transitions[0].effects[0] as Effect.Reconcile
            assertTrue(reconcile.reason, reconcile.reason.contains("unknown"))
            val details = a.transitions[0].details as PosFlowDetails
            assertNull("no answer was stored", details.response)
            Typed.check("the no-data answer (typed)", Typed.answer(a), a.json)
            // The Activity may be delivered the same empty result twice (recreated): nothing new.
            assertEquals(Outcome.Duplicate, c.send(Event.PosResult("p1", emptyMap(), t0 + 5100)).outcome)
            assertEquals(0, c.snapshotDocument().ledger.sales.size)
            // Process death in between: the state and its meaning survive the snapshot.
            Coordinator.restore(c.snapshot()).use { restored ->
                assertEquals(PosState.RETURNED_WITHOUT_RESPONSE, state(restored, "p1"))
                // The POS app's genuine answer arrives late, by deep link: it resolves the flow.
                val late = restored.handleUrl(approval, t0 + 60000)
                assertEquals(step("p1", PosState.APPROVED, EffectType.PERSIST), steps(late))
                assertEquals(PosResult.APPROVED, (late.transitions[0].details as PosFlowDetails).response!!.result)
                assertEquals(listOf("720371" to 10000L), restored.snapshotDocument().ledger.sales.map { it.transactionId to it.amountMinor })
                // An empty result after the answer changes nothing.
                assertEquals(Outcome.Ignored, restored.send(Event.PosResult("p1", null, t0 + 61000)).outcome)
                assertEquals(PosState.APPROVED, state(restored, "p1"))
            }
        }
    }

    @Test
    fun emptyExtrasAndExplicitNullAreNoDataToo() {
        Coordinator().use { c ->
            val noData: List<Pair<String, () -> Answer>> = listOf(
                "p1" to { c.send(Event.PosResult("p1", emptyMap(), t0 + 2000)) },
                "p2" to { c.send("""{"type": "pos.result", "flow_id": "p2", "now": ${t0 + 2000}, "extras": null}""") },
                "p3" to { c.send("""{"type": "pos.result", "flow_id": "p3", "now": ${t0 + 2000}}""") })
            for ((id, send) in noData) {
                c.send(Event.PosStart(id, sale.copy(identifier = "ord-$id"), nowMs = t0))
                // Also before pos.launched (startActivityForResult returned at once).
                assertEquals(id, step(id, PosState.RETURNED_WITHOUT_RESPONSE, EffectType.RECONCILE, EffectType.PERSIST), steps(send()))
            }
            // Extras with members are an answer, read as one: no result is a validation error, and the flow waits.
            c.send(Event.PosStart("p4", sale.copy(identifier = "ord-p4"), token = token, nowMs = t0))
            val rejected = c.send(Event.PosResult("p4", mapOf("identifier" to "ord-p4~$token"), t0 + 3000)).outcome as Outcome.Rejected
            assertEquals(ErrorCode.VALIDATION to "extras.result", rejected.error.code to rejected.error.field)
            assertEquals(PosState.READY, state(c, "p4"))
        }
    }

    @Test
    fun declinadaIsADeclineInAnyCase() {
        for (word in listOf("declinada", "Declinada", "DECLINADA", "rechazada", "Rechazada")) {
            val parsed = Pos.parseResponse("myapp://result=$word&identifier=ord-1~$token&statusinfo=Tarjeta%20declinada", "myapp", "ord-1", token)
            assertEquals(word, PosResult.DECLINED, parsed.result)
            assertNull(word, parsed.resultWord)
            assertEquals("Tarjeta declinada", parsed.statusInfo)
            val extras = Pos.parseResult(mapOf("result" to word, "identifier" to "ord-1~$token"), "ord-1", token)
            assertEquals(word, PosResult.DECLINED to null, extras.result to extras.resultWord)
        }
        // Billpocket's own Cordova plugin compares the Android result with "declinada".
        launched().use { c ->
            val a = c.send(Event.PosResult("p1", mapOf("result" to "Declinada", "identifier" to "ord-1~$token", "statusinfo" to "Fondos insuficientes"), t0 + 5000))
            assertEquals(step("p1", PosState.DECLINED, EffectType.PERSIST), steps(a))
            val response = (a.transitions[0].details as PosFlowDetails).response!!
            assertEquals(PosResult.DECLINED to "Fondos insuficientes", response.result to response.statusInfo)
            assertEquals(0, c.snapshotDocument().ledger.sales.size)
        }
    }

    @Test
    fun anUnknownWordIsUnrecognizedNeverAnApproval() {
        // Stateless: rc 0, result UNRECOGNIZED, the word as sent, even with an amount and a transaction id.
        val parsed = Pos.parseResponse("myapp://result=Aprobado&amount=100.00&transactionid=720371&identifier=ord-1", "myapp", "ord-1")
        assertEquals(PosResult.UNRECOGNIZED to "Aprobado", parsed.result to parsed.resultWord)
        Typed.check("unrecognized (typed)", Typed.posResponse(parsed), parsed.json)
        val fromExtras = Pos.parseResult(mapOf("result" to "pendiente", "identifier" to "ord-1"), "ord-1")
        assertEquals(PosResult.UNRECOGNIZED to "pendiente", fromExtras.result to fromExtras.resultWord)

        launched().use { c ->
            val unknown = "myapp://result=Aprobado&amount=100.00&transactionid=720371&identifier=ord-1~$token"
            var a = c.handleUrl(unknown, t0 + 5000)
            assertEquals(Outcome.Accepted, a.outcome)
            assertEquals(step("p1", PosState.UNRECOGNIZED_RESULT, EffectType.RECONCILE, EffectType.PERSIST), steps(a))
            val reason = (a.transitions[0].effects[0] as Effect.Reconcile).reason
            assertTrue(reason, reason.contains("\"Aprobado\""))
            val response = (a.transitions[0].details as PosFlowDetails).response!!
            assertEquals(PosResult.UNRECOGNIZED to "Aprobado", response.result to response.resultWord)
            Typed.check("the unrecognized answer (typed)", Typed.answer(a), a.json)
            assertEquals("nothing booked", 0, c.snapshotDocument().ledger.sales.size)
            // The same answer again is a duplicate; another unknown word is ignored.
            assertEquals(Outcome.Duplicate, c.handleUrl(unknown, t0 + 6000).outcome)
            assertEquals(Outcome.Ignored, c.send(Event.PosResult("p1", mapOf("result" to "pendiente", "identifier" to "ord-1~$token"), t0 + 7000)).outcome)
            // Across process death the state reads back, typed.
            Coordinator.restore(c.snapshot()).use { restored ->
                val snapshot = restored.snapshotDocument()
                Typed.check("the restored snapshot (typed)", Typed.snapshot(snapshot), snapshot.json)
                assertEquals(PosState.UNRECOGNIZED_RESULT, snapshot.flows[0].state)
                // A later genuine answer with a known word resolves it, and only then is the sale booked.
                a = restored.handleUrl(approval, t0 + 60000)
                assertEquals(step("p1", PosState.APPROVED, EffectType.PERSIST), steps(a))
                assertEquals(listOf("720371"), restored.snapshotDocument().ledger.sales.map { it.transactionId })
            }
        }
    }

    @Test
    fun anEchoedPinNeverAppearsInOutput() {
        val pin = "PIN-8675309"
        val shown = ArrayList<Pair<String, String>>()
        // Older Android integrations send the merchant's PIN as an extra; the POS app may echo it, in any case.
        for (key in listOf("pin", "PIN", "Pin")) {
            val extras = mapOf("result" to "aprobada", "amount" to "100.00", "transactionid" to "720371", "identifier" to "ord-1~$token", key to pin)
            val parsed = Pos.parseResult(extras, "ord-1", token)
            assertEquals(PosResult.APPROVED, parsed.result)
            assertFalse(key, parsed.extra.containsKey(key))
            shown.add("parseResult $key" to parsed.json.toString())
            shown.add("parseResult toString $key" to parsed.toString())
            val url = Pos.parseResponse("myapp://result=aprobada&amount=100.00&identifier=ord-1~$token&$key=$pin", "myapp", "ord-1", token)
            shown.add("parseResponse $key" to url.json.toString())
            // An error about the same answer does not quote it either.
            try {
                Pos.parseResult(extras + ("amount" to "1.001"), "ord-1", token)
                fail("an amount with three decimals was accepted")
            } catch (e: PayHandoffException) {
                assertEquals(ErrorCode.VALIDATION, e.code)
                shown.add("error $key" to "${e.message} ${e.field} $e")
            }
            shown.add("event toString $key" to Event.PosResult("p1", extras, t0).toString())
        }
        launched().use { c ->
            val a = c.send(Event.PosResult("p1", mapOf("result" to "aprobada", "amount" to "100.00", "transactionid" to "720371",
                "identifier" to "ord-1~$token", "Pin" to pin), t0 + 5000))
            assertEquals(step("p1", PosState.APPROVED, EffectType.PERSIST), steps(a))
            shown.add("answer" to a.json.toString())
            shown.add("answer toString" to a.toString())
            shown.add("snapshot" to c.snapshot())
            val rejected = c.send(Event.PosResult("p1", mapOf("result" to "aprobada", "identifier" to "ord-1~$token", "pin" to pin, "amount" to "x"), t0 + 6000))
            shown.add("a second answer" to rejected.json.toString())
        }
        for ((what, text) in shown) assertFalse("$what shows the PIN: $text", text.contains(pin))
        assertTrue(shown.size >= 15)
    }

    @Test
    fun theIntentCarriesTheActionAskedForAndThePackage() {
        val byDefault = Pos.buildUrl(sale, token)
        assertEquals("billpocket.payments.START", byDefault.intent.action)
        assertEquals(PosAndroidAction.BILLPOCKET_PAYMENTS_START, byDefault.intent.androidAction)
        assertEquals("com.billpocket.billpocket", byDefault.intent.packageName)
        assertEquals("com.billpocket.payments.START", byDefault.intent.otherAction)
        assertFalse("the default is the core's: nothing sent", sale.toJson().has("android_action"))

        val other = sale.copy(androidAction = PosAndroidAction.COM_BILLPOCKET_PAYMENTS_START)
        assertEquals("com.billpocket.payments.START", other.toJson().getString("android_action"))
        val built = Pos.buildUrl(other, token)
        assertEquals(PosAndroidAction.COM_BILLPOCKET_PAYMENTS_START, built.intent.androidAction)
        assertEquals("billpocket.payments.START", built.intent.otherAction)
        // The action is Android's, not a field of the request: the URL and the extras are the same.
        assertEquals(byDefault.url, built.url)
        assertEquals(byDefault.intent.extras, built.intent.extras)
        assertEquals(byDefault.intent.copy(action = built.intent.action), built.intent)
        assertFalse("toString hides the user token", built.intent.toString().contains("tok_secret_1"))
        assertTrue(built.intent.toString().contains("com.billpocket.billpocket"))
        // A refund takes it too, and a pos.start's request carries it to the core (which checks it).
        val refund = Pos.buildUrl(PosRequest.refund("tok_1", "ref-1", "720371", "myapp").copy(androidAction = PosAndroidAction.COM_BILLPOCKET_PAYMENTS_START))
        assertEquals("com.billpocket.payments.START", refund.intent.action)
        Coordinator().use { c ->
            assertEquals(Outcome.Accepted, c.send(Event.PosStart("p1", other, nowMs = t0)).outcome)
            val bad = JSONObject(Event.PosStart("p2", sale.copy(identifier = "ord-2"), nowMs = t0).toJson().toString())
            bad.getJSONObject("request").put("android_action", "com.billpocket.START")
            try {
                c.send(bad)
                fail("an unknown action was accepted")
            } catch (e: PayHandoffException) {
                assertEquals(ErrorCode.VALIDATION to "request.android_action", e.code to e.field)
            }
        }
        try {
            Pos.buildUrlJson(sale.toJson().put("android_action", "BILLPOCKET.PAYMENTS.START").toString())
            fail("an action in another case was accepted")
        } catch (e: PayHandoffException) {
            assertEquals(ErrorCode.VALIDATION to "android_action", e.code to e.field)
        }
    }
}
