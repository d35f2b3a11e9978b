#if !hasFeature(Embedded)
/// `print(flow)`, `dump` and debuggers show a checkout flow without its nonce (``Redaction``);
/// its session and callback redact themselves. (No reflection in Embedded Swift.)
extension CheckoutFlow: CustomReflectable {
    /// The flow's fields, the nonce redacted.
    public var customMirror: Mirror {
        Mirror(self, children: [
            ("id", id), ("kind", kind), ("returnURL", returnURL), ("nonce", nonce.map { _ in Redaction.marker } as Any),
            ("deadline", deadline), ("state", state), ("session", session as Any), ("callback", callback as Any),
            ("confirmation", confirmation as Any), ("sessionFailure", sessionFailure as Any),
        ], displayStyle: .struct)
    }
}
#endif
