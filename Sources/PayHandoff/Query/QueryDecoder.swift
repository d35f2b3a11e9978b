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
        // One pass over the contiguous UTF-8 bytes (a native string always has them); the
        // generic Substring.UTF8View path cost ~30 ns a byte.
        let decode = { (bytes: UnsafeBufferPointer<UInt8>) -> Result<[QueryItem], PayHandoffError> in
            do throws(PayHandoffError) {
                return .success(try decodeBytes(bytes, plus: plus, caseInsensitiveKeys: caseInsensitiveKeys))
            } catch {
                return .failure(error)
            }
        }
        let result = query.utf8.withContiguousStorageIfAvailable(decode)
            ?? Array(query.utf8).withUnsafeBufferPointer(decode)
        return try result.get()
    }

    private static func decodeBytes(_ bytes: UnsafeBufferPointer<UInt8>, plus: PlusSign,
                                    caseInsensitiveKeys: Bool) throws(PayHandoffError) -> [QueryItem] {
        var items: [QueryItem] = []
        var fingerprints: [UInt64] = []  // of items[i].key
        var position = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            defer { start = end + 1 }
            guard end > start else { continue }  // empty piece: `&&`, leading or trailing `&`
            position += 1
            var equals = start
            while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
            guard equals < end else {
                throw PayHandoffError(.malformedURL,
                    "query parameter #" + String(position) + " has no '=' (expected key=value)")
            }
            guard equals > start else {
                throw PayHandoffError(.malformedURL, "query parameter #" + String(position) + " has an empty key")
            }
            let key = try percentDecode(UnsafeBufferPointer(rebasing: bytes[start..<equals]), plus: plus, field: nil,
                                        keyPosition: position)
            let field = key.utf8.count <= 64 ? key : nil
            let value = try percentDecode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plus: plus, field: field,
                                          keyPosition: nil)
            // Keys with different fingerprints cannot be the same key; only the rest are compared.
            let print = fingerprint(key)
            for (index, existing) in items.enumerated() where fingerprints[index] == print || print == 0 || fingerprints[index] == 0 {
                if sameKey(existing.key, key, caseInsensitive: caseInsensitiveKeys) {
                    throw PayHandoffError(.malformedURL, field: field, "query key appears more than once")
                }
            }
            items.append(QueryItem(key: key, value: value))
            fingerprints.append(print)
        }
        return items
    }

    /// Percent-decodes one key (`keyPosition`: its parameter's number, for messages) or value
    /// (`keyPosition` nil). `raw` is part of a Swift string's UTF-8, so it is valid UTF-8 itself:
    /// without `%`, NUL or a `+` to turn into a space it is the text as it stands.
    static func percentDecode(_ raw: UnsafeBufferPointer<UInt8>, plus: PlusSign, field: String?,
                              keyPosition: Int?) throws(PayHandoffError) -> String {
        var plain = true
        for byte in raw where byte == UInt8(ascii: "%") || byte == 0 || (byte == UInt8(ascii: "+") && plus == .space) {
            plain = false
            break
        }
        if plain { return String(decoding: raw, as: UTF8.self) }
        func what() -> String {
            keyPosition.map { "the key of query parameter #" + String($0) } ?? "the value"
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            index += 1
            if byte == UInt8(ascii: "%") {
                guard index < raw.count, let high = hexValue(raw[index]) else {
                    throw PayHandoffError(.malformedURL, field: field, what() + " has a '%' not followed by two hex digits")
                }
                index += 1
                guard index < raw.count, let low = hexValue(raw[index]) else {
                    throw PayHandoffError(.malformedURL, field: field, what() + " has a '%' not followed by two hex digits")
                }
                index += 1
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+"), plus == .space {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else {
            throw PayHandoffError(.malformedURL, field: field, what() + " contains NUL (%00)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PayHandoffError(.malformedURL, field: field, what() + " is not valid UTF-8 after percent-decoding")
        }
        return text
    }

    /// Length and first and last byte (ASCII case folded) of an ASCII key; 0 for any other key.
    /// Two ASCII keys with different fingerprints are different keys, with or without case
    /// folding (ASCII text is its own normal form); a non-ASCII key is always compared in full,
    /// as `==` on String compares canonical equivalents.
    private static func fingerprint(_ key: String) -> UInt64 {
        guard let first = key.utf8.first, let last = key.utf8.last,
              ASCII.firstByte(in: Substring(key), where: { $0 >= 0x80 }) == nil else { return 0 }
        return UInt64(key.utf8.count) << 16 | UInt64(ASCII.lowercased(first)) << 8 | UInt64(ASCII.lowercased(last))
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
