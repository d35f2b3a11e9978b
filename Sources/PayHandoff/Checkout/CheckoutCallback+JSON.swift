extension CheckoutCallback {
    private static let optionKeys = ["kind", "return_url", "nonce", "expected_id", "accept_unverified"]

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
        try options.rejectUnknownKeys(CheckoutCallback.optionKeys)
        let kind = try CheckoutKind(parsing: try options.string(at: "kind"), field: "kind")
        let returnURL = try ReturnURL(try options.string(at: "return_url"))
        return try parse(url, kind: kind, returnURL: returnURL, nonce: try options.optionalString(at: "nonce"),
                         expectedID: try options.optionalString(at: "expected_id"),
                         acceptUnverified: try options.optionalBool(at: "accept_unverified") ?? false)
    }

    /// The callback as a document: `{"version": 1, "kind": "cards", "status": "completed",
    /// "verified": true, "card_id": "card_xyz", "reason": "…", "extra": {"k": "v"}}`; `card_id` /
    /// `payment_id`, `reason` and `extra` only when present; the ``stored`` copy of a flow also
    /// `"truncated": […]` when it cut anything (so that a restored flow keeps the same copy).
    public var json: JSONValue {
        var o = JSONObject(capacity: 8)
        o.appendNewMember("version", 1)
        o.appendNewMember("kind", .string(kind.rawValue))
        o.appendNewMember("status", .string(status.rawValue))
        o.appendNewMember("verified", .bool(isVerified))
        o.appendNewMember(kind.idKey, ifPresent: objectID.map { .string($0) })
        o.appendNewMember("reason", ifPresent: reason.map { .string($0) })
        QueryItem.setExtra(extra, as: "extra", in: &o)
        JSONValue.setTruncated(truncated, in: &o)
        return .object(o)
    }

    /// A callback from the document ``json`` writes (snapshots).
    /// - Parameter json: The document.
    /// - Throws: `validation`/`invalid_json` for a document ``json`` could not have written.
    public init(json: JSONValue) throws(PayHandoffError) {
        let kind = try CheckoutKind(parsing: try json.string(at: "kind"), field: "kind")
        try json.rejectUnknownKeys(["version", "kind", "status", "verified", kind.idKey, "reason", "extra", "truncated"])
        guard let status = Status(rawValue: try json.string(at: "status")) else {
            throw PayHandoffError(.validation, field: "status", "must be completed, failed or cancelled")
        }
        let objectID = try json.optionalString(at: kind.idKey)
        if let objectID, !kind.isValidID(objectID) {
            throw PayHandoffError(.validation, field: kind.idKey, kind.idRule)
        }
        let extra = try QueryItem.extra(in: json, at: "extra")
        self.init(kind: kind, status: status, objectID: objectID, reason: try json.optionalString(at: "reason"),
                  isVerified: try json.optionalBool(at: "verified") ?? false, extra: extra, truncated: try JSONValue.truncated(in: json))
    }
}
