#if !hasFeature(Embedded)
/// `print(items)`, `dump` and debuggers show a pair's value redacted when its key names a secret
/// (``Redaction``): a POS request's or answer's `usertoken` or `pin` in any case, and the token of
/// an `identifier` (`order-42~<redacted>`). A request's ``POSRequest/fields(keyStyle:)`` and a
/// `pos.result` event's extras are made of these pairs. (No reflection in Embedded Swift.)
extension QueryItem: CustomReflectable {
    /// Key and value, a secret value redacted.
    public var customMirror: Mirror {
        let shown = Redaction.isSecretKey(key) ? Redaction.marker
            : ASCII.equalFoldingCase(key, "identifier") ? Redaction.identifier(value) : value
        let children: [(label: String?, value: Any)] = [("key", key), ("value", shown)]
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
