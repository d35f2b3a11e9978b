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
        // Over the contiguous UTF-8 bytes (a native string always has them); the generic
        // Substring.UTF8View path cost ~30 ns a byte.
        let decode = { (bytes: UnsafeBufferPointer<UInt8>) -> Result<[QueryItem], PayHandoffError> in
            do throws(PayHandoffError) {
                var items: [QueryItem] = []
                try scan(bytes, plus: plus, caseInsensitiveKeys: caseInsensitiveKeys, knownKey: { _ in nil }) { piece, _ throws(PayHandoffError) in
                    items.append(QueryItem(key: piece.key(in: bytes, plus: plus), value: piece.value(in: bytes, plus: plus)))
                }
                return .success(items)
            } catch {
                return .failure(error)
            }
        }
        let result = query.utf8.withContiguousStorageIfAvailable(decode)
            ?? Array(query.utf8).withUnsafeBufferPointer(decode)
        return try result.get()
    }

    /// One `key=value` piece of a query, located but not decoded: byte offsets into the buffer
    /// ``scan(_:plus:caseInsensitiveKeys:endsAtHash:knownKey:_:)`` ran over. Parsers that keep only a few fields
    /// (``POSResponse``, ``CheckoutCallback``) decode only those, and only when read.
    struct Piece {
        /// The key's bytes, still escaped.
        var key: Range<Int>
        /// The value's bytes, still escaped.
        var value: Range<Int>
        /// Whether the key needs decoding (a `%`, a NUL, or a `+` read as a space).
        var keyIsEscaped: Bool
        /// Whether the value needs decoding.
        var valueIsEscaped: Bool

        /// The decoded key.
        func key(in bytes: UnsafeBufferPointer<UInt8>, plus: PlusSign) -> String {
            QueryDecoder.decoded(UnsafeBufferPointer(rebasing: bytes[key]), escaped: keyIsEscaped, plus: plus)
        }

        /// The decoded value.
        func value(in bytes: UnsafeBufferPointer<UInt8>, plus: PlusSign) -> String {
            QueryDecoder.decoded(UnsafeBufferPointer(rebasing: bytes[value]), escaped: valueIsEscaped, plus: plus)
        }
    }

    /// Applies the rule to `bytes` and hands every piece to `body`, in order; the one place the
    /// splitting, escape, encoding and duplicate checks live. Checks run piece by piece, in the
    /// order of the type's list, so the first problem in the text is the one reported.
    /// - Parameters:
    ///   - bytes: The query's UTF-8 (part of a Swift string: valid UTF-8 itself).
    ///   - plus: What `+` means.
    ///   - caseInsensitiveKeys: Whether keys that differ only in ASCII case are duplicates.
    ///   - knownKey: The caller's number (0–63) for a key it knows, given the decoded key's
    ///     bytes, or `nil`; it must treat keys as the same exactly when this rule does (ASCII
    ///     case ignored when `caseInsensitiveKeys`). Repeats of known keys are found with one bit
    ///     test; only the other keys are compared.
    ///   - endsAtHash: Whether the text may run on into a fragment: the query then ends at the
    ///     first `#` (RFC 3986), found in the same pass.
    ///   - body: Called with each valid piece and its known-key number.
    /// - Returns: What the pass saw besides the pieces (``Outcome``).
    /// - Throws: As ``decode(_:plus:caseInsensitiveKeys:)``, or what `body` throws.
    @discardableResult
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, plus: PlusSign, caseInsensitiveKeys: Bool, endsAtHash: Bool = false,
                     knownKey: (UnsafeBufferPointer<UInt8>) -> Int?,
                     _ body: (Piece, Int?) throws(PayHandoffError) -> Void) throws(PayHandoffError) -> Outcome {
        guard bytes.count <= Int(Int32.max) else {  // offsets are kept as 32-bit
            throw PayHandoffError(.limitExceeded, "query is longer than 2 GiB")
        }
        // Unknown keys seen so far, for the duplicate rule, checked all at once (sorted: n log n
        // comparisons, never n²) when the scan ends or stops at an error — so a repeat earlier in
        // the text than the error is still the one reported. Escaped keys are decoded into
        // `decodedKeys` once. Known keys are found repeated with one bit test as they come.
        // Neither allocates until it is needed (the first unknown keys are kept inline).
        var seen = SeenKeys()
        var decodedKeys: [UInt8]? = nil
        var known: UInt64 = 0
        var position = 0

        /// Throws for the first unknown key that repeats an earlier one, if any.
        func checkRepeats() throws(PayHandoffError) {
            guard seen.count > 1 else { return }
            let repeated = (decodedKeys ?? []).withUnsafeBufferPointer { decoded in
                firstRepeatedKey(count: seen.count, caseInsensitive: caseInsensitiveKeys) { index in
                    let key = seen[index]
                    return UnsafeBufferPointer(rebasing: (key.decoded ? decoded : bytes)[Int(key.start)..<Int(key.end)])
                }
            }
            if let repeated {
                let key = seen[repeated]
                let name = key.decoded ? String(decoding: (decodedKeys ?? [])[Int(key.start)..<Int(key.end)], as: UTF8.self)
                    : String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(key.start)..<Int(key.end)]), as: UTF8.self)
                throw PayHandoffError(.malformedURL, field: name.utf8.count <= 64 ? name : nil, "query key appears more than once")
            }
        }

        func scanPieces() throws(PayHandoffError) -> Outcome {
            func finish(_ start: Int, _ equals: Int?, _ end: Int, _ escapes: Escapes) throws(PayHandoffError) {
                guard end > start else { return }  // empty piece: `&&`, leading or trailing `&`
                position += 1
                guard let equals else {
                    throw PayHandoffError(.malformedURL,
                        "query parameter #" + String(position) + " has no '=' (expected key=value)")
                }
                guard equals > start else {
                    throw PayHandoffError(.malformedURL, "query parameter #" + String(position) + " has an empty key")
                }
                let piece = Piece(key: start..<equals, value: (equals + 1)..<end,
                                  keyIsEscaped: escapes.key != .none, valueIsEscaped: escapes.value != .none)
                if escapes.key == .toCheck, let failure = check(UnsafeBufferPointer(rebasing: bytes[piece.key]), plus: plus) {
                    throw failure.error(field: nil, what: "the key of query parameter #" + String(position))
                }
                if escapes.value == .toCheck, let failure = check(UnsafeBufferPointer(rebasing: bytes[piece.value]), plus: plus) {
                    throw failure.error(field: fieldName(piece, bytes, plus), what: "the value")
                }
                guard !piece.keyIsEscaped else { return try finishEscapedKey(piece) }
                if let number = knownKey(UnsafeBufferPointer(rebasing: bytes[piece.key])) {
                    try markKnown(number, in: &known, piece, bytes, plus)
                    try body(piece, number)
                    return
                }
                seen.append(SeenKey(start: Int32(piece.key.lowerBound), end: Int32(piece.key.upperBound), decoded: false))
                try body(piece, nil)
            }

            /// ``finish`` for a piece whose key needs decoding (rare: kept out of the main path).
            @inline(never)
            func finishEscapedKey(_ piece: Piece) throws(PayHandoffError) {
                let decodedKey = decodedBytes(UnsafeBufferPointer(rebasing: bytes[piece.key]), plus: plus)
                if let number = decodedKey.withUnsafeBufferPointer({ knownKey($0) }) {
                    try markKnown(number, in: &known, piece, bytes, plus)
                    try body(piece, number)
                    return
                }
                var all = decodedKeys ?? []
                decodedKeys = nil  // one reference while appending
                let begin = all.count
                all.append(contentsOf: decodedKey)
                seen.append(SeenKey(start: Int32(begin), end: Int32(all.count), decoded: true))
                decodedKeys = all
                try body(piece, nil)
            }


            // One pass over the text, 8 bytes at a time: every `&`, `=`, `%` (and `+` when it
            // means a space) is an event, taken in text order, and so is every byte no URL the OS
            // hands over carries raw (below `$`, DEL), which only sets `unusual` — and marks the
            // piece for `check` when it is NUL. The tests are the cheap ones (this loop is
            // ALU-bound): one range test, below `(`, covers `%`, `&` and those bytes; the
            // zero-byte tests may flag a byte just after a true hit, which the comparisons below
            // skip.
            let space = plus == .space
            let plusOrEquals = ByteScan.repeated(space ? UInt8(ascii: "+") : UInt8(ascii: "="))
            var unusual = false
            var start = 0
            var equals: Int? = nil
            var escapes = Escapes()
            var offset = 0
            let count = bytes.count
            while offset < count, let base = bytes.baseAddress {
                // The last, partial word is read as the 8 bytes ending the text, shifted so that
                // its first byte is at `offset`; the bytes past the end read as `a` (no event).
                var w: UInt64
                if offset &+ 8 <= count {
                    w = ByteScan.word(base, offset)
                } else {
                    let missing = UInt64(truncatingIfNeeded: offset &+ 8 &- count) &* 8
                    if count >= 8 {
                        w = ByteScan.word(base, count &- 8) &>> missing
                    } else {  // a text under 8 bytes: one word, from offset 0
                        w = 0
                        for index in 0..<count { w |= UInt64(base[index]) &<< UInt64(index &* 8) }
                    }
                    w |= ~(UInt64.max &>> missing) & ByteScan.repeated(UInt8(ascii: "a"))
                }
                var events = ByteScan.bytesBelowOrDEL(w, UInt8(ascii: "("))
                    | ByteScan.zeroBytes(w ^ ByteScan.repeated(UInt8(ascii: "=")))
                    | ByteScan.zeroBytes(w ^ plusOrEquals)
                while events != 0 {
                    let index = offset + events.trailingZeroBitCount >> 3
                    events &= events &- 1
                    // Compares, not a switch: a jump table's indirect branch mispredicted
                    // far more often on real answers.
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "&") {
                        try finish(start, equals, index, escapes)
                        start = index + 1
                        equals = nil
                        escapes = Escapes()
                    } else if byte == UInt8(ascii: "=") {
                        if equals == nil { equals = index }
                    } else if byte == UInt8(ascii: "%") || (space && byte == UInt8(ascii: "+")) {
                        // An escape of an ASCII byte other than NUL is checked right here; anything
                        // else (a bad escape, a byte ≥ 0x80 that UTF-8 must vouch for) is left to
                        // `check` when the piece ends, which also words the error.
                        let plain = byte == UInt8(ascii: "+") || (index + 2 < bytes.count
                            && bytes[index + 1] &- UInt8(ascii: "0") < 8 && ASCII.isHexDigit(bytes[index + 2])
                            && (bytes[index + 1] != UInt8(ascii: "0") || bytes[index + 2] != UInt8(ascii: "0")))
                        let mark: Escapes.State = plain ? .plain : .toCheck
                        if equals == nil { escapes.key = max(escapes.key, mark) } else { escapes.value = max(escapes.value, mark) }
                    } else if byte < UInt8(ascii: "$") || byte == 0x7F {
                        if endsAtHash && byte == UInt8(ascii: "#") {
                            try finish(start, equals, index, escapes)
                            try checkRepeats()
                            return Outcome(unusualBytes: unusual, end: index)
                        }
                        unusual = true
                        if byte == 0 {  // `check` words the error
                            if equals == nil { escapes.key = .toCheck } else { escapes.value = .toCheck }
                        }
                    }
                }
                offset &+= 8
            }
            try finish(start, equals, count, escapes)
            try checkRepeats()
            return Outcome(unusualBytes: unusual, end: count)
        }

        do throws(PayHandoffError) {
            return try scanPieces()
        } catch {
            try checkRepeats()  // a repeat earlier in the text than the error is reported first
            throw error
        }
    }

    /// What ``scan(_:plus:caseInsensitiveKeys:endsAtHash:knownKey:_:)`` saw besides the pieces.
    struct Outcome {
        /// Whether the text has a byte no incoming URL carries raw — a control character, space
        /// or DEL — or a `!`, `"` or `#` (found in the same pass; `true` asks the caller for its
        /// exact check, ``URLSyntax/checkIncoming(_:field:)``, instead of a pass of its own).
        var unusualBytes: Bool
        /// Where the query ended: at its first `#` when it ends there, else at the end of the text.
        var end: Int
    }

    /// What the scan saw in the key and the value of the piece it is in.
    private struct Escapes {
        enum State: Comparable { case none, plain, toCheck }
        var key = State.none
        var value = State.none
    }

    /// An unknown key the scan saw: its bytes in the query, or (`decoded`) in the scan's buffer of
    /// decoded keys.
    private struct SeenKey {
        var start: Int32
        var end: Int32
        var decoded: Bool
    }

    /// The unknown keys a scan saw, in order: the first four inline, the rest in an array made
    /// only then (a callback or an answer usually has none or a few: an array cost an
    /// allocation and its release, about a fifth of a callback's parse).
    private struct SeenKeys {
        private var inline = (SeenKey(start: 0, end: 0, decoded: false), SeenKey(start: 0, end: 0, decoded: false),
                              SeenKey(start: 0, end: 0, decoded: false), SeenKey(start: 0, end: 0, decoded: false))
        private var spilled: [SeenKey]? = nil
        private(set) var count = 0

        mutating func append(_ key: SeenKey) {
            switch count {
            case 0: inline.0 = key
            case 1: inline.1 = key
            case 2: inline.2 = key
            case 3: inline.3 = key
            default:
                var more = spilled ?? []
                spilled = nil  // one reference while appending
                more.append(key)
                spilled = more
            }
            count += 1
        }

        subscript(index: Int) -> SeenKey {
            switch index {
            case 0: return inline.0
            case 1: return inline.1
            case 2: return inline.2
            case 3: return inline.3
            default: return spilled![index - 4]
            }
        }
    }


    /// The position of the first of `count` keys that equals an earlier one (ASCII case folded
    /// when `caseInsensitive`), or `nil`. A few keys are compared pairwise; more are sorted, so
    /// that the work grows as n log n key comparisons, never n² — the duplicate rule runs on
    /// text any app can send.
    /// - Parameters:
    ///   - count: The number of keys.
    ///   - caseInsensitive: Whether keys that differ only in ASCII case are equal.
    ///   - key: The bytes of key `i`.
    /// - Returns: The smallest position `j` whose key equals the key of some `i < j`.
    static func firstRepeatedKey(count: Int, caseInsensitive: Bool,
                                 key: (Int) -> UnsafeBufferPointer<UInt8>) -> Int? {
        func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
            for index in 0..<Swift.min(a.count, b.count) {
                let x = caseInsensitive ? ASCII.lowercased(a[index]) : a[index]
                let y = caseInsensitive ? ASCII.lowercased(b[index]) : b[index]
                if x != y { return x < y ? -1 : 1 }
            }
            return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
        }
        if count <= 8 {
            for later in 1..<Swift.max(count, 1) {
                for earlier in 0..<later where order(key(earlier), key(later)) == 0 { return later }
            }
            return nil
        }
        let sorted = IndexSort.sorted(count: count) { a, b in order(key(a), key(b)) }
        var first: Int? = nil
        var runStart = 0
        for index in 1...count {
            if index < count, order(key(sorted[runStart]), key(sorted[index])) == 0 { continue }
            // sorted[runStart..<index] are equal keys by position: the second one repeats the first.
            if index - runStart > 1 { first = Swift.min(first ?? Int.max, sorted[runStart + 1]) }
            runStart = index
        }
        return first
    }

    /// The decoded key to name in an error about its piece, when it is at most 64 bytes (longer
    /// keys are attacker noise, not a field name). Errors never quote values.
    /// Sets known key `number`'s bit in `known`, refusing its second appearance (one bit per
    /// known key, whether the key was written plainly or escaped).
    @inline(__always)
    private static func markKnown(_ number: Int, in known: inout UInt64, _ piece: Piece, _ bytes: UnsafeBufferPointer<UInt8>,
                                  _ plus: PlusSign) throws(PayHandoffError) {
        let bit: UInt64 = 1 << UInt64(number)
        guard known & bit == 0 else {
            throw PayHandoffError(.malformedURL, field: fieldName(piece, bytes, plus), "query key appears more than once")
        }
        known |= bit
    }

    private static func fieldName(_ piece: Piece, _ bytes: UnsafeBufferPointer<UInt8>, _ plus: PlusSign) -> String? {
        let key = piece.key(in: bytes, plus: plus)
        return key.utf8.count <= 64 ? key : nil
    }

    /// What is wrong with an escaped key or value.
    private enum Failure {
        case badEscape, nul, invalidUTF8

        func error(field: String?, what: String) -> PayHandoffError {
            switch self {
            case .badEscape: return PayHandoffError(.malformedURL, field: field, what + " has a '%' not followed by two hex digits")
            case .nul: return PayHandoffError(.malformedURL, field: field, what + " contains NUL (%00)")
            case .invalidUTF8: return PayHandoffError(.malformedURL, field: field, what + " is not valid UTF-8 after percent-decoding")
            }
        }
    }

    /// Checks an escaped key or value without building it: every `%` followed by two hex digits,
    /// no NUL once decoded, valid UTF-8 once decoded. `raw` is part of a Swift string, so its
    /// unescaped runs are whole UTF-8 sequences: only an escape that decodes to a byte ≥ 0x80 can
    /// make the result invalid, and only then is the decoded text validated in full.
    private static func check(_ raw: UnsafeBufferPointer<UInt8>, plus: PlusSign) -> Failure? {
        var sawNUL = false
        var escapedHighByte = false
        var index = ByteScan.firstIndex(of: UInt8(ascii: "%"), or: 0, in: raw, from: 0, to: raw.count)
        while index < raw.count {
            if raw[index] == 0 {
                sawNUL = true
            } else {
                guard index + 2 < raw.count, ASCII.isHexDigit(raw[index + 1]), ASCII.isHexDigit(raw[index + 2]) else {
                    return .badEscape
                }
                let high = raw[index + 1]
                if high == UInt8(ascii: "0"), raw[index + 2] == UInt8(ascii: "0") { sawNUL = true }
                if high >= UInt8(ascii: "8") { escapedHighByte = true }  // 8–9, A–F, a–f: a byte ≥ 0x80
                index += 2
            }
            index = ByteScan.firstIndex(of: UInt8(ascii: "%"), or: 0, in: raw, from: index + 1, to: raw.count)
        }
        if sawNUL { return .nul }
        if escapedHighByte {
            let bytes = decodedBytes(raw, plus: plus)
            guard UTF8Text.isValid(bytes) else { return .invalidUTF8 }
        }
        return nil
    }

    /// The text of a key or value ``check(_:plus:)`` accepted (or one that needs no decoding).
    static func decoded(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool, plus: PlusSign) -> String {
        escaped ? String(decoding: decodedBytes(raw, plus: plus), as: UTF8.self) : String(decoding: raw, as: UTF8.self)
    }

    /// Percent-decodes `raw` (a `%` without two hex digits stays as it is; callers checked first).
    @inline(never)
    private static func decodedBytes(_ raw: UnsafeBufferPointer<UInt8>, plus: PlusSign) -> [UInt8] {
        Array(unsafeUninitializedCapacity: raw.count) { target, count in count = decode(raw, plus: plus, into: target) }
    }

    /// ``decodedBytes(_:plus:)`` into `target`, which has room for `raw.count` bytes (decoding
    /// never lengthens): what a writer copies at once, without an array of its own.
    /// - Returns: How many bytes were written.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>, plus: PlusSign, into target: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = 0
        var count = 0
        while index < raw.count {
            let byte = raw[index]
            index += 1
            if byte == UInt8(ascii: "%"), index + 1 < raw.count, let high = hexValue(raw[index]), let low = hexValue(raw[index + 1]) {
                target[count] = high << 4 | low
                index += 2
            } else if byte == UInt8(ascii: "+"), plus == .space {
                target[count] = UInt8(ascii: " ")
            } else {
                target[count] = byte
            }
            count += 1
        }
        return count
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
