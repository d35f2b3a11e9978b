@_spi(JSONText) import PayHandoff
import PayHandoffFoundation
import PayHandoffABI
import Foundation
import XCTest

/// Issue 35, second attack (after h35's fixes merged): the attacks that HOLD on main 069bc10, kept as
/// regression tests. (The ones that broke are in /work/notes/35-attack2.md with their test source.)
/// Each asserts the rule it attacked: a snapshot the library wrote restores strictly and salvages to
/// the same coordinator; no recovery or forgetting lets a sale be refunded past its balance or a
/// spent host key start again.
final class Attack35Tests: XCTestCase, CoordinatorDriving {
    /// 2026-12-07T10:00:00-06:00.
    let t0: Int64 = 1_796_659_200_000
    let hour: Int64 = 3_600_000
    let day: Int64 = 86_400_000
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 3535)

    @discardableResult
    func refund(_ id: String, ofSaleFlow sale: String, at time: Int64, amount: String? = nil) throws -> CoordinatorAnswer {
        var request: JSONObject = ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": .string(id),
                                   "urlScheme": "myapp", "transactionId": "720371"]
        if let amount { request["amount"] = .string(amount) }
        return try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id), "token": .string(token(id)),
                         "sale_flow_id": .string(sale), "request": .object(request)])
    }

    func refundByDocument(_ id: String, approvedAt: Int64, at time: Int64) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id), "token": .string(token(id)),
                  "sale": ["transactionid": "720371", "amount": "100.00", "approved_at": .integer(approvedAt / 1000), "bp_version": "4.3.24"],
                  "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": .string(id),
                              "urlScheme": "myapp", "transactionId": "720371"]])
    }

    /// The coordinator's own snapshot restores strictly, equal to it, and a salvage of it drops
    /// nothing and gives the same coordinator.
    func assertOwnSnapshotRestores(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let snapshot = coordinator.snapshot
        let restored: Coordinator
        do { restored = try Coordinator(snapshot: snapshot) } catch {
            return XCTFail(label + ": the coordinator's own snapshot is refused: " + String(describing: error), file: file, line: line)
        }
        XCTAssertEqual(restored, coordinator, label, file: file, line: line)
        let salvage = try Coordinator.Salvage(snapshot: snapshot)
        XCTAssertTrue(salvage.dropped.isEmpty, label + ": salvage of an intact snapshot dropped something", file: file, line: line)
        XCTAssertEqual(salvage.coordinator, coordinator, label, file: file, line: line)
    }

    // MARK: - "Restore refuses a flow that shows a sale the ledger lost" never refuses what events write

    /// An approved sale whose ledger entry was pruned at 23:00 Mexico City while its ended flow is
    /// still held; the same after a full refund (kept as balance unknown, then pruned the next
    /// night), after a refund given up, and after an approval at 22:59:59.999: each snapshot along
    /// the way restores.
    func testSnapshotsOfSalesWhoseEntriesWerePrunedRestore() throws {
        let cases: [(String, Int64, (Attack35Tests, Int64) throws -> Void)] = [
            ("approved, pruned", t0, { _, _ in }),
            ("refunded in full", t0, { test, at in
                XCTAssertEqual(try test.refund("r1", ofSaleFlow: "p1", at: at + 61_000).outcome, .accepted)
                XCTAssertEqual(test.coordinator.handle(url: test.approval("r1", transactionId: "R-1"), now: at + 62_000).outcome, .accepted)
            }),
            ("refund given up", t0, { test, at in
                XCTAssertEqual(try test.refund("r1", ofSaleFlow: "p1", at: at + 61_000, amount: "40.00").outcome, .accepted)
                try test.send(["type": "pos.launched", "now": .integer(at + 61_500), "flow_id": "r1"])
                XCTAssertEqual(try test.send(["type": "flow.remove", "now": .integer(at + 62_000), "flow_id": "r1", "give_up": true]).outcome, .accepted)
            }),
            ("refund declined", t0, { test, at in
                XCTAssertEqual(try test.refund("r1", ofSaleFlow: "p1", at: at + 61_000).outcome, .accepted)
                let declined = "myapp://result=rechazada&identifier=r1~" + test.token("r1")
                XCTAssertEqual(test.coordinator.handle(url: declined, now: at + 62_000).outcome, .accepted)
            }),
            ("approved at 22:58", t0 + 12 * hour + 58 * 60_000, { _, _ in }),
        ]
        for (label, at, then) in cases {
            coordinator = Coordinator()
            try sale("p1", at: at)
            XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: at + 1_000).outcome, .accepted, label)
            try then(self, at)
            try assertOwnSnapshotRestores(label + ", before 23:00")
            // 23:00 passes (an event at 23:30, the next day's 10:00, 23:30, and two days later).
            for later in [t0 + 13 * hour + 30 * 60_000, t0 + day, t0 + day + 13 * hour + 30 * 60_000, t0 + 3 * day] {
                XCTAssertEqual(try send(["type": "tick", "now": .integer(later)]).outcome, .accepted, label)
                try assertOwnSnapshotRestores(label + ", tick at " + String(later))
                XCTAssertNotNil(coordinator.flow(id: "p1"), label + ": the ended sale flow is still held")
            }
            XCTAssertGreaterThan(coordinator.ledger.prunedThrough, 0, label + ": the sale's entry was pruned")
        }
    }

    /// The fixtures earlier versions wrote (Tests/Snapshots), restored and then ticked across
    /// 23:00, a day, four days, and a clock reset to 1970: every snapshot this version then
    /// writes restores, and salvages to the same coordinator; so does each after its ended flows
    /// are removed.
    func testOlderFixturesStayRestorableAcross23h() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Snapshots")
        for name in ["v2/ordinary-day.json", "v2/pruned-ahead.json", "v2/shared-keys.json", "v2/tilde-token.json",
                     "v2/waiting-checkouts.json", "v2/waiting-refund.json", "v3/ordinary-day.json", "v3/waiting-refund.json"] {
            let document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
            let start = try Coordinator(snapshot: document)
            let base: Int64 = 1_796_054_400_000  // the fixtures' day, 10:00
            for offset in [0, 4 * hour, 13 * hour + 30 * 60_000, day, 4 * day, 57_600_000 - base] {
                coordinator = start
                XCTAssertEqual(try send(["type": "tick", "now": .integer(base + offset)]).outcome, .accepted, name)
                try assertOwnSnapshotRestores(name + " + " + String(offset))
                for flow in coordinator.snapshotFlowIDs {
                    try send(["type": "flow.remove", "now": .integer(base + offset), "flow_id": .string(flow)])
                }
                try assertOwnSnapshotRestores(name + " + " + String(offset) + ", ended flows removed")
            }
        }
    }

    // MARK: - Remembered keys' clock

    /// A sale started with a host-given token, approved (its answer captured), then removed: the
    /// token is spent and remembered. Returns the token and the captured approval.
    func spendAHostToken() throws -> (token: String, approval: String) {
        let spent = token("x")
        let genuine = approval("p1", identifier: "ord-1", token: spent, transactionId: "555")
        try sale("p1", identifier: "ord-1", token: spent, at: t0)
        try send(["type": "pos.launched", "now": .integer(t0 + 500), "flow_id": "p1"])
        XCTAssertEqual(coordinator.handle(url: genuine, now: t0 + 1_000).outcome, .accepted)
        try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "p1"])
        return (spent, genuine)
    }

    /// A damaged `latest_event` (null, a string, 0, -1, renamed): salvage refuses every host key,
    /// and a clock four days ahead for two events, then corrected, does not free the spent token.
    func testADamagedKeysClockNeverFreesASpentTokenThroughSalvage() throws {
        let (spent, genuine) = try spendAHostToken()
        guard case .object(let document) = coordinator.snapshot, let latest = document["latest_event"] else {
            return XCTFail("no latest_event")
        }
        let damages: [(String, (inout JSONObject) -> Void)] = [
            ("null", { $0["latest_event"] = .null }), ("string", { $0["latest_event"] = "x" }),
            ("0", { $0["latest_event"] = 0 }), ("-1", { $0["latest_event"] = -1 }),
            ("renamed", { $0["latest_event"] = nil; $0["latest_evenT"] = latest }),
        ]
        for (label, damage) in damages {
            var d = document
            damage(&d)
            XCTAssertThrowsError(try Coordinator(snapshot: .object(d)), label)
            coordinator = try Coordinator.Salvage(snapshot: .object(d)).coordinator
            try send(["type": "tick", "now": .integer(t0 + 4 * day)])
            try send(["type": "tick", "now": .integer(t0 + 4 * day + 60_000)])
            XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict, label)
            XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted, label)
        }
    }

    /// K1 (second attack): keys without their clock — the format-4 shape written before the keys'
    /// clock existed, or a binding's re-encoding without `latest_event` — restored, then a clock
    /// four days ahead for two events: the first event's jump counts as 12 hours like any other,
    /// so the second does not end the spent token's horizon, and the captured approval approves
    /// nothing.
    func testK1KeysWithoutTheirClockOutliveTwoEventsAhead() throws {
        let (spent, genuine) = try spendAHostToken()
        guard case .object(var document) = coordinator.snapshot else { return XCTFail("not an object") }
        XCTAssertNotNil(document["latest_event"])
        document["latest_event"] = nil  // the format-4 shape main wrote before h35 (b8087fd): keys, no clock
        coordinator = try Coordinator(snapshot: .object(document))
        try send(["type": "tick", "now": .integer(t0 + 4 * day)])
        try send(["type": "tick", "now": .integer(t0 + 4 * day + 60_000)])
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict,
                       "a clock 4 days ahead for two events freed the spent token")
        XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted)
    }

    /// K1, the bound: without its clock a key's horizon still ends — 3 days after its forgetting
    /// as the key proves it, plus what events ahead jumped beyond 12 hours each.
    func testK1KeysWithoutTheirClockStillEndAtTheirHorizon() throws {
        let spent = token("x")
        try sale("p1", identifier: "ord-1", token: spent, at: t0)
        try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "p1", "give_up": true])
        guard case .object(var document) = coordinator.snapshot else { return XCTFail("not an object") }
        document["latest_event"] = nil
        coordinator = try Coordinator(snapshot: .object(document))
        try send(["type": "tick", "now": .integer(t0 + 2 * hour)])  // starts the clock at the forgetting
        XCTAssertEqual(coordinator.rememberedKeys.latestEventAt, t0 + 2 * hour)
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + 3 * day - hour).error?.code, .conflict)
        for step in 1...7 { try send(["type": "tick", "now": .integer(t0 + Int64(step) * 11 * hour)]) }
        XCTAssertNotEqual(try sale("p3", identifier: "ord-1", token: spent, at: t0 + 3 * day + hour).error?.code, .conflict,
                          "the horizon ends once its 3 days have passed")
    }

    /// A start dated four days ahead (one event) with a remembered token: refused — the start is
    /// judged after its own jump counted 12 hours.
    func testAStartDatedDaysAheadNeverReusesARememberedToken() throws {
        let spent = token("x")
        try sale("p1", identifier: "ord-1", token: spent, at: t0)
        try send(["type": "pos.launched", "now": .integer(t0 + 500), "flow_id": "p1"])
        XCTAssertEqual(coordinator.handle(url: approval("p1", identifier: "ord-1", token: spent, transactionId: "555"),
                                          now: t0 + 1_000).outcome, .accepted)
        try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "p1"])
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + 4 * day).error?.code, .conflict)
    }

    // MARK: - A clock only ever behind (G1)

    /// G1 (second attack; the documented open "a clock that stays wrong across its own 23:00"):
    /// sale and full refund while the clock is two days behind, one more event a day behind (past
    /// the sale's wrong 23:00), both flows removed; at the real time, a refund by Billpocket's
    /// document of the sale (its real `approved_at`) must not refund it again.
    func testG1AClockTwoDaysBehindThenOneDayBehindNeverRefundsASaleTwice() throws {
        for behind in [2 * day, t0 - 36_000_000] {  // two days behind; an RTC reset to 1970-01-01 10:00
            coordinator = Coordinator()
            let device = t0 - behind
            try sale("p1", at: device)
            XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
            XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000).outcome, .accepted)
            XCTAssertEqual(coordinator.handle(url: approval("r1", transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
            // A later event while the clock is still wrong, but one day later (past the sale's wrong 23:00).
            XCTAssertEqual(try send(["type": "tick", "now": .integer(device + day + 180_000)]).outcome, .accepted)
            for flow in ["r1", "p1"] {
                XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)]).outcome, .accepted)
            }
            try assertOwnSnapshotRestores("G1 before the correction")
            // NTP corrects the clock; Billpocket's document of the sale (really approved at t0 + 1 s).
            let again = try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
            XCTAssertNotEqual(again.outcome, .accepted, "a second refund of a sale refunded in full")
        }
    }

    /// G1's grid (the attacker's grid.py, kept): the sale, its full refund and one later event each
    /// on a clock of its own — right, 2 h behind, a day or two behind or ahead, 1970 — the flows
    /// removed or kept; then, at the real time, Billpocket's document of the sale (its real
    /// `approved_at`). Whatever the clocks did, a sale refunded in full is never refunded again.
    func testG1NoClockCombinationRefundsASaleTwice() throws {
        let offsets: [(String, Int64)] = [("right", 0), ("2 h behind", -2 * hour), ("a day behind", -day),
                                          ("two days behind", -2 * day), ("a day ahead", day), ("two days ahead", 2 * day),
                                          ("1970", 57_600_000 - t0)]
        var cells = 0, refunded = 0
        for (saleLabel, saleClock) in offsets {
            for (refundLabel, refundClock) in offsets {
                for later in [nil] + offsets {
                    for removed in [false, true] {
                        coordinator = Coordinator()
                        let label = "sale " + saleLabel + ", refund " + refundLabel + ", later " + (later?.0 ?? "none")
                            + (removed ? ", flows removed" : "")
                        cells += 1
                        try sale("p1", at: t0 + saleClock)
                        guard coordinator.handle(url: approval("p1", transactionId: "720371"), now: t0 + saleClock + 1_000).outcome == .accepted,
                              try refund("r1", ofSaleFlow: "p1", at: t0 + 120_000 + refundClock).outcome == .accepted,
                              coordinator.handle(url: approval("r1", transactionId: "R-1"), now: t0 + 121_000 + refundClock).outcome == .accepted
                        else { continue }  // the refund was refused on its own clock (too soon, past the deadline)
                        refunded += 1
                        let lastClock = later?.1 ?? refundClock
                        if let later { try send(["type": "tick", "now": .integer(t0 + 180_000 + later.1)]) }
                        if removed {
                            for flow in ["r1", "p1"] {
                                try send(["type": "flow.remove", "now": .integer(t0 + 240_000 + lastClock), "flow_id": .string(flow)])
                            }
                        }
                        try assertOwnSnapshotRestores(label)
                        let again = try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
                        XCTAssertNotEqual(again.outcome, .accepted, label + ": a second refund of a sale refunded in full")
                    }
                }
            }
        }
        XCTAssertEqual(cells, 7 * 7 * 8 * 2)
        XCTAssertGreaterThan(refunded, 100, "most cells refund the sale once")
    }

    /// G1's state: a sale refunded in full two days behind, pruned a day behind, both flows removed —
    /// the ledger keeps only its record. Returns the snapshot.
    func refundedSaleRecordOnly() throws -> JSONObject {
        coordinator = Coordinator()
        let device = t0 - 2 * day
        try sale("p1", at: device)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
        XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000).outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("r1", transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
        try send(["type": "tick", "now": .integer(device + day + 180_000)])
        for flow in ["r1", "p1"] { try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)]) }
        guard case .object(let document) = coordinator.snapshot, case .object(let ledger)? = document["ledger"] else {
            XCTFail("no ledger")
            return [:]
        }
        XCTAssertEqual(ledger["refunded_sales"], [["720371", 10_000, 10_000]])
        return document
    }

    /// Another terminal's sale, by its document at the real time: accepted unless every refund of
    /// a sale the ledger does not hold is refused.
    func otherSaleRefundable(at time: Int64) throws -> Bool {
        try send(["type": "pos.start", "now": .integer(time), "flow_id": "o1", "token": .string(token("o1")),
                  "sale": ["transactionid": "800001", "amount": "10.00", "approved_at": .integer(t0 / 1000)],
                  "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": "o1",
                              "urlScheme": "myapp", "transactionId": "800001"]]).outcome == .accepted
    }

    /// `ledger.refunded_sales` damaged (G1's record): strict restore refuses each shape, naming it;
    /// salvage never widens — a record whose id still reads stays refunded in full, one whose id
    /// does not (or the member lost or emptied) refuses every refund by document of a sale the
    /// ledger does not hold, as a lost ledger list does.
    func testDamagedRefundedSalesNeverWidenThroughSalvage() throws {
        let document = try refundedSaleRecordOnly()
        let damages: [(String, JSONValue, Bool)] = [  // label, the member, whether other sales stay refundable
            ("amount unreadable, id reads", [["720371", "x", 10_000]], true),
            ("refunded above the amount", [["720371", 10_000, 20_000]], true),
            ("the id twice", [["720371", 10_000, 10_000], ["720371", 10_000, 5_000]], true),
            ("the id unreadable", [[7, 10_000, 10_000]], false),
            ("null", .null, false),
            ("a string", "x", false),
            ("emptied", [], false),
        ]
        for (label, member, othersStay) in damages {
            var d = document
            guard case .object(var ledger)? = d["ledger"] else { return XCTFail("no ledger") }
            ledger["refunded_sales"] = member
            d["ledger"] = .object(ledger)
            XCTAssertThrowsError(try Coordinator(snapshot: .object(d)), label) { error in
                XCTAssertTrue((error as? PayHandoffError)?.field?.hasPrefix("ledger.refunded_sales") == true, label + ": \(error)")
            }
            let salvage = try Coordinator.Salvage(snapshot: .object(d))
            XCTAssertTrue(salvage.dropped.contains { $0.member.hasPrefix("ledger.refunded_sales") }, label)
            coordinator = salvage.coordinator
            try assertOwnSnapshotRestores(label + ", salvaged")
            XCTAssertNotEqual(try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000).outcome, .accepted, label)
            XCTAssertEqual(try otherSaleRefundable(at: t0 + 700_000), othersStay, label)
        }
        // In a format-3 document the member is refused (format 4's).
        var format3 = document
        format3["version"] = 3
        format3["remembered_keys"] = nil
        format3["latest_event"] = nil
        XCTAssertThrowsError(try Coordinator(snapshot: .object(format3))) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "ledger.refunded_sales", "\(error)")
        }
    }

    /// At most 256 refunded sales: the first recorded goes when another sale leaves refunded; a
    /// snapshot with more is refused.
    func testRefundedSalesKeepTheMostRecent256() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        let synthetic: [JSONValue] = (0..<256).map { .array([.string("A-" + String($0)), 5_000, 2_500]) }
        ledger["refunded_sales"] = .array(synthetic)
        document["ledger"] = .object(ledger)
        coordinator = try Coordinator(snapshot: .object(document))
        XCTAssertEqual(coordinator.ledger.refundedSales.count, 256)
        XCTAssertEqual(coordinator.ledger.refundedSale("A-0")?.remaining.minorUnits, 2_500)
        // Sale 720372 refunded 40.00 two days behind (the restored clock), pruned a day behind.
        let device = t0 - 2 * day + hour
        try send(["type": "pos.start", "now": .integer(device), "flow_id": "q1", "token": .string(token("q1")),
                  "request": ["transaction": "venta", "usertoken": "POS-SECRET", "identifier": "q1", "amount": "100.00", "urlScheme": "myapp"]])
        XCTAssertEqual(coordinator.handle(url: approval("q1", transactionId: "720372"), now: device + 1_000).outcome, .accepted)
        try send(["type": "pos.start", "now": .integer(device + 120_000), "flow_id": "q2", "token": .string(token("q2")), "sale_flow_id": "q1",
                  "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": "q2", "urlScheme": "myapp",
                              "transactionId": "720372", "amount": "40.00"]])
        XCTAssertEqual(coordinator.handle(url: approval("q2", amount: "40.00", transactionId: "R-2"), now: device + 121_000).outcome, .accepted)
        try send(["type": "tick", "now": .integer(device + day)])
        XCTAssertEqual(coordinator.ledger.refundedSales.count, 256)
        XCTAssertNil(coordinator.ledger.refundedSale("A-0"), "the first recorded went")
        XCTAssertEqual(coordinator.ledger.refundedSale("720372")?.remaining.minorUnits, 6_000)
        try assertOwnSnapshotRestores("256 records")
        var over = document
        guard case .object(var overLedger)? = over["ledger"] else { return XCTFail("no ledger") }
        overLedger["refunded_sales"] = .array(synthetic + [["A-256", 5_000, 2_500]])
        over["ledger"] = .object(overLedger)
        XCTAssertThrowsError(try Coordinator(snapshot: .object(over)), "257 records")
    }

    /// Refunded-sale records go for room only when nothing else can and no other flow waits: a
    /// start beside a waiting hand-off that would need their room is refused (`limit_exceeded`,
    /// nothing dropped: third attack, X1); once that hand-off is given up, the start fits and
    /// the records stay. Only a limit so low that the records and one hand-off do not fit drops
    /// them, oldest first.
    func testRefundedSalesGoForRoomOnlyLastAndOldestFirst() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = .array((0..<256).map { .array([.string("A-" + String($0)), 5_000, 2_500]) })
        document["ledger"] = .object(ledger)
        coordinator = try Coordinator(snapshot: .object(document))
        let base = coordinator.reservedSnapshotLength
        try sale("w1", at: t0)
        let oneFlow = coordinator.reservedSnapshotLength
        let limit = base + (oneFlow - base) * 3 / 2  // one waiting hand-off fits beside the records, two do not
        coordinator = try Coordinator(snapshot: .object(document), snapshotLimit: limit)
        XCTAssertEqual(try sale("w1", at: t0).outcome, .accepted)
        XCTAssertEqual(coordinator.ledger.refundedSales.count, 256, "the first start fits")
        let before = coordinator
        XCTAssertEqual(try sale("w2", at: t0 + 1_000).error?.code, .limitExceeded, "records never make room for a flow beside a waiting one")
        XCTAssertEqual(coordinator, before, "a refused start changes nothing")
        XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "w1", "give_up": true]).outcome, .accepted)
        XCTAssertEqual(try sale("w2", at: t0 + 3_000).outcome, .accepted, "the ended flow makes room")
        XCTAssertEqual(coordinator.ledger.refundedSales.count, 256)
        XCTAssertLessThanOrEqual(coordinator.reservedSnapshotLength, limit)
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot, snapshotLimit: limit), coordinator)
        // A limit under the records and one hand-off: nothing else waits, so the records go, oldest first.
        let low = base + (oneFlow - base) / 2
        coordinator = try Coordinator(snapshot: .object(document), snapshotLimit: low)
        XCTAssertEqual(try sale("w1", at: t0).outcome, .accepted, "records make room when nothing else waits")
        XCTAssertLessThan(coordinator.ledger.refundedSales.count, 256)
        XCTAssertNil(coordinator.ledger.refundedSale("A-0"), "oldest first")
        XCTAssertNotNil(coordinator.ledger.refundedSale("A-255"))
        XCTAssertLessThanOrEqual(coordinator.reservedSnapshotLength, low)
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot, snapshotLimit: low), coordinator)
    }

    // MARK: - A snapshot 0.3.0 wrote after its own salvage

    /// What PayHandoff 0.3.0 (d862cce) wrote after salvaging Tests/Snapshots/v3/waiting-refund.json with its `ledger`
    /// null: the approved sale and its waiting refund kept, the ledger empty, watermark 0 (0.3.0 reported nothing
    /// dropped). This version's strict restore refuses it (reported in /work/notes/35-attack2.md, O2); its salvage
    /// keeps the sale balance unknown, so giving the refund up and refunding by Billpocket's document is refused.
    func testASnapshotThat030sSalvageWroteSalvagesWithoutWideningRefunds() throws {
        let written = #"""
{"version":3,"config":{"single_pending_per_kind":false,"checkout_timeout_ms":1800000,"pos_grace_ms":3000,"accept_unverified_callbacks":false},"flows":[{"id":"p1","type":"pos","state":"approved","operation":"venta","identifier":"ord-1","token":"00000000000000000000000000000001","answer_scheme":"myapp","amount":"100.00","grace_ms":3000,"response":{"version":1,"result":"approved","identifier":"ord-1~00000000000000000000000000000001","amount":"100.00","transactionid":"720371"},"answered_at":1796054460000},{"id":"r1","type":"pos","state":"launched","operation":"devolucion","identifier":"ref-1","token":"0000000000000000000000000000000a","answer_scheme":"myapp","amount":"100.00","sale_transactionid":"720371","grace_ms":3000}],"ledger":{"pruned_through":0,"sales":[],"refunds":[],"unknown":[]}}
"""#
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(written.utf8))
        let salvage = try Coordinator.Salvage(snapshot: document)
        coordinator = salvage.coordinator
        let approved: Int64 = 1_796_054_460_000
        XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(approved + 300_000), "flow_id": "r1", "give_up": true]).outcome, .accepted)
        XCTAssertNotEqual(try refundByDocument("r2", approvedAt: approved, at: approved + 600_000).outcome, .accepted)
        XCTAssertNotEqual(try send(["type": "pos.start", "now": .integer(approved + 600_000), "flow_id": "r3", "token": .string(token("r3")),
                                    "sale_flow_id": "p1",
                                    "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": "r3",
                                                "urlScheme": "myapp", "transactionId": "720371"]]).outcome, .accepted)
    }

    // MARK: - B5/B8 shapes, re-checked

    /// Clock two hours behind across midnight, sale refunded in full, both flows removed; after
    /// the correction the first event is a refund by Billpocket's document: refused.
    func testARefundByDocumentAfterAClockBehindAndRemovalIsRefused() throws {
        let real = t0 + 14 * hour + 30 * 60_000  // 00:30 on Dec 8
        let device = real - 2 * hour             // 22:30 on Dec 7
        try sale("p1", at: device)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
        XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000).outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("r1", transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
        for flow in ["r1", "p1"] {
            XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(device + 180_000), "flow_id": .string(flow)]).outcome, .accepted)
        }
        let again = try refundByDocument("r2", approvedAt: real + 1_000, at: real + 600_000)
        XCTAssertNotEqual(again.outcome, .accepted, "a second refund of a sale refunded in full")
    }

    /// What PayHandoff 0.3.0 (d862cce) wrote after salvaging its own v3/waiting-refund snapshot whose
    /// `ledger` was null (0.3.0 reported nothing dropped): format 3, the approved sale and the waiting
    /// refund kept, the ledger empty, watermark 0 (second attack, O2). It restores, converted: the sale
    /// stays balance unknown, so no refund by its document follows the given-up one.
    func testO2ASnapshotThatPayHandoff030sSalvageWroteRestores() throws {
        let written = #"""
{"version":3,"config":{"single_pending_per_kind":false,"checkout_timeout_ms":1800000,"pos_grace_ms":3000,"accept_unverified_callbacks":false},"flows":[{"id":"p1","type":"pos","state":"approved","operation":"venta","identifier":"ord-1","token":"00000000000000000000000000000001","answer_scheme":"myapp","amount":"100.00","grace_ms":3000,"response":{"version":1,"result":"approved","identifier":"ord-1~00000000000000000000000000000001","amount":"100.00","transactionid":"720371"},"answered_at":1796054460000},{"id":"r1","type":"pos","state":"launched","operation":"devolucion","identifier":"ref-1","token":"0000000000000000000000000000000a","answer_scheme":"myapp","amount":"100.00","sale_transactionid":"720371","grace_ms":3000}],"ledger":{"pruned_through":0,"sales":[],"refunds":[],"unknown":[]}}
"""#
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(written.utf8))
        let restored: Coordinator
        do { restored = try Coordinator(snapshot: document) } catch {
            return XCTFail("a snapshot 0.3.0 wrote is refused: " + String(describing: error))
        }
        coordinator = restored
        XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(1_796_054_460_000 + 300_000), "flow_id": "r1", "give_up": true]).outcome, .accepted)
        XCTAssertNotEqual(try refundByDocument("r2", approvedAt: 1_796_054_460_000, at: 1_796_054_460_000 + 600_000).outcome, .accepted)
        // The same shape in format 4 was edited by hand: refused.
        let format4 = written.replacingOccurrences(of: #"{"version":3,"#, with: #"{"version":4,"#)
        XCTAssertThrowsError(try Coordinator(snapshot: try JSONDecoder().decode(JSONValue.self, from: Data(format4.utf8)))) { error in
            XCTAssertTrue(String(describing: error).contains("a ledger entry was lost"), String(describing: error))
        }
    }

    /// Issue 39's other terminal apps book nothing: a Square sale approved with the transaction id
    /// of a Billpocket sale refunded in full (G1's record) leaves the record and the entries as they
    /// were, cannot be refunded app-to-app, and Billpocket's document of the refunded sale is still refused.
    func testANonBillpocketSaleWithARecordedIdLeavesTheRecordAlone() throws {
        _ = try refundedSaleRecordOnly()
        coordinator.jsonText = FoundationJSONText()
        let squareToken = token("sq")
        XCTAssertEqual(try send(["type": "pos.start", "now": .integer(t0 + 2_000), "flow_id": "sq", "token": .string(squareToken),
                                 "request": ["pos_app": "square", "client_id": "sq0idp-PUBLICAPPID", "identifier": "ord-9", "amount": "100.00",
                                             "currency": "USD", "callback_url": "myapp://square-callback"]]).outcome, .accepted)
        let (records, entries) = (coordinator.ledger.refundedSales, coordinator.ledger.entries)  // the start pruned the wrong day's entry
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, 0)
        let data = #"{"status":"ok","transaction_id":"720371","client_transaction_id":"c-1","state":"ord-9~"# + squareToken + #""}"#
        let answer = coordinator.handle(url: "myapp://square-callback/square_request?data=" + QueryEncoder.percentEncode(data), now: t0 + 60_000)
        XCTAssertEqual(answer.outcome, .accepted, answer.error?.message ?? "")
        XCTAssertEqual(coordinator.flow(id: "sq")?.stateName, "approved")
        XCTAssertEqual(coordinator.ledger.refundedSales, records)
        XCTAssertEqual(coordinator.ledger.entries, entries)
        XCTAssertEqual(try send(["type": "pos.start", "now": .integer(t0 + 200_000), "flow_id": "sqr", "token": .string(token("sqr")), "sale_flow_id": "sq",
                                 "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": "sqr", "urlScheme": "myapp",
                                             "transactionId": "720371"]]).error?.code, .notEligible)
        XCTAssertNotEqual(try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000).outcome, .accepted)
        try assertOwnSnapshotRestores("square beside a record")
    }

    /// A format-3 snapshot 0.3.0 could write — 5,000 sales partly refunded (about 200 KB of text) —
    /// now reserves more than the limit (each refunded sale's entry reserves its record): it still
    /// restores (converted, never refused for room), and what this version then writes restores.
    func testAFormat3SnapshotFullOfRefundedSalesStillRestores() throws {
        let base: Int64 = 1_796_054_460_000
        var sales: [JSONValue] = []
        for i in 0..<5_000 { sales.append([.string("72" + String(10_000_000 + i)), 10_000, 4_000, .integer(base + Int64(i))]) }
        let document: JSONValue = ["version": 3,
                                   "config": ["single_pending_per_kind": false, "checkout_timeout_ms": 1_800_000, "pos_grace_ms": 3_000,
                                              "accept_unverified_callbacks": false],
                                   "flows": [], "ledger": ["pruned_through": 0, "sales": .array(sales), "refunds": [], "unknown": []]]
        let text = try JSONEncoder().encode(document)
        XCTAssertLessThan(text.count, Coordinator.maxSnapshotBytes)
        coordinator = try Coordinator(snapshot: document)
        XCTAssertGreaterThan(coordinator.reservedSnapshotLength, Coordinator.maxSnapshotBytes, "the records' room pushes it past the limit")
        try assertOwnSnapshotRestores("format 3, 5,000 refunded sales")
        XCTAssertEqual(try send(["type": "tick", "now": .integer(base + 13 * hour)]).outcome, .accepted)  // 23:00 passes
        XCTAssertEqual(coordinator.ledger.refundedSales.count, RefundLedger.maxRefundedSales)
        try assertOwnSnapshotRestores("format 3, 5,000 refunded sales, after 23:00")
    }

    /// K1's clock with a checkout key beside the spent POS token (keys restored without
    /// `latest_event`): with no checkout, or one whose deadline (30 min, or a day) came before the
    /// event ahead, one event 4 days ahead counts as 12 hours and the spent token stays refused.
    /// (A deadline after that event starts the clock late: third attack, X4, in the note.)
    func testK1KeysWithoutTheirClockAndACheckoutKeyWhoseDeadlinePassed() throws {
        for deadline in [nil, t0 + 30 * 60_000, t0 + day] as [Int64?] {
            coordinator = Coordinator()
            let (spent, genuine) = try spendAHostToken()
            if let deadline {
                XCTAssertEqual(try send(["type": "checkout.start", "now": .integer(t0 + 3_000), "flow_id": "c1", "kind": "cards",
                                         "return_url": "fixapp://checkout-callback", "nonce": "0123456789abcdef0123456789abcdef",
                                         "deadline": .integer(deadline),
                                         "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]]).outcome, .accepted)
                try send(["type": "checkout.confirmation", "now": .integer(t0 + 4_000), "flow_id": "c1",
                          "event": ["type": "card.registered", "data": ["card_id": "card_xyz"]]])
                XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 5_000), "flow_id": "c1"]).outcome, .accepted)
            }
            guard case .object(var document) = coordinator.snapshot else { return XCTFail("not an object") }
            document["latest_event"] = nil
            coordinator = try Coordinator(snapshot: .object(document))
            try send(["type": "tick", "now": .integer(t0 + 4 * day)])
            XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict, "deadline \(String(describing: deadline))")
            XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted)
        }
    }

    /// A waiting refund (30.00) dropped by salvage (state, token or the element damaged) after its
    /// sale's entry left on a clock a day behind: its record says 20.00, but the salvage's
    /// balance-unknown marker (or the watermark, when the sale id is lost) is kept until the 23:00
    /// of the first event after it, so at the real time Billpocket's document is refused.
    func testASalvageDroppedWaitingRefundOfARecordedSaleStillBlocksDocuments() throws {
        for damage in ["state", "token", "whole"] {
            coordinator = Coordinator()
            let device = t0 - 2 * day
            try sale("p1", at: device)
            XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
            XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000, amount: "20.00").outcome, .accepted)
            XCTAssertEqual(coordinator.handle(url: approval("r1", amount: "20.00", transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
            XCTAssertEqual(try refund("r2", ofSaleFlow: "p1", at: device + 180_000, amount: "30.00").outcome, .accepted)
            try send(["type": "pos.launched", "now": .integer(device + 181_000), "flow_id": "r2"])
            try send(["type": "tick", "now": .integer(device + day + 180_000)])  // the entry leaves while r2 waits
            guard case .object(var document) = coordinator.snapshot, case .array(var flows)? = document["flows"] else { return XCTFail("no flows") }
            for (i, f) in flows.enumerated() {
                guard case .object(var flow) = f, flow["id"] == "r2" else { continue }
                switch damage {
                case "state": flow["state"] = "launchedX"
                case "token": flow["token"] = 7
                default: flow = ["id": "r2"]
                }
                flows[i] = .object(flow)
            }
            document["flows"] = .array(flows)
            let salvage = try Coordinator.Salvage(snapshot: .object(document))
            coordinator = salvage.coordinator
            XCTAssertNil(coordinator.flow(id: "r2"), damage + ": r2 dropped")
            for flow in ["r1", "p1"] where coordinator.flow(id: flow) != nil {
                try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)])
            }
            let again = try refundByDocument("d1", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "80.00", at: t0 + 600_000)
            XCTAssertNotEqual(again.outcome, .accepted, damage + ": 20.00 refunded, 30.00 maybe, then 80.00 more")
        }
    }
}

private extension Coordinator {
    /// The ids of the flows in the snapshot, in order.
    var snapshotFlowIDs: [String] {
        guard case .object(let document) = snapshot, case .array(let flows)? = document["flows"] else { return [] }
        return flows.compactMap { if case .object(let f) = $0, case .string(let id)? = f["id"] { return id } else { return nil } }
    }
}

// MARK: - Third attack (after G1/K1's fixes, 4912c17): attacks that hold

extension Attack35Tests {
    /// A refund by Billpocket's document of sale 720371 (`amount` of the document, `refund` asked).
    func refundByDocument(_ id: String, documentAmount: String, approvedAt: Int64, refund: String?, at time: Int64) throws -> CoordinatorAnswer {
        var request: JSONObject = ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": .string(id),
                                   "urlScheme": "myapp", "transactionId": "720371"]
        if let refund { request["amount"] = .string(refund) }
        return try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id), "token": .string(token(id)),
                         "sale": ["transactionid": "720371", "amount": .string(documentAmount), "approved_at": .integer(approvedAt / 1000),
                                  "bp_version": "4.3.24"],
                         "request": .object(request)])
    }

    /// Sale 720371 (100.00) and a refund of `refunded` on a clock two days behind, pruned on a day
    /// behind, both flows removed: the ledger keeps only its record.
    func partlyRefundedSaleRecordOnly(refunded: String) throws {
        coordinator = Coordinator()
        let device = t0 - 2 * day
        try sale("p1", at: device)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
        XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000, amount: refunded).outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("r1", amount: refunded, transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
        try send(["type": "tick", "now": .integer(device + day + 180_000)])
        for flow in ["r1", "p1"] { try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)]) }
        XCTAssertFalse(coordinator.ledger.entries.contains { if case .sale = $0.kind { return true } else { return false } }, "no sale entry left")
    }

    /// A refunded sale's record bounds every refund by document whatever the document says: a
    /// larger amount, a smaller one, another `approved_at`; several partial refunds after it never
    /// add up past the sale's amount.
    func testARecordBoundsRefundsByDocumentsThatDisagreeWithIt() throws {
        try partlyRefundedSaleRecordOnly(refunded: "40.00")
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, 6_000)
        let real = t0 + 1_000
        var at = t0 + 600_000
        func next() -> Int64 { at += 1_000; return at }
        // A document twice the amount: what is left is still 60.00.
        XCTAssertEqual(try refundByDocument("d1", documentAmount: "200.00", approvedAt: real, refund: "60.01", at: next()).error?.code, .notEligible)
        // A document for less: the smaller amount counts (50.00 - 40.00).
        XCTAssertEqual(try refundByDocument("d2", documentAmount: "50.00", approvedAt: real, refund: "10.01", at: next()).error?.code, .notEligible)
        // A document dated a day earlier: past its window.
        XCTAssertEqual(try refundByDocument("d3", documentAmount: "100.00", approvedAt: real - day, refund: "1.00", at: next()).error?.code, .notEligible)
        // Nothing was booked by the refused starts.
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, 6_000)
        XCTAssertFalse(coordinator.ledger.entries.contains { if case .sale = $0.kind { return true } else { return false } })
        // Two partial refunds by document (the first takes the record back into an entry).
        XCTAssertEqual(try refundByDocument("d4", documentAmount: "100.00", approvedAt: real, refund: "30.00", at: next()).outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("d4", amount: "30.00", transactionId: "R-4"), now: next()).outcome, .accepted)
        XCTAssertNil(coordinator.ledger.refundedSale("720371"), "taken back into its entry")
        XCTAssertEqual(coordinator.ledger.entry("720371", at: at)?.remaining.minorUnits, 3_000)
        XCTAssertEqual(try refundByDocument("d5", documentAmount: "300.00", approvedAt: real, refund: "30.01", at: next()).error?.code, .notEligible)
        XCTAssertEqual(try refundByDocument("d6", documentAmount: "100.00", approvedAt: real + 60_000, refund: "30.00", at: next()).outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("d6", amount: "30.00", transactionId: "R-6"), now: next()).outcome, .accepted)
        XCTAssertEqual(try refundByDocument("d7", documentAmount: "100.00", approvedAt: real, refund: nil, at: next()).error?.code, .invalidState)
        try assertOwnSnapshotRestores("record bounds documents")
        // Past the real 23:00 the entry leaves again: its record keeps the sale refunded in full.
        try send(["type": "tick", "now": .integer(t0 + 13 * hour + 60_000)])
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, 0)
        try assertOwnSnapshotRestores("record bounds documents, after 23:00")
    }

    /// A fresh coordinator whose clock is two days behind: sale p1 (720371, 100.00) approved,
    /// `earlier` refunded of it first (r1, or nothing), then a refund of 30.00 (r2) launched and
    /// still waiting when a tick a day later makes the sale's entry leave the ledger.
    /// - Returns: The device clock of the sale.
    private func saleWithARefundWaitingAsItsEntryLeaves(earlier: String?) throws -> Int64 {
        coordinator = Coordinator()
        let device = t0 - 2 * day
        try sale("p1", at: device)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
        if let earlier {
            XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000, amount: earlier).outcome, .accepted)
            XCTAssertEqual(coordinator.handle(url: approval("r1", amount: earlier, transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
        }
        XCTAssertEqual(try refund("r2", ofSaleFlow: "p1", at: device + 180_000, amount: "30.00").outcome, .accepted)
        try send(["type": "pos.launched", "now": .integer(device + 181_000), "flow_id": "r2"])
        try send(["type": "tick", "now": .integer(device + day + 180_000)])
        return device
    }

    /// A refund approved after its sale's entry left (it waited while a day-behind clock passed the
    /// sale's 23:00): it adds to the record; with no refund before, it records what it took as the
    /// sale's whole amount. Either way a refund by document afterwards takes at most what is left.
    func testARefundApprovedAfterItsSalesEntryLeftAddsToTheRecord() throws {
        for earlier in ["20.00", nil] as [String?] {
            let device = try saleWithARefundWaitingAsItsEntryLeaves(earlier: earlier)
            XCTAssertNil(coordinator.ledger.entry("720371", at: device + day + 180_000).flatMap { $0.kind == .balanceUnknown ? nil : $0 })
            XCTAssertEqual(coordinator.handle(url: approval("r2", amount: "30.00", transactionId: "R-2"), now: device + day + 200_000).outcome, .accepted)
            // 20.00 + 30.00 refunded of 100.00; with nothing known before, refunded in full as far as the ledger knows.
            let left: Amount? = coordinator.ledger.refundedSale("720371")?.remaining
            XCTAssertEqual(left?.minorUnits, earlier == nil ? Int64(0) : Int64(5_000))
            for flow in ["r2", "r1", "p1"] where coordinator.flow(id: flow) != nil {
                XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)]).outcome, .accepted)
            }
            try assertOwnSnapshotRestores("refund after the entry left")
            XCTAssertNotEqual(try refundByDocument("d1", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "50.01", at: t0 + 600_000).outcome,
                              .accepted, "more than is left")
            XCTAssertEqual(try refundByDocument("d2", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "50.00", at: t0 + 601_000).outcome,
                           earlier == nil ? .rejected : .accepted)
        }
    }

    /// A record and a sale entry for the same id (hand-made, or an older salvage): strict restore
    /// refuses it; salvage merges them, keeping the larger refunded total on the smaller amount.
    func testARecordAndAnEntryForOneSaleMergeInSalvage() throws {
        coordinator = Coordinator()
        try sale("p1", at: t0)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: t0 + 1_000).outcome, .accepted)
        guard case .object(var document) = coordinator.snapshot, case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = [["720371", 10_000, 10_000]]
        document["ledger"] = .object(ledger)
        XCTAssertThrowsError(try Coordinator(snapshot: .object(document))) { error in
            XCTAssertTrue((error as? PayHandoffError)?.field?.hasPrefix("ledger.refunded_sales") == true, "\(error)")
        }
        let salvage = try Coordinator.Salvage(snapshot: .object(document))
        coordinator = salvage.coordinator
        try assertOwnSnapshotRestores("merged")
        XCTAssertEqual(coordinator.ledger.entry("720371", at: t0 + 2_000)?.remaining.minorUnits ?? 0, 0)
        XCTAssertNotEqual(try refund("r1", ofSaleFlow: "p1", at: t0 + 120_000).outcome, .accepted)
        XCTAssertNotEqual(try refundByDocument("d1", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "1.00", at: t0 + 130_000).outcome, .accepted)
    }
}

// Third attack (notes/35-attack3.md): cases that broke on 4912c17, fixed in h35x.
extension Attack35Tests {
    /// X6: `ledger.refunded_sales` renamed by damage (one byte: `refunded_salds`): strict restore
    /// refuses the unknown member, but salvage drops it as an unknown ledger member and reads the
    /// ledger as having no records (an absent member is valid) - the sale refunded in full is
    /// refunded again.
    func testX6RefundedSalesRenamedSalvageLosesTheRecord() throws {
        let document = try refundedSaleRecordOnly()
        for name in ["refunded_salds", "Refunded_sales", "refunded_sales "] {
            var d = document
            guard case .object(var ledger)? = d["ledger"] else { return XCTFail("no ledger") }
            ledger[name] = ledger["refunded_sales"]
            ledger["refunded_sales"] = nil
            d["ledger"] = .object(ledger)
            XCTAssertThrowsError(try Coordinator(snapshot: .object(d)), name)
            let salvage = try Coordinator.Salvage(snapshot: .object(d))
            XCTAssertTrue(salvage.dropped.contains { $0.member == "ledger.refunded_sales" }, name + ": the records are reported lost")
            coordinator = salvage.coordinator
            try assertOwnSnapshotRestores(name + ", salvaged")
            let again = try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
            XCTAssertNotEqual(again.outcome, .accepted, name + ": salvage dropped " + salvage.dropped.map { $0.member }.joined(separator: ", ")
                              + " and a sale refunded in full is refunded again")
        }
    }


    /// left while it waited (kept as balance unknown because the refund names it): `book` takes
    /// "what is left" from that balance-unknown entry (0), so the refund books NOTHING - the record
    /// keeps 20.00 of 100.00 when 100.00 were refunded, and a refund by document pays 50.00 more.
    func testX8AMismatchedRefundApprovedAfterTheEntryLeftIsUndercounted() throws {
        coordinator = Coordinator()
        let device = t0 - 2 * day
        try sale("p1", at: device)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
        XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: device + 120_000, amount: "20.00").outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("r1", amount: "20.00", transactionId: "R-1"), now: device + 121_000).outcome, .accepted)
        XCTAssertEqual(try refund("r2", ofSaleFlow: "p1", at: device + 180_000, amount: "30.00").outcome, .accepted)
        try send(["type": "pos.launched", "now": .integer(device + 181_000), "flow_id": "r2"])
        try send(["type": "tick", "now": .integer(device + day + 180_000)])  // the sale's entry leaves while r2 waits
        // Billpocket answers that it refunded 80.00 (all that was left), not 30.00.
        let answer = coordinator.handle(url: approval("r2", amount: "80.00", transactionId: "R-2"), now: device + day + 200_000)
        XCTAssertEqual(answer.outcome, .accepted, answer.error?.message ?? "")
        for flow in ["r2", "r1", "p1"] where coordinator.flow(id: flow) != nil {
            try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)])
        }
        // 20.00 + 80.00 were refunded: the record says so, and nothing is left.
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.refunded.minorUnits, 10_000)
        let again = try refundByDocument("d1", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "50.00", at: t0 + 600_000)
        XCTAssertNotEqual(again.outcome, .accepted, "20.00 + 80.00 refunded, then 50.00 more")
    }

    /// X1: G1's record dropped for room. Sale refunded in full two days behind, pruned a day behind,
    /// flows removed (the ledger keeps only its record). At the real time, the host starts POS sales
    /// that wait (never answered): with no ended flow and no entry left, each start dropped records
    /// (before h35x; now such a start is `limit_exceeded`); the host gives them up; then
    /// Billpocket's document of the refunded sale.
    func testX1G1RecordDroppedForRoomRefundsASaleTwice() throws {
        _ = try refundedSaleRecordOnly()
        var started = 0, time = t0 + 2_000
        /// A waiting sale with an identifier of `length` characters, tried on a copy: the
        /// coordinator after it and what it reserved, or nil when refused.
        func trial(_ length: Int) throws -> (after: Coordinator, took: Int)? {
            let saved = coordinator
            defer { coordinator = saved }
            let before = coordinator.reservedSnapshotLength
            guard try sale("w" + String(started), identifier: String(repeating: "i", count: length), at: time + 10).outcome == .accepted else { return nil }
            return (coordinator, coordinator.reservedSnapshotLength - before)
        }
        func take(_ t: (after: Coordinator, took: Int)) { coordinator = t.after; started += 1; time += 10 }
        // Waiting sales fill the snapshot (a start that cannot fit is refused and drops nothing).
        while let t = try trial(1) { take(t) }
        // Twelve of them given up (their tokens stay remembered); waiting sales again, their
        // identifiers' lengths chosen so that the last one fits only once the record goes.
        for i in (started - 12)..<started {
            XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(time), "flow_id": .string("w" + String(i)), "give_up": true]).outcome, .accepted)
        }
        let rMin = try XCTUnwrap(trial(1)).took, rMax = try XCTUnwrap(trial(120)).took
        let count = (coordinator.snapshotLimit - coordinator.reservedSnapshotLength + 22) / rMin
        for left in stride(from: count, to: 1, by: -1) {
            var chosen: (after: Coordinator, took: Int)? = nil
            for length in stride(from: 120, to: 0, by: -1) {
                guard let t = try trial(length) else { continue }
                if t.after.snapshotLimit - t.after.reservedSnapshotLength >= (left - 1) * rMin - 22 { chosen = t; break }
            }
            take(try XCTUnwrap(chosen))
        }
        let slack = coordinator.snapshotLimit - coordinator.reservedSnapshotLength
        for length in 1...120 {
            if let t = try trial(length), t.after.ledger.refundedSale("720371") == nil { take(t); break }
        }
        // Fixed (h35x): a start beside waiting flows that needs the record's room is refused instead.
        XCTAssertNotNil(coordinator.ledger.refundedSale("720371"), "the record went for room (\(started) waiting starts, slack \(slack), \(rMin)...\(rMax))")
        for i in 0..<started where coordinator.flow(id: "w" + String(i)) != nil {
            XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 300_000), "flow_id": .string("w" + String(i)),
                                     "give_up": true]).outcome, .accepted)
        }
        try assertOwnSnapshotRestores("X1")
        let again = try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
        XCTAssertNotEqual(again.outcome, .accepted, "after \(started) waiting starts: a second refund of a sale refunded in full")
    }

    /// X1, the salvage side: a salvage whose records do not fit its limit leaves them out (no flow
    /// waits), and treats `refunded_sales` as lost: reported, and the document of the sale refunded
    /// in full is refused (the watermark past every time), not refunded again.
    func testX1ASalvageThatLeavesRecordsOutForRoomTreatsThemAsLost() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = .array([["720371", 10_000, 10_000]] + (0..<200).map { .array([.string("A-" + String($0)), 5_000, 2_500]) })
        document["ledger"] = .object(ledger)
        let full = try Coordinator(snapshot: .object(document)).reservedSnapshotLength
        let salvage = try Coordinator.Salvage(snapshot: .object(document), snapshotLimit: full - 1_000)
        coordinator = salvage.coordinator
        XCTAssertNil(coordinator.ledger.refundedSale("720371"), "the oldest record left out")
        XCTAssertTrue(salvage.dropped.contains { $0.member == "ledger.refunded_sales" }, "reported")
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot, snapshotLimit: full - 1_000), coordinator)
        let again = try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
        XCTAssertNotEqual(again.outcome, .accepted, "a sale refunded in full, refunded again after a salvage left its record out")
    }

    /// X4 (K1 again): keys without their clock, one of them a checkout's whose host-given deadline
    /// (5 days) is after the first event: the clock starts at that event (min(now, deadline)), so
    /// one event 4 days ahead ends the spent POS token's horizon with no jump counted.
    func testX4K1ACheckoutKeyWithALaterDeadlineStartsTheClockLate() throws {
        // A host-given deadline of 5 days, and of 3 days (an OXXO voucher's default life) and 10 s.
        for (deadline, ahead) in [(t0 + 5 * day, t0 + 4 * day), (t0 + 3 * day + 10_000, t0 + 3 * day + 9_000)] {
            coordinator = Coordinator()
            let (spent, genuine) = try spendAHostToken()
            let nonce = "0123456789abcdef0123456789abcdef"
            XCTAssertEqual(try send(["type": "checkout.start", "now": .integer(t0 + 3_000), "flow_id": "c1", "kind": "cards",
                                     "return_url": "fixapp://checkout-callback", "nonce": .string(nonce), "deadline": .integer(deadline),
                                     "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]]).outcome, .accepted)
            try send(["type": "checkout.confirmation", "now": .integer(t0 + 4_000), "flow_id": "c1",
                      "event": ["type": "card.registered", "data": ["card_id": "card_xyz"]]])
            XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 5_000), "flow_id": "c1"]).outcome, .accepted)
            guard case .object(var document) = coordinator.snapshot else { return XCTFail("not an object") }
            XCTAssertNotNil(document["latest_event"])
            document["latest_event"] = nil  // keys without their clock (K1's shape)
            coordinator = try Coordinator(snapshot: .object(document))
            try send(["type": "tick", "now": .integer(ahead)])  // one event, days ahead
            XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict,
                           "deadline \((deadline - t0) / 1000) s: one event \((ahead - t0) / 1000) s ahead freed the spent token")
            XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted)
        }
    }
}

// MARK: - Fourth attack (h35x's fixes: X6, X8, X4, X1, and the \u rule)

extension Attack35Tests {
    /// A refund by Billpocket's document of sale 720371 (100.00) with a token the coordinator makes
    /// (a salvage's lock on host-given keys does not hide the ledger's answer).
    func refundByDocumentOwnToken(_ id: String, approvedAt: Int64, at time: Int64) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id),
                  "sale": ["transactionid": "720371", "amount": "100.00", "approved_at": .integer(approvedAt / 1000), "bp_version": "4.3.24"],
                  "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": .string(id),
                              "urlScheme": "myapp", "transactionId": "720371"]])
    }

    /// The G1 state's document with `damage` applied to its ledger object.
    func damagedLedger(_ damage: (inout JSONObject, inout JSONObject) -> Void) throws -> JSONObject {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { XCTFail("no ledger"); return [:] }
        damage(&document, &ledger)
        document["ledger"] = .object(ledger)
        return document
    }

    /// X6's rule, its cost: a format-4 ledger with no records and a harmless unknown member. Salvage
    /// refuses every refund by document of a sale the ledger does not hold (the member may be
    /// `refunded_sales` renamed), but a sale the ledger holds is still refunded by its flow.
    func testA4X6AHarmlessUnknownMemberOnlyRefusesSalesTheLedgerDoesNotHold() throws {
        coordinator = Coordinator()
        try sale("p1", at: t0)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: t0 + 1_000).outcome, .accepted)
        guard case .object(var document) = coordinator.snapshot, case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        XCTAssertNil(ledger["refunded_sales"])
        ledger["note"] = "hello"
        document["ledger"] = .object(ledger)
        XCTAssertThrowsError(try Coordinator(snapshot: .object(document)))
        let salvage = try Coordinator.Salvage(snapshot: .object(document))
        XCTAssertTrue(salvage.dropped.contains { $0.member == "ledger.refunded_sales" })
        coordinator = salvage.coordinator
        XCTAssertFalse(try otherSaleRefundable(at: t0 + 60_000), "another terminal's sale: refused")
        XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: t0 + 120_000, amount: "30.00").outcome, .accepted, "the held sale: refundable")
        XCTAssertEqual(coordinator.handle(url: approval("r1", amount: "30.00", transactionId: "R-1"), now: t0 + 121_000).outcome, .accepted)
        try assertOwnSnapshotRestores("harmless unknown member, salvaged")
    }

    /// X6's neighbours: `refunded_sales` emptied, null, an object; a case-variant duplicate (empty or
    /// with another record) beside the real one; the records copied into another member while the
    /// real one stays. None refunds the sale refunded in full again.
    func testA4X6RefundedSalesDamagedBesideItsRealSelfNeverWidens() throws {
        let shapes: [(String, (inout JSONObject, inout JSONObject) -> Void)] = [
            ("emptied", { _, l in l["refunded_sales"] = [] }),
            ("null", { _, l in l["refunded_sales"] = .null }),
            ("object", { _, l in l["refunded_sales"] = ["720371": [10_000, 10_000]] }),
            ("case-variant duplicate, empty", { _, l in l["Refunded_sales"] = [] }),
            ("case-variant duplicate, another record", { _, l in l["Refunded_sales"] = [["720372", 100, 0]] }),
            ("copied under another name too", { _, l in l["refunded_sales2"] = l["refunded_sales"] }),
        ]
        for (label, damage) in shapes {
            let document = try damagedLedger(damage)
            XCTAssertThrowsError(try Coordinator(snapshot: .object(document)), label)
            coordinator = try Coordinator.Salvage(snapshot: .object(document)).coordinator
            try assertOwnSnapshotRestores(label + ", salvaged")
            let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
            XCTAssertTrue([.notEligible, .invalidState].contains(again.error?.code), label + ": \(again.outcome) " + (again.error?.message ?? ""))
        }
    }

    /// X8 with mismatched answers one after another (only one refund of a sale may wait at a
    /// time): after the sale's entry left, one answered below what was asked (10.00 of 30.00), then
    /// a refund by document answered above (80.00 of 30.00), 20.00 refunded before (or nothing).
    /// The ledger ends with the sale refunded in full; a refund by document is refused.
    func testA4X8MismatchedRefundsOneAfterAnotherNeverUndercount() throws {
        for earlier in ["20.00", nil] as [String?] {
            let device = try saleWithARefundWaitingAsItsEntryLeaves(earlier: earlier)
            XCTAssertEqual(coordinator.handle(url: approval("r2", amount: "10.00", transactionId: "R-2"), now: device + day + 200_000).outcome, .accepted)
            for flow in ["r2", "r1", "p1"] where coordinator.flow(id: flow) != nil {
                try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)])
            }
            let label = String(describing: earlier)
            XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, earlier == nil ? 0 : 5_000, label)
            if earlier != nil {
                // The sale booked again by its document; Billpocket refunds 80.00 where 30.00 was asked.
                XCTAssertEqual(try refundByDocument("d1", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "30.00", at: t0 + 600_000).outcome,
                               .accepted, label)
                XCTAssertEqual(coordinator.handle(url: approval("d1", amount: "80.00", transactionId: "R-3"), now: t0 + 601_000).outcome, .accepted)
                XCTAssertEqual(coordinator.ledger.entry("720371", at: t0 + 601_000)?.remaining.minorUnits, 0, label)
                try send(["type": "flow.remove", "now": .integer(t0 + 602_000), "flow_id": "d1"])
            }
            try assertOwnSnapshotRestores("mismatches one after another")
            XCTAssertNotEqual(try refundByDocument("d2", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "0.01", at: t0 + 700_000).outcome,
                              .accepted, label)
            try send(["type": "tick", "now": .integer(t0 + 13 * hour + 60_000)])
            XCTAssertNotEqual(try refundByDocument("d3", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "0.01", at: t0 + 13 * hour + 61_000).outcome,
                              .accepted, label + ", after 23:00")
        }
    }

    /// X8, the record absent: one refund asked 30.00 answered 10.00 after the entry left (no refund
    /// before): the record says 30.00 of 30.00; the sale booked again from its document (100.00)
    /// takes the record back: nothing is left, a refund of any amount is refused, before and after
    /// the real 23:00.
    func testA4X8ARecordOfWhatARefundTookBoundsTheSaleBookedAgain() throws {
        coordinator = Coordinator()
        let device = t0 - 2 * day
        try sale("p1", at: device)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: device + 1_000).outcome, .accepted)
        XCTAssertEqual(try refund("r2", ofSaleFlow: "p1", at: device + 180_000, amount: "30.00").outcome, .accepted)
        try send(["type": "pos.launched", "now": .integer(device + 181_000), "flow_id": "r2"])
        try send(["type": "tick", "now": .integer(device + day + 180_000)])
        XCTAssertEqual(coordinator.handle(url: approval("r2", amount: "10.00", transactionId: "R-2"), now: device + day + 200_000).outcome, .accepted)
        for flow in ["r2", "p1"] { try send(["type": "flow.remove", "now": .integer(device + day + 240_000), "flow_id": .string(flow)]) }
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.refunded.minorUnits, 3_000)
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, 0)
        for (id, refund) in [("d1", "70.00"), ("d2", "0.01"), ("d3", nil)] as [(String, String?)] {
            XCTAssertNotEqual(try refundByDocument(id, documentAmount: "100.00", approvedAt: t0 + 1_000, refund: refund, at: t0 + 600_000).outcome,
                              .accepted, id)
        }
        try send(["type": "tick", "now": .integer(t0 + 13 * hour + 60_000)])
        XCTAssertNotEqual(try refundByDocument("d4", documentAmount: "100.00", approvedAt: t0 + 1_000, refund: "0.01", at: t0 + 13 * hour + 61_000).outcome,
                          .accepted)
        try assertOwnSnapshotRestores("record of what a refund took")
    }

    /// X4's anchor with keys whose until is in the past (a checkout whose deadline passed long ago),
    /// far in the future (a deadline years ahead), or both beside the spent POS token: one event
    /// 4 days ahead, then a minute later, never frees the token.
    func testA4X4MixedKeysWithoutTheirClockNeverFreeASpentToken() throws {
        let deadlines: [[Int64]] = [[t0 + 4_000 + 60_000], [t0 + 3_000 * day], [t0 + 5 * day, t0 + 20 * day], [t0 + 4_000 + 60_000, t0 + 3_000 * day]]
        for set in deadlines {
            coordinator = Coordinator()
            let (spent, genuine) = try spendAHostToken()
            for (index, deadline) in set.enumerated() {
                let flow = "c" + String(index)
                let nonce = String(repeating: String(index), count: 32)
                XCTAssertEqual(try send(["type": "checkout.start", "now": .integer(t0 + 3_000), "flow_id": .string(flow), "kind": "cards",
                                         "return_url": "fixapp://checkout-callback", "nonce": .string(nonce), "deadline": .integer(deadline),
                                         "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]]).outcome, .accepted)
                try send(["type": "checkout.confirmation", "now": .integer(t0 + 4_000), "flow_id": .string(flow),
                          "event": ["type": "card.registered", "data": ["card_id": "card_xyz"]]])
                XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 5_000), "flow_id": .string(flow)]).outcome, .accepted)
            }
            guard case .object(var document) = coordinator.snapshot else { return XCTFail("not an object") }
            document["latest_event"] = nil
            coordinator = try Coordinator(snapshot: .object(document))
            try send(["type": "tick", "now": .integer(t0 + 4 * day)])
            try send(["type": "tick", "now": .integer(t0 + 4 * day + 60_000)])
            XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict, "\(set.map { ($0 - t0) / 1000 })")
            XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted)
        }
    }

    /// X4 with the clock kept: `latest_event` present while a checkout key's until is far later (a
    /// deadline 30 days ahead): an event 4 days ahead then a minute later still counts as 12 hours
    /// for the spent POS token (the anchor is only for keys without their clock).
    func testA4X4ALatestEventBesideAFarLaterKeyKeepsCounting() throws {
        coordinator = Coordinator()
        let (spent, genuine) = try spendAHostToken()
        XCTAssertEqual(try send(["type": "checkout.start", "now": .integer(t0 + 3_000), "flow_id": "c1", "kind": "cards",
                                 "return_url": "fixapp://checkout-callback", "nonce": "0123456789abcdef0123456789abcdef",
                                 "deadline": .integer(t0 + 30 * day),
                                 "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]]).outcome, .accepted)
        try send(["type": "flow.remove", "now": .integer(t0 + 5_000), "flow_id": "c1", "give_up": true])
        coordinator = try Coordinator(snapshot: coordinator.snapshot)
        try send(["type": "tick", "now": .integer(t0 + 4 * day)])
        try send(["type": "tick", "now": .integer(t0 + 4 * day + 60_000)])
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict)
        XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted)
    }

    /// The same at 1 ms: the clock is known (1), so the jump counts as 12 hours.
    func testA4X4KeysSpentAtEpochOneMillisecondKeepTheirClock() throws {
        coordinator = Coordinator()
        let spent = token("x")
        let genuine = approval("p1", identifier: "ord-1", token: spent, transactionId: "555")
        XCTAssertEqual(try sale("p1", identifier: "ord-1", token: spent, at: 1).outcome, .accepted)
        try send(["type": "pos.launched", "now": 1, "flow_id": "p1"])
        XCTAssertEqual(coordinator.handle(url: genuine, now: 1).outcome, .accepted)
        XCTAssertEqual(try send(["type": "flow.remove", "now": 1, "flow_id": "p1"]).outcome, .accepted)
        try send(["type": "tick", "now": .integer(t0)])
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + 1_000).error?.code, .conflict)
        XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + 2_000).outcome, .accepted)
    }

    /// X1 in ordinary use: 256 records of 128-byte ids at the default limit, one hand-off waiting:
    /// a second start fits (records are never dropped), and the record still refuses.
    func testA4X1OneWaitingHandOffBeside256LongRecordsStillStarts() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = .array((0..<255).map { .array([.string(String(repeating: "9", count: 120) + String(100_000 + $0)), 5_000, 2_500]) }
                                          + [["720371", 10_000, 10_000]])
        document["ledger"] = .object(ledger)
        coordinator = try Coordinator(snapshot: .object(document))
        XCTAssertEqual(try sale("w1", at: t0 + 1_000).outcome, .accepted)
        XCTAssertEqual(try sale("w2", at: t0 + 2_000).outcome, .accepted)
        XCTAssertEqual(coordinator.ledger.refundedSales.count, 256)
        XCTAssertNotEqual(try refundByDocument("r2", approvedAt: t0 + 1_000, at: t0 + 600_000).outcome, .accepted)
    }

    /// X1's way out at a low limit (Swift API): records fill it, one hand-off waits, a second start
    /// is refused (`limit_exceeded`) and changes nothing; giving the waiting one up lets the start
    /// through (records then drop, oldest first). Never blocked for good.
    func testA4X1ALowLimitFullOfRecordsAlwaysHasAWayOut() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = .array([["720371", 10_000, 10_000]] + (0..<255).map { .array([.string(String(repeating: "9", count: 100) + String($0)), 5_000, 2_500]) })
        document["ledger"] = .object(ledger)
        let limit = try Coordinator(snapshot: .object(document)).reservedSnapshotLength + 2_000
        coordinator = try Coordinator(snapshot: .object(document), snapshotLimit: limit)
        XCTAssertEqual(try sale("w1", at: t0 + 1_000).outcome, .accepted, "one hand-off, nothing else waiting")
        let before = coordinator
        XCTAssertEqual(try sale("w2", at: t0 + 2_000).error?.code, .limitExceeded)
        XCTAssertEqual(coordinator, before, "a refused start changes nothing")
        XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 3_000), "flow_id": "w1", "give_up": true]).outcome, .accepted)
        XCTAssertEqual(try sale("w2", at: t0 + 4_000).outcome, .accepted, "after giving up the waiting hand-off")
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot, snapshotLimit: limit), coordinator)
    }

    /// The `\u` rule (7bfa123): every snapshot the library prints — with strings holding every
    /// control character, U+0000 (printed text), a backslash before `u00`, quotes and non-BMP text — reads back
    /// through the C ABI's reader (cJSON prints `\u` with four hex digits, U+0000 as `\u0000`).
    func testA4PrintedSnapshotsWithControlCharactersReadBackThroughTheCReader() throws {
        var text = ""
        for scalar in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        text += "\\u00:0x \\u \\\\u0000 \" / \u{7F} é 😀 \u{FFFF}"
        let value: JSONValue = ["a": .string(text), .init(stringLiteral: text): [.string(text)]]
        let printed = JSONText.render(value)
        XCTAssertEqual(try JSONText.parse(printed, parameter: "snapshot"), value)
        // A POS answer whose free-text fields carry such text, kept in the snapshot.
        coordinator = Coordinator()
        try sale("p1", at: t0)
        let encoded = "%01%1F%5Cu00%3A0x%5Cu%22%5C%5C"
        let answer = coordinator.handle(url: approval("p1", transactionId: "720371") + "&name=" + encoded + "&zz=" + encoded + "&bank=%5Cud800",
                                        now: t0 + 1_000)
        XCTAssertEqual(answer.outcome, .accepted, answer.error?.message ?? "")
        let snapshot = JSONText.render(coordinator.snapshot)
        XCTAssertEqual(try Coordinator(snapshot: JSONText.parse(snapshot, parameter: "snapshot")), coordinator)
        // Foundation's writer (`snapshotData`, JSONEncoder) reads back through the C reader too.
        let data = String(decoding: coordinator.snapshotData, as: UTF8.self)
        XCTAssertEqual(try Coordinator(snapshot: JSONText.parse(data, parameter: "snapshot")), coordinator)
    }
}

extension Attack35Tests {
    /// `refunded_sales` moved into another ledger list (`unknown`, `sales`): the records' ids are
    /// kept as balance unknown (a recovery's record, kept until 23:00 of the first event after
    /// it, or for good): the document is refused (ledger_pruned) with a coordinator-made token.
    func testA4X6RefundedSalesMovedOutOfTheLedger() throws {
        let shapes: [(String, (inout JSONObject, inout JSONObject) -> Void)] = [
            ("moved into the unknown list", { _, l in
                if case .array(let records)? = l["refunded_sales"], case .array(let unknown)? = l["unknown"] { l["unknown"] = .array(unknown + records) }
                l["refunded_sales"] = nil }),
            ("moved into the sales list", { _, l in
                if case .array(let records)? = l["refunded_sales"], case .array(let sales)? = l["sales"] { l["sales"] = .array(sales + records) }
                l["refunded_sales"] = nil }),
        ]
        for (label, damage) in shapes {
            let document = try damagedLedger(damage)
            XCTAssertThrowsError(try Coordinator(snapshot: .object(document)), label)
            let salvage = try Coordinator.Salvage(snapshot: .object(document))
            coordinator = salvage.coordinator
            try assertOwnSnapshotRestores(label + ", salvaged")
            let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
            XCTAssertTrue([.notEligible, .invalidState].contains(again.error?.code), label + ": \(again.outcome) " + (again.error?.message ?? "") + "; dropped " + salvage.dropped.map { $0.member }.joined(separator: ", "))
        }
    }
}

extension Attack35Tests {
    /// X6's rule is format 4's: the same document with `version` damaged to 3 (0.3.0's number),
    /// records intact: salvage still reads them (refused, the sale refunded in full).
    func testA4X6AVersionDamagedTo3StillReadsTheRecords() throws {
        let document = try damagedLedger { d, _ in d["version"] = 3 }
        let salvage = try Coordinator.Salvage(snapshot: .object(document))
        coordinator = salvage.coordinator
        XCTAssertEqual(coordinator.ledger.refundedSale("720371")?.remaining.minorUnits, 0)
        let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
        XCTAssertTrue([.notEligible, .invalidState].contains(again.error?.code), "\(again.outcome) " + (again.error?.message ?? ""))
    }

    /// X1's way out with an expired checkout (expired checkouts are never forgotten for room and
    /// count as waiting): at a low limit full of records, an expired checkout and a start: refused;
    /// removing the expired checkout (given up) lets the start through.
    func testA4X1AnExpiredCheckoutBesideRecordsCanBeGivenUp() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = .array([["720371", 10_000, 10_000]] + (0..<255).map { .array([.string(String(repeating: "9", count: 100) + String($0)), 5_000, 2_500]) })
        document["ledger"] = .object(ledger)
        let limit = try Coordinator(snapshot: .object(document)).reservedSnapshotLength + 2_000
        coordinator = try Coordinator(snapshot: .object(document), snapshotLimit: limit)
        XCTAssertEqual(try send(["type": "checkout.start", "now": .integer(t0 + 1_000), "flow_id": "c1", "kind": "cards",
                                 "return_url": "fixapp://checkout-callback", "nonce": "0123456789abcdef0123456789abcdef",
                                 "deadline": .integer(t0 + 60_000),
                                 "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]]).outcome, .accepted)
        try send(["type": "tick", "now": .integer(t0 + 120_000)])
        let start = try sale("w1", at: t0 + 121_000)
        XCTAssertEqual(start.error?.code, .limitExceeded, "the expired checkout counts as waiting")
        do {
            let removed = try send(["type": "flow.remove", "now": .integer(t0 + 122_000), "flow_id": "c1", "give_up": true])
            XCTAssertEqual(removed.outcome, .accepted, removed.error?.message ?? "")
            let again = try sale("w1", at: t0 + 123_000)
            XCTAssertEqual(again.outcome, .accepted, again.error?.message ?? "")
        }
    }
}
