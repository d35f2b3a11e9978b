import PayHandoff
import XCTest

/// Identifiers, nonces, keys and URLs are compared by UTF-8 bytes, not by `String`'s `==`
/// (Unicode canonical equivalence): "café" with a precomposed "é" (U+00E9) and "cafe" + U+0301
/// are different values on the wire, so they are different flows, sales and values here too.
final class ByteEqualityTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00, in ms
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 7)

    // XCTest on Linux keeps every test case instance until the process exits, which
    // LeakSanitizer reports as leaks of whatever they still hold (make sanitizers).
    override func tearDown() {
        coordinator = Coordinator()
        super.tearDown()
    }

    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    func posStart(_ id: String, identifier: String, at time: Int64) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id),
                  "request": ["transaction": "venta", "usertoken": "POS-SECRET", "identifier": .string(identifier),
                              "amount": "100.00", "urlScheme": "myapp"]])
    }

    func testTheTwoSpellingsAreCanonicallyEquivalentButDifferentBytes() {
        XCTAssertEqual(precomposed, decomposed, "String == is canonical equivalence")
        XCTAssertNotEqual(Array(precomposed.utf8), Array(decomposed.utf8))
    }

    func testRawValuesMatchByBytes() {
        for kind in CheckoutKind.allCases { XCTAssertEqual(CheckoutKind(rawValue: kind.rawValue), kind) }
        for state in CheckoutFlow.State.allCases { XCTAssertEqual(CheckoutFlow.State(rawValue: state.rawValue), state) }
        for state in POSFlow.State.allCases { XCTAssertEqual(POSFlow.State(rawValue: state.rawValue), state) }
        for code in PayHandoffError.Code.allCases { XCTAssertEqual(PayHandoffError.Code(rawValue: code.rawValue), code) }
        for reason in RefundEligibility.Reason.allCases { XCTAssertEqual(RefundEligibility.Reason(rawValue: reason.rawValue), reason) }
        for outcome: EventOutcome in [.accepted, .duplicate, .ignored, .rejected, .notOurs] {
            XCTAssertEqual(EventOutcome(rawValue: outcome.rawValue), outcome)
        }
        XCTAssertEqual(POSRequest.Operation(rawValue: "devolucion"), .refund)
        XCTAssertEqual(CheckoutRequest.Integration(rawValue: "browser_tab"), .browserTab)
        for text in ["", "Cards", "cards ", "card", "cardss", "payments\u{0}"] { XCTAssertNil(CheckoutKind(rawValue: text), text) }
        XCTAssertNil(POSFlow.State(rawValue: "launch_failed\u{301}"), "a combining mark makes other bytes")
        XCTAssertNil(POSRequest.Operation(rawValue: "devoluci\u{F3}n"))
    }

    func testFlowIdsAreComparedByBytes() throws {
        XCTAssertEqual(try posStart(precomposed, identifier: "ord-1", at: t0).outcome, .accepted)
        XCTAssertEqual(try posStart(decomposed, identifier: "ord-2", at: t0).outcome, .accepted,
                       "a different id, not a duplicate")
        XCTAssertEqual(coordinator.flows.count, 2)
        XCTAssertEqual(coordinator.flow(id: decomposed).map { Array($0.id.utf8) }, Array(decomposed.utf8))
        let launched = try send(["type": "pos.launched", "now": .integer(t0 + 1), "flow_id": .string(decomposed)])
        XCTAssertEqual(launched.transitions.map { Array($0.flowID.utf8) }, [Array(decomposed.utf8)])
        XCTAssertEqual(coordinator.flow(id: precomposed)?.stateName, "ready")
        XCTAssertEqual(coordinator.flow(id: decomposed)?.stateName, "launched")
        XCTAssertNil(coordinator.flow(id: "cafe"))
    }

    func testAnswersMatchTheIdentifierByBytes() throws {
        let token = "0123456789abcdef0123456789abcdef"
        XCTAssertEqual(try send(["type": "pos.start", "now": .integer(t0), "flow_id": "p1", "token": .string(token),
                                 "request": ["transaction": "venta", "usertoken": "t", "identifier": .string(precomposed),
                                             "amount": "100.00", "urlScheme": "myapp"]]).outcome, .accepted)
        func answer(_ identifier: String) -> CoordinatorAnswer {
            coordinator.handle(url: "myapp://result=aprobada&amount=100.00&transactionid=9001&identifier=" + identifier + "~" + token,
                               now: t0 + 1_000)
        }
        let other = answer("cafe%CC%81")  // the decomposed spelling, percent-encoded
        XCTAssertEqual(other.outcome, .rejected)
        XCTAssertEqual(other.error?.code, .callbackMismatch)
        XCTAssertEqual(coordinator.flow(id: "p1")?.stateName, "ready")
        XCTAssertEqual(answer("caf%C3%A9").outcome, .accepted)
        XCTAssertEqual(coordinator.flow(id: "p1")?.stateName, "approved")
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot), coordinator)
    }

    func testLedgerIsOrderedByBytesAndRoundTrips() throws {
        func entry(_ id: String, _ amount: String, _ refunded: String) -> JSONValue {
            ["transactionid": .string(id), "flow_id": .null, "operation": "venta", "amount": .string(amount),
             "refunded": .string(refunded), "approved_at": .integer(t0), "expires_at": .integer(t0 + 13 * 3_600_000)]
        }
        let restored = try Coordinator(snapshot: [
            "version": 2, "config": [:], "flows": [],
            "ledger": [entry("720372", "10.00", "1.00"), entry("720371", "10.00", "2.50"), entry("72037", "10.00", "3.00")],
        ])
        XCTAssertEqual(restored.ledger.entries.map { $0.transactionId }, ["72037", "720371", "720372"])
        XCTAssertEqual(restored.ledger.entries.map { $0.refunded.decimalString }, ["3.00", "2.50", "1.00"])
        XCTAssertEqual(restored.refundedAmount(transactionId: "720371", now: t0), try Amount(parsing: "2.50"))
        XCTAssertEqual(restored.refundedAmount(transactionId: "720371", now: t0 + 13 * 3_600_000), .zero, "the window closed")
        XCTAssertEqual(restored.refundedAmount(transactionId: "1", now: t0), .zero)
        XCTAssertEqual(try Coordinator(snapshot: restored.snapshot), restored)
        XCTAssertNotEqual(restored, Coordinator())
    }

    func testValuesWithCanonicallyEquivalentStringsAreNotEqual() throws {
        XCTAssertNotEqual(try CheckoutSession(kind: .cards, checkoutURL: "https://pay.example.com/" + precomposed),
                          try CheckoutSession(kind: .cards, checkoutURL: "https://pay.example.com/" + decomposed))
        XCTAssertEqual(try CheckoutSession(kind: .cards, checkoutURL: "https://pay.example.com/" + precomposed),
                       try CheckoutSession(kind: .cards, checkoutURL: "https://pay.example.com/" + precomposed))
        XCTAssertNotEqual(try ReturnURL("fixapp://cb/" + precomposed), try ReturnURL("fixapp://cb/" + decomposed))
        XCTAssertEqual(try ReturnURL("fixapp://cb/" + precomposed), try ReturnURL("fixapp://cb/" + precomposed))
        XCTAssertNotEqual(FlowEffect.reconcile(reason: precomposed), .reconcile(reason: decomposed))
        XCTAssertEqual(FlowEffect.reconcile(reason: precomposed), .reconcile(reason: precomposed))
        XCTAssertNotEqual(PayHandoffError(.validation, field: precomposed, "x"), PayHandoffError(.validation, field: decomposed, "x"))
        XCTAssertNotEqual(RefundEligibility.Sale(transactionId: precomposed, amount: .zero, approvedAt: 0),
                          RefundEligibility.Sale(transactionId: decomposed, amount: .zero, approvedAt: 0))
        XCTAssertNotEqual(try CoordinatorEvent(.url("fixapp://cb/" + precomposed), now: 0),
                          try CoordinatorEvent(.url("fixapp://cb/" + decomposed), now: 0))
        XCTAssertEqual(try CoordinatorEvent(.removeFlow(flowID: precomposed, giveUp: false), now: 0),
                       try CoordinatorEvent(.removeFlow(flowID: precomposed, giveUp: false), now: 0))
        XCTAssertNotEqual(try POSRequest.refund(userToken: "t", identifier: precomposed, urlScheme: "myapp", transactionId: "1"),
                          try POSRequest.refund(userToken: "t", identifier: decomposed, urlScheme: "myapp", transactionId: "1"))

        var a = Coordinator(), b = Coordinator()
        _ = a.send(try CoordinatorEvent(json: ["type": "checkout.start", "now": 0, "flow_id": .string(precomposed),
                                               "kind": "cards", "return_url": "fixapp://cb", "nonce": "0123456789abcdef"]), using: &random)
        _ = b.send(try CoordinatorEvent(json: ["type": "checkout.start", "now": 0, "flow_id": .string(decomposed),
                                               "kind": "cards", "return_url": "fixapp://cb", "nonce": "0123456789abcdef"]), using: &random)
        XCTAssertEqual(a.flows.count, 1)
        XCTAssertNotEqual(a, b)
    }
}
