/// One hosted-checkout hand-off (card registration or payment) as a state machine.
///
/// ```
/// awaiting_session ─session→ ready ─browser_opened→ in_browser ─browser_dismissed→ returned_without_result
///                                 (browser_result: canceled as browser_dismissed; verification_* / unknown
///                                  the same move with reconcile; ok as the deep link)
///        │                     └──────────── callback completed ───────────→ awaiting_confirmation
///        └─session_failed→ failed          callback failed → failed, cancelled → cancelled
/// any state ─confirmation→ confirmed        waiting states ─tick ≥ deadline→ expired (reconcile)
/// ```
///
/// Rules: a confirmation (the webhook, relayed) wins over any deep-link status and may arrive
/// in any order; a dismissed tab is never a failure and a later deep link still resolves the
/// flow; the first verified callback (nonce echoed) consumes the hand-off, the same callback
/// again is a `duplicate`, a different one `ignored`; a rejected event changes nothing.
///
/// Unverified callbacks (no nonce) reach a flow only when the coordinator is configured to
/// accept them (``Coordinator/Configuration/acceptUnverifiedCallbacks``): anyone can send one,
/// any number of times, before the genuine session exists. So a claim never moves the flow:
/// until a verified callback arrives the flow keeps the *latest* claim in its one callback slot
/// (room the snapshot keeps for it) and answers each claim `accepted` — a claimed `completed`
/// with `show_pending` ("confirming…") — while `checkout.session`, `checkout.browser_opened`
/// and `checkout.browser_dismissed` go on as if there were none; the verified callback, when it
/// comes, replaces the claim, and the confirmation decides.
///
/// Two flows are equal when every field is, strings (id, nonce, failure reason) compared by
/// UTF-8 bytes, not under `String`'s `==` (Unicode canonical equivalence).
public struct CheckoutFlow: Equatable, Sendable {
    /// The states; raw values are the snapshot and ABI spelling.
    public enum State: String, Sendable, CaseIterable {
        /// Waiting for the session (the host sends the request or asks its backend).
        case awaitingSession = "awaiting_session"
        /// The checkout URL is known; the host opens the browser tab.
        case ready
        /// The browser tab is open.
        case inBrowser = "in_browser"
        /// The tab was dismissed or cancelled with no deep link yet: no result, not a failure.
        case returnedWithoutResult = "returned_without_result"
        /// The deep link said `completed`; waiting for the confirmation.
        case awaitingConfirmation = "awaiting_confirmation"
        /// The confirmation arrived: the only success.
        case confirmed
        /// The deep link said `failed`, or the session could not be created.
        case failed
        /// The deep link said `cancelled`.
        case cancelled
        /// No confirmation by the deadline: ask the backend (reconcile).
        case expired

        /// The state spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
        /// canonical equivalence).
        public init?(rawValue: String) {
            guard let value = State.matching(rawValue, among: State.allCases) else { return nil }
            self = value
        }

        /// States in which the flow still waits for its result and can expire.
        var isWaiting: Bool {
            switch self {
            case .awaitingSession, .ready, .inBrowser, .returnedWithoutResult, .awaitingConfirmation: return true
            case .confirmed, .failed, .cancelled, .expired: return false
            }
        }

        /// States in which the hand-off has not been consumed by a callback yet.
        var acceptsCallback: Bool {
            switch self {
            case .awaitingSession, .ready, .inBrowser, .returnedWithoutResult: return true
            default: return false
            }
        }
    }

    /// An event for this flow (the coordinator routes and parses; the flow decides).
    enum Event: Sendable {
        case session(CheckoutSession)
        case sessionFailed(reason: String)
        case browserOpened
        case browserDismissed
        /// The browser returned without the URL and without saying the user cancelled
        /// (`checkout.browser_result` `verification_failed`, `verification_timed_out`, `unknown`).
        case browserReturnedUnverified(reason: String)
        case callback(CheckoutCallback)
        case confirmation(CheckoutConfirmation)
        case tick
    }

    /// The host's id for this flow.
    public let id: String
    /// Card registration or payment.
    public let kind: CheckoutKind
    /// The registered return URL (without the nonce).
    public let returnURL: ReturnURL
    /// The correlation nonce put into the return URL; `nil` when the session was created without it.
    public let nonce: String?
    /// Whether the host gave the nonce (`checkout.start`'s `nonce`) rather than the coordinator
    /// making a fresh one: such a key is remembered when the flow is forgotten (``RememberedKeys``).
    public let keyGiven: Bool
    /// When the flow expires without a confirmation, epoch milliseconds.
    public let deadline: Int64
    /// The current state.
    public private(set) var state: State
    /// The session, once known.
    public private(set) var session: CheckoutSession?
    /// The verified callback that consumed the hand-off or, until one arrives, the latest claim
    /// (``CheckoutCallback/isVerified`` tells which).
    public private(set) var callback: CheckoutCallback?
    /// The confirmation, once received.
    public private(set) var confirmation: CheckoutConfirmation?
    /// Why the session could not be created (`checkout.session_failed`).
    public private(set) var sessionFailure: String?

    /// Why the flow failed: the session error, or the provider's reason a verified `failed`
    /// callback carried (kept once, in the callback).
    public var failureReason: String? {
        if let sessionFailure { return sessionFailure }
        guard state == .failed, let callback, callback.isVerified else { return nil }
        return callback.reason
    }

    init(id: String, kind: CheckoutKind, returnURL: ReturnURL, nonce: String?, deadline: Int64, state: State,
         session: CheckoutSession?, callback: CheckoutCallback?, confirmation: CheckoutConfirmation?, sessionFailure: String?,
         keyGiven: Bool = false) {
        self.id = id
        self.kind = kind
        self.returnURL = returnURL
        self.nonce = nonce
        self.keyGiven = keyGiven && nonce != nil
        self.deadline = deadline
        self.state = state
        self.session = session
        self.callback = callback
        self.confirmation = confirmation
        self.sessionFailure = sessionFailure
    }

    /// Equal when every field is; strings compared by UTF-8 bytes.
    public static func == (lhs: CheckoutFlow, rhs: CheckoutFlow) -> Bool {
        lhs.id.hasSameBytes(as: rhs.id) && lhs.kind == rhs.kind && lhs.returnURL == rhs.returnURL
            && lhs.nonce.hasSameBytes(as: rhs.nonce) && lhs.deadline == rhs.deadline && lhs.state == rhs.state
            && lhs.session == rhs.session && lhs.callback == rhs.callback && lhs.confirmation == rhs.confirmation
            && lhs.sessionFailure.hasSameBytes(as: rhs.sessionFailure) && lhs.keyGiven == rhs.keyGiven
    }

    /// The longest session-failure reason kept, as JSON text (longer ones are cut).
    static let maxReasonLength = 256

    /// Until when a checkout that `failed` or was `cancelled` by its callback is kept for its
    /// confirmation: the gateway retries its webhook for up to 3 days
    /// (``RememberedKeys/horizonMilliseconds``) after the checkout could last end, its deadline.
    var confirmationHorizon: Int64 {
        Swift.min(deadline, MexicoCityTime.maxEpochMilliseconds - RememberedKeys.horizonMilliseconds) + RememberedKeys.horizonMilliseconds
    }

    /// Whether a callback may still change this flow: until a verified one consumed the hand-off
    /// (a claim only fills the slot the verified callback replaces).
    var takesDeepLink: Bool { state.acceptsCallback && callback?.isVerified != true }

    /// Where the gateway sends the user back (return URL with the nonce).
    var sentReturnURL: String { nonce.map { returnURL.adding(nonce: $0) } ?? returnURL.text }

    /// Applies `event` at `now` (epoch ms). On a thrown error nothing changed.
    mutating func handle(_ event: Event, now: Int64) throws(PayHandoffError) -> FlowStep {
        switch event {
        case .session(let session):
            guard state == .awaitingSession else { return try notNow("checkout.session") }
            guard session.kind == kind else {
                throw PayHandoffError(.validation, field: "session.kind", "the session's kind is not this flow's")
            }
            self.session = session
            state = .ready
            return .accepted([.openBrowser(url: session.checkoutURL, returnTo: returnURL.target(nonce: nonce))])

        case .sessionFailed(let reason):
            guard state == .awaitingSession else { return try notNow("checkout.session_failed") }
            sessionFailure = JSONValue.cut(reason, toPrintedLength: CheckoutFlow.maxReasonLength).0
            state = .failed
            return .accepted([])

        case .browserOpened:
            switch state {
            case .ready, .returnedWithoutResult:
                state = .inBrowser
                return .accepted([])
            case .inBrowser: return .duplicate
            case .awaitingSession: return try notNow("checkout.browser_opened")
            default: return .ignored
            }

        case .browserDismissed:
            switch state {
            case .inBrowser, .ready:
                // The tab closing races the deep link: no result yet, never a failure.
                state = .returnedWithoutResult
                return .accepted([])
            case .returnedWithoutResult: return .duplicate
            case .awaitingSession: return try notNow("checkout.browser_dismissed")
            default: return .ignored
            }

        case .browserReturnedUnverified(let reason):
            // The gateway may have reached the return URL: never a failure, never "cancelled";
            // the flow waits as a dismissed one does and the host asks its backend.
            switch state {
            case .inBrowser, .ready:
                state = .returnedWithoutResult
                return .accepted([.reconcile(reason: reason)])
            case .returnedWithoutResult: return .accepted([.reconcile(reason: reason)], changed: false)
            case .awaitingSession: return try notNow("checkout.browser_result")
            default: return .ignored
            }

        case .callback(let received):
            let callback = received.stored
            guard takesDeepLink else {
                return callback == self.callback ? .duplicate : .ignored
            }
            guard callback.isVerified else {
                // A claim: kept (the latest one) and answered, never a move of the flow: it may
                // show "confirming…", never end the flow, close the browser or block the host.
                let changed = self.callback != callback
                self.callback = callback
                return .accepted(callback.status == .completed ? [.showPending] : [], changed: changed)
            }
            self.callback = callback
            switch callback.status {
            case .completed:
                state = .awaitingConfirmation
                return .accepted([.closeBrowser, .showPending])
            case .failed:
                state = .failed
                return .accepted([.closeBrowser])
            case .cancelled:
                state = .cancelled
                return .accepted([.closeBrowser])
            }

        case .confirmation(let confirmation):
            guard confirmation.kind == kind else {
                throw PayHandoffError(.conflict, field: "type", "the confirmation is for another kind of session")
            }
            if let existing = self.confirmation {
                try existing.checkConsistent(with: confirmation)
                return .duplicate
            }
            // Only a verified callback's id binds the confirmation: an unverified one naming
            // another id must not be able to block the genuine webhook.
            if let callback, callback.isVerified { try confirmation.checkMatches(callback) }
            if let expected = session?.objectID, !expected.hasSameBytes(as: confirmation.objectID) {
                throw PayHandoffError(.conflict, field: kind.idKey, "the confirmation's id is not this session's")
            }
            // A claim never closed the tab: in these states it may still be open.
            let browserMayBeOpen = state == .inBrowser || state == .ready
            self.confirmation = confirmation
            state = .confirmed
            return .accepted(browserMayBeOpen ? [.closeBrowser] : [])

        case .tick:
            guard state.isWaiting, now >= deadline else { return .accepted([], changed: false) }
            state = .expired
            return .accepted([.closeBrowser, .reconcile(reason: "no confirmation by the deadline: ask the backend for the "
                                                                 + kind.rawValue + " session's state")])
        }
    }

    private func notNow(_ event: String) throws(PayHandoffError) -> FlowStep {
        if !state.isWaiting { return .ignored }
        throw PayHandoffError(.invalidState, field: "type", event + " is not allowed in state " + state.rawValue)
    }
}
