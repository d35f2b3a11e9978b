/// Billpocket on Android: the POS app is started with an intent and answers through
/// `onActivityResult` with result extras — key/value pairs that are already decoded text, not a
/// URL. They are read by the rules of a URL answer, so both channels give the same answer.
extension POSResponse {
    /// The default action of the intent that starts the Billpocket POS app on Android (see
    /// ``POSRequest/AndroidAction`` for both actions in use and why this one is the default).
    public static let androidIntentAction = POSRequest.AndroidAction.billpocketPaymentsStart.rawValue

    /// Reads an answer given as Android result extras.
    ///
    /// The rules of ``parse(_:urlScheme:expectedIdentifier:token:)``, except that nothing is
    /// percent-decoded (a value `%41` stays `%41`): keys are matched ignoring ASCII case and may
    /// not repeat in any case, an echoed secret (`usertoken`, `userToken`, `pin`, `PIN`, …) is dropped,
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
        let anyEmptyKey = extras.contains { $0.key.isEmpty }
        // Joined into query text, the pairs are read by the URL rules themselves, with no second
        // parser: the same key checks, the same repeat rule (ignoring case), the same fields.
        let text = QueryEncoder.joinForReading(extras)
        let outcome = text.withUTF8Buffer { bytes -> Swift.Result<POSResponse, PayHandoffError> in
            do throws(PayHandoffError) {
                // The join escapes no U+0000: one look at the text says whether a pair needs its own.
                if anyEmptyKey || bytes.contains(0) { try checkEachExtra(extras) }
                var unusual = false  // raw bytes are fine here: the pairs are text, not a URL
                return .success(try POSResponse(text: text, bytes: bytes, from: 0, expecting: expectation, unusualBytes: &unusual))
            } catch where error.code == .malformedURL {
                // The joined text is well formed by construction: the one thing the query rule can
                // find wrong with it is a key repeated in another case.
                return .failure(PayHandoffError(.validation, field: error.field, "appears twice (result extra keys are case-insensitive)"))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The first pair with an empty key or a U+0000, in order, refused.
    @inline(never)
    static func checkEachExtra(_ extras: [QueryItem]) throws(PayHandoffError) {
        for item in extras {
            guard !item.key.isEmpty else { throw PayHandoffError(.validation, field: nil, "a result extra has an empty key") }
            let keyHasNUL = ASCII.containsNUL(item.key)
            if keyHasNUL || ASCII.containsNUL(item.value) {
                throw PayHandoffError(.validation, field: keyHasNUL ? nil : item.key, "must not contain U+0000")
            }
        }
    }
}
