import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
import PayHandoff
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
        guard let text, String(validatingCString: text) != nil else {
            throw PayHandoffError(.invalidJSON, field: parameter, "is not valid UTF-8")
        }
        let root: UnsafeMutablePointer<cJSON>
        var standIns = replacingEscapedNUL(text, length: length)
        // cJSON reads 100.00 and 1e2 as the double 100, which would pass as 100 minor units (1.00):
        // number tokens with a fraction or exponent become 0.5, so the integer rule below refuses
        // them, naming the member.
        let fractions = standIns.map { copy in
            copy.withUnsafeBytes { markingFractions(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        } ?? markingFractions(UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length))
        if let fractions { standIns = fractions }
        if let standIns {
            root = try standIns.withUnsafeBufferPointer { buffer throws(PayHandoffError) in
                guard let base = buffer.baseAddress else { throw PayHandoffError(.invalidJSON, field: parameter, "is empty") }
                return try cJSONParse(UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                      length: buffer.count - 1, parameter: parameter)
            }
        } else {
            root = try cJSONParse(text, length: length, parameter: parameter)
        }
        defer { cJSON_Delete(root) }
        do throws(PayHandoffError) {
            return try value(of: root, depth: 0)
        } catch {
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

    /// A NUL-terminated copy of `text` with each `\u0000` escape replaced by ``nulStandIn``, or
    /// `nil` when there is none. A backslash only appears inside strings in valid JSON, so a plain
    /// scan finds every escape (in `\\u0000` the backslash itself is escaped: not a NUL).
    private static func replacingEscapedNUL(_ text: UnsafePointer<CChar>, length: Int) -> [UInt8]? {
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(text), count: length)
        var copy: [UInt8]? = nil
        var index = 0
        var copied = 0  // bytes of `bytes` already in `copy`
        while index < length {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            if index + 5 < length, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "0"),
               bytes[index + 3] == UInt8(ascii: "0"), bytes[index + 4] == UInt8(ascii: "0"), bytes[index + 5] == UInt8(ascii: "0") {
                if copy == nil { copy = []; copy?.reserveCapacity(length + 1) }
                copy?.append(contentsOf: bytes[copied..<index])
                copy?.append(nulStandIn)
                index += 6
                copied = index
                continue
            }
            index += 2  // the escaped character
        }
        guard var result = copy else { return nil }
        result.append(contentsOf: bytes[copied..<length])
        result.append(0)
        return result
    }

    /// A NUL-terminated copy of `bytes` in which every number token with a fraction or an
    /// exponent (`100.00`, `1e2`, `-0.0`) is replaced by `0.5`, or `nil` when there is none.
    /// Outside strings, `.`, `e` and `E` after a digit only occur in such tokens.
    private static func markingFractions(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var copy: [UInt8]? = nil
        var index = 0
        var copied = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 2; continue }
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
            while end < bytes.count {
                let b = bytes[end]
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                    fractional = true
                } else if !(b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))) {
                    break
                }
                end += 1
            }
            if fractional {
                if copy == nil { copy = []; copy?.reserveCapacity(bytes.count + 1) }
                copy?.append(contentsOf: bytes[copied..<index])
                copy?.append(contentsOf: "0.5".utf8)
                copied = end
            }
            index = end
        }
        guard var result = copy else { return nil }
        result.append(contentsOf: bytes[copied..<bytes.count])
        result.append(0)
        return result
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

    /// The value of `item`, which sits inside `depth` arrays/objects.
    private static func value(of item: UnsafeMutablePointer<cJSON>, depth: Int) throws(PayHandoffError) -> JSONValue {
        if cJSON_IsArray(item) != 0 || cJSON_IsObject(item) != 0, depth >= maxDepth {
            throw PayHandoffError(.invalidJSON, field: nil, "nests more than " + String(maxDepth) + " arrays/objects")
        }
        if cJSON_IsNull(item) != 0 { return .null }
        if cJSON_IsBool(item) != 0 { return .bool(cJSON_IsTrue(item) != 0) }
        if cJSON_IsNumber(item) != 0 {
            let number = item.pointee.valuedouble
            // Int64(exactly:) is nil for fractions, NaN and infinities, so nothing here can trap.
            guard number >= -maxInteger, number <= maxInteger, let integer = Int64(exactly: number) else {
                throw PayHandoffError(.invalidJSON, field: nil,
                                      "numbers must be integers within ±(2^53 − 1); amounts are decimal text like \"100.00\"")
            }
            return .integer(integer)
        }
        if cJSON_IsString(item) != 0 {
            return .string(try string(item.pointee.valuestring))
        }
        if cJSON_IsArray(item) != 0 {
            var elements: [JSONValue] = []
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
        }
        if cJSON_IsObject(item) != 0 {
            var object = JSONObject()
            var child = item.pointee.child
            while let member = child {
                let key = try string(member.pointee.string)
                // cJSON keeps duplicate keys; which one counts would differ between readers.
                guard object[key] == nil else {
                    throw PayHandoffError(.invalidJSON, field: key, "appears twice in the same object")
                }
                do throws(PayHandoffError) {
                    object[key] = try value(of: member, depth: depth + 1)
                } catch {
                    throw located(error, key)
                }
                child = member.pointee.next
            }
            return .object(object)
        }
        throw PayHandoffError(.invalidJSON, field: nil, "unexpected JSON value")
    }

    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) throws(PayHandoffError) -> String {
        guard let pointer else { throw PayHandoffError(.invalidJSON, field: nil, "a string is missing") }
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: strlen(pointer))
        // cJSON decodes \u escapes itself; its output is checked again rather than trusted.
        let text: String?
        if bytes.contains(nulStandIn) {
            text = String(validating: bytes.map { $0 == nulStandIn ? 0 : $0 }, as: UTF8.self)
        } else {
            text = String(validatingCString: pointer)
        }
        guard let text else { throw PayHandoffError(.invalidJSON, field: nil, "a string is not valid UTF-8") }
        return text
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
    /// - Parameter value: The document.
    /// - Returns: The NUL-terminated text, or `nil` when memory ran out.
    static func print(_ value: JSONValue) -> UnsafeMutablePointer<CChar>? {
        guard let item = makeItem(value) else { return nil }
        defer { cJSON_Delete(item) }
        guard let printed = cJSON_PrintUnformatted(item) else { return nil }
        defer { cJSON_free(printed) }
        // Copied so the contract is plain malloc/free, whatever allocator cJSON was given; each
        // stand-in byte (only ever inside a string) becomes the escape \u0000.
        let source = UnsafeRawBufferPointer(start: UnsafeRawPointer(printed), count: strlen(printed))
        guard memchr(printed, Int32(nulStandIn), source.count) != nil else {
            // No U+0000 anywhere (the usual case): one copy.
            guard let copy = malloc(source.count + 1) else { return nil }
            memcpy(copy, printed, source.count + 1)
            return copy.assumingMemoryBound(to: CChar.self)
        }
        let standIns = source.reduce(0) { $1 == nulStandIn ? $0 + 1 : $0 }
        guard let copy = malloc(source.count + 5 * standIns + 1) else { return nil }
        let target = copy.assumingMemoryBound(to: UInt8.self)
        var written = 0
        for byte in source {
            if byte == nulStandIn {
                for escaped in "\\u0000".utf8 {
                    target[written] = escaped
                    written += 1
                }
            } else {
                target[written] = byte
                written += 1
            }
        }
        target[written] = 0
        return copy.assumingMemoryBound(to: CChar.self)
    }

    /// Calls `body` with `text` as a C string, U+0000 replaced by ``nulStandIn``.
    private static func withCJSONText<R>(_ text: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        // Scanned over contiguous bytes: the generic UTF8View.contains was a tenth of a round trip.
        let hasNUL = text.utf8.withContiguousStorageIfAvailable { $0.contains(0) }
            ?? text.utf8.contains(0)
        guard hasNUL else { return text.withCString(body) }
        var bytes = text.utf8.map { $0 == 0 ? nulStandIn : $0 }
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return text.withCString(body) }
            return body(UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self))
        }
    }

    private static func makeItem(_ value: JSONValue) -> UnsafeMutablePointer<cJSON>? {
        switch value {
        case .null: return cJSON_CreateNull()
        case .bool(let flag): return cJSON_CreateBool(flag ? 1 : 0)
        case .integer(let number):
            // As raw text: cJSON prints numbers from a double with 15 significant digits when
            // that looks "close enough", which turns 9007199254740991 into 9.00719925474099e+15.
            return String(number).withCString { cJSON_CreateRaw($0) }
        case .string(let text): return withCJSONText(text) { cJSON_CreateString($0) }
        case .array(let elements):
            guard let array = cJSON_CreateArray() else { return nil }
            for element in elements {
                guard let child = makeItem(element), cJSON_AddItemToArray(array, child) != 0 else {
                    cJSON_Delete(array)
                    return nil
                }
            }
            return array
        case .object(let object):
            guard let result = cJSON_CreateObject() else { return nil }
            for member in object.members {
                guard let child = makeItem(member.value) else {
                    cJSON_Delete(result)
                    return nil
                }
                guard withCJSONText(member.key, { cJSON_AddItemToObject(result, $0, child) }) != 0 else {
                    cJSON_Delete(child)
                    cJSON_Delete(result)
                    return nil
                }
            }
            return result
        }
    }
}
