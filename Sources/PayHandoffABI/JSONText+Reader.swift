import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

/// Reading: JSON text into cJSON's tree, with what cJSON does not check checked here — UTF-8,
/// the U+0000 stand-in, duplicate keys, the integer-only number rule and the depth — before the
/// core reads any document from it (``TreeReader``, the core's ``JSONReader`` over the tree).
extension JSONText {
    /// Reads a NUL-terminated JSON text and hands its checked tree to `body`, which reads the
    /// document (a core reader, straight into typed values); the tree is freed afterwards.
    /// - Parameters:
    ///   - text: The C string, or NULL.
    ///   - parameter: The C parameter's name, used as the error's field.
    ///   - limit: The most bytes read: ``maxJSONBytes``, or ``maxSnapshotBytes`` for a snapshot.
    ///   - body: Reads the document from the tree.
    /// - Returns: What `body` returns.
    /// - Throws: `invalid_argument` for NULL, `limit_exceeded` over `limit`,
    ///   `invalid_json` for invalid UTF-8, bad syntax, trailing text, duplicate keys, numbers
    ///   that are not integers within ±(2^53 − 1), or nesting deeper than ``maxDepth``; then
    ///   what `body` throws.
    @inline(__always)
    static func read<T>(_ text: UnsafePointer<CChar>?, parameter: String, limit: Int = maxJSONBytes,
                        _ body: (TreeReader, TreeReader.Node) throws(PayHandoffError) -> T) throws(PayHandoffError) -> T {
        let (root, reader) = try tree(text, parameter: parameter, limit: limit)
        defer { cJSON_Delete(root) }
        return try body(reader, root)
    }

    /// Reads a NUL-terminated JSON text into a ``JSONValue`` (the CLI's and tests' door; the C
    /// functions read their documents from the tree with ``read(_:parameter:limit:_:)``).
    /// - Parameters:
    ///   - text: The C string, or NULL.
    ///   - parameter: The C parameter's name, used as the error's field.
    ///   - limit: The most bytes read.
    /// - Returns: The document.
    /// - Throws: As ``read(_:parameter:limit:_:)``.
    static func parse(_ text: UnsafePointer<CChar>?, parameter: String, limit: Int = maxJSONBytes) throws(PayHandoffError) -> JSONValue {
        try read(text, parameter: parameter, limit: limit) { reader, root in JSONValue(reading: root, with: reader) }
    }

    /// The checked tree of a NUL-terminated JSON text; the caller deletes it.
    @inline(never)
    private static func tree(_ text: UnsafePointer<CChar>?, parameter: String, limit: Int) throws(PayHandoffError) -> (UnsafeMutablePointer<cJSON>, TreeReader) {
        let length = try checkedLength(text, parameter: parameter, limit: limit)
        guard let text else { throw PayHandoffError(.invalidArgument, field: parameter, "must not be NULL") }
        do throws(PayHandoffError) {
            return try checkedTree(text, length: length, parameter: parameter)
        } catch {
            // Invalid UTF-8 anywhere in the text outranks every other fault, as it did when the
            // whole text was validated first; looked for only once the text has failed.
            if String(validatingCString: text) == nil {
                throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8")
            }
            throw error
        }
    }

    /// ``tree(_:parameter:limit:)`` of `length` bytes at `text`.
    private static func checkedTree(_ text: UnsafePointer<CChar>, length: Int, parameter: String) throws(PayHandoffError) -> (UnsafeMutablePointer<cJSON>, TreeReader) {
        // UTF-8 is checked once, string by string (keys too): outside strings cJSON accepts only
        // ASCII. The one byte that must be refused up front is the stand-in itself, or a raw
        // 0xFF would be read as U+0000.
        if memchr(text, Int32(nulStandIn), length) != nil {
            throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8")
        }
        let prepared = prepare(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length))
        // cJSON reads a `\u` without four hex digits as U+0000, cutting the string there and
        // swallowing what follows unseen (a Square answer's state arrived shortened): it is not
        // JSON (RFC 8259 §7), so it is refused, never read.
        if prepared.hasMalformedEscape {
            // Invalid UTF-8 is named first, whatever else is wrong (as the whole text is checked).
            throw PayHandoffError(.invalidJSON, field: parameter, String(validatingCString: text) == nil
                ? "is not valid UTF-8" : "has a \\u escape without four hex digits")
        }
        let root: UnsafeMutablePointer<cJSON>
        if let copy = prepared.copy {
            root = try copy.withUnsafeBufferPointer { buffer throws(PayHandoffError) in
                guard let base = buffer.baseAddress else { throw PayHandoffError(.invalidJSON, field: parameter, "is empty") }
                return try cJSONParse(UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                      length: buffer.count - 1, parameter: parameter)
            }
        } else {
            root = try cJSONParse(text, length: length, parameter: parameter)
        }
        var checker = Checker()
        do throws(PayHandoffError) {
            try checker.check(root, depth: 0)
        } catch {
            cJSON_Delete(root)
            if checker.foundInvalidUTF8 { throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8") }
            var named = error
            if named.field == nil { named.field = parameter }
            throw named
        }
        return (root, TreeReader(hasStandIns: prepared.hasStandIns))
    }

    /// Parses `length` bytes of NUL-terminated text with cJSON.
    private static func cJSONParse(_ text: UnsafePointer<CChar>, length: Int, parameter: String) throws(PayHandoffError) -> UnsafeMutablePointer<cJSON> {
        // length + 1 includes the NUL, so require_null_terminated means "nothing but whitespace
        // after the value". The end pointer is ours; cJSON's global error pointer is never read.
        var end: UnsafePointer<CChar>? = nil
        guard let root = cJSON_ParseWithLengthOpts(text, length + 1, &end, 1) else {
            let offset = end.map { $0 - text } ?? 0
            throw PayHandoffError(.invalidJSON, field: parameter,
                                  "is not a single valid JSON value (error near byte " + String(offset) + ")")
        }
        return root
    }

    /// One pass over the text, before cJSON reads it, for what cJSON would get wrong:
    /// - each `\u0000` escape becomes ``nulStandIn`` (cJSON would cut the string there). A
    ///   backslash only appears inside strings in valid JSON, and in `\\u0000` the backslash
    ///   itself is escaped: not a NUL.
    /// - each number token with a fraction or an exponent (`100.00`, `1e2`, `-0.0`) becomes `0.5`:
    ///   cJSON reads 100.00 and 1e2 as the double 100, which would pass as 100 minor units
    ///   (1.00); 0.5 makes the integer rule refuse them, naming the member. Outside strings, `.`,
    ///   `e` and `E` after a digit only occur in such tokens.
    /// - a `\u` not followed by four hex digits is noted: cJSON reads it as U+0000 (cutting
    ///   the string there) and swallows what follows unseen, so such text is refused.
    /// - Parameter bytes: The text, without its NUL.
    /// - Returns: A NUL-terminated changed copy, or `nil` when nothing needed changing (the usual
    ///   case); whether any stand-in was written; whether a malformed `\u` was seen.
    private static func prepare(_ bytes: UnsafeRawBufferPointer) -> (copy: [UInt8]?, hasStandIns: Bool, hasMalformedEscape: Bool) {
        var copy: [UInt8]? = nil
        var hasStandIns = false
        var hasMalformedEscape = false
        var index = 0
        var copied = 0  // bytes of `bytes` already in `copy`
        var inString = false
        let count = bytes.count
        /// Copies the text up to `end`, then `replacement` (the stand-in byte, or `0.5`) instead
        /// of what is before `resume`.
        func replace(upTo end: Int, standIn: Bool, resumingAt resume: Int) {
            if copy == nil { copy = []; copy?.reserveCapacity(count + 1) }
            copy?.append(contentsOf: bytes[copied..<end])
            if standIn {
                copy?.append(nulStandIn)
            } else {
                copy?.append(contentsOf: "0.5".utf8)
            }
            copied = resume
        }
        while index < count {
            if inString, index + 8 <= count, let base = bytes.baseAddress {
                // Inside a string only `"` and `\\` matter: skip eight bytes at a time to the next one.
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let found = quoteOrBackslash(word)
                guard found != 0 else {
                    index += 8
                    continue
                }
                index += found.trailingZeroBitCount / 8
            }
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    if index + 1 < count, bytes[index + 1] == UInt8(ascii: "u") {
                        guard index + 5 < count, isHexDigit(bytes[index + 2]), isHexDigit(bytes[index + 3]),
                              isHexDigit(bytes[index + 4]), isHexDigit(bytes[index + 5]) else {
                            hasMalformedEscape = true
                            index += 2
                            continue
                        }
                        if bytes[index + 2] == UInt8(ascii: "0"), bytes[index + 3] == UInt8(ascii: "0"),
                           bytes[index + 4] == UInt8(ascii: "0"), bytes[index + 5] == UInt8(ascii: "0") {
                            replace(upTo: index, standIn: true, resumingAt: index + 6)
                            hasStandIns = true
                        }
                        index += 6
                        continue
                    }
                    index += 2  // the escaped character
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true; index += 1; continue }
            guard byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else {
                index += 1
                continue
            }
            var end = index
            var fractional = false
            while end < count {
                let b = bytes[end]
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                    fractional = true
                } else if !(b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))) {
                    break
                }
                end += 1
            }
            if fractional { replace(upTo: index, standIn: false, resumingAt: end) }
            index = end
        }
        guard var result = copy else { return (nil, false, hasMalformedEscape) }
        result.append(contentsOf: bytes[copied..<count])
        result.append(0)
        return (result, hasStandIns, hasMalformedEscape)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        let lowered = byte | 0x20  // A-F to a-f; digits keep their bit 5
        return (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "f"))
    }

    /// The high bit of each byte of `word` (little-endian) that is `"` or `\\`; the lowest
    /// set bit is exact (bits above it may be set spuriously).
    @inline(__always)
    private static func quoteOrBackslash(_ word: UInt64) -> UInt64 {
        ByteScan.bytesEqual(word, UInt8(ascii: "\"")) | ByteScan.bytesEqual(word, UInt8(ascii: "\\"))
    }

    /// Checks a cJSON tree for what cJSON does not: UTF-8 (every string and key), duplicate
    /// keys, the integer rule and the depth. Errors name the value's path from the root.
    private struct Checker {
        /// Set when a string was not valid UTF-8: the whole text is then refused as such.
        var foundInvalidUTF8 = false

        /// Checks `item`, which sits inside `depth` arrays/objects.
        mutating func check(_ item: UnsafeMutablePointer<cJSON>, depth: Int) throws(PayHandoffError) {
            switch item.pointee.type & 0xFF {
            case cJSON_NULL, cJSON_False, cJSON_True:
                return
            case cJSON_Number:
                let number = item.pointee.valuedouble
                // Int64(exactly:) is nil for fractions, NaN and infinities, so nothing here can trap.
                guard number >= -maxInteger, number <= maxInteger, Int64(exactly: number) != nil else {
                    throw PayHandoffError(.invalidJSON, field: nil,
                                          "numbers must be integers within ±(2^53 − 1); amounts are decimal text like \"100.00\"")
                }
            case cJSON_String:
                try checkUTF8(item.pointee.valuestring)
            case cJSON_Array:
                guard depth < maxDepth else { throw JSONText.tooDeep }
                var child = item.pointee.child
                var index = 0
                while let element = child {
                    do throws(PayHandoffError) {
                        try check(element, depth: depth + 1)
                    } catch {
                        throw located(error, "[" + String(index) + "]")
                    }
                    child = element.pointee.next
                    index += 1
                }
            case cJSON_Object:
                guard depth < maxDepth else { throw JSONText.tooDeep }
                // cJSON keeps duplicate keys; which one counts would differ between readers.
                if let repeated = JSONText.firstRepeatedKey(of: item, count: JSONText.childCount(item)) {
                    try checkUTF8(repeated)
                    throw PayHandoffError(.invalidJSON, field: TreeReader.text(repeated), "appears twice in the same object")
                }
                var child = item.pointee.child
                while let member = child {
                    try checkUTF8(member.pointee.string)
                    do throws(PayHandoffError) {
                        try check(member, depth: depth + 1)
                    } catch {
                        throw located(error, TreeReader.text(member.pointee.string))
                    }
                    child = member.pointee.next
                }
            default:
                throw PayHandoffError(.invalidJSON, field: nil, "unexpected JSON value")
            }
        }

        /// Checks that a string of the tree is valid UTF-8. A raw 0xFF never gets this far
        /// (``checkedTree(_:length:parameter:)``), so every 0xFF is a stand-in for U+0000.
        private mutating func checkUTF8(_ pointer: UnsafeMutablePointer<CChar>?) throws(PayHandoffError) {
            guard let pointer else { throw PayHandoffError(.invalidJSON, field: nil, "a string is missing") }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(pointer))
            // cJSON decodes \u escapes itself; the result is validated here, not trusted.
            guard UTF8Text.isValid(bytes) || UTF8Text.isValid(bytes.map { $0 == nulStandIn ? 0 : $0 }) else {
                foundInvalidUTF8 = true
                throw PayHandoffError(.invalidJSON, field: nil, "a string is not valid UTF-8")
            }
        }
    }

    /// The first key (in document order) of `object` that repeats an earlier one, if any. The
    /// keys are compared as cJSON holds them (U+0000 as the stand-in, which no key holds
    /// otherwise: the same bytes exactly when the keys are the same bytes): up to 32 keys pairwise
    /// along cJSON's list, allocating nothing; beyond, sorted, so that a 64 KiB object of distinct
    /// keys costs n log n comparisons, not n².
    private static func firstRepeatedKey(of object: UnsafeMutablePointer<cJSON>, count: Int) -> UnsafeMutablePointer<CChar>? {
        guard count > 1 else { return nil }
        if count <= 32 {  // a few keys (every document PayHandoff reads): pairwise along the list, no array
            var later = object.pointee.child?.pointee.next
            while let second = later {
                var earlier = object.pointee.child
                while let first = earlier, first != second {
                    if JSONText.sameKey(first.pointee.string, second.pointee.string) { return second.pointee.string }
                    earlier = first.pointee.next
                }
                later = second.pointee.next
            }
            return nil
        }
        var keys: [UnsafeMutablePointer<CChar>?] = []
        keys.reserveCapacity(count)
        var child = object.pointee.child
        while let member = child {
            keys.append(member.pointee.string)
            child = member.pointee.next
        }
        func compare(_ a: Int, _ b: Int) -> Int32 {
            guard let x = keys[a], let y = keys[b] else { return keys[a] == nil ? (keys[b] == nil ? 0 : -1) : 1 }
            return strcmp(x, y)
        }
        let order = IndexSort.sorted(count: count) { Int(compare($0, $1)) }
        var first: Int? = nil
        for index in 1..<count where compare(order[index - 1], order[index]) == 0 {
            first = Swift.min(first ?? Int.max, order[index])  // equal keys are sorted by position
        }
        return first.flatMap { keys[$0] }
    }

    /// Whether two keys are the same bytes (the first byte compared before `strcmp`: most keys differ there).
    private static func sameKey(_ x: UnsafeMutablePointer<CChar>?, _ y: UnsafeMutablePointer<CChar>?) -> Bool {
        guard let x, let y else { return x == nil && y == nil }
        return x.pointee == y.pointee && strcmp(x, y) == 0
    }

    private static var tooDeep: PayHandoffError {
        PayHandoffError(.invalidJSON, field: nil, "nests more than " + String(maxDepth) + " arrays/objects")
    }

    /// The number of elements or members of `item`.
    private static func childCount(_ item: UnsafeMutablePointer<cJSON>) -> Int {
        var count = 0
        var child = item.pointee.child
        while let next = child {
            count += 1
            child = next.pointee.next
        }
        return count
    }

    /// Prefixes the path of the member that failed (`request.amount`, `flows[2]`).
    private static func located(_ error: PayHandoffError, _ step: String) -> PayHandoffError {
        var result = error
        if let inner = error.field {
            result.field = inner.utf8.first == UInt8(ascii: "[") ? step + inner : step + "." + inner
        } else {
            result.field = step
        }
        return result
    }
}
