extension POSResponse {
    /// The answer as a document, keyed like the Billpocket response table, with typed values:
    /// `{"version": 1, "result": "approved", "identifier": "ord-1", "amount": "100.00",
    /// "tip": "15.00", "msi": 3, "creditcard": "1234", "accountType": "credit", …,
    /// "extra": {"unknown_key": "value"}}`. Absent fields are left out; `extra` only when non-empty.
    /// `result` is `approved`, `declined` or `error`.
    public var json: JSONValue {
        var o = JSONObject(capacity: 23)
        o.appendNewMember("version", 1)
        o.appendNewMember("result", .string(result.rawValue))
        o.appendNewMember("identifier", .string(identifier))
        o.appendNewMember("statusinfo", ifPresent: statusInfo.map { .string($0) })
        o.appendNewMember("amount", ifPresent: amount.map { .string($0.decimalString) })
        o.appendNewMember("tip", ifPresent: tip.map { .string($0.decimalString) })
        o.appendNewMember("reference", ifPresent: reference.map { .string($0) })
        o.appendNewMember("transactionid", ifPresent: transactionId.map { .string($0) })
        o.appendNewMember("msi", ifPresent: msi.map { .integer(Int64($0)) })
        o.appendNewMember("authorization", ifPresent: authorization.map { .string($0) })
        o.appendNewMember("creditcard", ifPresent: cardLastFour.map { .string($0) })
        o.appendNewMember("cardtype", ifPresent: cardType.map { .string($0) })
        o.appendNewMember("email", ifPresent: email.map { .string($0) })
        o.appendNewMember("phone", ifPresent: phone.map { .string($0) })
        o.appendNewMember("arqc", ifPresent: arqc.map { .string($0) })
        o.appendNewMember("aid", ifPresent: aid.map { .string($0) })
        o.appendNewMember("applabel", ifPresent: appLabel.map { .string($0) })
        o.appendNewMember("url", ifPresent: voucherURL.map { .string($0) })
        o.appendNewMember("bank", ifPresent: bank.map { .string($0) })
        o.appendNewMember("accountType", ifPresent: accountType.map { .string($0.rawValue) })
        o.appendNewMember("name", ifPresent: cardholderName.map { .string($0) })
        o.appendNewMember("bp_version", ifPresent: posAppVersion.map { .string($0) })
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
        for member in object.members
        where !member.key.hasSameBytes(as: "version") && !member.key.hasSameBytes(as: "extra") {
            let value: String
            switch member.value {
            case .string(let s): value = s
            case .integer(let n) where member.key.hasSameBytes(as: "msi"): value = String(n)
            default:
                throw JSONValue.wrongType(member.key, expected: "a string", found: member.value)
            }
            guard POSResponse.keyIndex(member.key) != nil else {
                throw PayHandoffError(.validation, field: member.key, "unknown field")
            }
            if member.key.hasSameBytes(as: "result") {
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
