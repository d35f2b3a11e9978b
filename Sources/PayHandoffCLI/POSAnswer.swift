import PayHandoff

/// What the Billpocket POS app would send back to a request, composed from the `billpocket://`
/// URL the app opened: `payhandoff pos answer` plays the POS app for a developer who has no
/// card reader, so that the app can be seen receiving an answer.
///
/// The request is read with the core's query decoder and checked by the core's request rules;
/// its user token is never read (a log prints `usertoken=<redacted>`, and the answer does not
/// carry it). The answer is checked by the core's answer parsers before it is handed out, so it
/// is one the app reads — and the coordinator routes exactly as it would route the POS app's.
struct POSAnswer {
    /// The request as the app sent it (its identifier is the one the coordinator sent,
    /// `<identifier>~<token>`), with a placeholder where the user token was.
    let request: POSRequest
    /// Approved, declined or error.
    var result: POSResponse.Result
    /// The word sent as `result`: Billpocket's word for ``result`` unless set (a later
    /// `--result-word` sets it to compose words the library may not know).
    var resultWord: String
    /// `statusinfo`: empty (the POS app sends `statusinfo=` when it has nothing to say), or on
    /// `error` the text a real cancelled sale carried.
    var statusInfo: String
    /// The amount, tip excluded: the request's unless told.
    var amount: Amount?
    /// The tip: the request's unless told.
    var tip: Amount?
    /// `transactionid`: a fresh numeric one on approval unless told.
    var transactionID: String?

    /// What an approval carries besides the request's values, in the table's order: these after
    /// `msi`, ``approvalTrailer`` after `identifier`. `bp_version` is the first version whose
    /// refunds the iOS POS app takes (see `RefundEligibility`), so a composed sale can be refunded
    /// in turn.
    static let approvalDetails = [
        QueryItem(key: "authorization", value: "A1B2C3"), QueryItem(key: "creditcard", value: "************4242"),
    ]
    /// The last fields of an approval (see ``approvalDetails``).
    static let approvalTrailer = [QueryItem(key: "accountType", value: "credit"), QueryItem(key: "bp_version", value: "4.3.24")]
    /// The `statusinfo` of the POS app's answer when a sale is cancelled in it (issue 30's answer seen in the wild).
    static let cancelledStatusInfo = "La transacción fue cancelada"

    /// Reads the request and composes the default answer for `result`.
    /// - Parameters:
    ///   - requestURL: The `billpocket://` URL the app opened (`usertoken=<redacted>` or none is fine).
    ///   - result: The answer's result.
    ///   - generator: Where a fresh transaction id comes from.
    /// - Throws: `malformed_url` for a URL that is not a Billpocket request (or whose query breaks
    ///   the query rule); `validation` naming `transaction`, `identifier` or `urlScheme` when the
    ///   request lacks what an answer needs, or naming the field that breaks a request rule.
    init(requestURL: String, result: POSResponse.Result, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) {
        request = try POSAnswer.readRequest(requestURL)
        self.result = result
        resultWord = result.billpocketValue
        statusInfo = result == .error ? POSAnswer.cancelledStatusInfo : ""
        amount = request.amount
        tip = request.tip
        transactionID = result == .approved ? String(100_000_000 + generator.next() % 900_000_000) : nil
    }

    /// The placeholder standing in for the user token, which is never read.
    private static let tokenPlaceholder = "redacted"

    /// The request in `url`, by the core's query rule (`+` literal, as in answers) and request rules.
    private static func readRequest(_ url: String) throws(PayHandoffError) -> POSRequest {
        let scheme = "billpocket://"
        guard url.utf8.count >= scheme.utf8.count,
              String(decoding: url.utf8.prefix(scheme.utf8.count), as: UTF8.self).lowercased() == scheme else {
            throw PayHandoffError(.malformedURL, field: "url",
                "is not a Billpocket request: the URL the app opened starts with billpocket:// (payhandoff send prints it as open_pos_app)")
        }
        var payload = Substring(url).dropFirst(scheme.count)
        if payload.first == "?" { payload = payload.dropFirst() }  // tolerated, as in answers
        var document = JSONObject()
        for item in try QueryDecoder.decode(payload, plus: .literal, caseInsensitiveKeys: true) {
            if item.key.lowercased() == "usertoken" { continue }  // never read, never printed
            switch item.key {
            case "msi": document[item.key] = Int64(item.value).map { .integer($0) } ?? .string(item.value)
            case "showPhotoButton", "mandatoryPhoto", "comesFromQR":
                document[item.key] = item.value == "true" ? .bool(true) : item.value == "false" ? .bool(false) : .string(item.value)
            default: document[item.key] = .string(item.value)
            }
        }
        for (key, why) in [("transaction", "venta or devolucion"), ("identifier", "the answer echoes it"),
                           ("urlScheme", "the POS app answers on it")] where document[key] == nil {
            throw PayHandoffError(.validation, field: key, "the request has no " + key + " (" + why + ")")
        }
        document["usertoken"] = .string(tokenPlaceholder)
        return try POSRequest(json: .object(document))
    }

    /// The answer's fields in the order of the Billpocket answer table, values decoded.
    var fields: [QueryItem] {
        var items: [QueryItem] = []
        func add(_ key: String, _ value: String?) {
            if let value { items.append(QueryItem(key: key, value: value)) }
        }
        add("result", resultWord)
        add("statusinfo", statusInfo)
        add("amount", amount?.decimalString)
        add("tip", tip?.decimalString)
        add("reference", request.reference)
        add("transactionid", transactionID)
        add("msi", request.msi.map { String($0) })
        if result == .approved { items += POSAnswer.approvalDetails }
        add("email", request.email)
        add("phone", request.phone)
        add("identifier", request.identifier)
        if result == .approved { items += POSAnswer.approvalTrailer }
        return items
    }

    /// The answer URL in the POS app's own form: `urlScheme://` directly followed by the fields
    /// (no `?`), escaped like `URLQueryAllowed` plus `&` — so `(`, `)`, `/`, `@`, `:`, `+`, `'`
    /// stay raw and `&`, `%`, `#`, spaces and non-ASCII are percent-encoded.
    var url: String {
        request.answerScheme + "://" + fields.map { POSAnswer.escaped($0.key) + "=" + POSAnswer.escaped($0.value) }.joined(separator: "&")
    }

    /// The result extras of the same answer on Android (`onActivityResult`): decoded text.
    var extras: JSONValue {
        var object = JSONObject()
        for item in fields { object[item.key] = .string(item.value) }
        return .object(object)
    }

    /// Reads the answer back with the core's parsers (URL and extras), expecting the request's
    /// identifier, so that only an answer the app can read is handed out.
    /// - Throws: The core's error naming the field an option broke (`transactionid`, …).
    func check() throws(PayHandoffError) {
        _ = try POSResponse.parse(url, urlScheme: request.urlScheme, expectedIdentifier: request.identifier)
        _ = try POSResponse.parse(extras: fields, expectedIdentifier: request.identifier)
    }

    /// `text` escaped as the POS app escapes a query value.
    static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if keptRaw(byte) {
                out.append(byte)
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `URLQueryAllowed` (letters, digits and ``!$&'()*+,-./:;=?@_~``) without `&`.
    private static func keptRaw(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!$'()*+,-./:;=?@_~".utf8.contains(byte)
        }
    }
}
