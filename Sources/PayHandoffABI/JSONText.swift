import CcJSON
#if !PAYHANDOFF_SINGLE_MODULE
@_spi(JSONText) import PayHandoff
#endif

/// JSON text through cJSON, and the C strings the ABI reads and writes: the core reads its
/// documents from cJSON's tree (``TreeReader``) and writes its answers into one (``TreeWriter``).
///
/// Everything here is about the boundary: sizes, NULL, UTF-8, the integer-only number rule and
/// duplicate keys. The meaning of a document is the core's business.
///
/// U+0000 in strings: cJSON keeps strings as C strings, so a `\u0000` escape would silently cut
/// a string short. Valid UTF-8 never contains the byte 0xFF, so it stands in for U+0000 while a
/// string is inside cJSON: `\u0000` escapes become 0xFF before parsing and 0xFF becomes U+0000
/// in the strings the core reads; on output U+0000 becomes 0xFF in cJSON and `\u0000` in the
/// printed text. The core then sees exactly what the sender wrote and refuses a NUL where it
/// refuses one.
///
/// Public for the `payhandoff` CLI, which reads and writes JSON text through the same layer as
/// the C ABI (``parse(_:parameter:)-(String,_)`` and ``render(_:)``, as ``JSONValue``).
public enum JSONText {
    /// The byte that stands for U+0000 inside cJSON (never part of valid UTF-8).
    static let nulStandIn: UInt8 = 0xFF

    /// The largest JSON input accepted, in bytes (without the NUL): `PAYHANDOFF_MAX_JSON_BYTES`.
    public static let maxJSONBytes = 65_536
    /// The largest snapshot accepted, in bytes (without the NUL): `PAYHANDOFF_MAX_SNAPSHOT_BYTES`,
    /// the most a coordinator's snapshot can take (``Coordinator/maxSnapshotBytes``).
    public static let maxSnapshotBytes = Coordinator.maxSnapshotBytes
    /// The largest URL accepted, in bytes (without the NUL).
    static let maxURLBytes = 8_192
    /// Most arrays/objects nested in one another (the root counts). PayHandoff's own documents
    /// nest under 10; the limit keeps the recursive conversion far from any thread's stack limit.
    static let maxDepth = 64
    /// 2^53 − 1: the largest integer every JSON consumer (JavaScript, cJSON's double) keeps exactly.
    static let maxInteger = Double(JSONValue.maxExactInteger)  // cJSON reads every number as a double

    /// Reads JSON text from a Swift string by the same rules as the C entry points.
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - parameter: The name to use as the error's field.
    /// - Returns: The document.
    /// - Throws: As the C-string variant (`limit_exceeded`, `invalid_json`).
    ///   - limit: The most bytes read (``maxJSONBytes``; a snapshot may have ``maxSnapshotBytes``).
    public static func parse(_ text: String, parameter: String, limit: Int = maxJSONBytes) throws(PayHandoffError) -> JSONValue {
        let result: Result<JSONValue, PayHandoffError> = text.withCString { pointer in
            do throws(PayHandoffError) {
                return .success(try parse(pointer, parameter: parameter, limit: limit))
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

    /// The core's codec for JSON text inside a POS answer, over cJSON (the rules of every JSON
    /// parameter of the C ABI: integers only, no repeated key, 64 KiB, depth 64).
    ///
    /// A fresh object on every read, never one shared instance: the C ABI is called from many
    /// threads at once (include/payhandoff.h, THREAD SAFETY), and a shared global would be
    /// lazily initialised and retained/released from all of them (helgrind, `make
    /// react-native-test`'s thread test, reported both as races). The object holds no state.
    public static var codec: JSONTextCodec { CJSONTextCodec() }

    /// ``JSONTextCodec`` over cJSON.
    final class CJSONTextCodec: JSONTextCodec, @unchecked Sendable {
        override func parse(_ text: String, field: String) throws(PayHandoffError) -> JSONValue {
            do {
                return try JSONText.parse(text, parameter: field)
            } catch {
                // A member the text layer refuses (a number with a fraction) is named by its path
                // inside the text: put it under the extra or parameter the text came in
                // (`PAYMENT_RESPONSE.amount`), as the app readers name the members they refuse.
                var located = error
                // Bytes compared, never String `!=` (it links Unicode's normalization tables, which
                // the .wasm does not have: docs/architecture.md).
                if let path = error.field, !path.isEmpty, !path.utf8.elementsEqual(field.utf8) { located.field = field + "." + path }
                throw located
            }
        }

        override func render(_ value: JSONValue) throws(PayHandoffError) -> String {
            JSONText.render(value)
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
        let length = try checkedLength(text, parameter: parameter, limit: maxURLBytes)
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text!).assumingMemoryBound(to: UInt8.self), count: length)
        // Checked 8 bytes a step, then copied with memcpy: String(validatingCString:) copied the
        // URL byte by byte in the Embedded standard library (~3,400 instructions for a 466-byte
        // POS answer, most of a parse).
        guard UTF8Text.isValid(bytes) else {
            throw PayHandoffError(.malformedURL, field: parameter, "is not valid UTF-8")
        }
        if #available(macOS 11, iOS 14, watchOS 7, tvOS 14, *) {
            return String(unsafeUninitializedCapacity: length) { target in
                if length > 0 { memcpy(target.baseAddress!, bytes.baseAddress!, length) }
                return length
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The length of `text`, reading at most `limit + 1` bytes (a 1 MB input is never scanned).
    static func checkedLength(_ text: UnsafePointer<CChar>?, parameter: String, limit: Int) throws(PayHandoffError) -> Int {
        guard let text else { throw PayHandoffError(.invalidArgument, field: parameter, "must not be NULL") }
        let length = strnlen(text, limit + 1)
        guard length <= limit else {
            throw PayHandoffError(.limitExceeded, field: parameter, "is longer than " + String(limit) + " bytes")
        }
        return length
    }
}
