/// A created checkout session: the `checkout_url` to open in the system browser tab, and the
/// ids the gateway's create response carried.
///
/// From the gateway's answer with ``parse(kind:status:body:)`` — cards read
/// `data.registration.checkout_url`, payments `data.checkout.checkout_url` — or, when the
/// merchant backend created the session, from just the URL with ``init(kind:checkoutURL:)``.
/// A checkout URL must be `https` with a host: the 3-D Secure pages must not load over plain HTTP.
///
/// Two sessions are equal when their strings have the same UTF-8 bytes (not under `String`'s
/// `==`, which is Unicode canonical equivalence).
public struct CheckoutSession: Equatable, Sendable {
    /// Card registration or payment.
    public let kind: CheckoutKind
    /// The URL to open in the browser tab.
    public let checkoutURL: String
    /// The session's id (`data.registration.id` / `data.checkout.id`), when present.
    public let sessionID: String?
    /// The card or payment id (`card_…` / `pay_…`) when the create response already names it;
    /// a callback with another id is then refused.
    public let objectID: String?

    /// A session the merchant backend created.
    /// - Parameters:
    ///   - kind: Card registration or payment.
    ///   - checkoutURL: The `checkout_url` the backend received.
    ///   - sessionID: The session id, if known.
    ///   - objectID: The `card_…`/`pay_…` id, if known.
    /// - Throws: `validation` naming `checkout_url` when it is not an https URL with a host.
    public init(kind: CheckoutKind, checkoutURL: String, sessionID: String? = nil, objectID: String? = nil) throws(PayHandoffError) {
        try CheckoutSession.checkCheckoutURL(checkoutURL, field: "checkout_url")
        if let objectID, !kind.isValidID(objectID) {
            throw PayHandoffError(.validation, field: kind.idKey, kind.idRule)
        }
        if let sessionID, !JSONValue.isKeptWhole(sessionID, printedAtMost: CheckoutSession.maxSessionIDLength) {
            throw PayHandoffError(.validation, field: "session_id", CheckoutSession.sessionIDRule.text)
        }
        self.kind = kind
        self.checkoutURL = checkoutURL
        self.sessionID = sessionID
        self.objectID = objectID
    }

    /// Equal when kind, URL and ids are; strings compared by UTF-8 bytes.
    public static func == (lhs: CheckoutSession, rhs: CheckoutSession) -> Bool {
        lhs.kind == rhs.kind && lhs.checkoutURL.hasSameBytes(as: rhs.checkoutURL)
            && lhs.sessionID.hasSameBytes(as: rhs.sessionID) && lhs.objectID.hasSameBytes(as: rhs.objectID)
    }

    /// Reads the gateway's answer to the create request.
    /// - Parameters:
    ///   - kind: The kind of session requested.
    ///   - status: The HTTP status.
    ///   - body: The answer's JSON body (`.null` when it had none or it was not JSON).
    /// - Returns: The session.
    /// - Throws: `gateway_error` for a non-2xx status, with the gateway's own message and code
    ///   when the body has them (`error.message`, `message`, `error`); `validation` naming the
    ///   path (`data.registration.checkout_url`) when the URL is missing or not https.
    public static func parse(kind: CheckoutKind, status: Int, body: JSONValue) throws(PayHandoffError) -> CheckoutSession {
        try parse(kind: kind, status: status, body: JSONMembers(body))
    }

    /// ``parse(kind:status:body:)`` with the body from any ``JSONReader``'s tree.
    static func parse<R: JSONReader>(kind: CheckoutKind, status: Int, body: JSONMembers<R>) throws(PayHandoffError) -> CheckoutSession {
        guard status >= 200, status <= 299 else {
            throw PayHandoffError(.gatewayError, "the gateway answered HTTP " + String(status) + gatewayMessage(body))
        }
        let data = body.nested("data")
        let object = data.nested(kind == .cards ? "registration" : "checkout")
        let url = try object.string("checkout_url")
        try checkCheckoutURL(url, field: object.field("checkout_url"))
        let sessionID = try object.optionalString("id")
        if let sessionID, !JSONValue.isKeptWhole(sessionID, printedAtMost: maxSessionIDLength) {
            throw PayHandoffError(.validation, field: object.field("id"), sessionIDRule.text)
        }
        var idField = object.field(kind.idMember)
        var objectID = try object.optionalString(kind.idMember)
        if objectID == nil {
            idField = data.field(kind.idMember)
            objectID = try data.optionalString(kind.idMember)
        }
        if let objectID, !kind.isValidID(objectID) {
            throw PayHandoffError(.validation, field: idField, kind.idRule)
        }
        return try CheckoutSession(kind: kind, checkoutURL: url, sessionID: sessionID, objectID: objectID)
    }

    /// `": <code>: <message>"` from the usual error-body shapes, or `""`.
    static func gatewayMessage<R: JSONReader>(_ body: JSONMembers<R>) -> String {
        let error = body.nested("error")
        let message = (try? error.optionalString("message")) ?? (try? body.optionalString("message"))
            ?? (try? body.optionalString("error")) ?? nil
        let code = (try? error.optionalString("code")) ?? (try? body.optionalString("code")) ?? nil
        var text = ""
        if let code { text += ": " + code }
        if let message { text += ": " + message }
        return text
    }

    /// The longest `checkout_url` accepted, in bytes (any URL the library reads): a flow keeps it,
    /// and the snapshot keeps room for it from the start (``maxStoredLength``).
    public static let maxCheckoutURLLength = URLSyntax.maxURLLength
    /// The longest session id accepted: 1 KiB as JSON text (a `"` or `\` counts twice), without
    /// control characters. No gateway documentation found gives a bound (Stripe's checkout
    /// session ids are about 66 characters; Square's staff state 255 as the absolute maximum of
    /// its ids); 1 KiB is four times the largest stated one. (0.3 refused ids over 128 bytes.)
    public static let maxSessionIDLength = 1024
    /// The message of the session id rule.
    static let sessionIDRule: StaticString = "must be at most 1024 bytes as JSON text (a '\"' or '\\' counts twice) without control characters"
    /// The most a session takes in a snapshot as JSON text, in bytes: what a checkout waiting for
    /// its session keeps room for, so that `checkout.session` is never refused for space.
    /// (`checkout_url` prints as itself — it has no `"`, `\` or control character —, the session
    /// id as at most ``maxSessionIDLength`` bytes, the card or payment id has no control
    /// character, so each of its bytes prints as at most 2.)
    public static let maxStoredLength = 80 + (maxCheckoutURLLength + 2) + (16 + maxSessionIDLength + 2)
        + (16 + 2 * CheckoutKind.maxIDLength + 2)

    static func checkCheckoutURL(_ url: String, field: String) throws(PayHandoffError) {
        let problem = "must be an https URL with a host"
        do throws(PayHandoffError) {
            try URLSyntax.checkIncoming(url, field: field)
            let parts = try HierarchicalURL(url, field: field)
            guard parts.hasScheme("https"), let host = parts.hostLength, host > 0 else {
                throw PayHandoffError(.validation, field: field, problem)
            }
            // A URL has these percent-encoded; raw, they would make the copy a flow keeps longer
            // than the room the snapshot keeps for it.
            guard !url.utf8.contains(UInt8(ascii: "\"")), !url.utf8.contains(UInt8(ascii: "\\")) else {
                throw PayHandoffError(.validation, field: field, "must not contain a raw '\"' or '\\' (percent-encode them)")
            }
        } catch {
            throw PayHandoffError(.validation, field: field, error.code == .validation ? error.message : problem)
        }
    }
}
