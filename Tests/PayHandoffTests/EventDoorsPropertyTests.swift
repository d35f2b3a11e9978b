import PayHandoff
import XCTest

/// One validation, two doors: every event can be made from a JSON document
/// (`CoordinatorEvent(json:)`, what the C ABI and the bindings use) or from typed Swift values
/// (`CoordinatorEvent(_:now:)`). Seeded sequences of events with values around every rule's
/// edge go through both: the two doors must refuse with the same code and field, or accept the
/// same event; the coordinators fed by each door must answer alike; and after every accepted
/// step the snapshot must restore to an equal coordinator.
final class EventDoorsPropertyTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000

    /// The raw values of one event, from which both doors are fed.
    struct Raw {
        var type: String
        var now: Int64
        var flowID: String
        var deadline: Int64? = nil
        var nonce: String? = nil
        var token: String? = nil
        var grace: Int64? = nil
        var saleFlowID: String? = nil
        var saleApprovedAt: Int64? = nil
        var refund = false
        var giveUp: Bool? = nil
        var url = ""
        var extras: [QueryItem] = []
    }

    func pick<T>(_ items: [T], _ g: inout SplitMix64) -> T { items[Int(g.next() % UInt64(items.count))] }

    func randomRaw(_ g: inout SplitMix64, now: Int64) -> Raw {
        let flowIDs = ["c1", "c2", "p1", "p2", "", "a b", "x\u{1}", String(repeating: "f", count: 128), String(repeating: "f", count: 129), "é"]
        let secrets: [String?] = [nil, nil, "", "short", "0123456789abcdef", String(repeating: "a", count: 128),
                                  String(repeating: "a", count: 129), "0123456789abcde/", "0123456789abcdef0123456789abcdef"]
        let times: [Int64] = [now, now, now, -1, 0, MexicoCityTime.maxEpochMilliseconds, MexicoCityTime.maxEpochMilliseconds + 1]
        var raw = Raw(type: pick(["checkout.start", "pos.start", "pos.start", "pos.launched", "pos.launch_failed", "pos.result",
                                  "checkout.browser_opened", "flow.remove", "tick", "url", "app.foregrounded"], &g),
                      now: pick(times, &g), flowID: pick(flowIDs, &g))
        switch raw.type {
        case "checkout.start":
            raw.deadline = pick([nil, now + 60_000, -5, MexicoCityTime.maxEpochMilliseconds + 1], &g)
            raw.nonce = pick(secrets, &g)
        case "pos.start":
            raw.token = pick(secrets, &g)
            raw.grace = pick([nil, 0, 2_000, 3_600_000, 3_600_001, -1], &g)
            raw.refund = g.next() % 3 == 0
            if raw.refund || g.next() % 4 == 0 {
                if g.next() % 2 == 0 { raw.saleFlowID = pick(["p1", "", "a b"], &g) } else { raw.saleApprovedAt = pick([t0 / 1000 - 120, -1], &g) }
            }
        case "flow.remove":
            raw.giveUp = pick([nil, true, false], &g)
        case "url":
            raw.url = pick(["fixapp://cb/ph_0123456789abcdef0123456789abcdef?status=completed&card_id=card_1",
                            "myapp://result=aprobada&amount=100.00&transactionid=T1&identifier=ord-1~0123456789abcdef0123456789abcdef",
                            "fixapp://cb?status=failed", "otherapp://x"], &g)
        case "pos.result":
            raw.extras = pick([[QueryItem(key: "result", value: "aprobada"), QueryItem(key: "amount", value: "100.00"),
                                QueryItem(key: "identifier", value: "ord-1~0123456789abcdef0123456789abcdef")],
                               [QueryItem(key: "result", value: "rechazada"), QueryItem(key: "identifier", value: "ord-1")]], &g)
        default:
            break
        }
        return raw
    }

    func request(_ raw: Raw) -> JSONValue {
        raw.refund
            ? ["transaction": "devolucion", "usertoken": "t", "identifier": .string("id-" + raw.flowID.prefix(8)),
               "urlScheme": "myapp", "transactionId": "T1"]
            : ["transaction": "venta", "usertoken": "t", "identifier": "ord-1", "amount": "100.00", "urlScheme": "myapp"]
    }

    func json(_ raw: Raw) -> JSONValue {
        var o: JSONObject = ["type": .string(raw.type), "now": .integer(raw.now)]
        if !["tick", "url", "app.foregrounded"].contains(raw.type) { o["flow_id"] = .string(raw.flowID) }
        switch raw.type {
        case "checkout.start":
            o["kind"] = "cards"
            o["return_url"] = "fixapp://cb"
            if let deadline = raw.deadline { o["deadline"] = .integer(deadline) }
            if let nonce = raw.nonce { o["nonce"] = .string(nonce) }
        case "pos.start":
            o["request"] = request(raw)
            if let token = raw.token { o["token"] = .string(token) }
            if let grace = raw.grace { o["grace_ms"] = .integer(grace) }
            if let id = raw.saleFlowID { o["sale_flow_id"] = .string(id) }
            if let at = raw.saleApprovedAt { o["sale"] = ["transactionid": "T1", "amount": "100.00", "approved_at": .integer(at)] }
        case "flow.remove":
            if let giveUp = raw.giveUp { o["give_up"] = .bool(giveUp) }
        case "url":
            o["url"] = .string(raw.url)
        case "pos.result":
            var extras = JSONObject()
            for item in raw.extras { extras[item.key] = .string(item.value) }
            o["extras"] = .object(extras)
        default:
            break
        }
        return .object(o)
    }

    func typed(_ raw: Raw) throws(PayHandoffError) -> CoordinatorEvent {
        let kind: CoordinatorEvent.Kind
        switch raw.type {
        case "checkout.start":
            kind = .checkoutStart(flowID: raw.flowID, start: .backend(kind: .cards, returnURL: try ReturnURL("fixapp://cb"), nonce: raw.nonce),
                                  deadline: raw.deadline)
        case "pos.start":
            let request = raw.refund
                ? try POSRequest.refund(userToken: "t", identifier: "id-" + raw.flowID.prefix(8), urlScheme: "myapp", transactionId: "T1")
                : try POSRequest.sale(userToken: "t", identifier: "ord-1", amount: try Amount(parsing: "100.00"), urlScheme: "myapp")
            var refundOf: CoordinatorEvent.RefundOf? = raw.saleFlowID.map { .saleFlow(id: $0) }
            if let at = raw.saleApprovedAt {
                refundOf = .sale(RefundEligibility.Sale(transactionId: "T1", amount: try Amount(parsing: "100.00"), approvedAt: at))
            }
            kind = .posStart(flowID: raw.flowID, request: request, refundOf: refundOf, graceMilliseconds: raw.grace, token: raw.token)
        case "pos.launched": kind = .posLaunched(flowID: raw.flowID)
        case "pos.launch_failed": kind = .posLaunchFailed(flowID: raw.flowID, reason: nil)
        case "pos.result": kind = .posResult(flowID: raw.flowID, extras: raw.extras)
        case "checkout.browser_opened": kind = .browserOpened(flowID: raw.flowID)
        case "flow.remove": kind = .removeFlow(flowID: raw.flowID, giveUp: raw.giveUp ?? false)
        case "tick": kind = .tick
        case "url": kind = .url(raw.url)
        default: kind = .appForegrounded
        }
        return try CoordinatorEvent(kind, now: raw.now)
    }

    func testBothDoorsAgreeOnEveryEventAndEveryStateRestores() throws {
        var sequences = 0, steps = 0, refusedAlike = 0, acceptedAlike = 0
        for seed in 0..<600 as Range<UInt64> {
            var g = SplitMix64(seed: seed)
            var byJSON = Coordinator(), byType = Coordinator()
            var randomA = SplitMix64(seed: seed), randomB = SplitMix64(seed: seed)
            var now = t0
            for _ in 0..<(5 + Int(g.next() % 20)) {
                now += Int64(g.next() % 5_000)
                let raw = randomRaw(&g, now: now)
                let fromJSON: Result<CoordinatorEvent, PayHandoffError>
                do throws(PayHandoffError) { fromJSON = .success(try CoordinatorEvent(json: json(raw))) } catch { fromJSON = .failure(error) }
                let fromType: Result<CoordinatorEvent, PayHandoffError>
                do throws(PayHandoffError) { fromType = .success(try typed(raw)) } catch { fromType = .failure(error) }
                switch (fromJSON, fromType) {
                case let (.failure(a), .failure(b)):
                    XCTAssertEqual(a.code, b.code, "seed \(seed): \(raw)")
                    XCTAssertEqual(a.field, b.field, "seed \(seed): \(raw)")
                    refusedAlike += 1
                case let (.success(a), .success(b)):
                    XCTAssertEqual(a, b, "seed \(seed): the doors made different events of \(raw)")
                    let answerA = byJSON.send(a, using: &randomA)
                    let answerB = byType.send(b, using: &randomB)
                    XCTAssertEqual(answerA, answerB, "seed \(seed)")
                    XCTAssertEqual(try Coordinator(snapshot: byJSON.snapshot), byJSON, "seed \(seed): the snapshot does not restore")
                    acceptedAlike += 1
                default:
                    XCTFail("seed \(seed): one door accepted what the other refused: \(raw) → json \(fromJSON), typed \(fromType)")
                }
                XCTAssertEqual(byJSON, byType, "seed \(seed)")
                steps += 1
            }
            sequences += 1
        }
        XCTAssertGreaterThan(refusedAlike, 500)
        XCTAssertGreaterThan(acceptedAlike, 500)
        print("EventDoorsPropertyTests: \(sequences) sequences, \(steps) events: \(acceptedAlike) accepted by both doors, \(refusedAlike) refused alike")
    }

    func testConfigurationDoorsAgree() {
        for timeout: Int64 in [-1, 0, 1, 7 * 86_400_000, 7 * 86_400_000 + 1] {
            for grace: Int64 in [-1, 0, 3_600_000, 3_600_001] {
                let a: PayHandoffError?, b: PayHandoffError?
                do throws(PayHandoffError) {
                    _ = try Coordinator.Configuration(json: ["checkout_timeout_ms": .integer(timeout), "pos_grace_ms": .integer(grace)])
                    a = nil
                } catch { a = error }
                do throws(PayHandoffError) {
                    _ = try Coordinator.Configuration(checkoutTimeoutMilliseconds: timeout, posGraceMilliseconds: grace)
                    b = nil
                } catch { b = error }
                XCTAssertEqual(a?.code, b?.code, "\(timeout) \(grace)")
                XCTAssertEqual(a?.field, b?.field, "\(timeout) \(grace)")
            }
        }
    }

    func testTheTypedDoorRefusesWhatTheSnapshotCouldNotRestore() {
        XCTAssertThrowsError(try CoordinatorEvent(.posLaunched(flowID: ""), now: t0))
        XCTAssertThrowsError(try CoordinatorEvent(.tick, now: -1))
        XCTAssertThrowsError(try Coordinator.Configuration(posGraceMilliseconds: -1))
    }
}
