/// The members of one object of a document being read, by key, with errors that name each
/// member by its path from the document's root (`request.amount`, `data.brand`).
///
/// The one place the rules of reading a member are written, for every ``JSONReader`` (the C
/// ABI's cJSON tree, ``JSONValue`` for the Swift API and its path readers such as
/// ``JSONValue/string(at:)``): `null` counts as absent; a member missing where it is required is
/// `validation` ("is required"), one of the wrong JSON type `invalid_json`; looking into
/// something that is not an object finds nothing.
///
/// Keys are UTF-8 bytes; the readers pass literals (``StaticString``), whose overloads are
/// inlined down to a pointer and a length.
@_spi(JSONText)
public struct JSONMembers<R: JSONReader> {
    /// The tree.
    public let reader: R
    /// The object (`nil` when absent); any other kind of value has no members.
    public let node: R.Node?
    /// The object's path from the document's root, `""` for the root.
    public let path: String

    /// The members of `node`.
    /// - Parameters:
    ///   - node: The object, or `nil` (then there are none).
    ///   - reader: Its tree.
    ///   - path: Its path from the document's root (`""` for the root).
    @inlinable
    public init(_ node: R.Node?, _ reader: R, path: String = "") {
        self.reader = reader
        self.node = node
        self.path = path
    }

    /// The members of the document `node`, which must be an object.
    /// - Parameters:
    ///   - node: The document.
    ///   - reader: Its tree.
    ///   - expected: What it must be, for the error (`"an event object"`).
    /// - Throws: `invalid_json` (without a field) when it is not an object.
    @inlinable
    init(document node: R.Node, _ reader: R, expected: String) throws(PayHandoffError) {
        let kind = reader.kind(of: node)
        guard kind == .object else { throw JSONMembers.wrongType(nil, expected: expected, found: kind) }
        self.init(node, reader)
    }

    /// Whether there is an object to look into.
    @inlinable
    var isObject: Bool {
        guard let node else { return false }
        return reader.kind(of: node) == .object
    }

    // MARK: By literal key (the document readers)

    /// The error field of member `key`: its path from the document's root.
    @inline(__always)
    @inlinable
    func field(_ key: StaticString) -> String { field(key.bytes) }

    /// The member `key`, `nil` when missing or `null`.
    @inline(__always)
    @inlinable
    public func value(_ key: StaticString) -> R.Node? { value(key.bytes) }

    /// Whether member `key` is there and not `null`.
    @inline(__always)
    @inlinable
    public func isPresent(_ key: StaticString) -> Bool { value(key.bytes) != nil }

    /// The string member `key`.
    /// - Throws: `validation` when missing or `null`, `invalid_json` when not a string.
    @inline(__always)
    @inlinable
    public func string(_ key: StaticString) throws(PayHandoffError) -> String { try string(key.bytes) }

    /// The string member `key`, or `nil` when missing or `null`.
    /// - Throws: `invalid_json` when not a string.
    @inline(__always)
    @inlinable
    public func optionalString(_ key: StaticString) throws(PayHandoffError) -> String? { try optionalString(key.bytes) }

    /// The integer member `key`.
    /// - Throws: `validation` when missing or `null`, `invalid_json` when not an integer.
    @inline(__always)
    @inlinable
    public func integer(_ key: StaticString) throws(PayHandoffError) -> Int64 { try integer(key.bytes) }

    /// The integer member `key`, or `nil` when missing or `null`.
    /// - Throws: `invalid_json` when not an integer.
    @inline(__always)
    @inlinable
    public func optionalInteger(_ key: StaticString) throws(PayHandoffError) -> Int64? { try optionalInteger(key.bytes) }

    /// The boolean member `key`, or `nil` when missing or `null`.
    /// - Throws: `invalid_json` when not a boolean.
    @inline(__always)
    @inlinable
    public func optionalBool(_ key: StaticString) throws(PayHandoffError) -> Bool? { try optionalBool(key.bytes) }

    /// The amount member `key` — decimal text (`"100.00"`) or integer minor units — or `nil`
    /// when missing or `null`.
    /// - Throws: `validation` for bad text or range, `invalid_json` for any other JSON type.
    @inline(__always)
    @inlinable
    public func optionalAmount(_ key: StaticString) throws(PayHandoffError) -> Amount? { try optionalAmount(key.bytes) }

    /// The object member `key`, `nil` when missing or `null`.
    /// - Throws: `invalid_json` when not an object.
    @inline(__always)
    @inlinable
    public func optionalObject(_ key: StaticString) throws(PayHandoffError) -> JSONMembers? { try optionalObject(key.bytes) }

    /// The object member `key`.
    /// - Throws: `validation` when missing or `null`, `invalid_json` when not an object.
    @inline(__always)
    @inlinable
    public func object(_ key: StaticString) throws(PayHandoffError) -> JSONMembers { try object(key.bytes) }

    /// The array member `key`, `nil` when missing or `null`.
    /// - Throws: `invalid_json` when not an array.
    @inline(__always)
    @inlinable
    public func optionalArray(_ key: StaticString) throws(PayHandoffError) -> R.Node? { try optionalArray(key.bytes) }

    /// Whatever member `key` is, as an object to look into: a missing member or one that is not
    /// an object has no members (the path readers' `"a.b"`: a step that is not an object finds nothing).
    @inline(__always)
    @inlinable
    public func nested(_ key: StaticString) -> JSONMembers { nested(key.bytes) }

    // MARK: By the key's bytes (one copy of each rule)

    /// The error field of member `key`: its path from the document's root.
    @inline(never)
    @inlinable
    func field(_ key: UnsafeRawBufferPointer) -> String {
        JSONValue.join(path, String(decoding: key, as: UTF8.self))
    }

    /// The member `key` as it is (`null` included), `nil` when missing.
    @inline(never)
    @inlinable
    func member(_ key: UnsafeRawBufferPointer) -> R.Node? {
        guard let node, reader.kind(of: node) == .object else { return nil }
        return reader.member(key, of: node)
    }

    /// The member `key`, `nil` when missing or `null`.
    @inline(never)
    @inlinable
    func value(_ key: UnsafeRawBufferPointer) -> R.Node? {
        guard let member = member(key), reader.kind(of: member) != .null else { return nil }
        return member
    }

    /// The member `key` when it has `kind`, `nil` when missing or `null`.
    @inline(never)
    @inlinable
    func typed(_ key: UnsafeRawBufferPointer, _ kind: JSONKind, expected: StaticString) throws(PayHandoffError) -> R.Node? {
        guard let member = value(key) else { return nil }
        let found = reader.kind(of: member)
        guard found == kind else { throw JSONMembers.wrongType(field(key), expected: expected.text, found: found) }
        return member
    }

    @inline(never)
    @inlinable
    func string(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> String {
        guard let value = try optionalString(key) else { throw JSONValue.missing(field(key)) }
        return value
    }

    @inline(never)
    @inlinable
    func optionalString(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> String? {
        guard let member = try typed(key, .string, expected: "a string") else { return nil }
        return reader.string(member)
    }

    @inline(never)
    @inlinable
    func integer(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> Int64 {
        guard let value = try optionalInteger(key) else { throw JSONValue.missing(field(key)) }
        return value
    }

    @inline(never)
    @inlinable
    func optionalInteger(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> Int64? {
        guard let member = try typed(key, .integer, expected: "an integer") else { return nil }
        return reader.integer(member)
    }

    @inline(never)
    @inlinable
    func optionalBool(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> Bool? {
        guard let member = try typed(key, .bool, expected: "a boolean") else { return nil }
        return reader.bool(member)
    }

    @inline(never)
    @inlinable
    func optionalAmount(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> Amount? {
        guard let member = value(key) else { return nil }
        switch reader.kind(of: member) {
        case .string: return try Amount(parsing: reader.string(member), field: field(key))
        case .integer: return try Amount(minorUnits: reader.integer(member), field: field(key))
        case let other:
            throw JSONMembers.wrongType(field(key), expected: "decimal text (\"100.00\") or integer minor units", found: other)
        }
    }

    @inline(never)
    @inlinable
    func optionalObject(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> JSONMembers? {
        guard let member = try typed(key, .object, expected: "an object") else { return nil }
        return JSONMembers(member, reader, path: field(key))
    }

    @inline(never)
    @inlinable
    func object(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> JSONMembers {
        guard let object = try optionalObject(key) else { throw JSONValue.missing(field(key)) }
        return object
    }

    @inline(never)
    @inlinable
    func optionalArray(_ key: UnsafeRawBufferPointer) throws(PayHandoffError) -> R.Node? {
        try typed(key, .array, expected: "an array")
    }

    @inline(never)
    @inlinable
    func nested(_ key: UnsafeRawBufferPointer) -> JSONMembers {
        JSONMembers(value(key), reader, path: field(key))
    }

    // MARK: The object as a whole

    /// Refuses members whose keys are not in `allowed`, so that a misspelt optional member is an
    /// error instead of being silently ignored. Nothing to refuse when the object is missing or `null`.
    /// - Parameter allowed: The keys the reader understands, separated by single spaces.
    /// - Throws: `validation` naming the first unknown member; `invalid_json` when this is not an object.
    @inline(__always)
    @inlinable
    public func rejectUnknownKeys(_ allowed: StaticString) throws(PayHandoffError) {
        try rejectUnknownKeys(allowed.bytes)
    }

    /// ``rejectUnknownKeys(_:)-(StaticString)`` with the keys' UTF-8, separated by single spaces.
    @inline(never)
    @inlinable
    func rejectUnknownKeys(_ allowed: UnsafeRawBufferPointer) throws(PayHandoffError) {
        guard let node else { return }
        let kind = reader.kind(of: node)
        guard kind != .null else { return }
        guard kind == .object else {
            throw JSONMembers.wrongType(path.isEmpty ? nil : path, expected: "an object", found: kind)
        }
        // Each search starts after the previous match: documents mostly list their keys in the
        // reader's order, so a key is usually found at the first try.
        var start = 0
        try reader.forEach(in: node) { member throws(PayHandoffError) in
            var found: Int? = nil
            JSONMembers.forEachWord(in: allowed, from: start) { key, next in
                if reader.key(of: member, is: key) { found = next }
                return found == nil
            }
            guard let found else {
                throw PayHandoffError(.validation, field: JSONValue.join(path, reader.key(of: member)), "unknown field")
            }
            start = found
        }
    }

    /// The first of `keys` (separated by single spaces) that is present, in their order.
    /// - Parameter keys: The keys.
    /// - Returns: The key, or `nil` when none is.
    @inline(never)
    @inlinable
    public func firstPresent(of keys: StaticString) -> String? {
        var present: UnsafeRawBufferPointer? = nil
        JSONMembers.forEachWord(in: keys.bytes, from: 0) { key, _ in
            if value(key) != nil { present = key }
            return present == nil
        }
        return present.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with each word of a list of words separated by single spaces (the keys a
    /// document may have: one literal, where an array of them would be a table of pointers the
    /// dynamic linker relocates at load time), from the word that starts at `first` round to the
    /// one before it.
    /// - Parameters:
    ///   - list: The words.
    ///   - first: Where a word starts (0, or what `body` was given with an earlier word).
    ///   - body: Called with each word and where the word after it starts; returns `false` to stop.
    @inlinable
    static func forEachWord(in list: UnsafeRawBufferPointer, from first: Int, _ body: (UnsafeRawBufferPointer, Int) -> Bool) {
        var start = first
        var seen = 0
        while seen < list.count {
            var end = start
            while end < list.count, list[end] != UInt8(ascii: " ") { end += 1 }
            seen += end - start + 1
            let next = end + 1 < list.count ? end + 1 : 0
            guard body(UnsafeRawBufferPointer(rebasing: list[start..<end]), next) else { return }
            start = next
        }
    }

    /// The error for a value of the wrong JSON type.
    @inlinable
    static func wrongType(_ field: String?, expected: String, found: JSONKind) -> PayHandoffError {
        PayHandoffError(.invalidJSON, field: field.flatMap { $0.isEmpty ? nil : $0 }, "must be " + expected + ", found " + found.name)
    }
}
