import PayHandoff
import XCTest

/// A restored snapshot is one the coordinator could have written, or it is refused naming the
/// member; and the snapshot can always be written: what flows keep is bounded, and host events
/// that would outgrow the budget are refused while answers always fit.
final class SnapshotConsistencyTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00
    let nonce = "0123456789abcdef0123456789abcdef"
    let token = "fedcba9876543210fedcba9876543210"
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 11)

    override func tearDown() {
        coordinator = Coordinator()
        super.tearDown()
    }

    @discardableResult
    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    func sale(_ id: String, identifier: String, amount: String = "100.00", token: String? = nil) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(t0), "flow_id": .string(id), "token": .string(token ?? self.token),
                  "request": ["transaction": "venta", "usertoken": "t", "identifier": .string(identifier),
                              "amount": .string(amount), "urlScheme": "myapp"]])
    }

    func answer(_ identifier: String, result: String = "aprobada", amount: String = "100.00", transactionId: String = "720371",
                token: String? = nil) -> String {
        "myapp://result=\(result)&amount=\(amount)&transactionid=\(transactionId)&identifier=\(identifier)~\(token ?? self.token)"
    }

    /// `document` with the value at `path` (object keys and array indices) replaced.
    func replacing(_ document: JSONValue, _ path: [String], with value: JSONValue?) -> JSONValue {
        guard let step = path.first else { return value ?? .null }
        switch document {
        case .object(var o):
            if path.count == 1, value == nil {
                var kept = JSONObject()
                for member in o.members where member.key != step { kept[member.key] = member.value }
                return .object(kept)
            }
            o[step] = replacing(o[step] ?? .null, Array(path.dropFirst()), with: value)
            return .object(o)
        case .array(var elements):
            let index = Int(step)!
            elements[index] = replacing(elements[index], Array(path.dropFirst()), with: value)
            return .array(elements)
        default:
            return document
        }
    }

    func assertRefused(_ snapshot: JSONValue, _ code: PayHandoffError.Code, _ field: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Coordinator(snapshot: snapshot), file: file, line: line) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, code, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? PayHandoffError)?.field, field, "\(error)", file: file, line: line)
        }
    }

    func testApprovedHoldingADeclinedResponseIsRefused() throws {
        try sale("p1", identifier: "ord-1")
        coordinator.handle(url: answer("ord-1"), now: t0 + 1_000)
        let good = coordinator.snapshot
        XCTAssertEqual(try Coordinator(snapshot: good), coordinator)
        assertRefused(replacing(good, ["flows", "0", "response", "result"], with: "declined"), .validation, "flows[0].state")
        assertRefused(replacing(good, ["flows", "0", "response", "amount"], with: "1000.00"), .validation, "flows[0].state")
        assertRefused(replacing(good, ["flows", "0", "state"], with: "approved_amount_mismatch"), .validation, "flows[0].state")
        assertRefused(replacing(good, ["flows", "0", "state"], with: "launched"), .validation, "flows[0].response")
        assertRefused(replacing(good, ["flows", "0", "token"], with: "00000000000000000000000000000000"), .validation,
                      "flows[0].response.identifier")
        assertRefused(replacing(good, ["flows", "0", "answered_at"], with: nil), .validation, "flows[0].answered_at")
    }

    func testCheckoutDataMustFitItsState() throws {
        try send(["type": "checkout.start", "now": .integer(t0), "flow_id": "c1", "kind": "cards", "return_url": "fixapp://cb",
                  "nonce": .string(nonce), "session": ["kind": "cards", "checkout_url": "https://pay.example.com/1", "card_id": "card_xyz"]])
        try send(["type": "checkout.browser_opened", "now": .integer(t0 + 1), "flow_id": "c1"])
        let inBrowser = coordinator.snapshot
        let otherCard: JSONValue = ["type": "card.registered", "data": ["card_id": "card_other", "brand": "visa"]]
        assertRefused(replacing(inBrowser, ["flows", "0", "confirmation"], with: otherCard), .validation, "flows[0].confirmation")
        try send(["type": "checkout.confirmation", "now": .integer(t0 + 2), "flow_id": "c1",
                  "event": ["type": "card.registered", "data": ["card_id": "card_xyz", "brand": "visa"]]])
        let confirmed = coordinator.snapshot
        XCTAssertEqual(try Coordinator(snapshot: confirmed), coordinator)
        assertRefused(replacing(confirmed, ["flows", "0", "confirmation"], with: otherCard), .validation, "flows[0].confirmation")
        assertRefused(replacing(confirmed, ["flows", "0", "state"], with: "failed"), .validation, "flows[0].confirmation")
        assertRefused(replacing(confirmed, ["flows", "0", "nonce"], with: nil), .validation, "flows[0].nonce")
        assertRefused(replacing(confirmed, ["flows", "0", "nonce"], with: "short"), .validation, "flows[0].nonce")
    }

    func testTwoPendingRefundsOfOneSaleAndMoreRefundedThanSoldAreRefused() throws {
        try sale("p1", identifier: "ord-1")
        coordinator.handle(url: answer("ord-1"), now: t0 + 1_000)
        let refund: JSONValue = ["type": "pos.start", "now": .integer(t0 + 61_000), "flow_id": "r1", "sale_flow_id": "p1",
                                 "token": .string(token),
                                 "request": ["transaction": "devolucion", "usertoken": "t", "identifier": "r1",
                                             "urlScheme": "myapp", "transactionId": "720371", "amount": "10.00"]]
        XCTAssertEqual(try send(refund).outcome, .accepted)
        let good = coordinator.snapshot
        XCTAssertEqual(try Coordinator(snapshot: good), coordinator)
        guard case .array(let flows)? = good.value(at: "flows"), flows.count == 2 else { return XCTFail("two flows") }
        let twin = replacing(replacing(flows[1], ["id"], with: "r2"), ["identifier"], with: "r2")
        assertRefused(replacing(good, ["flows"], with: .array(flows + [twin])), .validation, "flows[2].sale_transactionid")
        // A sale's entry is [transactionid, amount, refunded, approved_at] in centavos.
        assertRefused(replacing(good, ["ledger", "sales", "0", "2"], with: 10_001), .validation, "ledger.sales[0][2]")
        guard case .array(let sales)? = good.value(at: "ledger.sales"), let entry = sales.first else { return XCTFail("a ledger entry") }
        assertRefused(replacing(good, ["ledger", "sales"], with: [entry, entry]), .validation, "ledger.sales[1][0]")
        assertRefused(replacing(good, ["ledger", "sales", "0", "0"], with: "720 371"), .validation, "ledger.sales[0][0]")
        let sameKey = replacing(replacing(flows[1], ["id"], with: "r2"), ["sale_transactionid"], with: "other")
        assertRefused(replacing(good, ["flows"], with: .array(flows + [sameKey])), .conflict, "flows[2].token")
    }

    func testOtherVersionsAreRefused() {
        assertRefused(["version": 1, "config": [:], "flows": [], "refunded": [:]], .unsupportedVersion, "version")
        assertRefused(["version": 5, "config": [:], "flows": [], "ledger": [:]], .unsupportedVersion, "version")
    }

    func testForgedLongAnswersDoNotGrowTheSnapshot() throws {
        try sale("p1", identifier: "ord-1")
        let before = coordinator.snapshot
        let padding = String(repeating: "x", count: 8_000)
        for index in 0..<4 {
            let forged = "myapp://result=aprobada&amount=100.00&identifier=ord-1&junk\(index)=" + padding
            XCTAssertEqual(coordinator.handle(url: forged, now: t0 + 1_000).outcome, .rejected)
        }
        XCTAssertEqual(coordinator.snapshot, before, "a forged answer stores nothing")
        // The genuine answer, 8 KiB long, is kept bounded and says what was cut.
        let long = answer("ord-1") + "&statusinfo=" + String(repeating: "s", count: 3_000) + "&junk=" + String(repeating: "j", count: 4_000)
        XCTAssertEqual(coordinator.handle(url: long, now: t0 + 2_000).outcome, .accepted)
        guard case .pos(let flow)? = coordinator.flow(id: "p1"), let kept = flow.response else { return XCTFail("no answer kept") }
        XCTAssertEqual(kept.truncated, ["statusinfo", "extra"])
        XCTAssertLessThanOrEqual(kept.json.printedLengthBound, POSResponse.maxStoredLength)
        XCTAssertEqual(kept.transactionId, "720371", "what the ledger needs is kept whole")
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot), coordinator)
        XCTAssertEqual(coordinator.handle(url: long, now: t0 + 3_000).outcome, .duplicate, "the same answer again, compared as kept")
    }

    func testHostEventsThatWouldOutgrowTheBudgetAreRefusedAndAnswersAlwaysFit() throws {
        var started = 0
        var refusal: CoordinatorAnswer? = nil
        for index in 0..<200 {
            let identifier = "ord-\(index)-" + String(repeating: "i", count: 180)
            let answer = try sale("p\(index)", identifier: identifier, token: String(format: "%032d", index))
            if answer.outcome != .accepted {
                refusal = answer
                break
            }
            started += 1
        }
        XCTAssertEqual(refusal?.error?.code, .limitExceeded)
        XCTAssertGreaterThan(started, 10)
        // Every waiting flow now receives the largest answer it can keep: all of them fit.
        for index in 0..<started {
            let identifier = "ord-\(index)-" + String(repeating: "i", count: 180)
            var url = answer(identifier, transactionId: "T\(index)", token: String(format: "%032d", index))
            // Every free-text field and many unknown keys, each far longer as JSON than is kept
            // (a control character takes 6 bytes as JSON): the URL stays under 8 KiB.
            for key in ["statusinfo", "reference", "name", "bank", "authorization", "cardtype", "email", "phone", "arqc", "aid", "applabel", "url"] {
                url += "&" + key + "=" + String(repeating: "%01", count: 60)
            }
            url += "&bp_version=" + String(repeating: "9", count: 300)
            for extra in 0..<12 { url += "&x\(extra)=" + String(repeating: "%0A", count: 40) }
            XCTAssertLessThan(url.utf8.count, URLSyntax.maxURLLength)
            XCTAssertEqual(coordinator.handle(url: url, now: t0 + 1_000).outcome, .accepted, "answer \(index)")
        }
        XCTAssertLessThanOrEqual(coordinator.snapshot.printedLengthBound, Coordinator.maxSnapshotBytes)
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot), coordinator)
        // Removing ended flows makes room again.
        XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "p0"]).outcome, .accepted)
        XCTAssertEqual(try sale("again", identifier: "ord-again").outcome, .accepted)
    }

    func testTheLedgerForgetsASaleWhenItsRefundWindowCloses() throws {
        try sale("p1", identifier: "ord-1")
        coordinator.handle(url: answer("ord-1"), now: t0 + 1_000)
        XCTAssertEqual(coordinator.ledger.entries.count, 1)
        let deadline = t0 + 13 * 3_600_000  // 23:00 Mexico City on the sale's day
        XCTAssertEqual(coordinator.ledger.entries.first?.expiresAt, deadline)
        try send(["type": "tick", "now": .integer(deadline - 1)])
        XCTAssertEqual(coordinator.ledger.entries.count, 1)
        try send(["type": "tick", "now": .integer(deadline)])
        XCTAssertEqual(coordinator.ledger.entries.count, 0, "no refund is possible any more: the entry goes")
        let refund = try send(["type": "pos.start", "now": .integer(deadline), "flow_id": "r1", "sale_flow_id": "p1",
                               "request": ["transaction": "devolucion", "usertoken": "t", "identifier": "r1",
                                           "urlScheme": "myapp", "transactionId": "720371"]])
        XCTAssertEqual(refund.error?.code, .notEligible)
        // A busy terminal: thousands of sales over days leave a small snapshot.
        for day in 0..<4 {
            for index in 0..<40 {
                let id = "d\(day)s\(index)", at = t0 + Int64(day) * 86_400_000 + Int64(index) * 1_000
                _ = coordinator.send(try CoordinatorEvent(json: [
                    "type": "pos.start", "now": .integer(at), "flow_id": .string(id), "token": .string(token),
                    "request": ["transaction": "venta", "usertoken": "t", "identifier": .string(id), "amount": "1.00", "urlScheme": "myapp"]]),
                    using: &random)
                _ = coordinator.handle(url: "myapp://result=aprobada&amount=1.00&transactionid=T\(id)&identifier=\(id)~\(token)", now: at + 500)
                _ = coordinator.send(try CoordinatorEvent(json: ["type": "flow.remove", "now": .integer(at + 600), "flow_id": .string(id)]),
                                     using: &random)
            }
        }
        XCTAssertEqual(coordinator.ledger.entries.count, 40, "only the last day's sales are still refundable")
    }
}
