// Issue 35: the properties of recovery, shared by the exhaustive check (Fuzz/ModelCheck), the
// coordinator fuzzer (FuzzCoordinator) and the salvage fuzzer (FuzzSalvage).
//
// One property: for any state S reachable by events, and for anything the library accepts
// afterwards — a salvage of a damaged copy of S's snapshot, a restore, a start that forgets, any
// clock in either direction — (1) the balance left to refund for any sale (its amount less what
// was or may have been refunded) never grows, and (2) no answer that any flow of S was sent can
// move another flow.
//
// What the history taught is kept beside the coordinator, in ``FlowAlphabet/Ghost``: for each
// sale the ledger ever booked, its amount (the lowest booked) and the most it had refunded; for
// each correlation key (nonce, `<identifier>~<token>`) ever used, the flow that used it first and
// whether that flow is still held. The checks are written against behaviour — a refund start
// accepted or not, a flow moved by a link or not — and read of the coordinator only its public
// flows and ledger, so that they hold across changes of the snapshot's format.
#if canImport(Glibc)
import Glibc
#endif
import PayHandoff
import PayHandoffABI

extension FlowAlphabet {
    /// What a history taught that its snapshot need not hold (issue 35): the state key of the
    /// exhaustive check holds it too, or two histories reaching one snapshot would merge.
    public struct Ghost: Hashable, Sendable {
        /// A sale the ledger booked: its approval time as booked (a sale booked again at another
        /// time is another sale), the lowest refundable amount and the most refunded seen.
        public struct Sale: Hashable, Sendable {
            public var transactionId: String
            public var approvedAt: Int64
            public var amount: Int64
            public var refunded: Int64
        }

        /// A correlation key and the flow that used it first; `alive` until that flow is forgotten
        /// (`forgottenAt`, the clock then, is kept only with a key horizon: ``keyHorizon``).
        public struct Key: Hashable, Sendable {
            public var key: String
            public var owner: String
            public var alive: Bool
            public var forgottenAt: Int64 = 0
            /// A checkout's deadline (with a key horizon only): its callback may come until then.
            public var deadline: Int64 = 0
        }

        /// `PAYHANDOFF_KEY_HORIZON_MS`: if the library documents a horizon after which a key given
        /// again may be accepted (issue 35 item 5), an answer moving a later flow with that key
        /// counts only within the horizon of its first flow being forgotten (or of its deadline, for
        /// a checkout forgotten before it). Unset (the default): never — the property as
        /// written. (Part B documents 3 days: PAYHANDOFF_KEY_HORIZON_MS=259200000.)
        public static let keyHorizon: Int64? = Fuzz.environment("PAYHANDOFF_KEY_HORIZON_MS").flatMap { Int64($0) }

        /// Ordered by transaction id.
        public private(set) var sales: [Sale] = []
        /// Ordered by key.
        public private(set) var keys: [Key] = []

        public init() {}

        /// The keys the alphabet's letters carry (its nonces, forged one included, and sent
        /// identifiers): the only ones an answer of the alphabet can bring back, so the only ones
        /// tracked (a batch's fresh tokens would only slow the search).
        public static let trackedKeys: [String] = Array(FlowAlphabet.nonces.values) + [FlowAlphabet.forgedNonce]
            + (Array(FlowAlphabet.tokens.values) + [FlowAlphabet.forgedToken]).map { FlowAlphabet.identifier + "~" + $0 }

        /// The sale `transactionId`, if the ledger ever booked it.
        public func sale(_ transactionId: String) -> Sale? {
            sales.first { $0.transactionId.sameBytes(transactionId) }
        }

        /// The key's first user.
        public func key(_ key: String) -> Key? {
            keys.first { $0.key.sameBytes(key) }
        }

        /// Learns from a coordinator after a step: the sales its ledger holds, the keys its flows
        /// hold; a key's first flow that is gone (or holds another key) is forgotten for good.
        /// (The nearly full world's `pre-` sales are left out: nothing refunds them, and hundreds
        /// of them would only slow the search.)
        /// A recovered coordinator may keep a flow under an id its damage changed into another
        /// valid one (damage that reads as valid: out of scope, docs/security.md): the same
        /// hand-off, holding the same key. Its key's owner follows it, so that its own answer
        /// moving it is not taken for an answer reaching another flow.
        public mutating func follow(renamedIn coordinator: Coordinator) {
            for index in keys.indices where keys[index].alive && coordinator.flow(id: keys[index].owner) == nil {
                let key = keys[index].key
                if let holder = coordinator.flows.first(where: { Recovery.key(of: $0).map { $0.sameBytes(key) } == true }) {
                    keys[index].owner = holder.id
                }
            }
        }

        public mutating func learn(from coordinator: Coordinator, now: Int64 = 0) {
            for entry in coordinator.ledger.entries {
                guard case .sale(let refunded) = entry.kind, !entry.transactionId.utf8.starts(with: "pre-".utf8) else { continue }
                let sale = Sale(transactionId: entry.transactionId, approvedAt: entry.approvedAt, amount: entry.amount.minorUnits,
                                refunded: refunded.minorUnits)
                if let index = sales.firstIndex(where: { $0.transactionId.sameBytes(entry.transactionId) }) {
                    if sales[index].approvedAt != entry.approvedAt {
                        sales[index] = sale
                    } else {
                        sales[index].amount = Swift.min(sales[index].amount, sale.amount)
                        sales[index].refunded = Swift.max(sales[index].refunded, sale.refunded)
                    }
                } else {
                    sales.append(sale)
                    sales.sort { $0.transactionId.utf8.lexicographicallyPrecedes($1.transactionId.utf8) }
                }
            }
            // A sale whose entry left after refunds: what its record says was refunded (issue 35, G1;
            // the entry may have left in the very step that refunded it).
            for record in coordinator.ledger.refundedSales {
                if let index = sales.firstIndex(where: { $0.transactionId.sameBytes(record.transactionId) }) {
                    sales[index].refunded = Swift.max(sales[index].refunded, record.refunded.minorUnits)
                }
            }
            for index in keys.indices where keys[index].alive {
                let owner = coordinator.flow(id: keys[index].owner)
                if owner.flatMap(Recovery.key(of:)).map({ $0.sameBytes(keys[index].key) }) != true {
                    keys[index].alive = false
                    if Ghost.keyHorizon != nil { keys[index].forgottenAt = Swift.max(now, keys[index].deadline) }
                }
            }
            guard keys.count < FlowAlphabet.Ghost.trackedKeys.count else { return }
            for flow in coordinator.flows {
                guard let key = Recovery.key(of: flow), FlowAlphabet.Ghost.trackedKeys.contains(where: { $0.sameBytes(key) }),
                      self.key(key) == nil else { continue }
                var first = Key(key: key, owner: flow.id, alive: true)
                if Ghost.keyHorizon != nil, case .checkout(let f) = flow { first.deadline = f.deadline }
                keys.append(first)
                keys.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
        }
    }
}

public enum Recovery {
    /// A flow's correlation key: a checkout's nonce, a POS hand-off's `<identifier>~<token>`.
    public static func key(of flow: Coordinator.Flow) -> String? {
        switch flow {
        case .checkout(let f): return f.nonce
        case .pos(let f): return f.identifier + "~" + f.token
        }
    }

    /// Whether a POS flow may still get its answer (its result is not known).
    static func isWaiting(_ flow: POSFlow) -> Bool {
        ![POSFlow.State.approved, .approvedAmountMismatch, .declined, .error].contains(flow.state)
    }

    /// The balance left to refund of sale `transactionId` by what `state`'s history booked: its
    /// amount less the most it had refunded, less every refund of it still waiting (except
    /// `excluded`'s) — zero while damaged storage or a clock left it unknown (a balance-unknown
    /// record still open at the state's time; once it has passed, what the history booked is what
    /// is left, whatever the clock did: issue 35, G1); nil for a sale never booked.
    public static func balance(of transactionId: String, in state: FlowAlphabet.State, excluding excluded: String, at time: Int64? = nil) -> Int64? {
        guard let sale = state.ghost.sale(transactionId) else { return nil }
        for entry in state.coordinator.ledger.entries where entry.kind == .balanceUnknown && entry.transactionId.sameBytes(transactionId)
            && entry.expiresAt > (time ?? state.now) {
            return 0
        }
        var left = sale.amount - sale.refunded
        for case .pos(let f) in state.coordinator.flows where f.operation == .refund && isWaiting(f) && !f.id.sameBytes(excluded)
            && f.saleTransactionId.map({ $0.sameBytes(transactionId) }) == true {
            left -= f.amount?.minorUnits ?? left
        }
        return Swift.max(left, 0)
    }

    /// The `approved_at` (epoch s) a truthful sale document of `sale` may carry: the time the
    /// ledger booked, and — when that was on a clock behind (the alphabet's 1970 RTC reset, 2 h
    /// behind across midnight, or two days behind) — the real time then. A document claiming another time or amount
    /// is the host's word against the ledger's, which the property does not cover.
    public static func truthfulDocumentTimes(_ sale: FlowAlphabet.Ghost.Sale) -> [Int64] {
        var times = [sale.approvedAt / 1000]
        let behind: [(clock: Int64, real: Int64, span: Int64)] = [
            (FlowAlphabet.rtcReset, FlowAlphabet.start, 86_400_000),
            (FlowAlphabet.behindAcrossMidnight, FlowAlphabet.realAfterMidnight, 7_200_000),
            (FlowAlphabet.twoDaysBehind, FlowAlphabet.start, 86_400_000),  // G1: two days behind
        ]
        for b in behind where sale.approvedAt >= b.clock && sale.approvedAt < b.clock + b.span {
            times.append((b.real + sale.approvedAt - b.clock) / 1000)
        }
        return times
    }

    /// Whether a refund by `document` is one the property covers: a truthful document of a
    /// booked sale (its amount as booked, one of ``truthfulDocumentTimes(_:)``).
    public static func isTruthful(_ document: RefundEligibility.Sale, of sale: FlowAlphabet.Ghost.Sale) -> Bool {
        document.amount.minorUnits == sale.amount && truthfulDocumentTimes(sale).contains(document.approvedAt)
    }

    /// Tries to refund, in `coordinator` at times around what `spec` knows, one centavo more than
    /// each sale of `spec`'s history has left: by a truthful sale document (its booked amount,
    /// approved at each of ``truthfulDocumentTimes(_:)``) and by every approved sale flow of that
    /// sale. Nothing of the kind may start, whatever the clock.
    /// - Parameters:
    ///   - spec: The state whose history says what is left (the coordinator before recovery).
    ///   - coordinator: The coordinator to try (recovered, or `spec`'s own).
    ///   - now: Its clock.
    ///   - what: How it was reached (for the message).
    /// - Returns: The violation, or nil.
    public static func refundProbe(spec: FlowAlphabet.State, coordinator: Coordinator, now: Int64, what: () -> String) -> String? {
        for sale in spec.ghost.sales {
            let documentTimes = truthfulDocumentTimes(sale)
            var times: [Int64] = [now]
            for t in documentTimes.map({ $0 * 1000 + 60_000 }) + [sale.approvedAt + 60_000] where !times.contains(t) { times.append(t) }
            for t in times {
                // What is left at the probe's time: a balance-unknown record the probe's time has
                // passed no longer stands for "nothing left" (the history's own figures do).
                guard let left = balance(of: sale.transactionId, in: spec, excluding: "", at: Swift.max(t, spec.now)), left < 100_000 else { continue }
                let ask = left + 1
                let request: JSONValue = ["transaction": "devolucion", "usertoken": "tok-secret", "identifier": "ord-probe",
                                          "urlScheme": "myapp", "transactionId": .string(sale.transactionId), "amount": .integer(ask)]
                for at in documentTimes {
                    let event: JSONValue = ["type": "pos.start", "flow_id": "probe", "now": .integer(t), "request": request,
                                            "sale": ["transactionid": .string(sale.transactionId), "amount": .integer(sale.amount), "approved_at": .integer(at)]]
                    if sale.amount > 0, accepts(coordinator, event) {
                        return "\(what()): a refund of \(ask) of \(sale.transactionId) by a sale document approved at \(at) s starts at \(t) ms, "
                            + "but it has \(left) left (sold \(sale.amount), refunded \(sale.refunded), or waiting)"
                    }
                }
                for case .pos(let f) in coordinator.flows where f.operation == .sale && f.response?.transactionId.map({ $0.sameBytes(sale.transactionId) }) == true {
                    let event: JSONValue = ["type": "pos.start", "flow_id": "probe", "now": .integer(t), "request": request, "sale_flow_id": .string(f.id)]
                    if accepts(coordinator, event) {
                        return "\(what()): a refund of \(ask) of \(sale.transactionId) by sale_flow_id \(f.id) starts at \(t) ms, "
                            + "but it has \(left) left (sold \(sale.amount), refunded \(sale.refunded), or waiting)"
                    }
                }
            }
        }
        return nil
    }

    static func accepts(_ coordinator: Coordinator, _ json: JSONValue) -> Bool {
        guard let event = try? CoordinatorEvent(json: json) else { return false }
        var copy = coordinator
        var generator = SplitMix64(seed: 35)
        return copy.send(event, using: &generator).outcome == .accepted
    }

    /// Every answer the alphabet can send (deep links and result extras carrying a key), sent to
    /// `coordinator` with `spec`'s history: the step properties (FlowProperties.checkStep) hold,
    /// so no answer a flow of that history was sent moves another flow — nor a flow started
    /// afterwards with the key of a forgotten one.
    public static func answerProbe(_ alphabet: FlowAlphabet, spec: FlowAlphabet.State, coordinator: Coordinator, now: Int64,
                                   what: () -> String) -> String? {
        var state = spec
        state.coordinator = coordinator
        state.now = now
        state.ghost.follow(renamedIn: coordinator)
        let accept = alphabet.configuration.acceptUnverifiedCallbacks
        for letter in alphabet.answerLetters {
            let (after, answer) = alphabet.apply(letter, to: state)
            if let problem = FlowProperties.checkStep(before: state, letter: letter, after: after, answer: answer, acceptUnverified: accept) {
                return "\(what()), then \(letter.label): \(problem)"
            }
        }
        // A key whose first flow is gone, given again by one of the alphabet's starts: if the
        // coordinator takes it, no answer of the alphabet may then move the new flow (what
        // forgetting, or a recovery that lost what remembered the key, would reopen).
        guard state.ghost.keys.contains(where: { !$0.alive }) else { return nil }
        for start in alphabet.startLetters {
            let (started, answer) = alphabet.apply(start, to: state)
            guard answer?.outcome == .accepted, case .event(let kind, _) = start.action else { continue }
            let id: String
            switch kind {
            case .checkoutStart(let flowID, _, _), .posStart(let flowID, _, _, _, _): id = flowID
            default: continue
            }
            guard let flow = started.coordinator.flow(id: id), let key = Recovery.key(of: flow),
                  let first = state.ghost.key(key), !first.alive else { continue }
            for letter in alphabet.answerLetters {
                let (after, answer) = alphabet.apply(letter, to: started)
                if let problem = FlowProperties.checkStep(before: started, letter: letter, after: after, answer: answer, acceptUnverified: accept) {
                    return "\(what()), then \(start.label), then \(letter.label): \(problem)"
                }
            }
        }
        return nil
    }
}

extension FlowAlphabet {
    /// The letters that start a flow with a given nonce or token.
    public var startLetters: [Letter] {
        letters.filter { letter in
            switch letter.action {
            case .event(.checkoutStart, _), .event(.posStart, _): return true
            default: return false
            }
        }
    }

    /// The letters that are answers: deep links and `checkout.browser_result` `ok` URLs carrying
    /// a nonce or a sent identifier, and `pos.result` extras.
    public var answerLetters: [Letter] {
        letters.filter { letter in
            switch letter.action {
            case .url, .event(.browserResult, _): return !(letter.secrets?.nonces.isEmpty ?? true) || !(letter.secrets?.identifiers.isEmpty ?? true)
            case .event(.posResult, _): return true
            default: return false
            }
        }
    }
}

/// Damage done to a snapshot outside the library (FuzzSalvage): byte flips, member renames,
/// deletions, `null`s, type swaps, version swaps, truncation.
public struct SnapshotDamage {
    public enum Kind: Int, CaseIterable {
        case flipBytes, rename, delete, null, swapType, swapVersion, truncate, insertByte
    }

    /// One step of damage, as drawn.
    public struct Step {
        public var kind: Kind
        public var node: Int
        public var choice: Int
        public var bytes: [UInt8]
    }

    public var steps: [Step] = []

    /// Draws one to three steps from the cursor.
    public init(_ c: inout FuzzCursor) {
        let count = 1 + c.below(3)
        for _ in 0..<count {
            let kind = Kind(rawValue: c.below(Kind.allCases.count))!
            let node = Int(c.byte()) << 8 | Int(c.byte())
            let choice = Int(c.byte())
            let bytes = [c.byte(), c.byte(), c.byte(), c.byte(), c.byte(), c.byte()]
            steps.append(Step(kind: kind, node: node, choice: choice, bytes: bytes))
        }
    }

    /// The kinds the issue says strict restore must refuse, whatever they hit (a member made
    /// `null`, of another type, renamed; a version the body is not; a member every format writes
    /// left out): in scope. A member deleted that the format may leave out (``optional``) and
    /// the other kinds (bytes flipped or inserted, an array element deleted, the text cut) are in
    /// scope unless they read as valid (``scope(of:coordinator:)``).
    /// - Parameter document: The document the step is applied to (after the steps before it).
    public static func isStructural(_ step: Step, in document: JSONValue) -> Bool {
        switch step.kind {
        case .rename, .null, .swapType, .swapVersion: return true
        case .delete:
            let paths = SnapshotDamage.paths(document)
            guard !paths.isEmpty, case .key(let index) = paths[step.node % paths.count].last else { return false }
            return required.contains(SnapshotDamage.key(at: paths[step.node % paths.count], index: index, in: document) ?? "")
        default: return false
        }
    }

    /// Members every format writes (0.2 on), wherever they are: a document without one is damage
    /// strict restore refuses, naming it. Any other member may be absent in a document some
    /// version wrote (`remembered_keys`, `refunded_sales`, a flow's `session`, …), so deleting it
    /// can leave a document that reads as valid.
    static let required: Set<String> = ["version", "config", "flows", "ledger", "sales", "refunds", "unknown",
        "id", "type", "state", "pruned_through"]

    /// The name of the member a path's last step names.
    static func key(at path: [PathStep], index: Int, in document: JSONValue) -> String? {
        var node = document
        for step in path.dropLast() {
            switch (step, node) {
            case (.key(let i), .object(let o)) where i < o.members.count: node = o.members[i].value
            case (.index(let i), .array(let a)) where i < a.count: node = a[i]
            default: return nil
            }
        }
        guard case .object(let o) = node, index < o.members.count else { return nil }
        return o.members[index].key
    }

    /// Whether this damage is in scope of the recovery properties, and whether a step of it is
    /// structural. Each step is judged on the document the steps before it left — its node and
    /// byte offsets are counted there, not in the original (judged on the original, a byte
    /// inserted after a `null` landed elsewhere: FuzzSalvage's first run with its probes). Damage
    /// that reads as valid is out of scope (docs/security.md: nothing can tell it from the real
    /// value without an integrity check). A step that is not structural reads as valid when
    /// - it changes what salvage recovers without salvage dropping anything more (a digit changed
    ///   into another; a waiting refund deleted whole after one of its members was damaged: the
    ///   deletion takes away what salvage had caught), or
    /// - it only changed values (the same members, of the same types) and what salvage finally
    ///   recovers still holds every value it changed: a later step removed what told it apart (a
    ///   refund's sale id damaged into another id, refused while the watermark was 0, then the
    ///   watermark deleted — FuzzSalvage's second run).
    ///
    /// Damage is healed, and reads as valid, when the same member is hit again and salvage in the
    /// end drops nothing there or inside it: `flows` swapped into `{}` and that into `[]` (`make
    /// fuzz-long`, issue 35's fifth stop: every flow gone, the list valid and empty — as a
    /// coordinator with no flows writes it, so nothing can tell). A member hit inside another
    /// stays judged as before (`remembered_keys[0][0]` swapped, then `remembered_keys[0]` deleted:
    /// a finding salvage now catches).
    /// - Parameters:
    ///   - original: The undamaged snapshot.
    ///   - coordinator: The coordinator that wrote it.
    /// - Returns: `inScope`, and `structural` when a step is.
    public func scope(of original: JSONValue, coordinator: Coordinator) -> (inScope: Bool, structural: Bool) {
        let limit = coordinator.snapshotLimit
        var current = original
        var recovered = try? Coordinator.Salvage(snapshot: original, snapshotLimit: limit)
        var structural = false
        var changedValues: [String] = []
        var hit: [String] = []
        var hitAgain: [String] = []
        for step in steps {
            if let path = SnapshotDamage.pathName(step, in: current) {
                if hit.contains(path) { hitAgain.append(path) }
                hit.append(path)
            }
            let isStructural = SnapshotDamage.isStructural(step, in: current)
            structural = structural || isStructural
            guard let next = SnapshotDamage.apply(step, to: current).document else { break }
            let salvaged = try? Coordinator.Salvage(snapshot: next, snapshotLimit: limit)
            if !isStructural {
                if let before = recovered, let after = salvaged,
                   Set(after.dropped.map(\.member)).isSubset(of: before.dropped.map(\.member)), after.coordinator != before.coordinator {
                    return (false, structural)
                }
                if let changed = SnapshotDamage.changedValues(current, next) { changedValues += changed }
            }
            current = next
            recovered = salvaged
        }
        if let final = recovered, !changedValues.isEmpty,
           changedValues.allSatisfy({ path in !final.dropped.contains(where: { SnapshotDamage.covers($0.member, path) }) }) {
            return (false, structural)
        }
        if let final = recovered, hitAgain.contains(where: { path in
            !final.dropped.contains(where: { SnapshotDamage.covers($0.member, path) || SnapshotDamage.covers(path, $0.member) })
        }) {
            return (false, structural)
        }
        return (true, structural)
    }

    /// The member a step that edits one member hits (`flows`, `flows[1].operation`), named in the
    /// document it is applied to; `nil` for the steps that edit text (flips, a byte inserted,
    /// truncation) or the version.
    static func pathName(_ step: Step, in document: JSONValue) -> String? {
        switch step.kind {
        case .rename, .delete, .null, .swapType:
            let names = nodeNames(document)
            return names.isEmpty ? nil : names[step.node % names.count]
        default:
            return nil
        }
    }

    /// The paths (`flows[1].sale_transactionid`, `ledger.sales[0][0]`) of the values that differ
    /// between two documents of the same shape — the same members in the same order, the same
    /// types —, or `nil` when the shapes differ.
    static func changedValues(_ a: JSONValue, _ b: JSONValue) -> [String]? {
        var changed: [String] = []
        func walk(_ a: JSONValue, _ b: JSONValue, _ path: String) -> Bool {
            switch (a, b) {
            case (.object(let x), .object(let y)):
                guard x.members.count == y.members.count else { return false }
                for (m, n) in zip(x.members, y.members) {
                    guard m.key == n.key, walk(m.value, n.value, path.isEmpty ? m.key : path + "." + m.key) else { return false }
                }
                return true
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                for (i, (m, n)) in zip(x, y).enumerated() where !walk(m, n, path + "[" + String(i) + "]") { return false }
                return true
            case (.null, .null): return true
            case (.bool, .bool), (.integer, .integer), (.string, .string):
                if a != b { changed.append(path) }
                return true
            default: return false
            }
        }
        return walk(a, b, "") ? changed : nil
    }

    /// Whether a dropped member (`flows[1]`, `ledger.pruned_through`) is, or holds, `path`.
    static func covers(_ member: String, _ path: String) -> Bool {
        path == member || path.hasPrefix(member + ".") || path.hasPrefix(member + "[")
    }

    /// The text of `document` damaged by every step in turn; nil when a step leaves text that is
    /// not JSON (later steps then have nothing to work on).
    public func apply(to document: JSONValue) -> (text: String, document: JSONValue?) {
        var document: JSONValue? = document
        var text = JSONText.render(document!)
        for step in steps {
            guard let current = document else { break }
            (text, document) = SnapshotDamage.apply(step, to: current)
        }
        return (text, document)
    }

    enum PathStep { case key(Int), index(Int) }

    /// The nodes ``Step/node`` counts, by name (`flows[1].operation`, `ledger.sales`): how an input
    /// is written for a named member (FuzzSalvage --encode).
    public static func nodeNames(_ document: JSONValue) -> [String] {
        var names: [String] = []
        func walk(_ value: JSONValue, _ prefix: String) {
            switch value {
            case .object(let o):
                for member in o.members {
                    let name = prefix.isEmpty ? member.key : prefix + "." + member.key
                    names.append(name)
                    walk(member.value, name)
                }
            case .array(let a):
                for (i, element) in a.enumerated() {
                    let name = prefix + "[" + String(i) + "]"
                    names.append(name)
                    walk(element, name)
                }
            default: break
            }
        }
        walk(document, "")
        return names
    }

    /// Every node but the root, depth first.
    static func paths(_ value: JSONValue) -> [[PathStep]] {
        var out: [[PathStep]] = []
        func walk(_ value: JSONValue, _ prefix: [PathStep]) {
            switch value {
            case .object(let o):
                for (i, member) in o.members.enumerated() { out.append(prefix + [.key(i)]); walk(member.value, prefix + [.key(i)]) }
            case .array(let a):
                for (i, element) in a.enumerated() { out.append(prefix + [.index(i)]); walk(element, prefix + [.index(i)]) }
            default: break
            }
        }
        walk(value, [])
        return out
    }

    /// `body` applied to the node at `path` (returning nil deletes it; `rename` gives a new key).
    static func edit(_ value: JSONValue, _ path: ArraySlice<PathStep>, rename: ((String) -> String)? = nil,
                     _ body: (JSONValue) -> JSONValue?) -> JSONValue {
        guard let first = path.first else { return body(value) ?? .null }
        switch (value, first) {
        case (.object(let o), .key(let i)):
            var out = JSONObject()
            for (j, member) in o.members.enumerated() {
                if j != i { out[member.key] = member.value; continue }
                let key = path.count == 1 ? (rename?(member.key) ?? member.key) : member.key
                if path.count == 1 {
                    if rename != nil { out[key] = member.value } else if let v = body(member.value) { out[key] = v }
                } else {
                    out[key] = edit(member.value, path.dropFirst(), rename: rename, body)
                }
            }
            return .object(out)
        case (.array(var a), .index(let i)):
            if path.count == 1 {
                if let v = body(a[i]) { a[i] = v } else { a.remove(at: i) }
            } else {
                a[i] = edit(a[i], path.dropFirst(), rename: rename, body)
            }
            return .array(a)
        default:
            return value
        }
    }

    static let flipBytes: [UInt8] = Array("0 9\",]}:aZ~.-1\\n".utf8)

    static func apply(_ step: Step, to document: JSONValue) -> (text: String, document: JSONValue?) {
        let paths = SnapshotDamage.paths(document)
        var result = document
        switch step.kind {
        case .flipBytes, .truncate, .insertByte:
            var bytes = Array(JSONText.render(document).utf8)
            guard !bytes.isEmpty else { break }
            let at = step.node % bytes.count
            switch step.kind {
            case .flipBytes:
                // One to three bytes from `at`, each set to a byte of the JSON grammar or XORed.
                for k in 0..<(1 + step.choice % 3) where at + k < bytes.count {
                    let b = step.bytes[k]
                    bytes[at + k] = b & 1 == 0 ? flipBytes[Int(b >> 1) % flipBytes.count] : bytes[at + k] ^ (b | 1)
                }
            case .truncate:
                bytes.removeSubrange(at...)
            default:
                bytes.insert(flipBytes[step.choice % flipBytes.count], at: at)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            return (text, try? JSONText.parse(text, parameter: "snapshot", limit: JSONText.maxSnapshotBytes))
        case .swapVersion:
            guard case .object(var o) = document else { break }
            o["version"] = .integer([2, 3, 4][step.choice % 3])
            result = .object(o)
        case .rename, .delete, .null, .swapType:
            guard !paths.isEmpty else { break }
            let path = paths[step.node % paths.count][...]
            switch step.kind {
            case .rename:
                guard case .key = path.last! else { return apply(Step(kind: .null, node: step.node, choice: step.choice, bytes: step.bytes), to: document) }
                result = edit(document, path, rename: { key in
                    var bytes = Array(key.utf8)
                    switch step.choice % 4 {
                    case 0: if !bytes.isEmpty { bytes[step.bytes[0] == 0 ? 0 : Int(step.bytes[0]) % bytes.count] ^= 0x20 }  // case flipped
                    case 1: bytes.append(UInt8(ascii: "_"))
                    case 2: if !bytes.isEmpty { bytes.removeLast() }
                    default: bytes.insert(UInt8(ascii: " "), at: Int(step.bytes[1]) % (bytes.count + 1))
                    }
                    return String(decoding: bytes, as: UTF8.self)
                }) { $0 }
            case .delete:
                result = edit(document, path) { _ in nil }
            case .null:
                result = edit(document, path) { _ in .null }
            default:
                result = edit(document, path) { value in
                    let swaps: [JSONValue]
                    switch value {
                    case .string: swaps = [true, [], [:], -1]
                    case .integer: swaps = ["x", true, [], [:]]
                    case .array: swaps = [[:], "", 0, false]
                    case .object: swaps = [[], "", 0, true]
                    case .bool: swaps = [1, "true", [], [:]]
                    case .null: swaps = ["", 0, [], [:]]
                    }
                    return swaps[step.choice % swaps.count]
                }
            }
        }
        return (JSONText.render(result), result)
    }
}
