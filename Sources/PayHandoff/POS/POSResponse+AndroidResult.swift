/// Billpocket on Android: the POS app is started with an intent and answers through
/// `onActivityResult` with result extras — key/value pairs that are already decoded text, not a
/// URL. They are read by the rules of a URL answer, so both channels give the same answer.
extension POSResponse {
    /// The action of the intent that starts the Billpocket POS app on Android.
    public static let androidIntentAction = "com.billpocket.payments.START"

    /// Reads an answer given as Android result extras.
    ///
    /// The rules of ``parse(_:urlScheme:expectedIdentifier:token:)``, except that nothing is
    /// percent-decoded (a value `%41` stays `%41`): keys are matched ignoring ASCII case and may
    /// not repeat in any case, an echoed user token (`usertoken`, `userToken`, …) is dropped,
    /// unknown keys are kept in ``extra``, a known key with an empty value counts as absent, and
    /// the same checks run in the same order (identifier first).
    /// - Parameters:
    ///   - extras: The result extras, in their order.
    ///   - expectedIdentifier: When given, the answer's `identifier` must be it (with `token`:
    ///     `<expectedIdentifier>~<token>`).
    ///   - token: The per-hand-off token the request's identifier carried.
    /// - Returns: The typed answer.
    /// - Throws: `validation` naming the key for an empty key, a key repeated in another case,
    ///   or U+0000 in a key or value; otherwise as ``parse(_:urlScheme:expectedIdentifier:token:)``.
    public static func parse(extras: [QueryItem], expectedIdentifier: String? = nil,
                             token: String? = nil) throws(PayHandoffError) -> POSResponse {
        try parse(extras: extras, expecting: try IdentifierExpectation(expectedIdentifier, token: token))
    }

    /// ``parse(extras:expectedIdentifier:token:)`` with the expectation already made.
    static func parse(extras: [QueryItem], expecting expectation: IdentifierExpectation) throws(PayHandoffError) -> POSResponse {
        for item in extras {
            guard !item.key.isEmpty else { throw PayHandoffError(.validation, field: nil, "a result extra has an empty key") }
            if item.key.utf8.contains(0) || item.value.utf8.contains(0) {
                throw PayHandoffError(.validation, field: item.key.utf8.contains(0) ? nil : item.key, "must not contain U+0000")
            }
        }
        if let repeated = QueryDecoder.firstRepeatedKey(in: extras, caseInsensitive: true) {
            throw PayHandoffError(.validation, field: repeated, "appears twice (result extra keys are case-insensitive)")
        }
        // Encoded, every byte but the unreserved ones escaped, the pairs read back as the
        // values they are: the URL rules run on them unchanged, with no second parser.
        let text = QueryEncoder.encode(extras)
        var contiguous = text
        let outcome = contiguous.withUTF8 { bytes -> Swift.Result<POSResponse, PayHandoffError> in
            do throws(PayHandoffError) {
                var unusual = false  // canonical text escapes every such byte
                return .success(try POSResponse(text: text, bytes: bytes, from: 0, expecting: expectation, unusualBytes: &unusual))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
