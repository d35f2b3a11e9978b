/// Square Point of Sale's answers.
///
/// iOS (square/SquarePointOfSaleSDK-iOS `Sources/SCCAPIResponse.m`): the callback URL with
/// `data=<JSON>` — `status` `ok | error`, `transaction_id`, `client_transaction_id`,
/// `error_code`, `state` (the SDK may have put `square_request` as the host or last path
/// segment: answers are routed by the callback's scheme and tied to the sale by `state`, so
/// both arrive). Android (`PosApi.java`): result extras `com.squareup.pos.SERVER_TRANSACTION_ID`,
/// `CLIENT_TRANSACTION_ID`, `REQUEST_METADATA` on `RESULT_OK`; `ERROR_CODE`, `ERROR_DESCRIPTION`
/// on `RESULT_CANCELED`.
///
/// Mapping (docs/rules.md, *Square*): `ok` / no error code is approved, its `transactionid` the
/// server transaction id, else the client one; neither is `unrecognized` (reconcile). Cancelled
/// (`payment_canceled`, `com.squareup.pos.ERROR_TRANSACTION_CANCELED`) is cancelled;
/// `ERROR_NO_RESULT` is `unrecognized` (and, without `REQUEST_METADATA`, a coordinator's
/// `returned_without_response`); on Android another code `PosApi.java` lists is error and an
/// unknown one `unrecognized`; on iOS every other `error_code` is error (the SDK's rule: its
/// code list, `NSError+SCCAPIAdditions.m`, was not read here), `error` without one or an
/// unknown status `unrecognized`. Square echoes no amount: an approval is for the amount sent.
extension POSResponse {
    /// Square's Android error codes (`PosApi.java`), one text of space-separated words
    /// (searched by bytes with ``Swift/StaticString/hasWord(_:)``: an array of strings cost a
    /// kilobyte, a search of its own half of one).
    static let squareAndroidErrors: StaticString = "com.squareup.pos.ERROR_NO_EMPLOYEE_LOGGED_IN com.squareup.pos.ERROR_GIFT_CARDS_NOT_SUPPORTED com.squareup.pos.ERROR_INVALID_REQUEST com.squareup.pos.ERROR_DISABLED com.squareup.pos.ERROR_ILLEGAL_LOCATION_ID com.squareup.pos.ERROR_INSUFFICIENT_CARD_BALANCE com.squareup.pos.ERROR_NO_NETWORK com.squareup.pos.ERROR_TRANSACTION_ALREADY_IN_PROGRESS com.squareup.pos.ERROR_UNAUTHORIZED_CLIENT_ID com.squareup.pos.ERROR_UNEXPECTED com.squareup.pos.ERROR_USER_NOT_LOGGED_IN com.squareup.pos.ERROR_USER_NOT_ACTIVATED com.squareup.pos.ERROR_CUSTOMER_MANAGEMENT_NOT_SUPPORTED com.squareup.pos.ERROR_INVALID_CUSTOMER_ID com.squareup.pos.UNSUPPORTED_API_VERSION"

    /// Whether `code` is one of ``squareAndroidErrors``.
    static func isSquareAndroidError(_ code: String) -> Bool {
        squareAndroidErrors.hasWord(code)
    }

    /// Reads Square's iOS answer URL (`<callback>?data=<JSON>`).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - callbackScheme: The scheme of the request's `callback_url`.
    ///   - expectation: Which `state`s it may echo.
    ///   - jsonText: The codec that reads `data`.
    /// - Returns: The answer (``posApp`` `square`).
    /// - Throws: `malformed_url`, `callback_mismatch` (scheme, `identifier`), `invalid_json`
    ///   naming `data`, `validation` naming `identifier` when there is no `state`.
    static func parseSquare(_ url: String, callbackScheme: String, expecting expectation: IdentifierExpectation,
                            jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        let items = try CallbackURL.query(of: url, scheme: callbackScheme)
        guard let text = items.value("data") else {
            throw PayHandoffError(.validation, field: "data", "the answer has no data, so no state: it cannot be tied to this sale")
        }
        guard case .object(let object) = try jsonText.parse(text, field: "data") else {
            throw PayHandoffError(.invalidJSON, field: "data", "must be a JSON object")
        }
        let json = AnswerDocument(object: object, path: "")  // errors name Square's member
        guard let state = try json.string("state"), !state.isEmpty else {
            throw PayHandoffError(.validation, field: "state", "the answer has no state: it cannot be tied to this sale")
        }
        try POSResponse.check(state, against: expectation)
        let status = try json.string("status")
        guard !status.isNone else { throw PayHandoffError(.validation, field: "status", "the answer has no status") }
        let code = try json.string("error_code")
        let server = try json.string("transaction_id")
        let client = try json.string("client_transaction_id")
        // The iOS SDK counts every error_code as the API's error (SCCAPIResponse.m); without
        // one the SDK refuses the answer, PayHandoff reconciles it.
        let result = decide("ok * a error payment_canceled c error - u error * e", status: status, code: code,
                            proven: !server.isNone || !client.isNone)
        // Square's answer is its data document: the URL's other keys and the document's other
        // members are not kept (as Square's SDK reads only `data`).
        return try appAnswer(.square, result, word: status, echo: state, transactionID: status.isWord("ok") ? server ?? client : nil,
                             idKey: server.isNone ? "client_transaction_id" : "transaction_id", extra: [], errorCode: code)
    }

    /// Whether Square's Android extras are `ERROR_NO_RESULT` without the echo: the one answer
    /// Square documents without `REQUEST_METADATA` (a coordinator treats it as no data at all).
    static func isSquareNoResult(_ extras: [QueryItem]) -> Bool {
        extras.value("com.squareup.pos.ERROR_CODE").isWord("com.squareup.pos.ERROR_NO_RESULT")
            && extras.value("com.squareup.pos.REQUEST_METADATA").isNone
    }

    /// Reads Square's Android result extras.
    /// - Parameters:
    ///   - extras: The result extras.
    ///   - expectation: Which `REQUEST_METADATA` values they may echo.
    /// - Returns: The answer (``posApp`` `square`).
    /// - Throws: `validation` naming `identifier` without `REQUEST_METADATA`; `callback_mismatch`.
    static func parseSquare(extras: [QueryItem], expecting expectation: IdentifierExpectation) throws(PayHandoffError) -> POSResponse {
        try POSResponse.checkEachExtra(extras)
        guard let metadata = extras.value("com.squareup.pos.REQUEST_METADATA") else {
            throw PayHandoffError(.validation, field: "com.squareup.pos.REQUEST_METADATA", "the answer has no REQUEST_METADATA: it cannot be tied to this sale")
        }
        try POSResponse.check(metadata, against: expectation)
        let code = extras.value("com.squareup.pos.ERROR_CODE")
        let server = extras.value("com.squareup.pos.SERVER_TRANSACTION_ID")
        let client = extras.value("com.squareup.pos.CLIENT_TRANSACTION_ID")
        let result: Result
        if let code {
            if code.hasSameBytes(as: "com.squareup.pos.ERROR_TRANSACTION_CANCELED") {
                result = .cancelled
            } else {
                result = isSquareAndroidError(code) ? .error : .unrecognized  // ERROR_NO_RESULT and unknown codes: reconcile
            }
        } else {
            result = server.isNone && client.isNone ? .unrecognized : .approved
        }
        let extra = extras.removing("com.squareup.pos.REQUEST_METADATA com.squareup.pos.SERVER_TRANSACTION_ID com.squareup.pos.CLIENT_TRANSACTION_ID com.squareup.pos.ERROR_CODE")
        return try appAnswer(.square, result, word: code, echo: metadata, transactionID: server ?? client,
                             idKey: server.isNone ? "com.squareup.pos.CLIENT_TRANSACTION_ID" : "com.squareup.pos.SERVER_TRANSACTION_ID",
                             extra: extra, errorCode: code)
    }
}
