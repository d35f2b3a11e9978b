/// An event for a ``Coordinator``: everything the host tells PayHandoff, each with the time it
/// happened (`now`, epoch milliseconds; the core never reads a clock).
///
/// JSON spelling (``init(json:)``), all with `"now": <epoch ms>`:
///
/// | `type` | members | meaning |
/// |---|---|---|
/// | `checkout.start` | `flow_id`, then one of: `request` (a ``CheckoutRequest`` document: PayHandoff builds the HTTP request) · `kind` + `return_url` (the backend creates the session: effect `create_session`) · `kind` + `return_url` + `session` (the backend already created it); optional `nonce` (the one to use or that was used; fresh otherwise; required for `session` unless unverified callbacks are accepted), optional `deadline` (epoch ms) | start a checkout |
/// | `checkout.session` | `flow_id`, `session` (a ``CheckoutSession`` document: gateway answer or backend data) | the session was created (or the gateway refused) |
/// | `checkout.session_failed` | `flow_id`, `reason` | the request could not be sent |
/// | `checkout.browser_opened` / `checkout.browser_dismissed` | `flow_id` | the tab opened / was closed by the user |
/// | `checkout.browser_result` | `flow_id`, `channel`, `code`, `url` (with `ok` only) | an OS-captured return channel's result (``BrowserResult``) |
/// | `checkout.confirmation` | `flow_id`, `event` (the webhook, see ``CheckoutConfirmation``) | the backend relayed the confirmation |
/// | `pos.start` | `flow_id`, `request` (a ``POSRequest`` document); refunds also `sale_flow_id` or `sale` (`{"transactionid", "amount", "approved_at" (epoch s), "bp_version"}`); optional `grace_ms`, optional `token` (the per-flow token; fresh otherwise) | start a POS hand-off |
/// | `pos.launched` / `pos.launch_failed` | `flow_id` (+ `reason`) | the POS app opened / could not be opened |
/// | `pos.result` | `flow_id`, `extras` (an object of strings: the POS app's Android result extras; absent, `null` or `{}` when `onActivityResult` brought no data), optional `result_code` (an integer, checked and not kept) | the POS app answered through `onActivityResult` (or returned nothing: the user backed out) |
/// | `app.foregrounded` | — | the app is in front again |
/// | `tick` | — | time passed (deadlines, grace periods) |
/// | `url` | `url` | a deep link arrived (same as ``Coordinator/handle(url:now:)``) |
/// | `flow.remove` | `flow_id`, optional `give_up` (`true` to abandon a flow still waiting for its answer) | forget a flow |
///
/// Both doors check the same rules, written once in the typed initializer
/// (``init(_:now:)``): `now` and deadlines are epoch milliseconds from 1970 to 9999; flow ids are
/// 1 to 128 bytes without spaces or control characters; nonces and tokens follow
/// ``CorrelationSecret`` (a token has no `~`); grace periods are 0 to 3,600,000 ms; a refund names
/// its sale and a sale does not; a `sale` document's `transactionid` follows the ledger's rule
/// (``RefundLedger/checkTransactionID(_:field:)``) and its amount is above zero. ``init(json:)`` reads the document and hands the values to it, so an event either
/// door accepts is the same event, and a refused one fails with the same code and field.
///
/// Events compare equal when their strings (flow ids, nonces, reasons, URLs) have the same
/// UTF-8 bytes, not under `String`'s `==` (Unicode canonical equivalence).
public struct CoordinatorEvent: Equatable, Sendable {
    /// How a checkout starts.
    public indirect enum CheckoutStart: Equatable, Sendable {
        /// PayHandoff builds the HTTP request (effect `send_request`); `nonce` as given or fresh.
        case request(CheckoutRequest, nonce: String?)
        /// The merchant backend creates the session with the return URL PayHandoff prepares
        /// (effect `create_session`, nonce included); `nonce` as given or fresh.
        case backend(kind: CheckoutKind, returnURL: ReturnURL, nonce: String?)
        /// The backend already created the session; `nonce` is the one in its return URL.
        case session(CheckoutSession, returnURL: ReturnURL, nonce: String?)

        /// The nonce given with the start, if any.
        var nonce: String? {
            switch self {
            case .request(_, let nonce), .backend(_, _, let nonce), .session(_, _, let nonce): return nonce
            }
        }
    }

    /// What a refund refunds.
    public enum RefundOf: Equatable, Sendable {
        /// An approved sale flow of this coordinator.
        case saleFlow(id: String)
        /// A sale known from elsewhere.
        case sale(RefundEligibility.Sale)
    }

    /// The event kinds.
    public indirect enum Kind: Equatable, Sendable {
        /// `checkout.start`: a new checkout flow; `deadline` in epoch ms (default: now + timeout).
        case checkoutStart(flowID: String, start: CheckoutStart, deadline: Int64?)
        /// `checkout.session`: the session was created.
        case checkoutSession(flowID: String, session: CheckoutSession)
        /// `checkout.session_failed`: the request could not be sent, or the gateway refused it.
        case checkoutSessionFailed(flowID: String, reason: String)
        /// `checkout.browser_opened`: the tab is open.
        case browserOpened(flowID: String)
        /// `checkout.browser_dismissed`: the user closed the tab (dismiss/cancel of the in-app browser).
        case browserDismissed(flowID: String)
        /// `checkout.confirmation`: the backend relayed the webhook.
        case confirmation(flowID: String, confirmation: CheckoutConfirmation)
        /// `checkout.browser_result`: what an OS-captured return channel (Auth Tab,
        /// `ASWebAuthenticationSession`) or a browser tab's closing reported.
        case browserResult(flowID: String, result: BrowserResult)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        /// `pos.start`: a new POS flow; refunds name the sale they refund; `token` as given or fresh.
        case posStart(flowID: String, request: POSRequest, refundOf: RefundOf?, graceMilliseconds: Int64?, token: String?)
        /// `pos.launched`: the POS app opened.
        case posLaunched(flowID: String)
        /// `pos.launch_failed`: the POS app could not be opened.
        case posLaunchFailed(flowID: String, reason: String?)
        /// `pos.result`: the POS app answered with Android result extras (decoded key/value text).
        case posResult(flowID: String, extras: [QueryItem])
        #endif
        /// `app.foregrounded`: the app is in front again (starts the POS grace period).
        case appForegrounded
        /// `tick`: time passed; deadlines and grace periods are checked.
        case tick
        /// `url`: a deep link arrived.
        case url(String)
        /// `flow.remove`: forget a flow; one still waiting for its answer only with `giveUp`.
        case removeFlow(flowID: String, giveUp: Bool)
    }

    /// What happened.
    public let kind: Kind
    /// When, epoch milliseconds.
    public let now: Int64

    /// An event, checked against every rule of the event table.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - now: When, epoch milliseconds (1970…9999).
    /// - Throws: `validation` naming the member that breaks a rule (`now`, `flow_id`,
    ///   `sale_flow_id`, `deadline`, `nonce`, `token`, `grace_ms`, `sale`, `sale.approved_at`).
    public init(_ kind: Kind, now: Int64) throws(PayHandoffError) {
        try MexicoCityTime.checkEpochMilliseconds(now, field: "now")
        switch kind {
        case .checkoutStart(let id, let start, let deadline):
            try CoordinatorEvent.checkFlowID(id)
            if let deadline { try MexicoCityTime.checkEpochMilliseconds(deadline, field: "deadline") }
            if let nonce = start.nonce { try CorrelationSecret.check(nonce, field: "nonce") }
        case .checkoutSession(let id, _), .checkoutSessionFailed(let id, _), .browserOpened(let id),
             .browserDismissed(let id), .confirmation(let id, _), .removeFlow(let id, _), .browserResult(let id, _):
            try CoordinatorEvent.checkFlowID(id)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .posLaunched(let id), .posLaunchFailed(let id, _), .posResult(let id, _):
            try CoordinatorEvent.checkFlowID(id)
        case .posStart(let id, let request, let refundOf, let grace, let token):
            try CoordinatorEvent.checkFlowID(id)
            switch (request.operation, refundOf) {
            case (.refund, nil):
                throw PayHandoffError(.validation, field: "sale_flow_id", "a refund needs the sale: sale_flow_id or sale")
            case (.sale, .saleFlow?):
                throw PayHandoffError(.validation, field: "sale_flow_id", "only a refund refers to a sale")
            case (.sale, .sale?):
                throw PayHandoffError(.validation, field: "sale", "only a refund refers to a sale")
            case (.refund, .saleFlow(let saleID)?):
                try CoordinatorEvent.checkFlowID(saleID, field: "sale_flow_id")
            case (.refund, .sale(let sale)?):
                // The sale may be booked in the ledger: its id and amount follow the ledger's rules.
                try RefundLedger.checkTransactionID(sale.transactionId, field: "sale.transactionid")
                guard sale.amount > .zero else {
                    throw PayHandoffError(.validation, field: "sale.amount", "must be greater than 0")
                }
                try MexicoCityTime.checkEpoch(sale.approvedAt, field: "sale.approved_at")
            case (.sale, nil):
                break
            }
            if let grace { try CoordinatorEvent.checkGrace(grace, field: "grace_ms") }
            if let token { try CorrelationSecret.checkToken(token, field: "token") }
            // The identifier sent carries the token (a fresh one has 32 characters): it must fit.
            let tokenLength = token?.utf16.count ?? 32
            if request.identifier.utf16.count + 1 + tokenLength > POSRequest.Limit.identifier {
                throw PayHandoffError(.validation, field: "request.identifier",
                    "with the per-hand-off token the identifier would be longer than 256 characters: the app's part may have at most "
                    + String(POSRequest.Limit.identifier - 1 - tokenLength))
            }
            if request.posApp == .sumup {  // SumUp's foreign-tx-id: 128 bytes of 0x21–0x7E
                let sent = request.identifier + "~" + (token ?? "00000000000000000000000000000000")
                do throws(PayHandoffError) {
                    try SumUpRequest.checkForeignTransactionID(sent, appPart: request.identifier, token: token ?? "00000000000000000000000000000000")
                } catch {
                    var located = error
                    located.field = "request.identifier"
                    throw located
                }
            }
        #endif
        case .appForegrounded, .tick, .url:
            break
        }
        self.kind = kind
        self.now = now
    }

    /// The longest flow id accepted, in bytes.
    public static let maxFlowIDLength = 128
    /// The longest POS grace period accepted, ms (one hour).
    public static let maxGraceMilliseconds: Int64 = 3_600_000

    /// The flow-id rule, for events and snapshots alike: 1 to 128 bytes without spaces or
    /// control characters (flow ids appear in logs and effect lists: nothing invisible).
    /// - Parameters:
    ///   - id: The flow id.
    ///   - field: The member to name in the error.
    /// - Throws: `validation` naming `field`.
    public static func checkFlowID(_ id: String, field: String = "flow_id") throws(PayHandoffError) {
        guard !id.isEmpty, id.utf8.count <= maxFlowIDLength, !ASCII.hasSpaceOrControl(id) else {
            throw PayHandoffError(.validation, field: field, "must be 1 to 128 bytes without spaces or control characters")
        }
    }

    /// The grace-period rule: 0 to ``maxGraceMilliseconds``.
    static func checkGrace(_ grace: Int64, field: String) throws(PayHandoffError) {
        guard grace >= 0, grace <= maxGraceMilliseconds else {
            throw PayHandoffError(.validation, field: field, "must be 0 to 3600000")
        }
    }

    /// The event types of the JSON spelling (``init(json:)``), each with the members it may have.
    /// (Internal, not private: a test checks the words against abi/payhandoff.json's EventType.)
    enum TypeName: CaseIterable {
        case checkoutStart, checkoutSession, checkoutSessionFailed, browserOpened, browserDismissed, confirmation, browserResult
        case posStart, posLaunched, posLaunchFailed, posResult, appForegrounded, tick, url, removeFlow

        var text: String {
            switch self {
            case .checkoutStart: return "checkout.start"
            case .checkoutSession: return "checkout.session"
            case .checkoutSessionFailed: return "checkout.session_failed"
            case .browserOpened: return "checkout.browser_opened"
            case .browserDismissed: return "checkout.browser_dismissed"
            case .confirmation: return "checkout.confirmation"
            case .browserResult: return "checkout.browser_result"
            case .posStart: return "pos.start"
            case .posLaunched: return "pos.launched"
            case .posLaunchFailed: return "pos.launch_failed"
            case .posResult: return "pos.result"
            case .appForegrounded: return "app.foregrounded"
            case .tick: return "tick"
            case .url: return "url"
            case .removeFlow: return "flow.remove"
            }
        }

        #if PAYHANDOFF_CHECKOUT_ONLY
        /// Whether it is a POS event (which the checkout module refuses).
        var isPOS: Bool {
            switch self {
            case .posStart, .posLaunched, .posLaunchFailed, .posResult: return true
            default: return false
            }
        }

        /// The refusal of a POS event by the web's checkout module (`unsupported`, field `type`):
        /// never dropped quietly, so a page that needs POS learns it must load the full module.
        var unsupported: PayHandoffError {
            PayHandoffError(.unsupported, field: "type",
                text + " needs the full module (payhandoff.wasm): the checkout module has no POS flows")
        }
        #endif

        /// Every member the event may have: unknown ones are refused (a misspelt optional member
        /// must not be ignored).
        var members: StaticString {
            switch self {
            case .checkoutStart: return "type now flow_id request kind return_url session nonce deadline"
            case .checkoutSession: return "type now flow_id session"
            case .checkoutSessionFailed, .posLaunchFailed: return "type now flow_id reason"
            case .browserOpened, .browserDismissed, .posLaunched: return "type now flow_id"
            case .confirmation: return "type now flow_id event"
            case .browserResult: return "type now flow_id channel code url"
            #if PAYHANDOFF_CHECKOUT_ONLY
            case .posStart, .posResult: return ""  // refused before their members are read (isPOS)
            #else
            case .posStart: return "type now flow_id request sale_flow_id sale grace_ms token"
            case .posResult: return "type now flow_id extras result_code"
            #endif
            case .appForegrounded, .tick: return "type now"
            case .url: return "type now url"
            case .removeFlow: return "type now flow_id give_up"
            }
        }
    }

    /// An event from its document (see the table above): the members are read here, every rule
    /// is checked by ``init(_:now:)``.
    /// - Parameter json: The event document.
    /// - Throws: `validation`/`invalid_json` naming the member that is missing, unknown or wrong.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONValueReader.Node(json), with: JSONValueReader())
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameters:
    ///   - node: The event document.
    ///   - reader: Its tree.
    /// - Throws: As ``init(json:)``.
    @_spi(JSONText)
    public init<R: JSONReader>(reading node: R.Node, with reader: R) throws(PayHandoffError) {
        // An event is an object: anything else (null, an array, a string) is a JSON type error.
        let json = try JSONMembers(document: node, reader, expected: "an event object")
        let type = try json.string("type")
        let now = try json.integer("now")
        try MexicoCityTime.checkEpochMilliseconds(now, field: "now")
        /// Reads the required member `key` with `read`, naming fields from the event's root
        /// (`request.amount`, not `amount`).
        func nested<T>(_ key: StaticString, _ read: (JSONMembers<R>) throws(PayHandoffError) -> T) throws(PayHandoffError) -> T {
            guard let value = json.value(key) else { throw JSONValue.missing(key.text) }
            do throws(PayHandoffError) {
                return try read(JSONMembers(value, reader))
            } catch {
                throw error.located(in: key.text)
            }
        }
        // Matched by bytes (the type names are ASCII; a look-alike spelling is another type).
        guard let typeName = TypeName.allCases.first(where: { $0.text.hasSameBytes(as: type) }) else {
            throw PayHandoffError(.validation, field: "type", "unknown event type")
        }
        #if PAYHANDOFF_CHECKOUT_ONLY
        // Before its members are read: whatever they say, this module cannot act on it.
        if typeName.isPOS { throw typeName.unsupported }
        #endif
        try json.rejectUnknownKeys(typeName.members)
        // Every event but app.foregrounded, tick and url names its flow, checked before anything else.
        let id: String
        switch typeName {
        case .appForegrounded, .tick, .url: id = ""
        default:
            id = try json.string("flow_id")
            try CoordinatorEvent.checkFlowID(id)
        }
        let kind: Kind
        switch typeName {
        case .checkoutStart:
            let deadline = try json.optionalInteger("deadline")
            let nonce = try json.optionalString("nonce")
            if json.isPresent("request") {
                if let key = json.firstPresent(of: "kind return_url session") {
                    throw PayHandoffError(.validation, field: key, "is part of 'request' when PayHandoff builds the request")
                }
                if json.nested("request").isPresent("nonce") {
                    throw PayHandoffError(.validation, field: "request.nonce", "give the nonce next to 'request', not inside it")
                }
                kind = .checkoutStart(flowID: id, start: .request(try nested("request") { v throws(PayHandoffError) in try CheckoutRequest(reading: v) },
                                                                  nonce: nonce),
                                      deadline: deadline)
            } else {
                let checkoutKind = try CheckoutKind(parsing: try json.string("kind"), field: "kind")
                let returnURL = try ReturnURL(try json.string("return_url"))
                if json.isPresent("session") {
                    let session = try nested("session") { v throws(PayHandoffError) in try CheckoutSession(reading: v) }
                    guard session.kind == checkoutKind else {
                        throw PayHandoffError(.validation, field: "session.kind", "must equal kind")
                    }
                    kind = .checkoutStart(flowID: id, start: .session(session, returnURL: returnURL, nonce: nonce), deadline: deadline)
                } else {
                    kind = .checkoutStart(flowID: id, start: .backend(kind: checkoutKind, returnURL: returnURL, nonce: nonce), deadline: deadline)
                }
            }
        case .checkoutSession:
            do throws(PayHandoffError) {
                kind = .checkoutSession(flowID: id, session: try nested("session") { v throws(PayHandoffError) in try CheckoutSession(reading: v) })
            } catch where error.code == .gatewayError {
                // The gateway refused to create the session: a fact about the flow, not a bad event.
                kind = .checkoutSessionFailed(flowID: id, reason: error.message)
            }
        case .checkoutSessionFailed:
            kind = .checkoutSessionFailed(flowID: id, reason: try json.string("reason"))
        case .browserOpened:
            kind = .browserOpened(flowID: id)
        case .browserDismissed:
            kind = .browserDismissed(flowID: id)
        case .confirmation:
            kind = .confirmation(flowID: id, confirmation: try nested("event") { v throws(PayHandoffError) in try CheckoutConfirmation(reading: v) })
        case .browserResult:
            kind = .browserResult(flowID: id, result: try BrowserResult(channel: try json.string("channel"), code: try json.string("code"),
                                                                        url: try json.optionalString("url")))
        #if PAYHANDOFF_CHECKOUT_ONLY
        case .posStart, .posLaunched, .posLaunchFailed, .posResult:
            throw typeName.unsupported
        #else
        case .posStart:
            let request = try nested("request") { v throws(PayHandoffError) in try POSRequest(reading: v) }
            var refundOf: RefundOf? = nil
            if let saleFlow = try json.optionalString("sale_flow_id") {
                refundOf = .saleFlow(id: saleFlow)
            }
            if json.isPresent("sale") {
                guard refundOf.isNone else { throw PayHandoffError(.validation, field: "sale", "give sale_flow_id or sale, not both") }
                refundOf = .sale(try RefundEligibility.Sale(reading: json.nested("sale")))
            }
            kind = .posStart(flowID: id, request: request, refundOf: refundOf, graceMilliseconds: try json.optionalInteger("grace_ms"),
                             token: try json.optionalString("token"))
        case .posLaunched:
            kind = .posLaunched(flowID: id)
        case .posLaunchFailed:
            kind = .posLaunchFailed(flowID: id, reason: try json.optionalString("reason"))
        case .posResult:
            // No extras at all (absent, null or {}): onActivityResult with no data. `result_code`
            // (Android's RESULT_OK −1, RESULT_CANCELED 0, …) may come along as the host has it;
            // no decision needs it — each app's extras say the outcome — so it is checked, not kept.
            _ = try json.optionalInteger("result_code")
            let extras = json.value("extras")
            kind = .posResult(flowID: id, extras: extras == nil ? [] : try POSResponse.extras(extras, reader, path: "extras"))
        #endif
        case .appForegrounded:
            kind = .appForegrounded
        case .tick:
            kind = .tick
        case .url:
            kind = .url(try json.string("url"))
        case .removeFlow:
            kind = .removeFlow(flowID: id, giveUp: try json.optionalBool("give_up") ?? false)
        }
        try self.init(kind, now: now)
    }
}

extension CoordinatorEvent.CheckoutStart {
    /// Equal when both start the same way with the same values; strings compared by UTF-8 bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.request(a, n), .request(b, m)):
            return a == b && n.hasSameBytes(as: m)
        case let (.backend(k, u, n), .backend(l, v, m)):
            return k == l && u == v && n.hasSameBytes(as: m)
        case let (.session(s, u, n), .session(t, v, m)):
            return s == t && u == v && n.hasSameBytes(as: m)
        default:
            return false
        }
    }
}

extension CoordinatorEvent.RefundOf {
    /// Equal when both name the same sale; flow ids compared by UTF-8 bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.saleFlow(a), .saleFlow(b)): return a.hasSameBytes(as: b)
        case let (.sale(a), .sale(b)): return a == b
        default: return false
        }
    }
}

extension CoordinatorEvent.Kind {
    /// Equal when both are the same kind with the same values; strings compared by UTF-8 bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.checkoutStart(a, s, d), .checkoutStart(b, t, e)):
            return a.hasSameBytes(as: b) && s == t && d == e
        case let (.checkoutSession(a, s), .checkoutSession(b, t)):
            return a.hasSameBytes(as: b) && s == t
        case let (.checkoutSessionFailed(a, r), .checkoutSessionFailed(b, q)):
            return a.hasSameBytes(as: b) && r.hasSameBytes(as: q)
        case let (.browserOpened(a), .browserOpened(b)),
             let (.browserDismissed(a), .browserDismissed(b)),
             let (.url(a), .url(b)):
            return a.hasSameBytes(as: b)
        case let (.confirmation(a, c), .confirmation(b, d)):
            return a.hasSameBytes(as: b) && c == d
        case let (.browserResult(a, r), .browserResult(b, s)):
            return a.hasSameBytes(as: b) && r == s
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case let (.posStart(a, r, o, g, t), .posStart(b, q, p, h, u)):
            return a.hasSameBytes(as: b) && r == q && o == p && g == h && t.hasSameBytes(as: u)
        case let (.posResult(a, x), .posResult(b, y)):
            return a.hasSameBytes(as: b) && x.count == y.count
                && zip(x, y).allSatisfy { $0.key.hasSameBytes(as: $1.key) && $0.value.hasSameBytes(as: $1.value) }
        case let (.removeFlow(a, g), .removeFlow(b, h)):
            return a.hasSameBytes(as: b) && g == h
        case let (.posLaunchFailed(a, r), .posLaunchFailed(b, q)):
            return a.hasSameBytes(as: b) && r.hasSameBytes(as: q)
        case let (.posLaunched(a), .posLaunched(b)):
            return a.hasSameBytes(as: b)
        #endif
        case (.appForegrounded, .appForegrounded), (.tick, .tick):
            return true
        default:
            return false
        }
    }
}
