#if !hasFeature(Embedded)
/// `dump(request)` and debuggers use reflection, which would print the user token; this
/// mirror shows the request's fields with the user token redacted and the identifier without the
/// token a request ``withToken(_:)`` appended (``Redaction``). (No reflection in Embedded Swift.)
extension POSRequest: CustomReflectable {
    /// The fields, with `usertoken` as `<redacted>` and the identifier's token redacted.
    public var customMirror: Mirror {
        let children = fields().map { item in
            (label: Optional(item.key), value: POSRequest.shown(item) as Any)
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
