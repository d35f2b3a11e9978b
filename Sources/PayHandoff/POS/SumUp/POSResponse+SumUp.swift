/// SumUp's answer: the callback URL with `smp-status` (`success | failed | invalidstate`),
/// `smp-failure-cause` (`transaction-failed | geolocation-required | invalid-param |
/// invalid-token`), `smp-message`, `smp-receipt-sent`, `smp-tx-code` and the echoed
/// `foreign-tx-id` (sumup/sumup-ios-url-scheme and sumup/sumup-android-url-scheme READMEs).
///
/// Mapping (docs/rules.md, *SumUp*): `success` with an `smp-tx-code` is approved (the code is the
/// answer's `transactionid`; SumUp echoes no amount, so the approval is for the amount sent);
/// `success` without one is `unrecognized` (reconcile: sumup-android-sdk #195 reports success with
/// empty extras); `failed` + `transaction-failed` is declined; `failed` + `invalid-param`,
/// `invalid-token` or `geolocation-required` is error, as is `invalidstate`; `failed` with no or
/// another cause, and any other status, is `unrecognized`. An answer without the echoed
/// `foreign-tx-id` moves nothing.
extension POSResponse {
    /// Reads SumUp's answer URL.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - callbackScheme: The scheme of the request's `callback_url`.
    ///   - expectation: Which `foreign-tx-id`s it may echo.
    /// - Returns: The answer (``posApp`` `sumup`).
    /// - Throws: `limit_exceeded`, `malformed_url`; `callback_mismatch` naming `scheme` or
    ///   `identifier`; `validation` naming `identifier` when there is no `foreign-tx-id`, or
    ///   `transactionid` for an `smp-tx-code` that breaks the id rule.
    static func parseSumUp(_ url: String, callbackScheme: String, expecting expectation: IdentifierExpectation) throws(PayHandoffError) -> POSResponse {
        let items = try CallbackURL.query(of: url, scheme: callbackScheme)
        guard let echoed = items.value("foreign-tx-id") else {
            throw PayHandoffError(.validation, field: "foreign-tx-id", "the answer has no foreign-tx-id: it cannot be tied to this sale")
        }
        try POSResponse.check(echoed, against: expectation)
        let status = items.value("smp-status")
        guard !status.isNone else { throw PayHandoffError(.validation, field: "smp-status", "the answer has no smp-status") }
        let cause = items.value("smp-failure-cause")
        let code = items.value("smp-tx-code")
        let result = decide("success * a failed transaction-failed d failed invalid-param e failed invalid-token e failed geolocation-required e invalidstate * e",
                            status: status, code: cause, proven: !code.isNone)
        // An echoed affiliate key (SumUp documents none; a callback URL could carry one) is a
        // secret: POSResponse(posApp:…) drops it, never stored, as Billpocket's echoed user token is.
        return try appAnswer(.sumup, result, word: status, echo: echoed, transactionID: code, idKey: "smp-tx-code",
                             extra: items.removing("foreign-tx-id smp-tx-code smp-status"), errorCode: nil)
    }

    /// Refuses an echoed correlation value `expectation` does not accept.
    /// - Throws: `callback_mismatch` naming `identifier`.
    static func check(_ echoed: String, against expectation: IdentifierExpectation) throws(PayHandoffError) {
        guard echoed.withUTF8Buffer({ expectation.accepts($0) }) else {
            throw PayHandoffError(.callbackMismatch, field: "identifier", "the answer's identifier does not match the pending request")
        }
    }
}
