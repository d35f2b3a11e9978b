extension CheckoutRequest {
    private static let paymentJSONKeys: StaticString = "kind api_key base_url integration return_url nonce fields"
    private static let cardRequestJSONKeys: StaticString = "kind api_key base_url integration return_url nonce fields provider customer_id target_origin customer"
    private static let customerJSONKeys: StaticString = "name lastname email phone"

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
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameter json: The document's members.
    /// - Throws: As ``init(json:)``.
    @_spi(JSONText)
    public init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        let kind = try CheckoutKind(parsing: try json.string("kind"), field: "kind")
        try json.rejectUnknownKeys(kind == .cards ? CheckoutRequest.cardRequestJSONKeys : CheckoutRequest.paymentJSONKeys)
        let apiKey = try json.string("api_key")
        let baseURL = try json.optionalString("base_url") ?? CheckoutRequest.defaultBaseURL
        var integration = Integration.browserTab
        if let text = try json.optionalString("integration") {
            guard let value = Integration(rawValue: text) else {
                throw PayHandoffError(.validation, field: "integration", "must be \"browser_tab\" or \"iframe\"")
            }
            integration = value
        }
        let returnURL = try json.optionalString("return_url")
        var fields = JSONObject()
        if let object = try json.optionalObject("fields"), let node = object.node,
           case .object(let members) = JSONValue(reading: node, with: json.reader) {
            fields = members
        }
        switch kind {
        case .cards:
            let customer = json.nested("customer")
            try customer.rejectUnknownKeys(CheckoutRequest.customerJSONKeys)
            var originTexts: [String] = []
            if let origins = try json.optionalArray("target_origin") {
                let reader = json.reader
                try reader.forEach(in: origins) { origin throws(PayHandoffError) in
                    guard reader.kind(of: origin) == .string else {
                        throw JSONMembers<R>.wrongType(json.field("target_origin") + "[" + String(originTexts.count) + "]",
                                                       expected: "a string", found: reader.kind(of: origin))
                    }
                    originTexts.append(reader.string(origin))
                }
            }
            guard json.isPresent("customer") else { throw JSONValue.missing(json.field("customer")) }
            self = try .cardRegistration(
                apiKey: apiKey, returnURL: returnURL, provider: try json.string("provider"),
                customerID: try json.string("customer_id"), targetOrigins: originTexts,
                customer: Customer(name: try customer.string("name"),
                                   lastname: try customer.string("lastname"),
                                   email: try customer.string("email"),
                                   phone: try customer.optionalString("phone")),
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
    /// - Returns: The result document. Secret-bearing: it holds the API key and the nonce (the host
    ///   sends them); a `JSONValue` prints whole, so never log it.
    /// - Throws: As ``init(json:)``; `validation` for a bad `nonce`.
    public static func buildResultJSON(json: JSONValue, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> JSONValue {
        let (request, nonce) = try build(json: json, using: &generator)
        let writer = JSONValueWriter()
        request.writeBuildResult(nonce: nonce, to: writer)
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
        try build(reading: JSONMembers(json), using: &generator)
    }

    /// ``build(json:using:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameters:
    ///   - json: The request document's members.
    ///   - generator: The random source for a fresh nonce.
    /// - Returns: The request and the nonce.
    /// - Throws: As ``build(json:using:)``.
    @_spi(JSONText)
    public static func build<R: JSONReader>(reading json: JSONMembers<R>,
                                            using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> (CheckoutRequest, nonce: String) {
        let request = try CheckoutRequest(reading: json)
        if let given = try json.optionalString("nonce") {
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
    public func writeBuildResult(nonce: String, to writer: JSONWriter) {
        let sent = sentReturnURL(nonce: nonce)
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("kind", string: kind.rawValue)
        writer.key("request")
        httpRequest(sending: sent).write(revealingSecrets: true, to: writer)
        if let sent {
            writer.member("return_url", string: sent)
            writer.member("nonce", string: nonce)
        }
        writer.member("warnings", strings: warnings)
        writer.end()
    }
}
