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

/** A scenario per flow through the typed API, plus the binding's own rules (text, handles, ABI check). */
class ScenarioTest {
    private val t0 = 1796054400000L
    private val nonce = "0123456789abcdef0123456789abcdef"

    @Test
    fun checkoutCardFlow() {
        Coordinator().use { c ->
            val start = c.send(JSONObject().put("type", "checkout.start").put("flow_id", "c1").put("kind", "cards")
                .put("return_url", "fixapp://checkout-callback").put("nonce", nonce).put("now", t0))
            assertEquals(Outcome.Accepted, start.outcome)
            val create = start.transitions.single().effects.first() as Effect.CreateSession
            assertEquals(CheckoutKind.CARDS, create.kind)
            // The backend registers the session with the return URL the core hands out: the nonce rides in it.
            assertTrue(create.returnUrl, create.returnUrl.startsWith("fixapp://checkout-callback") && create.returnUrl.contains(nonce))
            assertTrue(start.persist)

            val session = c.send("""{"type": "checkout.session", "flow_id": "c1", "now": ${t0 + 1000},
                "session": {"kind": "cards", "checkout_url": "https://pay.example.com/c/1"}}""")
            assertEquals(Effect.OpenBrowser("https://pay.example.com/c/1"), session.transitions.single().effects.first())
            c.send("""{"type": "checkout.browser_opened", "flow_id": "c1", "now": ${t0 + 2000}}""")

            // The gateway appends its query to the return URL it was given.
            val genuine = "${create.returnUrl}?status=completed&card_id=card_xyz"
            // Spoofed deep links (another nonce, or none: the registered URL itself) are rejected and change nothing.
            for (spoof in listOf(genuine.replace(nonce, "ffffffffffffffffffffffffffffffff"),
                                 "fixapp://checkout-callback?status=completed&card_id=card_xyz")) {
                val rejected = c.handleUrl(spoof, t0 + 3000).outcome as Outcome.Rejected
                assertEquals("callback_mismatch", rejected.error.code)
                assertEquals("nonce", rejected.error.field)
                assertEquals("in_browser", c.flowStates()["c1"])
            }

            val back = c.handleUrl(genuine, t0 + 4000)
            assertEquals(Outcome.Accepted, back.outcome)
            assertEquals("awaiting_confirmation", back.transitions.single().state)
            assertTrue(back.transitions.single().effects.contains(Effect.CloseBrowser))
            assertTrue(back.transitions.single().effects.contains(Effect.ShowPending))
            assertEquals(Outcome.Duplicate, c.handleUrl(genuine, t0 + 4500).outcome)

            val confirmed = c.send("""{"type": "checkout.confirmation", "flow_id": "c1", "now": ${t0 + 5000},
                "event": {"type": "card.registered", "data": {"card_id": "card_xyz", "brand": "visa", "last_four": "4242", "token": "tok_1"}}}""")
            assertEquals("confirmed", confirmed.transitions.single().state)
            assertEquals("visa", confirmed.transitions.single().details.getJSONObject("confirmation").getJSONObject("data").getString("brand"))
            assertEquals(Outcome.NotOurs, c.handleUrl("otherapp://x?y=1", t0 + 6000).outcome)
        }
    }

    @Test
    fun unverifiedCallbacksAreOnlyClaims() {
        Coordinator("""{"accept_unverified_callbacks": true}""").use { c ->
            c.send("""{"type": "checkout.start", "flow_id": "c1", "kind": "payments", "return_url": "fixapp://cb",
                "nonce": "$nonce", "now": $t0}""")
            // Without the nonce anyone could have sent it: pending, but the browser stays open and the flow waits.
            val claim = c.handleUrl("fixapp://cb?status=completed&payment_id=pay_1", t0 + 1000)
            assertEquals(Outcome.Accepted, claim.outcome)
            assertEquals("awaiting_confirmation", claim.transitions.single().state)
            assertFalse(claim.transitions.single().effects.contains(Effect.CloseBrowser))
            assertFalse(claim.transitions.single().details.getJSONObject("callback").getBoolean("verified"))
            // A flow still waiting is removed only when the app gives it up.
            val kept = c.send("""{"type": "flow.remove", "flow_id": "c1", "now": ${t0 + 2000}}""").outcome as Outcome.Rejected
            assertEquals("invalid_state", kept.error.code)
            assertEquals(Outcome.Accepted, c.send("""{"type": "flow.remove", "flow_id": "c1", "now": ${t0 + 2000}, "give_up": true}""").outcome)
            assertEquals(emptyMap<String, String>(), c.flowStates())
        }
    }

    @Test
    fun posSaleFlow() {
        Coordinator().use { c ->
            val request = PosRequest.sale("tok_1", "ord-1", "100.00", "myapp")
            val start = c.send(JSONObject().put("type", "pos.start").put("flow_id", "p1").put("now", t0).put("request", request.toJson()))
            val open = start.transitions.single().effects.first() as Effect.OpenPosApp
            // The coordinator opens the POS app with the flow's fresh token: the same URL the stateless call builds with it.
            val token = start.transitions.single().details.getString("token")
            val sent = Pos.buildUrl(request, token)
            assertEquals(sent.url, open.url)
            assertEquals("ord-1~$token", sent.identifier)
            assertEquals(Outcome.Accepted, c.send("""{"type": "pos.launched", "flow_id": "p1", "now": ${t0 + 500}}""").outcome)
            // A forged approval naming the app's order (without the token) is refused and changes nothing.
            val forged = c.handleUrl("myapp://result=aprobada&amount=100.00&transactionid=1&identifier=ord-1", t0 + 1000).outcome as Outcome.Rejected
            assertEquals("callback_mismatch", forged.error.code)
            assertEquals("identifier", forged.error.field)
            assertEquals("launched", c.flowStates()["p1"])
            val answer = "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=${sent.identifier}&creditcard=4242&usertoken=tok_1"
            val approved = c.handleUrl(answer, t0 + 60000)
            assertEquals("approved", approved.transitions.single().state)
            assertEquals(Outcome.Duplicate, c.handleUrl(answer, t0 + 61000).outcome)
            assertFalse("snapshots hold no user token", c.snapshot().contains("tok_1"))
            // Refund of that sale, through the same coordinator, answered on Android with result extras.
            val refund = c.send(JSONObject().put("type", "pos.start").put("flow_id", "r1").put("now", t0 + 120000)
                .put("sale_flow_id", "p1").put("token", "0123456789abcdef")
                .put("request", PosRequest.refund("tok_1", "ref-1", "720371", "myapp", "40.00").toJson()))
            assertEquals(Outcome.Accepted, refund.outcome)
            assertEquals(mapOf("p1" to "approved", "r1" to "ready"), c.flowStates())
            val extras = JSONObject().put("result", "aprobada").put("amount", "40.00").put("transactionid", "990001")
                .put("identifier", "ref-1~0123456789abcdef")
            val refunded = c.send(JSONObject().put("type", "pos.result").put("flow_id", "r1").put("now", t0 + 130000).put("extras", extras))
            assertEquals("approved", refunded.transitions.single().state)
            val ledger = JSONObject(c.snapshot()).getJSONArray("ledger")
            val sale = (0 until ledger.length()).map { ledger.getJSONObject(it) }.single { it.getString("operation") == "venta" }
            assertEquals("40.00", sale.getString("refunded"))
            // The ended flows are removed without giving anything up.
            assertEquals(Outcome.Accepted, c.send("""{"type": "flow.remove", "flow_id": "r1", "now": ${t0 + 140000}}""").outcome)
        }
    }

    @Test
    fun statelessCalls() {
        val request = PosRequest("venta", "tok_1", "ord-1", "myapp", amount = "100.00", tip = "15.00", msi = 3)
        val url = Pos.buildUrl(request)
        assertEquals("billpocket://transaction=venta&usertoken=tok_1&identifier=ord-1&amount=100.00&urlScheme=myapp&tip=15.00&msi=3", url.url)
        assertEquals("com.billpocket.payments.START", url.intent.action)
        assertEquals(PosField("userToken", "tok_1"), url.intent.extras[1])
        assertEquals(null, url.token)
        val response = Pos.parseResponse("myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1&msi=3", "myapp", "ord-1")
        assertEquals(PosResponse.Result.APPROVED, response.result)
        assertEquals(3, response.msi)
        // With a fresh token the answer must echo the identifier sent; the app's reference alone is refused.
        val tokened = Pos.buildUrlWithFreshToken(request)
        val token = tokened.token!!
        assertNotEquals(token, Pos.buildUrlWithFreshToken(request).token)
        assertEquals("ord-1~$token", tokened.identifier)
        assertEquals(PosField("identifier", "ord-1~$token"), tokened.intent.extras[2])
        val echoed = Pos.parseResponse("myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~$token", "myapp", "ord-1", token)
        assertEquals("ord-1~$token", echoed.identifier)
        assertEquals("callback_mismatch", expect {
            Pos.parseResponse("myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1", "myapp", "ord-1", token)
        }.code)
        // The same answer as Android result extras: decoded text, never percent-decoded again.
        val extras = linkedMapOf("result" to "aprobada", "amount" to "100.00", "transactionid" to "720371",
            "identifier" to "ord-1~$token", "reference" to "a%26b", "userToken" to "tok_1")
        val result = Pos.parseResult(extras, "ord-1", token)
        assertEquals(PosResponse.Result.APPROVED, result.result)
        assertEquals("a%26b", result.reference)
        assertFalse(result.json.toString().contains("tok_1"))
        val forged = expect { Pos.parseResult(extras + ("identifier" to "ord-1"), "ord-1", token) }
        assertEquals("callback_mismatch" to "identifier", forged.code to forged.field)
        assertEquals("invalid_json" to "amount", expect { Pos.parseResultJson("""{"result": "aprobada", "amount": 100}""", "{}") }.let { it.code to it.field })

        val verdict = Pos.refundCheckJson("""{"sale": {"transactionid": "720371", "amount": "100.00", "approved_at": 1764518400, "bp_version": "4.3.24"}, "amount": "40.00", "now": 1764518430}""")
        assertFalse(verdict.eligible)
        assertEquals("too_soon", verdict.reasons.single().code)
        assertEquals(emptyList<RefundCheck.Reason>(), verdict.warnings)
        val unknownVersion = Pos.refundCheckJson("""{"sale": {"transactionid": "720371", "amount": "100.00", "approved_at": 1764518400}, "now": 1764518530}""")
        assertTrue(unknownVersion.eligible)
        assertEquals("pos_app_version_unknown", unknownVersion.warnings.single().code)

        val built = Checkout.buildRequestJson("""{"kind": "cards", "api_key": "sk_test_1", "return_url": "fixapp://checkout-callback",
            "provider": "dinelco", "customer_id": "cus_1", "target_origin": ["https://fix.example.com"],
            "customer": {"name": "Juan", "lastname": "Pérez", "email": "juan@example.com"}, "nonce": "0123456789abcdef0123"}""")
        assertEquals("https://api.pay.ingalca.com/v1/cards", built.url)
        assertEquals(Header("Authorization", "Bearer sk_test_1"), built.headers[0])
        assertEquals("Pérez", built.body.getJSONObject("customer").getString("lastname"))
        assertEquals(built.returnUrl, built.body.getString("return_url"))
        val callbackUrl = "${built.returnUrl}?status=completed&card_id=card_xyz"
        val callback = Checkout.parseCallback(callbackUrl, CheckoutKind.CARDS, "fixapp://checkout-callback", "0123456789abcdef0123")
        assertEquals(CheckoutCallback.Status.COMPLETED, callback.status)
        assertTrue(callback.verified)
        val required = expect { Checkout.parseCallback(callbackUrl, CheckoutKind.CARDS, "fixapp://checkout-callback") }
        assertEquals("validation" to "nonce", required.code to required.field)
        val claim = Checkout.parseCallback("fixapp://checkout-callback?status=completed&card_id=card_xyz", CheckoutKind.CARDS,
            "fixapp://checkout-callback", acceptUnverified = true)
        assertFalse(claim.verified)
        val session = Checkout.parseSessionJson("""{"kind": "cards", "status": 201, "body": {"data": {"registration": {"checkout_url": "https://checkout.pay.ingalca.com/r/9f8e"}}}}""")
        assertEquals("https://checkout.pay.ingalca.com/r/9f8e", session.checkoutUrl)
        val confirmation = Checkout.parseConfirmationJson("""{"type": "card.registered", "data": {"card_id": "card_xyz", "brand": "visa", "last_four": "4242", "token": "tok_abc"}}""")
        assertEquals("4242", confirmation.lastFour)
    }

    @Test
    fun errorsAreOneExceptionType() {
        val e = expect { Pos.buildUrl(PosRequest.sale("tok_1", "ord-1", "100.001", "myapp")) }
        assertEquals("validation", e.code)
        assertEquals("amount", e.field)
        assertEquals("invalid_json", expect { Pos.buildUrlJson("{\"a\": 1, \"a\": 2}") }.code)
        assertEquals("unsupported_version", expect { Coordinator.restore("""{"version": 99, "config": {}, "flows": [], "ledger": []}""") }.code)
        // Format 1 (before the refund ledger) is not read either.
        assertEquals("unsupported_version", expect { Coordinator.restore("""{"version": 1, "config": {}, "flows": [], "refunded": {}}""") }.code)
        val invalid = expect { Coordinator().use { it.send("""{"type": "tick"}""") } }
        assertEquals("validation", invalid.code)
        assertEquals("now", invalid.field)
    }

    @Test
    fun textCrossesAsUtf8() {
        // Non-BMP text (emoji) survives both ways, byte for byte (JNI's modified UTF-8 would mangle it).
        val reference = "caf\u00e9 \ud83d\udcb3\ud83c\uddf2\ud83c\uddfd"
        val url = Pos.buildUrl(PosRequest("venta", "tok_1", "ord-1", "myapp", amount = "1.00", reference = reference))
        assertEquals(reference, url.fields.first { it.key == "reference" }.value)
        val response = Pos.parseResponse(url.url.replace("billpocket://transaction=venta&usertoken=tok_1", "myapp://result=aprobada"), "myapp")
        assertEquals(reference, response.reference)
        // An unpaired surrogate has no UTF-8 form: the core refuses it as invalid UTF-8, it never becomes '?'.
        assertEquals("malformed_url", expect { Pos.parseResponse("myapp://result=aprobada&reference=\ud83d", "myapp") }.code)
        assertEquals("invalid_json", expect { Pos.buildUrlJson("{\"reference\": \"\ud83d\"}") }.code)
        // U+0000 cannot cross a C string: refused before the call, naming the parameter.
        val nul = expect { Pos.parseResponse("myapp://result=aprobada\u0000&x=1", "myapp") }
        assertEquals("invalid_argument", nul.code)
        assertEquals("url", nul.field)
        // Inside a JSON document it is escaped (\u0000) and reaches the core, which decides: a POS
        // request refuses it (its answer could never be read back).
        val inDocument = expect { Pos.buildUrl(PosRequest.sale("tok_1", "ord\u0000", "1.00", "myapp")) }
        assertEquals("validation", inDocument.code)
        assertEquals("identifier", inDocument.field)
    }

    @Test
    fun handleIsFreedOnce() {
        val c = Coordinator("""{"pos_grace_ms": 5000}""")
        assertTrue(c.snapshot().contains("\"pos_grace_ms\":5000"))
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
        c.send("""{"type": "pos.start", "flow_id": "p1", "now": $t0, "request": {"transaction": "venta",
            "usertoken": "tok_1", "identifier": "ord-1", "amount": "1.00", "urlScheme": "myapp"}}""")
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
