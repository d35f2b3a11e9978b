/// JSON *text* inside another value: what the core needs where a POS app puts a JSON document
/// into a URL or an intent extra (Square's iOS request and answer in `data=`, Clip's
/// `PAYMENT_RESPONSE` extra). The core never parses or prints JSON text itself (the project's rule:
/// JSON text goes through cJSON), so it asks the codec it is handed.
///
/// This base class has no JSON of its own: every call fails with `invalid_argument` naming
/// `json_text`, so a forgotten codec is an error, never a silent skip. The implementations are
/// one subclass over cJSON in the C ABI layer (`PayHandoffABI`'s `JSONText.codec`, which every C
/// function and coordinator handle uses) and one over Foundation's `JSONSerialization` in
/// `PayHandoffFoundation` (`FoundationJSONText`) for the Swift API. Each reads with the rules of
/// its layer's JSON door (integers only, no duplicate keys for cJSON).
open class JSONTextCodec: @unchecked Sendable {
    /// A codec (this base class refuses every call; use a subclass).
    public init() {}

    /// The document `text` holds.
    /// - Parameters:
    ///   - text: JSON text.
    ///   - field: Where the text was found, for the error (`extras.PAYMENT_RESPONSE`, `data`).
    /// - Returns: The document.
    /// - Throws: `invalid_json` naming `field` for text that is not a JSON document;
    ///   `invalid_argument` naming `json_text` in this base class.
    open func parse(_ text: String, field: String) throws(PayHandoffError) -> JSONValue {
        throw PayHandoffError(.invalidArgument, field: "json_text",
            "no JSON text codec: this POS app puts JSON text in its " + field + " (pass the C ABI's or PayHandoffFoundation's codec)")
    }

    /// `value` as compact JSON text.
    /// - Parameter value: The document.
    /// - Returns: The text.
    /// - Throws: `invalid_argument` naming `json_text` in this base class.
    open func render(_ value: JSONValue) throws(PayHandoffError) -> String {
        throw PayHandoffError(.invalidArgument, field: "json_text",
            "no JSON text codec: this POS app's request holds JSON text (pass the C ABI's or PayHandoffFoundation's codec)")
    }
}
