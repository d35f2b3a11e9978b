extension CheckoutSession {
    /// A session from a document, either the gateway's answer as the host received it —
    /// `{"kind": "cards", "status": 201, "body": {"data": {"registration": {"checkout_url": "https://…"}}}}` —
    /// or what the merchant backend passed on — `{"kind": "payments", "checkout_url": "https://…",
    /// "session_id": "…", "payment_id": "pay_…"}` (ids optional).
    /// - Parameter json: The document.
    /// - Throws: As ``parse(kind:status:body:)`` and ``init(kind:checkoutURL:sessionID:objectID:)``.
    public init(json: JSONValue) throws(PayHandoffError) {
        let kind = try CheckoutKind(parsing: try json.string(at: "kind"), field: "kind")
        if json.isPresent(at: "checkout_url") {
            try json.rejectUnknownKeys(["version", "kind", "checkout_url", "session_id", kind.idKey])
            self = try CheckoutSession(kind: kind, checkoutURL: try json.string(at: "checkout_url"),
                                       sessionID: try json.optionalString(at: "session_id"),
                                       objectID: try json.optionalString(at: kind.idKey))
        } else {
            try json.rejectUnknownKeys(["kind", "status", "body"])
            let status = try json.integer(at: "status")
            guard status >= 100, status <= 599 else {
                throw PayHandoffError(.validation, field: "status", "must be an HTTP status from 100 to 599")
            }
            self = try CheckoutSession.parse(kind: kind, status: Int(status), body: json.value(at: "body") ?? .null)
        }
    }

    /// The session as a document: `{"version": 1, "kind": "cards", "checkout_url": "https://…",
    /// "session_id": "…", "card_id": "card_…"}` (ids only when known). ``init(json:)`` reads it back.
    public var json: JSONValue {
        var o = JSONObject(capacity: 5)
        o.appendNewMember("version", 1)
        o.appendNewMember("kind", .string(kind.rawValue))
        o.appendNewMember("checkout_url", .string(checkoutURL))
        o.appendNewMember("session_id", ifPresent: sessionID.map { .string($0) })
        o.appendNewMember(kind.idKey, ifPresent: objectID.map { .string($0) })
        return .object(o)
    }
}
