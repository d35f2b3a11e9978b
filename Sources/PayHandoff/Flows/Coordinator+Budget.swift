/// The snapshot's one budget rule, applied identically where state is written and where it is
/// read: **anything the coordinator hands out as a snapshot restores to an equal coordinator.**
///
/// Every flow *reserves* the most its snapshot document can ever take: its members as they are
/// now, plus room for every member a later event or deep link may still add or replace — the
/// session while it waits for one, the callback slot until a verified callback fills it (claims
/// replace each other inside it), the confirmation, the POS answer and its ledger entry, the
/// longest state name, every time stamp at its widest. Nothing after a flow's start can make its
/// reservation grow: each of those members, once written, is at most what was reserved for it.
/// A ledger entry reserves its printed length with `refunded` as wide as `amount`.
///
/// So the rule is checked only where room is taken — a start (`checkout.start`, `pos.start`) and
/// a restore — and never again: the host's own events for a flow it started, time passing and
/// every deep link (genuine or claimed) only fill room already reserved for that flow, and can
/// never be refused for space. When a start does not fit, the coordinator first forgets ended
/// flows, oldest first (their results were handed out already; the ledger keeps the money), then
/// the ledger entries approved first, moving the ledger's watermark past them (their refunds are
/// refused as `ledger_pruned`, never paid twice); only when the flows still waiting for a result
/// fill the snapshot by themselves is the start refused, with `limit_exceeded`.
///
/// A coordinator holds flows in flight, not a history: besides what room asks for, a start also
/// forgets ended flows beyond the ``keptEndedFlows`` most recent, so that a busy terminal's
/// snapshot stays small and quick to write on every event while its ledger holds the day's money.
/// (A sale forgotten this way is refunded with its `sale` document; its balance is in the ledger.)
///
/// The limit is ``maxSnapshotBytes`` (`PAYHANDOFF_MAX_SNAPSHOT_BYTES`), what the C ABI reads as a
/// snapshot; ``snapshotLimit`` may be set lower (tests use a few KiB, so that "near full" means a
/// few flows).
extension Coordinator {
    /// The most bytes a snapshot takes as JSON text: what `payhandoff_coordinator_restore` reads.
    /// 256 KiB: 2,000 sales of one day (10-digit ids) with their refunds and 20 flows in flight.
    public static let maxSnapshotBytes = 262_144

    /// How many ended flows a start keeps, most recent first (older ones are forgotten).
    public static let keptEndedFlows = 32

    /// The document around the flows and the ledger at its widest: version, configuration
    /// (integers of up to 15 digits), the ledger's watermark and the empty lists (with
    /// `refunded_sales`), and `converted_reserve` (10 digits).
    static let documentReserve = 352 + RefundLedger.refundedSalesMemberLength

    /// The snapshot's printed length at most, with every flow's reservation (the budget's measure).
    public var reservedSnapshotLength: Int {
        var total = Coordinator.documentReserve
        for flow in flows { total += flow.reservedLength + 1 }
        #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module's ledger holds no entry or record (RefundLedger.entries)
        for entry in ledger.entries { total += entry.reservedLength + 1 }
        total += ledger.refundedSalesLength
        #endif
        return total + rememberedKeys.reservedLength
    }

    /// What a start does after adding its flow: when the reservations pass ``snapshotLimit``,
    /// forgets ended flows (oldest first), then the ledger entries approved first, until they fit;
    /// refunded sales' records only when no other flow waits (X1).
    /// A forgotten flow whose key the host gave leaves it remembered (``RememberedKeys``), in
    /// room its reservation held.
    /// - Parameter now: The start's time (`nil` in a salvage: see ``Coordinator/Flow/isPending(at:)``).
    /// - Returns: The ids of the flows forgotten.
    /// - Throws: `limit_exceeded` when the flows still waiting fill the snapshot by themselves.
    mutating func makeRoom(now: Int64? = nil) throws(PayHandoffError) -> [String] {
        var forgotten: [String] = []
        var ended = 0
        for flow in flows where !flow.isPending(at: now) { ended += 1 }
        if ended > Coordinator.keptEndedFlows {
            var excess = ended - Coordinator.keptEndedFlows
            var index = 0
            while excess > 0, index < flows.count {
                if flows[index].isPending(at: now) {
                    index += 1
                } else {
                    forgotten.append(flows[index].id)
                    forgetFlow(at: index, now: now)
                    excess -= 1
                }
            }
        }
        var total = reservedSnapshotLength
        guard total > snapshotLimit else {
            convertedReserve = 0  // a converted coordinator's flows fit again: the rule is the limit's
            return forgotten
        }
        // Ended flows first; then checkouts that failed or were cancelled and are only kept for
        // the webhook the gateway may still retry (oldest first): refusing every start until
        // their 3 days pass would stop the app, and their late confirmation is still answered
        // (`unknown_flow`: ask the backend). Flows still waiting, and expired checkouts, never.
        for pass in 0..<2 {
            var index = 0
            while total > snapshotLimit, index < flows.count {
                let forgettable = pass == 0 ? !flows[index].isPending(at: now) : flows[index].awaitsOnlyItsWebhook
                if !forgettable {
                    index += 1
                } else {
                    let before = rememberedKeys.reservedLength
                    total -= flows[index].reservedLength + 1
                    forgotten.append(flows[index].id)
                    forgetFlow(at: index, now: now)
                    total += rememberedKeys.reservedLength - before
                }
            }
        }
        var waiting = 0
        for flow in flows where flow.isPending(at: now) { waiting += 1 }
        #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module's ledger holds no entry or record (RefundLedger.entries)
        while total > snapshotLimit, let oldest = ledger.oldestEntry {
            let recorded = ledger.refundedSalesLength
            total -= oldest.reservedLength + 1
            _ = ledger.dropOldest()
            total += ledger.refundedSalesLength - recorded  // a refunded sale leaves its record, in room it reserved
        }
        // Then what refunded sales recorded, oldest first — but only when no other flow waits (a
        // limit set so low that the records and one hand-off do not fit: the start would otherwise
        // be refused while nothing waits). A record has no time, so no watermark replaces it; flows
        // still waiting are the host's to finish or give up, and dropping records to make room for
        // them let a sale refunded in full be refunded again (issue 35, third attack X1). At the
        // default limit the records (at most 256) always fit beside one hand-off.
        while total > snapshotLimit, waiting <= 1, let oldest = ledger.refundedSales.first {
            total -= oldest.printedLength + 1
            _ = ledger.dropOldestRefundedSale()
        }
        #endif
        guard total <= snapshotLimit else {
            throw PayHandoffError(.limitExceeded, field: "flow_id",
                String(waiting) + " flows still wait for their results and fill the snapshot ("
                + String(snapshotLimit) + " bytes): finish them, or give up the ones that will not come back (flow.remove with give_up)")
        }
        convertedReserve = 0
        return forgotten
    }

    /// What a start does to make room (``makeRoom(now:)``). A start moves no other flow (one event,
    /// the flow it names), so it does not expire checkouts whose deadline has passed at its time:
    /// when they are among the flows that fill the snapshot, its `limit_exceeded` says so — a
    /// `tick` at that time expires them (they stop reserving a session), then the start fits.
    /// - Parameter now: The start's time.
    /// - Returns: The ids of the flows forgotten.
    /// - Throws: `limit_exceeded` when the flows still waiting fill the snapshot.
    mutating func makeRoom(forStartAt now: Int64) throws(PayHandoffError) -> [String] {
        do throws(PayHandoffError) {
            return try makeRoom(now: now)
        } catch where error.code == .limitExceeded {
            for case .checkout(let f) in flows where f.state.isWaiting && now >= f.deadline {
                throw PayHandoffError(.limitExceeded, field: error.field, error.message
                    + "; checkouts past their deadline are among them: send a tick at this time to expire them, then start again")
            }
            throw error
        }
    }

    /// The one exception to "room is taken only by starts": a coordinator converted from an older
    /// format may reserve more than a snapshot can hold (``convertedReserve`` past
    /// ``maxSnapshotBytes``: 0.2 reserved less per waiting checkout, 0.3 no room for the record a
    /// refunded sale leaves, and issue 35 let a session and a confirmation take up to 1 KiB per
    /// value). Filled to those limits, its checkouts would print a snapshot
    /// `payhandoff_coordinator_restore` cannot read (issue 35, B11). So while that lasts, every
    /// accepted event is measured (``convertedMeasure``: checkouts as they print, everything else
    /// as it reserves), and one that takes the measure past ``maxSnapshotBytes`` *and* above
    /// what it was before the event — only a checkout's session, confirmation or callback can —
    /// is refused and changes nothing: the host gives up a checkout that will not come back
    /// (`flow.remove` with `give_up`) and sends it again. A POS answer, a tick or a removal only
    /// fill room already reserved or free it, so they never raise the measure and are never
    /// refused, even when the ledger's reservations alone pass the limit (a 0.3 day of 3,000
    /// refunded sales: issue 35's fifth attack, Z1): money always persists. Real sessions and
    /// confirmations take a few hundred bytes, so this fires only for values near the limits;
    /// coordinators within their limit never pay for the measure.
    /// - Parameter before: ``convertedMeasure`` before the event.
    /// - Throws: `limit_exceeded` naming `snapshot`.
    func checkConvertedSnapshotFits(measuredBefore before: Int) throws(PayHandoffError) {
        guard convertedReserve > Coordinator.maxSnapshotBytes else { return }
        let measure = convertedMeasure
        guard measure <= Coordinator.maxSnapshotBytes || measure <= before else {
            throw PayHandoffError(.limitExceeded, field: "snapshot",
                "this coordinator, converted from an older format, waits for more than a snapshot holds, and this event would take its snapshot to "
                + String(measure) + " bytes with the room its hand-offs keep, past the " + String(Coordinator.maxSnapshotBytes)
                + " a restore reads: give up a checkout that will not come back (flow.remove with give_up), then send it again")
        }
    }

    /// What ``checkConvertedSnapshotFits(measuredBefore:)`` measures: the reservations, with every
    /// checkout counted as it prints instead. 0 for a coordinator within its limit (not measured).
    var convertedMeasure: Int {
        guard convertedReserve > Coordinator.maxSnapshotBytes else { return 0 }
        var measure = reservedSnapshotLength
        for case .checkout(let f) in flows {
            measure -= f.reservedLength - JSONLengthCounter.length { Coordinator.Flow.checkout(f).write(to: $0, secrets: true) }
        }
        return measure
    }

    /// The restore side of the rule: the reservations of a restored coordinator fit its limit,
    /// or, for a coordinator converted from an older format, what they reserved when converted
    /// (``convertedReserve``).
    /// - Parameter converted: Whether the document was an older format: its reservations are
    ///   then never refused; past the limit they become the coordinator's ``convertedReserve``.
    /// - Throws: `limit_exceeded` naming `flows`.
    mutating func checkRestoredBudget(converted: Bool) throws(PayHandoffError) {
        let total = reservedSnapshotLength
        if converted {
            convertedReserve = total > snapshotLimit ? total : 0
            return
        }
        guard total <= Swift.max(snapshotLimit, convertedReserve) else {
            throw PayHandoffError(.limitExceeded, field: "flows",
                "the snapshot reserves " + String(total) + " bytes, more than the " + String(snapshotLimit)
                + " this coordinator keeps: it is not one this library wrote with this limit")
        }
    }
}

extension Coordinator.Flow {
    /// The most this flow's snapshot document can take from now on (see ``Coordinator``'s budget):
    /// its printed length now plus room for what may still be added or replaced; for a POS flow
    /// that still takes its answer, also the ledger entry that answer may book.
    var reservedLength: Int {
        // A host-given key stays remembered once the flow is forgotten: its room is held from the start.
        let key = givenKeyDigest == nil ? 0 : RememberedKeys.reservedPerKey
        switch self {
        case .checkout(let f): return f.reservedLength + key
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .pos(let f): return f.reservedLength + key
        #endif
        }
    }
}

/// A member `"key":value,` added to an object: its key, colon and comma around the value.
private func memberOverhead(_ key: StaticString) -> Int { key.utf8CodeUnitCount + 4 }

/// The most digits an epoch millisecond the library accepts prints as (9999-12-31: 15).
private let maxTimeDigits = JSONValue.digits(MexicoCityTime.maxEpochMilliseconds)

extension CheckoutFlow {
    /// The longest state name, as JSON text.
    static let maxStateLength: Int = {
        var longest = 0
        for state in State.allCases { longest = Swift.max(longest, JSONValue.printedLength(of: state.rawValue)) }
        return longest
    }()

    /// See ``Coordinator/Flow/reservedLength``.
    var reservedLength: Int {
        var length = JSONLengthCounter.length { Coordinator.Flow.checkout(self).write(to: $0, secrets: true) }
        length += CheckoutFlow.maxStateLength - JSONValue.printedLength(of: state.rawValue)
        if state == .awaitingSession {
            // Only a flow waiting for its session may still get one, or fail to — one or the
            // other: either moves it on, and neither comes after that.
            length += Swift.max(memberOverhead("session") + CheckoutSession.maxStoredLength,
                                memberOverhead("failure_reason") + CheckoutFlow.maxReasonLength)
        }
        if takesDeepLink {
            // One slot: the latest claim, replaced by the verified callback.
            length += callback.map { callback in CheckoutCallback.maxStoredLength - JSONLengthCounter.length { callback.write(to: $0) } }
                ?? memberOverhead("callback") + CheckoutCallback.maxStoredLength
        }
        if confirmation == nil { length += memberOverhead("confirmation") + CheckoutConfirmation.maxStoredLength }
        return length
    }
}

#if !PAYHANDOFF_CHECKOUT_ONLY
extension POSFlow {
    /// The longest state name, as JSON text.
    static let maxStateLength: Int = {
        var longest = 0
        for state in State.allCases { longest = Swift.max(longest, JSONValue.printedLength(of: state.rawValue)) }
        return longest
    }()

    /// See ``Coordinator/Flow/reservedLength``.
    var reservedLength: Int {
        var length = JSONLengthCounter.length { Coordinator.Flow.pos(self).write(to: $0, secrets: true) }
        length += POSFlow.maxStateLength - JSONValue.printedLength(of: state.rawValue)
        if state == .ready || state == .launched {
            if foregroundedAt == nil { length += memberOverhead("foregrounded_at") + maxTimeDigits }
            if launchFailure == nil { length += memberOverhead("launch_failure") + POSFlow.maxReasonLength }
        }
        if takesAnswer {
            length += memberOverhead("response") + POSResponse.maxStoredLength + JSONValue.printedLength(of: sentIdentifier)
                + memberOverhead("answered_at") + maxTimeDigits
                + RefundLedger.Entry.maxReservedLength + 1
            // A refund's approval makes its sale a refunded one: the record its entry leaves
            // (RefundLedger.RefundedSale), or makes one when the entry has gone.
            if operation == .refund {
                length += RefundLedger.RefundedSale.reservedLength(id: saleTransactionId.map { JSONValue.printedLength(of: $0) }
                    ?? 2 * POSResponse.maxTransactionIDLength + 2, amountDigits: 16) + 1
            }
        }
        return length
    }
}
#endif

extension RefundLedger.Entry {
    /// The most an entry takes in the snapshot: a 128-byte id of `"` and `\` (2 bytes each),
    /// two amounts of 16 digits and a time of 15.
    static let maxReservedLength = 2 + (2 * POSResponse.maxTransactionIDLength + 2) + 2 * (1 + 16) + 1 + 15

    /// This entry's room in the snapshot: its array with `refunded` as wide as `amount` (refunds
    /// only ever raise `refunded` up to `amount`).
    var reservedLength: Int {
        let id = JSONValue.printedLength(of: transactionId)
        switch kind {
        case .sale(let refunded):
            // An accepted event may keep it as balance unknown until a later day (RefundLedger.prune),
            // and a refunded one leaves its record when it goes (RefundLedger.RefundedSale).
            let record = refunded > .zero ? RefundLedger.RefundedSale.reservedLength(id: id, amountDigits: JSONValue.digits(amount.minorUnits)) + 1 : 0
            return Swift.max(2 + id + 1 + 2 * JSONValue.digits(amount.minorUnits) + 1 + 1 + JSONValue.digits(approvedAt),
                             2 + id + 1 + maxTimeDigits) + record
        case .refund: return 2 + id + 1 + JSONValue.digits(amount.minorUnits) + 1 + JSONValue.digits(approvedAt)
        case .balanceUnknown: return 2 + id + 1 + JSONValue.digits(expiresAt)
        }
    }
}

extension RefundLedger {
    /// The entry approved first, if any.
    var oldestEntry: Entry? {
        var oldest: Entry? = nil
        for entry in entries where oldest.map({ entry.approvedAt < $0.approvedAt }) ?? true { oldest = entry }
        return oldest
    }
}

extension RefundLedger.RefundedSale {
    /// The most a record takes in the snapshot, its comma left out: `[id,amount,refunded]` with
    /// `refunded` as wide as `amount`.
    /// - Parameters:
    ///   - id: The id's printed length, its quotes included.
    ///   - amountDigits: How many digits the amount has.
    static func reservedLength(id: Int, amountDigits: Int) -> Int { 1 + id + 1 + amountDigits + 1 + amountDigits + 1 }

    /// What this record takes in the snapshot, its comma left out.
    var printedLength: Int {
        RefundLedger.RefundedSale.reservedLength(id: JSONValue.printedLength(of: transactionId), amountDigits: JSONValue.digits(amount.minorUnits))
    }
}

extension RefundLedger {
    /// `,"refunded_sales":[]`: the member around the records (held in ``Coordinator/documentReserve``).
    static let refundedSalesMemberLength = 20

    /// What the records take in the snapshot, commas included (their member is in the document's reserve).
    var refundedSalesLength: Int {
        var total = 0
        for record in refundedSales { total += record.printedLength + 1 }
        return total
    }
}
