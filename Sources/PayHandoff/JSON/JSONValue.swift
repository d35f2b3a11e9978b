/// A JSON document as a value: the one shape in which PayHandoff's core takes and gives
/// structured data (requests, gateway answers, confirmations, events, results, snapshots).
///
/// The core never reads or writes JSON *text*; the C ABI and the CLI do that with cJSON, and on
/// Apple platforms `JSONValue` is `Codable` (outside Embedded builds). Numbers are integers
/// only: money is integer minor units or decimal text, never a JSON number with a fraction.
/// Objects keep their keys in insertion order (so output is stable and readable) and compare
/// equal regardless of order. Strings and keys compare by their UTF-8 bytes, as every reader of
/// the JSON text does (not by Unicode canonical equivalence, which `String ==` is).
///
/// A document is data and prints whole: it redacts nothing. The documents the library hands out
/// that carry secrets say so where they are returned — the snapshot (nonces and tokens), the build
/// results of a POS URL (the user token) and of a checkout request (the API key, the nonce), the
/// `json` of effects and answers; the typed values they come from print their secrets redacted.
public enum JSONValue: Equatable, Sendable {
    /// `null` (counts as absent wherever a member is optional).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer; JSON text carries at most ±``maxExactInteger``.
    case integer(Int64)
    /// A string (any Unicode, including U+0000, which the rules then refuse where it matters).
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with ordered, unique keys.
    case object(JSONObject)

    /// 2^53 − 1: JSON text carries integers up to this magnitude, the largest every JSON consumer
    /// (JavaScript, any IEEE-double parser such as cJSON) keeps exactly.
    public static let maxExactInteger: Int64 = 9_007_199_254_740_991

    /// The JSON type name used in error messages (`"string"`, `"object"`, …).
    public var typeName: String {
        JSONValueReader().kind(of: JSONValueReader.Node(self)).name
    }

    // The path readers below read by ``JSONMembers``' rules, the ones every document reader of
    // the core follows (one place for them): a path is looked into step by step as
    // ``JSONMembers/nested(_:)-(StaticString)`` does.

    /// The value at a dot-separated path of object keys (`"data.checkout.checkout_url"`),
    /// or `nil` when any step is missing or not an object. The empty path is `self`.
    /// - Parameter path: Keys separated by `.`.
    /// - Returns: The value found, or `nil`.
    public func value(at path: String) -> JSONValue? {
        if path.isEmpty { return self }
        return try? reading(at: path) { members, key in members.member(key)?.value }
    }

    /// Whether a non-null value is at `path` (JSON `null` counts as absent everywhere).
    /// - Parameter path: Dot-separated keys.
    /// - Returns: `true` when present and not `null`.
    public func isPresent(at path: String) -> Bool {
        switch value(at: path) {
        case nil, .null?: return false
        default: return true
        }
    }

    /// The string at `path`.
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The string.
    /// - Throws: `validation` (naming `path`) when missing or null, `invalid_json` when not a string.
    public func string(at path: String) throws(PayHandoffError) -> String {
        try reading(at: path) { members, key throws(PayHandoffError) in try members.string(key) }
    }

    /// The string at `path`, or `nil` when it is missing or `null`.
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The string, or `nil`.
    /// - Throws: `invalid_json` naming `path` when present but not a string.
    public func optionalString(at path: String) throws(PayHandoffError) -> String? {
        try reading(at: path) { members, key throws(PayHandoffError) in try members.optionalString(key) }
    }

    /// The integer at `path`.
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The integer.
    /// - Throws: `validation` when missing or null, `invalid_json` when not an integer.
    public func integer(at path: String) throws(PayHandoffError) -> Int64 {
        try reading(at: path) { members, key throws(PayHandoffError) in try members.integer(key) }
    }

    /// The integer at `path`, or `nil` when it is missing or `null`.
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The integer, or `nil`.
    /// - Throws: `invalid_json` naming `path` when present but not an integer.
    public func optionalInteger(at path: String) throws(PayHandoffError) -> Int64? {
        try reading(at: path) { members, key throws(PayHandoffError) in try members.optionalInteger(key) }
    }

    /// The boolean at `path`, or `nil` when it is missing or `null`.
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The boolean, or `nil`.
    /// - Throws: `invalid_json` naming `path` when present but not a boolean.
    public func optionalBool(at path: String) throws(PayHandoffError) -> Bool? {
        try reading(at: path) { members, key throws(PayHandoffError) in try members.optionalBool(key) }
    }

    /// The object at `path`.
    /// - Parameter path: Dot-separated keys; empty for `self`.
    /// - Returns: The object.
    /// - Throws: `validation` when missing or null, `invalid_json` when not an object.
    public func object(at path: String) throws(PayHandoffError) -> JSONObject {
        guard let value = try optionalObject(at: path) else { throw JSONValue.missing(path) }
        return value
    }

    /// The object at `path`, or `nil` when it is missing or `null`.
    /// - Parameter path: Dot-separated keys; empty for `self`.
    /// - Returns: The object, or `nil`.
    /// - Throws: `invalid_json` naming `path` when present but not an object.
    public func optionalObject(at path: String) throws(PayHandoffError) -> JSONObject? {
        try reading(at: path) { members, key throws(PayHandoffError) in
            guard case .object(let object)? = try members.optionalObject(key)?.node?.value else { return nil }
            return object
        }
    }

    /// The array at `path`, or `nil` when it is missing or `null`.
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The array, or `nil`.
    /// - Throws: `invalid_json` naming `path` when present but not an array.
    public func optionalArray(at path: String) throws(PayHandoffError) -> [JSONValue]? {
        try reading(at: path) { members, key throws(PayHandoffError) in
            guard case .array(let elements)? = try members.optionalArray(key)?.value else { return nil }
            return elements
        }
    }

    /// An amount at `path`: decimal text (`"100.00"`) or an integer of minor units (`10000`).
    /// - Parameter path: Dot-separated keys.
    /// - Returns: The amount, or `nil` when missing or `null`.
    /// - Throws: `validation` for bad text or range, `invalid_json` for any other JSON type.
    public func optionalAmount(at path: String) throws(PayHandoffError) -> Amount? {
        try reading(at: path) { members, key throws(PayHandoffError) in try members.optionalAmount(key) }
    }

    /// Refuses keys of the object at `path` that are not in `allowed`, so that a misspelt
    /// optional field is an error instead of being silently ignored.
    /// - Parameters:
    ///   - allowed: The keys the reader understands.
    ///   - path: Dot-separated keys of the object; empty for `self`.
    /// - Throws: `validation` naming the first unknown key; `invalid_json` if not an object.
    public func rejectUnknownKeys(_ allowed: [String], at path: String = "") throws(PayHandoffError) {
        let list = allowed.joined(separator: " ")
        try reading(at: path) { members, key throws(PayHandoffError) in
            let object = JSONMembers(members.value(key), members.reader, path: path)
            let result: Result<Void, PayHandoffError> = list.withUTF8Buffer { bytes in
                do throws(PayHandoffError) {
                    return .success(try object.rejectUnknownKeys(UnsafeRawBufferPointer(bytes)))
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }
    }

    /// Reads the value at `path` with `read`, given the members of the object that holds it and
    /// its key; the empty path reads `self` (as the member `""` of an object around it).
    private func reading<T>(at path: String,
                            _ read: (JSONMembers<JSONValueReader>, UnsafeRawBufferPointer) throws(PayHandoffError) -> T) throws(PayHandoffError) -> T {
        let root = path.isEmpty ? JSONValue.object(JSONObject(["": self])) : self
        let result: Result<T, PayHandoffError> = path.withUTF8Buffer { bytes in
            let text = UnsafeRawBufferPointer(bytes)
            var members = JSONMembers(JSONValueReader.Node(root), JSONValueReader())
            var start = 0
            var end = 0
            while end < text.count {
                if text[end] == UInt8(ascii: ".") {
                    members = members.nested(UnsafeRawBufferPointer(rebasing: text[start..<end]))
                    start = end + 1
                }
                end += 1
            }
            do throws(PayHandoffError) {
                return .success(try read(members, UnsafeRawBufferPointer(rebasing: text[start...])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Equal when of the same type with equal contents: strings byte for byte, objects with the
    /// same keys (byte for byte) and equal values in any order, arrays element by element.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.string(a), .string(b)): return a.hasSameBytes(as: b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }

    @usableFromInline
    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    @usableFromInline
    static func missing(_ path: String) -> PayHandoffError {
        PayHandoffError(.validation, field: path.isEmpty ? nil : path, "is required")
    }
}

/// A JSON object: members in insertion order, unique keys, order-insensitive equality. Keys are
/// told apart by their UTF-8 bytes.
public struct JSONObject: Equatable, Sendable {
    /// One key/value pair.
    public struct Member: Equatable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONValue

        /// Equal when the keys are the same bytes and the values are equal.
        public static func == (lhs: Member, rhs: Member) -> Bool {
            lhs.key.hasSameBytes(as: rhs.key) && lhs.value == rhs.value
        }
    }

    /// The members in insertion order.
    public private(set) var members: [Member] = []

    /// An empty object.
    public init() {}

    /// An object from key/value pairs; a later pair with the same key replaces the earlier one.
    /// - Parameter pairs: The members in order.
    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Makes room for `count` members in all, so that adding them does not grow storage step by step.
    /// - Parameter count: The number of members the object will hold.
    public mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }

    /// An empty object with room for `capacity` members.
    /// - Parameter capacity: The number of members it will hold.
    init(capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// Appends a member whose key is known not to be in the object yet, without looking: the
    /// core's result documents (literal, distinct keys) and the cJSON reader (which compares
    /// each key with the earlier ones of its object itself). Debug builds check.
    /// - Parameters:
    ///   - key: A key not yet in the object.
    ///   - value: The value.
    @_spi(JSONText)
    public mutating func appendNewMember(_ key: String, _ value: JSONValue) {
        assert(index(of: key) == nil, "appendNewMember: the key is already in the object")
        members.append(Member(key: key, value: value))
    }

    /// ``appendNewMember(_:_:)`` when `value` is not `nil`; keeps optional output fields out.
    /// - Parameters:
    ///   - key: A key not yet in the object.
    ///   - value: The value, or `nil` to leave the object unchanged.
    @inline(never)
    mutating func appendNewMember(_ key: String, ifPresent value: JSONValue?) {
        if let value { appendNewMember(key, value) }
    }

    /// The keys in order.
    public var keys: [String] { members.map { $0.key } }

    /// Number of members.
    public var count: Int { members.count }

    /// The value for `key`; setting `nil` removes the member, setting a value replaces it in
    /// place or appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(of: key) else { return nil }
            return members[index].value
        }
        set { set(key, newValue) }
    }

    @inline(never)  // one copy, not one per subscript use (the library is size-bound)
    private mutating func set(_ key: String, _ newValue: JSONValue?) {
        if let index = index(of: key) {
            if let newValue {
                members[index].value = newValue
            } else {
                members.remove(at: index)
            }
        } else if let newValue {
            members.append(Member(key: key, value: newValue))
        }
    }

    /// The position of the member with `key`, or `nil`.
    @inline(never)  // one copy of the loop, not one per subscript use
    private func index(of key: String) -> Int? {
        members.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where JSONObject.sameKey(buffer[index].key, key) { return index }
            return nil
        }
    }

    /// The position of the member whose key is the UTF-8 `key`, or `nil`.
    @inline(never)
    func index(ofUTF8 key: UnsafeBufferPointer<UInt8>) -> Int? {
        members.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index].key.hasSameBytes(as: key) { return index }
            return nil
        }
    }

    /// Whether two keys are the same bytes; the lengths first, which tells most keys apart
    /// without touching their bytes.
    static func sameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && sameBytes(a, b)
    }

    @inline(never)  // one copy of the comparison for every key lookup
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.hasSameBytes(as: b)
    }

    /// Sets `key` to `value` when `value` is not `nil`; keeps optional output fields out of the object.
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value, or `nil` to leave the object unchanged.
    public mutating func setIfPresent(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }

    /// Equal when both have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }
}
