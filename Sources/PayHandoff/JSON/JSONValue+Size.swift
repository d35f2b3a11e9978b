/// How long a document is once printed, without printing it: the coordinator keeps its snapshot
/// under the 64 KiB the C ABI accepts as input (``Coordinator/snapshotBudget``), so that what it
/// writes can always be read back, and bounds what it stores of each answer.
///
/// The count is an upper bound of cJSON's unformatted output (what the C ABI prints): strings
/// count 2 quotes plus 1 byte per byte, 2 for `"`, `\` and `\b \f \n \r \t`, 6 for any other byte
/// below 0x20 (`\u00XX`); integers their digits and sign; containers their brackets, commas and
/// colons. (cJSON prints UTF-8 above 0x7F as is.)
extension JSONValue {
    /// The printed length, in bytes, at most.
    public var printedLengthBound: Int {
        switch self {
        case .null, .bool(true): return 4
        case .bool(false): return 5
        case .integer(let n): return JSONValue.digits(n)
        case .string(let s): return JSONValue.printedLength(of: s)
        case .array(let elements):
            var total = 2 + Swift.max(elements.count - 1, 0)
            for element in elements { total += element.printedLengthBound }
            return total
        case .object(let object):
            var total = 2 + Swift.max(object.members.count - 1, 0)
            for member in object.members { total += JSONValue.printedLength(of: member.key) + 1 + member.value.printedLengthBound }
            return total
        }
    }

    /// The rule of a value a gateway names and a flow keeps whole (a session id, a card token, a
    /// brand): no control character, and at most `limit` bytes as JSON text without its quotes
    /// — a `"` or `\` counts twice, as it prints escaped —, so that the room a flow keeps for it
    /// is `limit + 2` bytes, whatever the value holds.
    /// - Parameters:
    ///   - text: The value.
    ///   - limit: The most bytes it may print as, quotes excluded.
    /// - Returns: Whether the value may be kept.
    static func isKeptWhole(_ text: String, printedAtMost limit: Int) -> Bool {
        text.utf8.count <= limit && !ASCII.hasControl(text) && printedLength(of: text) <= limit + 2
    }

    /// The printed length of a string value, quotes included.
    /// - Parameter text: The string.
    /// - Returns: Its length as JSON text.
    public static func printedLength(of text: String) -> Int {
        return text.withUTF8Buffer { printedLength(ofUTF8: $0) }
    }

    /// ``printedLength(of:)-(String)`` of a string's UTF-8.
    /// - Parameter bytes: The string's UTF-8.
    /// - Returns: Its length as JSON text.
    static func printedLength(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // 8 bytes at a time: a word with no byte JSON escapes prints as itself (the budget
        // check measures whole snapshots, so this runs over every stored byte).
        var total = 2 + bytes.count
        var index = 0
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = ByteScan.word(base, index)
                if ByteScan.bytesBelow(word, 0x20) | ByteScan.bytesEqual(word, UInt8(ascii: "\"")) | ByteScan.bytesEqual(word, UInt8(ascii: "\\")) != 0 {
                    for offset in 0..<8 { total += printedLength(of: base[index + offset]) - 1 }
                }
                index += 8
            }
        }
        while index < bytes.count {
            total += printedLength(of: bytes[index]) - 1
            index += 1
        }
        return total
    }

    /// The printed length of one byte inside a string.
    static func printedLength(of byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x0C, 0x0A, 0x0D, 0x09: return 2
        case 0..<0x20: return 6
        default: return 1
        }
    }

    /// The number of characters of `n` in decimal, sign included.
    static func digits(_ n: Int64) -> Int {
        var count = n < 0 ? 2 : 1
        var rest = n.magnitude
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// `text` cut to at most `limit` bytes once printed (quotes included), at a character
    /// boundary, and whether anything was cut.
    /// - Parameters:
    ///   - text: The string.
    ///   - limit: The longest printed length kept (at least 2).
    /// - Returns: The kept prefix and `true` when it is shorter than `text`.
    static func cut(_ text: String, toPrintedLength limit: Int) -> (String, Bool) {
        var total = 2
        var sequenceStart = 0  // a UTF-8 sequence is kept or cut whole
        for (index, byte) in text.utf8.enumerated() {
            if byte & 0xC0 != 0x80 { sequenceStart = index }
            total += printedLength(of: byte)
            if total > limit {
                return (String(decoding: text.utf8.prefix(sequenceStart), as: UTF8.self), true)
            }
        }
        return (text, false)
    }

    /// Writes `"truncated": [names]` into the document of a stored copy (an answer or a callback
    /// a flow keeps) when anything was cut or left out; the one spelling, read by ``truncated(in:)``.
    /// - Parameters:
    ///   - names: The members cut short or left out.
    ///   - writer: The object being written.
    static func writeTruncated(_ names: [String], to writer: JSONWriter) {
        if !names.isEmpty { writer.member("truncated", strings: names) }
    }

    /// Reads what ``writeTruncated(_:to:)`` wrote.
    /// - Parameter json: The document's members.
    /// - Returns: The member names; empty when absent.
    /// - Throws: `invalid_json` for a list that is not of strings.
    static func truncated<R: JSONReader>(in json: JSONMembers<R>) throws(PayHandoffError) -> [String] {
        var names: [String] = []
        guard let list = try json.optionalArray("truncated") else { return names }
        let reader = json.reader
        try reader.forEach(in: list) { element throws(PayHandoffError) in
            guard reader.kind(of: element) == .string else {
                throw JSONMembers<R>.wrongType("truncated[" + String(names.count) + "]", expected: "a member name", found: reader.kind(of: element))
            }
            names.append(reader.string(element))
        }
        return names
    }
}
