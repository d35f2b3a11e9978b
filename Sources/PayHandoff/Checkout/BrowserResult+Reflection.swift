#if !hasFeature(Embedded)
/// `print(result)`, `dump` and debuggers show the channel and code, and the URL without what
/// follows its scheme or origin (it carries the flow's nonce; ``Redaction``). (No reflection in
/// Embedded Swift.)
extension BrowserResult: CustomReflectable {
    /// The fields, the URL redacted; an absent URL left out.
    public var customMirror: Mirror {
        var children: [(label: String?, value: Any)] = [("channel", channel), ("code", code)]
        if let url { children.append(("url", Redaction.url(url))) }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
