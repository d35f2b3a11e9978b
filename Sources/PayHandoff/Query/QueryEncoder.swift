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
        encode(items, after: "")
    }

    /// ``encode(_:)`` written after `prefix` (e.g. `billpocket://`) in the same string: no
    /// second string to copy the query into.
    static func encode(_ items: [QueryItem], after prefix: StaticString) -> String {
        // Straight into the string's storage, sized for the worst case (every byte as %XX):
        // appending byte by byte to an array checked its capacity each time.
        var capacity = prefix.utf8CodeUnitCount
        for item in items { capacity += 3 * (item.key.utf8.count + item.value.utf8.count) + 2 }
        guard capacity > 0 else { return "" }
        func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var count = prefix.utf8CodeUnitCount
            for index in 0..<count { buffer[index] = prefix.utf8Start[index] }
            for (index, item) in items.enumerated() {
                if index > 0 {
                    buffer[count] = UInt8(ascii: "&")
                    count += 1
                }
                count = write(item.key, into: buffer, at: count)
                buffer[count] = UInt8(ascii: "=")
                count += 1
                count = write(item.value, into: buffer, at: count)
            }
            return count
        }
        if #available(macOS 11, iOS 14, watchOS 7, tvOS 14, *) {
            return String(unsafeUninitializedCapacity: capacity, initializingUTF8With: fill)
        }
        // Older systems: through a temporary buffer and one more copy.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[..<fill(buffer)]), as: UTF8.self)
        }
    }

    /// Joins pairs as `k1=v1&k2=v2` escaping only what would change the split — `%`, `&` and
    /// `=` — for text PayHandoff itself reads back with ``QueryDecoder`` (an answer restored from
    /// JSON or given as Android result extras): the pairs come back exactly, with a fraction of
    /// the escapes (and of the decoding) of ``encode(_:)``. Never for text sent anywhere.
    /// - Parameter items: The pairs in order.
    /// - Returns: The text.
    static func joinForReading(_ items: [QueryItem]) -> String {
        var capacity = 0
        for item in items { capacity += 3 * (item.key.utf8.count + item.value.utf8.count) + 2 }
        guard capacity > 0 else { return "" }
        func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var count = 0
            func add(_ text: String) {
                text.withUTF8Buffer { bytes in
                    for byte in bytes {
                        if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=") {
                            buffer[count] = UInt8(ascii: "%")
                            buffer[count + 1] = hexDigit(byte >> 4)
                            buffer[count + 2] = hexDigit(byte & 0x0F)
                            count += 3
                        } else {
                            buffer[count] = byte
                            count += 1
                        }
                    }
                }
            }
            for (index, item) in items.enumerated() {
                if index > 0 {
                    buffer[count] = UInt8(ascii: "&")
                    count += 1
                }
                add(item.key)
                buffer[count] = UInt8(ascii: "=")
                count += 1
                add(item.value)
            }
            return count
        }
        if #available(macOS 11, iOS 14, watchOS 7, tvOS 14, *) {
            return String(unsafeUninitializedCapacity: capacity, initializingUTF8With: fill)
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[..<fill(buffer)]), as: UTF8.self)
        }
    }

    /// Writes `text` percent-encoded into `buffer` from `start` (room for three bytes per byte
    /// of `text`); returns where it ended.
    private static func write(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var count = start
            for byte in bytes {
                if isUnreserved(byte) {
                    buffer[count] = byte
                    count += 1
                } else {
                    buffer[count] = UInt8(ascii: "%")
                    buffer[count + 1] = hexDigit(byte >> 4)
                    buffer[count + 2] = hexDigit(byte & 0x0F)
                    count += 3
                }
            }
            return count
        }
        if let end = text.utf8.withContiguousStorageIfAvailable(encode) { return end }
        return text.withUTF8Buffer(encode)
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
