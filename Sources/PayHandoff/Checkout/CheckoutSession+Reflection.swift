#if !hasFeature(Embedded)
/// `print(session)`, `dump` and debuggers show the checkout URL by its origin only
/// (``Redaction``): the gateway's page may carry the return URL with the flow's nonce, and it is
/// what `open_browser` opens. (No reflection in Embedded Swift.)
extension CheckoutSession: CustomReflectable {
    /// The session's fields, the checkout URL redacted but for its origin.
    public var customMirror: Mirror {
        Mirror(self, children: [
            ("kind", kind), ("checkoutURL", Redaction.url(checkoutURL)), ("sessionID", sessionID as Any), ("objectID", objectID as Any),
        ], displayStyle: .struct)
    }
}
#endif
