/// Whether a Billpocket sale can be refunded now, with every reason it cannot and the exact
/// window, so the app can tell the cashier "refundable from 10:01:00 until 23:00:00" instead
/// of letting the POS app fail.
///
/// Billpocket's conditions: the sale was approved at least 1 minute ago; the refund happens
/// before 23:00 Mexico City time (UTC−6, see ``MexicoCityTime``) on the sale's Mexico City
/// calendar day; the refund amount is at most the original; on iOS the POS app is 4.3.24 or
/// newer. A sale approved at or after 23:00 local time can never be refunded through the POS
/// app (its window is empty), and the answer says so with both reasons' times.
///
/// The window is half-open: eligible when `eligibleFrom <= now < deadline`.
public struct RefundEligibility: Equatable, Sendable {
    /// The approved sale to refund. Two sales are equal when their strings have the same UTF-8
    /// bytes (not under `String`'s `==`, which is Unicode canonical equivalence).
    public struct Sale: Equatable, Sendable {
        /// The sale's `transactionid`.
        public var transactionId: String
        /// The sale's amount (tip excluded).
        public var amount: Amount
        /// When the sale was approved, epoch seconds.
        public var approvedAt: Int64
        /// The POS app's `bp_version`, if known.
        public var posAppVersion: String?
        /// The terminal app that approved the sale (only Billpocket refunds app-to-app).
        public var posApp: POSApp = .billpocket

        /// Creates a sale description.
        /// - Parameters:
        ///   - transactionId: The sale's `transactionid`.
        ///   - amount: The sale's amount.
        ///   - approvedAt: Approval time, epoch seconds.
        ///   - posAppVersion: The POS app's `bp_version`, if known.
        public init(transactionId: String, amount: Amount, approvedAt: Int64, posAppVersion: String? = nil) {
            self.transactionId = transactionId
            self.amount = amount
            self.approvedAt = approvedAt
            self.posAppVersion = posAppVersion
        }

        /// Equal when every field is; strings compared by UTF-8 bytes.
        public static func == (lhs: Sale, rhs: Sale) -> Bool {
            lhs.transactionId.hasSameBytes(as: rhs.transactionId) && lhs.amount == rhs.amount && lhs.posApp == rhs.posApp
                && lhs.approvedAt == rhs.approvedAt && lhs.posAppVersion.hasSameBytes(as: rhs.posAppVersion)
        }
    }

    /// Why a refund is not possible now.
    public enum Reason: String, Sendable, CaseIterable {
        /// Less than one minute since approval.
        case tooSoon = "too_soon"
        /// At or after 23:00 Mexico City time on the sale's day.
        case pastDeadline = "past_deadline"
        /// The refund amount is above the sale's amount.
        case amountExceedsOriginal = "amount_exceeds_original"
        /// The POS app is older than 4.3.24.
        case posAppTooOld = "pos_app_too_old"
        /// The coordinator may have dropped what the sale has refunded already (its ledger was
        /// pruned behind a clock that later went back, or damaged storage lost the record):
        /// refunding could pay back twice, so it fails safe. Only a coordinator gives this reason.
        case ledgerPruned = "ledger_pruned"
        /// The sale went to Square, whose Point of Sale API has no refund: refund it through
        /// Square's server API (its Refunds API) with the answer's `transactionid`.
        case squareServerRefund = "square_server_refund"
        /// The sale went to SumUp, whose URL scheme has no refund: refund it through SumUp's
        /// server API from the merchant's backend.
        case sumupServerRefund = "sumup_server_refund"
        /// The sale went to Clip, whose terminal SDK has no refund intent: refund it through
        /// Clip's server API or dashboard.
        case clipServerRefund = "clip_server_refund"

        /// The reason a sale of `app` cannot be refunded app-to-app (`nil` for Billpocket).
        /// - Parameter app: The terminal app.
        /// - Returns: The reason.
        public static func serverRefund(_ app: POSApp) -> Reason? {
            switch app {
            case .billpocket: return nil
            case .square: return .squareServerRefund
            case .sumup: return .sumupServerRefund
            case .clip: return .clipServerRefund
            }
        }

        /// The reason spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
        /// canonical equivalence).
        public init?(rawValue: String) {
            guard let value = Reason.matching(rawValue, among: Reason.allCases) else { return nil }
            self = value
        }
    }

    /// Something the verdict cannot vouch for, without blocking the refund.
    public enum Warning: String, Sendable, CaseIterable {
        /// The sale's answer carried no `bp_version`, so the "POS app 4.3.24 or newer" rule could
        /// not be checked. Not blocking: answers from the Android POS app may not carry it, and an
        /// older iOS POS app refuses the refund itself (an error answer, no money moves).
        case posAppVersionUnknown = "pos_app_version_unknown"

        /// The warning spelled `rawValue`, matched by UTF-8 bytes.
        public init?(rawValue: String) {
            guard let value = Warning.matching(rawValue, among: Warning.allCases) else { return nil }
            self = value
        }

        /// The human explanation.
        public var explanation: String {
            switch self {
            case .posAppVersionUnknown:
                return "the POS app's version (bp_version) is unknown: refunds on iOS need POS app 4.3.24 or newer, and an older POS app refuses them"
            }
        }
    }

    /// The oldest POS app version (iOS) that can refund.
    public static let minimumPOSAppVersion: [Int] = [4, 3, 24]
    /// Seconds between approval and the first moment a refund is allowed.
    public static let minimumDelaySeconds: Int64 = 60
    /// Local hour (Mexico City) at which the refund window closes.
    public static let deadlineHour: Int64 = 23

    /// `true` when a refund can be sent now.
    public var isEligible: Bool { reasons.isEmpty }
    /// Every reason the refund cannot be sent now; empty when eligible.
    public var reasons: [Reason]
    /// First epoch second at which a refund is allowed (approval + 60 s).
    public var eligibleFrom: Int64
    /// First epoch second at which a refund is no longer allowed (23:00 Mexico City on the sale's day).
    public var deadline: Int64
    /// The amount that would be refunded (the sale's amount when none was given).
    public var refundAmount: Amount
    /// What the verdict could not check (not blocking).
    public var warnings: [Warning] = []

    /// Checks the refund conditions.
    /// - Parameters:
    ///   - sale: The approved sale.
    ///   - refundAmount: The amount to refund; `nil` refunds the whole sale.
    ///   - now: The current time, epoch seconds (the core never reads a clock).
    /// - Returns: The verdict with all reasons and the window.
    /// - Throws: `validation` for times out of range, a zero refund amount, an empty
    ///   transaction id, or a POS app version that does not start with a number.
    public static func check(sale: Sale, refundAmount: Amount?, now: Int64) throws(PayHandoffError) -> RefundEligibility {
        try MexicoCityTime.checkEpoch(sale.approvedAt, field: "sale.approved_at")
        try MexicoCityTime.checkEpoch(now, field: "now")
        try RefundLedger.checkTransactionID(sale.transactionId, field: "sale.transactionid")
        if let refundAmount, refundAmount == .zero {
            throw PayHandoffError(.validation, field: "amount", "must be greater than 0")
        }
        let amount = refundAmount ?? sale.amount
        if let server = Reason.serverRefund(sale.posApp) {
            return RefundEligibility(reasons: [server], eligibleFrom: sale.approvedAt + minimumDelaySeconds,
                                     deadline: deadline(approvedAt: sale.approvedAt * 1000) / 1000, refundAmount: amount)
        }
        let reasons = try RefundEligibility.reasons(approvedAt: sale.approvedAt * 1000, now: now * 1000, remaining: sale.amount,
                                                    requested: amount, posAppVersion: sale.posAppVersion)
        return RefundEligibility(reasons: reasons, eligibleFrom: sale.approvedAt + minimumDelaySeconds,
                                 deadline: deadline(approvedAt: sale.approvedAt * 1000) / 1000, refundAmount: amount,
                                 warnings: sale.posAppVersion == nil ? [.posAppVersionUnknown] : [])
    }

    /// The refund rules, in milliseconds (approval times are kept to the millisecond: a refund
    /// 59.999 s after approval is too soon).
    /// - Parameters:
    ///   - approvedAt: When the sale was approved, epoch ms.
    ///   - now: Now, epoch ms.
    ///   - remaining: What the sale may still refund.
    ///   - requested: The refund's amount.
    ///   - posAppVersion: The sale's `bp_version`, if known.
    /// - Returns: Every reason the refund cannot be sent now.
    /// - Throws: `validation` naming `sale.bp_version` for a version that does not start with a number.
    static func reasons(approvedAt: Int64, now: Int64, remaining: Amount, requested: Amount,
                        posAppVersion: String?) throws(PayHandoffError) -> [Reason] {
        var reasons: [Reason] = []
        if now < approvedAt + minimumDelaySeconds * 1000 { reasons.append(.tooSoon) }
        if now >= deadline(approvedAt: approvedAt) { reasons.append(.pastDeadline) }
        if requested > remaining { reasons.append(.amountExceedsOriginal) }
        if let posAppVersion {
            let parts = try parseVersion(posAppVersion)
            if parts.lexicographicallyPrecedes(minimumPOSAppVersion) { reasons.append(.posAppTooOld) }
        }
        return reasons
    }

    /// When refunds of a sale approved at `approvedAt` (epoch ms) close: 23:00 Mexico City time
    /// on the sale's local calendar day, epoch ms — at most ``MexicoCityTime/maxEpochMilliseconds``,
    /// so that every time the library computes it can also store and read back (a sale approved
    /// late on 9999-12-31 UTC would close after the last time it accepts).
    static func deadline(approvedAt: Int64) -> Int64 {
        Swift.min((MexicoCityTime.startOfDay(containing: approvedAt / 1000) + deadlineHour * 3600) * 1000,
                  MexicoCityTime.maxEpochMilliseconds)
    }

    /// The human explanation of a reason, with the times that matter.
    /// - Parameter reason: One of ``reasons``.
    /// - Returns: A sentence for the cashier or the log.
    public func explanation(of reason: Reason) -> String {
        switch reason {
        case .tooSoon:
            return "the sale was approved less than a minute ago; a refund is possible from "
                + MexicoCityTime.iso8601(eligibleFrom)
        case .pastDeadline:
            return "refunds close at 23:00 Mexico City time on the sale's day ("
                + MexicoCityTime.iso8601(deadline) + ")"
        case .amountExceedsOriginal:
            return "the refund amount is greater than the sale's amount"
        case .posAppTooOld:
            return "refunds need POS app 4.3.24 or newer on iOS"
        case .squareServerRefund:
            return "Square sales are refunded through Square's server API (Refunds API), not through the Point of Sale app"
        case .sumupServerRefund:
            return "SumUp sales are refunded through SumUp's server API, not through the SumUp app"
        case .clipServerRefund:
            return "Clip sales are refunded through Clip's server API, not through the Clip terminal app"
        case .ledgerPruned:
            return "this coordinator may no longer know what the sale has refunded (its records up to "
                + MexicoCityTime.iso8601(deadline) + " were dropped, or damaged storage lost them): refund it from Billpocket's back office"
        }
    }

    /// Parses the leading `N(.N)*` of a version (`"4.3.24"`, `"4.3.24 (512)"`, `"4.4"`);
    /// missing components count as 0 in the comparison.
    static func parseVersion(_ text: String) throws(PayHandoffError) -> [Int] {
        var parts: [Int] = []
        var current = -1
        for byte in text.utf8 {
            if ASCII.isDigit(byte) {
                current = (current < 0 ? 0 : current) * 10 + Int(byte - UInt8(ascii: "0"))
                if current > 1_000_000 { break }
            } else if byte == UInt8(ascii: "."), current >= 0 {
                parts.append(current)
                current = -1
            } else {
                break
            }
        }
        if current >= 0 { parts.append(current) }
        guard !parts.isEmpty else {
            throw PayHandoffError(.validation, field: "sale.bp_version", "must start with a version number like 4.3.24")
        }
        return parts
    }
}
