/// The correlation keys of forgotten flows whose keys the host gave, so that forgetting a flow
/// never reopens its answer (issue 35, item 5).
///
/// A fresh nonce or token (128 bits from the system's random source) is never given twice, so an
/// answer meant for a forgotten flow can reach no other. A key the host gives — the nonce of a
/// session its backend created (which cannot be fresh), or a token or nonce a test fixes — could
/// be given again: once its flow is forgotten (`flow.remove`, the 32-ended rule, a start that
/// needs room), a replayed approval of yesterday would approve the new sale and book a sale that
/// never happened, and a replayed `cancelled` callback would cancel the new checkout. So the
/// coordinator remembers such a key when it forgets its flow, and a start with a remembered key
/// is `conflict` exactly as with a key a flow still holds.
///
/// **The horizon.** A key is remembered for ``horizonMilliseconds`` (3 days) after its flow was
/// forgotten or, for a checkout, after its deadline if that is later: a callback may arrive until
/// the deadline, and the confirmation (the gateway's webhook, relayed by the backend) as long as
/// the gateway retries it — Stripe resends an undelivered webhook for up to three days
/// (docs.stripe.com/webhooks/process-undelivered-events); the gateway's own documentation states
/// no figure. A host key used again after that is the host's bug, and no longer caught.
///
/// **A clock that is wrong** (issue 35, B6) must not end a horizon early: a `tick` days ahead
/// would forget every key at once, and a key forgotten at a 1970 clock (an RTC reset) would be
/// let go by the first corrected event. So the horizon is counted on the time the coordinator has
/// seen pass, not on any one event's clock: while it remembers a key it keeps the latest time an
/// accepted event carried (``latestEventAt``), a key's horizon starts at the later of its
/// forgetting and that time, and an event more than ``largestStepMilliseconds`` (12 hours) after
/// that time moves every horizon on by what it jumped beyond those 12 hours (so does the lock
/// below). Keys without that time (a salvage, a snapshot without it: the format-4 shape written
/// before the clock existed, or a binding that re-encodes the snapshot without the member) get it
/// at the next event: the earliest horizon's start (`until` − 3 days; not the latest, which a
/// checkout's host-given deadline can put after every event: X4), never later than that event,
/// so its jump counts as 12 hours like any other (issue 35, K1; before, that
/// event started the clock and counted nothing, and a second event days ahead ended every
/// horizon). An event behind that time ends no horizon it had not ended already.
/// A jump — a clock corrected forwards, a clock ahead, or an app left closed overnight or for a
/// weekend — counts as 12 hours: a wrong clock can end a key's horizon at most 12 hours before
/// its 3 days have really passed, and a closed app keeps its keys longer by the time it was
/// closed less 12 hours a closing. The horizon is time only (no count of events), so the keys
/// stay bounded by what the app did in that time. What it does not cover: a host that sends
/// events dated ahead in steps of less than 12 hours (each counts whole).
///
/// **Short digests, not secrets.** A key is kept as a 64-bit digest (FNV-1a of the key with its
/// kind and, for a POS hand-off, its answer scheme), 16 hex digits in the snapshot, whatever the
/// key's length, so the snapshot does not grow with secrets. It is not keyed: the snapshot holds
/// the keys of the flows it still has in clear anyway, and a collision (2⁻⁶⁴ a pair) only refuses
/// a start with `conflict`.
///
/// **Room.** A flow with a host-given key reserves its digest's room from its start
/// (``reservedPerKey``), so forgetting it never needs room; remembered keys leave only at their
/// horizon (the first accepted event at or after it), never for room.
///
/// **A salvage that drops a flow** keeps its key remembered for good when the element still shows
/// it (type and key members read, and strict reading did not fail on them; refusing one host key
/// is harmless), and refuses every host-given key as below when it does not (or when `flows` is
/// lost as a whole, or the snapshot has a member it does not know: it may be this list renamed). A key member damaged into another valid key *and* another member damaged
/// is beyond what it can see (docs/security.md).
///
/// **A salvage that cannot read them.** When a salvage cannot read the `remembered_keys` list
/// whole, a key it held can no longer be told apart, so every host-given key is refused until
/// ``horizonMilliseconds`` after the next accepted event
/// (``allGivenUntil``: −1 until that event, then its time plus the horizon; written as the first
/// entry, `["*", 0]` or `["*", until]`). Keys whose digest still reads are kept (for good when their
/// time is damaged: refusing one host key is harmless). Fresh keys are never refused.
///
/// In the snapshot: `"remembered_keys": [["<16 hex digits>", <until, epoch ms>], …]` and
/// `"latest_event": <epoch ms>`, written only when there is one (a snapshot without
/// `latest_event` gets it at its next event, as above). A snapshot without the member (format 3, written by 0.3.0) remembers
/// nothing: the keys of flows it forgot before are not known.
public struct RememberedKeys: Equatable, Sendable {
    /// One remembered key.
    public struct Key: Equatable, Sendable {
        /// The key's digest.
        public let digest: UInt64
        /// When it stops being remembered, epoch ms.
        public let until: Int64
    }

    /// The keys, in the order their flows were forgotten.
    public private(set) var keys: [Key] = []
    /// Until when every host-given key is refused, after a salvage that may have lost a key: epoch
    /// ms; −1 until the next accepted event (then its time plus the horizon); 0 when none is.
    public private(set) var allGivenUntil: Int64 = 0
    /// The latest time an accepted event carried while a key (or the lock) was remembered, epoch
    /// ms; 0 when none is, or when not known yet (then the next event sets it).
    public private(set) var latestEventAt: Int64 = 0

    /// The most one event may move the horizons' clock on: a longer step (a clock corrected
    /// forwards or running ahead, an app closed overnight) counts as this much.
    public static let largestStepMilliseconds: Int64 = 12 * 3_600_000

    /// How long a key is remembered after its flow was forgotten (or, for a checkout, after its
    /// deadline when that is later): the 3 days a gateway retries its webhook.
    public static let horizonMilliseconds: Int64 = 3 * 86_400_000

    /// An empty set.
    public init() {}

    /// Whether `digest` is remembered at `now` (a key past its horizon is not, even before an
    /// accepted event prunes it).
    func holds(_ digest: UInt64, at now: Int64) -> Bool {
        allGivenUntil < 0 || allGivenUntil > now || keys.contains { $0.digest == digest && $0.until > now }
    }

    /// Refuses every host-given key until the horizon after the next accepted event (a salvage
    /// that may have lost a key).
    mutating func lockGivenKeys() {
        allGivenUntil = -1
    }

    /// Remembers `digest` until `until` (``Coordinator/Flow/keyRememberedUntil(forgottenAt:latest:)``).
    /// - Parameters:
    ///   - digest: The key's digest.
    ///   - until: Its horizon, epoch ms.
    ///   - now: The forgetting event's time (`nil` in a salvage): the clock starts there when
    ///     no key was remembered.
    mutating func remember(_ digest: UInt64, until: Int64, now: Int64? = nil) {
        if latestEventAt == 0, let now { latestEventAt = now }
        keys.append(Key(digest: digest, until: Swift.min(until, MexicoCityTime.maxEpochMilliseconds)))
    }

    /// At an accepted event at `now`: moves every horizon on by what the event jumped beyond
    /// ``largestStepMilliseconds`` after ``latestEventAt``, then forgets the keys whose horizon
    /// passed by `now`.
    mutating func prune(now: Int64) {
        guard !keys.isEmpty || allGivenUntil != 0 else {
            latestEventAt = 0  // nothing to count for
            return
        }
        if latestEventAt <= 0 {
            // Keys without their clock (a salvage, a snapshot without `latest_event`: the format-4
            // shape written before the clock existed, or a binding's re-encoding without it; issue
            // 35, K1). This event may be a jump of any size, and it must not be where the unknown
            // gap counts as nothing (the next event a minute later would then end every horizon):
            // the clock starts at the earliest horizon's start (until − horizon; ``provenForgetting``),
            // never later than this event, so this jump counts as 12 hours like any other.
            latestEventAt = Swift.min(now, RememberedKeys.provenForgetting(keys) ?? now)
        }
        // What the event jumped beyond the largest step (0: every horizon stays where it is).
        var jump: Int64 = 0
        if now - latestEventAt > RememberedKeys.largestStepMilliseconds { jump = now - latestEventAt - RememberedKeys.largestStepMilliseconds }
        func moved(_ time: Int64) -> Int64 { Swift.min(time, MexicoCityTime.maxEpochMilliseconds - jump) + jump }
        if allGivenUntil > 0 { allGivenUntil = moved(allGivenUntil) }
        latestEventAt = Swift.max(latestEventAt, now)
        // Moved and pruned in one pass (a map and a removeAll are each a specialization of their own).
        var kept: [Key] = []
        for key in keys where moved(key.until) > now { kept.append(Key(digest: key.digest, until: moved(key.until))) }
        keys = kept
        if allGivenUntil < 0 {
            allGivenUntil = Swift.min(latestEventAt, MexicoCityTime.maxEpochMilliseconds - RememberedKeys.horizonMilliseconds)
                + RememberedKeys.horizonMilliseconds
        } else if allGivenUntil <= now {
            allGivenUntil = 0
        }
        if keys.isEmpty && allGivenUntil == 0 { latestEventAt = 0 }
    }

    /// Where the keys' clock starts when it was lost: the earliest horizon's start (``Key/until``
    /// less ``horizonMilliseconds``) over keys with a finite horizon; `nil` when none has one (keys
    /// a salvage keeps for good). The earliest, not the latest: a checkout key's horizon starts at
    /// its deadline, which the host gives and may be after every event (an OXXO voucher lives 3+
    /// days); started there, the first event's jump would count nothing and end a spent POS
    /// token's horizon (issue 35, X4). Started at the earliest, the key that ends first has its
    /// jump counted; the others are kept longer, which only refuses more.
    static func provenForgetting(_ keys: [Key]) -> Int64? {
        var proven: Int64? = nil
        for key in keys where key.until < MexicoCityTime.maxEpochMilliseconds && key.until >= RememberedKeys.horizonMilliseconds {
            proven = Swift.min(proven ?? Int64.max, key.until - RememberedKeys.horizonMilliseconds)
        }
        return proven
    }

    // MARK: - Digests

    /// The digest of a checkout's nonce.
    static func digest(nonce: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(UInt8(ascii: "c"))
        hash.add(0)
        hash.add(nonce.utf8)
        return hash.value
    }

    /// The digest of a POS hand-off's key: the identifier it sent (`<identifier>~<token>`) on
    /// its answer scheme (compared ignoring ASCII case, as routing does).
    static func digest(sentIdentifier: String, scheme: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(UInt8(ascii: "p"))
        hash.add(0)
        hash.add(scheme.utf8, foldingCase: true)
        hash.add(0)
        hash.add(sentIdentifier.utf8)
        return hash.value
    }

    /// 64-bit FNV-1a.
    private struct FNV1a {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        /// Adds `bytes`, ASCII capitals as small letters when `foldingCase` (one loop over the
        /// view for every key: each loop inlines the view's iterator).
        mutating func add(_ bytes: String.UTF8View, foldingCase: Bool = false) {
            for byte in bytes { add(foldingCase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        }
    }

    // MARK: - Snapshot

    /// The most one remembered key takes in the snapshot, its comma included:
    /// `["0123456789abcdef",253402300799999],`.
    static let maxKeyLength = 2 + 18 + 1 + 15 + 1
    /// The members around the keys: `,"remembered_keys":[]` and `,"latest_event":<15 digits>`.
    static let memberLength = 22 + 31
    /// What a flow with a host-given key reserves from its start for the key it leaves behind
    /// (the member's own room included, as if it were the first).
    static let reservedPerKey = maxKeyLength + memberLength

    /// The room the keys take in the snapshot, the member included.
    var reservedLength: Int {
        guard !keys.isEmpty || allGivenUntil != 0 else { return 0 }
        var total = RememberedKeys.memberLength  // latest_event at its widest: the next event may set it
        for key in keys { total += 2 + 18 + 1 + JSONValue.digits(key.until) + 1 }
        if allGivenUntil != 0 { total += 2 + 3 + 1 + 15 + 1 }  // ["*",<up to 15 digits>],
        return total
    }

    /// The digest as the snapshot writes it: 16 lowercase hex digits.
    static func hex(_ digest: UInt64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for shift in stride(from: 60, through: 0, by: -4) {
            let nibble = UInt8(truncatingIfNeeded: digest >> UInt64(shift)) & 0x0F
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The digest written as ``hex(_:)``, or `nil`.
    static func digest(hex text: String) -> UInt64? {
        guard text.utf8.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }

    /// Writes the `remembered_keys` member when there is a key (inside the snapshot's object).
    func writeMember(to writer: JSONWriter) {
        guard !keys.isEmpty || allGivenUntil != 0 else { return }
        writer.beginArray("remembered_keys")
        if allGivenUntil != 0 {
            writer.beginArray()
            writer.string("*")
            writer.integer(Swift.max(allGivenUntil, 0))
            writer.end()
        }
        for key in keys {
            writer.beginArray()
            writer.string(RememberedKeys.hex(key.digest))
            writer.integer(key.until)
            writer.end()
        }
        writer.end()
        if latestEventAt > 0 { writer.member("latest_event", integer: latestEventAt) }
    }

    /// The keys of a snapshot's `remembered_keys` member (absent: none).
    /// - Throws: `invalid_json`/`validation` naming the entry (`remembered_keys[2][0]`); two
    ///   entries with one digest are `validation` (the coordinator never remembers a key twice).
    init<R: JSONReader>(snapshot members: JSONMembers<R>) throws(PayHandoffError) {
        // `null` is never written (the member is left out when empty): damage, not "none".
        guard members.member(StaticString("remembered_keys").bytes) != nil else {
            if members.member(StaticString("latest_event").bytes) != nil {
                throw PayHandoffError(.validation, field: "latest_event", "is written only with remembered_keys")
            }
            return
        }
        if members.member(StaticString("latest_event").bytes) != nil {
            let latest = try members.integer("latest_event")
            try MexicoCityTime.checkEpochMilliseconds(latest, field: "latest_event")
            guard latest > 0 else { throw PayHandoffError(.validation, field: "latest_event", "is written only when known") }
            latestEventAt = latest
        }
        let list = try members.requiredArray("remembered_keys")
        let reader = members.reader
        var index = 0
        var keys: [Key] = []
        try reader.forEach(in: list) { element throws(PayHandoffError) in
            let field = "remembered_keys[" + String(index) + "]"
            index += 1
            var items: [R.Node] = []
            if reader.kind(of: element) == .array { try? reader.forEach(in: element) { items.append($0) } }
            guard items.count == 2 else {
                throw PayHandoffError(.invalidJSON, field: field, "must be an array of a digest and a time")
            }
            guard reader.kind(of: items[1]) == .integer else {
                throw JSONMembers<R>.wrongType(field + "[1]", expected: "an integer", found: reader.kind(of: items[1]))
            }
            let until = reader.integer(items[1])
            try MexicoCityTime.checkEpochMilliseconds(until, field: field + "[1]")
            if index == 1, reader.kind(of: items[0]) == .string, reader.string(items[0]).hasSameBytes(as: "*") {
                allGivenUntil = until == 0 ? -1 : until
                return
            }
            guard reader.kind(of: items[0]) == .string, let digest = RememberedKeys.digest(hex: reader.string(items[0])) else {
                throw PayHandoffError(.validation, field: field + "[0]", "must be 16 lowercase hex digits (or \"*\" first)")
            }
            guard !keys.contains(where: { $0.digest == digest }) else {
                throw PayHandoffError(.validation, field: field + "[0]", "this key is remembered twice")
            }
            keys.append(Key(digest: digest, until: until))
        }
        // Never written empty (the member is left out): a list that lost its entries, not "none".
        guard !keys.isEmpty || allGivenUntil != 0 else {
            throw PayHandoffError(.validation, field: "remembered_keys", "is never written empty (left out when there is no key)")
        }
        // Every accepted event lets go of the keys whose horizon its time reached, and
        // `latest_event` is the latest such time: a key ending before it was never written beside
        // it (at it exactly: a key remembered at the end of time, 9999-12-31, capped there). One digit of `latest_event` damaged days ahead would otherwise let the next
        // event, counted from there, end a spent key's horizon (issue 35, fifth attack Z4).
        if latestEventAt > 0, keys.contains(where: { $0.until < latestEventAt }) || (allGivenUntil > 0 && allGivenUntil < latestEventAt) {
            throw PayHandoffError(.validation, field: "latest_event",
                "is after the horizon of a key remembered beside it (the event that saw that time let the key go)")
        }
        self.keys = keys
    }

    /// The digest of the key a flow a salvage dropped still shows (``Coordinator/Salvage``), or
    /// `nil` when it may not be the key the flow had: its type or key members do not read, or the
    /// strict reading failed on one of them. A fresh key's digest is harmless to remember (no
    /// start is given it again), so `given_key` is not asked.
    /// - Parameters:
    ///   - element: The dropped flow's document.
    ///   - error: Why strict reading refused it (its `field` names the member, or nothing).
    /// - Returns: The digest, as ``Coordinator/Flow/keyDigest`` would give it.
    static func digest<R: JSONReader>(ofDropped element: JSONMembers<R>, error: PayHandoffError) -> UInt64? {
        if let field = error.field {
            // One outlined compare each (an array of the five names is built and walked at every call).
            if field.hasSameBytes(as: "type") || field.hasSameBytes(as: "nonce") || field.hasSameBytes(as: "identifier")
                || field.hasSameBytes(as: "token") || field.hasSameBytes(as: "answer_scheme") { return nil }
        }
        func text(_ key: StaticString) -> String? {
            guard let value = (try? element.optionalString(key)) ?? nil, !value.isEmpty else { return nil }
            return value
        }
        guard let type = text("type") else { return nil }
        if type.hasSameBytes(as: "checkout") {
            guard let nonce = text("nonce"), (try? CorrelationSecret.check(nonce, field: "nonce")) != nil else { return nil }
            return digest(nonce: nonce)
        }
        guard type.hasSameBytes(as: "pos"), let identifier = text("identifier"), let token = text("token"),
              let scheme = text("answer_scheme") else { return nil }
        return digest(sentIdentifier: identifier + "~" + token, scheme: scheme)
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// The digest of the key a dropped POS flow's answer echoes (`response.identifier`, the
    /// `<identifier>~<token>` the POS app sent back), or `nil` when it does not read. The answer
    /// is the key as it really was: a token damaged into another valid one is refused by strict
    /// reading at `response.identifier`, not at `token`, so the digest ``digest(ofDropped:error:)``
    /// gives is the damaged token's; remembering the echoed one too keeps the real, spent key
    /// refused (issue 35, fifth attack Z5). Remembering a digest no key has is harmless.
    /// - Parameter element: The dropped flow's document.
    /// - Returns: The digest, as ``Coordinator/Flow/keyDigest`` would give it for that identifier.
    static func echoedDigest<R: JSONReader>(ofDropped element: JSONMembers<R>) -> UInt64? {
        guard let type = (try? element.optionalString("type")) ?? nil, type.hasSameBytes(as: "pos"),
              let scheme = (try? element.optionalString("answer_scheme")) ?? nil, !scheme.isEmpty,
              let response = (try? element.optionalObject("response")) ?? nil,
              let echoed = (try? response.optionalString("identifier")) ?? nil, !echoed.isEmpty else { return nil }
        return digest(sentIdentifier: echoed, scheme: scheme)
    }
    #endif

    /// The keys a salvage keeps from a `remembered_keys` member that strict reading refused: every
    /// digest that still reads (until the time its entry shows, or for good), every host-given key
    /// locked (see the type's *A salvage that may have lost a key*).
    /// - Parameter members: The snapshot's members.
    /// - Returns: What could be kept.
    static func salvaging<R: JSONReader>(_ members: JSONMembers<R>) -> RememberedKeys {
        var kept = RememberedKeys()
        kept.lockGivenKeys()
        if let latest = (try? members.optionalInteger("latest_event")) ?? nil, latest > 0, latest <= MexicoCityTime.maxEpochMilliseconds {
            kept.latestEventAt = latest
        }
        let reader = members.reader
        guard let list = (try? members.optionalArray("remembered_keys")) ?? nil else { return kept }
        try? reader.forEach(in: list) { element in
            var items: [R.Node] = []
            if reader.kind(of: element) == .array { try? reader.forEach(in: element) { items.append($0) } }
            guard items.count >= 1, reader.kind(of: items[0]) == .string,
                  let digest = RememberedKeys.digest(hex: reader.string(items[0])),
                  !kept.keys.contains(where: { $0.digest == digest }) else { return }
            var until = MexicoCityTime.maxEpochMilliseconds
            if items.count >= 2, reader.kind(of: items[1]) == .integer {
                let value = reader.integer(items[1])
                if value > 0, value <= MexicoCityTime.maxEpochMilliseconds { until = value }
            }
            kept.keys.append(Key(digest: digest, until: until))
        }
        // A key ending before the clock (``init(snapshot:)``): the clock is what was damaged,
        // or may be; it is dropped, and the keys count from the next event as keys without theirs (K1).
        if kept.keys.contains(where: { $0.until < kept.latestEventAt }) { kept.latestEventAt = 0 }
        return kept
    }
}

extension Coordinator.Flow {
    /// The digest of this flow's correlation key when the host gave it (`nil` for a fresh key,
    /// which no other flow can be given, and for a checkout without nonce).
    var givenKeyDigest: UInt64? {
        switch self {
        case .checkout(let f):
            guard f.keyGiven, let nonce = f.nonce else { return nil }
            return RememberedKeys.digest(nonce: nonce)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos(let f):
            guard f.keyGiven else { return nil }
            return RememberedKeys.digest(sentIdentifier: f.sentIdentifier, scheme: f.answerScheme)
        #endif
        }
    }

    /// The digest of this flow's correlation key, given or fresh (what a remembered key is
    /// compared with); `nil` for a checkout without nonce.
    var keyDigest: UInt64? {
        switch self {
        case .checkout(let f):
            return f.nonce.map { RememberedKeys.digest(nonce: $0) }
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos(let f):
            return RememberedKeys.digest(sentIdentifier: f.sentIdentifier, scheme: f.answerScheme)
        #endif
        }
    }

    /// Until when this flow's key is remembered once it is forgotten at `now` (`nil`: a salvage,
    /// which has no event time, uses the latest time the flow holds).
    func keyRememberedUntil(forgottenAt now: Int64?) -> Int64 {
        var base: Int64 = now ?? 0
        switch self {
        case .checkout(let f):
            base = Swift.max(base, f.deadline)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos(let f):
            if now == nil { base = Swift.max(f.answeredAt ?? 0, f.foregroundedAt ?? 0) }
        #endif
        }
        return Swift.min(base, MexicoCityTime.maxEpochMilliseconds - RememberedKeys.horizonMilliseconds)
            + RememberedKeys.horizonMilliseconds
    }
}
