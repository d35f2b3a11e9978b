/// Something the host must do after an event. The core is sans-IO: it never opens URLs, sends
/// HTTP or reads clocks; it says what to do and the host does it.
///
/// Effects compare equal when their strings have the same UTF-8 bytes (not under `String`'s
/// `==`, which is Unicode canonical equivalence).
public enum FlowEffect: Equatable, Sendable {
    /// Send this HTTP request to the gateway, then report the answer with `checkout.session`
    /// (or `checkout.session_failed` when it could not be sent). Holds the API key.
    case sendRequest(HTTPRequest)
    /// Ask the merchant backend to create the session with this `return_url` (nonce included),
    /// then report it with `checkout.session`.
    case createSession(kind: CheckoutKind, returnURL: String)
    /// Open this checkout URL in the system browser tab (SFSafariViewController / Custom Tabs),
    /// or in an OS-captured channel (Auth Tab, `ASWebAuthenticationSession`) launched with
    /// `returnTo` (`nil` when no such channel can capture the return URL: ``ReturnURL/target(nonce:)``).
    case openBrowser(url: String, returnTo: ReturnURL.Target?)
    /// Close the browser tab if it is still open.
    case closeBrowser
    /// Show "confirming…": the deep link said completed, the confirmation has not arrived.
    case showPending
    /// Open this `billpocket://` URL (holds the POS user token).
    case openPOSApp(url: String)
    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// Open another terminal app than Billpocket (`open_pos_app` with `pos_app` and `intent`):
    /// on iOS the `url` (SumUp, Square), on Android the `intent` (Clip has no URL). Holds the
    /// secrets the app needs (SumUp's affiliate key, the token): never log it. (Not in the web's
    /// checkout module, which has no POS flows.)
    case openPOSIntent(posApp: POSApp, url: String?, intent: POSIntent)
    #endif
    /// Tell the user something they can fix (install or log in to the POS app).
    case showHint(message: String)
    /// The outcome is unknown or suspicious: ask the backend / Billpocket what happened.
    case reconcile(reason: String)
    /// Save the coordinator snapshot now; it changed.
    case persist

    /// Equal when both are the same effect with the same values; strings compared by UTF-8 bytes.
    public static func == (lhs: FlowEffect, rhs: FlowEffect) -> Bool {
        switch (lhs, rhs) {
        case let (.sendRequest(a), .sendRequest(b)):
            return a == b
        case let (.createSession(k, a), .createSession(l, b)):
            return k == l && a.hasSameBytes(as: b)
        case let (.openBrowser(a, r), .openBrowser(b, s)):
            return a.hasSameBytes(as: b) && r == s
        case let (.openPOSApp(a), .openPOSApp(b)),
             let (.showHint(a), .showHint(b)), let (.reconcile(a), .reconcile(b)):
            return a.hasSameBytes(as: b)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case let (.openPOSIntent(p, u, i), .openPOSIntent(q, v, j)):
            return p == q && u.hasSameBytes(as: v) && i == j
        #endif
        case (.closeBrowser, .closeBrowser), (.showPending, .showPending), (.persist, .persist):
            return true
        default:
            return false
        }
    }

    /// Whether this is ``persist`` (a pattern match: no comparison of the other effects' strings).
    var isPersist: Bool {
        if case .persist = self { return true }
        return false
    }

    /// The effect as a document: `{"type": "open_browser", "url": "…"}`, `{"type": "persist"}`, …
    /// Secret-bearing for `send_request` (the API key), `create_session` (the return URL's nonce),
    /// `open_pos_app` (the user token and the token) and `open_browser` (the gateway's page may echo
    /// the return URL; `return_to.https_path` holds the nonce): a `JSONValue` prints whole, while
    /// the effect itself prints them redacted. `open_browser`'s `return_to` is
    /// `{"scheme": "fixapp"}` or `{"https_host": "tuapp.com", "https_path": "/checkout-callback/ph_<nonce>"}`,
    /// absent when no OS channel can capture the return URL.
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        switch self {
        case .sendRequest(let request):
            writer.member("type", string: "send_request")
            writer.key("request")
            request.write(revealingSecrets: true, to: writer)
        case .createSession(let kind, let returnURL):
            writer.member("type", string: "create_session")
            writer.member("kind", string: kind.rawValue)
            writer.member("return_url", string: returnURL)
        case .openBrowser(let url, let returnTo):
            writer.member("type", string: "open_browser")
            writer.member("url", string: url)
            if let returnTo {
                writer.key("return_to")
                returnTo.write(to: writer)
            }
        case .closeBrowser:
            writer.member("type", string: "close_browser")
        case .showPending:
            writer.member("type", string: "show_pending")
        case .openPOSApp(let url):
            writer.member("type", string: "open_pos_app")
            writer.member("url", string: url)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .openPOSIntent(let posApp, let url, let intent):
            writer.member("type", string: "open_pos_app")
            writer.member("pos_app", string: posApp.rawValue)
            writer.optionalMember("url", string: url)
            writer.key("intent")
            intent.write(to: writer)
        #endif
        case .showHint(let message):
            writer.member("type", string: "show_hint")
            writer.member("message", string: message)
        case .reconcile(let reason):
            writer.member("type", string: "reconcile")
            writer.member("reason", string: reason)
        case .persist:
            writer.member("type", string: "persist")
        }
        writer.end()
    }
}

/// What happened to an event.
public enum EventOutcome: String, Sendable, CaseIterable {
    /// The event was valid and applied (possibly with no visible change, e.g. a tick before any deadline).
    case accepted
    /// The same callback or confirmation was already applied; nothing changed.
    case duplicate
    /// The event is valid but its flow has ended (e.g. a second, different answer); reported, nothing changed.
    case ignored
    /// The event broke a rule; nothing changed (see the error).
    case rejected
    /// The URL belongs to no flow of this coordinator (another part of the app may handle it).
    case notOurs = "not_ours"

    /// The outcome spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
    /// canonical equivalence).
    public init?(rawValue: String) {
        guard let value = EventOutcome.matching(rawValue, among: EventOutcome.allCases) else { return nil }
        self = value
    }
}

/// The result of one event in one flow, before the coordinator wraps it.
struct FlowStep: Equatable, Sendable {
    var outcome: EventOutcome
    var effects: [FlowEffect]
    /// Whether the flow changed (then `effects` ends with `persist`).
    var changed: Bool

    static let duplicate = FlowStep(outcome: .duplicate, effects: [], changed: false)
    static let ignored = FlowStep(outcome: .ignored, effects: [], changed: false)

    /// An accepted step; a state change is always followed by `persist`. Not inlined: the
    /// append would be repeated at each of the flows' many return points.
    @inline(never)
    static func accepted(_ effects: [FlowEffect], changed: Bool = true) -> FlowStep {
        FlowStep(outcome: .accepted, effects: changed ? effects + [.persist] : effects, changed: changed)
    }
}
