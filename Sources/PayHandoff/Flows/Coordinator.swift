/// Holds every hand-off of the app, routes each incoming URL to the flow it belongs to, and
/// snapshots them all at once, so the app has one deep-link entry point and one state file.
///
/// Feed it events (``send(_:using:)``) and URLs (``handle(url:now:)``); perform the effects of
/// each ``CoordinatorAnswer``; save ``snapshot`` whenever an answer says `persist` and restore
/// it with ``init(snapshot:)`` after process death. It is a value: copying it copies every
/// flow, and nothing in it is shared or locked.
///
/// Rules it keeps across flows (the flows keep their own, see ``CheckoutFlow`` and ``POSFlow``):
/// - **One answer, one flow.** No two flows of a coordinator share a correlation key — the
///   nonce of a checkout; the identifier sent (`<identifier>~<token>`) and answer scheme of a POS
///   hand-off — whatever their states: such a start is `rejected` with `conflict` (naming `nonce`
///   or `token`), because an answer meant for one, or replayed from an ended one, could then
///   resolve the other. (Fresh nonces and tokens never collide; only a host-given one can.)
/// - **Money is exact.** Approved operations are booked in the ``ledger``: refunds never exceed
///   what is left of their sale, a `transactionid` is booked by one flow only, and no clock
///   erases what a sale has refunded (``RefundLedger``).
/// - **Every snapshot restores** (`Coordinator+Budget.swift`): each flow reserves room for
///   everything it may still receive, checked when it starts; restore applies the same rule, so
///   no later event is refused for space. When a start needs room, ended flows are forgotten,
///   oldest first (the answer lists them in ``CoordinatorAnswer/forgotten``).
///
/// Flows are found by id, answers matched by nonce and identifier, and two coordinators compare
/// equal, by UTF-8 bytes: `==` on `String` is Unicode canonical equivalence, under which two
/// different identifiers on the wire (precomposed "é" and "e" + U+0301) would be the same.
public struct Coordinator: Equatable, Sendable {
    /// Host choices.
    public struct Configuration: Equatable, Sendable {
        /// Refuse a second checkout while one is waiting, and a second POS hand-off while one is open.
        public let singlePendingPerKind: Bool
        /// How long a checkout may wait for its confirmation when `checkout.start` sets no deadline, ms.
        public let checkoutTimeoutMilliseconds: Int64
        /// How long after the app returns to the foreground a POS answer may still arrive, ms.
        public let posGraceMilliseconds: Int64
        /// Whether checkout callbacks without the nonce reach their flow (default `false`: they are
        /// refused). For gateways that drop the nonce. The risk: any app or web page can send such
        /// a callback, so it is only ever a *claim* — it may show "confirming…" but never ends a
        /// flow or closes the browser; only a nonce-verified callback or the confirmation
        /// (webhook) does, and a flow without a nonce ends only by its confirmation or deadline.
        public let acceptUnverifiedCallbacks: Bool

        /// The defaults: several flows allowed, 30 minutes, 3 seconds, unverified callbacks refused.
        public init() {
            singlePendingPerKind = false
            checkoutTimeoutMilliseconds = 30 * 60_000
            posGraceMilliseconds = 3_000
            acceptUnverifiedCallbacks = false
        }

        /// A configuration, checked.
        /// - Parameters:
        ///   - singlePendingPerKind: Refuse a second pending flow of a kind.
        ///   - checkoutTimeoutMilliseconds: 1 ms to 7 days.
        ///   - posGraceMilliseconds: 0 to 3,600,000 ms.
        ///   - acceptUnverifiedCallbacks: Let nonce-less checkout callbacks in as claims.
        /// - Throws: `validation` naming `checkout_timeout_ms` or `pos_grace_ms`.
        public init(singlePendingPerKind: Bool = false, checkoutTimeoutMilliseconds: Int64 = 30 * 60_000,
                    posGraceMilliseconds: Int64 = 3_000, acceptUnverifiedCallbacks: Bool = false) throws(PayHandoffError) {
            guard checkoutTimeoutMilliseconds > 0, checkoutTimeoutMilliseconds <= 7 * 86_400_000 else {
                throw PayHandoffError(.validation, field: "checkout_timeout_ms", "must be 1 ms to 7 days")
            }
            try CoordinatorEvent.checkGrace(posGraceMilliseconds, field: "pos_grace_ms")
            self.singlePendingPerKind = singlePendingPerKind
            self.checkoutTimeoutMilliseconds = checkoutTimeoutMilliseconds
            self.posGraceMilliseconds = posGraceMilliseconds
            self.acceptUnverifiedCallbacks = acceptUnverifiedCallbacks
        }
    }

    /// One flow.
    public indirect enum Flow: Equatable, Sendable {
        /// A hosted checkout.
        case checkout(CheckoutFlow)
        #if !PAYHANDOFF_CHECKOUT_ONLY
        /// A Billpocket POS hand-off (not in the web's checkout module, which has no POS rules).
        case pos(POSFlow)
        #endif

        /// The flow's id.
        public var id: String {
            switch self {
            case .checkout(let f): return f.id
            #if !PAYHANDOFF_CHECKOUT_ONLY
            case .pos(let f): return f.id
            #endif
            }
        }

        /// The state's name (`awaiting_confirmation`, `approved`, …).
        public var stateName: String {
            switch self {
            case .checkout(let f): return f.state.rawValue
            #if !PAYHANDOFF_CHECKOUT_ONLY
            case .pos(let f): return f.state.rawValue
            #endif
            }
        }

        /// Whether an answer or callback may still arrive and change it.
        var takesDeepLink: Bool {
            switch self {
            case .checkout(let f): return f.takesDeepLink
            #if !PAYHANDOFF_CHECKOUT_ONLY
            case .pos(let f): return f.takesAnswer
            #endif
            }
        }

        /// A checkout that failed or was cancelled by its callback, kept only for the confirmation
        /// the gateway may still retry: the one waiting flow a start may forget for room.
        var awaitsOnlyItsWebhook: Bool {
            guard case .checkout(let f) = self else { return false }
            return (f.state == .failed || f.state == .cancelled) && f.sessionFailure == nil
        }

        /// Whether its result may still arrive at `now`: removing it needs `give_up`, and the
        /// 32-ended rule does not forget it (room may, for a checkout only kept for its webhook). A checkout waits until it is confirmed — an `expired` one too, as a POS
        /// hand-off `returned_without_response` does: its confirmation may still come — and one
        /// that `failed` or was `cancelled` by its callback still takes the confirmation the
        /// gateway may retry (``CheckoutFlow/confirmationHorizon``); `nil` (a salvage, which has
        /// no event time) counts that horizon as open.
        func isPending(at now: Int64?) -> Bool {
            switch self {
            case .checkout(let f):
                if f.state.isWaiting || f.state == .expired { return true }
                guard f.state == .failed || f.state == .cancelled, f.sessionFailure == nil else { return false }
                return now.map { $0 < f.confirmationHorizon } ?? true
            #if !PAYHANDOFF_CHECKOUT_ONLY
            case .pos(let f): return f.takesAnswer
            #endif
            }
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The most bytes the snapshot may take as JSON text (``maxSnapshotBytes`` unless set lower;
    /// not part of the snapshot: a restore is given it again).
    public let snapshotLimit: Int
    /// The flows, oldest first.
    public internal(set) var flows: [Flow]
    /// Approved operations and what their sales may still refund.
    public internal(set) var ledger: RefundLedger
    /// What the flows of a coordinator converted from an older snapshot format reserved when that
    /// passed ``snapshotLimit`` (0 otherwise): they may keep it until they end; starts are refused
    /// until the reservations fit the limit again (Coordinator+Budget.swift).
    public internal(set) var convertedReserve = 0
    /// The host-given correlation keys of forgotten flows, until their horizon.
    public internal(set) var rememberedKeys: RememberedKeys
    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// What reads JSON text inside a terminal app's answer (Clip's `PAYMENT_RESPONSE`): the C
    /// ABI sets its cJSON codec on every handle, a Swift host PayHandoffFoundation's
    /// (`FoundationJSONText`). Not state: never in a snapshot, and two coordinators with the same
    /// flows are equal whatever codec they have.
    public var jsonText: JSONTextCodec {
        get { jsonTextSlot.codec }
        set { jsonTextSlot = JSONTextSlot(codec: newValue) }
    }
    private var jsonTextSlot = JSONTextSlot(codec: JSONTextCodec())

    /// A codec that is no part of `==`.
    private struct JSONTextSlot: Equatable, Sendable {
        let codec: JSONTextCodec
        static func == (_: JSONTextSlot, _: JSONTextSlot) -> Bool { true }
    }
    #endif

    /// An empty coordinator.
    /// - Parameters:
    ///   - configuration: Host choices.
    ///   - snapshotLimit: The most bytes its snapshot may take (at most ``maxSnapshotBytes``, the
    ///     default; smaller limits are for tests that need a nearly full coordinator).
    public init(configuration: Configuration = Configuration(), snapshotLimit: Int = Coordinator.maxSnapshotBytes) {
        self.configuration = configuration
        self.snapshotLimit = Swift.min(Swift.max(snapshotLimit, Coordinator.documentReserve), Coordinator.maxSnapshotBytes)
        self.flows = []
        self.ledger = RefundLedger()
        self.rememberedKeys = RememberedKeys()
    }

    init(configuration: Configuration, snapshotLimit: Int, flows: [Flow], ledger: RefundLedger,
         rememberedKeys: RememberedKeys = RememberedKeys()) {
        self.configuration = configuration
        self.snapshotLimit = snapshotLimit
        self.flows = flows
        self.ledger = ledger
        self.rememberedKeys = rememberedKeys
    }

    /// The flow with `id` (compared by UTF-8 bytes), if any.
    /// - Parameter id: The flow id.
    /// - Returns: The flow.
    public func flow(id: String) -> Flow? {
        flowIndex(id: id).map { flows[$0] }
    }

    /// The amount approved refunds have paid back of the sale `transactionId` (compared by
    /// UTF-8 bytes) while its refund window is open; zero when none has.
    /// - Parameters:
    ///   - transactionId: The sale's `transactionid`.
    ///   - now: Epoch milliseconds.
    /// - Returns: The refunded total.
    public func refundedAmount(transactionId: String, now: Int64) -> Amount {
        ledger.entry(transactionId, at: now)?.refunded ?? .zero
    }

    /// The index of the flow with `id` (compared by UTF-8 bytes).
    func flowIndex(id: String) -> Int? {
        for index in flows.indices where flows[index].id.hasSameBytes(as: id) { return index }
        return nil
    }

    /// Applies an event. A rejected event changes nothing.
    /// - Parameters:
    ///   - event: The event.
    ///   - generator: Randomness for new nonces and tokens (`SystemRandomNumberGenerator` in apps).
    /// - Returns: What happened, the flows' new states and the effects to perform.
    public mutating func send(_ event: CoordinatorEvent, using generator: inout some RandomNumberGenerator) -> CoordinatorAnswer {
        var copy = self
        let measuredBefore = convertedMeasure
        do throws(PayHandoffError) {
            // A start is judged on the ledger this event would leave: an entry a clock that was
            // behind let expire, not yet pruned, counts as the prune will keep it (a refunded
            // sale as balance unknown), never as "no entry" (issue 35, B5). On the copy: a
            // rejected event changes nothing.
            if event.isStart { copy.forgetExpired(now: event.now) }
            var answer = try copy.apply(event, using: &generator)
            if answer.outcome == .accepted {  // other outcomes change nothing
                copy.forgetExpired(now: event.now)
                // Only a start takes room (Coordinator+Budget.swift): every other event fills
                // room its flow reserved when it started.
                if event.isStart {
                    answer.forgotten = try copy.makeRoom(forStartAt: event.now)
                    if !answer.forgotten.isEmpty { answer.persist = true }
                }
                try copy.checkConvertedSnapshotFits(measuredBefore: measuredBefore)
            }
            self = copy
            return answer
        } catch {
            return CoordinatorAnswer(outcome: .rejected, transitions: rejectedTransition(for: event), error: error)
        }
    }

    /// Routes a URL the OS handed the app (same as sending a `url` event).
    /// - Parameters:
    ///   - url: The URL.
    ///   - now: When it arrived, epoch milliseconds (1970…9999).
    /// - Returns: `not_ours` when no flow of this coordinator is addressed; otherwise what the
    ///   flow made of it (`accepted`, `duplicate`, `ignored`, `rejected` with the rule broken).
    public mutating func handle(url: String, now: Int64) -> CoordinatorAnswer {
        // What send(_:using:) does with a `url` event, without its generic path (routing never
        // makes a nonce) and without copying every flow: route(url:now:) changes nothing
        // before its last `try` (the flow and the ledger are stored only after every check),
        // so a rejected URL leaves the coordinator as it was. An answer always fits the
        // room its flow reserved, so there is no budget check here.
        do throws(PayHandoffError) {
            try MexicoCityTime.checkEpochMilliseconds(now, field: "now")
            guard convertedReserve <= Coordinator.maxSnapshotBytes else {
                // A converted coordinator whose reservations pass what a snapshot holds: judged
                // on a copy (Coordinator+Budget.swift, checkConvertedSnapshotFits).
                var copy = self
                let answer = try copy.route(url: url, now: now)
                if answer.outcome == .accepted {
                    copy.forgetExpired(now: now)
                    try copy.checkConvertedSnapshotFits(measuredBefore: convertedMeasure)
                }
                self = copy
                return answer
            }
            let answer = try route(url: url, now: now)
            if answer.outcome == .accepted { forgetExpired(now: now) }
            return answer
        } catch {
            return CoordinatorAnswer(outcome: .rejected, transitions: [], error: error)
        }
    }

    /// What an accepted event at `now` lets go of: ledger entries whose window closed
    /// (``RefundLedger`` keeps a sale whose balance matters as balance unknown), and remembered
    /// keys past their horizon.
    mutating func forgetExpired(now: Int64) {
        #if !PAYHANDOFF_CHECKOUT_ONLY  // the checkout module's ledger holds no entry (RefundLedger.entries)
        let held = flows
        ledger.prune(now: now) { id in
            for case .pos(let f) in held where f.operation == .refund && f.saleTransactionId.hasSameBytes(as: id) { return true }
            return false
        }
        #endif
        rememberedKeys.prune(now: now)
    }

    /// Forgets the flow at `index` (removed, or forgotten by a start), remembering its key when
    /// the host gave it (``RememberedKeys``).
    /// - Parameters:
    ///   - index: The flow's position.
    ///   - now: The event's time (`nil` in a salvage).
    mutating func forgetFlow(at index: Int, now: Int64?) {
        let flow = flows.remove(at: index)
        if let digest = flow.givenKeyDigest {
            // Counted from the latest time seen, not this event's alone: a clock behind now
            // must not end the horizon before the one seen earlier would (RememberedKeys).
            rememberedKeys.remember(digest, until: flow.keyRememberedUntil(forgottenAt: now.map { Swift.max($0, rememberedKeys.latestEventAt) }),
                                    now: now)
        }
    }

    private func rejectedTransition(for event: CoordinatorEvent) -> [FlowTransition] {
        guard let id = event.flowID, let flow = flow(id: id) else { return [] }
        return [FlowTransition(flow: flow, effects: [])]
    }

    private mutating func apply(_ event: CoordinatorEvent, using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> CoordinatorAnswer {
        let now = event.now
        switch event.kind {
        case .checkoutStart(let id, let start, let deadline):
            return try startCheckout(id, start, deadline: deadline, now: now, using: &generator)
        case .checkoutSession(let id, let session):
            return try stepCheckout(id, .session(session), now: now)
        case .checkoutSessionFailed(let id, let reason):
            return try stepCheckout(id, .sessionFailed(reason: reason), now: now)
        case .browserOpened(let id):
            return try stepCheckout(id, .browserOpened, now: now)
        case .browserDismissed(let id):
            return try stepCheckout(id, .browserDismissed, now: now)
        case .confirmation(let id, let confirmation):
            return try stepCheckout(id, .confirmation(confirmation), now: now)
        case .browserResult(let id, let result):
            return try answerBrowserResult(id, result, now: now)

        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .posStart(let id, let request, let refundOf, let grace, let token):
            return try startPOS(id, request, refundOf: refundOf, grace: grace, token: token, now: now, using: &generator)
        case .posLaunched(let id):
            return try stepPOS(id, .launched, now: now)
        case .posLaunchFailed(let id, let reason):
            return try stepPOS(id, .launchFailed(reason: reason), now: now)
        case .posResult(let id, let extras):
            return try answerPOSResult(id, extras, now: now)
        #endif

        case .appForegrounded:
            return try stepAll(now: now, checkout: nil, pos: .foregrounded)
        case .tick:
            return try stepAll(now: now, checkout: .tick, pos: .tick)

        case .url(let url):
            return try route(url: url, now: now)

        case .removeFlow(let id, let giveUp):
            return try removeFlow(id, giveUp: giveUp, now: now)
        }
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// `pos.result`: a POS flow's Android result extras, read by the flow's app. Its own function:
    /// inlined into ``apply(_:using:)``, the apps' readers made every other event's call site bigger.
    @inline(never)
    private mutating func answerPOSResult(_ id: String, _ extras: [QueryItem], now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        // onActivityResult with no data (the user backed out of the POS app, or it crashed or
        // was uninstalled): no answer at all.
        if extras.isEmpty { return try stepPOS(id, .noData, now: now) }
        guard let index = flowIndex(id: id) else {
            throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
        }
        guard case .pos(let flow) = flows[index] else {
            throw PayHandoffError(.invalidState, field: "flow_id", "this flow is a checkout, not a POS hand-off")
        }
        // Square documents ERROR_NO_RESULT as its one answer without the echo: no data.
        if flow.posApp == .square, POSResponse.isSquareNoResult(extras) { return try stepPOS(id, .noData, now: now) }
        let answer: POSResponse
        do throws(PayHandoffError) {
            answer = try POSResponse.parse(extras: extras, posApp: flow.posApp,
                                           expecting: .one(identifier: flow.identifier, token: flow.token), jsonText: jsonText)
        } catch where error.code == .callbackMismatch {
            throw error  // "not this hand-off's answer" names the identifier, as for a URL
        } catch {
            var located = error
            located.field = "extras" + (error.field.map { "." + $0 } ?? "")
            throw located
        }
        return try answerPOS(index, answer, now: now)
    }
    #endif

    /// `checkout.start`.
    private mutating func startCheckout(_ id: String, _ start: CoordinatorEvent.CheckoutStart, deadline: Int64?, now: Int64,
                                        using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> CoordinatorAnswer {
        try checkNewFlow(id: id, isCheckout: true)
        let flowDeadline = deadline ?? Swift.min(now + configuration.checkoutTimeoutMilliseconds, MexicoCityTime.maxEpochMilliseconds)
        let kind: CheckoutKind, returnURL: ReturnURL, nonce: String?, session: CheckoutSession?
        let effect: FlowEffect, keyGiven: Bool
        switch start {
        case .request(let request, let given):
            guard let url = request.returnURL else {
                throw PayHandoffError(.validation, field: "request.return_url", "a checkout flow needs a return_url (iframe sessions have no deep link)")
            }
            keyGiven = given != nil
            let fresh = given ?? CorrelationSecret.make(using: &generator)
            (kind, returnURL, nonce, session) = (request.kind, url, fresh, nil)
            effect = .sendRequest(request.httpRequest(nonce: fresh))
        case .backend(let backendKind, let url, let given):
            keyGiven = given != nil
            let fresh = given ?? CorrelationSecret.make(using: &generator)
            (kind, returnURL, nonce, session) = (backendKind, url, fresh, nil)
            effect = .createSession(kind: backendKind, returnURL: url.adding(nonce: fresh))
        case .session(let created, let url, let given):
            guard given != nil || configuration.acceptUnverifiedCallbacks else {
                throw PayHandoffError(.validation, field: "nonce",
                    "a checkout without its nonce could never be verified: give the nonce of the session's return URL (or accept unverified callbacks)")
            }
            keyGiven = given != nil
            (kind, returnURL, nonce, session) = (created.kind, url, given, created)
            effect = .openBrowser(url: created.checkoutURL, returnTo: url.target(nonce: given))
        }
        if let nonce {
            // Any flow, ended or not: its late callback would otherwise reach the new one.
            for case .checkout(let other) in flows where other.nonce.hasSameBytes(as: nonce) {
                throw PayHandoffError(.conflict, field: "nonce",
                    "checkout " + other.id + " holds this nonce: one callback could answer both")
            }
            // Nor a forgotten one, while its answers may still come.
            if keyGiven, rememberedKeys.holds(RememberedKeys.digest(nonce: nonce), at: now) {
                throw PayHandoffError(.conflict, field: "nonce",
                    "a forgotten checkout had this nonce: its late or replayed callback could answer this one")
            }
        }
        // One construction for the three starts: waiting for the session, or ready with it.
        let flow = CheckoutFlow(id: id, kind: kind, returnURL: returnURL, nonce: nonce, deadline: flowDeadline,
                                state: session.isNone ? .awaitingSession : .ready, session: session, callback: nil,
                                confirmation: nil, sessionFailure: nil, keyGiven: keyGiven)
        flows.append(.checkout(flow))
        return CoordinatorAnswer(outcome: .accepted, transitions: [FlowTransition(flow: .checkout(flow), effects: [effect, .persist])])
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// `pos.start`.
    private mutating func startPOS(_ id: String, _ request: POSRequest, refundOf: CoordinatorEvent.RefundOf?, grace: Int64?,
                                   token given: String?, now: Int64,
                                   using generator: inout some RandomNumberGenerator) throws(PayHandoffError) -> CoordinatorAnswer {
        try checkNewFlow(id: id, isCheckout: false)
        let scheme = request.answerScheme
        let token = given ?? CorrelationSecret.make(using: &generator)
        // The full identifier sent, compared whole (a flow converted from format 2 may hold a
        // token with '~', so identifier and token apart do not tell it), on any flow, ended or
        // not: an answer replayed from an ended hand-off must not reach the new one.
        let sentIdentifier = request.identifier + "~" + token
        for case .pos(let other) in flows where other.sentIdentifier.hasSameBytes(as: sentIdentifier)
            && ASCII.equalFoldingCase(other.answerScheme, scheme) {
            throw PayHandoffError(.conflict, field: "token",
                "POS hand-off " + other.id + " was sent this identifier and token on this scheme: one answer could resolve both")
        }
        if given != nil, rememberedKeys.holds(RememberedKeys.digest(sentIdentifier: sentIdentifier, scheme: scheme), at: now) {
            throw PayHandoffError(.conflict, field: "token",
                "a forgotten POS hand-off was sent this identifier and token on this scheme: its replayed answer could resolve this one")
        }
        var sent: POSRequest
        do throws(PayHandoffError) {
            sent = try request.withToken(token)
        } catch {
            var located = error
            located.field = error.field.map { $0.hasSameBytes(as: "token") ? $0 : "request." + $0 }
            throw located
        }
        var amount = request.amount
        var saleTransactionId: String? = nil
        if let refundOf {
            let refund = try refundToStart(refundOf, request: request, now: now)
            saleTransactionId = refund.transactionId
            amount = refund.amount
            sent = sent.with(identifier: sent.identifier, amount: refund.amount)  // a refund always says how much
            if let external = refund.bookExternalSale { ledger.book(external) }
        }
        let flow = POSFlow(id: id, operation: request.operation, identifier: request.identifier, token: token,
                           answerScheme: scheme, amount: amount, saleTransactionId: saleTransactionId,
                           graceMilliseconds: grace ?? configuration.posGraceMilliseconds, state: .ready,
                           foregroundedAt: nil, response: nil, answeredAt: nil, launchFailure: nil, keyGiven: given != nil,
                           posApp: request.posApp)
        let open = try sent.openEffect(jsonText: jsonText)
        flows.append(.pos(flow))
        return CoordinatorAnswer(outcome: .accepted,
                                 transitions: [FlowTransition(flow: .pos(flow), effects: [open, .persist])])
    }
    #endif

    private func checkNewFlow(id: String, isCheckout: Bool) throws(PayHandoffError) {
        guard flowIndex(id: id) == nil else {
            throw PayHandoffError(.duplicate, field: "flow_id", "a flow with this id already exists")
        }
        guard configuration.singlePendingPerKind else { return }
        for flow in flows {
            switch flow {
            case .checkout(let f) where isCheckout && f.state.isWaiting:
                throw PayHandoffError(.invalidState, field: "flow_id", "another checkout is still pending (single_pending_per_kind)")
            #if !PAYHANDOFF_CHECKOUT_ONLY
            case .pos(let f) where !isCheckout && f.state.acceptsAnswer && f.state != .launchFailed && f.state != .unrecognizedResult:
                throw PayHandoffError(.invalidState, field: "flow_id", "another POS hand-off is still open (single_pending_per_kind)")
            #endif
            default: continue
            }
        }
    }

    /// `flow.remove`: an ended flow goes; one that still waits for its result only with
    /// `giveUp`, because its late answer would then be lost. Giving up a refund books its
    /// amount against the sale: the refund may have happened, and the ledger must never
    /// undercount (reconcile with Billpocket to learn what happened).
    private mutating func removeFlow(_ id: String, giveUp: Bool, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        guard let index = flowIndex(id: id) else {
            throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
        }
        let flow = flows[index]
        if flow.isPending(at: now) {
            guard giveUp else {
                throw PayHandoffError(.invalidState, field: "flow_id",
                    "the flow still waits for its result (" + flow.stateName + "); send give_up: true to abandon it")
            }
            #if !PAYHANDOFF_CHECKOUT_ONLY
            if case .pos(let pos) = flow, pos.operation == .refund, let sale = pos.saleTransactionId, let amount = pos.amount {
                ledger.addRefund(amount, toSale: sale)
            }
            #endif
        }
        forgetFlow(at: index, now: now)
        return CoordinatorAnswer(outcome: .accepted, transitions: [], persist: true)
    }

    /// Hands `event` to checkout flow `id`.
    mutating func stepCheckout(_ id: String, _ event: CheckoutFlow.Event, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        guard let index = flowIndex(id: id) else {
            throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
        }
        guard case .checkout(var flow) = flows[index] else {
            throw PayHandoffError(.invalidState, field: "flow_id", "this flow is a POS hand-off, not a checkout")
        }
        let step = try flow.handle(event, now: now)
        flows[index] = .checkout(flow)
        return CoordinatorAnswer(outcome: step.outcome, transitions: [FlowTransition(flow: .checkout(flow), effects: step.effects)])
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// Hands a host event to POS flow `id` (answers go through ``answerPOS(_:_:now:)``).
    private mutating func stepPOS(_ id: String, _ event: POSFlow.Event, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        guard let index = flowIndex(id: id) else {
            throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
        }
        guard case .pos(var flow) = flows[index] else {
            throw PayHandoffError(.invalidState, field: "flow_id", "this flow is a checkout, not a POS hand-off")
        }
        let step = try flow.handle(event, now: now)
        flows[index] = .pos(flow)
        return CoordinatorAnswer(outcome: step.outcome, transitions: [FlowTransition(flow: .pos(flow), effects: step.effects)])
    }
    #endif

    /// Time-driven events go to every flow; only flows that changed are reported (the step
    /// says so: comparing the whole flow before and after cost code for nothing).
    private mutating func stepAll(now: Int64, checkout: CheckoutFlow.Event?, pos: POSFlow.Event) throws(PayHandoffError) -> CoordinatorAnswer {
        var transitions: [FlowTransition] = []
        for index in flows.indices {
            switch flows[index] {
            case .checkout(var flow):
                guard let checkout else { continue }
                let step = try flow.handle(checkout, now: now)
                if step.changed {
                    flows[index] = .checkout(flow)
                    transitions.append(FlowTransition(flow: .checkout(flow), effects: step.effects))
                }
            #if !PAYHANDOFF_CHECKOUT_ONLY
            case .pos(var flow):
                let step = try flow.handle(pos, now: now)
                if step.changed {
                    flows[index] = .pos(flow)
                    transitions.append(FlowTransition(flow: .pos(flow), effects: step.effects))
                }
            #endif
            }
        }
        return CoordinatorAnswer(outcome: .accepted, transitions: transitions)
    }
}

extension CoordinatorEvent {
    /// The flow the event names, if it names one.
    var flowID: String? {
        switch kind {
        case .checkoutStart(let id, _, _), .checkoutSession(let id, _), .checkoutSessionFailed(let id, _),
             .browserOpened(let id), .browserDismissed(let id), .confirmation(let id, _), .removeFlow(let id, _),
             .browserResult(let id, _):
            return id
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .posStart(let id, _, _, _, _), .posLaunched(let id), .posLaunchFailed(let id, _), .posResult(let id, _):
            return id
        #endif
        case .appForegrounded, .tick, .url:
            return nil
        }
    }

    /// Whether the event starts a flow: the only events that take room in the snapshot.
    var isStart: Bool {
        switch kind {
        case .checkoutStart: return true
        #if !PAYHANDOFF_CHECKOUT_ONLY
        case .posStart: return true
        #endif
        default: return false
        }
    }
}
