#if !hasFeature(Embedded)
/// `dump(request)` and debuggers use reflection, which would print the user token; this
/// mirror shows the request's fields with the token redacted. (No reflection in Embedded Swift.)
extension POSRequest: CustomReflectable {
    /// The fields, with `usertoken` as `<redacted>`.
    public var customMirror: Mirror {
        let children = fields().map { item in
            (label: Optional(item.key), value: (item.key == "usertoken" ? "<redacted>" : item.value) as Any)
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
#endif
