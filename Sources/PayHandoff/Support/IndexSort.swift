/// Sorts positions instead of values: the duplicate-key rules (query keys, JSON object keys,
/// extras) and the ledger's restore order keys that live elsewhere (in a buffer, in cJSON's
/// tree). Ties keep position order, so "the first repeat in the text" is well defined.
public enum IndexSort {
    /// `0..<count` ordered by `compare`, equal ones kept in position order.
    /// - Parameters:
    ///   - count: How many positions.
    ///   - compare: Negative, zero or positive as the value at the first position sorts before,
    ///     with or after the one at the second.
    /// - Returns: The positions in sorted order.
    @_spi(JSONText)
    public static func sorted(count: Int, by compare: (Int, Int) -> Int) -> [Int] {
        var order = Array(0..<count)
        order.sort { a, b in
            let c = compare(a, b)
            return c != 0 ? c < 0 : a < b
        }
        return order
    }
}
