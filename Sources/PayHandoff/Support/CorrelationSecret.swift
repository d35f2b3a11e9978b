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
        var value = value  // contiguous UTF-8 (a native string already is): the generic view cost ~40 instructions a byte
        guard value.utf8.count >= minLength, value.utf8.count <= maxLength,
              value.withUTF8({ $0.allSatisfy(QueryEncoder.isUnreserved) }) else {
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
        try check(value, field: field)
        guard !value.utf8.contains(POSRequest.tokenSeparator) else {
            throw PayHandoffError(.validation, field: field,
                "must not contain '~': it separates the identifier from the token, and the identifier sent must split in one way only")
        }
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
        var expected = expected
        return expected.withUTF8 { expected in
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
    }

    /// ``constantTimeEqual(_:_:)`` of two strings.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        var given = given
        return given.withUTF8 { constantTimeEqual($0, expected) }
    }
}
