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

    static func equalFoldingCase(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { lowercased($0) == lowercased($1) }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        let l = lowercased(byte)
        return l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")
    }

    static func isAllDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isDigit)
    }
}
