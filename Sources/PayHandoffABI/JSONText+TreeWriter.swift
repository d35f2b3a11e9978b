import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

/// Writing: a document, or a result the core writes directly, into a cJSON tree laid out in a
/// few blocks, printed by cJSON into the `malloc`'d answer the caller frees.
extension JSONText {
    /// Prints `value` compactly into memory from `malloc`, which the caller releases with
    /// `payhandoff_string_free` (that is, `free`). (The CLI's door; the C functions write their
    /// documents straight into the tree with ``print(writing:)``.)
    ///
    /// cJSON prints; what is ours is the tree it prints and the buffer it prints into. The tree
    /// is laid out in a few large blocks (nodes, and every key, string value and integer text
    /// NUL-terminated) instead of three `malloc`s per item that `cJSON_Delete` would free one
    /// by one. Laying it out gives the exact length of the text, so `cJSON_PrintPreallocated`
    /// writes straight into the `malloc`'d answer: no realloc chain, no copy.
    /// - Parameter value: The document.
    /// - Returns: The NUL-terminated text, or `nil` when memory ran out.
    static func print(_ value: JSONValue) -> UnsafeMutablePointer<CChar>? {
        print { $0.value(value) }
    }

    /// Prints the document `write` writes, as ``print(_:)`` does a `JSONValue`: the documents
    /// of the C functions (answers, snapshots, results, errors) go straight from the core into
    /// cJSON's tree.
    /// - Parameter write: Writes one document.
    /// - Returns: The NUL-terminated text, or `nil` when memory ran out.
    static func print(writing write: (TreeWriter) -> Void) -> UnsafeMutablePointer<CChar>? {
        let tree = TreeWriter()
        defer { tree.free() }
        write(tree)
        guard !tree.failed, let root = tree.root else { return nil }
        // Each stand-in prints as one byte and becomes the six of \u0000 afterwards; cJSON wants
        // a little room past the NUL for its last write (its documentation says 5 bytes).
        let capacity = tree.printedLength + 5 * tree.standIns + 8
        guard capacity <= Int(Int32.max), let output = malloc(capacity) else { return nil }
        let text = output.assumingMemoryBound(to: CChar.self)
        guard cJSON_PrintPreallocated(root, text, Int32(capacity), 0) != 0 else {
            // Only if the length above were wrong: print the same tree the ordinary way.
            free(output)
            guard let printed = cJSON_PrintUnformatted(root) else { return nil }
            defer { cJSON_free(printed) }
            let length = strlen(printed)
            guard let copy = malloc(length + 5 * tree.standIns + 1) else { return nil }
            memcpy(copy, printed, length + 1)
            expandStandIns(copy.assumingMemoryBound(to: UInt8.self), length: length, standIns: tree.standIns)
            return copy.assumingMemoryBound(to: CChar.self)
        }
        assert(strlen(text) == tree.printedLength, "JSONText.print: the counted length is not what cJSON printed")
        if tree.standIns > 0 {
            expandStandIns(output.assumingMemoryBound(to: UInt8.self), length: strlen(text), standIns: tree.standIns)
        }
        return text
    }

    /// Turns each ``nulStandIn`` of the NUL-terminated `length` bytes at `text` into `\u0000`,
    /// in place, from the end; `text` has room for `length + 5 * standIns + 1` bytes. A stand-in
    /// is only ever inside a string (valid UTF-8 has no 0xFF).
    private static func expandStandIns(_ text: UnsafeMutablePointer<UInt8>, length: Int, standIns: Int) {
        guard standIns > 0 else { return }
        var read = length
        var write = length + 5 * standIns
        text[write] = 0
        while read > 0 {
            read -= 1
            let byte = text[read]
            if byte == nulStandIn {
                write -= 6
                text[write] = UInt8(ascii: "\\")
                text[write + 1] = UInt8(ascii: "u")
                for offset in 2..<6 { text[write + offset] = UInt8(ascii: "0") }
            } else {
                write -= 1
                text[write] = byte
            }
        }
    }

    /// Copies `count` bytes from `source` to `target`, eight at a time where it can, and tells
    /// whether cJSON escapes any of them (`"`, `\\`, or a control character below 0x20 — U+0000
    /// included); only then does a string need a byte-by-byte look.
    private static func copyFindingEscapes(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer,
                                           count: Int) -> Bool {
        var found: UInt64 = 0
        if count >= 8 {
            var index = 0
            while index < count - 8 {
                let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                target.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
                found |= escapedBytes(word)
                index += 8
            }
            // The last word may overlap the one before it.
            let word = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: word, toByteOffset: count - 8, as: UInt64.self)
            found |= escapedBytes(word)
        } else if count >= 4 {
            let first = source.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: first, toByteOffset: 0, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
            found = escapedBytes(UInt64(first) | UInt64(last) << 32)
        } else {
            for index in 0..<count {
                let byte = source.load(fromByteOffset: index, as: UInt8.self)
                target.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                found |= escapedBytes(UInt64(byte) | 0x4141_4141_4141_4100)  // padded with "A"s
            }
        }
        return found != 0
    }

    /// The high bit of each byte of `word` that is below 0x20, `"` or `\\`, and maybe of
    /// bytes after such a byte (only whether it is zero matters). Per byte, the high bit of
    /// `(x - n) & ~x` is set for some byte when some byte of x is below n (n ≤ 0x80), and never
    /// when none is; n = 1 finds a zero byte, here of `word` XOR the character.
    @inline(__always)
    private static func escapedBytes(_ word: UInt64) -> UInt64 {
        ByteScan.bytesBelow(word, 0x20) | ByteScan.bytesEqual(word, UInt8(ascii: "\"")) | ByteScan.bytesEqual(word, UInt8(ascii: "\\"))
    }

    /// Lays out the cJSON tree of a document in blocks from `malloc` and counts the length of
    /// the text cJSON will print for it (compact: no whitespace). ``free()`` releases every block.
    /// As a ``JSONWriter`` it takes a document member by member; ``item(_:)`` lays out a whole
    /// `JSONValue`.
    final class TreeWriter: JSONWriter {
        /// The block being filled; its first word points to the previous block (a chain to free).
        private var block: UnsafeMutableRawPointer? = nil
        private var used = 0
        private var capacity = 0
        /// Bytes cJSON prints for the tree, without the NUL.
        private(set) var printedLength = 0
        /// U+0000 characters written as ``nulStandIn``.
        private(set) var standIns = 0
        /// The document's node, once written.
        private(set) var root: UnsafeMutablePointer<cJSON>? = nil
        /// Set when memory ran out: the tree is incomplete.
        private(set) var failed = false
        /// The object or array being written (its last child is its first child's `prev`).
        private var container: UnsafeMutablePointer<cJSON>? = nil
        /// The key of the next member, already laid out.
        private var pendingKey: UnsafeMutablePointer<CChar>? = nil

        /// Under glibc's per-thread cache limit (1032 bytes): blocks come from and go back to it
        /// without a lock, and a request this small never makes malloc consolidate its fast bins
        /// (a 4 KB one did, on every call).
        static let blockSize = 1008
        static let header = MemoryLayout<UnsafeMutableRawPointer?>.stride

        /// Frees every block.
        fileprivate func free() {
            var current = block
            while let chunk = current {
                current = chunk.load(as: UnsafeMutableRawPointer?.self)
                CcJSON.free(chunk)
            }
        }

        /// `count` bytes aligned to `alignment`, from the current block or a new one.
        @inline(__always)
        private func allocate(_ count: Int, alignment: Int) -> UnsafeMutableRawPointer? {
            let offset = (used + alignment - 1) & ~(alignment - 1)
            if let block, offset + count <= capacity {
                used = offset + count
                return block + offset
            }
            return allocateBlock(count)
        }

        /// `count` bytes at the start of a new block.
        private func allocateBlock(_ count: Int) -> UnsafeMutableRawPointer? {
            let size = Swift.max(TreeWriter.blockSize, TreeWriter.header + count)
            guard let chunk = malloc(size) else { return nil }
            chunk.storeBytes(of: block, as: UnsafeMutableRawPointer?.self)
            block = chunk
            capacity = size
            used = TreeWriter.header + count
            return chunk + TreeWriter.header
        }

        // MARK: JSONWriter

        @inline(never)
        override func beginObject() {
            begin(type: cJSON_Object)
        }

        @inline(never)
        override func beginArray() {
            begin(type: cJSON_Array)
        }

        @inline(never)
        override func end() {
            guard let closed = container else { return }
            // The container it is in was kept in its unused `valuestring` (see ``begin(type:)``).
            container = closed.pointee.valuestring.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: cJSON.self) }
            closed.pointee.valuestring = nil
        }

        @inline(never)
        override func key(_ key: StaticString) {
            printedLength += 1  // the colon
            guard key.hasPointerRepresentation else {
                pendingKey = cString(key.description)
                if pendingKey == nil { failed = true }
                return
            }
            // A string literal is NUL-terminated in the binary and outlives the print: the node
            // points at it. Keys are identifiers, which cJSON prints as they are (a key it had to
            // escape would make the count short, and the print fall back to cJSON_PrintUnformatted).
            let bytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            assert(!bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") },
                   "TreeWriter: a literal key cJSON would escape")
            pendingKey = UnsafeMutableRawPointer(mutating: key.utf8Start).assumingMemoryBound(to: CChar.self)
            printedLength += bytes.count + 2  // the key and its quotes
        }

        @inline(never)
        override func key(_ key: String) {
            printedLength += 1  // the colon
            pendingKey = cString(key)  // counts its quotes and escapes
            if pendingKey == nil { failed = true }
        }

        @inline(never)
        override func value(_ value: JSONValue) {
            guard let node = item(value) else {
                failed = true
                return
            }
            attach(node)
        }

        @inline(never)
        override func string(_ value: String) {
            guard let node = node(type: cJSON_String), let copy = cString(value) else {
                failed = true
                return
            }
            node.pointee.valuestring = copy
            attach(node)
        }

        @inline(never)
        override func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
            guard let node = node(type: cJSON_String), let copy = copyString(bytes) else {
                failed = true
                return
            }
            node.pointee.valuestring = copy
            attach(node)
        }

        @inline(never)
        override func integer(_ value: Int64) {
            // As raw text: cJSON prints numbers from a double with 15 significant digits when
            // that looks "close enough", which turns 9007199254740991 into 9.00719925474099e+15.
            guard let node = node(type: cJSON_Raw), let digits = integer(value) else {
                failed = true
                return
            }
            node.pointee.valuestring = digits
            attach(node)
        }

        @inline(never)
        override func bool(_ value: Bool) {
            scalar(type: value ? cJSON_True : cJSON_False, printing: value ? 4 : 5)
        }

        @inline(never)
        override func null() {
            scalar(type: cJSON_NULL, printing: 4)
        }

        private func scalar(type: Int32, printing length: Int) {
            guard let node = node(type: type) else {
                failed = true
                return
            }
            printedLength += length
            attach(node)
        }

        /// Opens a container: the next values are its members or elements, up to ``end()``.
        private func begin(type: Int32) {
            guard let node = node(type: type) else {
                failed = true
                return
            }
            attach(node)
            printedLength += 2  // braces or brackets
            // A container's `valuestring` is unused by cJSON: it holds the container this one is
            // in until ``end()`` (and is nil again before anything is printed).
            node.pointee.valuestring = container.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
            container = node
        }

        /// Makes `node` the document, or the next member or element of the container being written.
        private func attach(_ node: UnsafeMutablePointer<cJSON>) {
            guard let container else {
                root = node
                return
            }
            if container.pointee.type == cJSON_Object {
                assert(pendingKey != nil, "TreeWriter: a member without a key")
                node.pointee.string = pendingKey
                pendingKey = nil
            }
            let last = container.pointee.child?.pointee.prev
            if last != nil { printedLength += 1 }  // the comma
            _ = link(node, after: last, in: container)
        }

        // MARK: Nodes

        /// A new node of `type`, nothing else set.
        private func node(type: Int32) -> UnsafeMutablePointer<cJSON>? {
            guard let memory = allocate(MemoryLayout<cJSON>.stride, alignment: MemoryLayout<cJSON>.alignment) else {
                return nil
            }
            let node = memory.bindMemory(to: cJSON.self, capacity: 1)
            node.initialize(to: cJSON(next: nil, prev: nil, child: nil, type: type, valuestring: nil,
                                      valueint: 0, valuedouble: 0, string: nil))
            return node
        }

        /// Lays out `value` and everything in it.
        func item(_ value: JSONValue) -> UnsafeMutablePointer<cJSON>? {
            guard let node = node(type: cJSON_NULL) else { return nil }
            switch value {
            case .null:
                printedLength += 4
            case .bool(let flag):
                node.pointee.type = flag ? cJSON_True : cJSON_False
                printedLength += flag ? 4 : 5
            case .integer(let number):
                // As raw text: cJSON prints numbers from a double with 15 significant digits when
                // that looks "close enough", which turns 9007199254740991 into 9.00719925474099e+15.
                node.pointee.type = cJSON_Raw
                guard let digits = integer(number) else { return nil }
                node.pointee.valuestring = digits
            case .string(let string):
                node.pointee.type = cJSON_String
                guard let copy = cString(string) else { return nil }
                node.pointee.valuestring = copy
            case .array(let elements):
                node.pointee.type = cJSON_Array
                printedLength += elements.isEmpty ? 2 : 1 + elements.count  // brackets, commas
                let complete = elements.withUnsafeBufferPointer { buffer in
                    var last: UnsafeMutablePointer<cJSON>? = nil
                    for index in buffer.indices {
                        guard let child = item(buffer[index]) else { return false }
                        last = link(child, after: last, in: node)
                    }
                    return true
                }
                guard complete else { return nil }
            case .object(let object):
                node.pointee.type = cJSON_Object
                printedLength += object.members.isEmpty ? 2 : 1 + 2 * object.members.count  // braces, colons, commas
                let complete = object.members.withUnsafeBufferPointer { buffer in
                    var last: UnsafeMutablePointer<cJSON>? = nil
                    for index in buffer.indices {
                        guard let child = item(buffer[index].value), let key = cString(buffer[index].key) else { return false }
                        child.pointee.string = key
                        last = link(child, after: last, in: node)
                    }
                    return true
                }
                guard complete else { return nil }
            }
            return node
        }

        /// Appends `child` to `parent`'s children as cJSON links them (the first child's
        /// `prev` is the last child).
        private func link(_ child: UnsafeMutablePointer<cJSON>, after last: UnsafeMutablePointer<cJSON>?,
                          in parent: UnsafeMutablePointer<cJSON>) -> UnsafeMutablePointer<cJSON> {
            if let last, let first = parent.pointee.child {
                last.pointee.next = child
                child.pointee.prev = last
                first.pointee.prev = child
            } else {
                parent.pointee.child = child
                child.pointee.prev = child
            }
            return child
        }

        /// Copies `string` as a C string (U+0000 as ``nulStandIn``) and counts its printed
        /// length: quotes, and cJSON's escapes (`\"` `\\` `\b` `\f` `\n` `\r` `\t`, other controls as `\u00XX`).
        private func cString(_ string: String) -> UnsafeMutablePointer<CChar>? {
            // Native strings are contiguous UTF-8 (small ones are copied to the stack).
            if let copy = string.utf8.withContiguousStorageIfAvailable({ copyString($0) }) { return copy }
            return string.withUTF8Buffer { copyString($0) }
        }

        private func copyString(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar>? {
            let count = bytes.count
            guard let memory = allocate(count + 1, alignment: 1) else { return nil }
            let copy = memory.assumingMemoryBound(to: UInt8.self)
            var escapes = 0
            if let base = bytes.baseAddress {
                if JSONText.copyFindingEscapes(UnsafeRawPointer(base), to: memory, count: count) {
                    for index in 0..<count {
                        switch bytes[index] {
                        case 0:
                            copy[index] = nulStandIn
                            standIns += 1
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x0C, 0x0A, 0x0D, 0x09:
                            escapes += 1
                        case 0x01..<0x20:
                            escapes += 5
                        default:
                            break
                        }
                    }
                }
            }
            copy[count] = 0
            printedLength += count + 2 + escapes
            return memory.assumingMemoryBound(to: CChar.self)
        }

        /// Writes `number` in decimal as a C string and counts its length.
        private func integer(_ number: Int64) -> UnsafeMutablePointer<CChar>? {
            guard let memory = allocate(21, alignment: 1) else { return nil }  // "-9223372036854775808" and the NUL
            let start = memory.bindMemory(to: UInt8.self, capacity: 21)
            var magnitude = number.magnitude
            var digits = 0
            repeat {
                digits += 1
                magnitude /= 10
            } while magnitude > 0
            let length = digits + (number < 0 ? 1 : 0)
            if number < 0 { start[0] = UInt8(ascii: "-") }
            magnitude = number.magnitude
            for index in stride(from: length - 1, through: length - digits, by: -1) {
                start[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            start[length] = 0
            used -= 21 - (length + 1)  // give back what the digits did not need
            printedLength += length
            return UnsafeMutableRawPointer(start).assumingMemoryBound(to: CChar.self)
        }
    }
}
