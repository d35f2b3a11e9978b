@_spi(JSONText) import PayHandoff
@_spi(JSONText) import PayHandoffABI
import Foundation
import XCTest

// Fifth attack on issue 35 (edb70a7, a92ba5f, e5563b7: B11's measure, `config` refused when
// absent or null, a nameless refunded sale's watermark, FuzzSalvage's scope): attacks that HOLD
// at c0598c3, kept as regression tests. The ones that broke are in /work/notes/35-attack5.md.
extension Attack35Tests {
    /// The fixtures' day, 2026-11-30 10:00 Mexico City (Tests/Snapshots).
    var fixtureDay: Int64 { 1_796_054_400_000 }

    func snapshotFixture(_ name: String) throws -> JSONObject {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")
        guard case .object(let document) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: folder.appendingPathComponent(name))) else {
            XCTFail(name + " is not an object")
            return [:]
        }
        return document
    }

    /// The text the C ABI prints for the coordinator's snapshot (cJSON), its length, and the
    /// checks every printed snapshot must pass: within what `_restore` reads, exactly the length
    /// the budget's counter (``JSONLengthCounter``) gives, and read back through cJSON and restored
    /// to an equal coordinator (salvage too, nothing dropped) when `restore` is set.
    @discardableResult
    func assertPrintedSnapshotRestores(_ c: Coordinator, _ label: String, restore: Bool = true,
                                       file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let text = JSONText.render(c.snapshot)
        let printed = text.utf8.count
        XCTAssertLessThanOrEqual(printed, Coordinator.maxSnapshotBytes, label + ": printed past what restore reads", file: file, line: line)
        XCTAssertEqual(JSONLengthCounter.length { c.writeSnapshot(to: $0) }, printed, label + ": the counter is not cJSON's length", file: file, line: line)
        if restore {
            let read = try JSONText.parse(text, parameter: "snapshot", limit: Coordinator.maxSnapshotBytes)
            XCTAssertEqual(try Coordinator(snapshot: read), c, label, file: file, line: line)
            let salvage = try Coordinator.Salvage(snapshot: read)
            XCTAssertEqual(salvage.dropped.map(\.member), [], label, file: file, line: line)
            XCTAssertEqual(salvage.coordinator, c, label, file: file, line: line)
        }
        return printed
    }

    /// A URL through both doors — `handle(url:now:)` and a `url` event through `send` — on copies:
    /// the same outcome, error and coordinator after. Returns the `handle` answer and coordinator.
    func bothDoors(_ c: Coordinator, url: String, now: Int64, file: StaticString = #filePath, line: UInt = #line) throws -> (CoordinatorAnswer, Coordinator) {
        var byHandle = c, bySend = c
        let handled = byHandle.handle(url: url, now: now)
        let sent = bySend.send(try CoordinatorEvent(json: ["type": "url", "now": .integer(now), "url": .string(url)]), using: &random)
        XCTAssertEqual(handled.outcome, sent.outcome, url, file: file, line: line)
        XCTAssertEqual(handled.error?.code, sent.error?.code, url, file: file, line: line)
        XCTAssertEqual(handled.error?.field, sent.error?.field, url, file: file, line: line)
        XCTAssertEqual(byHandle, bySend, "handle(url:) and send disagree on " + url, file: file, line: line)
        if handled.outcome != .accepted && handled.outcome != .duplicate && handled.outcome != .ignored {
            XCTAssertEqual(byHandle, c, "a refused URL changes nothing", file: file, line: line)
        }
        return (handled, byHandle)
    }

    /// 0.2's waiting refund (sale 720371 of 100.00 approved, a full refund launched) beside 0.2's
    /// 24 checkouts waiting for their session: converted, reserving past 262144.
    func convertedPastTheLimit(acceptUnverified: Bool) throws -> Coordinator {
        var document = try snapshotFixture("v2/waiting-refund.json")
        let checkouts = try snapshotFixture("v2/waiting-checkouts.json")
        guard case .array(let refundFlows)? = document["flows"], case .array(let checkoutFlows)? = checkouts["flows"] else {
            XCTFail("fixtures")
            return Coordinator()
        }
        document["flows"] = .array(refundFlows + checkoutFlows)
        if acceptUnverified, case .object(var config)? = document["config"] {
            config["accept_unverified_callbacks"] = true
            document["config"] = .object(config)
        }
        let c = try Coordinator(snapshot: .object(document))
        XCTAssertGreaterThan(c.convertedReserve, Coordinator.maxSnapshotBytes)
        return c
    }

    func nonce(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 32 - hex.utf8.count) + hex
    }

    /// B11, claims (b), (c), (d): a converted coordinator past 262144 whose 24 checkouts the
    /// gateway fills to every limit — sessions with a 1 KiB id (of `"`, 2 bytes each once printed)
    /// and the longest `checkout_url`, the browser opened, verified callbacks with every extra
    /// parameter the slot keeps, nonce-less claims (accepted callbacks: a claim lands only when one
    /// checkout waits on the return URL), confirmations with 1 KiB values, browser results.
    /// After every event: a refused one is `limit_exceeded` naming `snapshot` and changes nothing;
    /// the snapshot cJSON prints is within 262144, exactly what the counter says, and restores
    /// (and salvages) to an equal coordinator; a URL gives the same through `handle(url:)` and
    /// `send`. The waiting refund's approval is accepted at the end, and when most checkouts
    /// are given up.
    func testA5B11ConvertedCheckoutsFilledEveryWayAlwaysPrintWhatRestoreReads() throws {
        for acceptUnverified in [false, true] {
            var c = try convertedPastTheLimit(acceptUnverified: acceptUnverified)
            let label = acceptUnverified ? "accepting unverified callbacks" : "verified callbacks only"
            try assertPrintedSnapshotRestores(c, label + ", converted")
            let at = fixtureDay + 240_000
            let url = "https://pay.example.com/" + String(repeating: "u", count: URLSyntax.maxURLLength - 24)
            let quotes = String(repeating: "\"", count: 512)
            let extras = (0..<40).map { "&x\($0)=" + String(repeating: "%22", count: 40) }.joined()
            var refused = 0, accepted = 0, step = 0
            func apply(_ event: JSONValue) throws {
                let before = c
                let answer = try send(event, to: &c)
                if answer.outcome == .accepted { accepted += 1 }
                if answer.outcome == .rejected, answer.error?.code == .limitExceeded {
                    refused += 1
                    XCTAssertEqual(answer.error?.field, "snapshot", label)
                    XCTAssertEqual(c, before, label + ": a refused event changes nothing")
                }
                step += 1
                try assertPrintedSnapshotRestores(c, label + ", after \(event)", restore: step % 8 == 0)
            }
            func deepLink(_ text: String, _ now: Int64) throws {
                let (answer, after) = try bothDoors(c, url: text, now: now)
                if answer.outcome == .rejected, answer.error?.code == .limitExceeded {
                    refused += 1
                    XCTAssertEqual(answer.error?.field, "snapshot", label)
                }
                c = after
                step += 1
                try assertPrintedSnapshotRestores(c, label + ", after " + text, restore: step % 8 == 0)
            }
            for n in 1...24 {
                let id = JSONValue.string("c\(n)")
                try apply(["type": "checkout.session", "flow_id": id, "now": .integer(at + Int64(n)),
                           "session": ["kind": "cards", "checkout_url": .string(url), "session_id": .string(quotes)]])
                try apply(["type": "checkout.browser_opened", "flow_id": id, "now": .integer(at + 100 + Int64(n))])
            }
            // A forged nonce-less callback (ambiguous while more than one checkout waits).
            try deepLink("fixapp://checkout-callback?status=completed&card_id=card_forged" + extras, at + 1_000)
            for n in 1...24 {
                let id = JSONValue.string("c\(n)")
                try deepLink("fixapp://checkout-callback/ph_" + nonce(n) + "?status=completed&card_id=card_\(n)" + extras, at + 2_000 + Int64(n))
                try apply(["type": "checkout.browser_result", "flow_id": id, "now": .integer(at + 2_100 + Int64(n)), "channel": "web_authentication_session",
                           "code": "ok", "url": .string("fixapp://checkout-callback/ph_" + nonce(n) + "?status=completed&card_id=card_\(n)" + extras)])
                try apply(["type": "checkout.confirmation", "flow_id": id, "now": .integer(at + 3_000 + Int64(n)),
                           "event": ["type": "card.registered", "data": ["card_id": .string("card_\(n)"), "brand": .string(quotes),
                                                                          "token": .string(quotes), "last_four": "4242"]]])
            }
            XCTAssertGreaterThan(accepted, 24, label)
            XCTAssertGreaterThan(refused, 0, label + ": the checkouts filled to every limit do not all fit")
            // Every checkout but the last given up: then claims land on it (one waits).
            var d = c
            for n in 1..<24 where d.flow(id: "c\(n)") != nil {
                XCTAssertEqual(try send(["type": "flow.remove", "flow_id": .string("c\(n)"), "give_up": true, "now": .integer(at + 9_000)], to: &d).outcome, .accepted)
            }
            let claims = (0..<6).map { "fixapp://checkout-callback?status=" + ["completed", "failed", "cancelled"][$0 % 3] + "&card_id=card_claim\($0)" + extras }
            var e = d, claimed = 0
            for (k, claim) in claims.enumerated() {
                let (answer, after) = try bothDoors(e, url: claim, now: at + 10_000 + Int64(k))
                if answer.outcome == .accepted { claimed += 1 }
                e = after
                try assertPrintedSnapshotRestores(e, label + ", claim \(k)")
            }
            if acceptUnverified { XCTAssertEqual(claimed, claims.count, label + ": claims land on the one checkout left") }
            // The refund's approval: accepted, with everything filled and with the checkouts given up.
            for var coordinator in [c, e] {
                let approval = "myapp://result=aprobada&amount=100.00&identifier=ref-1~0000000000000000000000000000000a&transactionid=820371"
                let (answer, after) = try bothDoors(coordinator, url: approval, now: at + 20_000)
                XCTAssertEqual(answer.outcome, .accepted, label + ": " + (answer.error?.message ?? ""))
                coordinator = after
                XCTAssertEqual(coordinator.flow(id: "r1")?.stateName, "approved", label)
                try assertPrintedSnapshotRestores(coordinator, label + ", the refund approved")
                // The sale refunded in full is not refunded again, by its flow or its document.
                XCTAssertNotEqual(try send(["type": "pos.start", "now": .integer(at + 90_000), "flow_id": "r2", "token": .string(token("r2")),
                                            "sale_flow_id": "p1",
                                            "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": "r2", "urlScheme": "myapp",
                                                        "transactionId": "720371", "amount": "1.00"]], to: &coordinator).outcome, .accepted, label)
            }
        }
    }

    @discardableResult
    func send(_ json: JSONValue, to c: inout Coordinator) throws -> CoordinatorAnswer {
        c.send(try CoordinatorEvent(json: json), using: &random)
    }

    /// B11 with a hand-edited `converted_reserve` (B3): raised far past the limit on a coordinator
    /// that fits (restore accepts it), every event is measured, POS answers are accepted and every
    /// printed snapshot restores; lowered under what a converted coordinator reserves, restore
    /// refuses it and salvage never lets the waiting refund's sale be refunded again.
    func testA5B11AHandEditedConvertedReserveNeverWidensOrPrintsPastTheLimit() throws {
        // Raised: a sale waiting in the POS app and a checkout, `converted_reserve` 2,000,000.
        coordinator = Coordinator()
        try sale("p1", at: t0)
        try send(["type": "pos.launched", "now": .integer(t0 + 100), "flow_id": "p1"])
        guard case .object(var document) = coordinator.snapshot else { return XCTFail("not an object") }
        document["converted_reserve"] = 2_000_000
        var c = try Coordinator(snapshot: .object(document))
        XCTAssertEqual(c.convertedReserve, 2_000_000)
        let answer = c.handle(url: approval("p1", transactionId: "720371"), now: t0 + 1_000)
        XCTAssertEqual(answer.outcome, .accepted, answer.error?.message ?? "")
        try assertPrintedSnapshotRestores(c, "converted_reserve raised, sale approved")
        XCTAssertEqual(try send(["type": "tick", "now": .integer(t0 + 2_000)], to: &c).outcome, .accepted)
        XCTAssertEqual(try send(["type": "pos.start", "now": .integer(t0 + 120_000), "flow_id": "r1", "token": .string(token("r1")), "sale_flow_id": "p1",
                                 "request": ["transaction": "devolucion", "usertoken": "POS-SECRET", "identifier": "r1", "urlScheme": "myapp",
                                             "transactionId": "720371"]], to: &c).outcome, .accepted)
        XCTAssertEqual(c.convertedReserve, 0, "a start that fits ends the exception")
        try assertPrintedSnapshotRestores(c, "converted_reserve raised, then a start")

        // Lowered under what the converted coordinator reserves: refused; salvage never widens.
        let converted = try convertedPastTheLimit(acceptUnverified: false)
        guard case .object(var written) = converted.snapshot else { return XCTFail("not an object") }
        for lowered in [JSONValue.integer(262_144), 1, .integer(Int64(converted.convertedReserve - 1)), .null, "x"] {
            written["converted_reserve"] = lowered
            XCTAssertThrowsError(try Coordinator(snapshot: .object(written)), "\(lowered)")
            let salvage = try Coordinator.Salvage(snapshot: .object(written))
            var s = salvage.coordinator
            try assertPrintedSnapshotRestores(s, "converted_reserve \(lowered), salvaged")
            let again = try send(["type": "pos.start", "now": .integer(fixtureDay + 600_000), "flow_id": "r9", "token": .string(token("r9")),
                                  "sale": ["transactionid": "720371", "amount": "100.00", "approved_at": .integer((fixtureDay + 60_000) / 1000)],
                                  "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": "r9", "urlScheme": "myapp",
                                              "transactionId": "720371"]], to: &s)
            if s.flow(id: "r1") == nil {
                XCTAssertNotEqual(again.outcome, .accepted, "\(lowered): the waiting refund was left out and its sale refunded again")
            } else {
                XCTAssertNotEqual(again.outcome, .accepted, "\(lowered): a second refund beside the waiting one")
            }
        }
    }

    /// `config` (edb70a7): every fixture an earlier version wrote restores (each with a member
    /// left out too: its default); a `null` member, `config` `null`, absent, or of another type is
    /// refused naming it; salvage falls back to the defaults and reports `config`, and never lets
    /// the waiting refund's sale be refunded again (one refund waits per sale whatever
    /// `single_pending_per_kind` says).
    func testA5ConfigShapesEarlierVersionsWroteRestoreAndDamageNeverWidens() throws {
        let names = ["v2/ordinary-day.json", "v2/pruned-ahead.json", "v2/shared-keys.json", "v2/tilde-token.json",
                     "v2/waiting-checkouts.json", "v2/waiting-refund.json", "v3/ordinary-day.json", "v3/waiting-refund.json"]
        let members = ["single_pending_per_kind", "checkout_timeout_ms", "pos_grace_ms", "accept_unverified_callbacks"]
        for name in names {
            let document = try snapshotFixture(name)
            XCTAssertNoThrow(try Coordinator(snapshot: .object(document)), name)
            guard case .object(let config)? = document["config"] else { return XCTFail(name + ": config") }
            XCTAssertEqual(Set(config.members.map(\.key)), Set(members), name + ": the four members every version wrote")
            for member in members {
                var left = config, nulled = config
                left[member] = nil
                nulled[member] = .null
                var d = document
                d["config"] = .object(left)
                XCTAssertNoThrow(try Coordinator(snapshot: .object(d)), name + ": " + member + " left out")
                d["config"] = .object(nulled)
                XCTAssertThrowsError(try Coordinator(snapshot: .object(d)), name + ": " + member + " null") { error in
                    XCTAssertEqual((error as? PayHandoffError)?.field, "config." + member, "\(error)")
                }
            }
            for (label, damaged) in [("null", JSONValue.null), ("absent", nil), ("a string", "x"), ("an array", [])] as [(String, JSONValue?)] {
                var d = document
                d["config"] = damaged
                XCTAssertThrowsError(try Coordinator(snapshot: .object(d)), name + ": config " + label) { error in
                    XCTAssertEqual((error as? PayHandoffError)?.field, "config", "\(error)")
                }
                let salvage = try Coordinator.Salvage(snapshot: .object(d))
                XCTAssertTrue(salvage.dropped.contains { $0.member == "config" }, name + ": config " + label)
                XCTAssertEqual(salvage.coordinator.configuration, try Coordinator.Configuration(), name)
                try assertPrintedSnapshotRestores(salvage.coordinator, name + ": config " + label + ", salvaged")
            }
        }
        // A host that ran with single_pending_per_kind and accepted callbacks, its config lost:
        // the defaults never let a second refund of a sale wait beside the first, nor refund it again.
        var document = try snapshotFixture("v3/waiting-refund.json")
        document["config"] = .null
        var c = try Coordinator.Salvage(snapshot: .object(document)).coordinator
        for (n, sale) in [("sale_flow_id", JSONValue.string("p1")),
                          ("sale", ["transactionid": "720371", "amount": "100.00", "approved_at": .integer((fixtureDay + 60_000) / 1000)])].enumerated() {
            var start: JSONObject = ["type": "pos.start", "now": .integer(fixtureDay + 600_000), "flow_id": .string("r9\(n)"), "token": .string(token("r9\(n)")),
                                     "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": .string("r9\(n)"), "urlScheme": "myapp",
                                                 "transactionId": "720371", "amount": "1.00"]]
            start[sale.0] = sale.1
            XCTAssertNotEqual(try send(.object(start), to: &c).outcome, .accepted, "config lost: a second refund by " + sale.0)
        }
    }

    /// Issue 35 item 3 (edb70a7): a sale refunded 40.00 while the clock read 1970, its ledger
    /// entry's id unreadable: whatever `refunded` then shows — 4000, unreadable (a string,
    /// `null`, `true`, an object, 40.5 refused as not an integer) or gone (the entry cut to three
    /// values) — the watermark goes past every time and the sale's document (approved at the real
    /// time) is refused. Only a sale whose `refunded` reads exactly 0 stays bounded by its window
    /// (another terminal's sale at the real time is then refundable). The same for a format-2
    /// record and for a balance-unknown record.
    func testA5ANamelessSaleEntryMayHoldARefundUnlessItReadsZero() throws {
        let clock: Int64 = 36_000_000  // 1970-01-01 10:00 UTC
        coordinator = Coordinator()
        try sale("p1", at: clock)
        XCTAssertEqual(coordinator.handle(url: approval("p1", transactionId: "720371"), now: clock + 1_000).outcome, .accepted)
        XCTAssertEqual(try refund("r1", ofSaleFlow: "p1", at: clock + 120_000, amount: "40.00").outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: approval("r1", amount: "40.00", transactionId: "R-1"), now: clock + 121_000).outcome, .accepted)
        guard case .object(let document) = coordinator.snapshot, case .object(let ledger)? = document["ledger"],
              case .array(let sales)? = ledger["sales"], case .array(let entry)? = sales.first else { return XCTFail("no entry") }
        XCTAssertEqual(entry[2], 4_000)
        let shapes: [(String, JSONValue, Bool)] = [  // the entry, whether other sales stay refundable
            ("refunded 4000", [7, entry[1], 4_000, entry[3]], false),
            ("refunded a string", [7, entry[1], "4000", entry[3]], false),
            ("refunded null", [7, entry[1], .null, entry[3]], false),
            ("refunded true", [7, entry[1], true, entry[3]], false),
            ("refunded an object", [7, entry[1], [:], entry[3]], false),
            ("refunded gone", [7, entry[1], entry[3]], false),
            ("an id unreadable and an element more", [7, entry[1], 4_000, entry[3], 0], false),
            ("an object", ["transactionid": 7, "refunded": 0], false),
            ("refunded 0", [7, entry[1], 0, entry[3]], true),
        ]
        for (label, damaged, othersStay) in shapes {
            var d = document, l = ledger
            l["sales"] = .array([damaged] + sales.dropFirst())
            d["ledger"] = .object(l)
            // Both flows dropped too (their members damaged), so nothing else shows the sale.
            d["flows"] = .array([])
            let salvage = try Coordinator.Salvage(snapshot: .object(d))
            coordinator = salvage.coordinator
            try assertPrintedSnapshotRestores(coordinator, label)
            if !othersStay {
                XCTAssertNotEqual(try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000).outcome, .accepted, label)
            }
            XCTAssertEqual(try otherSaleRefundable(at: t0 + 700_000), othersStay, label)
        }
        // A balance-unknown record without its id: past every time.
        var d = document, l = ledger
        l["unknown"] = [[7, .integer(clock + day)]]
        l["sales"] = .array(Array(sales.dropFirst()))
        d["ledger"] = .object(l)
        d["flows"] = .array([])
        coordinator = try Coordinator.Salvage(snapshot: .object(d)).coordinator
        XCTAssertFalse(try otherSaleRefundable(at: t0 + 700_000), "a nameless balance-unknown record")
    }

    /// The same for a format-2 record (0.2's ledger): a sale refunded 40.00 at a 1970 clock whose
    /// `transactionid` does not read: past every time whatever `refunded` shows, unless it reads
    /// "0.00"; its id reading and `refunded` damaged: the sale stays balance unknown.
    func testA5ANamelessFormat2RecordMayHoldARefundUnlessItReadsZero() throws {
        var document = try snapshotFixture("v2/waiting-refund.json")
        document["flows"] = .array([])
        let clock: Int64 = 36_000_000
        func record(_ id: JSONValue, refunded: JSONValue) -> JSONValue {
            ["transactionid": id, "flow_id": "p1", "operation": "venta", "amount": "100.00", "refunded": refunded,
             "approved_at": .integer(clock), "expires_at": .integer(clock + 13 * hour)]
        }
        let shapes: [(String, JSONValue, Bool)] = [
            ("id a number, refunded 40.00", record(7, refunded: "40.00"), false),
            ("id a number, refunded damaged", record(7, refunded: "4O.00"), false),
            ("id a number, refunded null", record(7, refunded: .null), false),
            ("id too long, refunded 40.00", record(.string(String(repeating: "7", count: 300)), refunded: "40.00"), false),
            ("id a number, refunded 0.00", record(7, refunded: "0.00"), false),  // nothing of it reads
            ("id too long, refunded 0.00", record(.string(String(repeating: "7", count: 300)), refunded: "0.00"), true),
        ]
        for (label, damaged, othersStay) in shapes {
            var d = document
            d["ledger"] = [damaged]
            let salvage = try Coordinator.Salvage(snapshot: .object(d))
            XCTAssertFalse(salvage.dropped.isEmpty, label)
            coordinator = salvage.coordinator
            try assertPrintedSnapshotRestores(coordinator, label)
            XCTAssertEqual(try otherSaleRefundable(at: t0 + 700_000), othersStay, label)
        }
        var d = document
        d["ledger"] = [record("720371", refunded: "4O.00")]
        coordinator = try Coordinator.Salvage(snapshot: .object(d)).coordinator
        XCTAssertNotEqual(try refundByDocumentOwnToken("r2", approvedAt: fixtureDay + 60_000, at: fixtureDay + 600_000).outcome, .accepted,
                          "a format-2 record whose refunded does not read")
    }
    /// A format-3 document of the shape PayHandoff 0.3.0's own library writes (verified: 0.3.0's
    /// libpayhandoff, driven through its C ABI, wrote 3,000 sales each refunded 40.00 plus a sale
    /// waiting in the POS app as 235,201 bytes and restored it): v3/ordinary-day.json (p3, 80.00,
    /// waits in the POS app) with `count` more sales of 100.00 each refunded 40.00.
    func format3FullOfPartlyRefundedSales(_ count: Int) throws -> JSONValue {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")
        guard case .object(var document) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: folder.appendingPathComponent("v3/ordinary-day.json"))),
              case .object(var ledger)? = document["ledger"], case .array(var sales)? = ledger["sales"], case .array(var refunds)? = ledger["refunds"]
        else { XCTFail("fixture"); return .null }
        let base: Int64 = 1_796_054_400_000
        for i in 0..<count {
            sales.append([.string(String(7_210_000_000 + i)), 10_000, 4_000, .integer(base + 600_000 + Int64(i))])
            refunds.append([.string(String(8_210_000_000 + i)), 4_000, .integer(base + 700_000 + Int64(i))])
        }
        ledger["sales"] = .array(sales); ledger["refunds"] = .array(refunds)
        document["ledger"] = .object(ledger)
        return .object(document)
    }

    /// Z1's way out and claim (c): the converted coordinator full of refunded sales (its measure
    /// past 262144 before any event, note Z1) prints a snapshot that restores; a start makes room
    /// (the oldest ledger entries leave behind the watermark, refunded ones leaving their
    /// records) and ends the exception, then the POS app's approval is accepted; a sale whose
    /// entry left for room is never refunded again by its document.
    func testA5Z1AStartMakesRoomAndNeverWidens() throws {
        let document = try format3FullOfPartlyRefundedSales(3_000)
        coordinator = try Coordinator(snapshot: document)
        XCTAssertGreaterThan(coordinator.convertedReserve, Coordinator.maxSnapshotBytes)
        try assertPrintedSnapshotRestores(coordinator, "converted, 3,000 refunded sales", restore: false)
        XCTAssertEqual(try Coordinator(snapshot: JSONText.parse(JSONText.render(coordinator.snapshot), parameter: "snapshot", limit: Coordinator.maxSnapshotBytes)), coordinator)
        let at = fixtureDay + 900_000
        let start = try send(["type": "pos.start", "now": .integer(at), "flow_id": "n1", "token": .string(token("n1")),
                              "request": ["transaction": "venta", "usertoken": "tok", "identifier": "n1", "amount": "1.00", "urlScheme": "myapp"]])
        XCTAssertEqual(start.outcome, .accepted, start.error?.message ?? "")
        XCTAssertEqual(coordinator.convertedReserve, 0)
        let approval = "myapp://result=aprobada&amount=80.00&identifier=ord-3~00000000000000000000000000000003&transactionid=720373"
        XCTAssertEqual(coordinator.handle(url: approval, now: at + 1_000).outcome, .accepted)
        try assertPrintedSnapshotRestores(coordinator, "after a start made room", restore: false)
        XCTAssertFalse(JSONText.render(coordinator.snapshot).contains("[\"7210000000\",10000,4000,"), "the oldest entry left for room")
        let again = try send(["type": "pos.start", "now": .integer(at + 2_000), "flow_id": "z1", "token": .string(token("z1")),
                              "sale": ["transactionid": "7210000000", "amount": "100.00", "approved_at": .integer((fixtureDay + 600_000) / 1000)],
                              "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": "z1", "urlScheme": "myapp",
                                          "transactionId": "7210000000", "amount": "60.00"]])
        XCTAssertNotEqual(again.outcome, .accepted, "a partly refunded sale whose entry left for room")
    }

    /// Item 3's neighbour: a balance-unknown record whose id reads and whose `until` does not (a
    /// string, `null`, out of range): that sale stays balance unknown, its document refused.
    func testA5ABalanceUnknownRecordWithoutItsTimeStaysUnknown() throws {
        var document = try refundedSaleRecordOnly()
        guard case .object(var ledger)? = document["ledger"] else { return XCTFail("no ledger") }
        ledger["refunded_sales"] = nil
        for until in [JSONValue.string("x"), .null, -1, 99_999_999_999_999_999] {
            ledger["unknown"] = [["720371", until]]
            document["ledger"] = .object(ledger)
            let salvage = try Coordinator.Salvage(snapshot: .object(document))
            XCTAssertFalse(salvage.dropped.isEmpty, "\(until)")
            coordinator = salvage.coordinator
            let again = try refundByDocumentOwnToken("r2", approvedAt: t0 + 1_000, at: t0 + 600_000)
            XCTAssertNotEqual(again.outcome, .accepted, "until \(until)")
        }
    }
}

extension Attack35Tests {
    /// Fifth attack, Z4 (fixed: restore refuses `latest_event` after a key's horizon, salvage drops
    /// the clock): a spent host token remembered until 3 days after its forgetting; `latest_event`
    /// damaged by one digit to 35 days later (1796… → 1799…). A coordinator never writes a key
    /// whose horizon is before `latest_event` (the event at that time let it go). Before the fix
    /// restore accepted it. One event dated 4 days ahead then
    /// counts no jump (it is before the damaged clock) and ends the key; back at the real time the
    /// spent token starts a sale and the captured approval approves it.
    func testA5Z4ALatestEventPastEveryKeyIsRefusedAndSalvageDropsIt() throws {
        let (spent, genuine) = try spendAHostToken()
        let text = JSONText.render(coordinator.snapshot)
        let latest = "\"latest_event\":" + String(t0 + 2_000)
        XCTAssertTrue(text.contains(latest), text)
        let damaged = text.replacingOccurrences(of: latest, with: "\"latest_event\":" + String(t0 + 2_000 + 3_000_000_000))  // 1796… → 1799…
        let document = try JSONText.parse(damaged, parameter: "snapshot", limit: Coordinator.maxSnapshotBytes)
        XCTAssertThrowsError(try Coordinator(snapshot: document), "latest_event past every key's horizon")
        coordinator = try Coordinator.Salvage(snapshot: document).coordinator
        try send(["type": "tick", "now": .integer(t0 + 4 * day)])
        XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + hour).error?.code, .conflict, "the spent token starts a sale")
        XCTAssertNotEqual(coordinator.handle(url: genuine, now: t0 + hour + 1_000).outcome, .accepted, "the captured approval approves it")
    }

    /// Fifth attack, Z5 (fixed: salvage also remembers the key the dropped flow's answer echoes):
    /// an approved POS sale with a host-given token keeps the answer, whose `identifier` echoes
    /// `<identifier>~<token>`. The flow's `token` (or `identifier`) damaged by one character into
    /// another valid one: strict restore refuses it at `response.identifier`, and salvage
    /// remembered only the damaged key's digest, so the real (spent) token started a new sale and
    /// the captured approval approved it.
    func testA5Z5ADroppedHandOffRemembersTheKeyItsAnswerEchoes() throws {
        let spent = token("x")
        for (label, field, replacement) in [("token", "\"token\":\"" + spent + "\"", "\"token\":\"" + String(spent.dropLast()) + "y\""),
                                            ("identifier", "\"identifier\":\"ord-1\"", "\"identifier\":\"ord-2\"")] {
            coordinator = Coordinator()
            let genuine = approval("p1", identifier: "ord-1", token: spent, transactionId: "555")
            try sale("p1", identifier: "ord-1", token: spent, at: t0)
            try send(["type": "pos.launched", "now": .integer(t0 + 500), "flow_id": "p1"])
            XCTAssertEqual(coordinator.handle(url: genuine, now: t0 + 1_000).outcome, .accepted)
            let text = JSONText.render(coordinator.snapshot)
            XCTAssertTrue(text.contains(field), text)
            let damaged = text.replacingOccurrences(of: field, with: replacement)  // one character
            let document = try JSONText.parse(damaged, parameter: "snapshot", limit: Coordinator.maxSnapshotBytes)
            XCTAssertThrowsError(try Coordinator(snapshot: document), label)
            let salvage = try Coordinator.Salvage(snapshot: document)
            coordinator = salvage.coordinator
            if coordinator.flow(id: "p1") != nil {
                XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "p1"]).outcome, .accepted)
            }
            XCTAssertEqual(try sale("p2", identifier: "ord-1", token: spent, at: t0 + 60_000).error?.code, .conflict, label + ": the spent token starts a sale")
            let replay = approval("p1", identifier: "ord-1", token: spent, transactionId: "556")
            XCTAssertNotEqual(coordinator.handle(url: replay, now: t0 + 61_000).outcome, .accepted, label + ": the captured approval approves it")
        }
    }
}
