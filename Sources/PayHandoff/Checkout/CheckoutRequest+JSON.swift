extension CheckoutRequest {
    static let commonJSONKeys = ["kind", "api_key", "base_url", "integration", "return_url", "nonce", "fields"]
    static let cardJSONKeys = ["provider", "customer_id", "target_origin", "customer"]
    private static let cardRequestJSONKeys = commonJSONKeys + cardJSONKeys
    private static let customerJSONKeys = ["name", "lastname", "email", "phone"]

    /// A request from its document. Card registration:
    /// `{"kind": "cards", "api_key": "sk_test_…", "return_url": "fixapp://checkout-callback",
    /// "provider": "dinelco", "customer_id": "cus_1", "target_origin": ["https://fix.example.com"],
    /// "customer": {"name": "Juan", "lastname": "Pérez", "email": "juan@example.com", "phone": "+595981234567"}}`.
    /// Payment: `{"kind": "payments", "api_key": "…", "return_url": "…", "fields": {"amount": 10000, …}}`.
    /// Optional for both: `base_url`, `integration` (`browser_tab` | `iframe`), `fields` (extra
    /// body fields), `nonce` (read by ``buildResultJSON(json:using:)``).
    /// - Parameter json: The document.
    /// - Throws: `validation` (unknown or misplaced key, any rule), `invalid_json` (wrong type).
    public init(json: JSONValue) throws(PayHandoffError) {
        let kind = try CheckoutKind(parsing: try json.string(at: "kind"), field: "kind")
        try json.rejectUnknownKeys(kind == .cards ? CheckoutRequest.cardRequestJSONKeys : CheckoutRequest.commonJSONKeys)
        let apiKey = try json.string(at: "api_key")
        let baseURL = try json.optionalString(at: "base_url") ?? CheckoutRequest.defaultBaseURL
        var integration = Integration.browserTab
        if let text = try json.optionalString(at: "integration") {
            guard let value = Integration(rawValue: text) else {
                throw PayHandoffError(.validation, field: "integration", "must be \"browser_tab\" or \"iframe\"")
            }
            integration = value
        }
        let returnURL = try json.optionalString(at: "return_url")
        let fields = try json.optionalObject(at: "fields") ?? JSONObject()
        switch kind {
        case .cards:
            try json.rejectUnknownKeys(CheckoutRequest.customerJSONKeys, at: "customer")
            let origins = try json.optionalArray(at: "target_origin") ?? []
            var originTexts: [String] = []
            for (index, origin) in origins.enumerated() {
                guard case .string(let text) = origin else {
                    throw JSONValue.wrongType("target_origin[" + String(index) + "]", expected: "a string", found: origin)
                }
                originTexts.append(text)
            }
            guard json.isPresent(at: "customer") else { throw JSONValue.missing("customer") }
            self = try .cardRegistration(
                apiKey: apiKey, returnURL: returnURL, provider: try json.string(at: "provider"),
                customerID: try json.string(at: "customer_id"), targetOrigins: originTexts,
                customer: Customer(name: try json.string(at: "customer.name"),
                                   lastname: try json.string(at: "customer.lastname"),
                                   email: try json.string(at: "customer.email"),
                                   phone: try json.optionalString(at: "customer.phone")),
                extraFields: fields, baseURL: baseURL, integration: integration)
        case .payments:
            self = try .payment(apiKey: apiKey, returnURL: returnURL, fields: fields, baseURL: baseURL,
                                integration: integration)
        }
    }

    /// Builds the request from its document and answers
    /// `{"version": 1, "kind": "cards", "request": {"method": "POST", "url": "…", "headers": […],
    /// "body": {…}}, "return_url": "fixapp://checkout-callback?ph_nonce=…", "nonce": "…",
    /// "warnings": […]}`. The request includes the API key (the host sends it); `return_url`
    /// and `nonce` are absent without a return URL (iframe integration).
    /// - Parameters:
    ///   - json: The request document; its optional `nonce` (16–128 unreserved characters) is
    ///     used instead of a fresh one, e.g. when the backend stores it.
    ///   - generator: The random source for a fresh nonce.
    /// - Returns: The result document.
    /// - Throws: As ``init(json:)``; `validation` for a bad `nonce`.
    public static func buildResultJSON(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> JSONValue {
        let request = try CheckoutRequest(json: json)
        let nonce: String
        if let given = try json.optionalString(at: "nonce") {
            try checkNonce(given, field: "nonce")
            nonce = given
        } else {
            nonce = ReturnURL.makeNonce(using: &generator)
        }
        var result = JSONObject(capacity: 6)
        result.appendNewMember("version", 1)
        result.appendNewMember("kind", .string(request.kind.rawValue))
        let sent = request.sentReturnURL(nonce: nonce)
        result.appendNewMember("request", request.httpRequest(sending: sent).json(revealingSecrets: true))
        if let sent {
            result.appendNewMember("return_url", .string(sent))
            result.appendNewMember("nonce", .string(nonce))
        }
        result.appendNewMember("warnings", .array(request.warnings.map { .string($0) }))
        return .object(result)
    }

    /// A nonce is 16 to 128 RFC 3986 unreserved characters, so it survives any query encoding
    /// and is long enough not to be guessed when made randomly.
    static func checkNonce(_ nonce: String, field: String) throws(PayHandoffError) {
        guard nonce.utf8.count >= 16, nonce.utf8.count <= 128, nonce.utf8.allSatisfy(QueryEncoder.isUnreserved) else {
            throw PayHandoffError(.validation, field: field, "must be 16 to 128 characters from A-Z a-z 0-9 - . _ ~")
        }
    }
}
