/// A request to create a hosted-checkout session: `POST {base}/v1/cards` (card registration)
/// or `POST {base}/v1/payments`, built as an ``HTTPRequest`` value for the host to send.
///
/// **Secret keys belong on the merchant backend.** A secret key (`sk_…`) shipped inside an app
/// can be extracted from the binary. The recommended integration is: the backend creates the
/// session (with the `return_url` PayHandoff prepared, nonce included) and the app feeds the
/// answer in with ``CheckoutSession/parse(kind:status:body:)`` or just the checkout URL with
/// ``CheckoutSession/init(kind:checkoutURL:)``. This builder exists for backends written in
/// Swift, for tests and for sandbox apps; it adds a warning when it sees a live secret key.
///
/// The API key is never part of a description, an error or a snapshot: only
/// ``HTTPRequest/json(revealingSecrets:)`` with `true` contains it.
///
/// Two requests are equal when their strings have the same UTF-8 bytes (not under `String`'s
/// `==`, which is Unicode canonical equivalence).
public struct CheckoutRequest: Equatable, Sendable {
    /// How the host shows the checkout.
    public enum Integration: String, Sendable, CaseIterable {
        /// The system browser tab (SFSafariViewController / Custom Tabs), result by deep link.
        case browserTab = "browser_tab"
        /// The classic `<iframe>` + `postMessage` web integration.
        case iframe

        /// The integration spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
        /// canonical equivalence).
        public init?(rawValue: String) {
            guard let value = Integration.matching(rawValue, among: Integration.allCases) else { return nil }
            self = value
        }
    }

    /// The customer of a card registration.
    public struct Customer: Equatable, Sendable {
        /// Given name.
        public var name: String
        /// Family name.
        public var lastname: String
        /// E-mail.
        public var email: String
        /// Phone, optional.
        public var phone: String?

        /// Creates a customer.
        /// - Parameters:
        ///   - name: Given name (required).
        ///   - lastname: Family name (required).
        ///   - email: E-mail (required, `local@domain`).
        ///   - phone: Phone (optional).
        public init(name: String, lastname: String, email: String, phone: String? = nil) {
            self.name = name
            self.lastname = lastname
            self.email = email
            self.phone = phone
        }

        /// Equal when every field has the same UTF-8 bytes.
        public static func == (lhs: Customer, rhs: Customer) -> Bool {
            lhs.name.hasSameBytes(as: rhs.name) && lhs.lastname.hasSameBytes(as: rhs.lastname)
                && lhs.email.hasSameBytes(as: rhs.email) && lhs.phone.hasSameBytes(as: rhs.phone)
        }
    }

    /// The default gateway base URL.
    public static let defaultBaseURL = "https://api.pay.ingalca.com"

    /// Card registration or payment.
    public let kind: CheckoutKind
    /// The base URL, without a trailing `/`.
    public let baseURL: String
    /// Where the gateway redirects at the end; `nil` only for the iframe integration.
    public let returnURL: ReturnURL?
    /// Browser tab or iframe.
    public let integration: Integration
    /// The body PayHandoff sends, without `return_url` (added with the nonce by ``httpRequest(nonce:)``).
    public let body: JSONObject
    /// Advice about this request that is not an error (iframe combinations, live secret key).
    public let warnings: [String]
    let apiKey: String

    /// Equal when every field is; strings compared by UTF-8 bytes.
    public static func == (lhs: CheckoutRequest, rhs: CheckoutRequest) -> Bool {
        lhs.kind == rhs.kind && lhs.baseURL.hasSameBytes(as: rhs.baseURL) && lhs.returnURL == rhs.returnURL
            && lhs.integration == rhs.integration && lhs.body == rhs.body
            && lhs.warnings.elementsEqual(rhs.warnings) { $0.hasSameBytes(as: $1) } && lhs.apiKey.hasSameBytes(as: rhs.apiKey)
    }

    /// Body keys PayHandoff sets itself; host-supplied extra fields may not override them.
    static let cardKeys = ["provider", "customer_id", "target_origin", "return_url", "customer"]

    /// A card-registration request.
    /// - Parameters:
    ///   - apiKey: The gateway API key (see the type's note on secret keys).
    ///   - returnURL: The deep link or universal link; `nil` only with `.iframe`.
    ///   - provider: The card provider, e.g. `dinelco`.
    ///   - customerID: The merchant's customer id.
    ///   - targetOrigins: Origins (`scheme://host[:port]`) allowed to receive `postMessage`; at least one.
    ///   - customer: The customer.
    ///   - extraFields: More body fields, carried through unchanged; may not override the ones above.
    ///   - baseURL: The gateway; https, or http on a loopback host for tests.
    ///   - integration: Browser tab (default) or iframe.
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the field that breaks a rule.
    public static func cardRegistration(
        apiKey: String, returnURL: String?, provider: String, customerID: String, targetOrigins: [String],
        customer: Customer, extraFields: JSONObject = JSONObject(), baseURL: String = defaultBaseURL,
        integration: Integration = .browserTab
    ) throws(PayHandoffError) -> CheckoutRequest {
        try checkNonEmpty(provider, field: "provider")
        try checkNonEmpty(customerID, field: "customer_id")
        guard !targetOrigins.isEmpty else {
            throw PayHandoffError(.validation, field: "target_origin", "needs at least one origin")
        }
        for (index, origin) in targetOrigins.enumerated() {
            try checkOrigin(origin, field: "target_origin[" + String(index) + "]")
        }
        try checkNonEmpty(customer.name, field: "customer.name")
        try checkNonEmpty(customer.lastname, field: "customer.lastname")
        try checkEmail(customer.email, field: "customer.email")
        if let phone = customer.phone { try checkNonEmpty(phone, field: "customer.phone") }
        // Distinct literal keys: appended without looking for them first.
        var body = JSONObject(capacity: 4)
        body.appendNewMember("provider", .string(provider))
        body.appendNewMember("customer_id", .string(customerID))
        body.appendNewMember("target_origin", .array(targetOrigins.map { .string($0) }))
        var customerObject = JSONObject(capacity: 4)
        customerObject.appendNewMember("name", .string(customer.name))
        customerObject.appendNewMember("lastname", .string(customer.lastname))
        customerObject.appendNewMember("email", .string(customer.email))
        customerObject.appendNewMember("phone", ifPresent: customer.phone.map { .string($0) })
        body.appendNewMember("customer", .object(customerObject))
        return try CheckoutRequest(kind: .cards, apiKey: apiKey, returnURL: returnURL, body: body,
                                   extraFields: extraFields, baseURL: baseURL, integration: integration)
    }

    /// A payment request. The seed documents only `return_url` for payments; every other field
    /// the gateway needs (amount, currency, order…) is passed in `fields` and carried through
    /// unchanged.
    /// - Parameters:
    ///   - apiKey: The gateway API key (see the type's note on secret keys).
    ///   - returnURL: The deep link or universal link; `nil` only with `.iframe`.
    ///   - fields: The body fields; may not contain `return_url`.
    ///   - baseURL: The gateway; https, or http on a loopback host for tests.
    ///   - integration: Browser tab (default) or iframe.
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the field that breaks a rule.
    public static func payment(
        apiKey: String, returnURL: String?, fields: JSONObject = JSONObject(),
        baseURL: String = defaultBaseURL, integration: Integration = .browserTab
    ) throws(PayHandoffError) -> CheckoutRequest {
        try CheckoutRequest(kind: .payments, apiKey: apiKey, returnURL: returnURL, body: JSONObject(),
                            extraFields: fields, baseURL: baseURL, integration: integration)
    }

    private init(kind: CheckoutKind, apiKey: String, returnURL: String?, body: JSONObject,
                 extraFields: JSONObject, baseURL: String, integration: Integration) throws(PayHandoffError) {
        try CheckoutRequest.checkAPIKey(apiKey)
        let base = try CheckoutRequest.checkBaseURL(baseURL)
        var warnings: [String] = []
        var parsedReturn: ReturnURL? = nil
        if let returnURL {
            let url = try ReturnURL(returnURL)
            if integration == .iframe {
                if url.isCustomScheme {
                    throw PayHandoffError(.validation, field: "return_url",
                        "a custom-scheme return_url cannot work inside an iframe (the browser reports an unknown protocol); use the browser tab, or no return_url for iframe + postMessage")
                }
                warnings.append("iframe with an http(s) return_url: the gateway redirects the iframe's top level, not the parent page; useful only on the same domain — usually choose one of the two integrations")
            }
            parsedReturn = url
        } else if integration == .browserTab {
            throw PayHandoffError(.validation, field: "return_url",
                "is required for the browser-tab integration (it is how the result comes back); omit it only for iframe + postMessage")
        }
        var fullBody = body
        for member in extraFields.members {
            if member.key.hasSameBytes(as: "return_url") || fullBody[member.key] != nil {
                throw PayHandoffError(.validation, field: member.key, "is set by PayHandoff and cannot be overridden")
            }
            fullBody.appendNewMember(member.key, member.value)  // just looked for; extra keys are distinct
        }
        if apiKey.hasBytePrefix("sk_live_") {
            warnings.append("a live secret key (sk_live_…) in an app can be extracted from the binary: create sessions on your backend")
        }
        self.kind = kind
        self.apiKey = apiKey
        self.baseURL = base
        self.returnURL = parsedReturn
        self.integration = integration
        self.body = fullBody
        self.warnings = warnings
    }

    /// The return URL PayHandoff sends: the registered one with the nonce segment `ph_<nonce>` (``ReturnURL/adding(nonce:)``).
    /// - Parameter nonce: The correlation nonce (``CorrelationSecret/make(using:)``).
    /// - Returns: The URL text, or `nil` without a return URL.
    public func sentReturnURL(nonce: String) -> String? {
        returnURL?.adding(nonce: nonce)
    }

    /// The HTTP request to send.
    /// - Parameter nonce: The correlation nonce put into `return_url`.
    /// - Returns: `POST {base}/v1/cards|payments` with the Bearer key, JSON content type and the body.
    public func httpRequest(nonce: String) -> HTTPRequest {
        httpRequest(sending: sentReturnURL(nonce: nonce))
    }

    /// ``httpRequest(nonce:)`` with the return URL already made (callers that also report it).
    func httpRequest(sending sent: String?) -> HTTPRequest {
        var fullBody = body
        if let sent { fullBody.appendNewMember("return_url", .string(sent)) }  // init refuses it in the body
        return HTTPRequest(
            method: "POST", url: baseURL + kind.path,
            headers: [.init(name: "Authorization", value: "Bearer " + apiKey),
                      .init(name: "Content-Type", value: "application/json")],
            body: .object(fullBody))
    }

    private static func checkNonEmpty(_ value: String, field: String) throws(PayHandoffError) {
        guard !value.isEmpty else { throw PayHandoffError(.validation, field: field, "is required and must not be empty") }
    }

    private static func checkAPIKey(_ key: String) throws(PayHandoffError) {
        try checkNonEmpty(key, field: "api_key")
        for byte in key.utf8 where byte <= 0x20 || byte >= 0x7F {
            // Never quote the key: it is a secret.
            throw PayHandoffError(.validation, field: "api_key", "must be printable ASCII without spaces")
        }
    }

    private static func checkEmail(_ email: String, field: String) throws(PayHandoffError) {
        // Exactly one '@', with text on both sides.
        let shaped = email.withUTF8Buffer { bytes in
            let at = ByteScan.firstIndex(of: UInt8(ascii: "@"), in: bytes, from: 0, to: bytes.count)
            return at > 0 && at < bytes.count - 1
                && ByteScan.firstIndex(of: UInt8(ascii: "@"), in: bytes, from: at + 1, to: bytes.count) == bytes.count
        }
        guard shaped, !ASCII.hasSpaceOrControl(email) else {
            throw PayHandoffError(.validation, field: field, "must be an e-mail address (local@domain)")
        }
    }

    /// `scheme://host[:port]`, nothing else (no path, query, fragment or user information).
    static func checkOrigin(_ origin: String, field: String) throws(PayHandoffError) {
        let problem = "must be an origin scheme://host[:port] with no path"
        if ASCII.hasSpaceOrControl(origin) {
            throw PayHandoffError(.validation, field: field, problem)
        }
        let shaped: Bool
        do throws(PayHandoffError) {
            shaped = try HierarchicalURL.inspect(origin, field: field) { parts, _ in
                parts.host.map { !$0.isEmpty } == true && parts.query == nil && parts.fragment == nil
            }
        } catch {
            throw PayHandoffError(.validation, field: field, problem)
        }
        // Exactly the two slashes of "://": no path, not even "/".
        var slashes = 0
        for byte in origin.utf8 where byte == UInt8(ascii: "/") { slashes += 1 }
        guard shaped, slashes == 2 else {
            throw PayHandoffError(.validation, field: field, problem)
        }
    }

    /// https, or http on a loopback host (127.0.0.1, localhost, [::1]) for tests; no query or
    /// fragment. Returns it without a trailing `/`.
    static func checkBaseURL(_ base: String) throws(PayHandoffError) -> String {
        let problem = "must be an https URL (http only on a loopback host), without query or fragment"
        if ASCII.hasSpaceOrControl(base) {
            throw PayHandoffError(.validation, field: "base_url", problem)
        }
        let shaped: Bool
        do throws(PayHandoffError) {
            // Scheme and host compared ignoring ASCII case, as HierarchicalURL lowercases them.
            shaped = try HierarchicalURL.inspect(base, field: "base_url") { parts, bytes in
                guard let host = parts.host, !host.isEmpty, parts.query == nil, parts.fragment == nil else { return false }
                let hostBytes = UnsafeBufferPointer(rebasing: bytes[host])
                let scheme = UnsafeBufferPointer(rebasing: bytes[parts.scheme])
                let loopback = ASCII.equalFoldingCase(hostBytes, lowercase: "127.0.0.1")
                    || ASCII.equalFoldingCase(hostBytes, lowercase: "localhost") || ASCII.equalFoldingCase(hostBytes, lowercase: "[::1]")
                return ASCII.equalFoldingCase(scheme, lowercase: "https")
                    || (ASCII.equalFoldingCase(scheme, lowercase: "http") && loopback)
            }
        } catch {
            throw PayHandoffError(.validation, field: "base_url", problem)
        }
        guard shaped else {
            throw PayHandoffError(.validation, field: "base_url", problem)
        }
        var trimmed = Substring(base)
        while trimmed.utf8.last == UInt8(ascii: "/") { trimmed = trimmed[..<trimmed.utf8.index(before: trimmed.endIndex)] }
        return String(trimmed)
    }
}
