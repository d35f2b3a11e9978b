/// Where a document is written, one token at a time: a ``JSONValue``
/// (``JSONValueWriter``, the Swift API), the length it prints to (``JSONLengthCounter``, the
/// snapshot's budget) or, in the C ABI, cJSON's tree directly, so that an answer or a snapshot
/// the ABI only prints is never built as a `JSONValue` and taken apart again. Every document the
/// core writes (answers, effects, flows, snapshots, results, errors) is written once, by a
/// `write(to:)`; `.json` is that method with a ``JSONValueWriter``.
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
open class JSONWriter {
    // One class, not a protocol the documents are generic over: each `write(to:)` is then one
    // function, not one copy per writer (cJSON's tree, the budget's count, a JSONValue), and
    // each token is one call through the class's table.

    /// A writer (this class writes nothing; its subclasses write somewhere).
    public init() {}

    /// Opens an object: its members follow, each a ``key(_:)-(StaticString)`` then a value, up to ``end()``.
    open func beginObject() {}
    /// Opens an array: its elements follow, up to ``end()``.
    open func beginArray() {}
    /// Closes the object or array opened last.
    open func end() {}
    /// The key of the next member of the object being written.
    /// - Parameter key: A key not yet used in this object.
    open func key(_ key: StaticString) {}
    /// The key of the next member, when it is not a literal (unknown parameters kept aside, a
    /// confirmation's timestamps).
    /// - Parameter key: A key not yet used in this object.
    open func key(_ key: String) {}
    /// Writes a value (a whole document already at hand: a request's body).
    /// - Parameter value: The value.
    open func value(_ value: JSONValue) {}
    /// Writes a string value.
    /// - Parameter value: The string.
    open func string(_ value: String) {}
    /// Writes a string value from its UTF-8 (valid UTF-8, as every string the core keeps), without
    /// making a `String` of it first (the fields of an answer, still in the URL they came in).
    /// - Parameter bytes: The string's UTF-8.
    open func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {}
    /// Writes an integer value.
    /// - Parameter value: The integer.
    open func integer(_ value: Int64) {}
    /// Writes `true` or `false`.
    /// - Parameter value: The boolean.
    open func bool(_ value: Bool) {}
    /// Writes `null`.
    open func null() {}

    /// Writes the member `key`: `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The value.
    public final func member(_ key: StaticString, _ value: JSONValue) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key`: the string `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The string.
    public final func member(_ key: StaticString, string value: String) {
        self.key(key)
        string(value)
    }

    /// Writes the member `key`: the integer `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The integer.
    public final func member(_ key: StaticString, integer value: Int64) {
        self.key(key)
        integer(value)
    }

    /// Writes the member `key`: the boolean `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The boolean.
    public final func member(_ key: StaticString, bool value: Bool) {
        self.key(key)
        bool(value)
    }

    /// Writes the member `key`: the string `value` when it is not `nil`; keeps optional fields out.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The string, or `nil` to write nothing.
    public final func optionalMember(_ key: StaticString, string value: String?) {
        if let value { member(key, string: value) }
    }

    /// Writes the member `key`: the integer `value` when it is not `nil`; keeps optional fields out.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The integer, or `nil` to write nothing.
    public final func optionalMember(_ key: StaticString, integer value: Int64?) {
        if let value { member(key, integer: value) }
    }

    /// Opens the member `key`: an object.
    /// - Parameter key: A key not yet used in this object.
    public final func beginObject(_ key: StaticString) {
        self.key(key)
        beginObject()
    }

    /// Opens the member `key`: an array.
    /// - Parameter key: A key not yet used in this object.
    public final func beginArray(_ key: StaticString) {
        self.key(key)
        beginArray()
    }

    /// Writes the member `key`: the array of the strings `values`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - values: The strings.
    public final func member(_ key: StaticString, strings values: [String]) {
        beginArray(key)
        for value in values { string(value) }
        end()
    }
}

/// Writes a document as a ``JSONValue``.
@_spi(JSONText)
public final class JSONValueWriter: JSONWriter {
    /// A container being written, and the key of its next member.
    private enum Open {
        case object(JSONObject, key: String)
        case array([JSONValue])
    }

    /// The containers opened and not yet closed, innermost last.
    private var containers: [Open] = []
    /// The document written (`null` until something is).
    public private(set) var document: JSONValue = .null

    /// A writer for one document.
    public override init() {}

    /// The document `write` writes.
    /// - Parameter write: Writes one document.
    /// - Returns: The document.
    public static func document(_ write: (JSONValueWriter) -> Void) -> JSONValue {
        let writer = JSONValueWriter()
        write(writer)
        return writer.document
    }

    public override func beginObject() {
        containers.append(.object(JSONObject(), key: ""))
    }

    public override func beginArray() {
        containers.append(.array([]))
    }

    public override func end() {
        switch containers.removeLast() {
        case .object(let object, _): value(.object(object))
        case .array(let elements): value(.array(elements))
        }
    }

    public override func key(_ key: StaticString) {
        self.key(key.text)
    }

    public override func key(_ key: String) {
        guard case .object(let object, _)? = containers.last else { return }
        containers[containers.count - 1] = .object(object, key: key)
    }

    public override func string(_ value: String) {
        self.value(.string(value))
    }

    public override func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        self.value(.string(String(decoding: bytes, as: UTF8.self)))
    }

    public override func integer(_ value: Int64) {
        self.value(.integer(value))
    }

    public override func bool(_ value: Bool) {
        self.value(.bool(value))
    }

    public override func null() {
        value(.null)
    }

    public override func value(_ value: JSONValue) {
        switch containers.popLast() {
        case nil:
            document = value
        case .object(var object, let key)?:
            object.appendNewMember(key, value)
            containers.append(.object(object, key: ""))
        case .array(var elements)?:
            elements.append(value)
            containers.append(.array(elements))
        }
    }
}

/// Counts the bytes a document prints to (cJSON's compact output, what the C ABI prints)
/// without writing it: ``JSONValue/printedLengthBound`` of the document, for the snapshot's
/// budget (a flow's reservation is its document's printed length now, plus room).
@_spi(JSONText)
public final class JSONLengthCounter: JSONWriter {
    /// The bytes counted so far.
    public private(set) var length = 0
    /// One bit per open container, innermost lowest: whether it has a member or element yet
    /// (a comma before the next). The core's documents nest a few levels deep (a whole value,
    /// however deep, is counted by ``value(_:)``), far from the 64 this holds.
    private var hasItem: UInt64 = 0

    /// A counter at zero.
    public override init() {}

    /// The printed length of the document `write` writes.
    /// - Parameter write: Writes one document.
    /// - Returns: Its printed length, in bytes.
    public static func length(_ write: (JSONLengthCounter) -> Void) -> Int {
        let counter = JSONLengthCounter()
        write(counter)
        return counter.length
    }

    @inline(never)
    public override func beginObject() {
        item(2)  // the braces
        hasItem <<= 1
    }

    @inline(never)
    public override func beginArray() {
        item(2)  // the brackets
        hasItem <<= 1
    }

    @inline(never)
    public override func end() {
        hasItem >>= 1
    }

    @inline(never)
    public override func key(_ key: StaticString) {
        // The key's quotes and colon; literal keys print as themselves.
        length += key.utf8CodeUnitCount + 3
    }

    @inline(never)
    public override func key(_ key: String) {
        length += JSONValue.printedLength(of: key) + 1
    }

    @inline(never)
    public override func string(_ value: String) {
        item(JSONValue.printedLength(of: value))
    }

    @inline(never)
    public override func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        item(JSONValue.printedLength(ofUTF8: bytes))
    }

    @inline(never)
    public override func integer(_ value: Int64) {
        item(JSONValue.digits(value))
    }

    @inline(never)
    public override func bool(_ value: Bool) {
        item(value ? 4 : 5)
    }

    @inline(never)
    public override func null() {
        item(4)
    }

    @inline(never)
    public override func value(_ value: JSONValue) {
        item(value.printedLengthBound)
    }

    /// A value of `count` bytes, after a comma when it is not its container's first.
    private func item(_ count: Int) {
        length += count + Int(hasItem & 1)
        hasItem |= 1
    }
}
