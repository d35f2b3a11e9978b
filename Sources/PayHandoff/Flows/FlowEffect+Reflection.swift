#if !hasFeature(Embedded)
/// `print(answer)`, `"\(effect)"`, `dump` and debuggers show an effect without the secrets it
/// carries for the app to use (``Redaction``): the return URL's nonce (`create_session`), the POS
/// user token and the flow's token (`open_pos_app`), the checkout URL but for its origin
/// (`open_browser`: the gateway's page may echo the return URL), the nonce in `open_browser`'s
/// https return path (``ReturnURL/Target``), the API key (`send_request`).
/// (No reflection in Embedded Swift.)
extension FlowEffect: CustomReflectable {
    /// The case and its values, secrets redacted.
    public var customMirror: Mirror {
        let payload: (label: String?, value: Any)?
        switch self {
        case .sendRequest(let request): payload = ("sendRequest", request)
        case .createSession(let kind, let returnURL): payload = ("createSession", (kind: kind, returnURL: Redaction.url(returnURL)))
        case .openBrowser(let url, let returnTo): payload = ("openBrowser", (url: Redaction.url(url), returnTo: returnTo))
        case .openPOSApp(let url): payload = ("openPOSApp", Redaction.url(url))
        case .openPOSIntent(let posApp, _, _): payload = ("openPOSIntent", (posApp: posApp, url: Redaction.marker, intent: Redaction.marker))
        case .showHint(let message): payload = ("showHint", message)
        case .reconcile(let reason): payload = ("reconcile", reason)
        case .closeBrowser, .showPending, .persist: payload = nil
        }
        return Mirror(self, children: payload.map { [$0] } ?? [], displayStyle: .enum)
    }
}
#endif
