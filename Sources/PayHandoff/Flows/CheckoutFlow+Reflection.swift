#if !hasFeature(Embedded)
/// `print(flow)`, `dump` and debuggers show a checkout flow without its nonce (``Redaction``);
/// its session and callback redact themselves. (No reflection in Embedded Swift.)
extension CheckoutFlow: CustomReflectable {
    /// The flow's fields, the nonce redacted; a session or callback that echoes it (issue 35) is
    /// shown as the flow's `details` show it.
    public var customMirror: Mirror {
        let secrets = nonce.map { [$0] } ?? []
        func echoes(_ texts: [String?]) -> Bool {
            texts.contains { $0.map { Redaction.mayCarrySecret($0, secrets: secrets) } ?? false }
        }
        var details: JSONValue? = nil
        func shown(_ key: String, _ value: Any, echoing: Bool) -> Any {
            guard echoing else { return value }
            if details == nil { details = Coordinator.Flow.checkout(self).detailsJSON }
            return details?.value(at: key) as Any
        }
        let sessionShown = session.map { shown("session", $0, echoing: echoes([$0.sessionID, $0.objectID])) }
        let callbackShown = callback.map { shown("callback", $0, echoing: echoes([$0.reason, $0.objectID] + $0.extra.map(\.key))) }
        return Mirror(self, children: [
            ("id", id), ("kind", kind), ("returnURL", returnURL), ("nonce", nonce.map { _ in Redaction.marker } as Any),
            ("deadline", deadline), ("state", state), ("session", sessionShown as Any), ("callback", callbackShown as Any),
            ("confirmation", confirmation as Any), ("sessionFailure", sessionFailure as Any),
        ], displayStyle: .struct)
    }
}
#endif
