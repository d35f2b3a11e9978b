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
    /// Square's Android error codes (`PosApi.java`), each after `com.squareup.pos.`, one text
    /// of space-separated words (searched by bytes: an array of strings cost a kilobyte).
    static let squareAndroidErrors: StaticString = "ERROR_NO_EMPLOYEE_LOGGED_IN ERROR_GIFT_CARDS_NOT_SUPPORTED ERROR_INVALID_REQUEST ERROR_DISABLED ERROR_ILLEGAL_LOCATION_ID ERROR_INSUFFICIENT_CARD_BALANCE ERROR_NO_NETWORK ERROR_TRANSACTION_ALREADY_IN_PROGRESS ERROR_UNAUTHORIZED_CLIENT_ID ERROR_UNEXPECTED ERROR_USER_NOT_LOGGED_IN ERROR_USER_NOT_ACTIVATED ERROR_CUSTOMER_MANAGEMENT_NOT_SUPPORTED ERROR_INVALID_CUSTOMER_ID UNSUPPORTED_API_VERSION"

    /// Whether `code` is `com.squareup.pos.` followed by one of ``squareAndroidErrors``.
    static func isSquareAndroidError(_ code: String) -> Bool {
        let prefix: StaticString = "com.squareup.pos."
        let bytes = Array(code.utf8)
        guard bytes.count > prefix.utf8CodeUnitCount,
              bytes[..<prefix.utf8CodeUnitCount].elementsEqual(UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)) else {
            return false
        }
        let name = bytes[prefix.utf8CodeUnitCount...]
        let words = UnsafeBufferPointer(start: squareAndroidErrors.utf8Start, count: squareAndroidErrors.utf8CodeUnitCount)
        var start = 0
        while start < words.count {
            var end = start
            while end < words.count, words[end] != UInt8(ascii: " ") { end += 1 }
            if name.elementsEqual(words[start..<end]) { return true }
            start = end + 1
        }
        return false
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
        let document = try jsonText.parse(text, field: "data")
        let json = JSONMembers(JSONValueReader.Node(document), JSONValueReader())  // errors name Square's member
        guard json.isObject else { throw PayHandoffError(.invalidJSON, field: "data", "must be a JSON object") }
        guard let state = try json.optionalString("state"), !state.isEmpty else {
            throw PayHandoffError(.validation, field: "state", "the answer has no state: it cannot be tied to this sale")
        }
        try POSResponse.check(state, against: expectation)
        let status = try json.optionalString("status")
        guard !status.isNone else { throw PayHandoffError(.validation, field: "status", "the answer has no status") }
        let code = try json.optionalString("error_code")
        let server = try json.optionalString("transaction_id")
        let client = try json.optionalString("client_transaction_id")
        let result: Result
        if status.isWord("ok") {
            result = server.isNone && client.isNone ? .unrecognized : .approved
        } else if status.isWord("error") {
            // The iOS SDK counts every error_code as the API's error (SCCAPIResponse.m); without
            // one the SDK refuses the answer, PayHandoff reconciles it.
            if code.isWord("payment_canceled") { result = .cancelled }
            else { result = code.isNone ? .unrecognized : .error }
        } else {
            result = .unrecognized
        }
        // Square's answer is its data document: the URL's other keys and the document's other
        // members are not kept (as Square's SDK reads only `data`).
        let extra: [QueryItem] = []
        return try naming(server.isNone ? "client_transaction_id" : "transaction_id") { () throws(PayHandoffError) in
            try squareAnswer(result: result, word: status, state: state, id: status.isWord("ok") ? server ?? client : nil, code: code, extra: extra)
        }
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
        let extra = extras.filter { !$0.key.hasSameBytes(as: "com.squareup.pos.REQUEST_METADATA")
            && !$0.key.hasSameBytes(as: "com.squareup.pos.SERVER_TRANSACTION_ID")
            && !$0.key.hasSameBytes(as: "com.squareup.pos.CLIENT_TRANSACTION_ID") && !$0.key.hasSameBytes(as: "com.squareup.pos.ERROR_CODE") }
        return try naming(server.isNone ? "com.squareup.pos.CLIENT_TRANSACTION_ID" : "com.squareup.pos.SERVER_TRANSACTION_ID") { () throws(PayHandoffError) in
            try squareAnswer(result: result, word: code, state: metadata, id: server ?? client, code: code, extra: extra)
        }
    }

    private static func squareAnswer(result: Result, word: String?, state: String, id: String?, code: String?,
                                     extra: [QueryItem]) throws(PayHandoffError) -> POSResponse {
        var fields = [QueryItem(key: "identifier", value: state)]
        if let id { fields.append(QueryItem(key: "transactionid", value: id)) }
        return try POSResponse(posApp: .square, result: result, word: word, items: fields, extra: extra, errorCode: code)
    }
}
