import PayHandoff
import XCTest

/// Thousands of seeded random event sequences over two checkouts and two POS hand-offs, with
/// genuine, forged, replayed and malformed deep links, claims with the longest reasons, refunds
/// of hostile `sale` documents, and a clock that jumps days ahead and back. Some sequences accept
/// unverified callbacks, some run with a small snapshot limit (so that "nearly full" is a few
/// flows). At every step the coordinator is also restored from the snapshot taken just before
/// the step and fed the same step: both must give the same answer and the same snapshot. A
/// rejected step changes nothing; the printed snapshot never passes the reservations, which never
/// pass the limit; an event for a flow already started is never refused for space; no sale is
/// refunded beyond its amount, however the clock moves; and no sequence may reach `confirmed`
/// without a confirmation sent for that flow, or `approved` without an answer echoing the flow's
/// identifier and token.
final class FlowPropertyTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000
    let nonces = ["c1": "11111111111111111111111111111111", "c2": "22222222222222222222222222222222"]
    let tokens = ["p1": "33333333333333333333333333333333", "p2": "44444444444444444444444444444444",
                  "p1r": "55555555555555555555555555555555", "p2r": "66666666666666666666666666666666"]

    func randomStep(_ g: inout SplitMix64, now: Int64) -> (event: JSONValue?, url: String?) {
        func pick<T>(_ items: [T]) -> T { items[Int(g.next() % UInt64(items.count))] }
        let checkoutID = pick(["c1", "c2"]), posID = pick(["p1", "p2"])
        let kind = checkoutID == "c1" ? "cards" : "payments"
        let idKey = checkoutID == "c1" ? "card_id" : "payment_id"
        let id = checkoutID == "c1" ? pick(["card_a", "card_b"]) : pick(["pay_a", "pay_b"])
        let nonce = nonces[checkoutID]!
        let identifier = posID == "p1" ? "ord-1" : "ord-2"
        switch g.next() % 16 {
        case 0:
            return (["type": "checkout.start", "now": .integer(now), "flow_id": .string(checkoutID), "kind": .string(kind),
                     "return_url": .string("fixapp://cb-" + checkoutID), "nonce": .string(nonce),
                     "deadline": .integer(t0 + 600_000)], nil)
        case 1:
            return (["type": "checkout.session", "now": .integer(now), "flow_id": .string(checkoutID),
                     "session": ["kind": .string(kind), "checkout_url": "https://pay.example.com/x"]], nil)
        case 2:
            return ([ "type": .string(pick(["checkout.browser_opened", "checkout.browser_dismissed"])), "now": .integer(now),
                      "flow_id": .string(checkoutID)], nil)
        case 3, 4:
            let status = pick(["completed", "failed", "cancelled"])
            let path = pick(["/ph_" + nonce, "/ph_" + nonce, "", "/ph_ffffffffffffffffffffffffffffffff", "/ph_" + nonces[checkoutID == "c1" ? "c2" : "c1"]!])
            return (nil, "fixapp://cb-\(checkoutID)\(path)?status=\(status)&\(idKey)=\(id)")
        case 5:
            let type = checkoutID == "c1" ? "card.registered" : "payment.confirmed"
            return (["type": "checkout.confirmation", "now": .integer(now), "flow_id": .string(checkoutID),
                     "event": ["type": .string(type), "data": [.init(stringLiteral: idKey): .string(id), "brand": .string(pick(["visa", "amex"]))]]], nil)
        case 6:
            return (["type": "pos.start", "now": .integer(now), "flow_id": .string(posID), "token": .string(tokens[posID]!),
                     "request": ["transaction": "venta", "usertoken": "tok", "identifier": .string(identifier),
                                 "amount": "100.00", "urlScheme": "myapp"], "grace_ms": 2000], nil)
        case 7:
            return (["type": .string(pick(["pos.launched", "pos.launch_failed"])), "now": .integer(now), "flow_id": .string(posID)], nil)
        case 8:
            return (["type": "app.foregrounded", "now": .integer(now)], nil)
        case 9, 10:
            return (["type": "tick", "now": .integer(now)], nil)
        case 11, 12:
            let owner = pick([posID, posID, posID + "r"])
            let genuine = owner != posID && g.next() % 4 != 0  // refunds' answers are mostly genuine approvals
            let result = genuine ? "aprobada" : pick(["aprobada", "rechazada", "error"])
            let amount = pick(["100.00", "100.00", "99.00"])
            let echoed = genuine ? owner + "~" + tokens[owner]!
                : pick([owner == posID ? identifier : owner, "ord-9"]) + pick(["~" + tokens[owner]!, "~" + tokens[owner]!, "", "~" + tokens["p1"]!])
            // Sales mostly answer with their own id (T1, T2), refunds with theirs (R…), replays with others.
            let transactionID = owner == posID ? pick(["T" + String(posID.dropFirst()), "T" + String(posID.dropFirst()), "T\(g.next() % 5)"])
                                               : pick(["R\(g.next() % 5)", "R\(g.next() % 5)", "T\(g.next() % 5)"])
            return (nil, "myapp://result=\(result)&amount=\(amount)&identifier=\(echoed)&transactionid=\(transactionID)")
        case 13:
            switch g.next() % 3 {
            case 0:
                return (nil, pick(["otherapp://x?y=1", "fixapp://cb-c1/ph_%zz?status=completed&card_id=card_a", "myapp://garbage",
                                   "fixapp://cb-\(checkoutID)/ph_\(nonce)&status=completed&\(idKey)=\(id)"]))
            case 1:
                // A claim (no nonce) with the longest reason: it fills only the flow's own slot.
                return (nil, "fixapp://cb-\(checkoutID)?status=" + pick(["completed", "failed"]) + "&\(idKey)=\(id)&reason="
                        + String(repeating: pick(["%22", "x", "%01"]), count: 400))
            default:
                // A refund of a sale known only from its document, sometimes a hostile one.
                let transactionID = pick(["T" + String(posID.dropFirst()), "T\(g.next() % 5)", "T 1", "T\u{00F1}", String(repeating: "T", count: 129)])
                return (["type": "pos.start", "now": .integer(now), "flow_id": .string(posID + "r"),
                         "sale": ["transactionid": .string(transactionID), "amount": "100.00", "approved_at": .integer(now / 1000 - 120)],
                         "token": .string(tokens[posID + "r"]!),
                         "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": .string(posID + "r"),
                                     "urlScheme": "myapp", "transactionId": .string(transactionID)]], nil)
            }
        case 14:
            return (["type": "flow.remove", "now": .integer(now), "flow_id": .string(pick([checkoutID, posID])),
                     "give_up": .bool(g.next() % 2 == 0)], nil)
        default:
            return (["type": "pos.start", "now": .integer(now), "flow_id": .string(posID + "r"), "sale_flow_id": .string(posID),
                     "token": .string(tokens[posID + "r"]!),
                     "request": ["transaction": "devolucion", "usertoken": "tok", "identifier": .string(posID + "r"),
                                 "urlScheme": "myapp", "transactionId": .string(pick(["T" + String(posID.dropFirst()), "T\(g.next() % 5)"]))]], nil)
        }
    }

    func apply(_ step: (event: JSONValue?, url: String?), to coordinator: inout Coordinator, now: Int64) -> CoordinatorAnswer? {
        var unused = SplitMix64(seed: 0)
        if let url = step.url { return coordinator.handle(url: url, now: now) }
        guard let json = step.event, let event = try? CoordinatorEvent(json: json) else { return nil }
        return coordinator.send(event, using: &unused)
    }

    func testRestoreAtAnyStepContinuesIdenticallyAndNothingIsConfirmedWithoutProof() throws {
        var sequences = 0, steps = 0, reachedConfirmed = 0, reachedApproved = 0, refusedForSpace = 0, refundsApproved = 0
        for seed in 0..<1500 as Range<UInt64> {
            var g = SplitMix64(seed: seed)
            let limit = seed % 5 == 0 ? 20_000 : Coordinator.maxSnapshotBytes
            var coordinator = Coordinator(configuration: try Coordinator.Configuration(acceptUnverifiedCallbacks: seed % 3 == 1),
                                          snapshotLimit: limit)
            var now = t0
            var confirmationsSent: Set<String> = []
            var answersSeen: [String: Set<String>] = [:]
            // Per sale transactionid, what approved refunds took (centavos), and which refund flows counted.
            var refunded: [String: Int64] = [:]
            var counted: Set<String> = []
            for _ in 0..<(10 + Int(g.next() % 30)) {
                switch g.next() % (seed % 2 == 0 ? 40 : 400) {  // odd seeds: clock jumps are rare
                case 0: now += 2 * 86_400_000  // a clock two days ahead
                case 1: now = max(t0, now - 2 * 86_400_000)  // and back
                case 2: now = max(t0, now - 3_600_000)  // an hour back
                default: now += Int64(g.next() % 90_000)
                }
                let step = randomStep(&g, now: now)
                let before = coordinator.snapshot
                var restored = try Coordinator(snapshot: before, snapshotLimit: limit)
                XCTAssertEqual(restored, coordinator, "seed \(seed): restore is not identity")
                let a = apply(step, to: &coordinator, now: now)
                if a?.outcome == .rejected || a?.outcome == .duplicate || a?.outcome == .ignored || a?.outcome == .notOurs {
                    XCTAssertEqual(coordinator.snapshot, before, "seed \(seed): \(a?.outcome.rawValue ?? "") changed the coordinator: \(step)")
                }
                if a?.error?.code == .limitExceeded {
                    refusedForSpace += 1
                    let type = (try? step.event?.string(at: "type")) ?? "url"
                    XCTAssertTrue(type == "pos.start" || type == "checkout.start", "seed \(seed): only a start is refused for space, not \(type)")
                }
                XCTAssertLessThanOrEqual(coordinator.snapshot.printedLengthBound, coordinator.reservedSnapshotLength, "seed \(seed)")
                XCTAssertLessThanOrEqual(coordinator.reservedSnapshotLength, limit, "seed \(seed)")
                if let start = step.event, a?.outcome == .accepted, case .string("pos.start")? = start.value(at: "type"),
                   let id = try? start.string(at: "flow_id") { counted.remove(id) }
                for case .pos(let f) in coordinator.flows where f.operation == .refund && !counted.contains(f.id)
                    && (f.state == .approved || f.state == .approvedAmountMismatch) {
                    counted.insert(f.id)
                    refundsApproved += 1
                    refunded[f.saleTransactionId ?? "", default: 0] += f.amount?.minorUnits ?? 0
                    XCTAssertLessThanOrEqual(refunded[f.saleTransactionId ?? ""] ?? 0, 10_000,
                                             "seed \(seed): \(f.saleTransactionId ?? "") refunded beyond its 100.00")
                }
                let b = apply(step, to: &restored, now: now)
                XCTAssertEqual(a, b, "seed \(seed): restored coordinator answered differently to \(step)")
                XCTAssertEqual(coordinator.snapshot, restored.snapshot, "seed \(seed)")
                if let answer = a, answer.outcome == .accepted {
                    if case .string("checkout.confirmation")? = step.event?.value(at: "type"),
                       let id = try? step.event?.string(at: "flow_id") { confirmationsSent.insert(id) }
                    if let url = step.url, let flow = answer.transitions.first { answersSeen[flow.flowID, default: []].insert(url) }
                }
                if a?.outcome == .rejected { XCTAssertNotNil(a?.error, "seed \(seed): rejected without a typed error") }
                for flow in coordinator.flows {
                    switch flow {
                    case .checkout(let f) where f.state == .confirmed:
                        reachedConfirmed += 1
                        XCTAssertTrue(confirmationsSent.contains(f.id), "seed \(seed): \(f.id) confirmed without a confirmation")
                        XCTAssertNotNil(f.confirmation)
                    case .pos(let f) where f.state == .approved:
                        reachedApproved += 1
                        XCTAssertEqual(f.response?.identifier, f.identifier + "~" + f.token)
                        XCTAssertFalse(answersSeen[f.id, default: []].isEmpty, "seed \(seed): \(f.id) approved without an answer")
                    default: break
                    }
                }
                steps += 1
            }
            sequences += 1
        }
        XCTAssertGreaterThan(reachedConfirmed, 100, "the generator must actually reach confirmed")
        XCTAssertGreaterThan(reachedApproved, 100, "the generator must actually reach approved")
        XCTAssertGreaterThan(refundsApproved, 20, "the generator must actually approve refunds")
        print("FlowPropertyTests: \(sequences) sequences, \(steps) steps, confirmed seen \(reachedConfirmed)×, approved seen \(reachedApproved)×, "
              + "refunds approved \(refundsApproved)×, starts refused for space \(refusedForSpace)×")
    }
}
