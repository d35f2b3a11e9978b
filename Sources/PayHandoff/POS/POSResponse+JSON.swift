extension POSResponse {
    /// The answer as a document, keyed like the Billpocket response table, with typed values:
    /// `{"version": 1, "result": "approved", "identifier": "ord-1", "amount": "100.00",
    /// "tip": "15.00", "msi": 3, "creditcard": "1234", "accountType": "credit", …,
    /// "extra": {"unknown_key": "value"}}`. Absent fields are left out; `extra` only when non-empty.
    /// `result` is `approved`, `declined` or `error`.
    public var json: JSONValue {
        var o = JSONObject()
        o["version"] = 1
        o["result"] = .string(result.rawValue)
        o["identifier"] = .string(identifier)
        o.setIfPresent("statusinfo", statusInfo.map { .string($0) })
        o.setIfPresent("amount", amount.map { .string($0.decimalString) })
        o.setIfPresent("tip", tip.map { .string($0.decimalString) })
        o.setIfPresent("reference", reference.map { .string($0) })
        o.setIfPresent("transactionid", transactionId.map { .string($0) })
        o.setIfPresent("msi", msi.map { .integer(Int64($0)) })
        o.setIfPresent("authorization", authorization.map { .string($0) })
        o.setIfPresent("creditcard", cardLastFour.map { .string($0) })
        o.setIfPresent("cardtype", cardType.map { .string($0) })
        o.setIfPresent("email", email.map { .string($0) })
        o.setIfPresent("phone", phone.map { .string($0) })
        o.setIfPresent("arqc", arqc.map { .string($0) })
        o.setIfPresent("aid", aid.map { .string($0) })
        o.setIfPresent("applabel", appLabel.map { .string($0) })
        o.setIfPresent("url", voucherURL.map { .string($0) })
        o.setIfPresent("bank", bank.map { .string($0) })
        o.setIfPresent("accountType", accountType.map { .string($0.rawValue) })
        o.setIfPresent("name", cardholderName.map { .string($0) })
        o.setIfPresent("bp_version", posAppVersion.map { .string($0) })
        QueryItem.setExtra(extra, as: "extra", in: &o)
        return .object(o)
    }

    /// An answer from the document ``json`` produces (used when restoring a snapshot). The
    /// same rules apply as when parsing the URL.
    /// - Parameter json: A document written by ``json``.
    /// - Throws: `validation` or `invalid_json` for a document ``json`` could not have written.
    public init(json: JSONValue) throws(PayHandoffError) {
        let object = try json.object(at: "")
        var items: [QueryItem] = []
        for member in object.members where member.key != "version" && member.key != "extra" {
            let value: String
            switch member.value {
            case .string(let s): value = s
            case .integer(let n) where member.key == "msi": value = String(n)
            default:
                throw JSONValue.wrongType(member.key, expected: "a string", found: member.value)
            }
            guard POSResponse.keyIndex(member.key) != nil else {
                throw PayHandoffError(.validation, field: member.key, "unknown field")
            }
            if member.key == "result" {
                guard let result = Result(rawValue: value) else {
                    throw PayHandoffError(.validation, field: "result", "must be approved, declined or error")
                }
                items.append(QueryItem(key: "result", value: result.billpocketValue))
            } else {
                items.append(QueryItem(key: member.key, value: value))
            }
        }
        let extra = try QueryItem.extra(in: json, at: "extra")
        try self.init(items: items)
        self.extra = extra
    }
}

extension POSResponse {
    /// ``parse(_:urlScheme:expectedIdentifier:)`` with the options as a document:
    /// `{"urlScheme": "myapp", "identifier": "ord-1"}` (`identifier` optional).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(_:urlScheme:expectedIdentifier:)``, plus `validation`/`invalid_json` for the options.
    public static func parse(_ url: String, options: JSONValue) throws(PayHandoffError) -> POSResponse {
        try options.rejectUnknownKeys(["urlScheme", "identifier"])
        return try parse(url, urlScheme: try options.string(at: "urlScheme"),
                         expectedIdentifier: try options.optionalString(at: "identifier"))
    }
}
