/// The unguessable value that ties an answer to the one hand-off that asked for it: the
/// checkout nonce (a path segment of the return URL) and the POS token (appended to the
/// `identifier` the POS app echoes). Any app or web page can send the app a deep link and can
/// guess order numbers; only an answer that echoes this value moves a flow.
///
/// One rule for both, wherever one enters (events, options, snapshots): 16 to 128 RFC 3986
/// unreserved characters (`A-Z a-z 0-9 - . _ ~`), so it survives every encoding on the way
/// (URL path, query, intent extra) unchanged; fresh ones are 128 bits as 32 lowercase hex digits.
/// A POS token also has no `~` (``checkToken(_:field:)``): it follows the app's identifier after
/// a `~`, and the identifier sent (`<identifier>~<token>`) must split in one way only, at its
/// last `~`, so that two hand-offs can never be sent the same text.
public enum CorrelationSecret {
    /// The shortest accepted value, in characters.
    public static let minLength = 16
    /// The longest accepted value, in characters.
    public static let maxLength = 128

    /// Checks a nonce or token given by the host.
    /// - Parameters:
    ///   - value: The value.
    ///   - field: The member to name in the error (`nonce`, `token`).
    /// - Throws: `validation` naming `field` when the value breaks the rule.
    public static func check(_ value: String, field: String) throws(PayHandoffError) {
        guard value.withUTF8Bytes({ follows($0, tilde: true) }) else {
            throw PayHandoffError(.validation, field: field, "must be 16 to 128 characters from A-Z a-z 0-9 - . _ ~")
        }
    }

    /// Checks a POS token given by the host: ``check(_:field:)`` and no `~` (the separator in
    /// front of it in the identifier sent).
    /// - Parameters:
    ///   - value: The token.
    ///   - field: The member to name in the error.
    /// - Throws: `validation` naming `field` when the token breaks the rule.
    public static func checkToken(_ value: String, field: String) throws(PayHandoffError) {
        // One pass for both rules; which one is broken only decides the message.
        guard !value.withUTF8Bytes({ follows($0, tilde: false) }) else { return }
        try check(value, field: field)
        throw PayHandoffError(.validation, field: field,
            "must not contain '~': it separates the identifier from the token, and the identifier sent must split in one way only")
    }

    /// Whether `bytes` are 16 to 128 unreserved characters (`~` among them only when `tilde`),
    /// 8 bytes per step (a byte loop over `String.UTF8View` cost ~10 instructions a byte, on
    /// every callback and answer parsed).
    private static func follows(_ bytes: UnsafeBufferPointer<UInt8>, tilde: Bool) -> Bool {
        guard bytes.count >= minLength, bytes.count <= maxLength, let base = bytes.baseAddress else { return false }
        var refused: UInt64 = 0
        var index = 0
        while index + 8 < bytes.count {
            refused |= ByteScan.notUnreserved(ByteScan.word(base, index), tilde: tilde)
            index += 8
        }
        // The last 8 bytes, overlapping what was read (at least 16 bytes: no byte outside).
        refused |= ByteScan.notUnreserved(ByteScan.word(base, bytes.count - 8), tilde: tilde)
        return refused == 0
    }

    /// A fresh value: 128 bits from `generator` as 32 lowercase hex digits. The core reads no
    /// entropy itself; hosts pass `SystemRandomNumberGenerator`, tests a seeded one.
    /// - Parameter generator: The random source.
    /// - Returns: The value.
    public static func make(using generator: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) {
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0x0F
                bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `given` is `expected`, looking at every byte whatever the first difference, so
    /// that the time taken does not reveal how much of a guess was right.
    /// - Parameters:
    ///   - given: The echoed bytes.
    ///   - expected: The secret.
    /// - Returns: `true` when they are the same bytes.
    static func constantTimeEqual(_ given: UnsafeBufferPointer<UInt8>, _ expected: String) -> Bool {
        // The secret's own storage, borrowed: a copy of the string cost a retain and a release.
        expected.withUTF8Bytes { constantTimeEqual(given, $0) }
    }

    /// The compare itself, outlined: `withUTF8Bytes`' two paths each took a copy of it (issue 39,
    /// item 7: the checkout wasm module).
    @inline(never)
    private static func constantTimeEqual(_ given: UnsafeBufferPointer<UInt8>, _ expected: UnsafeBufferPointer<UInt8>) -> Bool {
        guard given.count == expected.count else { return false }
        guard let p = given.baseAddress, let q = expected.baseAddress else { return true }  // both empty
        // 8 bytes at a time, then the rest; no early exit.
        var difference: UInt64 = 0
        var index = 0
        while index + 8 <= given.count {
            difference |= ByteScan.word(p, index) ^ ByteScan.word(q, index)
            index += 8
        }
        while index < given.count {
            difference |= UInt64(p[index] ^ q[index])
            index += 1
        }
        return difference == 0
    }

    /// ``constantTimeEqual(_:_:)`` of two strings.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        given.withUTF8Bytes { constantTimeEqual($0, expected) }
    }
}
