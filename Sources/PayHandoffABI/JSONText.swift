import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

/// JSON text ↔ ``JSONValue`` with cJSON, and the C strings the ABI reads and writes.
///
/// Everything here is about the boundary: sizes, NULL, UTF-8, the integer-only number rule and
/// duplicate keys. The meaning of a document is the core's business.
///
/// U+0000 in strings: cJSON keeps strings as C strings, so a `\u0000` escape would silently cut
/// a string short. Valid UTF-8 never contains the byte 0xFF, so it stands in for U+0000 while a
/// string is inside cJSON: `\u0000` escapes become 0xFF before parsing and 0xFF becomes U+0000
/// in the `JSONValue`; on output U+0000 becomes 0xFF in cJSON and `\u0000` in the printed text.
/// The core then sees exactly what the sender wrote and refuses a NUL where it refuses one.
///
/// Public for the `payhandoff` CLI, which reads and writes JSON text through the same layer as
/// the C ABI (``parse(_:parameter:)-(String,_)`` and ``render(_:)``).
public enum JSONText {
    /// The byte that stands for U+0000 inside cJSON (never part of valid UTF-8).
    static let nulStandIn: UInt8 = 0xFF

    /// The largest JSON input accepted, in bytes (without the NUL).
    static let maxJSONBytes = 65_536
    /// The largest URL accepted, in bytes (without the NUL).
    static let maxURLBytes = 8_192
    /// Most arrays/objects nested in one another (the root counts). PayHandoff's own documents
    /// nest under 10; the limit keeps the recursive conversion far from any thread's stack limit.
    static let maxDepth = 64
    /// 2^53 − 1: the largest integer every JSON consumer (JavaScript, cJSON's double) keeps exactly.
    static let maxInteger = Double(JSONValue.maxExactInteger)  // cJSON reads every number as a double

    /// Reads a NUL-terminated JSON text.
    /// - Parameters:
    ///   - text: The C string, or NULL.
    ///   - parameter: The C parameter's name, used as the error's field.
    /// - Returns: The document.
    /// - Throws: `invalid_argument` for NULL, `limit_exceeded` over ``maxJSONBytes``,
    ///   `invalid_json` for invalid UTF-8, bad syntax, trailing text, duplicate keys, numbers
    ///   that are not integers within ±(2^53 − 1), or nesting deeper than ``maxDepth``.
    static func parse(_ text: UnsafePointer<CChar>?, parameter: String) throws(PayHandoffError) -> JSONValue {
        let length = try checkedLength(text, parameter: parameter, limit: maxJSONBytes)
        guard let text else { throw PayHandoffError(.invalidArgument, field: parameter, "must not be NULL") }
        do throws(PayHandoffError) {
            return try read(text, length: length, parameter: parameter)
        } catch {
            // Invalid UTF-8 anywhere in the text outranks every other fault, as it did when the
            // whole text was validated first; looked for only once the text has failed.
            if String(validatingCString: text) == nil {
                throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8")
            }
            throw error
        }
    }

    /// ``parse(_:parameter:)-(UnsafePointer<CChar>?,_)`` of `length` bytes at `text`.
    private static func read(_ text: UnsafePointer<CChar>, length: Int, parameter: String) throws(PayHandoffError) -> JSONValue {
        // UTF-8 is checked once, string by string, as each becomes a Swift String (keys too):
        // outside strings cJSON accepts only ASCII. The one byte that must be refused up front
        // is the stand-in itself, or a raw 0xFF would be read as U+0000.
        if memchr(text, Int32(nulStandIn), length) != nil {
            throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8")
        }
        let prepared = prepare(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length))
        if prepared.hasMalformedEscape, String(validatingCString: text) == nil {
            throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8")
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
        defer { cJSON_Delete(root) }
        var reader = Reader(hasStandIns: prepared.hasStandIns)
        do throws(PayHandoffError) {
            return try reader.value(of: root, depth: 0)
        } catch {
            if reader.foundInvalidUTF8 { throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8") }
            var named = error
            if named.field == nil { named.field = parameter }
            throw named
        }
    }

    /// Reads a NUL-terminated URL.
    /// - Parameters:
    ///   - text: The C string, or NULL.
    ///   - parameter: The C parameter's name, used as the error's field.
    /// - Returns: The URL text.
    /// - Throws: `invalid_argument` for NULL, `limit_exceeded` over ``maxURLBytes``,
    ///   `malformed_url` for invalid UTF-8.
    static func url(_ text: UnsafePointer<CChar>?, parameter: String) throws(PayHandoffError) -> String {
        _ = try checkedLength(text, parameter: parameter, limit: maxURLBytes)
        guard let text, let url = String(validatingCString: text) else {
            throw PayHandoffError(.malformedURL, field: parameter, "is not valid UTF-8")
        }
        return url
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
    ///   the string there) and swallows what follows unseen, so the text's UTF-8 must be checked
    ///   as a whole.
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
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & (ones &* 0x80)
    }

    /// The length of `text`, reading at most `limit + 1` bytes (a 1 MB input is never scanned).
    private static func checkedLength(_ text: UnsafePointer<CChar>?, parameter: String, limit: Int) throws(PayHandoffError) -> Int {
        guard let text else { throw PayHandoffError(.invalidArgument, field: parameter, "must not be NULL") }
        let length = strnlen(text, limit + 1)
        guard length <= limit else {
            throw PayHandoffError(.limitExceeded, field: parameter, "is longer than " + String(limit) + " bytes")
        }
        return length
    }

    /// Turns a cJSON tree into a ``JSONValue``, checking what cJSON does not: UTF-8 (once, as
    /// each string becomes a Swift `String`), duplicate keys, the integer rule and the depth.
    private struct Reader {
        /// Whether ``prepare(_:)`` wrote any ``nulStandIn`` (otherwise no string needs a look for one).
        let hasStandIns: Bool
        /// Set when a string was not valid UTF-8: the whole text is then refused as such.
        var foundInvalidUTF8 = false

        /// The value of `item`, which sits inside `depth` arrays/objects.
        mutating func value(of item: UnsafeMutablePointer<cJSON>, depth: Int) throws(PayHandoffError) -> JSONValue {
            switch item.pointee.type & 0xFF {
            case cJSON_NULL:
                return .null
            case cJSON_False:
                return .bool(false)
            case cJSON_True:
                return .bool(true)
            case cJSON_Number:
                let number = item.pointee.valuedouble
                // Int64(exactly:) is nil for fractions, NaN and infinities, so nothing here can trap.
                guard number >= -maxInteger, number <= maxInteger, let integer = Int64(exactly: number) else {
                    throw PayHandoffError(.invalidJSON, field: nil,
                                          "numbers must be integers within ±(2^53 − 1); amounts are decimal text like \"100.00\"")
                }
                return .integer(integer)
            case cJSON_String:
                return .string(try string(item.pointee.valuestring))
            case cJSON_Array:
                guard depth < maxDepth else { throw JSONText.tooDeep }
                var elements: [JSONValue] = []
                elements.reserveCapacity(JSONText.childCount(item))
                var child = item.pointee.child
                var index = 0
                while let element = child {
                    do throws(PayHandoffError) {
                        elements.append(try value(of: element, depth: depth + 1))
                    } catch {
                        throw located(error, "[" + String(index) + "]")
                    }
                    child = element.pointee.next
                    index += 1
                }
                return .array(elements)
            case cJSON_Object:
                guard depth < maxDepth else { throw JSONText.tooDeep }
                var object = JSONObject()
                let count = JSONText.childCount(item)
                object.reserveCapacity(count)
                // cJSON keeps duplicate keys; which one counts would differ between readers.
                if let repeated = JSONText.firstRepeatedKey(of: item, count: count) {
                    throw PayHandoffError(.invalidJSON, field: try? string(repeated), "appears twice in the same object")
                }
                var child = item.pointee.child
                while let member = child {
                    let key = try string(member.pointee.string)
                    do throws(PayHandoffError) {
                        object.appendNewMember(key, try value(of: member, depth: depth + 1))
                    } catch {
                        throw located(error, key)
                    }
                    child = member.pointee.next
                }
                return .object(object)
            default:
                throw PayHandoffError(.invalidJSON, field: nil, "unexpected JSON value")
            }
        }

        /// A string of the tree as a Swift `String`, ``nulStandIn`` as U+0000.
        private mutating func string(_ pointer: UnsafeMutablePointer<CChar>?) throws(PayHandoffError) -> String {
            guard let pointer else { throw PayHandoffError(.invalidJSON, field: nil, "a string is missing") }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                            count: strlen(pointer))
            // cJSON decodes \u escapes itself; the result is validated here, not trusted. A raw
            // 0xFF never gets this far (parse(_:parameter:)), so every 0xFF is a stand-in.
            let text: String?
            if hasStandIns, memchr(pointer, Int32(nulStandIn), bytes.count) != nil {
                text = UTF8Text.string(validating: bytes.map { $0 == nulStandIn ? 0 : $0 })
            } else {
                text = UTF8Text.string(validating: bytes)
            }
            guard let text else {
                foundInvalidUTF8 = true
                throw PayHandoffError(.invalidJSON, field: nil, "a string is not valid UTF-8")
            }
            return text
        }
    }

    /// The first key (in document order) of `object` that repeats an earlier one, if any. The
    /// keys are compared as cJSON holds them (U+0000 as the stand-in, which no key holds
    /// otherwise: the same bytes exactly when the keys are the same bytes), sorted, so that a
    /// 64 KiB object of distinct keys costs n log n comparisons, not n².
    private static func firstRepeatedKey(of object: UnsafeMutablePointer<cJSON>, count: Int) -> UnsafeMutablePointer<CChar>? {
        guard count > 1 else { return nil }
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

    /// Reads JSON text from a Swift string by the same rules as the C entry points.
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - parameter: The name to use as the error's field.
    /// - Returns: The document.
    /// - Throws: As the C-string variant (`limit_exceeded`, `invalid_json`).
    public static func parse(_ text: String, parameter: String) throws(PayHandoffError) -> JSONValue {
        let result: Result<JSONValue, PayHandoffError> = text.withCString { pointer in
            do throws(PayHandoffError) {
                return .success(try parse(pointer, parameter: parameter))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The document as compact JSON text (integers exact, U+0000 as `\u0000`).
    /// - Parameter value: The document.
    /// - Returns: The text; empty only when memory ran out.
    public static func render(_ value: JSONValue) -> String {
        guard let printed = print(value) else { return "" }
        defer { free(printed) }
        return String(cString: printed)
    }

    /// Prints `value` compactly into memory from `malloc`, which the caller releases with
    /// `payhandoff_string_free` (that is, `free`).
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

    /// Prints the document `write` writes, as ``print(_:)`` does a `JSONValue`: the result
    /// documents of the C functions go straight from the core into cJSON's tree.
    /// - Parameter write: Writes one document.
    /// - Returns: The NUL-terminated text, or `nil` when memory ran out.
    static func print(writing write: (inout TreeWriter) -> Void) -> UnsafeMutablePointer<CChar>? {
        var tree = TreeWriter()
        defer { tree.free() }
        write(&tree)
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
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let found = ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return found & (ones &* 0x80)
    }

    /// Lays out the cJSON tree of a document in blocks from `malloc` and counts the length of
    /// the text cJSON will print for it (compact: no whitespace). ``free()`` releases every block.
    /// As a ``JSONWriter`` it takes a document member by member; ``item(_:)`` lays out a whole
    /// `JSONValue`.
    struct TreeWriter: JSONWriter {
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
        /// The object or array being written, and its last child so far.
        private var container: UnsafeMutablePointer<cJSON>? = nil
        private var lastChild: UnsafeMutablePointer<cJSON>? = nil
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
        private mutating func allocate(_ count: Int, alignment: Int) -> UnsafeMutableRawPointer? {
            let offset = (used + alignment - 1) & ~(alignment - 1)
            if let block, offset + count <= capacity {
                used = offset + count
                return block + offset
            }
            return allocateBlock(count)
        }

        /// `count` bytes at the start of a new block.
        private mutating func allocateBlock(_ count: Int) -> UnsafeMutableRawPointer? {
            let size = Swift.max(TreeWriter.blockSize, TreeWriter.header + count)
            guard let chunk = malloc(size) else { return nil }
            chunk.storeBytes(of: block, as: UnsafeMutableRawPointer?.self)
            block = chunk
            capacity = size
            used = TreeWriter.header + count
            return chunk + TreeWriter.header
        }

        // MARK: JSONWriter

        mutating func object(count: Int, _ body: (inout TreeWriter) -> Void) {
            container(type: cJSON_Object, body)
        }

        mutating func array(count: Int, _ body: (inout TreeWriter) -> Void) {
            container(type: cJSON_Array, body)
        }

        mutating func key(_ key: StaticString) {
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

        mutating func value(_ value: JSONValue) {
            guard let node = item(value) else {
                failed = true
                return
            }
            attach(node)
        }

        mutating func string(_ value: String) {
            guard let node = node(type: cJSON_String), let copy = cString(value) else {
                failed = true
                return
            }
            node.pointee.valuestring = copy
            attach(node)
        }

        private mutating func container(type: Int32, _ body: (inout TreeWriter) -> Void) {
            guard let node = node(type: type) else {
                failed = true
                return
            }
            attach(node)
            printedLength += 2  // braces or brackets
            let outer = (container, lastChild)
            (container, lastChild) = (node, nil)
            body(&self)
            (container, lastChild) = outer
        }

        /// Makes `node` the document, or the next member or element of the container being written.
        private mutating func attach(_ node: UnsafeMutablePointer<cJSON>) {
            guard let container else {
                root = node
                return
            }
            if container.pointee.type == cJSON_Object {
                assert(pendingKey != nil, "TreeWriter: a member without a key")
                node.pointee.string = pendingKey
                pendingKey = nil
            }
            if lastChild != nil { printedLength += 1 }  // the comma
            lastChild = link(node, after: lastChild, in: container)
        }

        // MARK: Nodes

        /// A new node of `type`, nothing else set.
        private mutating func node(type: Int32) -> UnsafeMutablePointer<cJSON>? {
            guard let memory = allocate(MemoryLayout<cJSON>.stride, alignment: MemoryLayout<cJSON>.alignment) else {
                return nil
            }
            let node = memory.bindMemory(to: cJSON.self, capacity: 1)
            node.initialize(to: cJSON(next: nil, prev: nil, child: nil, type: type, valuestring: nil,
                                      valueint: 0, valuedouble: 0, string: nil))
            return node
        }

        /// Lays out `value` and everything in it.
        mutating func item(_ value: JSONValue) -> UnsafeMutablePointer<cJSON>? {
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
        private mutating func cString(_ string: String) -> UnsafeMutablePointer<CChar>? {
            // Native strings are contiguous UTF-8 (small ones are copied to the stack).
            if let copy = string.utf8.withContiguousStorageIfAvailable({ copyString($0) }) { return copy }
            var native = string
            return native.withUTF8 { copyString($0) }
        }

        private mutating func copyString(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar>? {
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
        private mutating func integer(_ number: Int64) -> UnsafeMutablePointer<CChar>? {
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
