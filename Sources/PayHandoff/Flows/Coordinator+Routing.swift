/// Routing: the app's one deep-link entry point. Every URL the OS hands the app goes here; it
/// reaches at most one flow, and only when it carries that flow's secret.
extension Coordinator {
    /// Finds the flow a URL is addressed to and lets it decide.
    ///
    /// Checkout flows claim URLs addressed to their return URL (scheme, host, port, path, and
    /// the nonce segment); the nonce picks the one flow, and a URL without a nonce is refused
    /// unless ``Configuration/acceptUnverifiedCallbacks`` (then it goes to the one checkout
    /// still waiting on that return URL, and only as a claim). POS flows claim URLs on their
    /// answer scheme; the answer's identifier must be one flow's `<identifier>~<token>`. A URL
    /// no flow claims is `not_ours`. Return URLs are validated so that no URL can be both a
    /// checkout callback and a Billpocket answer (``ReturnURL``).
    mutating func route(url: String, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        try URLSyntax.checkIncoming(url, field: "url")
        let (rawScheme, _) = try URLSyntax.splitScheme(url, field: "url")
        let scheme = ASCII.lowercased(String(rawScheme))

        // Checkouts whose return URL the URL is addressed to, each with the nonce it finds in
        // the URL; compared in place, as CheckoutCallback.parse does.
        let addressed = try? HierarchicalURL.inspect(url, field: "url") { spans, bytes -> (target: Int?, candidates: [Int], carriesNonce: Bool) in
            var candidates: [Int] = []
            var target: Int? = nil
            var carriesNonce = false
            for index in flows.indices {
                guard case .checkout(let f) = flows[index], case .same(let nonce) = f.returnURL.compare(spans, in: bytes) else { continue }
                candidates.append(index)
                if let nonce {
                    carriesNonce = true
                    // The oldest flow holding the nonce takes it: a nonce reused after its flow
                    // ended must not let that flow's late callback reach the new one.
                    if target == nil, let expected = f.nonce,
                       CorrelationSecret.constantTimeEqual(UnsafeBufferPointer(rebasing: bytes[nonce]), expected) {
                        target = index
                    }
                }
            }
            return (target, candidates, carriesNonce)
        }
        if let addressed, !addressed.candidates.isEmpty {
            let target: Int
            if let found = addressed.target {
                target = found
            } else if addressed.carriesNonce {
                throw PayHandoffError(.callbackMismatch, field: "nonce", "no checkout of this app has this nonce")
            } else {
                guard configuration.acceptUnverifiedCallbacks else {
                    throw PayHandoffError(.callbackMismatch, field: "nonce",
                        "the callback carries no nonce: any app or page can send it, so it is refused")
                }
                var waiting: [Int] = []
                for index in addressed.candidates {
                    if case .checkout(let f) = flows[index], f.state.acceptsCallback { waiting.append(index) }
                }
                if waiting.count > 1 {
                    throw PayHandoffError(.callbackMismatch, field: "nonce",
                        "a callback without nonce is ambiguous: several checkouts wait on this return URL")
                }
                target = waiting.first ?? addressed.candidates[addressed.candidates.count - 1]
            }
            guard case .checkout(let flow) = flows[target] else { return CoordinatorAnswer(outcome: .notOurs, transitions: []) }
            let callback = try CheckoutCallback.parse(url, kind: flow.kind, returnURL: flow.returnURL, nonce: flow.nonce,
                                                      expectedID: flow.session?.objectID,
                                                      acceptUnverified: configuration.acceptUnverifiedCallbacks)
            return try stepCheckout(flow.id, .callback(callback), now: now)
        }

        #if PAYHANDOFF_CHECKOUT_ONLY
        // No POS flow can exist here: a POS answer is what it is to the full module with none open.
        return CoordinatorAnswer(outcome: .notOurs, transitions: [])
        #else
        var posFlows: [POSFlow] = []
        var posIndices: [Int] = []
        for index in flows.indices {
            guard case .pos(let f) = flows[index], ASCII.equalFoldingCase(f.answerScheme, scheme) else { continue }
            posFlows.append(f)
            posIndices.append(index)
        }
        guard !posFlows.isEmpty else { return CoordinatorAnswer(outcome: .notOurs, transitions: []) }
        // The identifier is checked right after the query: "not for any sale of ours" first. Each
        // terminal app with a hand-off on this scheme reads the URL by its own rules (in POSApp's
        // order: Billpocket, Square, SumUp): the first that finds one of its hand-offs' echoes takes it; when
        // none does, the answer is the first callback_mismatch, else the first app's error.
        var answer: POSResponse? = nil
        var firstError: PayHandoffError? = nil
        for app in POSApp.allCases {
            let candidates = posFlows.filter { $0.posApp == app }
            guard !candidates.isEmpty else { continue }
            do throws(PayHandoffError) {
                answer = try POSResponse.parse(url, posApp: app, scheme: scheme, expecting: .oneOf(candidates), jsonText: jsonText)
                break
            } catch {
                // An app that read the answer but found another hand-off's echo says the most.
                if firstError == nil || (error.code == .callbackMismatch && firstError?.code != .callbackMismatch) { firstError = error }
            }
        }
        guard let answer else { throw firstError ?? PayHandoffError(.callbackMismatch, field: "identifier", "no POS hand-off of this app has this identifier") }
        var target: Int? = nil
        for (position, flow) in posFlows.enumerated() where flow.posApp == answer.posApp && flow.isAnswered(by: answer) {
            if target == nil || flow.takesAnswer { target = posIndices[position] }
            if flow.takesAnswer { break }
        }
        guard let target else {
            throw PayHandoffError(.callbackMismatch, field: "identifier", "no POS hand-off of this app has this identifier")
        }
        return try answerPOS(target, answer, now: now)
        #endif
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// Gives `answer` (already matched to it) to the POS flow at `index`, and books an approval
    /// in the ledger. Nothing is stored before every check passed.
    /// - Throws: `callback_mismatch` for an answer that is not the flow's; `duplicate` naming
    ///   `transactionid` when another flow already booked the answer's `transactionid`.
    mutating func answerPOS(_ index: Int, _ answer: POSResponse, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        guard case .pos(var flow) = flows[index] else {
            throw PayHandoffError(.invalidState, field: "flow_id", "this flow is a checkout, not a POS hand-off")
        }
        let before = flow.state
        let step = try flow.handle(.answer(answer), now: now)
        if before.acceptsAnswer, flow.state == .approved || flow.state == .approvedAmountMismatch {
            try book(flow, now: now)
        }
        flows[index] = .pos(flow)
        return CoordinatorAnswer(outcome: step.outcome, transitions: [FlowTransition(flow: .pos(flow), effects: step.effects)])
    }
    #endif
}

extension Coordinator {
    /// `checkout.browser_result` for flow `id`: `ok` hands its URL to that flow with the rules of a
    /// deep link (the same nonce check, once only: the same return by deep link too is a
    /// `duplicate`); a URL that is not this flow's (another flow's nonce, another return URL) is
    /// `callback_mismatch` and moves nothing. `canceled` is `checkout.browser_dismissed`; the
    /// other codes the same move with `reconcile` (``BrowserResult``).
    mutating func answerBrowserResult(_ id: String, _ result: BrowserResult, now: Int64) throws(PayHandoffError) -> CoordinatorAnswer {
        switch result.code {
        case .canceled:
            return try stepCheckout(id, .browserDismissed, now: now)
        case .verificationFailed, .verificationTimedOut, .unknown:
            return try stepCheckout(id, .browserReturnedUnverified(reason: result.reconcileReason ?? ""), now: now)
        case .ok:
            guard let index = flowIndex(id: id) else {
                throw PayHandoffError(.unknownFlow, field: "flow_id", "no flow has this id")
            }
            guard case .checkout(let flow) = flows[index] else {
                throw PayHandoffError(.invalidState, field: "flow_id", "this flow is a POS hand-off, not a checkout")
            }
            let callback = try CheckoutCallback.parse(result.url ?? "", kind: flow.kind, returnURL: flow.returnURL, nonce: flow.nonce,
                                                      expectedID: flow.session?.objectID,
                                                      acceptUnverified: configuration.acceptUnverifiedCallbacks)
            return try stepCheckout(id, .callback(callback), now: now)
        }
    }
}
