#if !hasFeature(Embedded)
/// `print(flow)`, `dump` and debuggers show a POS flow without its token (``Redaction``); its
/// answer shows the app's identifier alone. (No reflection in Embedded Swift.)
extension POSFlow: CustomReflectable {
    /// The flow's fields, the token redacted.
    public var customMirror: Mirror {
        Mirror(self, children: [
            ("id", id), ("operation", operation), ("identifier", identifier), ("token", Redaction.marker),
            ("answerScheme", answerScheme), ("amount", amount as Any), ("saleTransactionId", saleTransactionId as Any),
            ("graceMilliseconds", graceMilliseconds), ("state", state), ("foregroundedAt", foregroundedAt as Any),
            ("response", response as Any), ("answeredAt", answeredAt as Any), ("launchFailure", launchFailure as Any),
        ], displayStyle: .struct)
    }
}
#endif
