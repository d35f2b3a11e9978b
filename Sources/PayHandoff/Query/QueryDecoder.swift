/// Decodes query text into ordered ``QueryItem``s, by one explicit rule used everywhere:
///
/// 1. split on `&` (empty pieces from `&&` or a trailing `&` are skipped);
/// 2. split each piece on its first `=` (a piece without `=`, or with an empty key, is an error);
/// 3. percent-decode key and value as UTF-8; `%` must be followed by two hex digits (either
///    case), the result must be valid UTF-8 (no overlong forms, no surrogates) and contain no NUL;
/// 4. `+` becomes a space or stays literal, as the caller says (see ``PlusSign``);
/// 5. a key that appears twice is an error — there is no "first wins" or "last wins" for an
///    attacker to exploit.
///
/// Errors never quote values (they may hold a user token); they name the key as `field` when it
/// decoded and is at most 64 bytes (longer keys are attacker noise, not a field name).
public enum QueryDecoder {
    /// What `+` means in a query.
    public enum PlusSign: Sendable {
        /// `+` is a space: WHATWG `URLSearchParams`, HTML forms, Android's `getQueryParameter`.
        /// Used for hosted-checkout callbacks.
        case space
        /// `+` is a plus sign: the Billpocket POS app escapes like `URLQueryAllowed`, which
        /// leaves `+` unescaped.
        case literal
    }

    /// Decodes `query` (the text after `?`, without the fragment).
    /// - Parameters:
    ///   - query: The raw query text.
    ///   - plus: What `+` means.
    ///   - caseInsensitiveKeys: Whether `Result` and `result` count as the same key when looking
    ///     for duplicates (ASCII case folding).
    /// - Returns: The pairs in their order in the text.
    /// - Throws: `malformed_url` for a piece without `=`, an empty key, a bad escape, invalid
    ///   UTF-8, NUL, or a duplicate key.
    public static func decode(_ query: Substring, plus: PlusSign,
                              caseInsensitiveKeys: Bool) throws(PayHandoffError) -> [QueryItem] {
        var items: [QueryItem] = []
        var position = 0
        for piece in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            position += 1
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else {
                throw PayHandoffError(.malformedURL,
                    "query parameter #" + String(position) + " has no '=' (expected key=value)")
            }
            let rawKey = piece[piece.startIndex..<equals]
            let rawValue = piece[piece.index(after: equals)...]
            guard !rawKey.isEmpty else {
                throw PayHandoffError(.malformedURL, "query parameter #" + String(position) + " has an empty key")
            }
            let key = try percentDecode(rawKey, plus: plus, field: nil,
                                        what: "the key of query parameter #" + String(position))
            let field = key.utf8.count <= 64 ? key : nil
            let value = try percentDecode(rawValue, plus: plus, field: field, what: "the value")
            for existing in items where sameKey(existing.key, key, caseInsensitive: caseInsensitiveKeys) {
                throw PayHandoffError(.malformedURL, field: field, "query key appears more than once")
            }
            items.append(QueryItem(key: key, value: value))
        }
        return items
    }

    /// Percent-decodes one key or value.
    static func percentDecode(_ raw: Substring.UTF8View.SubSequence, plus: PlusSign, field: String?,
                              what: String) throws(PayHandoffError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            let byte = raw[index]
            index = raw.index(after: index)
            if byte == UInt8(ascii: "%") {
                guard index != raw.endIndex, let high = hexValue(raw[index]) else {
                    throw PayHandoffError(.malformedURL, field: field, what + " has a '%' not followed by two hex digits")
                }
                index = raw.index(after: index)
                guard index != raw.endIndex, let low = hexValue(raw[index]) else {
                    throw PayHandoffError(.malformedURL, field: field, what + " has a '%' not followed by two hex digits")
                }
                index = raw.index(after: index)
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+"), plus == .space {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else {
            throw PayHandoffError(.malformedURL, field: field, what + " contains NUL (%00)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PayHandoffError(.malformedURL, field: field, what + " is not valid UTF-8 after percent-decoding")
        }
        return text
    }

    static func sameKey(_ a: String, _ b: String, caseInsensitive: Bool) -> Bool {
        caseInsensitive ? ASCII.equalFoldingCase(a, b) : a == b
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
