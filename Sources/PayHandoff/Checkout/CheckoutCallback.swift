/// The deep link (or universal link) the gateway redirects the browser tab to at the end of a
/// checkout: `fixapp://checkout-callback?status=completed&card_id=card_xyz&ph_nonce=…`, checked
/// against the pending session it claims to answer.
///
/// A callback is a claim, not a fact: any app can open `fixapp://checkout-callback?status=completed`.
/// ``parse(_:kind:returnURL:nonce:expectedID:)`` accepts it only when
/// - scheme, host, port and path are the registered return URL's (``ReturnURL``);
/// - the nonce PayHandoff put into the return URL echoes back (a wrong nonce is refused; a
///   missing one is accepted as *unverified*, ``isVerified`` `false`, and must never confirm
///   anything by itself);
/// - `status` is `completed`, `failed` or `cancelled`;
/// - the id fits the flow: `card_id` (`card_…`) only for card registration, `payment_id`
///   (`pay_…`) only for payments, required when `completed`, equal to the id the session
///   already knew if it knew one.
///
/// The query is decoded per ``QueryDecoder`` with `+` as a space (what `URLSearchParams` and
/// Android's `getQueryParameter` do); duplicate keys and malformed escapes are refused; the
/// fragment is ignored; other parameters (including the host's own) are kept in ``extra``.
/// Even a verified `completed` only means *awaiting confirmation*: the webhook decides.
public struct CheckoutCallback: Equatable, Sendable {
    /// The visual outcome the gateway reports.
    public enum Status: String, Sendable, CaseIterable {
        /// The user finished without cancelling and the provider answered OK.
        case completed
        /// The provider refused (see ``reason``).
        case failed
        /// The user cancelled.
        case cancelled
    }

    /// Card registration or payment.
    public let kind: CheckoutKind
    /// The reported status.
    public let status: Status
    /// `card_id` or `payment_id`, when present.
    public let objectID: String?
    /// The provider's reason, typically on `failed`.
    public let reason: String?
    /// Whether PayHandoff's nonce echoed back. An unverified callback is reported but is not
    /// proof that the redirect came from the session this app started.
    public let isVerified: Bool
    /// Other query parameters, in order.
    public let extra: [QueryItem]

    /// Parses and checks a callback.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - kind: The pending session's kind.
    ///   - returnURL: The return URL the session registered.
    ///   - nonce: The nonce PayHandoff put into it; `nil` when the session was created without
    ///     one (then every callback is unverified).
    ///   - expectedID: The `card_…`/`pay_…` id the session already knows, if any.
    /// - Returns: The checked callback.
    /// - Throws: `limit_exceeded` over 8 KiB; `malformed_url` for a bad URL or query;
    ///   `callback_mismatch` naming `scheme`/`host`/`port`/`path`/`ph_nonce`/`card_id`/
    ///   `payment_id` when the callback is not this session's; `validation` for a missing or
    ///   unknown `status`, a missing id on `completed`, or an id without its prefix.
    public static func parse(_ url: String, kind: CheckoutKind, returnURL: ReturnURL, nonce: String?,
                             expectedID: String? = nil) throws(PayHandoffError) -> CheckoutCallback {
        try URLSyntax.checkIncoming(url, field: "url")
        let parts = try HierarchicalURL(url, field: "url")
        try returnURL.checkAddressed(parts)
        let items = try QueryDecoder.decode(parts.query ?? "", plus: .space, caseInsensitiveKeys: false)
        var values: [String: String] = [:]
        var extra: [QueryItem] = []
        for item in items {
            switch item.key {
            case "status", "card_id", "payment_id", "reason", ReturnURL.nonceParameter: values[item.key] = item.value
            default: extra.append(item)
            }
        }
        var verified = false
        if let echoed = values[ReturnURL.nonceParameter] {
            guard let nonce, constantTimeEqual(echoed, nonce) else {
                throw PayHandoffError(.callbackMismatch, field: ReturnURL.nonceParameter,
                    nonce == nil ? "the callback carries a nonce but this session has none"
                                 : "the callback's nonce is not this session's")
            }
            verified = true
        }
        if values[kind.other.idKey] != nil {
            throw PayHandoffError(.callbackMismatch, field: kind.other.idKey,
                "a " + kind.rawValue + " callback cannot carry " + kind.other.idKey)
        }
        guard let statusText = values["status"] else {
            throw PayHandoffError(.validation, field: "status", "the callback has no status")
        }
        guard let status = Status(rawValue: statusText) else {
            throw PayHandoffError(.validation, field: "status", "must be completed, failed or cancelled")
        }
        let objectID = values[kind.idKey].flatMap { $0.isEmpty ? nil : $0 }
        if let objectID {
            guard kind.isValidID(objectID) else {
                throw PayHandoffError(.validation, field: kind.idKey, "must start with '" + kind.idPrefix + "'")
            }
            if let expectedID, objectID != expectedID {
                throw PayHandoffError(.callbackMismatch, field: kind.idKey, "the callback names another " + kind.idKey + " than this session's")
            }
        } else if status == .completed {
            throw PayHandoffError(.validation, field: kind.idKey, "a completed callback must carry " + kind.idKey)
        }
        let reason = values["reason"].flatMap { $0.isEmpty ? nil : $0 }
        return CheckoutCallback(kind: kind, status: status, objectID: objectID, reason: reason,
                                isVerified: verified, extra: extra)
    }

    init(kind: CheckoutKind, status: Status, objectID: String?, reason: String?, isVerified: Bool, extra: [QueryItem]) {
        self.kind = kind
        self.status = status
        self.objectID = objectID
        self.reason = reason
        self.isVerified = isVerified
        self.extra = extra
    }

    /// Compares without an early exit, so the time taken does not reveal how much of a guessed
    /// nonce was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a.utf8, b.utf8) { difference |= x ^ y }
        return difference == 0
    }
}
