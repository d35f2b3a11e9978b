import Foundation
@_spi(JSONText) import PayHandoff
import XCTest

/// Issue 35, part A: no recovery path widens what may be refunded. Salvage treats what it cannot
/// read whole as possibly refunded (findings 1a, 1b, 8), salvage of an intact snapshot is restore
/// (1c), restore never reads missing money as none (2), and every snapshot 0.2 and 0.3 wrote
/// converts (4a–4d; fixtures in Tests/Snapshots, written by those versions' own CLI). Each test
/// names its finding.
final class RecoveryTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00
    let day: Int64 = 86_400_000
    var random = SplitMix64(seed: 35)
    let saleToken = "00000000000000000000000000000001"
    let refundToken = "0000000000000000000000000000000a"

    @discardableResult
    func send(_ json: JSONValue, to coordinator: inout Coordinator) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    func saleStart(_ id: String, identifier: String, token: String, amount: String = "100.00", now: Int64) -> JSONValue {
        ["type": "pos.start", "now": .integer(now), "flow_id": .string(id), "token": .string(token),
         "request": ["transaction": "venta", "usertoken": "tok", "identifier": .string(identifier), "amount": .string(amount),
                     "urlScheme": "myapp"]]
    }

    func answer(_ identifier: String, token: String, amount: String = "100.00", transactionID: String) -> String {
        "myapp://result=aprobada&amount=\(amount)&identifier=\(identifier)~\(token)&transactionid=\(transactionID)"
    }

    /// A refund by the sale's flow (`sale` a flow id) or by a sale document.
    func refundStart(_ id: String, sale: JSONValue, transactionID: String = "720371", amount: String = "100.00",
                     now: Int64, token: String) -> JSONValue {
        var o: JSONObject = ["type": "pos.start", "now": .integer(now), "flow_id": .string(id), "token": .string(token),
                             "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": .string(id), "urlScheme": "myapp",
                                         "transactionId": .string(transactionID), "amount": .string(amount)]]
        if case .string(let flow) = sale { o["sale_flow_id"] = .string(flow) } else { o["sale"] = sale }
        return .object(o)
    }

    /// The sale document of 720371 as Billpocket records it (approved at t0 + 1 min).
    var saleDocument: JSONValue {
        ["transactionid": "720371", "amount": "100.00", "approved_at": .integer((t0 + 60_000) / 1000)]
    }

    /// Sale 720371 of 100.00 approved at t0 + 1 min, and a refund of it: approved, or waiting in the POS app.
    func refundedSale(refundApproved: Bool) throws -> Coordinator {
        var c = Coordinator()
        try send(saleStart("p1", identifier: "ord-1", token: saleToken, now: t0), to: &c)
        XCTAssertEqual(c.handle(url: answer("ord-1", token: saleToken, transactionID: "720371"), now: t0 + 60_000).outcome, .accepted)
        XCTAssertEqual(try send(refundStart("r1", sale: "p1", now: t0 + 180_000, token: refundToken), to: &c).outcome, .accepted)
        try send(["type": "pos.launched", "flow_id": "r1", "now": .integer(t0 + 181_000)], to: &c)
        if refundApproved {
            XCTAssertEqual(c.handle(url: answer("r1", token: refundToken, transactionID: "820371"), now: t0 + 200_000).outcome, .accepted)
        }
        return c
    }

    /// Every way to refund 720371 again (by its flow and by its document) is refused.
    func assertNoSecondRefund(_ coordinator: Coordinator, _ what: String, at now: Int64? = nil,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let now = now ?? t0 + 600_000
        for (n, sale) in [JSONValue.string("p1"), saleDocument].enumerated() {
            var c = coordinator
            let refund = try send(refundStart("r9\(n)", sale: sale, now: now, token: "00000000000000000000000000000f0\(n)"), to: &c)
            XCTAssertNotEqual(refund.outcome, .accepted, "\(what): a second refund by \(n == 0 ? "sale_flow_id" : "sale document")",
                              file: file, line: line)
        }
    }

    func object(_ value: JSONValue) -> JSONObject {
        guard case .object(let o) = value else { XCTFail("not an object"); return [:] }
        return o
    }

    func array(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let a)? = value else { return [] }
        return a
    }

    // MARK: - 1a: a format-2 header over a format-3 body

    func testAFormat2HeaderOverAFormat3BodyNeverWidensARefund() throws {
        let c = try refundedSale(refundApproved: true)
        var snapshot = object(c.snapshot)
        snapshot["version"] = 2
        XCTAssertThrowsError(try Coordinator(snapshot: .object(snapshot)), "strict restore refuses a mixed file")
        let salvage = try Coordinator.Salvage(snapshot: .object(snapshot))
        XCTAssertEqual(salvage.dropped.map(\.member), ["version"], "the header is reported, the body read as format 3")
        XCTAssertEqual(salvage.coordinator.ledger, c.ledger, "the ledger is read whole")
        try assertNoSecondRefund(salvage.coordinator, "format-2 header")
    }

    // MARK: - 1b: a damaged refund waiting in the POS app

    func testADamagedWaitingRefundLeavesItsSaleBalanceUnknown() throws {
        let c = try refundedSale(refundApproved: false)
        let snapshot = object(c.snapshot)
        var flows = array(snapshot["flows"])
        let refund = object(flows[1])
        func renamed(_ o: JSONObject, _ key: String, to new: String) -> JSONValue {
            var o = o
            let value = o[key]
            o[key] = nil
            o[new] = value
            return .object(o)
        }
        func with(_ o: JSONObject, _ key: String, _ value: JSONValue) -> JSONValue {
            var o = o
            o[key] = value
            return .object(o)
        }
        let damagedRefunds: [(String, JSONValue)] = [
            ("sale_transactionid renamed", renamed(refund, "sale_transactionid", to: "sale_transactionjd")),
            ("sale_transactionid damaged", with(refund, "sale_transactionid", "720 371")),
            ("operation damaged", with(refund, "operation", "devolucioN")),
            ("state damaged", with(refund, "state", "launchet")),
            ("null element", .null),
            ("not an object", "r1"),
        ]
        var damaged: [(String, JSONObject)] = []
        for (what, element) in damagedRefunds {
            flows[1] = element
            var s = snapshot
            s["flows"] = .array(flows)
            damaged.append((what, s))
        }
        for (what, value) in [("flows not an array", JSONValue.object(["r1": .object(refund)])), ("flows null", .null)] {
            var s = snapshot
            s["flows"] = value
            damaged.append((what, s))
        }
        var absent = snapshot
        absent["flows"] = nil
        damaged.append(("flows absent", absent))
        for (what, s) in damaged {
            XCTAssertThrowsError(try Coordinator(snapshot: .object(s)), what)
            let salvage = try Coordinator.Salvage(snapshot: .object(s))
            XCTAssertFalse(salvage.dropped.isEmpty, what)
            try assertNoSecondRefund(salvage.coordinator, what)
        }
    }

    /// Salvage trusts nothing of a flow it could not read (issue 35, still open after 0.4.0: B1,
    /// B2): a waiting refund whose `operation` now reads `venta`, whose `state` reads an answered
    /// or ended word, which gained a `return_url`, or whose `sale_transactionid` still looks like
    /// an id of no sale, is still taken for a refund that may have gone through.
    func testADroppedFlowIsTrustedInNothingItStillShows() throws {
        let c = try refundedSale(refundApproved: false)
        let snapshot = object(c.snapshot)
        let flows = array(snapshot["flows"])
        let refund = object(flows[1])
        var cases: [(String, JSONObject)] = []
        func damaged(_ what: String, _ edit: (inout JSONObject) -> Void) {
            var r = refund
            edit(&r)
            var f = flows
            f[1] = .object(r)
            var s = snapshot
            s["flows"] = .array(f)
            cases.append((what, s))
        }
        damaged("operation reads venta") { $0["operation"] = "venta" }
        for word in ["declined", "error", "approved", "cancelled"] { damaged("state reads " + word) { $0["state"] = .string(word) } }
        damaged("a return_url added") { $0["return_url"] = "x" }
        damaged("grace_ms renamed return_url") { $0["return_url"] = $0["grace_ms"]; $0["grace_ms"] = nil }
        damaged("type reads checkout") { $0["type"] = "checkout" }
        damaged("state renamed, sale id 72037:") { $0["statB"] = $0["state"]; $0["state"] = nil; $0["sale_transactionid"] = "72037:" }
        damaged("state renamed, sale id 720372") { $0["statB"] = $0["state"]; $0["state"] = nil; $0["sale_transactionid"] = "720372" }
        for (what, s) in cases {
            XCTAssertThrowsError(try Coordinator(snapshot: .object(s)), what)
            let salvage = try Coordinator.Salvage(snapshot: .object(s))
            XCTAssertEqual(salvage.dropped.map(\.member), ["flows[1]"], what)
            try assertNoSecondRefund(salvage.coordinator, what)
        }
    }

    /// Every one-byte damage of a snapshot holding a refund waiting in the POS app that strict
    /// restore refuses: the salvaged coordinator never accepts a second refund of the sale.
    func testNoOneByteDamageOfAWaitingRefundLetsTheSaleBeRefundedTwice() throws {
        let c = try refundedSale(refundApproved: false)
        let text = Array(try JSONEncoder().encode(c.snapshot))
        var checked = 0, salvaged = 0
        for position in text.indices {
            for byte in [UInt8(ascii: "x"), UInt8(ascii: "0"), UInt8(ascii: " "), UInt8(ascii: "\""), text[position] ^ 0x20] where byte != text[position] {
                var copy = text
                copy[position] = byte
                guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(copy)) else { continue }
                checked += 1
                guard (try? Coordinator(snapshot: value)) == nil, let salvage = try? Coordinator.Salvage(snapshot: value) else { continue }
                salvaged += 1
                try assertNoSecondRefund(salvage.coordinator, "byte \(position) → \(byte)")
            }
        }
        XCTAssertGreaterThan(salvaged, 500, "\(checked) damaged copies read as JSON")
    }

    // MARK: - 8: the watermark is bounded by the times a damaged record still shows

    /// The sale entry of `c` (the first) with its id made unreadable.
    func withSaleIDLost(_ c: Coordinator) -> JSONObject {
        var snapshot = object(c.snapshot)
        var ledger = object(snapshot["ledger"]!)
        var sales = array(ledger["sales"])
        var sale = array(sales[0])
        sale[0] = "720 371"  // the id is lost, the rest still reads
        sales[0] = .array(sale)
        ledger["sales"] = .array(sales)
        snapshot["ledger"] = .object(ledger)
        return snapshot
    }

    func testADamagedRecordMovesTheWatermarkOnlyAsFarAsItsTimeShows() throws {
        // A sale with nothing refunded: its document refunds at most its amount, once, so its
        // approval time bounds the watermark.
        var c = Coordinator()
        try send(saleStart("p1", identifier: "ord-1", token: saleToken, now: t0), to: &c)
        XCTAssertEqual(c.handle(url: answer("ord-1", token: saleToken, transactionID: "720371"), now: t0 + 60_000).outcome, .accepted)
        let salvaged = try Coordinator.Salvage(snapshot: .object(withSaleIDLost(c))).coordinator
        XCTAssertEqual(salvaged.ledger.prunedThrough, t0 + 13 * 3_600_000, "the sale's window: 23:00 Mexico City on its day")
        // Another terminal's sale of the next day refunds as before.
        var next = salvaged
        let other: JSONValue = ["transactionid": "990001", "amount": "50.00", "approved_at": .integer((t0 + day) / 1000)]
        XCTAssertEqual(try send(refundStart("r8", sale: other, transactionID: "990001", amount: "50.00", now: t0 + day + 120_000,
                                            token: "00000000000000000000000000000f08"), to: &next).outcome, .accepted)
    }

    /// A sale that shows a refund and whose id is lost may be any sale, and its time is the
    /// device's clock, which may have been behind (FuzzSalvage, `finding-35-nameless-refunded-sale`:
    /// a sale refunded 40.00 at a 1970 clock, its entry's id and its flow damaged, was refunded
    /// 60.01 more by its document at the real time). No time bounds it: refunds by document of
    /// sales the ledger does not hold are refused for good — the cost, written in docs/abi.md.
    func testADamagedRefundedSaleWithoutItsIDLocksEveryDocument() throws {
        let c = try refundedSale(refundApproved: true)
        let salvaged = try Coordinator.Salvage(snapshot: .object(withSaleIDLost(c))).coordinator
        XCTAssertEqual(salvaged.ledger.prunedThrough, MexicoCityTime.maxEpochMilliseconds)
        try assertNoSecondRefund(salvaged, "id lost")
        var next = salvaged
        let other: JSONValue = ["transactionid": "990001", "amount": "50.00", "approved_at": .integer((t0 + day) / 1000)]
        XCTAssertEqual(try send(refundStart("r8", sale: other, transactionID: "990001", amount: "50.00", now: t0 + day + 120_000,
                                            token: "00000000000000000000000000000f08"), to: &next).error?.code, .notEligible)

        // The finding itself: the clock at 1970 when the sale and its refund of 40.00 were approved.
        let t1970: Int64 = 36_000_000
        var d = Coordinator()
        try send(saleStart("p1", identifier: "ord-1", token: saleToken, now: t1970), to: &d)
        XCTAssertEqual(d.handle(url: answer("ord-1", token: saleToken, transactionID: "720371"), now: t1970 + 60_000).outcome, .accepted)
        let refund = try send(refundStart("r1", sale: "p1", amount: "40.00", now: t1970 + 180_000, token: refundToken), to: &d)
        XCTAssertEqual(refund.outcome, .accepted, "\(String(describing: refund.error))")
        try send(["type": "pos.launched", "flow_id": "r1", "now": .integer(t1970 + 181_000)], to: &d)
        XCTAssertEqual(d.handle(url: answer("r1", token: refundToken, amount: "40.00", transactionID: "820371"), now: t1970 + 200_000).outcome, .accepted)
        XCTAssertEqual(try send(["type": "flow.remove", "flow_id": "r1", "now": .integer(t1970 + 201_000)], to: &d).outcome, .accepted)
        var snapshot = withSaleIDLost(d)
        var flows = array(snapshot["flows"])
        var sale = object(flows[0])
        sale["opera00on"] = sale["operation"]
        sale["operation"] = nil
        flows[0] = .object(sale)
        snapshot["flows"] = .array(flows)
        var recovered = try Coordinator.Salvage(snapshot: .object(snapshot)).coordinator
        let document: JSONValue = ["transactionid": "720371", "amount": "100.00", "approved_at": .integer((t0 + 60_000) / 1000)]
        XCTAssertNotEqual(try send(refundStart("r9", sale: document, amount: "60.01", now: t0 + 600_000,
                                               token: "00000000000000000000000000000f09"), to: &recovered).outcome, .accepted)
    }

    func testARefundWhoseSaleCannotBeReadLocksEverySaleItCouldHaveRefunded() throws {
        var c = try refundedSale(refundApproved: false)
        try send(["type": "app.foregrounded", "now": .integer(t0 + 190_000)], to: &c)
        var snapshot = object(c.snapshot)
        var flows = array(snapshot["flows"])
        var refund = object(flows[1])
        refund["sale_transactionid"] = "72037\u{1}"
        flows[1] = .object(refund)
        snapshot["flows"] = .array(flows)
        let salvage = try Coordinator.Salvage(snapshot: .object(snapshot))
        XCTAssertEqual(salvage.dropped.map(\.member), ["flows[1]"])
        try assertNoSecondRefund(salvage.coordinator, "sale unreadable")
        // Not bounded by the refund's own time (foregrounded_at): that is the device's clock, which
        // may have been behind the sale's real approval (FuzzSalvage,
        // finding-35-dropped-refund-without-sale-id-clock-behind).
        XCTAssertEqual(salvage.coordinator.ledger.prunedThrough, MexicoCityTime.maxEpochMilliseconds)
    }

    /// A sale's ledger entry deleted by hand while a flow still shows it (issue 35, B7): no
    /// sequence of events reaches that state (an approved sale, or a refund, names an entry until
    /// the watermark covers it), so restore refuses it and salvage keeps the sale balance unknown.
    func testASaleEntryDeletedWhileAFlowShowsItIsRefused() throws {
        for refundApproved in [false, true] {
            let c = try refundedSale(refundApproved: refundApproved)
            var snapshot = object(c.snapshot)
            var ledger = object(snapshot["ledger"]!)
            ledger["sales"] = []
            ledger["refunds"] = []
            snapshot["ledger"] = .object(ledger)
            let what = refundApproved ? "refunded" : "refund waiting"
            XCTAssertThrowsError(try Coordinator(snapshot: .object(snapshot)), what)
            let salvage = try Coordinator.Salvage(snapshot: .object(snapshot))
            XCTAssertFalse(salvage.dropped.isEmpty, what)
            XCTAssertNoThrow(try Coordinator(snapshot: salvage.coordinator.snapshot), what + ": the salvage restores")
            var salvaged = salvage.coordinator
            for id in ["r1", "p1"] where salvaged.flow(id: id)?.stateName == "approved" {
                XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 500_000), "flow_id": .string(id)],
                                        to: &salvaged).outcome, .accepted)
            }
            try assertNoSecondRefund(salvaged, what)
        }
    }

    /// Two damages (found by FuzzSalvage's probes): a waiting refund's sale id turned into
    /// another valid id, and the sale's ledger entry deleted. The refund's sale id proves nothing
    /// then: salvage treats it as a refund whose sale cannot be read (the watermark past every
    /// time it could have been approved by).
    func testARefundNamingALostSaleUnderAnotherIdLocksTheLedger() throws {
        let c = try refundedSale(refundApproved: false)
        var snapshot = object(c.snapshot)
        var flows = array(snapshot["flows"])
        var refund = object(flows[1])
        refund["sale_transactionid"] = "aaa1"
        flows = [.object(refund)]  // the sale's own flow forgotten since (the 32-ended rule)
        snapshot["flows"] = .array(flows)
        var ledger = object(snapshot["ledger"]!)
        ledger["sales"] = []
        snapshot["ledger"] = .object(ledger)
        XCTAssertThrowsError(try Coordinator(snapshot: .object(snapshot)))
        let salvage = try Coordinator.Salvage(snapshot: .object(snapshot))
        XCTAssertNoThrow(try Coordinator(snapshot: salvage.coordinator.snapshot))
        var salvaged = salvage.coordinator
        let again = try send(refundStart("r9", sale: saleDocument, now: t0 + 600_000, token: "00000000000000000000000000000f09"),
                             to: &salvaged)
        XCTAssertNotEqual(again.outcome, .accepted, "a second refund by the sale's document")
    }

    // MARK: - 1c: salvage of what restore accepts is restore

    func testSalvageOfAnIntactSnapshotWithFortyEndedFlowsIsRestore() throws {
        var c = Coordinator()
        for n in 0..<40 {
            let token = String(format: "%032x", n + 1)
            XCTAssertEqual(try send(saleStart("p\(n)", identifier: "ord-\(n)", token: token, now: t0 + Int64(n)), to: &c).outcome, .accepted)
        }
        for n in 0..<40 {
            let url = "myapp://result=rechazada&identifier=ord-\(n)~" + String(format: "%032x", n + 1)
            XCTAssertEqual(c.handle(url: url, now: t0 + 60_000).outcome, .accepted)
        }
        XCTAssertEqual(c.flows.count, 40)
        let restored = try Coordinator(snapshot: c.snapshot)
        let salvage = try Coordinator.Salvage(snapshot: c.snapshot)
        XCTAssertEqual(salvage.dropped, [])
        XCTAssertEqual(salvage.coordinator, restored)
        XCTAssertEqual(salvage.coordinator, c)
    }

    // MARK: - 2: missing money is never read as none

    func testRestoreRefusesALedgerOrFlowsMissingOrNullAndSalvageLocksTheMoney() throws {
        let c = try refundedSale(refundApproved: true)
        let snapshot = object(c.snapshot)
        let ledger = object(snapshot["ledger"]!)
        var cases: [(String, JSONObject)] = []
        for key in ["ledger", "flows"] {
            for value in [JSONValue.null, JSONValue?.none] {
                var s = snapshot
                s[key] = value
                cases.append((key, s))
            }
        }
        for key in ["sales", "refunds", "unknown", "pruned_through"] {
            for value in [JSONValue.null, JSONValue?.none] {
                var l = ledger
                l[key] = value
                var s = snapshot
                s["ledger"] = .object(l)
                cases.append(("ledger." + key, s))
            }
        }
        for (member, s) in cases {
            XCTAssertThrowsError(try Coordinator(snapshot: .object(s)), member) { error in
                XCTAssertEqual((error as? PayHandoffError)?.field, member)
            }
            let salvage = try Coordinator.Salvage(snapshot: .object(s))
            XCTAssertFalse(salvage.dropped.isEmpty, member)
            try assertNoSecondRefund(salvage.coordinator, member)
        }
    }

    /// Every format wrote `config` as an object, never `null`: damaged to `null`, left out or of
    /// another type, or a member `null`, it is refused naming it, never read as the defaults
    /// (which would change how deep links are judged: FuzzSalvage's first run with its probes
    /// found `"config": null` restored as the defaults). Salvage reports it dropped and keeps the
    /// money locked as ever.
    func testRestoreRefusesAConfigMissingOrNull() throws {
        let c = try refundedSale(refundApproved: true)
        let snapshot = object(c.snapshot)
        let config = object(snapshot["config"]!)
        var cases: [(String, JSONObject)] = []
        for value in [JSONValue.null, JSONValue?.none, .integer(1), .array([])] {
            var s = snapshot
            s["config"] = value
            cases.append(("config", s))
        }
        for key in ["single_pending_per_kind", "checkout_timeout_ms", "pos_grace_ms", "accept_unverified_callbacks"] {
            var k = config
            k[key] = .null
            var s = snapshot
            s["config"] = .object(k)
            cases.append(("config." + key, s))
            // Left out, a member takes its default, as in a host's configuration document.
            k[key] = nil
            s["config"] = .object(k)
            XCTAssertEqual(try Coordinator(snapshot: .object(s)).configuration, try Coordinator.Configuration(json: .object(k)), key)
        }
        for (member, s) in cases {
            XCTAssertThrowsError(try Coordinator(snapshot: .object(s)), member) { error in
                XCTAssertEqual((error as? PayHandoffError)?.field, member)
            }
            let salvage = try Coordinator.Salvage(snapshot: .object(s))
            // `config` dropped; and `ledger.refunded_sales`, absent here, counts as lost with it (the
            // member could have moved into what was dropped: issue 35's fourth attack, Y1).
            XCTAssertEqual(salvage.dropped.map(\.member), ["config", "ledger.refunded_sales"], member)
            try assertNoSecondRefund(salvage.coordinator, member)
        }
        // A host's own configuration document may still leave members out.
        XCTAssertEqual(try Coordinator.Configuration(json: [:]), Coordinator.Configuration())
    }

    // MARK: - 8: a start refused for room names the checkouts past their deadline; a tick makes room

    func testAStartRefusedForRoomSaysWhichCheckoutsATickWouldExpire() throws {
        var c = Coordinator()
        var started = 0
        while true {
            let start: JSONValue = ["type": "checkout.start", "flow_id": .string("c\(started)"), "now": .integer(t0),
                                    "kind": "cards", "return_url": "fixapp://checkout-callback"]
            guard try send(start, to: &c).outcome == .accepted else { break }
            started += 1
        }
        XCTAssertGreaterThan(started, 10)
        func another(at now: Int64) -> JSONValue {
            ["type": "checkout.start", "flow_id": "next", "now": .integer(now), "kind": "cards", "return_url": "fixapp://checkout-callback"]
        }
        let early = try send(another(at: t0 + 1_799_999), to: &c)
        XCTAssertEqual(early.error?.code, .limitExceeded, "they still wait: no room")
        XCTAssertFalse(early.error?.message.contains("tick") ?? true, "no checkout is late yet")
        // At their deadline the start is still refused — a start moves no other flow — and says why.
        let before = c
        let late = try send(another(at: t0 + 1_800_000), to: &c)
        XCTAssertEqual(late.error?.code, .limitExceeded)
        XCTAssertTrue(late.error?.message.contains("checkouts past their deadline are among them: send a tick at this time") ?? false,
                      late.error?.message ?? "")
        XCTAssertEqual(c, before, "a refused start changes nothing")
        XCTAssertEqual(try send(["type": "tick", "now": .integer(t0 + 1_800_000)], to: &c).outcome, .accepted)
        XCTAssertEqual(try send(another(at: t0 + 1_800_000), to: &c).outcome, .accepted, "expired, they make room")
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
    }

    // MARK: - 4: every snapshot 0.2 and 0.3 wrote converts (fixtures written by them)

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")

    func fixture(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: RecoveryTests.fixtures.appendingPathComponent(name)))
    }

    /// Restores `name`, salvages it, and checks what both must: the same coordinator, and its own
    /// snapshot (format 4) restoring to an equal one.
    func converted(_ name: String, dropped: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> Coordinator {
        let document = try fixture(name)
        let restored = try Coordinator(snapshot: document)
        let salvage = try Coordinator.Salvage(snapshot: document)
        XCTAssertEqual(salvage.coordinator, restored, name, file: file, line: line)
        XCTAssertEqual(salvage.dropped.map(\.member), dropped, name, file: file, line: line)
        XCTAssertEqual(restored.snapshot.value(at: "version"), 4, file: file, line: line)
        XCTAssertEqual(try Coordinator(snapshot: restored.snapshot), restored, "\(name): converted, then restored", file: file, line: line)
        XCTAssertEqual(try Coordinator.Salvage(snapshot: restored.snapshot).dropped, [], file: file, line: line)
        return restored
    }

    func testOrdinaryDaysOf02And03Convert() throws {
        for version in ["v2", "v3"] {
            var c = try converted(version + "/ordinary-day.json")
            XCTAssertEqual(c.flows.map(\.stateName), ["approved", "approved", "approved", "confirmed", "awaiting_session", "launched"], version)
            XCTAssertEqual(c.refundedAmount(transactionId: "720371", now: t0 + 600_000), try Amount(parsing: "40.00"))
            // The refund may take what is left (60.00), not more.
            var more = c
            let over = try send(refundStart("r2", sale: "p1", amount: "60.01", now: t0 + 600_000, token: "00000000000000000000000000000f10"), to: &more)
            XCTAssertEqual(over.error?.code, .notEligible, version)
            XCTAssertEqual(try send(refundStart("r2", sale: "p1", amount: "60.00", now: t0 + 600_000, token: "00000000000000000000000000000f10"),
                                    to: &c).outcome, .accepted, version)
            XCTAssertEqual(c.handle(url: answer("ord-3", token: "00000000000000000000000000000003", amount: "80.00", transactionID: "720373"),
                                    now: t0 + 601_000).outcome, .accepted, "\(version): the waiting sale takes its answer")
            XCTAssertEqual(try send(["type": "checkout.session", "flow_id": "c2", "now": .integer(t0 + 602_000),
                                     "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/2"]], to: &c).outcome, .accepted)
        }
    }

    func testAWaitingRefundOf02And03Converts() throws {
        for version in ["v2", "v3"] {
            var c = try converted(version + "/waiting-refund.json")
            XCTAssertEqual(c.flow(id: "r1")?.stateName, "launched")
            try assertNoSecondRefund(c, version)
            XCTAssertEqual(c.handle(url: answer("ref-1", token: refundToken, transactionID: "820371"), now: t0 + 600_000).outcome, .accepted)
            XCTAssertEqual(c.refundedAmount(transactionId: "720371", now: t0 + 600_000), try Amount(parsing: "100.00"))
        }
    }

    func testA02LedgerPrunedAheadConvertsFailSafe() throws {  // 4a
        let c = try converted("v2/pruned-ahead.json")
        XCTAssertGreaterThanOrEqual(c.ledger.prunedThrough, t0 + 200_000, "the latest time the snapshot shows")
        // The clock came back: the sale refunded in full is not refundable again.
        try assertNoSecondRefund(c, "pruned ahead", at: t0 + 3_600_000)
    }

    func testA02TokenWithATildeIsKeptAndItsAnswerArrives() throws {  // 4b
        var c = try converted("v2/tilde-token.json")
        XCTAssertEqual(c.flow(id: "p1")?.stateName, "launched")
        XCTAssertEqual(c.handle(url: answer("ord-1", token: "abc~def0123456789abcdef", transactionID: "720371"), now: t0 + 60_000).outcome,
                       .accepted)
        XCTAssertEqual(c.flow(id: "p1")?.stateName, "approved")
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
        // Events still refuse a '~' in a token.
        XCTAssertThrowsError(try send(saleStart("p2", identifier: "ord-2", token: "abc~def0123456789abcdeg", now: t0 + 70_000), to: &c)) {
            XCTAssertEqual(($0 as? PayHandoffError)?.field, "token")
        }
    }

    /// A converted '~' token and a new start whose identifier holds the token's first part send
    /// the same identifier (issue 35, B4): the start is a conflict, as restore would judge the pair.
    func testAStartSendingAConvertedFlowsIdentifierIsAConflict() throws {
        var c = try converted("v2/tilde-token.json")
        let start = try send(saleStart("p2", identifier: "ord-1~abc", token: "def0123456789abcdef", amount: "5.00", now: t0 + 70_000),
                             to: &c)
        XCTAssertEqual(start.error?.code, .conflict, "both flows were sent ord-1~abc~def0123456789abcdef")
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c, "the coordinator's own snapshot restores")
        XCTAssertEqual(c.handle(url: answer("ord-1", token: "abc~def0123456789abcdef", transactionID: "720371"), now: t0 + 80_000).outcome,
                       .accepted)
        XCTAssertEqual(c.flow(id: "p1")?.stateName, "approved")
    }

    func testA02EndedFlowSharingAKeyWithAWaitingOneIsLeftOut() throws {  // 4c
        var c = try converted("v2/shared-keys.json", dropped: ["flows[1]", "flows[3]"])
        XCTAssertEqual(c.flows.map(\.id), ["p2", "c2"], "the waiting flows are kept, the ended ones left out")
        XCTAssertNotNil(c.ledger.entry("720371", at: t0 + 200_000), "the ledger keeps the ended sale's money")
        XCTAssertEqual(c.handle(url: answer("ord-1", token: saleToken, amount: "50.00", transactionID: "720999"), now: t0 + 200_000).outcome,
                       .accepted)
        XCTAssertEqual(c.flow(id: "p2")?.stateName, "approved")
        let conflicts = try Coordinator.Salvage(snapshot: try fixture("v2/shared-keys.json")).dropped.map(\.error.code)
        XCTAssertEqual(conflicts, [.conflict, .conflict])
    }

    func test24CheckoutsWaitingFor02SessionsReservePastTheLimitUntilTheyEnd() throws {  // 4d
        var c = try converted("v2/waiting-checkouts.json")
        XCTAssertEqual(c.flows.count, 24)
        XCTAssertGreaterThan(c.reservedSnapshotLength, c.snapshotLimit)
        XCTAssertEqual(c.convertedReserve, c.reservedSnapshotLength)
        XCTAssertEqual(try send(saleStart("p1", identifier: "ord-1", token: saleToken, now: t0 + 60_000), to: &c).error?.code,
                       .limitExceeded, "starts wait until the converted flows fit")
        XCTAssertEqual(try send(["type": "checkout.session", "flow_id": "c1", "now": .integer(t0 + 61_000),
                                 "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]], to: &c).outcome, .accepted)
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c, "format 4 keeps the converted reserve")
        XCTAssertEqual(try send(["type": "tick", "now": .integer(t0 + 2 * 3_600_000)], to: &c).outcome, .accepted)
        let late = try send(saleStart("p1", identifier: "ord-1", token: saleToken, now: t0 + 2 * 3_600_000), to: &c)
        XCTAssertEqual(late.outcome, .accepted, "once they expire, there is room")
        XCTAssertEqual(c.convertedReserve, 0)
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
    }

    /// B11: 24 checkouts converted from 0.2, beside a refund waiting in the POS app, reserve more
    /// than a snapshot holds; their gateways then answer with sessions and confirmations at the
    /// limits (an 8 KiB checkout URL, 1 KiB session id, brand and token). Every snapshot handed
    /// out stays within PAYHANDOFF_MAX_SNAPSHOT_BYTES and restores; the checkout event that would
    /// leave no room for the waiting refund's answer is refused and changes nothing; the refund's
    /// approval is always taken (money persists); once the host gives up a checkout, the refused
    /// event is taken. (Before: every event was accepted, and from the confirmations on the
    /// snapshot printed past what restore reads, so the refund's approval could not be saved.)
    func testConvertedCheckoutsFilledToTheLimitsNeverPrintASnapshotRestoreCannotRead() throws {  // B11
        var document = object(try fixture("v2/waiting-refund.json"))
        let checkouts = object(try fixture("v2/waiting-checkouts.json"))
        document["flows"] = .array(array(document["flows"]) + array(checkouts["flows"]))
        var c = try Coordinator(snapshot: .object(document))
        XCTAssertEqual(c.flows.count, 26)
        XCTAssertGreaterThan(c.convertedReserve, Coordinator.maxSnapshotBytes)
        let url = "https://pay.example.com/" + String(repeating: "u", count: URLSyntax.maxURLLength - 24)
        let quotes = String(repeating: "\"", count: 512)  // 1 KiB as JSON text
        var events: [JSONValue] = []
        for n in 1...24 {
            events.append(["type": "checkout.session", "flow_id": .string("c\(n)"), "now": .integer(t0 + 61_000),
                           "session": ["kind": "cards", "checkout_url": .string(url), "session_id": .string(quotes)]])
            events.append(["type": "checkout.confirmation", "flow_id": .string("c\(n)"), "now": .integer(t0 + 62_000),
                           "event": ["type": "card.registered", "data": ["card_id": .string("card_\(n)"), "brand": .string(quotes),
                                                                          "token": .string(quotes), "last_four": "4242"]]])
        }
        var refused: [JSONValue] = []
        for event in events {
            let before = c
            let answer = try send(event, to: &c)
            if answer.outcome != .accepted {
                XCTAssertEqual(answer.error?.code, .limitExceeded, "\(event)")
                XCTAssertEqual(answer.error?.field, "snapshot")
                XCTAssertEqual(c, before, "a refused event changes nothing")
                refused.append(event)
            }
            XCTAssertLessThanOrEqual(JSONLengthCounter.length { c.writeSnapshot(to: $0) }, Coordinator.maxSnapshotBytes)
        }
        XCTAssertFalse(refused.isEmpty, "every checkout filled to the limits does not fit beside the waiting refund")
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
        // The refund's approval is taken, and the snapshot that holds it restores.
        XCTAssertEqual(c.handle(url: answer("ref-1", token: refundToken, transactionID: "820371"), now: t0 + 63_000).outcome, .accepted)
        XCTAssertEqual(c.flow(id: "r1")?.stateName, "approved")
        XCTAssertLessThanOrEqual(JSONLengthCounter.length { c.writeSnapshot(to: $0) }, Coordinator.maxSnapshotBytes)
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
        // Giving up a checkout makes room for the first refused event.
        XCTAssertEqual(try send(["type": "flow.remove", "flow_id": "c1", "give_up": true, "now": .integer(t0 + 70_000)], to: &c).outcome, .accepted)
        XCTAssertEqual(try send(refused[0], to: &c).outcome, .accepted, "room once a checkout is given up")
        XCTAssertLessThanOrEqual(JSONLengthCounter.length { c.writeSnapshot(to: $0) }, Coordinator.maxSnapshotBytes)
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
    }

    /// Issue 35's fifth attack, Z1: a format-3 day that 0.3.0's own library wrote and read — 3,000
    /// sales each refunded 40.00 beside a sale waiting in the POS app (p3 of ordinary-day.json),
    /// about 235 KB — converts with reservations past 262144 (each refunded sale's entry now also
    /// reserves the record it may leave). B11's measure must not refuse what only fills reserved
    /// room: the POS app's approval of the waiting sale, a tick and a removal are accepted, and the
    /// snapshot that holds them prints within the limit and restores.
    func testAConverted03DayFullOfRefundedSalesStillTakesItsPOSAnswer() throws {  // Z1
        var document = object(try fixture("v3/ordinary-day.json"))
        var ledger = object(document["ledger"]!)
        var sales = array(ledger["sales"])
        var refunds = array(ledger["refunds"])
        for i in 0..<3_000 {
            sales.append([.string(String(7_210_000_000 + i)), 10_000, 4_000, .integer(t0 + 600_000 + Int64(i))])
            refunds.append([.string(String(8_210_000_000 + i)), 4_000, .integer(t0 + 700_000 + Int64(i))])
        }
        ledger["sales"] = .array(sales)
        ledger["refunds"] = .array(refunds)
        document["ledger"] = .object(ledger)
        var c = try Coordinator(snapshot: .object(document))
        XCTAssertGreaterThan(c.convertedReserve, Coordinator.maxSnapshotBytes)
        XCTAssertEqual(c.flow(id: "p3")?.stateName, "launched")
        let at = t0 + 900_000
        let approval = c.handle(url: "myapp://result=aprobada&amount=80.00&identifier=ord-3~00000000000000000000000000000003&transactionid=720373",
                                now: at)
        XCTAssertEqual(approval.outcome, .accepted, approval.error?.message ?? "")
        XCTAssertEqual(c.flow(id: "p3")?.stateName, "approved")
        XCTAssertEqual(try send(["type": "tick", "now": .integer(at + 1_000)], to: &c).outcome, .accepted)
        XCTAssertEqual(try send(["type": "flow.remove", "flow_id": "p3", "now": .integer(at + 2_000)], to: &c).outcome, .accepted)
        XCTAssertLessThanOrEqual(JSONLengthCounter.length { c.writeSnapshot(to: $0) }, Coordinator.maxSnapshotBytes)
        XCTAssertEqual(try Coordinator(snapshot: c.snapshot), c)
    }

    /// The model check at depth 6 (issue 35's alphabet, first run to that depth): a sale's late
    /// answer for less than its document said (90.00 of 100.00, `approved_amount_mismatch`)
    /// arrived after the document's refund of 100.00 had booked the sale and refunded it in full.
    /// The entry kept what it had refunded (100.00) beside the new amount (90.00): a snapshot
    /// restore refuses ("refunded more than its amount"). Booking it again now keeps it refunded
    /// in full at the new amount: nothing left, and the snapshot restores.
    func testALateSaleAnswerForLessAfterItsDocumentWasRefundedInFull() throws {
        var c = Coordinator()
        try send(saleStart("p1", identifier: "ord-1", token: saleToken, now: t0), to: &c)
        XCTAssertEqual(try send(refundStart("r1", sale: saleDocument, now: t0 + 180_000, token: refundToken), to: &c).outcome, .accepted)
        try send(["type": "pos.launched", "flow_id": "r1", "now": .integer(t0 + 181_000)], to: &c)
        XCTAssertEqual(c.handle(url: answer("r1", token: refundToken, transactionID: "820371"), now: t0 + 200_000).outcome, .accepted)
        for later in [t0 + 2 * day, t0 + 14 * 3_600_000 + 1_920_000] {  // two days later; 00:32 the next day
            var d = c
            let late = d.handle(url: answer("ord-1", token: saleToken, amount: "90.00", transactionID: "720371"), now: later)
            XCTAssertEqual(late.outcome, .accepted)
            XCTAssertEqual(try Coordinator(snapshot: d.snapshot), d, "the snapshot restores")
            XCTAssertNotEqual(try send(refundStart("r2", sale: "p1", amount: "0.01", now: later + 60_000,
                                                   token: "00000000000000000000000000000f02"), to: &d).outcome, .accepted)
        }
    }
}
