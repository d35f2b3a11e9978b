/// Byte-level ASCII helpers. The core compares schemes and keys by bytes, not `Character`s:
/// that is what RFC 3986 specifies and it keeps Embedded builds free of Unicode tables.
enum ASCII {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// `text` with A–Z mapped to a–z; other bytes unchanged.
    static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { lowercased($0) }, as: UTF8.self)
    }

    @inline(never)  // as hasSameBytes(as:): one copy of the length test, not one per caller
    static func equalFoldingCase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return compare(a, b, .equalFoldingCase)
    }

    /// What ``compare(_:_:_:)`` tells.
    enum Comparison {
        /// The same bytes.
        case equal
        /// The same bytes ignoring ASCII case.
        case equalFoldingCase
        /// `a` starts with `b`'s bytes.
        case prefix
        /// `a` ends with `b`'s bytes.
        case suffix
        /// `a` sorts before `b` by bytes, a shorter prefix first.
        case precedes
    }

    /// The one pass over two strings' UTF-8 that every comparison of two strings shares: each
    /// closure given to `withUTF8` was specialized into a copy of it (its body two or three times
    /// over), ~300–800 B apiece in the checkout wasm module (issue 39, item 7). Over contiguous
    /// UTF-8: the generic `elementsEqual` or `starts(with:)` on two UTF8Views cost ~20 ns a byte
    /// and over 1 KB of code each. Native copies (no-op for native strings) are always contiguous.
    /// - Parameters:
    ///   - a: The string compared.
    ///   - b: The string it is compared with.
    ///   - how: Which comparison.
    /// - Returns: Whether `a` and `b` are so related.
    @inline(never)
    static func compare(_ a: String, _ b: String, _ how: Comparison) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                switch how {
                case .equal:
                    guard x.count == y.count, let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
                    return memcmpBytes(p, q, x.count)
                case .equalFoldingCase:
                    guard x.count == y.count else { return false }
                    for index in 0..<x.count where lowercased(x[index]) != lowercased(y[index]) { return false }
                    return true
                case .prefix, .suffix:
                    guard y.count <= x.count else { return false }
                    guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // `b` is empty
                    return memcmpBytes(how == .suffix ? p + (x.count - y.count) : p, q, y.count)
                case .precedes:
                    for index in 0..<Swift.min(x.count, y.count) where x[index] != y[index] { return x[index] < y[index] }
                    return x.count < y.count
                }
            }
        }
    }

    /// Whether two byte runs are equal ignoring ASCII case, a word at a time (schemes and hosts
    /// of every callback are compared with it).
    static func equalFoldingCase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count, let p = a.baseAddress, let q = b.baseAddress else { return a.count == b.count }
        func same(_ offset: Int) -> Bool {
            let x = ByteScan.word(p, offset), y = ByteScan.word(q, offset)
            return x == y || ByteScan.lowercased(x) == ByteScan.lowercased(y)
        }
        guard a.count >= 8 else {
            for index in 0..<a.count where lowercased(p[index]) != lowercased(q[index]) { return false }
            return true
        }
        var index = 0
        while index + 8 < a.count {
            guard same(index) else { return false }
            index += 8
        }
        return same(a.count - 8)  // the last 8 bytes, overlapping what was compared
    }

    /// Whether `a` spells exactly `b` (a literal such as a known key).
    @inline(__always)  // a length test and a word or two: a call cost as much
    static func equalBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
        guard a.count == b.utf8CodeUnitCount, let p = a.baseAddress else { return a.count == b.utf8CodeUnitCount }
        return memcmpBytes(p, b.utf8Start, a.count)
    }

    /// Whether `a` spells `b` ignoring ASCII case; `b` is a lowercase ASCII literal such as a known key.
    static func equalFoldingCase(_ a: UnsafeBufferPointer<UInt8>, lowercase b: StaticString) -> Bool {
        let count = b.utf8CodeUnitCount
        guard a.count == count, let p = a.baseAddress else { return a.count == count }
        let q = b.utf8Start
        var index = 0
        while index < count {
            let x = p[index]
            if (x &- UInt8(ascii: "A") < 26 ? x | 0x20 : x) != q[index] { return false }
            index &+= 1
        }
        return true
    }

    /// The first byte of `text`'s UTF-8 for which `predicate` holds, or `nil`; scans the
    /// contiguous storage when there is one (always, for native strings).
    static func firstByte(in text: Substring, where predicate: (UInt8) -> Bool) -> UInt8? {
        let scanned: UInt8?? = text.utf8.withContiguousStorageIfAvailable { buffer in
            for byte in buffer where predicate(byte) { return byte }
            return nil
        }
        if let scanned { return scanned }
        for byte in text.utf8 where predicate(byte) { return byte }
        return nil
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `0`–`9`, `a`–`f`, `A`–`F`: arithmetic, not a table (no global to initialize per call).
    static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        let l = lowercased(byte)
        return l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")
    }

    /// Whether `text` holds U+0000.
    static func containsNUL(_ text: String) -> Bool {
        return text.withUTF8Buffer { ByteScan.firstIndex(of: 0, in: $0, from: 0, to: $0.count) < $0.count }
    }

    static func isAllDigits(_ text: String) -> Bool {
        !text.isEmpty && firstByte(in: Substring(text), where: { !isDigit($0) }) == nil
    }

    /// Whether `text` has a space, an ASCII control character or DEL (`<= 0x20` or `0x7F`),
    /// which no identifier, URL or e-mail address the core accepts may contain.
    static func hasSpaceOrControl(_ text: String) -> Bool {
        firstByte(in: Substring(text), where: { $0 <= 0x20 || $0 == 0x7F }) != nil
    }

    /// Whether `text` has an ASCII control character or DEL: such text prints as up to 6 bytes a
    /// byte in JSON, and names, ids and tokens the core keeps never need one.
    static func hasControl(_ text: String) -> Bool {
        firstByte(in: Substring(text), where: { $0 < 0x20 || $0 == 0x7F }) != nil
    }

    /// Whether every byte of `text` is printable ASCII (`0x20...0x7E`) other than `"` and `\`,
    /// so that it prints as itself inside a JSON string.
    static func printsAsItself(_ text: String) -> Bool {
        firstByte(in: Substring(text), where: { $0 < 0x20 || $0 > 0x7E || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) == nil
    }
}

extension String {
    /// Whether the two strings are the same UTF-8 bytes.
    ///
    /// The core compares identifiers, nonces, keys and URLs with this, never with `==`: `==` on
    /// `String` is Unicode canonical equivalence, so a precomposed "é" equals "e" + U+0301 — two
    /// different identifiers on the wire would match — and it links ~40 KB of normalization
    /// tables into the Embedded library. Byte equality is what the POS app, the gateway and every
    /// binding compare.
    /// - Parameter other: The string to compare with.
    /// - Returns: `true` when both have the same UTF-8 code units.
    @_spi(JSONText)  // the C ABI's JSON layer compares by bytes too (never a generic `elementsEqual`)
    @inline(never)  // inlined, its two length reads grew each of its ~100 callers (+7 KB native)
    public func hasSameBytes(as other: String) -> Bool {
        utf8.count == other.utf8.count && ASCII.compare(self, other, .equal)
    }

    /// `body` over the string's UTF-8, contiguous (a bridged string is made so first), through one
    /// outlined function the optimizer leaves alone: `withUTF8` called in place is specialized
    /// around each closure given to it, the closure's body copied into each of its paths — about
    /// 300–900 B a call site, ~35 of them (issue 39, item 7). Here every call site passes its
    /// closure to the one copy for its result type; what that costs is an indirect call.
    /// - Parameter body: Reads the bytes.
    /// - Returns: What `body` returns.
    @_spi(JSONText)  // the C ABI's JSON writer copies strings through it too
    @inline(never) @_optimize(none)
    public func withUTF8Buffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = self
        return text.withUTF8(body)
    }

    /// `body` over the string's UTF-8 where it is: a native string's own storage, borrowed (no
    /// copy of the string to retain and release, as `var copy = s; copy.withUTF8` makes); a
    /// bridged one is made contiguous first.
    /// - Parameter body: Reads the bytes.
    /// - Returns: What `body` returns.
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        return withUTF8Buffer(body)
    }

    /// Whether the string's UTF-8 is `bytes` (text still in a buffer, compared before any
    /// string is made of it).
    /// - Parameter bytes: The bytes to compare with.
    /// - Returns: `true` when they are the string's UTF-8 code units.
    @inline(__always)  // in every JSON key lookup: a call there cost more than the compare
    func hasSameBytes(as bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.count == bytes.count else { return false }
        guard let q = bytes.baseAddress else { return true }  // both empty
        func same(_ p: UnsafeBufferPointer<UInt8>) -> Bool { memcmpBytes(p.baseAddress!, q, bytes.count) }
        // A native string's own storage (no copy, nothing to retain); a bridged one is made contiguous.
        if let result = utf8.withContiguousStorageIfAvailable(same) { return result }
        return withUTF8Buffer(same)
    }

    /// Whether the string's UTF-8 is the `count` bytes at `start` (a literal's, or a word of a
    /// literal list): the one outlined copy of the compare, where an inlined
    /// ``hasSameBytes(as:)-(UnsafeBufferPointer<UInt8>)`` at each call site cost a closure each.
    /// - Parameters:
    ///   - start: The first byte.
    ///   - count: How many bytes.
    /// - Returns: `true` when they are the string's UTF-8 code units.
    @inline(never)
    func isBytes(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        hasSameBytes(as: UnsafeBufferPointer(start: start, count: count))
    }

    /// The offset of the first UTF-8 byte that passes `test`, or `nil`: the one outlined scan of
    /// the apps' byte rules (a generic `utf8.contains(where:)`, `allSatisfy` or `firstIndex(of:)`
    /// is specialized per closure, and a `for` loop over the view inlines its iterator, ~500 B each).
    /// - Parameter test: The byte wanted.
    /// - Returns: Its offset, counted in bytes from the start.
    @inline(never)
    func firstByteOffset(where test: (UInt8) -> Bool) -> Int? {
        withUTF8Bytes { bytes in bytes.firstIndex(where: test) }
    }

    /// Whether the string's UTF-8 starts with `prefix`'s bytes (one small loop; the generic
    /// `utf8.starts(with:)` is specialized per view type at over 1 KB each).
    /// - Parameter prefix: The expected first bytes.
    /// - Returns: `true` when they are there (always for an empty `prefix`).
    func hasBytePrefix(_ prefix: String) -> Bool {
        hasBytes(of: prefix, atEnd: false)
    }

    /// Whether the string's UTF-8 ends with `suffix`'s bytes (see ``hasBytePrefix(_:)``).
    /// - Parameter suffix: The expected last bytes.
    /// - Returns: `true` when they are there (always for an empty `suffix`).
    func hasByteSuffix(_ suffix: String) -> Bool {
        hasBytes(of: suffix, atEnd: true)
    }

    private func hasBytes(of part: String, atEnd: Bool) -> Bool {
        ASCII.compare(self, part, atEnd ? .suffix : .prefix)
    }

    /// Whether the string sorts before `other` by UTF-8 bytes (for valid UTF-8, the order of the
    /// Unicode scalar values), a shorter prefix first.
    /// - Parameter other: The string to compare with.
    /// - Returns: `true` when `self` comes first.
    func precedesByBytes(_ other: String) -> Bool {
        ASCII.compare(self, other, .precedes)
    }
}

extension Optional where Wrapped == String {
    /// Both `nil`, or both strings with the same UTF-8 bytes (``Swift/String/hasSameBytes(as:)``).
    /// - Parameter other: The optional string to compare with.
    /// - Returns: `true` when both are `nil` or both have the same UTF-8 code units.
    func hasSameBytes(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): return true
        case let (a?, b?): return a.hasSameBytes(as: b)
        default: return false
        }
    }
}

extension Optional {
    /// Whether this is `nil`, by pattern match. `x == nil` on an optional of an `Equatable` type
    /// type-checks to `Optional.==`, which compares through the wrapped type's `==`; `-Osize`
    /// does not always fold that away in large functions, and the call costs code.
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

extension RawRepresentable where RawValue == String {
    /// The first of `cases` whose raw value has the same UTF-8 bytes as `text`: the core's enums
    /// with string raw values implement `init?(rawValue:)` with this instead of the synthesized
    /// initializer, which matches by `==` (canonical equivalence, and the normalization tables).
    /// - Parameters:
    ///   - cases: Every case of the enum.
    ///   - text: The raw value to look for.
    /// - Returns: The case, or `nil` when no raw value has those bytes.
    static func matching(_ text: String, among cases: [Self]) -> Self? {
        for candidate in cases where candidate.rawValue.hasSameBytes(as: text) { return candidate }
        return nil
    }
}

/// Byte comparison of two buffers of `count` bytes, 8 at a time (the core imports only the
/// standard library, so no `memcmp`; the optimizer does not widen an early-exit byte loop).
@inline(__always)
func memcmpBytes(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    guard count >= 8 else {
        for index in 0..<count where p[index] != q[index] { return false }
        return true
    }
    var index = 0
    while index + 8 < count {
        guard ByteScan.word(p, index) == ByteScan.word(q, index) else { return false }
        index += 8
    }
    return ByteScan.word(p, count - 8) == ByteScan.word(q, count - 8)  // the last 8, overlapping
}

