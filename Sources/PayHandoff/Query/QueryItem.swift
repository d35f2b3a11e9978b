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

extension QueryItem {
    /// Writes `items` as the member `key`: `{"k": "v", …}`, only when there are any; the one
    /// spelling of "unknown parameters kept aside" in every result document.
    /// - Parameters:
    ///   - items: The parameters, in order.
    ///   - key: The member name (`extra`).
    ///   - writer: The object being written.
    static func writeExtra(_ items: [QueryItem], as key: StaticString, to writer: JSONWriter) {
        guard !items.isEmpty else { return }
        // Keys are distinct: the query rule refuses a repeated key, and so do JSON objects.
        writer.beginObject(key)
        for item in items {
            writer.key(item.key)
            writer.string(item.value)
        }
        writer.end()
    }

    /// Reads what ``writeExtra(_:as:to:)`` wrote.
    /// - Parameters:
    ///   - json: The document's members.
    ///   - key: The member name (`extra`).
    /// - Returns: The parameters, in order; empty when absent.
    /// - Throws: `invalid_json` when the member or one of its values has the wrong type.
    static func extra<R: JSONReader>(in json: JSONMembers<R>, at key: StaticString) throws(PayHandoffError) -> [QueryItem] {
        var items: [QueryItem] = []
        guard let object = try json.optionalObject(key), let node = object.node else { return items }
        let reader = json.reader
        try reader.forEach(in: node) { member throws(PayHandoffError) in
            guard reader.kind(of: member) == .string else {
                throw JSONMembers<R>.wrongType(key.text + "." + reader.key(of: member), expected: "a string", found: reader.kind(of: member))
            }
            items.append(QueryItem(key: reader.key(of: member), value: reader.string(member)))
        }
        return items
    }
}
