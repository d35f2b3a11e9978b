/// Refunds and the ledger: what a refund may ask for when it starts, and what an approval books.
/// (Not in the web's checkout module, which starts no POS flow.)
#if !PAYHANDOFF_CHECKOUT_ONLY
extension Coordinator {
    /// A refund about to start: its sale, the amount it asks for, and the external sale to book.
    struct RefundStart {
        /// The sale's `transactionid`.
        var transactionId: String
        /// What the refund asks for: the host's amount, or everything left of the sale.
        var amount: Amount
        /// A sale known only from the refund's `sale` document, booked when the refund starts
        /// (so that the next refund of it finds what this one took).
        var bookExternalSale: RefundLedger.Entry?
    }

    /// The `not_eligible` error of a refund of `app`'s sale, which only its server API refunds
    /// (`nil` for Billpocket, which refunds app-to-app): one builder for both ways a refund names its sale.
    @inline(never)
    static func serverRefundOnly(_ app: POSApp) -> PayHandoffError? {
        guard let server = RefundEligibility.Reason.serverRefund(app) else { return nil }
        return PayHandoffError(.notEligible, field: "sale", "the sale cannot be refunded app-to-app: " + server.rawValue
            + " (only Billpocket refunds through its app; refund it through " + app.displayName + "'s server API)")
    }

    /// Checks a refund start against its sale and the ledger.
    ///
    /// The sale is a flow of this coordinator (`sale_flow_id`: approved, with a `transactionid`,
    /// its ledger entry still open) or a `sale` document (its amount caps the refunds; when the
    /// ledger already has the sale, the smaller of the two counts). Then: the request names the
    /// sale's `transactionId`; no other refund of the sale still waits; something is left; and
    /// the refund rules hold, to the millisecond (``RefundEligibility``). A sale whose ledger entry
    /// may have been dropped (``RefundLedger/mayHaveLost(_:deadline:now:)``: pruned behind a clock
    /// that went back, or lost with damaged storage) is refused with `ledger_pruned`, never
    /// refunded on the word of a `sale` document alone; one whose entry left after refunds is
    /// judged against what it recorded (``RefundLedger/RefundedSale``), whatever the clock says.
    /// - Throws: `unknown_flow`/`invalid_state` naming `sale_flow_id`; `validation` naming
    ///   `transactionId` or `sale.transactionid`; `invalid_state` naming `transactionId` (a refund
    ///   already pending, or nothing left); `not_eligible` naming `sale` with every reason.
    func refundToStart(_ refundOf: CoordinatorEvent.RefundOf, request: POSRequest, now: Int64) throws(PayHandoffError) -> RefundStart {
        let transactionId: String, cap: Amount, refunded: Amount, approvedAt: Int64, version: String?
        var external: RefundLedger.Entry? = nil
        switch refundOf {
        case .saleFlow(let saleID):
            guard case .pos(let sale)? = flow(id: saleID), sale.operation == .sale else {
                throw PayHandoffError(.unknownFlow, field: "sale_flow_id", "no POS sale flow has this id")
            }
            if let refused = Coordinator.serverRefundOnly(sale.posApp) { throw refused }
            guard sale.state == .approved || sale.state == .approvedAmountMismatch, let response = sale.response,
                  let id = response.transactionId else {
                throw PayHandoffError(.invalidState, field: "sale_flow_id", "only an approved sale with a transactionid can be refunded")
            }
            let approved = sale.answeredAt ?? 0
            guard let entry = ledger.entry(id, at: now), case .sale(let paidBack) = entry.kind else {
                let deadline = RefundEligibility.deadline(approvedAt: approved)
                if now < deadline, ledger.mayHaveLost(id, deadline: deadline, now: now) {
                    throw Coordinator.ledgerPruned(deadline: deadline, amount: request.amount ?? sale.amount ?? .zero)
                }
                throw PayHandoffError(.notEligible, field: "sale",
                    "the sale cannot be refunded now: past_deadline (its refund window closed at 23:00 Mexico City time on the sale's day)")
            }
            (transactionId, cap, refunded, approvedAt, version) = (id, entry.amount, paidBack, entry.approvedAt, response.posAppVersion)
        case .sale(let given):
            if let refused = Coordinator.serverRefundOnly(given.posApp) { throw refused }
            transactionId = given.transactionId
            guard !transactionId.isEmpty else {
                throw PayHandoffError(.validation, field: "sale.transactionid", "is required and must not be empty")
            }
            version = given.posAppVersion
            if let entry = ledger.entry(transactionId, at: now), entry.kind != .balanceUnknown {
                guard case .sale(let paidBack) = entry.kind else {
                    throw PayHandoffError(.validation, field: "sale.transactionid", "is the transactionid of a refund, not of a sale")
                }
                (cap, refunded, approvedAt) = (Swift.min(entry.amount, given.amount), paidBack, entry.approvedAt)
            } else {
                // A sale whose entry left after refunds (pruned at a 23:00 a clock behind showed,
                // or for room) is bounded by what it recorded, whatever the clock says (issue 35, G1).
                let left = ledger.refundedSale(transactionId)
                (cap, refunded, approvedAt) = (Swift.min(given.amount, left?.amount ?? given.amount), left?.refunded ?? .zero,
                                               given.approvedAt * 1000)
                let deadline = RefundEligibility.deadline(approvedAt: approvedAt)
                // The ledger has no balance for it, yet a refund flow still held may have paid some
                // back (its entry went with a clock that was behind): the document's word is not
                // enough then either.
                if now < deadline, ledger.mayHaveLost(transactionId, deadline: deadline, now: now)
                    || heldRefundBooked(sale: transactionId) {
                    throw Coordinator.ledgerPruned(deadline: deadline, amount: request.amount ?? given.amount)
                }
                if deadline > now {
                    external = RefundLedger.Entry(transactionId: transactionId, kind: .sale(refunded: refunded), amount: cap,
                                                  approvedAt: approvedAt)
                }
            }
        }
        guard request.transactionId.hasSameBytes(as: transactionId) else {
            throw PayHandoffError(.validation, field: "transactionId", "the refund's transactionId is not the sale's")
        }
        for case .pos(let other) in flows where other.operation == .refund && other.takesAnswer
            && other.saleTransactionId.hasSameBytes(as: transactionId) {
            throw PayHandoffError(.invalidState, field: "transactionId", "a refund of this sale is already pending (" + other.id + ")")
        }
        let remaining = Amount(unchecked: Swift.max(cap.minorUnits - refunded.minorUnits, 0))
        guard remaining > .zero else {
            throw PayHandoffError(.invalidState, field: "transactionId", "the sale is already fully refunded")
        }
        let requested = request.amount ?? remaining
        let reasons = try RefundEligibility.reasons(approvedAt: approvedAt, now: now, remaining: remaining, requested: requested,
                                                    posAppVersion: version)
        guard reasons.isEmpty else {
            let verdict = RefundEligibility(reasons: reasons, eligibleFrom: (approvedAt + RefundEligibility.minimumDelaySeconds * 1000 + 999) / 1000,
                                            deadline: RefundEligibility.deadline(approvedAt: approvedAt) / 1000, refundAmount: requested)
            var message = "the sale cannot be refunded now: "
            for (index, reason) in reasons.enumerated() {
                message += (index == 0 ? "" : "; ") + reason.rawValue + " (" + verdict.explanation(of: reason) + ")"
            }
            throw PayHandoffError(.notEligible, field: "sale", message)
        }
        return RefundStart(transactionId: transactionId, amount: requested, bookExternalSale: external)
    }

    /// Books the approval `flow` just received (it is approved or approved for another amount).
    ///
    /// A sale books its refundable amount: the approved amount, or for a mismatch the smaller of
    /// requested and answered, until the host reconciles. A refund adds to its sale's refunded
    /// total what it took — the requested amount, or for a mismatch the larger of requested and
    /// answered, never more than the sale's entry has left (with no sale entry, the record caps
    /// it) — and books its own `transactionid`. Checks everything before it changes anything.
    /// - Throws: `duplicate` naming `transactionid` when another flow booked that id.
    mutating func book(_ flow: POSFlow, now: Int64) throws(PayHandoffError) {
        // The ledger bounds refunds made through the POS app: only Billpocket's (the others
        // refund through their server APIs), so only its approvals are booked.
        guard flow.posApp == .billpocket, let response = flow.response else { return }
        let answered = response.amount ?? flow.amount ?? .zero
        let requested = flow.amount ?? answered
        var sale: RefundLedger.Entry? = nil
        if let saleID = flow.saleTransactionId { sale = ledger.entry(saleID, at: now) }
        if let id = response.transactionId, ledger.entry(id, at: now) != nil {
            throw PayHandoffError(.duplicate, field: "transactionid",
                "this transactionid is already booked: a replayed answer never books twice")
        }
        switch flow.operation {
        case .sale:
            guard let id = response.transactionId else { return }
            let refundable = flow.state == .approvedAmountMismatch ? Swift.min(requested, answered) : answered
            guard RefundEligibility.deadline(approvedAt: now) > now else { return }  // approved after 23:00: never refundable
            ledger.book(RefundLedger.Entry(transactionId: id, kind: .sale(refunded: .zero), amount: refundable, approvedAt: now))
        case .refund:
            // What is left bounds a mismatch only when the sale still has its sale entry. Without it
            // (it left while the refund waited: balance unknown, recorded, or gone) nothing here
            // knows what was left, and counting less than Billpocket refunded would widen later
            // refunds by document: the larger of answered and requested, which the sale's record
            // caps at its amount (``RefundLedger/addRefund(_:toSale:)``; issue 35, X8).
            var left = Swift.max(answered, requested)
            if let sale, case .sale = sale.kind { left = sale.remaining }
            let taken = flow.state == .approvedAmountMismatch ? Swift.min(Swift.max(answered, requested), left) : requested
            if let saleID = flow.saleTransactionId { ledger.addRefund(taken, toSale: saleID) }
            if let id = response.transactionId, let expiresAt = sale?.expiresAt, expiresAt > now, taken > .zero {
                ledger.book(RefundLedger.Entry(transactionId: id, kind: .refund, amount: taken, approvedAt: now))
            }
        }
    }

    /// Whether a refund flow this coordinator still holds was approved against sale
    /// `transactionId` (refunds still waiting are refused on their own rule).
    func heldRefundBooked(sale transactionId: String) -> Bool {
        for case .pos(let f) in flows where f.operation == .refund && f.saleTransactionId.hasSameBytes(as: transactionId)
            && (f.state == .approved || f.state == .approvedAmountMismatch) {
            return true
        }
        return false
    }

    /// The refusal of a refund whose sale's bookkeeping may be gone (`ledger_pruned`).
    static func ledgerPruned(deadline: Int64, amount: Amount) -> PayHandoffError {
        let verdict = RefundEligibility(reasons: [.ledgerPruned], eligibleFrom: 0, deadline: deadline / 1000, refundAmount: amount)
        return PayHandoffError(.notEligible, field: "sale",
            "the sale cannot be refunded now: ledger_pruned (" + verdict.explanation(of: .ledgerPruned) + ")")
    }
}
#endif
