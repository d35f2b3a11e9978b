#if !hasFeature(Embedded)
/// `print(event)`, `dump` and debuggers show an event without its secrets (``Redaction``): the
/// nonce or token given to a start, a deep link's URL (a POS answer may echo the user token; a
/// callback carries the nonce; a browser result's too) and the values of result extras. The request, session and
/// confirmation a start carries redact themselves. (No reflection in Embedded Swift.)
extension CoordinatorEvent.Kind: CustomReflectable {
    /// The case and its values, secrets redacted.
    public var customMirror: Mirror {
        let payload: (label: String?, value: Any)?
        switch self {
        case .checkoutStart(let id, let start, let deadline):
            payload = ("checkoutStart", (flowID: id, start: start, deadline: deadline))
        case .checkoutSession(let id, let session): payload = ("checkoutSession", (flowID: id, session: session))
        case .checkoutSessionFailed(let id, let reason): payload = ("checkoutSessionFailed", (flowID: id, reason: reason))
        case .browserOpened(let id): payload = ("browserOpened", id)
        case .browserDismissed(let id): payload = ("browserDismissed", id)
        case .confirmation(let id, let confirmation): payload = ("confirmation", (flowID: id, confirmation: confirmation))
        case .browserResult(let id, let result): payload = ("browserResult", (flowID: id, result: result))
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .posStart(let id, let request, let refundOf, let grace, let token):
            payload = ("posStart", (flowID: id, request: request, refundOf: refundOf, graceMilliseconds: grace,
                                    token: token.map { _ in Redaction.marker }))
        case .posLaunched(let id): payload = ("posLaunched", id)
        case .posLaunchFailed(let id, let reason): payload = ("posLaunchFailed", (flowID: id, reason: reason))
        case .posResult(let id, let extras):
            // Keys only: the POS app may echo the user token, the PIN or the identifier with its token.
            payload = ("posResult", (flowID: id, extras: extras.map { $0.key + "=" + Redaction.marker }))
        #endif
        case .appForegrounded, .tick: payload = nil
        case .url(let url): payload = ("url", Redaction.url(url))
        case .removeFlow(let id, let giveUp): payload = ("removeFlow", (flowID: id, giveUp: giveUp))
        }
        return Mirror(self, children: payload.map { [$0] } ?? [], displayStyle: .enum)
    }
}

/// A checkout start without the nonce it was given.
extension CoordinatorEvent.CheckoutStart: CustomReflectable {
    /// The case and its values, the nonce redacted.
    public var customMirror: Mirror {
        let hidden = nonce.map { _ in Redaction.marker }
        let payload: (label: String?, value: Any)
        switch self {
        case .request(let request, _): payload = ("request", (request: request, nonce: hidden))
        case .backend(let kind, let returnURL, _): payload = ("backend", (kind: kind, returnURL: returnURL, nonce: hidden))
        case .session(let session, let returnURL, let nonce):
            // A session id that echoes the nonce given with it (issue 35) is not shown either.
            let echoed = [session.sessionID, session.objectID].contains { text in
                text.map { Redaction.mayCarrySecret($0, secrets: nonce.map { [$0] } ?? []) } ?? false
            }
            payload = ("session", (session: echoed ? Redaction.marker as Any : session, returnURL: returnURL, nonce: hidden))
        }
        return Mirror(self, children: [payload], displayStyle: .enum)
    }
}
#endif
