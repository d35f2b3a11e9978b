extension POSRequest {
    /// The JSON keys of a request document: the Billpocket request table's keys, and
    /// `android_action` (how Android starts the POS app; not sent in the URL).
    static let jsonKeys: StaticString = "pos_app currency transaction usertoken identifier amount urlScheme transactionId tip msi reference email phone showPhotoButton mandatoryPhoto comesFromQR android_action"
    /// A build document's keys: a request's, and `token`.
    private static let buildJSONKeys: StaticString = "pos_app currency transaction usertoken identifier amount urlScheme transactionId tip msi reference email phone showPhotoButton mandatoryPhoto comesFromQR android_action token"
    private static let saleOnlyKeys: StaticString = "tip msi reference email phone showPhotoButton mandatoryPhoto comesFromQR"

    /// A request from its JSON document, keyed exactly like the Billpocket request table:
    /// `{"transaction": "venta", "usertoken": "…", "identifier": "ord-1", "amount": "100.00",
    /// "urlScheme": "myapp", "tip": "15.00", "msi": 3, …}`. Amounts are decimal text or integer
    /// minor units; `msi` an integer; the photo/QR flags booleans; `android_action`
    /// `"billpocket.payments.START"` (default) or `"com.billpocket.payments.START"`.
    /// - Parameter json: The request document.
    /// - Throws: `validation` for an unknown key, a key the operation refuses (e.g. `tip` on a
    ///   refund, `transactionId` on a sale), or any rule of the request table; `invalid_json`
    ///   for a value of the wrong JSON type.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameters:
    ///   - json: The request document's members.
    ///   - allowed: The keys it may have (a build document's also `token`).
    /// - Throws: As ``init(json:)``.
    @_spi(JSONText)
    public init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        try self.init(reading: json, allowed: POSRequest.jsonKeys)
    }

    private init<R: JSONReader>(reading json: JSONMembers<R>, allowed: StaticString) throws(PayHandoffError) {
        let app = try json.isObject ? POSApp.reading(json) : .billpocket
        if app != .billpocket {
            self = try POSRequest.reading(app: app, json, allowingToken: allowed.utf8CodeUnitCount == POSRequest.buildJSONKeys.utf8CodeUnitCount)
            return
        }
        try json.rejectUnknownKeys(allowed)
        try Currency.checkPesosOnly(json, app: .billpocket)
        let transaction = try json.string("transaction")
        guard let operation = Operation(rawValue: transaction) else {
            throw PayHandoffError(.validation, field: "transaction", "must be \"venta\" or \"devolucion\"")
        }
        let userToken = try json.string("usertoken")
        let identifier = try json.string("identifier")
        let urlScheme = try json.string("urlScheme")
        let amount = try json.optionalAmount("amount")
        var action = AndroidAction.billpocketPaymentsStart
        if let given = try json.optionalString("android_action") {
            guard let known = AndroidAction(rawValue: given) else {
                throw PayHandoffError(.validation, field: "android_action", "must be billpocket.payments.START or com.billpocket.payments.START")
            }
            action = known
        }
        switch operation {
        case .sale:
            if json.isPresent("transactionId") {
                throw PayHandoffError(.validation, field: "transactionId", "is only allowed for a refund (devolucion)")
            }
            guard let amount else { throw PayHandoffError(.validation, field: "amount", "is required for a sale") }
            let msi = try json.optionalInteger("msi")
            if let msi, !POSRequest.allowedInstallments.contains(where: { Int64($0) == msi }) {
                throw PayHandoffError(.validation, field: "msi", "must be 0, 3, 6, 9 or 12")
            }
            self = try .sale(
                userToken: userToken, identifier: identifier, amount: amount, urlScheme: urlScheme,
                tip: try json.optionalAmount("tip"), msi: msi.map { Int($0) },
                reference: try json.optionalString("reference"),
                email: try json.optionalString("email"), phone: try json.optionalString("phone"),
                showPhotoButton: try json.optionalBool("showPhotoButton"),
                mandatoryPhoto: try json.optionalBool("mandatoryPhoto"),
                comesFromQR: try json.optionalBool("comesFromQR"))
        case .refund:
            if let key = json.firstPresent(of: POSRequest.saleOnlyKeys) {
                throw PayHandoffError(.validation, field: key, "is only allowed for a sale (venta)")
            }
            self = try .refund(
                userToken: userToken, identifier: identifier, urlScheme: urlScheme,
                transactionId: try json.string("transactionId"), amount: amount)
        }
        androidAction = action
    }

    /// The request of a build document: the request's own members plus an optional `"token"`
    /// (a ``CorrelationSecret``, or `true` for a fresh one from `generator`) appended to the
    /// identifier with ``withToken(_:)``.
    /// - Parameters:
    ///   - json: The build document.
    ///   - generator: The random source for a fresh token.
    /// - Returns: The request to send and the token, if one was added.
    /// - Throws: As ``init(json:)``; `validation`/`invalid_json` naming `token`.
    public static func build(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> (POSRequest, token: String?) {
        try build(reading: JSONMembers(json), using: &generator)
    }

    /// ``build(json:using:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameters:
    ///   - json: The build document's members.
    ///   - generator: The random source for a fresh token.
    /// - Returns: The request to send and the token, if one was added.
    /// - Throws: As ``build(json:using:)``.
    @_spi(JSONText)
    public static func build<R: JSONReader>(reading json: JSONMembers<R>,
                                            using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> (POSRequest, token: String?) {
        guard json.isObject, let object = json.node, json.reader.member(StaticString("token").bytes, of: object) != nil else {
            return (try POSRequest(reading: json), nil)
        }
        let request = try POSRequest(reading: json, allowed: POSRequest.buildJSONKeys)
        let token: String
        guard let given = json.value("token") else { return (request, nil) }
        switch json.reader.kind(of: given) {
        case .string: token = json.reader.string(given)
        case .bool:
            guard json.reader.bool(given) else { throw PayHandoffError(.validation, field: "token", "must be a token or true (for a fresh one)") }
            token = CorrelationSecret.make(using: &generator)
        case let other: throw JSONMembers<R>.wrongType("token", expected: "a string or true", found: other)
        }
        return (try request.withToken(token), token)
    }

    /// The result document of building a request:
    /// `{"version": 1, "pos_app": "billpocket", "url": "billpocket://…", "fields": [{"key": "transaction", "value": "venta"}, …],
    /// "intent": {"action": "billpocket.payments.START", "package": "com.billpocket.billpocket",
    /// "extras": [{"key": "transaction", …}, {"key": "userToken", …}, …]}}`, plus `"identifier"`
    /// (as sent) and `"token"` when the identifier carries a token. The intent is how the POS app is started on Android (extras
    /// keyed like the URL's fields, but `userToken` in camelCase).
    /// It holds the user token (in `url`, `fields` and `intent`), because the host needs it to open the POS app.
    public var buildResultJSON: JSONValue {
        let writer = JSONValueWriter()
        writeBuildResult(token: nil, to: writer)
        return writer.document
    }

    /// ``build(json:using:)`` and its result document in one call (what the C ABI's
    /// `payhandoff_pos_build_url` answers).
    /// - Parameters:
    ///   - json: The build document.
    ///   - generator: The random source for a fresh token (`"token": true`).
    /// - Returns: The result document, with `identifier` and `token` when a token was added.
    ///   Secret-bearing: it holds the user token and the token (the host needs them to open the POS
    ///   app); a `JSONValue` prints whole, so never log it.
    /// - Throws: As ``build(json:using:)``.
    public static func buildResultJSON(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> JSONValue {
        try buildResultJSON(json: json, using: &generator, jsonText: JSONTextCodec())
    }

    /// ``buildResultJSON(json:using:)`` with the codec that prints Square's iOS request (JSON
    /// text in its URL; PayHandoffFoundation's `FoundationJSONText`).
    /// - Parameters:
    ///   - json: The build document.
    ///   - generator: The random source for a fresh token (`"token": true`).
    ///   - jsonText: The codec.
    /// - Returns: The result document.
    /// - Throws: As ``buildResultJSON(json:using:)``, and what `jsonText` throws.
    public static func buildResultJSON(json: JSONValue, using generator: inout some RandomNumberGenerator,
                                       jsonText: JSONTextCodec) throws(PayHandoffError) -> JSONValue {
        let (request, token) = try build(json: json, using: &generator)
        let url = try request.handoffURL(jsonText: jsonText)
        let writer = JSONValueWriter()
        request.writeBuildResult(token: token, handoffURL: url, to: writer)
        return writer.document
    }

    /// Writes ``buildResultJSON`` to `writer` (the C ABI prints it without making a `JSONValue`).
    /// - Parameters:
    ///   - token: The token the identifier carries, if any (then `identifier` and `token` are written).
    ///   - writer: Where the document goes.
    @_spi(JSONText)
    public func writeBuildResult(token: String?, to writer: JSONWriter) {
        writeBuildResult(token: token, handoffURL: url.isEmpty ? nil : url, to: writer)
    }

    /// Writes the build result with the hand-off URL already made (``handoffURL(jsonText:)``:
    /// Square's needs the codec, which may throw, so it is made before writing).
    /// - Parameters:
    ///   - token: The token the identifier carries, if any.
    ///   - handoffURL: The URL to write (`nil`: none, as for Clip). Billpocket writes its own.
    ///   - writer: Where the document goes.
    @_spi(JSONText)
    public func writeBuildResult(token: String?, handoffURL: String?, to writer: JSONWriter) {
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("pos_app", string: posApp.rawValue)
        if posApp == .billpocket {
            // Billpocket: its URL and its fields as `{"key", "value"}` pairs, built once in the URL
            // style (as ``url`` builds them; the intent's extras differ only in the token's key).
            let urlFields = billpocketFields(keyStyle: .urlScheme)
            writer.member("url", string: QueryEncoder.encode(urlFields, after: "billpocket://"))
            writer.beginArray("fields")
            for item in urlFields {
                writer.beginObject()
                writer.member("key", string: item.key)
                writer.member("value", string: item.value)
                writer.end()
            }
            writer.end()
        } else {
            // The other apps: the URL where there is one (SumUp, Square), the intent; no `fields`.
            writer.optionalMember("url", string: handoffURL)
        }
        writer.key("intent")
        intent.write(to: writer)
        if let token {
            writer.member("identifier", string: identifier)
            writer.member("token", string: token)
        }
        writer.end()
    }
}
