/// Literal conformances so that core code and tests can write JSON values inline:
/// `let body: JSONValue = ["return_url": .string(url), "amount": 10000]`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral
{
    /// A JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A JSON integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A JSON object with the keys in the written order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        object.reserveCapacity(elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    /// JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

/// `let options: JSONObject = ["urlScheme": "myapp"]`, keys in the written order.
extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the keys in the written order (a repeated key keeps its last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init()
        reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }
}
