/// Something a result document can be written to, member by member: a ``JSONValue``
/// (``JSONValueWriter``, the Swift API) or, in the C ABI, cJSON's tree directly, so that a
/// result the ABI only prints is never built as a `JSONValue` and taken apart again.
///
/// SPI for the C ABI's JSON layer (`@_spi(JSONText) import PayHandoff`); the public API stays
/// `JSONValue`. Used where it pays: ``POSRequest/buildResultJSON`` (36 small objects) and the checkout build result.
///
/// A document is written once: one value at the top (``value(_:)`` or a container), and inside
/// an object each value preceded by its ``key(_:)``. Keys are literals (the core's result
/// documents have fixed keys; cJSON's tree can point at them in place), distinct within an
/// object.
@_spi(JSONText)
public protocol JSONWriter {
    /// Writes an object; `body` writes its members.
    /// - Parameters:
    ///   - count: How many members it will have (a capacity hint).
    ///   - body: Writes the members: ``key(_:)`` then a value, for each.
    mutating func object(count: Int, _ body: (inout Self) -> Void)
    /// Writes an array; `body` writes its elements.
    /// - Parameters:
    ///   - count: How many elements it will have (a capacity hint).
    ///   - body: Writes the elements.
    mutating func array(count: Int, _ body: (inout Self) -> Void)
    /// The key of the next member of the object being written.
    /// - Parameter key: A key not yet used in this object.
    mutating func key(_ key: StaticString)
    /// Writes a value (a scalar, or a whole document already at hand).
    /// - Parameter value: The value.
    mutating func value(_ value: JSONValue)
    /// Writes a string value (``value(_:)`` of `.string(value)`, without the detour).
    /// - Parameter value: The string.
    mutating func string(_ value: String)
}

@_spi(JSONText)
extension JSONWriter {
    /// Writes the member `key`: `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The value.
    public mutating func member(_ key: StaticString, _ value: JSONValue) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key`: the string `value`.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The string.
    public mutating func member(_ key: StaticString, string value: String) {
        self.key(key)
        string(value)
    }

    /// Writes the member `key`: `value` when `value` is not `nil`; keeps optional fields out.
    /// - Parameters:
    ///   - key: A key not yet used in this object.
    ///   - value: The value, or `nil` to write nothing.
    public mutating func member(_ key: StaticString, ifPresent value: JSONValue?) {
        if let value { member(key, value) }
    }
}

/// Writes a document as a ``JSONValue``.
@_spi(JSONText)
public struct JSONValueWriter: JSONWriter {
    private enum Container { case top, object, array }
    private let container: Container
    private var object = JSONObject()
    private var elements: [JSONValue] = []
    private var pendingKey: StaticString = ""
    /// The document written (`null` until something is).
    public private(set) var document: JSONValue = .null

    /// A writer for one document.
    public init() {
        container = .top
    }

    private init(_ container: Container, count: Int) {
        self.container = container
        switch container {
        case .object: object.reserveCapacity(count)
        case .array: elements.reserveCapacity(count)
        case .top: break
        }
    }

    public mutating func object(count: Int, _ body: (inout JSONValueWriter) -> Void) {
        var inner = JSONValueWriter(.object, count: count)
        body(&inner)
        value(.object(inner.object))
    }

    public mutating func array(count: Int, _ body: (inout JSONValueWriter) -> Void) {
        var inner = JSONValueWriter(.array, count: count)
        body(&inner)
        value(.array(inner.elements))
    }

    public mutating func key(_ key: StaticString) {
        pendingKey = key
    }

    public mutating func string(_ value: String) {
        self.value(.string(value))
    }

    public mutating func value(_ value: JSONValue) {
        switch container {
        case .top: document = value
        case .object: object.appendNewMember(pendingKey.description, value)
        case .array: elements.append(value)
        }
    }
}
