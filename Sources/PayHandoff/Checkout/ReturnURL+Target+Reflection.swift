#if !hasFeature(Embedded)
/// `print(target)`, `"\(effect)"`, `dump` and debuggers show an https return path without the
/// nonce segment's value (`/checkout-callback/ph_<redacted>`, ``Redaction``); a scheme is no
/// secret. (No reflection in Embedded Swift.)
extension ReturnURL.Target: CustomReflectable {
    /// The case and its values, the nonce redacted.
    public var customMirror: Mirror {
        switch self {
        case .scheme(let scheme):
            return Mirror(self, children: [("scheme", scheme)], displayStyle: .enum)
        case .https(let host, let path):
            return Mirror(self, children: [("https", (host: host, path: Redaction.noncePath(path)))], displayStyle: .enum)
        }
    }
}
#endif
