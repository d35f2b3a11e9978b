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
    /// Adds `items` to `object` under `key` as `{"k": "v", …}`, only when there are any; the
    /// one spelling of "unknown parameters kept aside" in every result document.
    /// - Parameters:
    ///   - items: The parameters, in order.
    ///   - key: The member name (`extra`).
    ///   - object: The document to add to.
    static func setExtra(_ items: [QueryItem], as key: String, in object: inout JSONObject) {
        guard !items.isEmpty else { return }
        // Keys are distinct: the query rule refuses a repeated key, and so do JSON objects.
        var e = JSONObject(capacity: items.count)
        for item in items { e.appendNewMember(item.key, .string(item.value)) }
        object[key] = .object(e)
    }

    /// Reads what ``setExtra(_:as:in:)`` wrote.
    /// - Parameters:
    ///   - json: The document.
    ///   - key: The member name (`extra`).
    /// - Returns: The parameters, in order; empty when absent.
    /// - Throws: `invalid_json` when the member or one of its values has the wrong type.
    static func extra(in json: JSONValue, at key: String) throws(PayHandoffError) -> [QueryItem] {
        var items: [QueryItem] = []
        for member in (try json.optionalObject(at: key))?.members ?? [] {
            guard case .string(let value) = member.value else {
                throw JSONValue.wrongType(key + "." + member.key, expected: "a string", found: member.value)
            }
            items.append(QueryItem(key: member.key, value: value))
        }
        return items
    }
}
