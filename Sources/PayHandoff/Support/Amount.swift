/// An amount of money in integer minor units (centavos): `Amount(minorUnits: 10050)` is 100.50.
///
/// PayHandoff never represents money as floating point. Amounts enter either as integer minor
/// units or as decimal text with at most two decimals, and leave as text with exactly two
/// decimals (`"100.50"`), which is what the Billpocket POS app and the gateway expect.
///
/// The accepted text is `DIGITS [ "." DIGIT [DIGIT] ]`: `"100"`, `"100.5"`, `"100.50"`,
/// `"0.01"`, and leading zeros (`"007.50"`). Refused with a typed error: signs, spaces,
/// exponents, thousands separators, a leading or trailing dot (`".5"`, `"5."`), more than two
/// decimals (never rounded), and anything above ``max``.
///
/// ``max`` is 2^53 − 1 minor units so that every amount survives a trip through a JSON
/// number in JavaScript or any IEEE-double JSON parser exactly.
public struct Amount: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The largest representable amount in minor units: 9 007 199 254 740 991 (2^53 − 1).
    public static let max: Int64 = 9_007_199_254_740_991

    /// Zero.
    public static let zero = Amount(unchecked: 0)

    /// The amount in minor units (centavos). Always in `0...Amount.max`.
    public let minorUnits: Int64

    init(unchecked minorUnits: Int64) {
        self.minorUnits = minorUnits
    }

    /// Creates an amount from integer minor units.
    /// - Parameters:
    ///   - minorUnits: Centavos, in `0...Amount.max`.
    ///   - field: The field name to put in the error, if any.
    /// - Throws: `validation` when negative or above ``max``.
    public init(minorUnits: Int64, field: String? = nil) throws(PayHandoffError) {
        guard minorUnits >= 0 else {
            throw PayHandoffError(.validation, field: field, "amount must not be negative")
        }
        guard minorUnits <= Amount.max else {
            throw PayHandoffError(.validation, field: field, "amount is too large")
        }
        self.minorUnits = minorUnits
    }

    /// Parses decimal text with at most two decimals (`"100"`, `"100.5"`, `"100.00"`).
    /// - Parameters:
    ///   - text: The decimal text.
    ///   - field: The field name to put in the error, if any.
    /// - Throws: `validation` naming `field` for anything but plain decimal text within range.
    public init(parsing text: String, field: String? = nil) throws(PayHandoffError) {
        let outcome = text.withUTF8Buffer { bytes -> Result<Amount, PayHandoffError> in
            do throws(PayHandoffError) { return .success(try Amount.parse(bytes, field: field)) } catch { return .failure(error) }
        }
        self = try outcome.get()
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, field: String?) throws(PayHandoffError) -> Amount {
        var units: Int64 = 0
        var integerDigits = 0
        var fractionDigits = 0
        var sawDot = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard !sawDot else {
                    throw PayHandoffError(.validation, field: field, "amount has more than one decimal point")
                }
                guard integerDigits > 0 else {
                    throw PayHandoffError(.validation, field: field, "amount must start with a digit")
                }
                sawDot = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw PayHandoffError(.validation, field: field,
                    "amount must be decimal digits with an optional '.' and at most two decimals (no sign, space, exponent or separator)")
            }
            if sawDot {
                fractionDigits += 1
                guard fractionDigits <= 2 else {
                    throw PayHandoffError(.validation, field: field, "amount has more than two decimals")
                }
            } else {
                integerDigits += 1
            }
            units = units &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
            // Checked after every digit, so the running value never wraps: max * 10 + 9 < Int64.max.
            guard units <= Amount.max else {
                throw PayHandoffError(.validation, field: field, "amount is too large")
            }
        }
        guard integerDigits > 0 else {
            throw PayHandoffError(.validation, field: field, "amount is empty")
        }
        guard !sawDot || fractionDigits > 0 else {
            throw PayHandoffError(.validation, field: field, "amount must not end with '.'")
        }
        var scale = 2 - fractionDigits
        while scale > 0 {
            units = units &* 10
            guard units <= Amount.max else {
                throw PayHandoffError(.validation, field: field, "amount is too large")
            }
            scale -= 1
        }
        return Amount(unchecked: units)
    }

    /// The amount as text with exactly two decimals: `"100.00"`, `"0.05"`.
    public var decimalString: String {
        // Digits written from the right into a small buffer: `String(Int)` and two
        // concatenations made three strings for every amount sent or printed.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var units = UInt64(minorUnits)  // 0 ... 2^53 − 1: at most 16 digits
            var index = buffer.count
            for position in 0... {
                if position == 2 {
                    index -= 1
                    buffer[index] = UInt8(ascii: ".")
                }
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(units % 10)
                units /= 10
                if units == 0 && position >= 2 { break }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[index...]), as: UTF8.self)
        }
    }

    /// Same as ``decimalString``.
    public var description: String { decimalString }

    /// Orders by minor units.
    public static func < (lhs: Amount, rhs: Amount) -> Bool {
        lhs.minorUnits < rhs.minorUnits
    }
}
