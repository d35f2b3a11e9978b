extension POSResponse {
    /// The answer as a document, keyed like the Billpocket response table, with typed values:
    /// `{"version": 1, "result": "approved", "identifier": "ord-1", "amount": "100.00",
    /// "tip": "15.00", "msi": 3, "creditcard": "1234", "accountType": "credit", …,
    /// "extra": {"unknown_key": "value"}}`. Absent fields are left out; `extra` only when non-empty.
    /// `result` is `approved`, `declined`, `error` or `unrecognized` (then `result_word` holds the
    /// word as sent: issue 30).
    public var json: JSONValue {
        var o = JSONObject(capacity: 24)
        o.appendNewMember("version", 1)
        o.appendNewMember("result", .string(result.rawValue))
        o.appendNewMember("result_word", ifPresent: resultWord.map { .string($0) })
        o.appendNewMember("identifier", .string(identifier))
        for index in POSResponse.fields.indices where index != Key.result && index != Key.identifier {
            let value: JSONValue?
            switch index {
            case Key.amount: value = amount.map { .string($0.decimalString) }
            case Key.tip: value = tip.map { .string($0.decimalString) }
            case Key.msi: value = msi.map { .integer(Int64($0)) }
            case Key.creditcard: value = cardLastFour.map { .string($0) }
            case Key.accounttype: value = accountType.map { .string($0.rawValue) }
            default: value = field(index).map { .string($0) }
            }
            o.appendNewMember(POSResponse.fields[index].json, ifPresent: value)
        }
        QueryItem.setExtra(extra, as: "extra", in: &o)
        JSONValue.setTruncated(truncated, in: &o)
        return .object(o)
    }

    /// An answer from the document ``json`` produces (used when restoring a snapshot). The
    /// same rules apply as when parsing the URL.
    /// - Parameter json: A document written by ``json``.
    /// - Throws: `validation` or `invalid_json` for a document ``json`` could not have written.
    public init(json: JSONValue) throws(PayHandoffError) {
        let object = try json.object(at: "")
        var items: [QueryItem] = []
        let word = try json.optionalString(at: "result_word")
        for member in object.members
        where !member.key.hasSameBytes(as: "version") && !member.key.hasSameBytes(as: "extra") && !member.key.hasSameBytes(as: "truncated")
            && !member.key.hasSameBytes(as: "result_word") {
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
                    throw PayHandoffError(.validation, field: "result", "must be approved, declined, error or unrecognized")
                }
                // An unrecognized result is its word; the word of a known result is not written.
                guard (result == .unrecognized) == (word != nil) else {
                    throw PayHandoffError(.validation, field: "result_word", "goes with an unrecognized result, and only with one")
                }
                let spelled = word ?? result.billpocketValue
                var probe = spelled
                guard result != .unrecognized || probe.withUTF8({ Result.reading($0) }) == .unrecognized else {
                    throw PayHandoffError(.validation, field: "result_word", "is a word PayHandoff knows")
                }
                items.append(QueryItem(key: "result", value: spelled))
            } else {
                items.append(QueryItem(key: member.key, value: value))
            }
        }
        let extra = try QueryItem.extra(in: json, at: "extra")
        let truncated = try JSONValue.truncated(in: json)
        try self.init(items: items)
        self.extra = extra
        self.truncated = truncated
    }
}

extension POSResponse {
    /// ``parse(_:urlScheme:expectedIdentifier:token:)`` with the options as a document:
    /// `{"urlScheme": "myapp", "identifier": "ord-1", "token": "…"}` (`identifier` and `token`
    /// optional; `token` needs `identifier`).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document.
    /// - Returns: The typed answer.
    /// - Throws: As ``parse(_:urlScheme:expectedIdentifier:token:)``, plus `validation`/`invalid_json` for the options.
    public static func parse(_ url: String, options: JSONValue) throws(PayHandoffError) -> POSResponse {
        try options.rejectUnknownKeys(["urlScheme", "identifier", "token"])
        return try parse(url, urlScheme: try options.string(at: "urlScheme"),
                         expectedIdentifier: try options.optionalString(at: "identifier"),
                         token: try options.optionalString(at: "token"))
    }

    /// ``parse(extras:expectedIdentifier:token:)`` with documents: `extras` an object of strings,
    /// `options` `{"identifier": "ord-1", "token": "…"}` (both optional).
    /// - Parameters:
    ///   - extras: The result extras document.
    ///   - options: The options document.
    /// - Returns: The typed answer.
    /// - Throws: `invalid_json` for a value that is not a string (naming its key), plus what
    ///   ``parse(extras:expectedIdentifier:token:)`` throws.
    public static func parse(extras: JSONValue, options: JSONValue) throws(PayHandoffError) -> POSResponse {
        try options.rejectUnknownKeys(["identifier", "token"])
        let expectedIdentifier = try options.optionalString(at: "identifier")
        let token = try options.optionalString(at: "token")
        return try parse(extras: try POSResponse.extras(in: extras, at: ""), expectedIdentifier: expectedIdentifier, token: token)
    }

    /// The key/value pairs of the object at `path` of `json`, every value a string.
    /// - Parameters:
    ///   - json: The document.
    ///   - path: Where the object is (`""` for the root).
    /// - Returns: The pairs in order.
    /// - Throws: `invalid_json` for a missing object or a value that is not a string, naming it.
    static func extras(in json: JSONValue, at path: String) throws(PayHandoffError) -> [QueryItem] {
        // A missing member of an event is missing; a document that is not an object (null
        // included) is the wrong JSON type.
        guard let value = json.value(at: path), path.isEmpty || value != .null else {
            throw JSONValue.missing(path)
        }
        guard case .object(let object) = value else {
            throw JSONValue.wrongType(path, expected: "an object of strings", found: value)
        }
        var items: [QueryItem] = []
        items.reserveCapacity(object.members.count)
        for member in object.members {
            guard case .string(let value) = member.value else {
                throw JSONValue.wrongType(path.isEmpty ? member.key : path + "." + member.key, expected: "a string", found: member.value)
            }
            items.append(QueryItem(key: member.key, value: value))
        }
        return items
    }
}
