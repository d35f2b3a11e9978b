/// What a POS flow keeps of its answer. The snapshot must always be writable and readable back
/// (64 KiB), and an answer is text from outside: the flow keeps every field it needs whole and
/// the rest bounded, and says what it cut.
extension POSResponse {
    /// The most a kept answer takes as JSON text, in bytes, besides its identifier (the one the
    /// app sent, bounded by its own rule).
    public static let maxStoredLength = 1536
    /// The most one kept free-text value takes as JSON text, in bytes.
    public static let maxStoredValueLength = 128
    /// Room kept for the `truncated` list itself.
    private static let truncatedReserve = 272

    /// The fields kept whole, always: what the flow and the refund ledger need, each bounded by its
    /// own rule (the identifier is the one the app sent, amounts and `msi` are numbers,
    /// `creditcard` four digits, `transactionid` at most 128 bytes).
    private static let neededKeys = [Key.result, Key.identifier, Key.amount, Key.tip, Key.transactionid, Key.msi,
                                     Key.accounttype, Key.creditcard]
    /// The free-text fields, in the order they are kept while there is room.
    private static let keptInOrder = [Key.bpVersion, Key.authorization, Key.cardtype, Key.bank, Key.name, Key.aid,
                                      Key.applabel, Key.arqc, Key.url, Key.email, Key.phone, Key.reference, Key.statusinfo]

    /// The copy a flow keeps: the needed fields whole; then `bp_version`, `authorization`,
    /// `cardtype`, `bank`, `name`, `aid`, `applabel`, `arqc`, `url`, `email`, `phone`,
    /// `reference`, `statusinfo` and the unknown keys, each value cut to
    /// ``maxStoredValueLength`` bytes of JSON, for as long as the whole, its identifier aside,
    /// stays within ``maxStoredLength``. Every member cut short or left out is named in
    /// ``truncated`` (`"extra"` for unknown keys).
    public var stored: POSResponse {
        var items: [QueryItem] = []
        for key in POSResponse.neededKeys {
            if let value = storedValue(key) { items.append(QueryItem(key: POSResponse.fields[key].key, value: value)) }
        }
        // Cannot fail: the values were read by these same rules.
        guard var needed = try? POSResponse(items: items) else { return self }
        needed = needed.carryingApp(of: self)
        var length = JSONLengthCounter.length { needed.write(to: $0) } - JSONValue.printedLength(of: identifier) + POSResponse.truncatedReserve
        var truncated: [String] = []
        if let word = resultWord, JSONValue.cut(word, toPrintedLength: POSResponse.maxStoredValueLength).1 { truncated.append("result_word") }
        for key in POSResponse.keptInOrder {
            guard let value = field(key) else { continue }
            let name = POSResponse.fields[key].json.text
            let (kept, cut) = JSONValue.cut(value, toPrintedLength: POSResponse.maxStoredValueLength)
            let added = JSONValue.printedLength(of: name) + 2 + JSONValue.printedLength(of: kept)
            if length + added > POSResponse.maxStoredLength {
                truncated.append(name)
                continue
            }
            length += added
            if cut { truncated.append(name) }
            items.append(QueryItem(key: POSResponse.fields[key].key, value: kept))
        }
        var extra: [QueryItem] = []
        if !self.extra.isEmpty {
            length += 10  // "extra":{},
            var cutAny = false
            for item in self.extra {
                let (key, keyCut) = JSONValue.cut(item.key, toPrintedLength: POSResponse.maxStoredValueLength)
                let (value, valueCut) = JSONValue.cut(item.value, toPrintedLength: POSResponse.maxStoredValueLength)
                let added = JSONValue.printedLength(of: key) + 2 + JSONValue.printedLength(of: value)
                // Two keys cut to the same prefix would be one member: the later one is left out.
                guard length + added <= POSResponse.maxStoredLength, !extra.contains(where: { $0.key.hasSameBytes(as: key) }) else {
                    cutAny = true
                    continue
                }
                length += added
                cutAny = cutAny || keyCut || valueCut
                extra.append(QueryItem(key: key, value: value))
            }
            if cutAny { truncated.append("extra") }
        }
        guard let kept = try? POSResponse(items: items) else { return needed.carryingApp(of: self) }
        needed = kept.carryingApp(of: self)
        needed.extra = extra
        needed.truncated = truncated
        return needed
    }

    /// This answer (read from Billpocket-keyed items) as `other`'s app's: its app, result and word
    /// (cut as free text is).
    private func carryingApp(of other: POSResponse) -> POSResponse {
        guard other.posApp != .billpocket else { return self }
        var copy = self
        copy.posApp = other.posApp
        copy.result = other.result
        copy.otherWord = other.otherWord.map { JSONValue.cut($0, toPrintedLength: POSResponse.maxStoredValueLength).0 }
        copy.errorCode = other.errorCode.map { JSONValue.cut($0, toPrintedLength: POSResponse.maxStoredValueLength).0 }
        return copy
    }

    /// Field `key`'s value in the canonical spelling the JSON document uses (amounts as
    /// `"100.00"`, the card as its last four digits, the result in Billpocket's words).
    private func storedValue(_ key: Int) -> String? {
        switch key {
        case Key.result where posApp != .billpocket:
            return POSResponse.placeholderWord
        case Key.result:
            // An unrecognized word is kept cut like free text (a cut word stays unrecognized: every
            // known word is far shorter than the cut).
            return resultWord.map { JSONValue.cut($0, toPrintedLength: POSResponse.maxStoredValueLength).0 } ?? result.billpocketValue
        case Key.amount: return amount?.decimalString
        case Key.tip: return tip?.decimalString
        case Key.msi: return msi.map { String($0) }
        case Key.creditcard: return cardLastFour
        case Key.accounttype: return accountType?.rawValue
        default: return field(key)
        }
    }
}
