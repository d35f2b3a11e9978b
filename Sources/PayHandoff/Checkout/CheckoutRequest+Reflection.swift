#if !hasFeature(Embedded)
/// `print(request)`, `dump` and debuggers show a checkout request without its API key (the
/// stored property is internal, but reflection would show it). (No reflection in Embedded Swift.)
extension CheckoutRequest: CustomReflectable {
    /// The request's fields, the API key redacted.
    public var customMirror: Mirror {
        Mirror(self, children: [
            ("kind", kind), ("baseURL", baseURL), ("returnURL", returnURL as Any), ("integration", integration),
            ("body", body), ("warnings", warnings), ("apiKey", Redaction.marker),
        ], displayStyle: .struct)
    }
}
#endif
