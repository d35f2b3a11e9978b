extension CheckoutSession {
    /// A session from a document, either the gateway's answer as the host received it —
    /// `{"kind": "cards", "status": 201, "body": {"data": {"registration": {"checkout_url": "https://…"}}}}` —
    /// or what the merchant backend passed on — `{"kind": "payments", "checkout_url": "https://…",
    /// "session_id": "…", "payment_id": "pay_…"}` (ids optional).
    /// - Parameter json: The document.
    /// - Throws: As ``parse(kind:status:body:)`` and ``init(kind:checkoutURL:sessionID:objectID:)``.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameter json: The document's members.
    /// - Throws: As ``init(json:)``.
    @_spi(JSONText)
    public init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        let kind = try CheckoutKind(parsing: try json.string("kind"), field: "kind")
        if json.isPresent("checkout_url") {
            try json.rejectUnknownKeys(kind == .cards ? "version kind checkout_url session_id card_id" : "version kind checkout_url session_id payment_id")
            self = try CheckoutSession(kind: kind, checkoutURL: try json.string("checkout_url"),
                                       sessionID: try json.optionalString("session_id"),
                                       objectID: try json.optionalString(kind.idMember))
        } else {
            try json.rejectUnknownKeys("kind status body")
            let status = try json.integer("status")
            guard status >= 100, status <= 599 else {
                throw PayHandoffError(.validation, field: "status", "must be an HTTP status from 100 to 599")
            }
            // The body's members are named from the body's root (`data.registration.checkout_url`).
            self = try CheckoutSession.parse(kind: kind, status: Int(status), body: JSONMembers(json.value("body"), json.reader))
        }
    }

    /// The session as a document: `{"version": 1, "kind": "cards", "checkout_url": "https://…",
    /// "session_id": "…", "card_id": "card_…"}` (ids only when known). ``init(json:)`` reads it back.
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        write(to: writer, checkoutURL: checkoutURL)
    }

    /// Writes ``json`` with `checkoutURL` in place of the session's (a flow's `details` show its origin only).
    func write(to writer: JSONWriter, checkoutURL: String) {
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("kind", string: kind.rawValue)
        writer.member("checkout_url", string: checkoutURL)
        writer.optionalMember("session_id", string: sessionID)
        writer.optionalMember(kind.idMember, string: objectID)
        writer.end()
    }
}
