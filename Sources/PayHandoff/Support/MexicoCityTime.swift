/// Mexico City civil time for the refund window, computed from epoch seconds with a fixed
/// offset: UTC−6 all year, as Mexico abolished daylight saving time on 2022-10-30. (Before that
/// date summer time was UTC−5; a refund window is at most one day long, so only sales from
/// 2022-10-30 on can still be refunded and the fixed offset is exact for all of them.)
///
/// Times are limited to `0...253402300799` (1970-01-01 to 9999-12-31 UTC) so that no
/// arithmetic on them can overflow.
public enum MexicoCityTime {
    /// The offset from UTC in seconds: −6 h.
    public static let utcOffsetSeconds: Int64 = -6 * 3600
    /// The latest accepted epoch second (9999-12-31T23:59:59Z).
    public static let maxEpochSeconds: Int64 = 253_402_300_799

    /// Checks that `seconds` is within `0...maxEpochSeconds`.
    /// - Parameters:
    ///   - seconds: Epoch seconds.
    ///   - field: The field to name in the error.
    /// - Throws: `validation` when out of range.
    public static func checkEpoch(_ seconds: Int64, field: String) throws(PayHandoffError) {
        guard seconds >= 0, seconds <= maxEpochSeconds else {
            throw PayHandoffError(.validation, field: field, "must be epoch seconds between 1970 and 9999")
        }
    }

    /// The latest accepted epoch millisecond (9999-12-31T23:59:59.999Z).
    public static let maxEpochMilliseconds: Int64 = maxEpochSeconds * 1000 + 999

    /// Checks that `milliseconds` is within `0...maxEpochMilliseconds` (every time the
    /// coordinator takes: `now`, deadlines, snapshot times).
    /// - Parameters:
    ///   - milliseconds: Epoch milliseconds.
    ///   - field: The field to name in the error.
    /// - Throws: `validation` when out of range.
    public static func checkEpochMilliseconds(_ milliseconds: Int64, field: String) throws(PayHandoffError) {
        guard milliseconds >= 0, milliseconds <= maxEpochMilliseconds else {
            throw PayHandoffError(.validation, field: field, "must be epoch milliseconds between 1970 and 9999")
        }
    }

    /// The epoch second at which the Mexico City calendar day containing `seconds` begins.
    /// - Parameter seconds: Epoch seconds, non-negative.
    /// - Returns: Epoch seconds of local midnight.
    public static func startOfDay(containing seconds: Int64) -> Int64 {
        let local = seconds + utcOffsetSeconds
        return floorDiv(local, 86_400) * 86_400 - utcOffsetSeconds
    }

    /// ISO 8601 text in Mexico City time: `2026-11-30T23:00:00-06:00`.
    /// - Parameter seconds: Epoch seconds.
    /// - Returns: The local date and time with its offset.
    public static func iso8601(_ seconds: Int64) -> String {
        let local = seconds + utcOffsetSeconds
        let days = floorDiv(local, 86_400)
        let secondOfDay = local - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
            + "-06:00"
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Proleptic Gregorian date from days since 1970-01-01 (H. Hinnant's `civil_from_days`).
    private static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        var text = String(value)
        while text.utf8.count < width { text = "0" + text }
        return text
    }
}
