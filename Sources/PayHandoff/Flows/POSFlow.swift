/// One POS hand-off (a sale, or a Billpocket refund) to the terminal app ``posApp`` as a state machine.
///
/// ```
/// ready ─launched→ launched ─answer→ approved | approved_amount_mismatch | declined | error
///   │                          └─answer with a result word PayHandoff does not know→ unrecognized_result (reconcile)
///   └─launch_failed→ launch_failed (hint: install / log in)
/// launched ─app foregrounded, no answer within the grace period (tick)→ returned_without_response (reconcile)
/// ready | launched ─pos.result without data (the user backed out)→ returned_without_response (reconcile)
/// ```
///
/// Rules: the POS app is sent `<identifier>~<token>` (a fresh, unguessable token per hand-off)
/// and an answer belongs to the flow only when it echoes exactly that, so an answer forged from
/// the order reference alone, or replayed from another hand-off, is refused. The first answer
/// consumes the hand-off; the same answer again is a `duplicate`, a different one `ignored`.
/// Coming back without an answer is *unknown*, never *declined*: the effect is `reconcile`, and
/// a late answer still resolves the flow — also when Android's `onActivityResult` brings no data
/// at all (`pos.result` with no extras: the user backed out of the POS app). An answer whose
/// result word PayHandoff does not know is never an approval: it ends the wait at once
/// (`unrecognized_result`, `reconcile`), books nothing, and a later genuine answer with a known
/// word still resolves the flow (the same unknown answer again is a `duplicate`, another
/// unknown one `ignored`). An approved answer for another amount than requested
/// is `approved_amount_mismatch` with `reconcile`, never silently approved. The flow keeps the
/// bounded copy of the answer (``POSResponse/stored``).
///
/// Two flows are equal when every field is, strings (id, identifier, scheme, transaction id,
/// launch failure) compared by UTF-8 bytes, not under `String`'s `==` (Unicode canonical equivalence).
public struct POSFlow: Equatable, Sendable {
    /// The states; raw values are the snapshot and ABI spelling.
    public enum State: String, Sendable, CaseIterable {
        /// The URL is built; the host opens the POS app.
        case ready
        /// The POS app was opened.
        case launched
        /// The POS app could not be opened (missing, or cannot open the URL).
        case launchFailed = "launch_failed"
        /// Approved for the requested amount.
        case approved
        /// Approved, but for another amount than requested: reconcile.
        case approvedAmountMismatch = "approved_amount_mismatch"
        /// Declined by the issuer (`rechazada`).
        case declined
        /// The POS app reported an error.
        case error
        /// The sale was cancelled in the terminal app; nothing was charged (never Billpocket,
        /// whose cancelled sale is ``error``).
        case cancelled
        /// The app came back and no answer arrived within the grace period, or the POS app returned
        /// no data: outcome unknown.
        case returnedWithoutResponse = "returned_without_response"
        /// The POS app answered with a result word PayHandoff does not know: outcome unknown.
        case unrecognizedResult = "unrecognized_result"

        /// The state spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
        /// canonical equivalence).
        public init?(rawValue: String) {
            guard let value = State.matching(rawValue, among: State.allCases) else { return nil }
            self = value
        }

        /// States that still take an answer.
        var acceptsAnswer: Bool {
            switch self {
            case .ready, .launched, .launchFailed, .returnedWithoutResponse, .unrecognizedResult: return true
            default: return false
            }
        }
    }

    indirect enum Event: Sendable {
        case launched
        case launchFailed(reason: String?)
        case foregrounded
        case answer(POSResponse)
        /// `pos.result` without extras: `onActivityResult` brought no data.
        case noData
        case tick
    }

    /// The longest launch-failure reason kept, as JSON text (longer ones are cut).
    static let maxReasonLength = 256

    /// The hint shown when the POS app cannot be opened.
    public static let launchHint = "Could not open the Billpocket POS app: install it from the App Store / Play Store and log in, then try again."

    /// The hint shown when `app` cannot be opened (Billpocket's is ``launchHint``).
    /// - Parameter app: The terminal app.
    /// - Returns: The hint.
    public static func launchHint(for app: POSApp) -> String {
        switch app {
        case .billpocket: return launchHint
        case .clip: return "Could not open the Clip payment app: this app must run on the Clip terminal itself (Clip Total, Total 2 or Pro 2), logged in."
        case .square, .sumup:
            return "Could not open the " + app.displayName + " app: install it from the App Store / Play Store and log in, then try again."
        }
    }

    /// The `reconcile` effect of an outcome PayHandoff does not know: `why`, then whom to ask.
    @inline(never)  // one message builder for the three ways an outcome stays unknown
    private func unknownOutcome(_ why: String) -> FlowEffect {
        .reconcile(reason: why + "the outcome is unknown, ask " + posApp.displayName + " before charging again")
    }

    /// The host's id for this flow.
    public let id: String
    /// The terminal app the sale went to.
    public let posApp: POSApp
    /// Sale or refund.
    public let operation: POSRequest.Operation
    /// The app's identifier (its order reference), without the token.
    public let identifier: String
    /// The per-hand-off token appended to the identifier sent (``CorrelationSecret``).
    public let token: String
    /// Whether the host gave the token (`pos.start`'s `token`) rather than the coordinator making
    /// a fresh one: such a key is remembered when the flow is forgotten (``RememberedKeys``).
    public let keyGiven: Bool
    /// The scheme answers arrive on (bare, e.g. `myapp`).
    public let answerScheme: String
    /// The amount requested (for a refund: the amount sent, the remaining balance when the host gave none).
    public let amount: Amount?
    /// Refund only: the sale's `transactionid`.
    public let saleTransactionId: String?
    /// How long after the app returns to the foreground an answer may still arrive, ms.
    public let graceMilliseconds: Int64
    /// The current state.
    public private(set) var state: State
    /// When the app came back to the foreground while the POS app was open, epoch ms.
    public private(set) var foregroundedAt: Int64?
    /// The answer that consumed the hand-off, as the flow keeps it (``POSResponse/stored``).
    public private(set) var response: POSResponse?
    /// When the answer was accepted, epoch ms.
    public private(set) var answeredAt: Int64?
    /// Why the launch failed, as the host reported it.
    public private(set) var launchFailure: String?

    init(id: String, operation: POSRequest.Operation, identifier: String, token: String, answerScheme: String, amount: Amount?,
         saleTransactionId: String?, graceMilliseconds: Int64, state: State, foregroundedAt: Int64?,
         response: POSResponse?, answeredAt: Int64?, launchFailure: String?, keyGiven: Bool = false, posApp: POSApp = .billpocket) {
        self.id = id
        self.posApp = posApp
        self.keyGiven = keyGiven
        self.operation = operation
        self.identifier = identifier
        self.token = token
        self.answerScheme = answerScheme
        self.amount = amount
        self.saleTransactionId = saleTransactionId
        self.graceMilliseconds = graceMilliseconds
        self.state = state
        self.foregroundedAt = foregroundedAt
        self.response = response
        self.answeredAt = answeredAt
        self.launchFailure = launchFailure
    }

    /// Equal when every field is; strings compared by UTF-8 bytes.
    public static func == (lhs: POSFlow, rhs: POSFlow) -> Bool {
        lhs.id.hasSameBytes(as: rhs.id) && lhs.operation == rhs.operation && lhs.identifier.hasSameBytes(as: rhs.identifier)
            && lhs.token.hasSameBytes(as: rhs.token)
            && lhs.answerScheme.hasSameBytes(as: rhs.answerScheme) && lhs.amount == rhs.amount
            && lhs.saleTransactionId.hasSameBytes(as: rhs.saleTransactionId) && lhs.graceMilliseconds == rhs.graceMilliseconds
            && lhs.state == rhs.state && lhs.foregroundedAt == rhs.foregroundedAt && lhs.response == rhs.response
            && lhs.answeredAt == rhs.answeredAt && lhs.launchFailure.hasSameBytes(as: rhs.launchFailure)
            && lhs.keyGiven == rhs.keyGiven && lhs.posApp == rhs.posApp
    }

    /// Whether an answer may still arrive (and still change this flow).
    var takesAnswer: Bool { state.acceptsAnswer }

    /// The identifier the POS app was sent and must echo: `<identifier>~<token>`.
    var sentIdentifier: String { identifier + "~" + token }

    /// Whether `answer` is this hand-off's: it echoes `<identifier>~<token>` (token compared in
    /// constant time).
    func isAnswered(by answer: POSResponse) -> Bool {
        return answer.identifier.withUTF8Buffer { POSResponse.identifier($0, is: identifier, token: token) }
    }

    /// Applies `event` at `now` (epoch ms). On a thrown error nothing changed.
    mutating func handle(_ event: Event, now: Int64) throws(PayHandoffError) -> FlowStep {
        switch event {
        case .launched:
            switch state {
            case .ready:
                state = .launched
                return .accepted([])
            case .launched: return .duplicate
            default: return .ignored
            }

        case .launchFailed(let reason):
            guard state == .ready || state == .launched else {
                return state == .launchFailed ? .duplicate : .ignored
            }
            launchFailure = reason.map { JSONValue.cut($0, toPrintedLength: POSFlow.maxReasonLength).0 }
            state = .launchFailed
            return .accepted([.showHint(message: POSFlow.launchHint(for: posApp))])

        case .foregrounded:
            guard state == .launched, foregroundedAt == nil else { return .accepted([], changed: false) }
            foregroundedAt = now
            return .accepted([])

        case .answer(let answer):
            guard isAnswered(by: answer) else {
                throw PayHandoffError(.callbackMismatch, field: "identifier", "the answer's identifier is not this hand-off's")
            }
            let kept = answer.stored
            guard state.acceptsAnswer, state != .unrecognizedResult || answer.result != .unrecognized else {
                return kept == response ? .duplicate : .ignored
            }
            response = kept
            answeredAt = now
            switch answer.result {
            case .approved:
                if let amount, let answered = answer.amount, answered != amount {
                    state = .approvedAmountMismatch
                    return .accepted([.reconcile(reason: "the POS app approved " + answered.decimalString
                                                 + " but " + amount.decimalString + " was requested")])
                }
                state = .approved
            case .declined: state = .declined
            case .error: state = .error
            case .cancelled: state = .cancelled
            case .unrecognized:
                state = .unrecognizedResult
                // The word is the POS app's text: shown unless it echoes the token (or a user token).
                let word = JSONValue.cut(answer.resultWord ?? "", toPrintedLength: 42).0
                let shown = Redaction.mayCarrySecret(answer.resultWord ?? "", secrets: [token]) ? Redaction.marker : word
                return .accepted([unknownOutcome("the POS app answered with a result word PayHandoff does not know (\"" + shown + "\"): ")])
            }
            return .accepted([])

        case .noData:
            switch state {
            case .ready, .launched:
                // onActivityResult with no data: the POS app came back, without a word.
                if foregroundedAt == nil { foregroundedAt = now }
                state = .returnedWithoutResponse
                return .accepted([unknownOutcome("the POS app returned no result (the user backed out of it): ")])
            case .returnedWithoutResponse: return .duplicate
            default: return .ignored
            }

        case .tick:
            guard state == .launched, let foregroundedAt, now >= foregroundedAt + graceMilliseconds else {
                return .accepted([], changed: false)
            }
            state = .returnedWithoutResponse
            return .accepted([unknownOutcome("the app came back from the POS app without an answer: ")])
        }
    }
}
