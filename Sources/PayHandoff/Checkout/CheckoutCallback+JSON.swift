extension CheckoutCallback {
    @usableFromInline
    static let optionKeys: StaticString = "kind return_url nonce expected_id accept_unverified"

    /// ``parse(_:kind:returnURL:nonce:expectedID:acceptUnverified:)`` with the options as a document:
    /// `{"kind": "cards", "return_url": "fixapp://checkout-callback", "nonce": "…", "expected_id": "card_…",
    /// "accept_unverified": false}` (`return_url` is the registered one, without the nonce;
    /// `nonce` is required unless `accept_unverified` is `true`; `expected_id` optional).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document.
    /// - Returns: The checked callback.
    /// - Throws: As ``parse(_:kind:returnURL:nonce:expectedID:acceptUnverified:)``, plus
    ///   `validation`/`invalid_json` for the options.
    public static func parse(_ url: String, options: JSONValue) throws(PayHandoffError) -> CheckoutCallback {
        try parse(url, options: JSONMembers(options))
    }

    /// ``parse(_:options:)`` with the options from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - options: The options document's members.
    /// - Returns: The checked callback.
    /// - Throws: As ``parse(_:options:)``.
    @_spi(JSONText) @inlinable  // specialized in the C ABI's module too (a generic call across modules looks up metadata at every member)
    public static func parse<R: JSONReader>(_ url: String, options: JSONMembers<R>) throws(PayHandoffError) -> CheckoutCallback {
        try options.rejectUnknownKeys(CheckoutCallback.optionKeys)
        let kind = try CheckoutKind(parsing: try options.string("kind"), field: "kind")
        let returnURL = try ReturnURL(try options.string("return_url"))
        return try parse(url, kind: kind, returnURL: returnURL, nonce: try options.optionalString("nonce"),
                         expectedID: try options.optionalString("expected_id"),
                         acceptUnverified: try options.optionalBool("accept_unverified") ?? false)
    }

    /// The callback as a document: `{"version": 1, "kind": "cards", "status": "completed",
    /// "verified": true, "card_id": "card_xyz", "reason": "…", "extra": {"k": "v"}}`; `card_id` /
    /// `payment_id`, `reason` and `extra` only when present; the ``stored`` copy of a flow also
    /// `"truncated": […]` when it cut anything (so that a restored flow keeps the same copy).
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("kind", string: kind.rawValue)
        writer.member("status", string: status.rawValue)
        writer.member("verified", bool: isVerified)
        writer.optionalMember(kind.idMember, string: objectID)
        writer.optionalMember("reason", string: reason)
        QueryItem.writeExtra(extra, as: "extra", to: writer)
        JSONValue.writeTruncated(truncated, to: writer)
        writer.end()
    }

    /// A callback from the document ``json`` writes (snapshots).
    /// - Parameter json: The document.
    /// - Throws: `validation`/`invalid_json` for a document ``json`` could not have written.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree.
    init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        let kind = try CheckoutKind(parsing: try json.string("kind"), field: "kind")
        try json.rejectUnknownKeys(kind == .cards ? "version kind status verified card_id reason extra truncated"
                                                  : "version kind status verified payment_id reason extra truncated")
        guard let status = Status(rawValue: try json.string("status")) else {
            throw PayHandoffError(.validation, field: "status", "must be completed, failed or cancelled")
        }
        let objectID = try json.optionalString(kind.idMember)
        if let objectID, !kind.isValidID(objectID) {
            throw PayHandoffError(.validation, field: kind.idKey, kind.idRule)
        }
        let extra = try QueryItem.extra(in: json, at: "extra")
        self.init(kind: kind, status: status, objectID: objectID, reason: try json.optionalString("reason"),
                  isVerified: try json.optionalBool("verified") ?? false, extra: extra, truncated: try JSONValue.truncated(in: json))
    }
}
