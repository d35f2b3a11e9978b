/// Holds every hand-off of the app, routes each incoming URL to the flow it belongs to, and
/// snapshots them all at once, so the app has one deep-link entry point and one state file.
///
/// Feed it events (``send(_:using:)``) and URLs (``handle(url:now:)``); perform the effects of
/// each ``CoordinatorAnswer``; save ``snapshot`` whenever an answer has a `persist` effect and
/// restore it with ``init(snapshot:)`` after process death. It is a value: copying it copies
/// every flow, and nothing in it is shared or locked.
///
/// Flows are found by id, answers matched by nonce and identifier, and two coordinators compare
/// equal, by UTF-8 bytes: `==` on `String` is Unicode canonical equivalence, under which two
/// different identifiers on the wire (precomposed "é" and "e" + U+0301) would be the same.
public struct Coordinator: Equatable, Sendable {
    /// Host choices.
    public struct Configuration: Equatable, Sendable {
        /// Refuse a second checkout while one is waiting, and a second POS hand-off while one is open.
        public var singlePendingPerKind: Bool
        /// How long a checkout may wait for its confirmation when `checkout.start` sets no deadline, ms.
        public var checkoutTimeoutMilliseconds: Int64
        /// How long after the app returns to the foreground a POS answer may still arrive, ms.
        public var posGraceMilliseconds: Int64

        /// The defaults: several flows allowed, 30 minutes, 3 seconds.
        public init(singlePendingPerKind: Bool = false, checkoutTimeoutMilliseconds: Int64 = 30 * 60_000,
                    posGraceMilliseconds: Int64 = 3_000) {
            self.singlePendingPerKind = singlePendingPerKind
            self.checkoutTimeoutMilliseconds = checkoutTimeoutMilliseconds
            self.posGraceMilliseconds = posGraceMilliseconds
        }
    }

    /// One flow.
    public indirect enum Flow: Equatable, Sendable {
        /// A hosted checkout.
        case checkout(CheckoutFlow)
        /// A Billpocket POS hand-off.
        case pos(POSFlow)

        /// The flow's id.
        public var id: String {
            switch self {
            case .checkout(let f): return f.id
            case .pos(let f): return f.id
            }
        }

        /// The state's name (`awaiting_confirmation`, `approved`, …).
        public var stateName: String {
            switch self {
            case .checkout(let f): return f.state.rawValue
            case .pos(let f): return f.state.rawValue
            }
        }
    }

    /// What the approved refunds of one sale have paid back so far.
    public struct RefundedSale: Equatable, Sendable {
        /// The sale's `transactionid`.
        public let transactionId: String
        /// The total refunded, at most ``Amount/max``.
        public let amount: Amount

        /// Equal when the transaction ids have the same UTF-8 bytes and the amounts are equal.
        public static func == (lhs: RefundedSale, rhs: RefundedSale) -> Bool {
            lhs.transactionId.hasSameBytes(as: rhs.transactionId) && lhs.amount == rhs.amount
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The flows, oldest first.
    public private(set) var flows: [Flow]
    /// Amount already refunded per sale `transactionid` (approved refunds): one entry per sale,
    /// ordered by the ids' UTF-8 bytes (the snapshot's order); ``refundedAmount(transactionId:)``
    /// looks one up.
    ///
    /// An array rather than a `[String: Amount]`: transaction ids are compared by bytes, like
    /// every identifier in the core, where a dictionary would merge two different ids that are
    /// canonically equivalent into one sale; and hashing `String`s links the Unicode
    /// normalization tables into the Embedded library. A coordinator holds few sales.
    public private(set) var refunded: [RefundedSale]

    /// An empty coordinator.
    /// - Parameter configuration: Host choices.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.flows = []
        self.refunded = []
    }

    init(configuration: Configuration, flows: [Flow], refunded: [RefundedSale]) {
        self.configuration = configuration
        self.flows = flows
        self.refunded = refunded
    }

    /// The flow with `id` (compared by UTF-8 bytes), if any.
    /// - Parameter id: The flow id.
    /// - Returns: The flow.
    public func flow(id: String) -> Flow? {
        flowIndex(id: id).map { flows[$0] }
    }

    /// The amount approved refunds have paid back of the sale `transactionId` (compared by
    /// UTF-8 bytes); zero when none has.
    /// - Parameter transactionId: The sale's `transactionid`.
    /// - Returns: The refunded total.
    public func refundedAmount(transactionId: String) -> Amount {
        for sale in refunded where sale.transactionId.hasSameBytes(as: transactionId) { return sale.amount }
        return .zero
    }

    /// Sets the refunded total of `transactionId`, keeping ``refunded`` ordered by the ids' bytes.
    mutating func setRefunded(_ amount: Amount, transactionId: String) {
        var index = 0
        while index < refunded.count, refunded[index].transactionId.precedesByBytes(transactionId) { index += 1 }
        let entry = RefundedSale(transactionId: transactionId, amount: amount)
        if index < refunded.count, refunded[index].transactionId.hasSameBytes(as: transactionId) {
            refunded[index] = entry
        } else {
            refunded.insert(entry, at: index)
        }
    }

    /// The index of the flow with `id` (compared by UTF-8 bytes).
    func flowIndex(id: String) -> Int? {
        for index in flows.indices where flows[index].id.hasSameBytes(as: id) { return index }
        return nil
    }

    /// Applies an event. A rejected event changes nothing.
    /// - Parameters:
    ///   - event: The event.
    ///   - generator: Randomness for new nonces (`SystemRandomNumberGenerator` in apps).
    /// - Returns: What happened, the flows' new states and the effects to perform.
    public mutating func send(_ event: CoordinatorEvent, using generator: inout some RandomNumberGenerator) -> CoordinatorAnswer {
        var copy = self
        do throws(PayHandoffError) {
            let answer = try copy.apply(event, using: &generator)
            self = copy
            return answer
        } catch {
            return CoordinatorAnswer(outcome: .rejected, transitions: rejectedTransition(for: event), error: error)
        }
    }

    /// Routes a URL the OS handed the app (same as sending a `url` event).
    /// - Parameters:
    ///   - url: The URL.
    ///   - now: When it arrived, epoch milliseconds.
    /// - Returns: `not_ours` when no flow of this coordinator is addressed; otherwise what the
    ///   flow made of it (`accepted`, `duplicate`, `ignored`, `rejected` with the rule broken).
    public mutating func handle(url: String, now: Int64) -> CoordinatorAnswer {
        // What send(_:using:) does with a `url` event, without its generic path (routing never
        // makes a nonce) and without copying every flow: route(url:now:) changes nothing
        // before its last `try` (stepCheckout/stepPOS store the flow only after it handled the
        // event), so a rejected URL leaves the coordinator as it was.
        do throws(PayHandoffError) {
            return try route(url: url, now: now)
        } catch {
            return CoordinatorAnswer(outcome: .rejected, transitions: [], error: error)
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
            try checkNewFlow(id: id, isCheckout: true)
            let flowDeadline = deadline ?? (now + configuration.checkoutTimeoutMilliseconds)
            let kind: CheckoutKind, returnURL: ReturnURL, nonce: String?, session: CheckoutSession?
            let effect: FlowEffect
            switch start {
            case .request(let request, let given):
                guard let url = request.returnURL else {
                    throw PayHandoffError(.validation, field: "request.return_url", "a checkout flow needs a return_url (iframe sessions have no deep link)")
                }
                let fresh = given ?? ReturnURL.makeNonce(using: &generator)
                (kind, returnURL, nonce, session) = (request.kind, url, fresh, nil)
                effect = .sendRequest(request.httpRequest(nonce: fresh))
            case .backend(let backendKind, let url, let given):
                let fresh = given ?? ReturnURL.makeNonce(using: &generator)
                (kind, returnURL, nonce, session) = (backendKind, url, fresh, nil)
                effect = .createSession(kind: backendKind, returnURL: url.adding(nonce: fresh))
            case .session(let created, let url, let given):
                (kind, returnURL, nonce, session) = (created.kind, url, given, created)
                effect = .openBrowser(url: created.checkoutURL)
            }
            // One construction for the three starts: waiting for the session, or ready with it.
            let flow = CheckoutFlow(id: id, kind: kind, returnURL: returnURL, nonce: nonce, deadline: flowDeadline,
                                    state: session.isNone ? .awaitingSession : .ready, session: session, callback: nil,
                                    confirmation: nil, failureReason: nil)
            flows.append(.checkout(flow))
            return CoordinatorAnswer(outcome: .accepted, transitions: [FlowTransition(flow: .checkout(flow), effects: [effect, .persist])])

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

        case .posStart(let id, let request, let refundOf, let grace):
            try checkNewFlow(id: id, isCheckout: false)
            var saleTransactionId: String? = nil
            if let refundOf {
                let sale = try saleToRefund(refundOf, request: request, now: now)
                saleTransactionId = sale.transactionId
            }
            let flow = POSFlow(id: id, operation: request.operation, identifier: request.identifier,
                               answerScheme: request.answerScheme, amount: request.amount,
                               saleTransactionId: saleTransactionId,
                               graceMilliseconds: grace ?? configuration.posGraceMilliseconds, state: .ready,
                               foregroundedAt: nil, response: nil, answeredAt: nil, launchFailure: nil)
            flows.append(.pos(flow))
            return CoordinatorAnswer(outcome: .accepted,
                                     transitions: [FlowTransition(flow: .pos(flow), effects: [.openPOSApp(url: request.url), .persist])])
        case .posLaunched(let id):
            return try stepPOS(id, .launched, now: now)
        case .posLaunchFailed(let id, let reason):
            return try stepPOS(id, .launchFailed(reason: reason), now: now)

        case .appForegrounded:
            return try stepAll(now: now, checkout: nil, pos: .foregrounded)
        case .tick:
            return try stepAll(now: now, checkout: .tick, pos: .tick)

        case .url(let url):
            return try route(url: url, now: now)

        case .removeFlow(let id):
            guard let index = flowIndex(id: id) else {
                throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
            }
            flows.remove(at: index)
            return CoordinatorAnswer(outcome: .accepted, transitions: [], persist: true)
        }
    }

    private func checkNewFlow(id: String, isCheckout: Bool) throws(PayHandoffError) {
        guard flowIndex(id: id) == nil else {
            throw PayHandoffError(.duplicate, field: "flow_id", "a flow with this id already exists")
        }
        guard configuration.singlePendingPerKind else { return }
        for flow in flows {
            switch flow {
            case .checkout(let f) where isCheckout && f.state.isWaiting:
                throw PayHandoffError(.invalidState, field: "flow_id", "another checkout is still pending (single_pending_per_kind)")
            case .pos(let f) where !isCheckout && f.state.acceptsAnswer && f.state != .launchFailed:
                throw PayHandoffError(.invalidState, field: "flow_id", "another POS hand-off is still open (single_pending_per_kind)")
            default: continue
            }
        }
    }

    /// The sale a refund refers to, after the eligibility check and the already-refunded check.
    private func saleToRefund(_ refundOf: CoordinatorEvent.RefundOf, request: POSRequest, now: Int64) throws(PayHandoffError) -> RefundEligibility.Sale {
        let sale: RefundEligibility.Sale
        switch refundOf {
        case .sale(let given):
            sale = given
        case .saleFlow(let saleID):
            guard case .pos(let saleFlow)? = flow(id: saleID), saleFlow.operation == .sale else {
                throw PayHandoffError(.unknownFlow, field: "sale_flow_id", "no POS sale flow has this id")
            }
            guard saleFlow.state == .approved || saleFlow.state == .approvedAmountMismatch,
                  let response = saleFlow.response, let transactionId = response.transactionId,
                  let amount = response.amount, let answeredAt = saleFlow.answeredAt else {
                throw PayHandoffError(.invalidState, field: "sale_flow_id", "only an approved sale with a transactionid can be refunded")
            }
            sale = RefundEligibility.Sale(transactionId: transactionId, amount: amount, approvedAt: answeredAt / 1000,
                                          posAppVersion: response.posAppVersion)
        }
        guard request.transactionId.hasSameBytes(as: sale.transactionId) else {
            throw PayHandoffError(.validation, field: "transactionId", "the refund's transactionId is not the sale's")
        }
        for flow in flows {
            if case .pos(let other) = flow, other.operation == .refund, other.saleTransactionId.hasSameBytes(as: sale.transactionId),
               other.state.acceptsAnswer {
                throw PayHandoffError(.invalidState, field: "transactionId", "a refund of this sale is already pending")
            }
        }
        let already = refundedAmount(transactionId: sale.transactionId)
        guard already < sale.amount else {
            throw PayHandoffError(.invalidState, field: "transactionId", "the sale is already fully refunded")
        }
        let remaining = Amount(unchecked: sale.amount.minorUnits - already.minorUnits)
        let requested = request.amount ?? remaining
        let verdict = try RefundEligibility.check(
            sale: RefundEligibility.Sale(transactionId: sale.transactionId, amount: remaining, approvedAt: sale.approvedAt,
                                         posAppVersion: sale.posAppVersion),
            refundAmount: requested, now: now / 1000)
        guard verdict.isEligible else {
            var message = "the sale cannot be refunded now: "
            for (index, reason) in verdict.reasons.enumerated() {
                message += (index == 0 ? "" : "; ") + reason.rawValue + " (" + verdict.explanation(of: reason) + ")"
            }
            throw PayHandoffError(.notEligible, field: "sale", message)
        }
        return sale
    }

    private mutating func stepCheckout(_ id: String, _ event: CheckoutFlow.Event, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
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

    private mutating func stepPOS(_ id: String, _ event: POSFlow.Event, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        guard let index = flowIndex(id: id) else {
            throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
        }
        guard case .pos(var flow) = flows[index] else {
            throw PayHandoffError(.invalidState, field: "flow_id", "this flow is a checkout, not a POS hand-off")
        }
        let before = flow.state
        let step = try flow.handle(event, now: now)
        flows[index] = .pos(flow)
        if flow.operation == .refund, before.acceptsAnswer, flow.state == .approved || flow.state == .approvedAmountMismatch,
           let sale = flow.saleTransactionId, let settled = flow.settledAmount {
            let total = refundedAmount(transactionId: sale).minorUnits + settled.minorUnits
            setRefunded(Amount(unchecked: Swift.min(total, Amount.max)), transactionId: sale)
        }
        return CoordinatorAnswer(outcome: step.outcome, transitions: [FlowTransition(flow: .pos(flow), effects: step.effects)])
    }

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
            case .pos(var flow):
                let step = try flow.handle(pos, now: now)
                if step.changed {
                    flows[index] = .pos(flow)
                    transitions.append(FlowTransition(flow: .pos(flow), effects: step.effects))
                }
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
             .browserOpened(let id), .browserDismissed(let id), .confirmation(let id, _),
             .posStart(let id, _, _, _), .posLaunched(let id), .posLaunchFailed(let id, _), .removeFlow(let id):
            return id
        case .appForegrounded, .tick, .url:
            return nil
        }
    }
}

extension Coordinator {
    /// Finds the flow a URL is addressed to and lets it decide.
    ///
    /// Checkout flows claim URLs with their return URL's scheme, host, port and path; among
    /// several, the `ph_nonce` picks one (an unverified callback is routed only when exactly one
    /// such checkout is still waiting). POS flows claim URLs with their answer scheme; the
    /// answer's `identifier` picks one. A URL no flow claims is `not_ours`.
    mutating func route(url: String, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        try URLSyntax.checkIncoming(url, field: "url")
        let (rawScheme, _) = try URLSyntax.splitScheme(url, field: "url")
        let scheme = ASCII.lowercased(String(rawScheme))

        // Checkouts whose return URL the URL is addressed to, and the URL's query; compared in
        // place, as CheckoutCallback.parse does. Index loops read the flows without copying them out.
        let addressed = try? HierarchicalURL.inspect(url, field: "url") { spans, bytes -> ([CheckoutFlow], String) in
            var candidates: [CheckoutFlow] = []
            for index in flows.indices {
                guard case .checkout(let f) = flows[index], (try? f.returnURL.checkAddressed(spans, in: bytes)) != nil else { continue }
                candidates.append(f)
            }
            return (candidates, spans.query.map { String(decoding: bytes[$0], as: UTF8.self) } ?? "")
        }
        if let (candidates, query) = addressed {
            if !candidates.isEmpty {
                let items = try QueryDecoder.decode(Substring(query), plus: .space, caseInsensitiveKeys: false)
                let target: CheckoutFlow
                if let echoed = items.first(where: { $0.key.hasSameBytes(as: ReturnURL.nonceParameter) })?.value {
                    guard let match = candidates.first(where: { $0.nonce.map { CheckoutCallback.constantTimeEqual($0, echoed) } ?? false }) else {
                        throw PayHandoffError(.callbackMismatch, field: ReturnURL.nonceParameter, "no checkout of this app has this nonce")
                    }
                    target = match
                } else {
                    let waiting = candidates.filter { $0.state.acceptsCallback }
                    if waiting.count > 1 {
                        throw PayHandoffError(.callbackMismatch, field: ReturnURL.nonceParameter,
                            "a callback without nonce is ambiguous: several checkouts wait on this return URL")
                    }
                    guard let chosen = waiting.first ?? candidates.last else {
                        throw PayHandoffError(.unknownFlow, "no checkout waits on this return URL")
                    }
                    target = chosen
                }
                let callback = try CheckoutCallback.parse(url, kind: target.kind, returnURL: target.returnURL, nonce: target.nonce,
                                                          expectedID: target.session?.objectID)
                return try stepCheckout(target.id, .callback(callback), now: now)
            }
        }

        var posFlows: [POSFlow] = []
        for index in flows.indices {
            guard case .pos(let f) = flows[index], ASCII.equalFoldingCase(f.answerScheme, scheme) else { continue }
            posFlows.append(f)
        }
        if !posFlows.isEmpty {
            let answer = try POSResponse.parse(url, urlScheme: scheme)
            let matching = posFlows.filter { $0.identifier.hasSameBytes(as: answer.identifier) }
            guard let target = matching.first(where: { $0.state.acceptsAnswer }) ?? matching.last else {
                throw PayHandoffError(.callbackMismatch, field: "identifier", "no POS hand-off of this app has this identifier")
            }
            return try stepPOS(target.id, .answer(answer), now: now)
        }
        return CoordinatorAnswer(outcome: .notOurs, transitions: [])
    }
}
