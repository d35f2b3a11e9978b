import PayHandoff
import XCTest

/// Identifiers, nonces, keys and URLs are compared by UTF-8 bytes, not by `String`'s `==`
/// (Unicode canonical equivalence): "café" with a precomposed "é" (U+00E9) and "cafe" + U+0301
/// are different values on the wire, so they are different values here too.
final class ByteEqualityTests: XCTestCase {
    let precomposed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    var random = SplitMix64(seed: 7)

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
        XCTAssertNotEqual(CoordinatorEvent(.url("fixapp://cb/" + precomposed), now: 0),
                          CoordinatorEvent(.url("fixapp://cb/" + decomposed), now: 0))
        XCTAssertEqual(CoordinatorEvent(.removeFlow(flowID: precomposed), now: 0),
                       CoordinatorEvent(.removeFlow(flowID: precomposed), now: 0))
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
