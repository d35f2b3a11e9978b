#if !hasFeature(Embedded)
/// `dump(request)` and debuggers show the request as ``description`` does, the API key redacted
/// to its type prefix (`Bearer sk_…`), and the body with its `return_url` (which carries the
/// nonce) shown by its origin only (``Redaction``). (No reflection in Embedded Swift.)
extension HTTPRequest: CustomReflectable {
    /// Method, URL, headers and body, secrets redacted.
    public var customMirror: Mirror {
        var body = self.body
        if case .object(var members) = body, case .string(let returnURL)? = members["return_url"] {
            members["return_url"] = .string(Redaction.url(returnURL))
            body = .object(members)
        }
        let children: [(label: String?, value: Any)] = [("method", method), ("url", url), ("headers", redactedHeaders), ("body", body)]
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

/// An `Authorization` header shows the key's type prefix only (`Bearer sk_…`).
extension HTTPRequest.Header: CustomReflectable {
    /// Name and value, an `Authorization` value redacted.
    public var customMirror: Mirror {
        let shown = ASCII.equalFoldingCase(name, "Authorization") ? HTTPRequest.redactBearer(value) : value
        let children: [(label: String?, value: Any)] = [("name", name), ("value", shown)]
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
