/// What the core's document readers read through: a JSON tree they can look into without it
/// being turned into ``JSONValue`` first. The C ABI implements it over cJSON's tree (the text is
/// parsed once, and every event, request, option and snapshot is read from that tree straight
/// into its typed value); ``JSONValueReader`` implements it over a ``JSONValue`` for the Swift
/// API (`init(json:)`). So every decoding rule is written once, in the core, and both doors run it.
///
/// The readers are generic over it and specialized for each conformance (no existentials: the
/// Embedded library has one copy of each reader, for cJSON).
///
/// A reader hands out what its tree holds as it is: the text layer has already checked what the
/// rules of JSON text are (UTF-8, duplicate keys, integers, depth) before any document is read.
///
/// SPI for the C ABI's JSON layer (`@_spi(JSONText) import PayHandoff`).
@_spi(JSONText)
public protocol JSONReader {
    /// A value of the tree: the document, an element of an array, or a member of an object
    /// (which knows its key).
    associatedtype Node

    /// The JSON type of `node`.
    /// - Parameter node: A value.
    /// - Returns: Its kind.
    func kind(of node: Node) -> JSONKind
    /// The boolean `node` holds (its kind is ``JSONKind/bool``).
    /// - Parameter node: A boolean.
    /// - Returns: Its value.
    func bool(_ node: Node) -> Bool
    /// The integer `node` holds (its kind is ``JSONKind/integer``).
    /// - Parameter node: An integer.
    /// - Returns: Its value.
    func integer(_ node: Node) -> Int64
    /// The string `node` holds (its kind is ``JSONKind/string``), U+0000 included.
    /// - Parameter node: A string.
    /// - Returns: Its text.
    func string(_ node: Node) -> String
    /// The member of the object `object` whose key is `key`, if any.
    /// - Parameters:
    ///   - key: The key's UTF-8 (keys are compared by their bytes).
    ///   - object: An object.
    /// - Returns: The member, or `nil`.
    func member(_ key: UnsafeRawBufferPointer, of object: Node) -> Node?
    /// Calls `body` with each element of an array or member of an object, in document order.
    /// - Parameters:
    ///   - container: An array or an object.
    ///   - body: Called once per element or member.
    /// - Throws: What `body` throws (and stops there).
    func forEach(in container: Node, _ body: (Node) throws(PayHandoffError) -> Void) throws(PayHandoffError)
    /// The key of a member of an object.
    /// - Parameter member: A node ``forEach(in:_:)`` handed out for an object.
    /// - Returns: Its key.
    func key(of member: Node) -> String
    /// Whether the key of a member of an object is `key`, byte for byte.
    /// - Parameters:
    ///   - member: A node ``forEach(in:_:)`` handed out for an object.
    ///   - key: The UTF-8 to compare with.
    /// - Returns: `true` when they are the same bytes.
    func key(of member: Node, is key: UnsafeRawBufferPointer) -> Bool
}

/// The JSON types a ``JSONReader`` tells apart.
@_spi(JSONText)
public enum JSONKind: Equatable, Sendable {
    case null, bool, integer, string, array, object

    /// The JSON type name used in error messages (`"string"`, `"object"`, …).
    public var name: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONReader {
    /// Whether the key of a member of an object is the literal `key`.
    /// - Parameters:
    ///   - member: A node ``forEach(in:_:)`` handed out for an object.
    ///   - key: The key to compare with.
    /// - Returns: `true` when they are the same bytes.
    func key(of member: Node, is key: StaticString) -> Bool {
        self.key(of: member, is: key.bytes)
    }
}

extension StaticString {
    /// The literal's UTF-8.
    @inlinable
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount)
    }

    /// The literal as a `String` (an error's field).
    @usableFromInline
    var text: String {
        @inline(never) get {
            withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        }
    }
}
