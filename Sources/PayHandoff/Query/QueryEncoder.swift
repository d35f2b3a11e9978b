/// Builds query text. Every byte except the RFC 3986 unreserved characters
/// (`A–Z a–z 0–9 - . _ ~`) is percent-encoded as UTF-8 with uppercase hex, so `&`, `=`, `+`,
/// `%`, `#`, `/`, `@`, spaces, accents and emoji all survive any receiver's decoder, whether it
/// treats `+` as a space or not.
public enum QueryEncoder {
    /// Percent-encodes `text` for use as a query key or value.
    /// - Parameter text: Any string.
    /// - Returns: The encoded text; only unreserved characters stay literal.
    public static func percentEncode(_ text: String) -> String {
        // Keys, amounts, tokens and identifiers are usually all unreserved: then the text is its
        // own encoding, and no copy is made.
        if ASCII.firstByte(in: Substring(text), where: { !isUnreserved($0) }) == nil { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Joins pairs as `k1=v1&k2=v2`, each key and value percent-encoded.
    /// - Parameter items: The pairs in order.
    /// - Returns: The query text (without a leading `?`).
    public static func encode(_ items: [QueryItem]) -> String {
        // Into one byte buffer, then one string (appending to a String grew it piece by piece).
        var capacity = 0
        for item in items { capacity += item.key.utf8.count + item.value.utf8.count + 2 }
        var out: [UInt8] = []
        out.reserveCapacity(capacity + capacity / 2)
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            append(item.key, to: &out)
            out.append(UInt8(ascii: "="))
            append(item.value, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` percent-encoded, reading its contiguous UTF-8 when there is one.
    private static func append(_ text: String, to out: inout [UInt8]) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { appendEncoded(byte, to: &out) }
        }
        if done == nil {
            for byte in text.utf8 { appendEncoded(byte, to: &out) }
        }
    }

    private static func appendEncoded(_ byte: UInt8, to out: inout [UInt8]) {
        if isUnreserved(byte) {
            out.append(byte)
        } else {
            out.append(UInt8(ascii: "%"))
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
