import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

extension JSONText {
    /// The core's ``JSONReader`` over a checked cJSON tree (``read(_:parameter:limit:_:)``): the C
    /// functions read events, requests, options and snapshots from it straight into typed values,
    /// by the core's own readers. Every string of the tree is valid UTF-8 by then, and every
    /// number an integer within ±(2^53 − 1).
    struct TreeReader: JSONReader {
        typealias Node = UnsafeMutablePointer<cJSON>

        /// Whether the text had any `\u0000` (then strings are looked at for ``nulStandIn``).
        let hasStandIns: Bool

        func kind(of node: Node) -> JSONKind {
            switch node.pointee.type & 0xFF {
            case cJSON_False, cJSON_True: return .bool
            case cJSON_Number: return .integer
            case cJSON_String: return .string
            case cJSON_Array: return .array
            case cJSON_Object: return .object
            default: return .null
            }
        }

        func bool(_ node: Node) -> Bool {
            node.pointee.type & 0xFF == cJSON_True
        }

        func integer(_ node: Node) -> Int64 {
            // Checked to be an integer within ±(2^53 − 1): exact, and no trap.
            Int64(node.pointee.valuedouble)
        }

        @inline(never)
        func string(_ node: Node) -> String {
            text(node.pointee.valuestring)
        }

        func member(_ key: UnsafeRawBufferPointer, of object: Node) -> Node? {
            var child = object.pointee.child
            while let member = child {
                if TreeReader.same(member.pointee.string, key) { return member }
                child = member.pointee.next
            }
            return nil
        }

        func forEach(in container: Node, _ body: (Node) throws(PayHandoffError) -> Void) throws(PayHandoffError) {
            var child = container.pointee.child
            while let item = child {
                try body(item)
                child = item.pointee.next
            }
        }

        @inline(never)
        func key(of member: Node) -> String {
            text(member.pointee.string)
        }

        func key(of member: Node, is key: UnsafeRawBufferPointer) -> Bool {
            TreeReader.same(member.pointee.string, key)
        }

        /// Whether the C string `text` is the key `key`. A key with U+0000 holds the stand-in,
        /// which no key the core looks up has: the bytes are the same exactly when the keys are.
        @inline(never)
        static func same(_ text: UnsafeMutablePointer<CChar>?, _ key: UnsafeRawBufferPointer) -> Bool {
            guard let text else { return false }
            let count = key.count
            guard count > 0, let base = key.baseAddress else { return text[0] == 0 }
            let literal = base.assumingMemoryBound(to: CChar.self)
            // Most keys differ in their first byte: no call for them.
            return text[0] == literal[0] && strncmp(text, literal, count) == 0 && text[count] == 0
        }

        /// A string of the tree as a Swift `String`, ``nulStandIn`` as U+0000.
        private func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
            guard let pointer else { return "" }
            if hasStandIns { return TreeReader.text(pointer) }
            return String(cString: pointer)
        }

        /// ``text(_:)`` looking for stand-ins.
        @inline(never)
        static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
            guard let pointer else { return "" }
            let count = strlen(pointer)
            guard memchr(pointer, Int32(nulStandIn), count) != nil else { return String(cString: pointer) }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: count)
            return String(decoding: bytes.map { $0 == nulStandIn ? 0 : $0 }, as: UTF8.self)
        }
    }
}
