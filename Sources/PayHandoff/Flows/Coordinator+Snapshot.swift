/// Snapshots: every flow serializes to a versioned document and restores from it, so a flow
/// survives the OS killing the app while the browser tab or the POS app is in front. A
/// restored coordinator behaves exactly like the original from there on.
///
/// Snapshots hold no secrets: no API key (only ``FlowEffect/sendRequest(_:)`` carries it, once)
/// and no POS user token (only ``FlowEffect/openPOSApp(url:)`` does; an echoed token in an
/// answer is dropped by the parser). They do hold the flows' nonces and POS tokens, which are
/// what makes an answer genuine: keep the snapshot where the app keeps its own private data.
///
/// ```json
/// {"version": 2,
///  "config": {"single_pending_per_kind": false, "checkout_timeout_ms": 1800000, "pos_grace_ms": 3000,
///             "accept_unverified_callbacks": false},
///  "flows": [{"id": "c1", "type": "checkout", "state": "in_browser", "kind": "cards",
///             "return_url": "fixapp://checkout-callback", "nonce": "…", "deadline": 1796056200000,
///             "session": {…}, "callback": {…}, "confirmation": {…}, "failure_reason": "…"},
///            {"id": "p1", "type": "pos", "state": "launched", "operation": "venta", "identifier": "ord-1",
///             "token": "…", "answer_scheme": "myapp", "amount": "100.00", "grace_ms": 3000, "foregrounded_at": …,
///             "response": {…}, "answered_at": …, "sale_transactionid": "…", "launch_failure": "…"}],
///  "ledger": [{"transactionid": "720371", "flow_id": "p1", "operation": "venta", "amount": "100.00",
///              "refunded": "40.00", "approved_at": 1796054460000, "expires_at": 1796101200000}]}
/// ```
///
/// Restoring checks the whole document as the coordinator would have written it and refuses,
/// naming the member, any state it could not have reached: a flow whose data does not fit its
/// state, two waiting flows sharing a correlation key, two pending refunds of one sale, a sale
/// refunded beyond its amount, a snapshot over the budget.
extension Coordinator {
    /// The snapshot format this build writes and reads. Format 1 (PayHandoff 0.1, never
    /// released) had no per-flow POS tokens and no ledger: its hand-offs cannot be verified, so
    /// it is refused rather than read.
    public static let snapshotVersion: Int64 = 2

    /// The most bytes the snapshot takes as JSON text: what the C ABI accepts as input, so that
    /// whatever the coordinator writes it can read back.
    public static let snapshotBudget = 65_536
    /// Room kept for what a waiting POS flow may still receive besides its answer (at most
    /// ``POSResponse/maxStoredLength`` plus the identifier it echoes): its ledger entry, the
    /// answer and foreground times, a longer state name.
    static let posReserve = 896
    /// Room kept for what a checkout may still receive by deep link: its callback (at most
    /// ``CheckoutCallback/maxStoredLength``), the failure reason, a longer state name.
    static let checkoutReserve = 1_280

    /// The whole coordinator as a versioned document.
    public var snapshot: JSONValue {
        var config = JSONObject(capacity: 4)
        config.appendNewMember("single_pending_per_kind", .bool(configuration.singlePendingPerKind))
        config.appendNewMember("checkout_timeout_ms", .integer(configuration.checkoutTimeoutMilliseconds))
        config.appendNewMember("pos_grace_ms", .integer(configuration.posGraceMilliseconds))
        config.appendNewMember("accept_unverified_callbacks", .bool(configuration.acceptUnverifiedCallbacks))
        var o = JSONObject(capacity: 4)
        o.appendNewMember("version", .integer(Coordinator.snapshotVersion))
        o.appendNewMember("config", .object(config))
        o.appendNewMember("flows", .array(flows.map { $0.snapshotJSON }))
        o.appendNewMember("ledger", .array(ledger.entries.map { $0.json }))
        return .object(o)
    }

    /// The snapshot's printed size, at most, plus the room kept for every answer still expected.
    var committedSnapshotLength: Int {
        var total = snapshot.printedLengthBound
        for flow in flows where flow.takesDeepLink {
            switch flow {
            case .pos(let f):
                total += POSResponse.maxStoredLength + JSONValue.printedLength(of: f.sentIdentifier) + Coordinator.posReserve
            case .checkout:
                total += Coordinator.checkoutReserve
            }
        }
        return total
    }

    /// Refuses a state whose snapshot could outgrow ``snapshotBudget``.
    /// - Throws: `limit_exceeded`.
    func checkBudget() throws(PayHandoffError) {
        guard committedSnapshotLength <= Coordinator.snapshotBudget else {
            throw PayHandoffError(.limitExceeded, field: nil,
                "the snapshot would pass 65536 bytes (room is kept for every answer still expected): remove ended flows (flow.remove)")
        }
    }

    /// Restores a coordinator from ``snapshot``. All or nothing: a damaged or inconsistent
    /// document restores nothing.
    /// - Parameter snapshot: A document written by ``snapshot``.
    /// - Throws: `unsupported_version` for another format; `validation`/`invalid_json` naming the
    ///   damaged or inconsistent member (`flows[2].state`, `ledger[0].refunded`, …); `conflict`
    ///   for two waiting flows sharing a correlation key; `limit_exceeded` over the budget.
    public init(snapshot: JSONValue) throws(PayHandoffError) {
        let version = try snapshot.integer(at: "version")
        guard version == Coordinator.snapshotVersion else {
            throw PayHandoffError(.unsupportedVersion, field: "version",
                "snapshot format " + String(version) + " is not read by this build (it reads " + String(Coordinator.snapshotVersion) + ")")
        }
        try snapshot.rejectUnknownKeys(["version", "config", "flows", "ledger"])
        let configuration = try Configuration(json: snapshot.value(at: "config") ?? [:])
        var flows: [Flow] = []
        for (index, element) in (try snapshot.optionalArray(at: "flows") ?? []).enumerated() {
            func located(_ error: PayHandoffError) -> PayHandoffError {
                var located = error
                located.field = "flows[" + String(index) + "]" + (error.field.map { "." + $0 } ?? "")
                return located
            }
            let flow: Flow
            do throws(PayHandoffError) {
                flow = try Flow(snapshot: element, configuration: configuration)
            } catch {
                throw located(error)
            }
            guard !flows.contains(where: { $0.id.hasSameBytes(as: flow.id) }) else {
                throw PayHandoffError(.validation, field: "flows[" + String(index) + "].id", "two flows have the same id")
            }
            do throws(PayHandoffError) {
                try Coordinator.checkCorrelation(of: flow, among: flows)
            } catch {
                throw located(error)
            }
            flows.append(flow)
        }
        var entries: [RefundLedger.Entry] = []
        for (index, element) in (try snapshot.optionalArray(at: "ledger") ?? []).enumerated() {
            do throws(PayHandoffError) {
                entries.append(try RefundLedger.Entry(json: element))
            } catch {
                var located = error
                located.field = "ledger[" + String(index) + "]" + (error.field.map { "." + $0 } ?? "")
                throw located
            }
        }
        self.init(configuration: configuration, flows: flows, ledger: try RefundLedger(restoring: entries))
        try checkBudget()
    }

    /// Refuses `flow` when it would share a correlation key with a waiting one of `others`
    /// (the rule ``Coordinator`` keeps when flows start), or a pending refund's sale.
    static func checkCorrelation(of flow: Flow, among others: [Flow]) throws(PayHandoffError) {
        switch flow {
        case .checkout(let f):
            guard f.state.isWaiting, let nonce = f.nonce else { return }
            for case .checkout(let other) in others where other.state.isWaiting && other.nonce.hasSameBytes(as: nonce) {
                throw PayHandoffError(.conflict, field: "nonce", "two waiting checkouts share this nonce")
            }
        case .pos(let f):
            guard f.takesAnswer else { return }
            for case .pos(let other) in others where other.takesAnswer {
                if other.identifier.hasSameBytes(as: f.identifier) && ASCII.equalFoldingCase(other.answerScheme, f.answerScheme) {
                    throw PayHandoffError(.conflict, field: "identifier", "two waiting POS hand-offs share this identifier and scheme")
                }
                if f.operation == .refund, other.operation == .refund, other.saleTransactionId.hasSameBytes(as: f.saleTransactionId) {
                    throw PayHandoffError(.validation, field: "sale_transactionid", "two refunds of one sale are pending")
                }
            }
        }
    }
}

extension Coordinator.Configuration {
    /// Reads `{"single_pending_per_kind": bool, "checkout_timeout_ms": int, "pos_grace_ms": int,
    /// "accept_unverified_callbacks": bool}`; missing members take the defaults. Used by the
    /// snapshot and by hosts creating a coordinator.
    /// - Parameter json: The configuration document.
    /// - Throws: `validation`/`invalid_json` for unknown members or values out of range.
    public init(json: JSONValue) throws(PayHandoffError) {
        try json.rejectUnknownKeys(["single_pending_per_kind", "checkout_timeout_ms", "pos_grace_ms", "accept_unverified_callbacks"])
        let defaults = Coordinator.Configuration()
        try self.init(singlePendingPerKind: try json.optionalBool(at: "single_pending_per_kind") ?? false,
                      checkoutTimeoutMilliseconds: try json.optionalInteger(at: "checkout_timeout_ms") ?? defaults.checkoutTimeoutMilliseconds,
                      posGraceMilliseconds: try json.optionalInteger(at: "pos_grace_ms") ?? defaults.posGraceMilliseconds,
                      acceptUnverifiedCallbacks: try json.optionalBool(at: "accept_unverified_callbacks") ?? false)
    }
}

extension RefundLedger.Entry {
    /// The entry as a document (one element of the snapshot's `ledger`).
    public var json: JSONValue {
        var o = JSONObject(capacity: 7)
        o.appendNewMember("transactionid", .string(transactionId))
        o.appendNewMember("flow_id", flowID.map { .string($0) } ?? .null)
        o.appendNewMember("operation", .string(operation.rawValue))
        o.appendNewMember("amount", .string(amount.decimalString))
        o.appendNewMember("refunded", .string(refunded.decimalString))
        o.appendNewMember("approved_at", .integer(approvedAt))
        o.appendNewMember("expires_at", .integer(expiresAt))
        return .object(o)
    }

    /// An entry from ``json``, checked: what the ledger could have booked.
    /// - Throws: `validation`/`invalid_json` naming the member.
    init(json: JSONValue) throws(PayHandoffError) {
        try json.rejectUnknownKeys(["transactionid", "flow_id", "operation", "amount", "refunded", "approved_at", "expires_at"])
        let transactionId = try json.string(at: "transactionid")
        guard !transactionId.isEmpty, transactionId.utf8.count <= POSResponse.maxTransactionIDLength,
              transactionId.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw PayHandoffError(.validation, field: "transactionid", "must be 1 to 128 printable ASCII characters")
        }
        let flowID = try json.optionalString(at: "flow_id")
        if let flowID { try CoordinatorEvent.checkFlowID(flowID) }
        guard let operation = POSRequest.Operation(rawValue: try json.string(at: "operation")) else {
            throw PayHandoffError(.validation, field: "operation", "must be venta or devolucion")
        }
        guard let amount = try json.optionalAmount(at: "amount") else { throw JSONValue.missing("amount") }
        guard let refunded = try json.optionalAmount(at: "refunded") else { throw JSONValue.missing("refunded") }
        guard refunded <= amount, operation == .sale || refunded == .zero else {
            throw PayHandoffError(.validation, field: "refunded", "more refunded than the sale's amount")
        }
        let approvedAt = try json.integer(at: "approved_at")
        try MexicoCityTime.checkEpochMilliseconds(approvedAt, field: "approved_at")
        let expiresAt = try json.integer(at: "expires_at")
        try MexicoCityTime.checkEpochMilliseconds(expiresAt, field: "expires_at")
        self.init(transactionId: transactionId, flowID: flowID, operation: operation, amount: amount, refunded: refunded,
                  approvedAt: approvedAt, expiresAt: expiresAt)
    }
}

extension Coordinator.Flow {
    /// `"checkout"` or `"pos"`.
    public var typeName: String {
        switch self {
        case .checkout: return "checkout"
        case .pos: return "pos"
        }
    }

    /// The flow as a document (one element of the coordinator snapshot's `flows`).
    public var snapshotJSON: JSONValue {
        var o = JSONObject(capacity: 14)
        o.appendNewMember("id", .string(id))
        o.appendNewMember("type", .string(typeName))
        o.appendNewMember("state", .string(stateName))
        switch self {
        case .checkout(let f):
            o.appendNewMember("kind", .string(f.kind.rawValue))
            o.appendNewMember("return_url", .string(f.returnURL.text))
            o.appendNewMember("nonce", ifPresent: f.nonce.map { .string($0) })
            o.appendNewMember("deadline", .integer(f.deadline))
            o.appendNewMember("session", ifPresent: f.session?.json)
            o.appendNewMember("callback", ifPresent: f.callback?.json)
            o.appendNewMember("confirmation", ifPresent: f.confirmation?.eventJSON)
            o.appendNewMember("failure_reason", ifPresent: f.failureReason.map { .string($0) })
        case .pos(let f):
            o.appendNewMember("operation", .string(f.operation.rawValue))
            o.appendNewMember("identifier", .string(f.identifier))
            o.appendNewMember("token", .string(f.token))
            o.appendNewMember("answer_scheme", .string(f.answerScheme))
            o.appendNewMember("amount", ifPresent: f.amount.map { .string($0.decimalString) })
            o.appendNewMember("sale_transactionid", ifPresent: f.saleTransactionId.map { .string($0) })
            o.appendNewMember("grace_ms", .integer(f.graceMilliseconds))
            o.appendNewMember("foregrounded_at", ifPresent: f.foregroundedAt.map { .integer($0) })
            o.appendNewMember("response", ifPresent: f.response?.json)
            o.appendNewMember("answered_at", ifPresent: f.answeredAt.map { .integer($0) })
            o.appendNewMember("launch_failure", ifPresent: f.launchFailure.map { .string($0) })
        }
        return .object(o)
    }

    /// A flow from ``snapshotJSON``, checked for consistency: its data must fit its state, as
    /// the flow's rules leave it.
    /// - Parameters:
    ///   - json: The flow document.
    ///   - configuration: The coordinator's configuration (a checkout without nonce needs
    ///     unverified callbacks accepted).
    /// - Throws: `validation`/`invalid_json` naming the damaged member.
    public init(snapshot json: JSONValue, configuration: Coordinator.Configuration) throws(PayHandoffError) {
        let id = try json.string(at: "id")
        try CoordinatorEvent.checkFlowID(id, field: "id")
        let stateText = try json.string(at: "state")
        let type = try json.string(at: "type")
        if type.hasSameBytes(as: "checkout") {
            try json.rejectUnknownKeys(["id", "type", "state", "kind", "return_url", "nonce", "deadline", "session",
                                        "callback", "confirmation", "failure_reason"])
            guard let state = CheckoutFlow.State(rawValue: stateText) else {
                throw PayHandoffError(.validation, field: "state", "is not a checkout state")
            }
            let kind = try CheckoutKind(parsing: try json.string(at: "kind"), field: "kind")
            let session = try json.optionalObject(at: "session").map { o throws(PayHandoffError) in try CheckoutSession(json: .object(o)) }
            let callback = try json.optionalObject(at: "callback").map { o throws(PayHandoffError) in try CheckoutCallback(json: .object(o)) }
            let confirmation = try json.optionalObject(at: "confirmation").map { o throws(PayHandoffError) in try CheckoutConfirmation(json: .object(o)) }
            let nonce = try json.optionalString(at: "nonce")
            if let nonce { try CorrelationSecret.check(nonce, field: "nonce") }
            guard nonce != nil || configuration.acceptUnverifiedCallbacks else {
                throw PayHandoffError(.validation, field: "nonce", "a checkout without nonce needs accept_unverified_callbacks")
            }
            let deadline = try json.integer(at: "deadline")
            try MexicoCityTime.checkEpochMilliseconds(deadline, field: "deadline")
            let failureReason = try json.optionalString(at: "failure_reason")
            let flow = CheckoutFlow(id: id, kind: kind, returnURL: try ReturnURL(try json.string(at: "return_url")), nonce: nonce,
                                    deadline: deadline, state: state, session: session, callback: callback,
                                    confirmation: confirmation, failureReason: failureReason)
            try flow.checkConsistent()
            self = .checkout(flow)
        } else if type.hasSameBytes(as: "pos") {
            try json.rejectUnknownKeys(["id", "type", "state", "operation", "identifier", "token", "answer_scheme", "amount",
                                        "sale_transactionid", "grace_ms", "foregrounded_at", "response", "answered_at",
                                        "launch_failure"])
            guard let state = POSFlow.State(rawValue: stateText) else {
                throw PayHandoffError(.validation, field: "state", "is not a POS state")
            }
            guard let operation = POSRequest.Operation(rawValue: try json.string(at: "operation")) else {
                throw PayHandoffError(.validation, field: "operation", "must be venta or devolucion")
            }
            let token = try json.string(at: "token")
            try CorrelationSecret.check(token, field: "token")
            let scheme = try json.string(at: "answer_scheme")
            guard URLSyntax.isValidScheme(Substring(scheme)) else {
                throw PayHandoffError(.validation, field: "answer_scheme", "is not a URL scheme")
            }
            let grace = try json.integer(at: "grace_ms")
            try CoordinatorEvent.checkGrace(grace, field: "grace_ms")
            let foregroundedAt = try json.optionalInteger(at: "foregrounded_at")
            if let foregroundedAt { try MexicoCityTime.checkEpochMilliseconds(foregroundedAt, field: "foregrounded_at") }
            let answeredAt = try json.optionalInteger(at: "answered_at")
            if let answeredAt { try MexicoCityTime.checkEpochMilliseconds(answeredAt, field: "answered_at") }
            let flow = POSFlow(
                id: id, operation: operation, identifier: try json.string(at: "identifier"), token: token, answerScheme: scheme,
                amount: try json.optionalAmount(at: "amount"), saleTransactionId: try json.optionalString(at: "sale_transactionid"),
                graceMilliseconds: grace, state: state, foregroundedAt: foregroundedAt,
                response: try json.optionalObject(at: "response").map { o throws(PayHandoffError) in try POSResponse(json: .object(o)) },
                answeredAt: answeredAt, launchFailure: try json.optionalString(at: "launch_failure"))
            try flow.checkConsistent()
            self = .pos(flow)
        } else {
            throw PayHandoffError(.validation, field: "type", "must be checkout or pos")
        }
    }
}

extension CheckoutFlow {
    /// Refuses data no sequence of events could have left in this state.
    /// - Throws: `validation` naming the member that does not fit (`state`, `confirmation`, `callback`, …).
    func checkConsistent() throws(PayHandoffError) {
        func refuse(_ member: String, _ why: String) -> PayHandoffError {
            PayHandoffError(.validation, field: member, why)
        }
        if let session, session.kind != kind { throw refuse("session", "is for another kind of checkout") }
        if let callback, callback.kind != kind { throw refuse("callback", "is for another kind of checkout") }
        if let confirmation {
            guard state == .confirmed else { throw refuse("confirmation", "only a confirmed checkout holds a confirmation") }
            guard confirmation.kind == kind else { throw refuse("confirmation", "is for another kind of checkout") }
            if let expected = session?.objectID, !expected.hasSameBytes(as: confirmation.objectID) {
                throw refuse("confirmation", "names another " + kind.idKey + " than the session")
            }
            if let callback, callback.isVerified, let id = callback.objectID, !id.hasSameBytes(as: confirmation.objectID) {
                throw refuse("confirmation", "names another " + kind.idKey + " than the verified callback")
            }
        }
        let claim = callback.map { !$0.isVerified } ?? false
        let fits: Bool
        switch state {
        case .awaitingSession:
            fits = session == nil && (callback == nil || (claim && callback?.status != .completed))
        case .ready, .inBrowser, .returnedWithoutResult:
            fits = session != nil && (callback == nil || (claim && callback?.status != .completed))
        case .awaitingConfirmation:
            fits = callback?.status == .completed && confirmation == nil
        case .confirmed:
            fits = confirmation != nil
        case .failed:
            fits = callback.map { $0.isVerified ? $0.status == .failed : true } ?? true
                && (callback?.isVerified == true || session == nil)
        case .cancelled:
            fits = callback?.isVerified == true && callback?.status == .cancelled
        case .expired:
            fits = callback.map { !$0.isVerified || $0.status == .completed } ?? true
        }
        guard fits else { throw refuse("state", "the flow's data does not fit its state") }
    }
}

extension POSFlow {
    /// Refuses data no sequence of events could have left in this state.
    /// - Throws: `validation` naming the member that does not fit (`state`, `response`, …).
    func checkConsistent() throws(PayHandoffError) {
        func refuse(_ member: String, _ why: String) -> PayHandoffError {
            PayHandoffError(.validation, field: member, why)
        }
        guard (operation == .refund) == (saleTransactionId != nil) else {
            throw refuse("sale_transactionid", "a refund names its sale, a sale does not")
        }
        guard operation == .sale || amount != nil else { throw refuse("amount", "a refund always carries its amount") }
        guard (response == nil) == (answeredAt == nil) else { throw refuse("answered_at", "goes with the response") }
        if state == .returnedWithoutResponse, foregroundedAt == nil {
            throw refuse("foregrounded_at", "a flow returned without response came back to the foreground")
        }
        guard let response else {
            guard state.acceptsAnswer else { throw refuse("state", "this state needs the answer that led to it") }
            return
        }
        guard !state.acceptsAnswer else { throw refuse("response", "a flow still waiting holds no answer") }
        guard isAnswered(by: response) else { throw refuse("response.identifier", "is not this hand-off's identifier and token") }
        let fits: Bool
        switch state {
        case .approved:
            fits = response.result == .approved && (amount == nil || response.amount == amount)
        case .approvedAmountMismatch:
            fits = response.result == .approved && amount != nil && response.amount != amount
        case .declined:
            fits = response.result == .declined
        case .error:
            fits = response.result == .error
        case .ready, .launched, .launchFailed, .returnedWithoutResponse:
            fits = false
        }
        guard fits else { throw refuse("state", "the flow's answer does not fit its state") }
    }
}
