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
    /// "body": {…}}, "return_url": "fixapp://checkout-callback/ph_…", "nonce": "…",
    /// "warnings": […]}`. The request includes the API key (the host sends it); `return_url`
    /// and `nonce` are absent without a return URL (iframe integration).
    /// - Parameters:
    ///   - json: The request document; its optional `nonce` (16–128 unreserved characters) is
    ///     used instead of a fresh one, e.g. when the backend stores it.
    ///   - generator: The random source for a fresh nonce.
    /// - Returns: The result document.
    /// - Throws: As ``init(json:)``; `validation` for a bad `nonce`.
    public static func buildResultJSON(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> JSONValue {
        let (request, nonce) = try build(json: json, using: &generator)
        var writer = JSONValueWriter()
        request.writeBuildResult(nonce: nonce, to: &writer)
        return writer.document
    }

    /// The request of ``buildResultJSON(json:using:)`` and the nonce for its return URL (the C ABI
    /// writes the result straight into cJSON's tree with ``writeBuildResult(nonce:to:)``).
    /// - Parameters:
    ///   - json: The request document.
    ///   - generator: The random source for a fresh nonce.
    /// - Returns: The request and the nonce.
    /// - Throws: As ``buildResultJSON(json:using:)``.
    @_spi(JSONText)
    public static func build(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> (CheckoutRequest, nonce: String) {
        let request = try CheckoutRequest(json: json)
        if let given = try json.optionalString(at: "nonce") {
            try CorrelationSecret.check(given, field: "nonce")
            return (request, given)
        }
        return (request, CorrelationSecret.make(using: &generator))
    }

    /// Writes the document of ``buildResultJSON(json:using:)`` to `writer`.
    /// - Parameters:
    ///   - nonce: The nonce for the return URL.
    ///   - writer: Where the document goes.
    @_spi(JSONText)
    public func writeBuildResult<W: JSONWriter>(nonce: String, to writer: inout W) {
        let sent = sentReturnURL(nonce: nonce)
        writer.object(count: sent == nil ? 4 : 6) { result in
            result.member("version", 1)
            result.member("kind", string: kind.rawValue)
            result.key("request")
            httpRequest(sending: sent).write(revealingSecrets: true, to: &result)
            if let sent {
                result.member("return_url", string: sent)
                result.member("nonce", string: nonce)
            }
            result.key("warnings")
            result.array(count: warnings.count) { list in
                for warning in warnings { list.string(warning) }
            }
        }
    }
}
