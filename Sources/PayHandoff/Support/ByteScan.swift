/// Word-at-a-time searches over UTF-8 bytes: the URL parsers' hot loops look at 8 bytes per step
/// instead of one (a byte loop cost ~2 cycles a byte; a 466-byte POS answer is scanned several
/// times). The tricks are the classic "has zero byte" ones: for a word `x`,
/// `(x − 0x01…01) & ~x & 0x80…80` flags every zero byte exactly up to the first one (bytes after
/// it may be flagged falsely by the borrow), so the lowest flag is always a true hit.
///
/// These word tricks are why the parsers read as they do: the speed goals of `make bench` (a POS
/// answer or a callback parsed ≥ 10× faster than Foundation's URLComponents, every C ABI round
/// trip ≤ 5 µs) and the size goal of the Embedded library are met here, and measured by
/// `make bench-callgrind`; the JSON text layer of the C ABI shares them (``JSONText``).
@_spi(JSONText)
public enum ByteScan {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The 8 bytes at `offset`, first byte in the low bits on every platform.
    @inline(__always)
    static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
    }

    /// `byte` in every byte of a word.
    @inlinable @inline(__always)
    public static func repeated(_ byte: UInt8) -> UInt64 {
        ones &* UInt64(byte)
    }

    /// Bit 7 of a byte set where `word`'s byte is zero; exact up to and including the lowest one.
    @inlinable @inline(__always)
    public static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highs
    }

    /// Non-zero when some byte of `word` equals `byte`.
    @inlinable @inline(__always)
    public static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (ones &* UInt64(byte)))
    }

    /// Bit 7 of a byte set where `word`'s byte is below `limit` (at most 0x80); exact up to and
    /// including the lowest one, like ``zeroBytes(_:)``.
    @inlinable @inline(__always)
    public static func bytesBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// Bit 7 of a byte set where `word`'s byte is below `limit` (at most 0x80) or is DEL; exact up
    /// to and including the lowest one, like ``zeroBytes(_:)`` (the subtraction's borrow runs on
    /// only from a hit; DEL + 1 carries into no other byte).
    @inline(__always)
    static func bytesBelowOrDEL(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        ((word &- ones &* UInt64(limit)) | ((word & ~highs) &+ ones)) & ~word & highs
    }

    /// Bit 7 set in each byte of `word` that is not an RFC 3986 unreserved character
    /// (`A-Z a-z 0-9 - . _ ~`, `~` only when `tilde`), 0 elsewhere: exact in every byte (no
    /// borrow runs between bytes), so a nonce or token is checked 8 bytes per step. Each class is
    /// a range test on the byte's low 7 bits (`x + (0x80 − lo)` sets bit 7 where x ≥ lo, and
    /// `x + (0x7F − hi)` where x > hi); bytes ≥ 0x80 are refused by their own bit 7.
    @inline(__always)
    static func notUnreserved(_ word: UInt64, tilde: Bool) -> UInt64 {
        let low = word & ~highs
        @inline(__always) func atLeast(_ x: UInt64, _ lo: UInt8) -> UInt64 { x &+ ones &* UInt64(0x80 &- lo) }
        @inline(__always) func above(_ x: UInt64, _ hi: UInt8) -> UInt64 { x &+ ones &* UInt64(0x7F &- hi) }
        @inline(__always) func isNot(_ x: UInt64, _ byte: UInt8) -> UInt64 { (x ^ ones &* UInt64(byte)) &+ ones &* 0x7F }
        let folded = low | ones &* 0x20  // A-Z onto a-z
        let letter = atLeast(folded, UInt8(ascii: "a")) & ~above(folded, UInt8(ascii: "z"))
        // `-` `.` `/` and the digits are one run (0x2D–0x39) less `/`.
        let digitDashDot = atLeast(low, UInt8(ascii: "-")) & ~above(low, UInt8(ascii: "9")) & isNot(low, UInt8(ascii: "/"))
        var allowed = letter | digitDashDot | ~isNot(low, UInt8(ascii: "_"))
        if tilde { allowed |= ~isNot(low, UInt8(ascii: "~")) }
        return (~allowed | word) & highs
    }

    /// The `count` bytes at `base` (3 to 16) as two words, for comparing short keys in two
    /// compares: overlapping loads, so no byte past `count` is read. Equal texts of equal length
    /// give equal words.
    @inline(__always)
    static func words(_ base: UnsafePointer<UInt8>, _ count: Int) -> (UInt64, UInt64) {
        if count >= 8 { return (word(base, 0), word(base, count - 8)) }
        let raw = UnsafeRawPointer(base)
        if count >= 4 {
            let low = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
            let high = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return (UInt64(low) | UInt64(high) << 32, 0)
        }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(base[index]) << UInt64(index * 8) }
        return (value, 0)
    }

    /// 0x20 in each byte of `word` that is an ASCII `a`–`z`, 0 elsewhere (the bit that makes an
    /// uppercase letter lowercase).
    @inline(__always)
    static func lowercaseLetters(_ word: UInt64) -> UInt64 {
        let heptets = word & ~highs
        let aboveZ = heptets &+ ones &* (0x7F - 0x7A)  // bit 7 set where the heptet is > 'z'
        let atLeastA = heptets &+ ones &* (0x80 - 0x61)  // bit 7 set where it is ≥ 'a'
        return (atLeastA & ~aboveZ & ~word & highs) >> 2
    }

    /// `word` with every ASCII `A`–`Z` byte lowercased, all other bytes unchanged.
    @inline(__always)
    static func lowercased(_ word: UInt64) -> UInt64 {
        let heptets = word & ~highs
        let aboveZ = heptets &+ ones &* (0x7F - 0x5A)  // bit 7 set where the heptet is > 'Z'
        let atLeastA = heptets &+ ones &* (0x80 - 0x41)  // bit 7 set where it is ≥ 'A'
        let upper = atLeastA & ~aboveZ & ~word & highs
        return word | upper >> 2
    }

    /// The index of the first `byte` in `bytes[from..<to]`, or `to`.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var index = from
        if let base = bytes.baseAddress {
            while index + 8 <= to {
                let hits = bytesEqual(word(base, index), byte)
                if hits != 0 { return index + hits.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < to {
            if bytes[index] == byte { return index }
            index += 1
        }
        return to
    }

    /// The index of the first `a` or `b` in `bytes[from..<to]`, or `to`.
    static func firstIndex(of a: UInt8, or b: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        var index = from
        if let base = bytes.baseAddress {
            while index + 8 <= to {
                let w = word(base, index)
                let hits = bytesEqual(w, a) | bytesEqual(w, b)
                if hits != 0 { return index + hits.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < to {
            if bytes[index] == a || bytes[index] == b { return index }
            index += 1
        }
        return to
    }

    /// Whether `bytes` hold an ASCII control character or DEL (`< 0x20` or `0x7F`): ids and
    /// tokens refuse them. 8 bytes per step; the last word overlaps the one before it.
    static func containsControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        guard bytes.count >= 8 else {
            for byte in bytes where byte < 0x20 || byte == 0x7F { return true }
            return false
        }
        var hits: UInt64 = 0
        var index = 0
        while index + 8 < bytes.count {
            hits |= bytesBelowOrDEL(word(base, index), 0x20)
            index += 8
        }
        return hits | bytesBelowOrDEL(word(base, bytes.count - 8), 0x20) != 0
    }

    /// The first byte that is an ASCII control character, a space or DEL (`<= 0x20` or `0x7F`),
    /// or `nil` — no URL the OS hands over has one raw — and the index of the first `#`, found
    /// in the same pass.
    static func firstControlOrSpace(in bytes: UnsafeBufferPointer<UInt8>) -> (forbidden: UInt8?, hash: Int?) {
        var index = 0
        var hash: Int? = nil
        if let base = bytes.baseAddress {
            let below = ones &* 0x21
            while index + 8 <= bytes.count {
                let w = word(base, index)
                // "some byte < 0x21" is exact for a limit ≤ 0x80; DEL and '#' are zeros after xor.
                if ((w &- below) & ~w & highs) | bytesEqual(w, 0x7F) != 0 { break }
                if hash == nil {
                    let hits = bytesEqual(w, UInt8(ascii: "#"))
                    if hits != 0 { hash = index + hits.trailingZeroBitCount >> 3 }
                }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte <= 0x20 || byte == 0x7F { return (byte, hash) }
            if byte == UInt8(ascii: "#"), hash == nil { hash = index }
            index += 1
        }
        return (nil, hash)
    }
}

/// A set of ASCII bytes as a 128-bit map: membership is a shift and a mask, not a chain of
/// compares (URL character classes are tested on every byte of a host or scheme).
struct ByteSet {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The set of the bytes of `members` (ASCII).
    init(_ members: StaticString) {
        for byte in UnsafeBufferPointer(start: members.utf8Start, count: members.utf8CodeUnitCount) {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }
    }

    /// Whether `byte` is in the set.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        // A select of the word, not a branch: URL bytes fall on both sides of 64 at random.
        byte < 128 && (byte < 64 ? low : high) >> UInt64(byte & 63) & 1 != 0
    }
}
