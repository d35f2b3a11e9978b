package com.payhandoff

import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.fail
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.lang.reflect.InvocationTargetException

/**
 * The typed surface: the vocabularies' shape, one Event / Effect / Outcome subclass per word and
 * back, every event type read by the core, unknown words as typed errors, secrets kept out of
 * toString, and every field of the POS answer document read from the shared vectors.
 */
class TypedApiTest {
    private val t0 = 1796054400000L
    private val token = "9f86d081884c7d659a2feaa0c55ad015"
    private val nonce = "0123456789abcdef0123"

    private val vocabularies: List<Class<out Enum<*>>> = listOf(
        ErrorCode::class.java, EventType::class.java, EventOutcome::class.java, EffectType::class.java,
        CheckoutState::class.java, PosState::class.java, CheckoutKind::class.java, CheckoutStatus::class.java,
        CheckoutIntegration::class.java, ConfirmationType::class.java, PosResult::class.java, AccountType::class.java,
        PosOperation::class.java, RefundReason::class.java, RefundWarning::class.java, FlowType::class.java, PosAndroidAction::class.java)

    private fun wire(constant: Enum<*>): String = constant.javaClass.getMethod("getWire").invoke(constant) as String

    /** `pos.launch_failed`'s constant POS_LAUNCH_FAILED is the class PosLaunchFailed. */
    private fun className(constant: Enum<*>): String =
        constant.name.split('_').joinToString("") { it.substring(0, 1) + it.substring(1).toLowerCase() }

    private fun subclasses(base: Class<*>): Set<String> =
        base.declaredClasses.filter { base.isAssignableFrom(it) && it != base }.map { it.simpleName }.toSet()

    @Test
    fun vocabulariesFollowTheContract() {
        for (vocabulary in vocabularies) {
            val constants = vocabulary.enumConstants.toList()
            assertTrue(vocabulary.simpleName, constants.isNotEmpty())
            val of = vocabulary.getMethod("of", String::class.java)
            for (constant in constants) {
                val word = wire(constant)
                assertEquals("${vocabulary.simpleName}: the constant's name is its word's", word.toUpperCase().replace(Regex("[^A-Z0-9]"), "_"), constant.name)
                assertEquals(constant, of.invoke(null, word))
            }
            assertEquals(vocabulary.simpleName, constants.size, constants.map { wire(it) }.toSet().size)
            assertNull(of.invoke(null, "no such word"))
            // Words are compared exactly, as the core compares bytes.
            assertNull(of.invoke(null, wire(constants[0]).toUpperCase() + " "))
        }
        // Status: 0 and one pinned number per error code of the core (the binding-only codes have none).
        assertEquals(Status.OK, Status.of(0))
        assertNull(Status.of(99))
        val errors = Status.values().filter { it != Status.OK }
        assertEquals((1..errors.size).toList(), errors.map { it.code })
        assertEquals(errors.map { it.name }, ErrorCode.values().map { it.name } - listOf("OUT_OF_MEMORY", "ABI_MISMATCH", "STORAGE_UNAVAILABLE"))
    }

    @Test
    fun oneSubclassPerWordAndBack() {
        assertEquals(EventType.values().map { className(it) }.toSet(), subclasses(Event::class.java))
        assertEquals(EffectType.values().map { className(it) }.toSet(), subclasses(Effect::class.java))
        assertEquals(EventOutcome.values().map { className(it) }.toSet(), subclasses(Outcome::class.java))
        assertEquals(setOf("CheckoutFlowDetails", "PosFlowDetails"), FlowType.values().map { className(it) + "FlowDetails" }.toSet())
    }

    /** One of each event type, each accepted by the core and naming its own type. */
    @Test
    fun everyEventTypeIsReadByTheCore() {
        val sent = LinkedHashSet<EventType>()
        val sale = PosRequest.sale("tok_secret_1", "ord-1", "100.00", "myapp")
        Coordinator().use { c ->
            fun send(event: Event, flowId: String?, state: Enum<*>?): Answer {
                val answer = c.send(event)
                assertEquals("$event", Outcome.Accepted, answer.outcome)
                if (flowId != null) assertEquals("$event", listOf(flowId to state), answer.transitions.map { it.flowId to it.state })
                Typed.check("$event", Typed.answer(answer), answer.json)
                sent.add(event.type)
                return answer
            }
            val card = CheckoutRequest.Cards("sk_test_secret", "dinelco", "cus_1", listOf("https://fix.example.com"), CheckoutRequest.Customer("Juan", "Pérez", "j@example.com"),
                returnUrl = "fixapp://checkout-callback")
            val start = send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Request(card), nonce, t0 + 1800000, t0), "c1", CheckoutState.AWAITING_SESSION)
            assertEquals(t0 + 1800000, (start.transitions[0].details as CheckoutFlowDetails).deadlineMs)
            val returnUrl = (start.transitions[0].effects[0] as Effect.SendRequest).request.body.getString("return_url")
            send(Event.CheckoutSession("c1", CheckoutSessionInput.Gateway(CheckoutKind.CARDS, 201,
                JSONObject("""{"data": {"registration": {"checkout_url": "https://checkout.pay.ingalca.com/r/1"}}}""")), t0 + 1000), "c1", CheckoutState.READY)
            send(Event.CheckoutBrowserOpened("c1", t0 + 2000), "c1", CheckoutState.IN_BROWSER)
            send(Event.CheckoutBrowserDismissed("c1", t0 + 3000), "c1", CheckoutState.RETURNED_WITHOUT_RESULT)
            send(Event.CheckoutBrowserOpened("c1", t0 + 3200), "c1", CheckoutState.IN_BROWSER)
            val unverified = send(Event.CheckoutBrowserResult("c1", BrowserChannel.AUTH_TAB, BrowserResultCode.VERIFICATION_FAILED, nowMs = t0 + 3500),
                "c1", CheckoutState.RETURNED_WITHOUT_RESULT)
            assertTrue(unverified.transitions[0].effects[0] is Effect.Reconcile)
            send(Event.Url("$returnUrl?status=completed&card_id=card_1", t0 + 4000), "c1", CheckoutState.AWAITING_CONFIRMATION)
            send(Event.CheckoutConfirmation("c1", ConfirmationEvent(ConfirmationType.CARD_REGISTERED, JSONObject().put("card_id", "card_1")), t0 + 5000),
                "c1", CheckoutState.CONFIRMED)
            send(Event.CheckoutStart("c2", Event.CheckoutStart.Start.Backend(CheckoutKind.PAYMENTS, "fixapp://pay"), nowMs = t0), "c2", CheckoutState.AWAITING_SESSION)
            val failed = send(Event.CheckoutSessionFailed("c2", "no network", t0 + 1000), "c2", CheckoutState.FAILED)
            assertEquals("no network", (failed.transitions[0].details as CheckoutFlowDetails).failureReason)
            send(Event.CheckoutStart("c3", Event.CheckoutStart.Start.Session(CheckoutKind.PAYMENTS, "fixapp://pay",
                CheckoutSessionInput.Backend(CheckoutKind.PAYMENTS, "https://checkout.pay.ingalca.com/p/3", sessionId = "s3", paymentId = "pay_3")),
                nonce = "ffffffffffffffffffff", nowMs = t0), "c3", CheckoutState.READY)

            send(Event.PosStart("p1", sale, token = token, graceMs = 1000, nowMs = t0), "p1", PosState.READY)
            send(Event.PosLaunched("p1", t0 + 100), "p1", PosState.LAUNCHED)
            send(Event.AppForegrounded(t0 + 10000), null, null)
            send(Event.Tick(t0 + 12000), "p1", PosState.RETURNED_WITHOUT_RESPONSE)
            send(Event.PosResult("p1", mapOf("result" to "aprobada", "amount" to "100.00", "transactionid" to "720371",
                "identifier" to "ord-1~$token"), t0 + 13000), "p1", PosState.APPROVED)
            send(Event.PosStart("r1", PosRequest.refund("tok_secret_1", "ref-1", "720371", "myapp", "10.00"),
                refundOf = Event.PosStart.RefundOf.SaleFlow("p1"), nowMs = t0 + 120000), "r1", PosState.READY)
            send(Event.PosLaunchFailed("r1", nowMs = t0 + 121000), "r1", PosState.LAUNCH_FAILED)
            // A sale known from elsewhere (approved an hour earlier, in epoch seconds).
            send(Event.PosStart("r2", PosRequest.refund("tok_secret_1", "ref-2", "555", "myapp"),
                refundOf = Event.PosStart.RefundOf.Sale(PosSale("555", Amount.ofMinorUnits(5000), t0 / 1000 - 3600, "4.3.24")), nowMs = t0 + 122000),
                "r2", PosState.READY)
            send(Event.FlowRemove("c2", nowMs = t0 + 130000), null, null)
            send(Event.FlowRemove("r1", giveUp = true, nowMs = t0 + 131000), null, null)
            val ledger = c.snapshotDocument().ledger.sales.associateBy { it.transactionId }
            assertEquals(1000L, ledger.getValue("720371").refundedMinor)      // a given-up refund counts as refunded
            assertEquals(10000L, ledger.getValue("720371").amountMinor)
            assertEquals(5000L, ledger.getValue("555").amountMinor)             // a sale known from its document
        }
        assertEquals(EventType.values().toSet(), sent)
    }

    /**
     * Auth Tab's result codes, pinned: androidx/androidx
     * browser/browser/src/main/java/androidx/browser/auth/AuthTabIntent.java at commit
     * 15507cedb72c10372353c6d435fec78300de21f2 (the API of androidx.browser 1.9.0+; its `ResultCode`
     * @IntDef: RESULT_OK = Activity.RESULT_OK = -1, RESULT_CANCELED = Activity.RESULT_CANCELED = 0,
     * RESULT_VERIFICATION_FAILED = 2, RESULT_VERIFICATION_TIMED_OUT = 3, RESULT_UNKNOWN_CODE = -2;
     * `AuthenticateUserResultContract.parseResult` turns any other code into RESULT_UNKNOWN_CODE and
     * gives a URI with RESULT_OK only). The binding has no androidx dependency, so the values are its own.
     */
    @Test
    fun authTabResultCodesMapToTheEvent() {
        val c = Event.CheckoutBrowserResult
        assertEquals(listOf(-1, 0, 2, 3, -2), listOf(c.AUTH_TAB_RESULT_OK, c.AUTH_TAB_RESULT_CANCELED, c.AUTH_TAB_RESULT_VERIFICATION_FAILED,
            c.AUTH_TAB_RESULT_VERIFICATION_TIMED_OUT, c.AUTH_TAB_RESULT_UNKNOWN_CODE))
        val url = "fixapp://checkout-callback/ph_$nonce?status=completed&card_id=card_1"
        val cases = listOf(
            Triple(-1, url, BrowserResultCode.OK), Triple(-1, null, BrowserResultCode.UNKNOWN), Triple(0, null, BrowserResultCode.CANCELED),
            Triple(2, null, BrowserResultCode.VERIFICATION_FAILED), Triple(3, null, BrowserResultCode.VERIFICATION_TIMED_OUT),
            Triple(-2, null, BrowserResultCode.UNKNOWN), Triple(42, null, BrowserResultCode.UNKNOWN))
        for ((resultCode, uri, expected) in cases) {
            val event = Event.CheckoutBrowserResult.fromAuthTab("c1", resultCode, uri, t0)
            assertEquals("$resultCode", expected, event.code)
            assertEquals(BrowserChannel.AUTH_TAB, event.channel)
            assertEquals(if (expected == BrowserResultCode.OK) uri else null, event.url)
            assertFalse("$event", "$event".contains(nonce))
        }
    }

    /** Constructs a result class from a document, as the binding does (its constructors are internal). */
    private fun <T> read(type: Class<T>, document: JSONObject): T = try {
        type.getDeclaredConstructor(JSONObject::class.java).also { it.isAccessible = true }.newInstance(document)
    } catch (e: InvocationTargetException) {
        throw e.targetException
    }

    private fun unknownWord(field: String, body: () -> Any) {
        try {
            body()
        } catch (e: PayHandoffException) {
            assertEquals(ErrorCode.ABI_MISMATCH to field, e.code to e.field)
            assertTrue(e.message!!, e.message!!.contains("same PayHandoff release"))
            return
        }
        throw AssertionError("an unknown word was accepted")
    }

    @Test
    fun unknownWordsAreTypedErrors() {
        val answer = Coordinator().use { c ->
            c.send(Event.PosStart("p1", PosRequest.sale("tok_1", "ord-1", "1.00", "myapp"), token = token, nowMs = t0))
            c.send(Event.PosResult("p1", mapOf("result" to "aprobada", "amount" to "1.00", "identifier" to "ord-1~$token", "accountType" to "credit"), t0 + 1000))
        }.json
        Typed.check("the answer read again", Typed.answer(read(Answer::class.java, answer)), answer)
        fun mutated(change: (JSONObject) -> Unit): JSONObject = JSONObject(answer.toString()).also(change)
        fun transition(o: JSONObject) = o.getJSONArray("transitions").getJSONObject(0)
        unknownWord("outcome") { read(Answer::class.java, mutated { it.put("outcome", "maybe") }) }
        unknownWord("type") { read(Answer::class.java, mutated { transition(it).getJSONArray("effects").put(JSONObject().put("type", "teleport")) }) }
        unknownWord("flow") { read(Answer::class.java, mutated { transition(it).put("flow", "subscription") }) }
        unknownWord("state") { read(Answer::class.java, mutated { transition(it).put("state", "refunded") }) }
        unknownWord("type") { read(Answer::class.java, mutated { transition(it).getJSONObject("details").put("type", "subscription") }) }
        unknownWord("result") { read(Answer::class.java, mutated { transition(it).getJSONObject("details").getJSONObject("response").put("result", "refunded") }) }
        val response = transition(answer).getJSONObject("details").getJSONObject("response")
        assertEquals(AccountType.CREDIT, read(PosResponse::class.java, response).accountType)
        unknownWord("accountType") { read(PosResponse::class.java, JSONObject(response.toString()).put("accountType", "prepaid")) }
        unknownWord("status") { read(CheckoutCallback::class.java, JSONObject("""{"version": 1, "kind": "cards", "status": "pending", "verified": true}""")) }
        unknownWord("kind") { read(CheckoutSession::class.java, JSONObject("""{"version": 1, "kind": "loans", "checkout_url": "https://x"}""")) }
        unknownWord("type") { read(CheckoutConfirmation::class.java, JSONObject("""{"version": 1, "type": "card.deleted", "timestamps": {}}""")) }
        unknownWord("code") {
            read(RefundCheck::class.java, JSONObject("""{"version": 1, "eligible": false, "refund_amount": "1.00", "eligible_from": 1,
                "eligible_from_local": "", "deadline": 2, "deadline_local": "", "reasons": [{"code": "moon_phase", "message": ""}], "warnings": []}"""))
        }
        // A rejection with an error code this binding does not know still arrives, typed.
        val rejected = read(Answer::class.java, mutated {
            it.put("outcome", "rejected").put("error", JSONObject().put("code", "brand_new").put("field", "x").put("message", "why"))
        }).outcome as Outcome.Rejected
        assertEquals(ErrorCode.ABI_MISMATCH to "x", rejected.error.code to rejected.error.field)
        assertTrue(rejected.error.reason, rejected.error.reason.contains("'brand_new'") && rejected.error.reason.endsWith("why"))
    }

    @Test
    fun browserReturnUrlIsNonNullForTheBrowserTab() {
        // Issue 36: the README's `built.browserReturnUrl.substringBefore(…)` compiles; an iframe request has none.
        val card = CheckoutRequest.Cards("sk_test_1", "dinelco", "cus_1", listOf("https://fix.example.com"),
            CheckoutRequest.Customer("Juan", "Pérez", "j@example.com"), "fixapp://checkout-callback")
        val built = Checkout.buildRequest(card, nonce)
        assertEquals(built.returnUrl, built.browserReturnUrl)
        assertEquals("fixapp://checkout-callback", built.browserReturnUrl.substringBefore("/ph_"))
        val iframe = Checkout.buildRequest(CheckoutRequest.Cards("sk_test_1", "dinelco", "cus_1", listOf("https://fix.example.com"),
            CheckoutRequest.Customer("Juan", "Pérez", "j@example.com"), integration = CheckoutIntegration.IFRAME))
        assertEquals(null, iframe.returnUrl)
        try {
            iframe.browserReturnUrl
            fail("an iframe request has no return URL")
        } catch (e: IllegalStateException) {
        }
    }

    @Test
    fun secretsAreNotInToString() {
        val secrets = listOf("sk_test_SECRET", "tok_SECRET", nonce, token, "1123456789abcdef0123")
        val request = PosRequest.sale("tok_SECRET", "ord-1", "1.00", "myapp")
        val card = CheckoutRequest.Cards("sk_test_SECRET", "dinelco", "cus_1", listOf("https://fix.example.com"), CheckoutRequest.Customer("Juan", "Pérez", "j@example.com"), "fixapp://cb")
        val built = Checkout.buildRequest(card, nonce)
        val posUrl = Pos.buildUrl(request, token)
        val (answer, backend) = Coordinator().use { c ->
            c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Request(CheckoutRequest.Payments("sk_test_SECRET", "fixapp://cb")), nonce, nowMs = t0)) to
                c.send(Event.CheckoutStart("c2", Event.CheckoutStart.Start.Backend(CheckoutKind.CARDS, "fixapp://cb2"), "1123456789abcdef0123", nowMs = t0))
        }
        val createSession = backend.transitions[0].effects[0] as Effect.CreateSession
        assertTrue("the effect holds the nonce", createSession.returnUrl.contains("1123456789abcdef0123"))
        val shown = listOf<Any>(
            request, card, CheckoutRequest.Payments("sk_test_SECRET"), built, built.request, built.request.headers, posUrl, posUrl.intent,
            Event.PosStart("p1", request, token = token, nowMs = t0),
            Event.PosStart("p1", request, Event.PosStart.RefundOf.SaleFlow("p0"), nowMs = t0),
            Event.CheckoutStart("c1", Event.CheckoutStart.Start.Request(card), nonce, nowMs = t0),
            Event.CheckoutStart("c1", Event.CheckoutStart.Start.Backend(CheckoutKind.CARDS, "fixapp://cb"), nonce, nowMs = t0),
            Event.Url("myapp://result=aprobada&identifier=ord-1~$token&usertoken=tok_SECRET", t0),
            Event.PosResult("p1", mapOf("identifier" to "ord-1~$token", "userToken" to "tok_SECRET"), t0),
            Effect.OpenPosApp(posUrl.url), answer, answer.transitions[0], answer.transitions[0].effects, answer.transitions[0].details,
            createSession, backend)
        for (value in shown) {
            val text = value.toString()
            for (secret in secrets) assertFalse("${value.javaClass.simpleName}.toString() shows '$secret': $text", text.contains(secret))
        }
        // What toString shows instead is still useful.
        assertTrue(Event.PosStart("p1", request, nowMs = t0).toString().contains("\"flow_id\":\"p1\""))
        assertTrue(Event.PosLaunchFailed("p1", "not installed", t0).toString().contains("pos.launch_failed"))
    }

    /** The core's POS answer table (POSResponse.fields): the JSON name of each of its keys. */
    private fun coreAnswerMembers(): List<String> {
        val source = File(TestJson.vectorsDir, "../../Sources/PayHandoff/POS/Billpocket/POSResponse.swift").readText()
        return Regex("""Field\(key: "[^"]+", json: "([^"]+)"""").findAll(source).map { it.groupValues[1] }.toList()
    }

    @Test
    fun everyPosAnswerFieldIsReadFromTheVectors() {
        val table = coreAnswerMembers()
        assertTrue("the core's answer table was not found", table.contains("identifier") && table.contains("result"))
        val seen = HashSet<String>()
        var answers = 0
        for (file in listOf("pos/parse_response.json", "pos/parse_result.json", "hostile/pos_parse_response.json", "hostile/pos_parse_result.json")) {
            val document = JSONObject(File(TestJson.vectorsDir, file).readText(Charsets.UTF_8))
            val vectors = document.getJSONArray("vectors")
            for (i in 0 until vectors.length()) {
                val vector = vectors.getJSONObject(i)
                val ok = vector.getJSONObject("expect").optJSONObject("ok") ?: continue
                val input = vector.getJSONObject("input")
                val response = if (document.getString("suite") == "pos.parse_response") {
                    Pos.parseResponseJson(input.getString("url"), TestJson.text(input.opt("options")))
                } else {
                    Pos.parseResultJson(TestJson.text(input.opt("extras")), TestJson.text(input.opt("options")))
                }
                val rebuilt = Typed.posResponse(response)
                Typed.check(vector.getString("id"), rebuilt, ok)
                seen.addAll(rebuilt.keys().asSequence().toList())
                answers++
            }
        }
        assertTrue(answers > 20)
        // Each of the core's answer members was read, typed, from at least one vector's answer
        // (result_word: an unrecognized result's word, issue 30).
        assertEquals(emptyList<String>(), table - seen)
        assertEquals(setOf("version", "extra", "result_word"), seen - table)
    }
}
