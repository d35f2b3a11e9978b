@_spi(JSONText) import PayHandoff
import PayHandoffABI

/// What Square, SumUp or Clip would send back to a request (issue 39), composed from what the app
/// opened: `payhandoff pos answer --pos-app square|sumup|clip` plays the terminal app as
/// ``POSAnswer`` plays Billpocket. SumUp (both platforms) and Square on iOS answer by URL on the
/// request's callback, so the answer is a URL a simulator or emulator can open; Clip (always
/// `RESULT_OK`, the outcome in its extras) and Square on Android answer only by
/// `onActivityResult`, which adb cannot produce, so the answer is the `pos.result` event for
/// `payhandoff send`.
///
/// The request is read with the core's query decoder (SumUp) or the C ABI's JSON reader (Clip's
/// intent); its secrets are never read (SumUp's affiliate key may be `<redacted>`). Every answer is
/// read back by the core's own parser for that app, expecting the request's correlation value,
/// before it is handed out: one behaviour, one place.
enum POSAppAnswer {
    /// The answer composed: a URL (SumUp) or Android result extras (Clip).
    enum Composed {
        /// An answer URL (the callback with the app's parameters).
        case url(String)
        /// `onActivityResult`'s result code and extras.
        case activityResult(resultCode: Int64, extras: JSONValue)
    }

    /// What the request carried that an answer echoes.
    struct Request {
        /// The correlation value sent (`<identifier>~<token>`).
        var sent: String
        /// The amount asked for, if the request says.
        var amount: Amount?
        /// Clip's tip, if any.
        var tip: Amount?
        /// SumUp: the callback for a success and for anything else (the same on Android).
        var successCallback = ""
        var failureCallback = ""
    }

    /// The `--result` words per app.
    static func results(for app: POSApp) -> [String] {
        switch app {
        case .sumup: return ["approved", "declined", "error"]
        case .clip, .square: return ["approved", "error", "cancelled"]
        case .billpocket: return ["approved", "declined", "error"]
        }
    }

    // MARK: Square

    /// Square's request in `text`: the iOS URL (`square-commerce-v1://payment/create?data=<JSON>`,
    /// whose `state` the answer echoes on its `callback_url`), or the Android intent as JSON (or a
    /// document holding it under `intent`; its `com.squareup.pos.REQUEST_METADATA` is echoed).
    /// - Returns: The request, and whether it is Android's.
    /// - Throws: `malformed_url`, `invalid_json` naming `data` or `intent`, `validation` naming
    ///   `state` / `REQUEST_METADATA` / `callback_url` when missing.
    static func squareRequest(_ text: String) throws(PayHandoffError) -> (Request, android: Bool) {
        if text.hasPrefix("{") {
            let document = try JSONText.parse(text, parameter: "intent")
            let intent = document.value(at: "intent") ?? document
            guard case .array(let extras)? = intent.value(at: "extras") else {
                throw PayHandoffError(.invalidJSON, field: "intent.extras", "is not Square's intent (payhandoff pos sale --pos-app square --as android prints it)")
            }
            for extra in extras where extra.value(at: "key") == .string("com.squareup.pos.REQUEST_METADATA") {
                if case .string(let metadata)? = extra.value(at: "value") { return (Request(sent: metadata), true) }
            }
            throw PayHandoffError(.validation, field: "REQUEST_METADATA", "the intent has no com.squareup.pos.REQUEST_METADATA (the answer echoes it)")
        }
        let prefix = "square-commerce-v1://"
        guard String(decoding: text.utf8.prefix(prefix.utf8.count), as: UTF8.self).lowercased() == prefix,
              let question = text.firstIndex(of: "?") else {
            throw PayHandoffError(.malformedURL, field: "url",
                "is not a Square request: the URL the app opened starts with square-commerce-v1://payment/create?data= (or give the Android intent as JSON)")
        }
        let items = try QueryDecoder.decode(text[text.index(after: question)...], plus: .literal, caseInsensitiveKeys: false)
        guard let data = items.first(where: { $0.key == "data" })?.value else {
            throw PayHandoffError(.validation, field: "data", "the request has no data")
        }
        let document = try JSONText.parse(data, parameter: "data")
        guard case .string(let state)? = document.value(at: "state") else {
            throw PayHandoffError(.validation, field: "state", "the request has no state (the answer echoes it)")
        }
        guard case .string(let callback)? = document.value(at: "callback_url") else {
            throw PayHandoffError(.validation, field: "callback_url", "the request has no callback_url (the answer comes back on it)")
        }
        var request = Request(sent: state)
        request.successCallback = callback
        request.failureCallback = callback
        return (request, false)
    }

    /// Square's iOS answer (`SCCAPIResponse.m`): the callback with `data=<JSON>` — `status` `ok`
    /// with `transaction_id` and `client_transaction_id`, or `error` with `error_code`
    /// (`payment_canceled` for cancelled) — echoing `state`.
    static func squareURL(_ request: Request, result: String, word: String?, transactionID: String?, errorCode: String?,
                          using generator: inout some RandomNumberGenerator) -> String {
        var data = JSONObject()
        data["status"] = .string(word ?? (result == "approved" ? "ok" : "error"))
        if result == "approved" {
            data["transaction_id"] = .string(transactionID ?? "SRV" + String(100_000_000 + generator.next() % 900_000_000))
            data["client_transaction_id"] = .string("CLI" + String(100_000_000 + generator.next() % 900_000_000))
        } else {
            data["error_code"] = .string(errorCode ?? "payment_canceled")
        }
        data["state"] = .string(request.sent)
        let callback = request.successCallback
        return callback + (callback.contains("?") ? "&" : "?") + "data=" + QueryEncoder.percentEncode(JSONText.render(.object(data)))
    }

    /// Square's Android result (`PosApi.java`): `RESULT_OK` (-1) with `SERVER_TRANSACTION_ID`,
    /// `CLIENT_TRANSACTION_ID` and `REQUEST_METADATA`; `RESULT_CANCELED` (0) with `ERROR_CODE`
    /// (`ERROR_TRANSACTION_CANCELED` for cancelled, `ERROR_UNEXPECTED` for error unless told),
    /// `ERROR_DESCRIPTION` and `REQUEST_METADATA`.
    static func squareExtras(_ request: Request, result: String, transactionID: String?, errorCode: String?,
                             using generator: inout some RandomNumberGenerator) -> (resultCode: Int64, extras: JSONValue) {
        var extras = JSONObject()
        let prefix = "com.squareup.pos."
        if result == "approved" {
            extras[prefix + "CLIENT_TRANSACTION_ID"] = .string("CLI" + String(100_000_000 + generator.next() % 900_000_000))
            extras[prefix + "SERVER_TRANSACTION_ID"] = .string(transactionID ?? "SRV" + String(100_000_000 + generator.next() % 900_000_000))
        } else {
            extras[prefix + "ERROR_CODE"] = .string(errorCode ?? prefix + (result == "cancelled" ? "ERROR_TRANSACTION_CANCELED" : "ERROR_UNEXPECTED"))
            extras[prefix + "ERROR_DESCRIPTION"] = .string(result == "cancelled" ? "The transaction was canceled." : "Composed by payhandoff pos answer.")
        }
        extras[prefix + "REQUEST_METADATA"] = .string(request.sent)
        return (result == "approved" ? -1 : 0, .object(extras))
    }

    // MARK: SumUp

    /// The SumUp request `url` (`sumupmerchant://pay/1.0?…`, the iOS URL or the Android intent's data).
    /// - Throws: `malformed_url` for another URL; `validation` naming `foreign-tx-id` or `callback` when missing.
    static func sumUpRequest(_ url: String) throws(PayHandoffError) -> Request {
        let prefix = "sumupmerchant://"
        guard url.utf8.count > prefix.utf8.count, String(decoding: url.utf8.prefix(prefix.utf8.count), as: UTF8.self).lowercased() == prefix,
              let question = url.firstIndex(of: "?") else {
            throw PayHandoffError(.malformedURL, field: "url",
                "is not a SumUp request: the URL the app opened starts with sumupmerchant://pay/1.0? (payhandoff pos sale --pos-app sumup prints it)")
        }
        let items = try QueryDecoder.decode(url[url.index(after: question)...], plus: .literal, caseInsensitiveKeys: false)
        func value(_ key: String) -> String? { items.first { $0.key == key }.flatMap { $0.value.isEmpty ? nil : $0.value } }
        guard let sent = value("foreign-tx-id") else {
            throw PayHandoffError(.validation, field: "foreign-tx-id", "the request has no foreign-tx-id (the answer echoes it)")
        }
        var request = Request(sent: sent)
        if let text = value("total") ?? value("amount") { request.amount = try Amount(parsing: text, field: "amount") }
        if let callback = value("callback") {  // Android: one callback
            request.successCallback = callback
            request.failureCallback = callback
        } else if let success = value("callbacksuccess"), let failure = value("callbackfail") {
            request.successCallback = success
            request.failureCallback = failure
        } else {
            throw PayHandoffError(.validation, field: "callback", "the request names no callback (callbacksuccess and callbackfail on iOS, callback on Android)")
        }
        return request
    }

    /// SumUp's answer URL for `result`: `smp-status`, `smp-failure-cause` on failures,
    /// `smp-tx-code`, `smp-receipt-sent` on success, and `foreign-tx-id`, after the callback.
    /// - Parameters:
    ///   - request: The request read.
    ///   - result: approved, declined or error.
    ///   - word: `smp-status` instead of SumUp's word for `result` (to see an unknown word reconciled).
    ///   - transactionID: `smp-tx-code` (a fresh one on approval when nil).
    ///   - failureCause: `smp-failure-cause` instead of the default for `result`.
    /// - Returns: The answer URL and the callback it goes to.
    static func sumUpURL(_ request: Request, result: String, word: String?, transactionID: String?, failureCause: String?,
                         using generator: inout some RandomNumberGenerator) -> (url: String, callback: String) {
        var items: [QueryItem] = []
        let approved = result == "approved"
        items.append(QueryItem(key: "smp-status", value: word ?? (approved ? "success" : "failed")))
        if !approved {
            items.append(QueryItem(key: "smp-failure-cause", value: failureCause ?? (result == "declined" ? "transaction-failed" : "invalid-param")))
        }
        if let code = transactionID ?? (approved ? "TX" + String(100_000_000 + generator.next() % 900_000_000) : nil) {
            items.append(QueryItem(key: "smp-tx-code", value: code))
        }
        if approved { items.append(QueryItem(key: "smp-receipt-sent", value: "false")) }
        items.append(QueryItem(key: "foreign-tx-id", value: request.sent))
        let callback = approved ? request.successCallback : request.failureCallback
        return (callback + (callback.contains("?") ? "&" : "?") + QueryEncoder.encode(items), callback)
    }

    // MARK: Clip

    /// The Clip request in `text`: its intent (`{"action", "component", "extras"}`), or a document
    /// holding one under `intent` (what `pos sale --pos-app clip --json` and the `open_pos_app`
    /// effect print).
    /// - Throws: `invalid_json` for text that is not such a document; `validation` naming
    ///   `PAYMENT_REFERENCE` when the intent has none.
    static func clipRequest(_ text: String) throws(PayHandoffError) -> Request {
        let document = try JSONText.parse(text, parameter: "intent")
        let intent = document.value(at: "intent") ?? document
        guard case .array(let extras)? = intent.value(at: "extras") else {
            throw PayHandoffError(.invalidJSON, field: "intent.extras",
                "is not a Clip intent: give the intent the app started (payhandoff pos sale --pos-app clip prints it)")
        }
        func value(_ key: String) -> String? {
            for extra in extras where extra.value(at: "key") == .string(key) {
                if case .string(let text)? = extra.value(at: "value") { return text }
            }
            return nil
        }
        guard let reference = value("PAYMENT_REFERENCE") else {
            throw PayHandoffError(.validation, field: "PAYMENT_REFERENCE", "the intent has no PAYMENT_REFERENCE (the answer echoes it)")
        }
        var request = Request(sent: reference)
        if let amount = value("PAYMENT_AMOUNT") { request.amount = try Amount(parsing: amount, field: "PAYMENT_AMOUNT") }
        if let tip = value("PAYMENT_TIP_AMOUNT") { request.tip = try Amount(parsing: tip, field: "PAYMENT_TIP_AMOUNT") }
        return request
    }

    /// Clip's result extras for `result` (`ActivityClipResultManager`: always `RESULT_OK`):
    /// `PAYMENT_RESPONSE`, the JSON text of `PaymentResult` as Clip's SDK writes it (amounts as
    /// Java's `Double.toString()`: `100.0`, `1.0E7`), and on error `PAYMENT_ERROR`.
    static func clipExtras(_ request: Request, result: String, word: String?, amount: Amount?, transactionID: String?,
                           errorCode: String?, using generator: inout some RandomNumberGenerator) -> JSONValue {
        var payment = JSONObject()
        payment["reference"] = .string(request.sent)
        payment["status"] = .string(word ?? (result == "approved" ? "approved" : "error"))
        if let amount = amount ?? request.amount { payment["amount"] = .string(javaDoubleText(amount)) }
        if let tip = request.tip { payment["tipAmount"] = .string(javaDoubleText(tip)) }
        if let receipt = transactionID ?? (result == "approved" ? "R-" + String(100_000 + generator.next() % 900_000) : nil) {
            payment["receiptNumber"] = .string(receipt)
        }
        payment["wasSessionReplaced"] = false
        var extras = JSONObject()
        extras["PAYMENT_RESPONSE"] = .string(JSONText.render(.object(payment)))
        if result != "approved" { extras["PAYMENT_ERROR"] = .string(errorCode ?? (result == "cancelled" ? "CANCELLED" : "TERMINAL_ERROR")) }
        return .object(extras)
    }

    /// `amount` as Java's `Double.toString()` prints it (what Clip's SDK sends): at least one
    /// decimal (`100.0`, `100.5`), and from 10⁷ on computerized scientific notation (`1.0E7`,
    /// `1.23456789E7`). Exact for every amount Clip takes (at most 15 significant digits).
    static func javaDoubleText(_ amount: Amount) -> String {
        let text = amount.decimalString  // "100.00"
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        guard whole.count >= 8 else { return whole + "." + (fraction.isEmpty ? "0" : fraction) }
        var digits = whole + fraction
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        let mantissa = String(digits.prefix(1)) + "." + (digits.count > 1 ? String(digits.dropFirst()) : "0")
        return mantissa + "E" + String(whole.count - 1)
    }

    // MARK: reading back

    /// Reads the composed answer back with the core's parser for `app`, expecting `request.sent`
    /// (a URL on `callbackURL`, the callback it was composed for).
    /// - Throws: The core's error (an option such as `--transaction-id` that breaks a rule).
    static func check(_ composed: Composed, app: POSApp, request: Request, callbackURL: String = "") throws(PayHandoffError) {
        var options: JSONObject = ["pos_app": .string(app.rawValue), "identifier": .string(request.sent)]
        let reader = JSONValueReader()
        switch composed {
        case .url(let url):
            options["callback_url"] = .string(callbackURL)
            _ = try POSResponse.parseApp(url, options: JSONMembers(JSONValueReader.Node(.object(options)), reader), jsonText: JSONText.codec)
        case .activityResult(let code, let extras):
            options["result_code"] = .integer(code)
            _ = try POSResponse.parseApp(extras: (JSONValueReader.Node(extras), reader),
                                         options: JSONMembers(JSONValueReader.Node(.object(options)), reader), jsonText: JSONText.codec)
        }
    }
}
