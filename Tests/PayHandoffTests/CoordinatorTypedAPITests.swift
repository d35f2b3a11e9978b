import PayHandoff
import XCTest

/// The coordinator through its typed Swift API — what an iOS app written in Swift uses, no
/// JSON in sight (docs/coordinator.md's Swift example is this test).
final class CoordinatorTypedAPITests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 99)

    override func tearDown() {
        coordinator = Coordinator()
        super.tearDown()
    }

    func send(_ kind: CoordinatorEvent.Kind, at time: Int64) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(kind, now: time), using: &random)
    }

    func testAPOSSaleAndItsRefundThroughTypedEvents() throws {
        let sale = try POSRequest.sale(userToken: "bp-secret", identifier: "order-42", amount: try Amount(parsing: "100.00"),
                                       urlScheme: "myapp", tip: try Amount(parsing: "15.00"))
        let started = try send(.posStart(flowID: "sale-42", request: sale, refundOf: nil, graceMilliseconds: nil, token: nil), at: t0)
        guard case .openPOSApp(let url)? = started.transitions.first?.effects.first,
              case .pos(let flow)? = coordinator.flow(id: "sale-42") else { return XCTFail("no POS flow started") }
        XCTAssertTrue(url.contains("identifier=order-42~" + flow.token), url)
        XCTAssertEqual(flow.token.utf8.count, 32, "a fresh 128-bit token from the injected generator")

        _ = try send(.posLaunched(flowID: "sale-42"), at: t0 + 500)
        let answer = coordinator.handle(url: "myapp://result=aprobada&amount=100.00&tip=15.00&transactionid=720371"
                                        + "&identifier=order-42~" + flow.token + "&bp_version=4.3.24", now: t0 + 30_000)
        XCTAssertEqual(answer.outcome, .accepted)
        XCTAssertEqual(coordinator.flow(id: "sale-42")?.stateName, "approved")
        XCTAssertEqual(coordinator.ledger.entry("720371", at: t0 + 30_000)?.amount, try Amount(parsing: "100.00"))

        let refund = try POSRequest.refund(userToken: "bp-secret", identifier: "refund-42", urlScheme: "myapp", transactionId: "720371")
        let refundStart = try send(.posStart(flowID: "refund-42", request: refund, refundOf: .saleFlow(id: "sale-42"),
                                             graceMilliseconds: nil, token: nil), at: t0 + 90_000)
        XCTAssertEqual(refundStart.outcome, .accepted)
        guard case .pos(let refundFlow)? = coordinator.flow(id: "refund-42") else { return XCTFail("no refund flow") }
        XCTAssertEqual(refundFlow.amount, try Amount(parsing: "100.00"), "no amount given: everything left is asked for")
        _ = coordinator.handle(url: "myapp://result=aprobada&amount=100.00&transactionid=880001&identifier=refund-42~" + refundFlow.token,
                               now: t0 + 120_000)
        XCTAssertEqual(coordinator.refundedAmount(transactionId: "720371", now: t0 + 120_000), try Amount(parsing: "100.00"))
    }

    func testACheckoutThroughTypedEvents() throws {
        let request = try CheckoutRequest.cardRegistration(
            apiKey: "sk_test_x", returnURL: "fixapp://checkout-callback", provider: "dinelco", customerID: "cus_1",
            targetOrigins: ["https://fix.example.com"],
            customer: .init(name: "Juan", lastname: "Pérez", email: "juan@example.com", phone: nil))
        let started = try send(.checkoutStart(flowID: "card-1", start: .request(request, nonce: nil), deadline: nil), at: t0)
        guard case .sendRequest(let http)? = started.transitions.first?.effects.first,
              case .checkout(let flow)? = coordinator.flow(id: "card-1"), let nonce = flow.nonce else { return XCTFail("no checkout") }
        XCTAssertEqual(http.body.value(at: "return_url"), .string("fixapp://checkout-callback/ph_" + nonce))
        let session = try CheckoutSession.parse(kind: .cards, status: 201,
                                                body: ["data": ["registration": ["checkout_url": "https://pay.example.com/r/1"]]])
        _ = try send(.checkoutSession(flowID: "card-1", session: session), at: t0 + 1_000)
        _ = try send(.browserOpened(flowID: "card-1"), at: t0 + 2_000)
        let callback = coordinator.handle(url: flow.returnURL.adding(nonce: nonce) + "?status=completed&card_id=card_9", now: t0 + 60_000)
        XCTAssertEqual(callback.outcome, .accepted)
        let confirmation = try CheckoutConfirmation(json: ["type": "card.registered", "data": ["card_id": "card_9", "brand": "visa"]])
        _ = try send(.confirmation(flowID: "card-1", confirmation: confirmation), at: t0 + 61_000)
        XCTAssertEqual(coordinator.flow(id: "card-1")?.stateName, "confirmed")
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot), coordinator)
    }

    func testTheTypedDoorChecksWhatTheJSONDoorChecks() {
        func field(_ make: () throws -> Any) -> String? {
            do { _ = try make(); return nil } catch { return (error as? PayHandoffError)?.field ?? "?" }
        }
        XCTAssertEqual(field { try CoordinatorEvent(.posLaunched(flowID: ""), now: self.t0) }, "flow_id")
        XCTAssertEqual(field { try CoordinatorEvent(.posLaunched(flowID: "a b"), now: self.t0) }, "flow_id")
        XCTAssertEqual(field { try CoordinatorEvent(.tick, now: -1) }, "now")
        XCTAssertEqual(field { try Coordinator.Configuration(posGraceMilliseconds: -1) }, "pos_grace_ms")
        XCTAssertEqual(field { try Coordinator.Configuration(checkoutTimeoutMilliseconds: 0) }, "checkout_timeout_ms")
        XCTAssertEqual(coordinator.handle(url: "myapp://x", now: -1).error?.field, "now")
    }
}
