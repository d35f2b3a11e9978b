/// The answers of the terminal apps other than Billpocket, in the one answer type every flow,
/// snapshot and binding already knows: each app's reader (`POS/Square`, `POS/SumUp`, `POS/Clip`)
/// maps what its app sends onto Billpocket's keys — the echoed correlation value is `identifier`,
/// the app's transaction id `transactionid` (its error or cancel code is ``POSResponse/errorCode``), an
/// amount it echoes `amount` — decides the ``POSResponse/Result`` by its own documented rules,
/// and keeps every other key in ``POSResponse/extra``. Validation is the same (a `transactionid`
/// is 1–128 printable ASCII characters, amounts are exact).
extension POSResponse {
    /// The word a non-Billpocket answer's text holds under `result` (never shown: the answer's
    /// ``result`` is the app reader's decision, and ``resultWord`` its own status word).
    static let placeholderWord = "error"

    /// An answer of `posApp` (not Billpocket).
    /// - Parameters:
    ///   - posApp: The app that answered.
    ///   - result: What its answer means (its reader's rules).
    ///   - word: Its status word, kept when `result` is ``Result/unrecognized``.
    ///   - items: Its values under Billpocket's keys (`identifier` required).
    ///   - extra: Its other keys, in order.
    /// - Throws: `validation` for a value the answer rules refuse (naming the Billpocket key).
    init(posApp: POSApp, result: Result, word: String?, items: [QueryItem], extra: [QueryItem],
         errorCode: String? = nil) throws(PayHandoffError) {
        self = try POSResponse(items: items + [QueryItem(key: "result", value: POSResponse.placeholderWord)])
        self.posApp = posApp
        self.result = result
        self.otherWord = result == .unrecognized ? word : nil
        // An echoed secret (user token, PIN, affiliate key) is never kept, whichever app echoed it.
        self.extra = extra.filter { !Redaction.isSecretKey($0.key) }
        self.errorCode = errorCode
    }

    /// The answer every app's reader ends with (one place, not one per reader): the echo as
    /// `identifier`, the amounts an app echoes (Clip's, minor units), its transaction id as
    /// `transactionid`, in that order.
    /// - Parameters:
    ///   - idKey: The app's own key of the transaction id, which a `transactionid` error names
    ///     (the app's answer has no `transactionid` member).
    ///   - extra: Its other keys, in order.
    /// - Throws: `validation` for a value the answer rules refuse.
    @inline(never)
    static func appAnswer(_ posApp: POSApp, _ result: Result, word: String?, echo: String, amount: Int64? = nil, tip: Int64? = nil,
                          transactionID: String?, idKey: StaticString, extra: [QueryItem], errorCode: String?) throws(PayHandoffError) -> POSResponse {
        var fields = [QueryItem(key: "identifier", value: echo)]
        if let amount { fields.append(QueryItem(key: "amount", value: Amount(unchecked: amount).decimalString)) }
        if let tip { fields.append(QueryItem(key: "tip", value: Amount(unchecked: tip).decimalString)) }
        if let transactionID { fields.append(QueryItem(key: "transactionid", value: transactionID)) }
        do throws(PayHandoffError) {
            return try POSResponse(posApp: posApp, result: result, word: word, items: fields, extra: extra, errorCode: errorCode)
        } catch where error.field.hasSameBytes(as: "transactionid") {
            var renamed = error
            renamed.field = idKey.text
            throw renamed
        }
    }

    /// What an app's status word and code mean, by its rules (a table, not code per rule):
    /// `rules` is one text of space-separated triples `status code letter` — the code `*` for
    /// any code or none, `-` for none; the letter `a`pproved, `d`eclined, `e`rror, `c`ancelled.
    /// The first triple that matches decides; none is `unrecognized`, and so is an approval
    /// without its proof (a transaction id, Clip's exact amount): reconciled, never approved.
    /// - Parameters:
    ///   - rules: The app's triples.
    ///   - status: Its status word.
    ///   - code: Its error (or failure-cause) code.
    ///   - proven: Whether the answer carries what an approval needs.
    /// - Returns: The result.
    @inline(never)
    static func decide(_ rules: StaticString, status: String?, code: String?, proven: Bool) -> Result {
        guard let status else { return .unrecognized }
        let list = UnsafeBufferPointer(start: rules.utf8Start, count: rules.utf8CodeUnitCount)
        var start = 0
        func word() -> Range<Int> {
            var end = start
            while end < list.count, list[end] != UInt8(ascii: " ") { end += 1 }
            defer { start = end + 1 }
            return start..<end
        }
        func matches(_ range: Range<Int>, _ text: String) -> Bool {
            !range.isEmpty && text.isBytes(rules.utf8Start + range.lowerBound, count: range.count)
        }
        while start < list.count {
            let statusWord = word(), codeWord = word(), letter = word()
            guard matches(statusWord, status) else { continue }
            let any = codeWord.count == 1 && list[codeWord.lowerBound] == UInt8(ascii: "*")
            let none = codeWord.count == 1 && list[codeWord.lowerBound] == UInt8(ascii: "-")
            guard any || (none ? code.isNone : code.map { matches(codeWord, $0) } ?? false) else { continue }
            switch list[letter.lowerBound] {
            case UInt8(ascii: "a"): return proven ? .approved : .unrecognized
            case UInt8(ascii: "d"): return .declined
            case UInt8(ascii: "e"): return .error
            case UInt8(ascii: "c"): return .cancelled
            default: return .unrecognized
            }
        }
        return .unrecognized
    }
}

/// The string members of the JSON document inside an app's answer (Square's `data`, Clip's
/// `PAYMENT_RESPONSE`), read from the codec's ``JSONValue`` by ``JSONMembers``' rules: `null`
/// counts as absent, another type is `invalid_json` ("must be a string, found …") naming the
/// member's path. Not a `JSONMembers<JSONValueReader>`: its specializations (1.6 KB in the
/// Embedded library) served only these two readers.
struct AnswerDocument {
    /// The document's members.
    let object: JSONObject
    /// Its path in the answer (`""`: errors name the member alone).
    let path: String

    /// The string member `key`, `nil` when missing or `null`.
    /// - Throws: `invalid_json` naming the member when it is not a string.
    @inline(never)
    func string(_ key: StaticString) throws(PayHandoffError) -> String? {
        guard let index = object.index(ofUTF8: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)) else { return nil }
        switch object.members[index].value {
        case .null: return nil
        case .string(let text): return text
        case let other:
            throw PayHandoffError(.invalidJSON, field: JSONValue.join(path, key.text),
                                  "must be a string, found " + JSONValueReader().kind(of: JSONValueReader.Node(other)).name)
        }
    }
}
