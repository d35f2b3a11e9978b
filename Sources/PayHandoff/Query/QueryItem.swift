/// One `key=value` pair of a query, already percent-decoded (when parsed) or not yet
/// percent-encoded (when built).
public struct QueryItem: Equatable, Sendable {
    /// The key.
    public var key: String
    /// The value; empty for `key=`.
    public var value: String

    /// Creates a pair.
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
