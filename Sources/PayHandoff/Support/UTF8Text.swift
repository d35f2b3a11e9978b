/// UTF-8 validation for bytes that are not yet a `String`. The standard library's
/// `String(validating:as:)` would do, but it needs iOS 18 / macOS 15, and the package builds for
/// older systems; `Unicode.UTF8`'s decoder applies the same rules and is available everywhere.
/// SPI for the C ABI's JSON layer, which checks the strings cJSON hands back.
@_spi(JSONText)
public enum UTF8Text {
    /// Whether `bytes` are well-formed UTF-8: no overlong forms, no surrogates, nothing above
    /// U+10FFFF, no truncated sequence. (U+0000 is well-formed; callers refuse it where needed.)
    /// - Parameter bytes: The bytes.
    /// - Returns: `true` when they are valid UTF-8.
    public static func isValid<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        // ASCII (nearly every key and value) is valid as it stands: 8 bytes per step.
        let ascii: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            var index = 0
            var high: UInt64 = 0
            if let base = buffer.baseAddress {
                while index + 8 <= buffer.count {
                    high |= ByteScan.word(base, index)
                    index += 8
                }
            }
            while index < buffer.count {
                high |= UInt64(buffer[index])
                index += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
        if ascii == true { return true }
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// `bytes` as a `String` when they are valid UTF-8, else `nil`.
    /// - Parameter bytes: The bytes.
    /// - Returns: The text, or `nil`.
    public static func string<Bytes: Collection<UInt8>>(validating bytes: Bytes) -> String? {
        isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
