extension POSRequest {
    /// The JSON keys of a request document: the Billpocket request table's keys, and
    /// `android_action` (how Android starts the POS app; not sent in the URL).
    static let jsonKeys = [
        "transaction", "usertoken", "identifier", "amount", "urlScheme", "transactionId", "tip",
        "msi", "reference", "email", "phone", "showPhotoButton", "mandatoryPhoto", "comesFromQR", "android_action",
    ]
    private static let saleOnlyKeys = [
        "tip", "msi", "reference", "email", "phone", "showPhotoButton", "mandatoryPhoto", "comesFromQR",
    ]

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
        try json.rejectUnknownKeys(POSRequest.jsonKeys)
        let transaction = try json.string(at: "transaction")
        guard let operation = Operation(rawValue: transaction) else {
            throw PayHandoffError(.validation, field: "transaction", "must be \"venta\" or \"devolucion\"")
        }
        let userToken = try json.string(at: "usertoken")
        let identifier = try json.string(at: "identifier")
        let urlScheme = try json.string(at: "urlScheme")
        let amount = try json.optionalAmount(at: "amount")
        var action = AndroidAction.billpocketPaymentsStart
        if let given = try json.optionalString(at: "android_action") {
            guard let known = AndroidAction(rawValue: given) else {
                throw PayHandoffError(.validation, field: "android_action", "must be billpocket.payments.START or com.billpocket.payments.START")
            }
            action = known
        }
        switch operation {
        case .sale:
            if json.isPresent(at: "transactionId") {
                throw PayHandoffError(.validation, field: "transactionId", "is only allowed for a refund (devolucion)")
            }
            guard let amount else { throw PayHandoffError(.validation, field: "amount", "is required for a sale") }
            let msi = try json.optionalInteger(at: "msi")
            if let msi, !POSRequest.allowedInstallments.contains(where: { Int64($0) == msi }) {
                throw PayHandoffError(.validation, field: "msi", "must be 0, 3, 6, 9 or 12")
            }
            self = try .sale(
                userToken: userToken, identifier: identifier, amount: amount, urlScheme: urlScheme,
                tip: try json.optionalAmount(at: "tip"), msi: msi.map { Int($0) },
                reference: try json.optionalString(at: "reference"),
                email: try json.optionalString(at: "email"), phone: try json.optionalString(at: "phone"),
                showPhotoButton: try json.optionalBool(at: "showPhotoButton"),
                mandatoryPhoto: try json.optionalBool(at: "mandatoryPhoto"),
                comesFromQR: try json.optionalBool(at: "comesFromQR"))
        case .refund:
            for key in POSRequest.saleOnlyKeys where json.isPresent(at: key) {
                throw PayHandoffError(.validation, field: key, "is only allowed for a sale (venta)")
            }
            self = try .refund(
                userToken: userToken, identifier: identifier, urlScheme: urlScheme,
                transactionId: try json.string(at: "transactionId"), amount: amount)
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
        guard case .object(let object) = json, object.members.contains(where: { $0.key.hasSameBytes(as: "token") }) else {
            return (try POSRequest(json: json), nil)
        }
        var rest = JSONObject()
        for member in object.members where !member.key.hasSameBytes(as: "token") { rest.appendNewMember(member.key, member.value) }
        let request = try POSRequest(json: .object(rest))
        let token: String
        switch json.value(at: "token") {
        case .string(let given)?: token = given
        case .bool(true)?: token = CorrelationSecret.make(using: &generator)
        case .null?, nil: return (request, nil)
        case .bool(false)?: throw PayHandoffError(.validation, field: "token", "must be a token or true (for a fresh one)")
        case let other?: throw JSONValue.wrongType("token", expected: "a string or true", found: other)
        }
        return (try request.withToken(token), token)
    }

    /// The result document of building a request:
    /// `{"version": 1, "url": "billpocket://…", "fields": [{"key": "transaction", "value": "venta"}, …],
    /// "intent": {"action": "billpocket.payments.START", "package": "com.billpocket.billpocket",
    /// "extras": [{"key": "transaction", …}, {"key": "userToken", …}, …]}}`, plus `"identifier"`
    /// (as sent) and `"token"` when the identifier carries a token. The intent is how the POS app is started on Android (extras
    /// keyed like the URL's fields, but `userToken` in camelCase).
    /// It holds the user token (in `url`, `fields` and `intent`), because the host needs it to open the POS app.
    public var buildResultJSON: JSONValue {
        var writer = JSONValueWriter()
        writeBuildResult(token: nil, to: &writer)
        return writer.document
    }

    /// ``build(json:using:)`` and its result document in one call (what the C ABI's
    /// `payhandoff_pos_build_url` answers).
    /// - Parameters:
    ///   - json: The build document.
    ///   - generator: The random source for a fresh token (`"token": true`).
    /// - Returns: The result document, with `identifier` and `token` when a token was added.
    /// - Throws: As ``build(json:using:)``.
    public static func buildResultJSON(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> JSONValue {
        let (request, token) = try build(json: json, using: &generator)
        var writer = JSONValueWriter()
        request.writeBuildResult(token: token, to: &writer)
        return writer.document
    }

    /// Writes ``buildResultJSON`` to `writer` (the C ABI prints it without making a `JSONValue`).
    /// - Parameters:
    ///   - token: The token the identifier carries, if any (then `identifier` and `token` are written).
    ///   - writer: Where the document goes.
    @_spi(JSONText)
    public func writeBuildResult<W: JSONWriter>(token: String?, to writer: inout W) {
        /// The fields as `{"key", "value"}` pairs; the token's key (at `tokenIndex`) spelled `tokenKey`.
        func list(_ items: [QueryItem], tokenIndex: Int?, tokenKey: String, to writer: inout W) {
            writer.array(count: items.count) { writer in
                for (index, item) in items.enumerated() {
                    writer.object(count: 2) { pair in
                        pair.member("key", string: index == tokenIndex ? tokenKey : item.key)
                        pair.member("value", string: item.value)
                    }
                }
            }
        }
        // The fields are built once, in the URL style (also for ``url``); the intent extras differ
        // only in the token's key.
        let urlFields = fields(keyStyle: .urlScheme)
        let tokenIndex = urlFields.firstIndex { $0.key.hasSameBytes(as: KeyStyle.urlScheme.tokenKey) }
        let url = QueryEncoder.encode(urlFields, after: "billpocket://")
        assert(url.hasSameBytes(as: self.url), "buildResultJSON: url differs from POSRequest.url")
        writer.object(count: token == nil ? 4 : 6) { result in
            result.member("version", 1)
            result.member("url", string: url)
            result.key("fields")
            list(urlFields, tokenIndex: tokenIndex, tokenKey: KeyStyle.urlScheme.tokenKey, to: &result)
            result.key("intent")
            result.object(count: 3) { intent in
                intent.member("action", string: androidAction.rawValue)
                intent.member("package", string: POSRequest.androidPackage)
                intent.key("extras")
                list(urlFields, tokenIndex: tokenIndex, tokenKey: KeyStyle.androidIntent.tokenKey, to: &intent)
            }
            if let token {
                result.member("identifier", string: identifier)
                result.member("token", string: token)
            }
        }
    }
}
