import Foundation
import PayHandoff

/// ``JSONTextCodec`` over Foundation's `JSONDecoder`/`JSONEncoder` and ``JSONValue``'s `Codable`
/// conformance: the Swift API's way to read JSON text inside a POS answer (Clip's
/// `PAYMENT_RESPONSE`) without the C ABI. Hand it to a coordinator: `coordinator.jsonText =
/// FoundationJSONText()` (``SavedCoordinator`` does). The C ABI uses its own codec over cJSON.
public final class FoundationJSONText: JSONTextCodec, @unchecked Sendable {
    /// A codec.
    public override init() {}

    /// The document `text` holds (numbers with a fraction are refused, as ``JSONValue`` has none).
    /// - Parameters:
    ///   - text: JSON text.
    ///   - field: Where the text was found, for the error.
    /// - Returns: The document.
    /// - Throws: `invalid_json` naming `field`.
    public override func parse(_ text: String, field: String) throws(PayHandoffError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw PayHandoffError(.invalidJSON, field: field, "is not a JSON document PayHandoff can read")
        }
    }

    /// `value` as compact JSON text.
    /// - Parameter value: The document.
    /// - Returns: The text.
    /// - Throws: `invalid_json` when Foundation cannot encode it.
    public override func render(_ value: JSONValue) throws(PayHandoffError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw PayHandoffError(.invalidJSON, field: nil, "could not be written as JSON text")
        }
    }
}
