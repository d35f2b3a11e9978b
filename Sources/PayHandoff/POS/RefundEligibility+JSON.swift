extension RefundEligibility {
    /// Runs ``check(sale:refundAmount:now:)`` on a document:
    /// `{"sale": {"transactionid": "T-1", "amount": "100.00", "approved_at": 1764518400,
    /// "bp_version": "4.3.24"}, "amount": "40.00", "now": 1764518500}`. Times are epoch
    /// seconds; `amount` (the refund) and `sale.bp_version` are optional.
    /// - Parameter json: The input document.
    /// - Returns: The verdict.
    /// - Throws: `validation` or `invalid_json` naming the field.
    public static func check(json: JSONValue) throws(PayHandoffError) -> RefundEligibility {
        try json.rejectUnknownKeys(["sale", "amount", "now"])
        try json.rejectUnknownKeys(["transactionid", "amount", "approved_at", "bp_version"], at: "sale")
        guard let saleAmount = try json.optionalAmount(at: "sale.amount") else {
            throw JSONValue.missing("sale.amount")
        }
        let sale = Sale(
            transactionId: try json.string(at: "sale.transactionid"), amount: saleAmount,
            approvedAt: try json.integer(at: "sale.approved_at"),
            posAppVersion: try json.optionalString(at: "sale.bp_version"))
        return try check(sale: sale, refundAmount: try json.optionalAmount(at: "amount"),
                         now: try json.integer(at: "now"))
    }

    /// The verdict as a document: `{"version": 1, "eligible": false, "refund_amount": "40.00",
    /// "eligible_from": 1764518460, "eligible_from_local": "2026-11-30T10:01:00-06:00",
    /// "deadline": 1764565200, "deadline_local": "2026-11-30T23:00:00-06:00",
    /// "reasons": [{"code": "too_soon", "message": "…"}]}`.
    public var json: JSONValue {
        [
            "version": 1,
            "eligible": .bool(isEligible),
            "refund_amount": .string(refundAmount.decimalString),
            "eligible_from": .integer(eligibleFrom),
            "eligible_from_local": .string(MexicoCityTime.iso8601(eligibleFrom)),
            "deadline": .integer(deadline),
            "deadline_local": .string(MexicoCityTime.iso8601(deadline)),
            "reasons": .array(reasons.map { ["code": .string($0.rawValue), "message": .string(explanation(of: $0))] }),
        ]
    }
}
