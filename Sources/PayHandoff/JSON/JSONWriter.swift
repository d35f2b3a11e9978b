/// Something a document can be written to, one token at a time: a ``JSONValue``
/// (``JSONValueWriter``, the Swift API), the length it prints to (``JSONLengthCounter``, the
/// snapshot's budget) or, in the C ABI, cJSON's tree directly, so that an answer or a snapshot
/// the ABI only prints is never built as a `JSONValue` and taken apart again. Every document the
/// core writes (answers, effects, flows, snapshots, results, errors) is written once, by a
/// `write(to:)` generic over the writer; `.json` is that method with a ``JSONValueWriter``.
///
/// SPI for the C ABI's JSON layer (`@_spi(JSONText) import PayHandoff`); the public API stays
/// `JSONValue`.
///
/// A document is written once, as a stream: one value at the top (a scalar, or a container
/// opened with ``beginObject()``/``beginArray()`` and closed with ``end()``), and inside an
/// object each value preceded by its ``key(_:)-(StaticString)``. Keys are literals where the
/// document's keys are fixed (cJSON's tree can point at them in place), distinct within an
/// object. (No closures: a writer method is one call at each place a document is written.)
@_spi(JSONText)
public protocol JSONWriter {
    /// Opens an object: its members follow, each a ``key(_:)-(StaticString)`` then a value, up to ``end()``.
    mutating func beginObject()
    /// Opens an array: its elements follow, up to ``end()``.
    mutating func beginArray()
    /// Closes the object or array opened last.
    mutating func end()
    /// The key of the next member of the object being written.
    /// - Parameter key: A key not yet used in this object.
    mutating func key(_ key: StaticString)
    /// The key of the next member, when it is not a literal (unknown parameters kept aside, a
    /// confirmation's timestamps).
    /// - Parameter key: A key not yet used in this object.
    mutating func key(_ key: String)
    /// Writes a value (a whole document already at hand: a request's body).
    /// - Parameter value: The value.
    mutating func value(_ value: JSONValue)
    /// Writes a string value.
    /// - Parameter value: The string.
    mutating func string(_ value: String)
    /// Writes a string value from its UTF-8 (valid UTF-8, as every string the core keeps), without
    /// making a `String` of it first (the fields of an answer, still in the URL they came in).
    /// - Parameter bytes: The string's UTF-8.
    mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>)
    /// Writes an integer value.
    /// - Parameter value: The integer.
    mutating func integer(_ value: Int64)
    /// Writes `true` or `false`.
    /// - Parameter value: The boolean.
    mutating func bool(_ value: Bool)
    /// Writes `null`.
    mutating func null()
}

// One copy of each helper per writer (they are called from every document).
@_spi(JSONText)
extension JSONWriter {
    /// Writes the member `key`: `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The value.
    @inline(never)
    public mutating func member(_ key: StaticString, _ value: JSONValue) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key`: the string `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The string.
    @inline(never)
    public mutating func member(_ key: StaticString, string value: String) {
        self.key(key)
        string(value)
    }

    /// Writes the member `key`: the integer `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The integer.
    @inline(never)
    public mutating func member(_ key: StaticString, integer value: Int64) {
        self.key(key)
        integer(value)
    }

    /// Writes the member `key`: the boolean `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The boolean.
    @inline(never)
    public mutating func member(_ key: StaticString, bool value: Bool) {
        self.key(key)
        bool(value)
    }

    /// Writes the member `key`: the string `value` when it is not `nil`; keeps optional fields out.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The string, or `nil` to write nothing.
    @inline(never)
    public mutating func optionalMember(_ key: StaticString, string value: String?) {
        if let value { member(key, string: value) }
    }

    /// Writes the member `key`: the integer `value` when it is not `nil`; keeps optional fields out.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The integer, or `nil` to write nothing.
    @inline(never)
    public mutating func optionalMember(_ key: StaticString, integer value: Int64?) {
        if let value { member(key, integer: value) }
    }

    /// Opens the member `key`: an object.
    /// - Parameter key: A key not yet used in this object.
    @inline(never)
    public mutating func beginObject(_ key: StaticString) {
        self.key(key)
        beginObject()
    }

    /// Opens the member `key`: an array.
    /// - Parameter key: A key not yet used in this object.
    @inline(never)
    public mutating func beginArray(_ key: StaticString) {
        self.key(key)
        beginArray()
    }

    /// Writes the member `key`: the array of the strings `values`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - values: The strings.
    @inline(never)
    public mutating func member(_ key: StaticString, strings values: [String]) {
        beginArray(key)
        for value in values { string(value) }
        end()
    }
}

/// Writes a document as a ``JSONValue``.
@_spi(JSONText)
public struct JSONValueWriter: JSONWriter {
    /// A container being written, and the key of its next member.
    private enum Open {
        case object(JSONObject, key: String)
        case array([JSONValue])
    }

    /// The containers opened and not yet closed, innermost last.
    private var open: [Open] = []
    /// The document written (`null` until something is).
    public private(set) var document: JSONValue = .null

    /// A writer for one document.
    public init() {}

    /// The document `write` writes.
    /// - Parameter write: Writes one document.
    /// - Returns: The document.
    public static func document(_ write: (inout JSONValueWriter) -> Void) -> JSONValue {
        var writer = JSONValueWriter()
        write(&writer)
        return writer.document
    }

    public mutating func beginObject() {
        open.append(.object(JSONObject(), key: ""))
    }

    public mutating func beginArray() {
        open.append(.array([]))
    }

    public mutating func end() {
        switch open.removeLast() {
        case .object(let object, _): value(.object(object))
        case .array(let elements): value(.array(elements))
        }
    }

    public mutating func key(_ key: StaticString) {
        self.key(key.text)
    }

    public mutating func key(_ key: String) {
        guard case .object(let object, _)? = open.last else { return }
        open[open.count - 1] = .object(object, key: key)
    }

    public mutating func string(_ value: String) {
        self.value(.string(value))
    }

    public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        self.value(.string(String(decoding: bytes, as: UTF8.self)))
    }

    public mutating func integer(_ value: Int64) {
        self.value(.integer(value))
    }

    public mutating func bool(_ value: Bool) {
        self.value(.bool(value))
    }

    public mutating func null() {
        value(.null)
    }

    public mutating func value(_ value: JSONValue) {
        switch open.popLast() {
        case nil:
            document = value
        case .object(var object, let key)?:
            object.appendNewMember(key, value)
            open.append(.object(object, key: ""))
        case .array(var elements)?:
            elements.append(value)
            open.append(.array(elements))
        }
    }
}

/// Counts the bytes a document prints to (cJSON's compact output, what the C ABI prints)
/// without writing it: ``JSONValue/printedLengthBound`` of the document, for the snapshot's
/// budget (a flow's reservation is its document's printed length now, plus room).
@_spi(JSONText)
public struct JSONLengthCounter: JSONWriter {
    /// The bytes counted so far.
    public private(set) var length = 0
    /// One bit per open container, innermost lowest: whether it has a member or element yet
    /// (a comma before the next). The core's documents nest a few levels deep (a whole value,
    /// however deep, is counted by ``value(_:)``), far from the 64 this holds.
    private var hasItem: UInt64 = 0

    /// A counter at zero.
    public init() {}

    /// The printed length of the document `write` writes.
    /// - Parameter write: Writes one document.
    /// - Returns: Its printed length, in bytes.
    public static func length(_ write: (inout JSONLengthCounter) -> Void) -> Int {
        var counter = JSONLengthCounter()
        write(&counter)
        return counter.length
    }

    @inline(never)
    public mutating func beginObject() {
        item(2)  // the braces
        hasItem <<= 1
    }

    @inline(never)
    public mutating func beginArray() {
        item(2)  // the brackets
        hasItem <<= 1
    }

    @inline(never)
    public mutating func end() {
        hasItem >>= 1
    }

    @inline(never)
    public mutating func key(_ key: StaticString) {
        // The key's quotes and colon; literal keys print as themselves.
        length += key.utf8CodeUnitCount + 3
    }

    @inline(never)
    public mutating func key(_ key: String) {
        length += JSONValue.printedLength(of: key) + 1
    }

    @inline(never)
    public mutating func string(_ value: String) {
        item(JSONValue.printedLength(of: value))
    }

    @inline(never)
    public mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        item(JSONValue.printedLength(ofUTF8: bytes))
    }

    @inline(never)
    public mutating func integer(_ value: Int64) {
        item(JSONValue.digits(value))
    }

    @inline(never)
    public mutating func bool(_ value: Bool) {
        item(value ? 4 : 5)
    }

    @inline(never)
    public mutating func null() {
        item(4)
    }

    @inline(never)
    public mutating func value(_ value: JSONValue) {
        item(value.printedLengthBound)
    }

    /// A value of `count` bytes, after a comma when it is not its container's first.
    private mutating func item(_ count: Int) {
        length += count + Int(hasItem & 1)
        hasItem |= 1
    }
}
