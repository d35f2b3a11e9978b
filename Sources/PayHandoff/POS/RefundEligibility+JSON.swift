extension RefundEligibility {
    private static let inputKeys = ["sale", "amount", "now"]
    private static let saleKeys = ["transactionid", "amount", "approved_at", "bp_version"]

    /// Runs ``check(sale:refundAmount:now:)`` on a document:
    /// `{"sale": {"transactionid": "T-1", "amount": "100.00", "approved_at": 1764518400,
    /// "bp_version": "4.3.24"}, "amount": "40.00", "now": 1764518500}`. Times are epoch
    /// seconds; `amount` (the refund) and `sale.bp_version` are optional.
    /// - Parameter json: The input document.
    /// - Returns: The verdict.
    /// - Throws: `validation` or `invalid_json` naming the field.
    public static func check(json: JSONValue) throws(PayHandoffError) -> RefundEligibility {
        try json.rejectUnknownKeys(RefundEligibility.inputKeys)
        try json.rejectUnknownKeys(RefundEligibility.saleKeys, at: "sale")
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
    /// "reasons": [{"code": "too_soon", "message": "…"}], "warnings": [{"code": "pos_app_version_unknown",
    /// "message": "…"}]}`.
    public var json: JSONValue {
        var o = JSONObject(capacity: 9)
        o.appendNewMember("version", 1)
        o.appendNewMember("eligible", .bool(isEligible))
        o.appendNewMember("refund_amount", .string(refundAmount.decimalString))
        o.appendNewMember("eligible_from", .integer(eligibleFrom))
        o.appendNewMember("eligible_from_local", .string(MexicoCityTime.iso8601(eligibleFrom)))
        o.appendNewMember("deadline", .integer(deadline))
        o.appendNewMember("deadline_local", .string(MexicoCityTime.iso8601(deadline)))
        o.appendNewMember("reasons", .array(reasons.map { reason in
            var r = JSONObject(capacity: 2)
            r.appendNewMember("code", .string(reason.rawValue))
            r.appendNewMember("message", .string(explanation(of: reason)))
            return .object(r)
        }))
        o.appendNewMember("warnings", .array(warnings.map { warning in
            var w = JSONObject(capacity: 2)
            w.appendNewMember("code", .string(warning.rawValue))
            w.appendNewMember("message", .string(warning.explanation))
            return .object(w)
        }))
        return .object(o)
    }
}
