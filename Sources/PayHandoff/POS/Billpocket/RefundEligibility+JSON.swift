extension RefundEligibility {
    private static let inputKeys: StaticString = "sale amount now"

    /// Runs ``check(sale:refundAmount:now:)`` on a document:
    /// `{"sale": {"transactionid": "T-1", "amount": "100.00", "approved_at": 1764518400,
    /// "bp_version": "4.3.24"}, "amount": "40.00", "now": 1764518500}`. Times are epoch
    /// seconds; `amount` (the refund) and `sale.bp_version` are optional.
    /// - Parameter json: The input document.
    /// - Returns: The verdict.
    /// - Throws: `validation` or `invalid_json` naming the field.
    public static func check(json: JSONValue) throws(PayHandoffError) -> RefundEligibility {
        try check(reading: JSONMembers(json))
    }

    /// ``check(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameter json: The input document's members.
    /// - Returns: The verdict.
    /// - Throws: As ``check(json:)``.
    @_spi(JSONText)
    public static func check<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) -> RefundEligibility {
        try json.rejectUnknownKeys(RefundEligibility.inputKeys)
        let sale = try Sale(reading: json.nested("sale"))
        return try check(sale: sale, refundAmount: try json.optionalAmount("amount"), now: try json.integer("now"))
    }

    /// The verdict as a document: `{"version": 1, "eligible": false, "refund_amount": "40.00",
    /// "eligible_from": 1764518460, "eligible_from_local": "2026-11-30T10:01:00-06:00",
    /// "deadline": 1764565200, "deadline_local": "2026-11-30T23:00:00-06:00",
    /// "reasons": [{"code": "too_soon", "message": "…"}], "warnings": [{"code": "pos_app_version_unknown",
    /// "message": "…"}]}`.
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("eligible", bool: isEligible)
        writer.member("refund_amount", string: refundAmount.decimalString)
        writer.member("eligible_from", integer: eligibleFrom)
        writer.member("eligible_from_local", string: MexicoCityTime.iso8601(eligibleFrom))
        writer.member("deadline", integer: deadline)
        writer.member("deadline_local", string: MexicoCityTime.iso8601(deadline))
        writer.beginArray("reasons")
        for reason in reasons {
            writer.beginObject()
            writer.member("code", string: reason.rawValue)
            writer.member("message", string: explanation(of: reason))
            writer.end()
        }
        writer.end()
        writer.beginArray("warnings")
        for warning in warnings {
            writer.beginObject()
            writer.member("code", string: warning.rawValue)
            writer.member("message", string: warning.explanation)
            writer.end()
        }
        writer.end()
        writer.end()
    }
}

extension RefundEligibility.Sale {
    private static let keys: StaticString = "transactionid amount approved_at bp_version pos_app"

    /// A sale from its document `{"transactionid", "amount", "approved_at", "bp_version"}` (the
    /// refund check's `sale`, a `pos.start` event's `sale`); `bp_version` optional.
    /// - Parameter json: The sale's members (their path names the errors: `sale.amount`).
    /// - Throws: `validation`/`invalid_json` naming the member.
    init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        try json.rejectUnknownKeys(RefundEligibility.Sale.keys)
        guard let amount = try json.optionalAmount("amount") else { throw JSONValue.missing(json.field("amount")) }
        self.init(transactionId: try json.string("transactionid"), amount: amount, approvedAt: try json.integer("approved_at"),
                  posAppVersion: try json.optionalString("bp_version"))
        posApp = try POSApp.reading(json)
        if posApp != .billpocket, !posAppVersion.isNone {
            throw PayHandoffError(.validation, field: json.field("bp_version"), "is Billpocket's app version: another terminal app's sale has none")
        }
    }
}
