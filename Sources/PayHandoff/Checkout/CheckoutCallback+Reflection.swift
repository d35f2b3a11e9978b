#if !hasFeature(Embedded)
/// `print(callback)`, `dump` and debuggers show the decoded callback, not the URL it was read
/// from, which carries the flow's nonce; of the other parameters, only their keys (whoever sent
/// the URL chose them: a gateway or an older app may echo the nonce there, as `ph_nonce=`, which
/// PayHandoff 0.2 sent). (No reflection in Embedded Swift.)
extension CheckoutCallback: CustomReflectable {
    /// The callback's fields, the other parameters' values redacted; absent ones left out.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("kind", kind), ("status", status), ("isVerified", isVerified)]
        if let objectID { children.append(("objectID", objectID)) }
        if let reason { children.append(("reason", reason)) }
        if !extra.isEmpty { children.append(("extra", extra.map { $0.key + "=" + Redaction.marker })) }
        if !truncated.isEmpty { children.append(("truncated", truncated)) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
