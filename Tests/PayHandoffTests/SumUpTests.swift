import PayHandoff
import XCTest

/// SumUp through its URL scheme (sumup/sumup-ios-url-scheme, sumup/sumup-android-url-scheme
/// READMEs): the documented sale round trip and the guarantees every terminal app keeps.
final class SumUpTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000
    let token = "fedcba9876543210fedcba9876543210"
    let affiliateKey = "sup_afk_SECRETKEY42"
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 11)

    var request: JSONValue {
        ["pos_app": "sumup", "affiliate_key": .string(affiliateKey), "app_id": "com.example.shop", "identifier": "ord-1",
         "amount": "100.00", "currency": "EUR", "callback_url": "myapp://sumup-result", "title": "Coffee",
         "receipt_phone": "+4915112345678"]
    }

    @discardableResult
    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    @discardableResult
    func start(_ id: String = "s1", token: String? = nil) throws -> CoordinatorAnswer {
        var event: JSONValue = ["type": "pos.start", "now": .integer(t0), "flow_id": .string(id), "request": request]
        if let token, case .object(var object) = event {
            object["token"] = .string(token)
            event = .object(object)
        }
        return try send(event)
    }

    func answer(_ query: String) -> String { "myapp://sumup-result?" + query }

    func state(_ id: String = "s1") -> String? { coordinator.flow(id: id)?.stateName }

    func testBuildWritesTheiOSURLAndTheAndroidIntent() throws {
        let built = try POSRequest.buildResultJSON(json: {
            guard case .object(var object) = request else { return request }
            object["token"] = .string(token)
            return .object(object)
        }(), using: &random)
        XCTAssertEqual(built.value(at: "pos_app"), "sumup")
        XCTAssertNil(built.value(at: "fields"), "only Billpocket's answer lists fields")
        let sent = "ord-1~" + token
        XCTAssertEqual(try built.string(at: "url"),
                       "sumupmerchant://pay/1.0?amount=100.00&currency=EUR&affiliate-key=sup_afk_SECRETKEY42&foreign-tx-id=" + sent
                       + "&callbacksuccess=myapp%3A%2F%2Fsumup-result&callbackfail=myapp%3A%2F%2Fsumup-result&title=Coffee&receipt-mobilephone=%2B4915112345678")
        XCTAssertEqual(try built.string(at: "intent.action"), "android.intent.action.VIEW")
        XCTAssertNil(built.value(at: "intent.package"), "SumUp is started by its scheme, no package")
        XCTAssertEqual(try built.string(at: "intent.data"),
                       "sumupmerchant://pay/1.0?total=100.00&currency=EUR&affiliate-key=sup_afk_SECRETKEY42&app-id=com.example.shop&foreign-tx-id=" + sent
                       + "&callback=myapp%3A%2F%2Fsumup-result&title=Coffee&receipt-mobilephone=%2B4915112345678")
        XCTAssertEqual(built.value(at: "intent.extras"), .array([]))
        XCTAssertEqual(try built.string(at: "identifier"), sent)
    }

    func testRequestRules() throws {
        func error(_ change: (inout JSONObject) -> Void) -> PayHandoffError? {
            guard case .object(var object) = request else { return nil }
            change(&object)
            do { _ = try POSRequest(json: .object(object)); return nil } catch { return error }
        }
        XCTAssertNil(error { _ in })
        XCTAssertEqual(error { $0["currency"] = "JPY" }?.field, "currency", "zero-decimal currencies are refused, never scaled")
        XCTAssertEqual(error { $0["currency"] = "eur" }?.field, "currency")
        XCTAssertEqual(error { $0["currency"] = nil }?.field, "currency")
        XCTAssertEqual(error { $0["identifier"] = "ord 1" }?.field, "identifier", "foreign-tx-id is printable ASCII without spaces")
        XCTAssertEqual(error { $0["identifier"] = .string(String(repeating: "x", count: 129)) }?.field, "identifier")
        XCTAssertEqual(error { $0["transaction"] = "devolucion" }?.field, "transaction", "only Billpocket refunds app-to-app")
        XCTAssertEqual(error { $0["usertoken"] = "x" }?.field, "usertoken", "Billpocket's fields are unknown keys here")
        XCTAssertEqual(error { $0["amount"] = "0.00" }?.field, "amount")
        XCTAssertEqual(error { $0["callback_url"] = "not a url" }?.field, "callback_url")
        // With the token, the whole foreign-tx-id must fit 128 bytes.
        let long = String(repeating: "x", count: 128 - token.count)
        XCTAssertEqual((try? start("s-long"))?.outcome, .accepted)
        guard case .object(var object) = request else { return }
        object["identifier"] = .string(long)
        XCTAssertThrowsError(try CoordinatorEvent(json: ["type": "pos.start", "now": .integer(t0), "flow_id": "s2",
                                                         "request": .object(object), "token": .string(token)])) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "request.identifier", "the event itself is refused, as Billpocket's 256")
        }
    }

    func testDocumentedSaleRoundTripApprovesOnceAndBooksNothing() throws {
        let started = try start(token: token)
        XCTAssertEqual(started.outcome, .accepted)
        let effect = try XCTUnwrap(started.transitions.first?.effects.first).json
        XCTAssertEqual(effect.value(at: "type"), "open_pos_app")
        XCTAssertEqual(effect.value(at: "pos_app"), "sumup")
        XCTAssertTrue(try effect.string(at: "url").hasPrefix("sumupmerchant://pay/1.0?amount=100.00&currency=EUR"))
        XCTAssertEqual(details(started)?.value(at: "pos_app"), "sumup")
        try send(["type": "pos.launched", "now": .integer(t0 + 1_000), "flow_id": "s1"])
        let url = answer("smp-status=success&smp-tx-code=TEENSY42&smp-receipt-sent=false&foreign-tx-id=ord-1~" + token)
        let approved = coordinator.handle(url: url, now: t0 + 60_000)
        XCTAssertEqual(approved.outcome, .accepted, approved.error?.message ?? "")
        XCTAssertEqual(state(), "approved")
        let response = try XCTUnwrap(details(approved)?.value(at: "response"))
        XCTAssertEqual(response.value(at: "pos_app"), "sumup")
        XCTAssertEqual(response.value(at: "result"), "approved")
        XCTAssertEqual(response.value(at: "transactionid"), "TEENSY42")
        XCTAssertEqual(response.value(at: "identifier"), "ord-1", "details show the app's identifier, not the token")
        XCTAssertEqual(coordinator.handle(url: url, now: t0 + 61_000).outcome, .duplicate, "a replay is a duplicate")
        XCTAssertEqual(coordinator.handle(url: url + "&affiliate-key=" + affiliateKey, now: t0 + 61_500).outcome, .duplicate,
                       "an echoed affiliate key is dropped: the same answer again")
        XCTAssertFalse("\(coordinator.snapshot)".contains("SECRETKEY42"))
        let echoed = try POSResponse.parse(url + "&affiliate-key=" + affiliateKey,
                                           options: ["pos_app": "sumup", "callback_url": "myapp://sumup-result"])
        XCTAssertFalse("\(echoed.json)".contains("SECRETKEY42"), "an echoed affiliate key is dropped, never kept")
        XCTAssertEqual(coordinator.ledger.entries.count, 0, "only Billpocket approvals are booked")
        let refund = coordinator.send(try CoordinatorEvent(json: [
            "type": "pos.start", "now": .integer(t0 + 120_000), "flow_id": "r1", "sale_flow_id": "s1",
            "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": "ref-1", "urlScheme": "myapp", "transactionId": "TEENSY42"]]),
            using: &random)
        XCTAssertEqual(refund.error?.code, .notEligible)
        XCTAssertTrue(refund.error?.message.contains("sumup_server_refund") == true)
    }

    func testForgedAnswerWithoutTheTokenChangesNothing() throws {
        try start(token: token)
        let before = coordinator
        for forged in [answer("smp-status=success&smp-tx-code=T1&foreign-tx-id=ord-1"),
                       answer("smp-status=success&smp-tx-code=T1&foreign-tx-id=ord-1~0123456789abcdef0123456789abcdef"),
                       answer("smp-status=success&smp-tx-code=T1")] {
            let refused = coordinator.handle(url: forged, now: t0 + 5_000)
            XCTAssertNotEqual(refused.outcome, .accepted, forged)
            XCTAssertEqual(coordinator, before, forged)
        }
        XCTAssertEqual(coordinator.handle(url: answer("smp-status=success&smp-tx-code=T1&foreign-tx-id=ord-1"), now: t0).error?.code,
                       .callbackMismatch)
    }

    func testOutcomesByTheREADMEsWords() throws {
        let cases: [(String, String)] = [
            ("smp-status=failed&smp-failure-cause=transaction-failed&smp-tx-code=T2", "declined"),
            ("smp-status=failed&smp-failure-cause=invalid-token", "error"),
            ("smp-status=invalidstate", "error"),
            ("smp-status=failed", "unrecognized_result"),
            ("smp-status=failed&smp-failure-cause=something-new", "unrecognized_result"),
            ("smp-status=success", "unrecognized_result"),  // success without a transaction code: reconcile
            ("smp-status=SUCCESS&smp-tx-code=T3", "unrecognized_result"),
            ("smp-status=approved&smp-tx-code=T3", "unrecognized_result"),
        ]
        for (index, (query, expected)) in cases.enumerated() {
            let id = "s\(index)"
            let token = String(format: "%032x", index + 1)
            try start(id, token: token)
            let answer = coordinator.handle(url: answer(query + "&foreign-tx-id=ord-1~" + token), now: t0 + 10_000)
            XCTAssertEqual(answer.outcome, .accepted, query)
            XCTAssertEqual(state(id), expected, query)
            if expected == "unrecognized_result" {
                XCTAssertTrue(answer.transitions.flatMap(\.effects).contains { if case .reconcile = $0 { return true } else { return false } })
            }
        }
    }

    func testProcessDeathInTheMiddleRestores() throws {
        try start(token: token)
        try send(["type": "pos.launched", "now": .integer(t0 + 1_000), "flow_id": "s1"])
        let text = "\(coordinator.snapshot)"
        XCTAssertFalse(text.contains("SECRETKEY42"), "the affiliate key is never in a snapshot")
        XCTAssertEqual(coordinator.flowDocument("s1")?.value(at: "pos_app"), "sumup")
        var restored = try Coordinator(snapshot: coordinator.snapshot)
        XCTAssertEqual(restored, coordinator)
        let url = answer("smp-status=success&smp-tx-code=TX9&foreign-tx-id=ord-1~" + token)
        XCTAssertEqual(restored.handle(url: url, now: t0 + 30_000).outcome, .accepted)
        XCTAssertEqual(restored.flow(id: "s1")?.stateName, "approved")
        let again = try Coordinator(snapshot: restored.snapshot)
        XCTAssertEqual(again, restored, "an answered SumUp flow reads back")
        var replay = again
        XCTAssertEqual(replay.handle(url: url, now: t0 + 31_000).outcome, .duplicate)
    }

    func testTheAffiliateKeyIsNeverPrinted() throws {
        let built = try POSRequest(json: request)
        XCTAssertFalse(built.description.contains("SECRETKEY42"))
        var dumped = ""
        dump(built, to: &dumped)
        XCTAssertFalse(dumped.contains("SECRETKEY42"))
        let started = try start(token: token)
        XCTAssertFalse("\(started.transitions[0].effects[0])".contains("SECRETKEY42"))
        XCTAssertFalse("\(String(describing: details(started)))".contains("SECRETKEY42"), "details never hold it")
        guard case .object(var object) = request else { return }
        object["currency"] = "XXXX"
        do { _ = try POSRequest(json: .object(object)); XCTFail() } catch {
            XCTAssertFalse("\(error)".contains("SECRETKEY42"))
        }
        var dumpedFlow = ""
        dump(coordinator, to: &dumpedFlow)
        XCTAssertFalse(dumpedFlow.contains("SECRETKEY42"))
    }

    func testBillpocketAndSumUpShareAScheme() throws {
        let other = "0a0b0c0d0e0f10111213141516171819"
        try start(token: token)
        try send(["type": "pos.start", "now": .integer(t0), "flow_id": "b1", "token": .string(other),
                  "request": ["transaction": "venta", "usertoken": "tok", "identifier": "ord-2", "amount": "5.00", "urlScheme": "myapp"]])
        let billpocket = coordinator.handle(url: "myapp://result=aprobada&amount=5.00&transactionid=BP1&identifier=ord-2~" + other, now: t0 + 1_000)
        XCTAssertEqual(billpocket.outcome, .accepted, billpocket.error?.message ?? "")
        XCTAssertEqual(state("b1"), "approved")
        XCTAssertEqual(coordinator.ledger.entries.count, 1, "Billpocket's approval is booked")
        XCTAssertEqual(state(), "ready", "the SumUp hand-off did not move")
        let forged = coordinator.handle(url: answer("smp-status=success&smp-tx-code=T&foreign-tx-id=ord-1~" + other), now: t0 + 2_000)
        XCTAssertEqual(forged.error?.code, .callbackMismatch, "SumUp's reader names the mismatch, not Billpocket's missing identifier")
        let sumUp = coordinator.handle(url: answer("smp-status=success&smp-tx-code=T&foreign-tx-id=ord-1~" + token), now: t0 + 3_000)
        XCTAssertEqual(sumUp.outcome, .accepted)
        XCTAssertEqual(state(), "approved")
        XCTAssertEqual(coordinator.ledger.entries.count, 1, "SumUp's approval is not booked")
    }

    func testTypedRequestIsTheJSONOneAndStartsAFlow() throws {
        let typed = try POSRequest.sumUp(affiliateKey: affiliateKey, appID: "com.example.shop", identifier: "ord-1",
                                         amount: try Amount(parsing: "100.00"), currency: "EUR", callbackURL: "myapp://sumup-result",
                                         title: "Coffee", receiptPhone: "+4915112345678")
        XCTAssertEqual(typed, try POSRequest(json: request))
        XCTAssertEqual(typed.posApp, .sumup)
        XCTAssertThrowsError(try POSRequest.sumUp(affiliateKey: "k", appID: "com.example.app", identifier: "o", amount: try Amount(parsing: "1.00"),
                                                  currency: "JPY", callbackURL: "myapp://x")) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "currency")
        }
        let answer = coordinator.send(try CoordinatorEvent(.posStart(flowID: "t1", request: typed, refundOf: nil, graceMilliseconds: nil,
                                                                     token: token), now: t0), using: &random)
        XCTAssertEqual(answer.outcome, .accepted)
        XCTAssertEqual(coordinator.flowDocument("t1")?.value(at: "pos_app"), "sumup")
    }

    func testEachStartIsAFreshForeignTransactionID() throws {
        let first = try start("s1")
        try send(["type": "flow.remove", "now": .integer(t0 + 1), "flow_id": "s1", "give_up": true])
        let second = try start("s2")
        let a = try first.transitions[0].effects[0].json.string(at: "url")
        let b = try second.transitions[0].effects[0].json.string(at: "url")
        XCTAssertNotEqual(a, b, "a retry never reuses a foreign-tx-id (sumup-android-url-scheme #2)")
    }
}

/// The details of an answer's first transition.
func details(_ answer: CoordinatorAnswer) -> JSONValue? {
    guard case .array(let transitions)? = answer.json.value(at: "transitions"), let first = transitions.first else { return nil }
    return first.value(at: "details")
}

extension Coordinator {
    /// The snapshot's document of flow `id`.
    func flowDocument(_ id: String) -> JSONValue? {
        guard case .array(let flows)? = snapshot.value(at: "flows") else { return nil }
        return flows.first { $0.value(at: "id") == .string(id) }
    }
}
