/// ``JSONReader`` over a ``JSONValue``: the Swift API's door (`init(json:)`) runs the same
/// readers as the C ABI.
@_spi(JSONText)
public struct JSONValueReader: JSONReader {
    /// A value, with its key when it is a member of an object.
    public struct Node {
        /// The value.
        public var value: JSONValue
        /// Its key, when it is a member.
        public var key: String

        /// A document (or any value that is not a member).
        /// - Parameter value: The value.
        public init(_ value: JSONValue) {
            self.value = value
            self.key = ""
        }

        init(_ value: JSONValue, key: String) {
            self.value = value
            self.key = key
        }
    }

    /// The reader (it holds nothing: each node carries its value).
    public init() {}

    public func kind(of node: Node) -> JSONKind {
        switch node.value {
        case .null: return .null
        case .bool: return .bool
        case .integer: return .integer
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    public func bool(_ node: Node) -> Bool {
        if case .bool(let value) = node.value { return value }
        return false
    }

    public func integer(_ node: Node) -> Int64 {
        if case .integer(let value) = node.value { return value }
        return 0
    }

    public func string(_ node: Node) -> String {
        if case .string(let value) = node.value { return value }
        return ""
    }

    public func member(_ key: UnsafeRawBufferPointer, of object: Node) -> Node? {
        guard case .object(let members) = object.value else { return nil }
        let index = members.index(ofUTF8: key.assumingMemoryBound(to: UInt8.self))
        return index.map { Node(members.members[$0].value, key: members.members[$0].key) }
    }

    public func forEach(in container: Node, _ body: (Node) throws(PayHandoffError) -> Void) throws(PayHandoffError) {
        switch container.value {
        case .array(let elements):
            for element in elements { try body(Node(element)) }
        case .object(let object):
            for member in object.members { try body(Node(member.value, key: member.key)) }
        default:
            break
        }
    }

    public func key(of member: Node) -> String {
        member.key
    }

    public func key(of member: Node, is key: UnsafeRawBufferPointer) -> Bool {
        member.key.hasSameBytes(as: key.assumingMemoryBound(to: UInt8.self))
    }
}

extension JSONMembers where R == JSONValueReader {
    /// The members of the document `json` (the Swift API's door).
    /// - Parameter json: The document.
    init(_ json: JSONValue) {
        self.init(JSONValueReader.Node(json), JSONValueReader())
    }
}

extension JSONValue {
    /// A value read from any ``JSONReader``'s tree: what a document carries as data rather than
    /// as members PayHandoff reads (a payment's extra `fields`, a gateway answer's body).
    /// - Parameters:
    ///   - node: The value.
    ///   - reader: Its tree.
    @_spi(JSONText)
    public init<R: JSONReader>(reading node: R.Node, with reader: R) {
        switch reader.kind(of: node) {
        case .null: self = .null
        case .bool: self = .bool(reader.bool(node))
        case .integer: self = .integer(reader.integer(node))
        case .string: self = .string(reader.string(node))
        case .array:
            var elements: [JSONValue] = []
            try? reader.forEach(in: node) { element in elements.append(JSONValue(reading: element, with: reader)) }
            self = .array(elements)
        case .object:
            var object = JSONObject()
            try? reader.forEach(in: node) { member in
                object.appendNewMember(reader.key(of: member), JSONValue(reading: member, with: reader))
            }
            self = .object(object)
        }
    }
}
