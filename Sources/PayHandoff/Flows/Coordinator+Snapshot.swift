/// Snapshots: every flow serializes to a versioned document and restores from it, so a flow
/// survives the OS killing the app while the browser tab or the POS app is in front. A
/// restored coordinator behaves exactly like the original from there on.
///
/// Snapshots hold no API key (only ``FlowEffect/sendRequest(_:)`` carries it, once) and no POS
/// user token (only ``FlowEffect/openPOSApp(url:)`` does; an echoed token in an answer is
/// dropped by the parser). They do hold the flows' nonces and POS tokens, which are what makes
/// an answer genuine: the snapshot is secret-bearing — keep it where the app keeps its own
/// private data (a file in the app's private storage, written atomically; not an Android
/// `Bundle`, which cannot hold 256 KiB).
///
/// ```json
/// {"version": 3,
///  "config": {"single_pending_per_kind": false, "checkout_timeout_ms": 1800000, "pos_grace_ms": 3000,
///             "accept_unverified_callbacks": false},
///  "flows": [{"id": "c1", "type": "checkout", "state": "in_browser", "kind": "cards",
///             "return_url": "fixapp://checkout-callback", "nonce": "…", "deadline": 1796056200000,
///             "session": {…}, "callback": {…}, "confirmation": {…}, "failure_reason": "…"},
///            {"id": "p1", "type": "pos", "state": "launched", "operation": "venta", "identifier": "ord-1",
///             "token": "…", "answer_scheme": "myapp", "amount": "100.00", "grace_ms": 3000, "foregrounded_at": …,
///             "response": {…}, "answered_at": …, "sale_transactionid": "…", "launch_failure": "…"}],
///  "ledger": {"pruned_through": 1796014800000,
///             "sales": [["7203710000", 10000, 4000, 1796054460000]],
///             "refunds": [["7203710042", 4000, 1796054520000]],
///             "unknown": [["7203710031", 1796101200000]]}}
/// ```
///
/// A ledger entry is an array — sales `[transactionid, amount, refunded, approved_at]`, refunds
/// `[transactionid, amount, approved_at]` (amounts in centavos, times in epoch ms; a window closes
/// at 23:00 Mexico City on the day of `approved_at`), records whose balance is unknown
/// `[transactionid, until]` — about 40 bytes for a 10-digit id, so a day of thousands of sales fits.
/// `failure_reason` is the session's failure only: a `failed` callback's reason stays in the callback.
///
/// Restoring checks the whole document as the coordinator would have written it and refuses,
/// naming the member, any state it could not have reached: a value an event would have refused
/// (`flows[0].token`, `ledger.sales[3]`), a flow whose data does not fit its state, two flows
/// sharing a correlation key, two pending refunds of one sale, a sale refunded beyond its amount,
/// reservations past the limit (``Coordinator`` `+Budget`). Format 2 (PayHandoff 0.2) is read and
/// converted: its flows and ledger balances come back the same.
extension Coordinator {
    /// The snapshot format this build writes. It reads this one and format 2 (converted). Format
    /// 1 (PayHandoff 0.1, never released) had no per-flow POS tokens and no ledger: its hand-offs
    /// cannot be verified, so it is refused rather than read.
    public static let snapshotVersion: Int64 = 3

    /// The whole coordinator as a versioned document (secret-bearing: it holds nonces and tokens).
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
        o.appendNewMember("ledger", ledger.json)
        return .object(o)
    }

    /// Restores a coordinator from ``snapshot``. All or nothing: a damaged or inconsistent
    /// document restores nothing (``init(salvaging:snapshotLimit:)`` keeps what is intact).
    /// - Parameters:
    ///   - snapshot: A document written by ``snapshot`` (format 3), or by PayHandoff 0.2 (format 2).
    ///   - snapshotLimit: The limit the coordinator was created with (``maxSnapshotBytes``).
    /// - Throws: `unsupported_version` for another format; `validation`/`invalid_json` naming the
    ///   damaged or inconsistent member (`flows[2].state`, `ledger.sales[0]`, …); `conflict`
    ///   for two flows sharing a correlation key; `limit_exceeded` over the limit.
    public init(snapshot: JSONValue, snapshotLimit: Int = Coordinator.maxSnapshotBytes) throws(PayHandoffError) {
        let document = try Coordinator.currentFormat(of: snapshot)
        try document.rejectUnknownKeys(["version", "config", "flows", "ledger"])
        let configuration = try Configuration(json: document.value(at: "config") ?? [:])
        var flows: [Flow] = []
        for (index, element) in (try document.optionalArray(at: "flows") ?? []).enumerated() {
            let flow: Flow
            do throws(PayHandoffError) {
                flow = try Flow(snapshot: element, configuration: configuration)
                try Coordinator.checkCorrelation(of: flow, among: flows)
            } catch {
                throw error.located(in: "flows[" + String(index) + "]")
            }
            flows.append(flow)
        }
        let ledger = try RefundLedger(snapshot: document.value(at: "ledger") ?? .null)
        self.init(configuration: configuration, snapshotLimit: Swift.min(snapshotLimit, Coordinator.maxSnapshotBytes),
                  flows: flows, ledger: ledger)
        try checkRestoredBudget()
    }

    /// `snapshot` in this build's format: format 3 as it is, format 2 converted.
    /// - Parameters:
    ///   - snapshot: The document.
    ///   - lenient: For a salvage: a format-2 ledger entry that does not read is passed on as it
    ///     is (the format-3 reader then drops it) instead of refusing the document.
    /// - Throws: `unsupported_version` naming `version` for any other format.
    static func currentFormat(of snapshot: JSONValue, lenient: Bool = false) throws(PayHandoffError) -> JSONValue {
        guard case .object = snapshot else { throw JSONValue.wrongType("", expected: "a snapshot object", found: snapshot) }
        let version = try snapshot.integer(at: "version")
        switch version {
        case Coordinator.snapshotVersion: return snapshot
        case 2: return try Coordinator.convertFormat2(snapshot, lenient: lenient)
        default:
            throw PayHandoffError(.unsupportedVersion, field: "version",
                "snapshot format " + String(version) + " is not read by this build (it reads 3 and 2)")
        }
    }

    /// A format-2 document (PayHandoff 0.2) in format 3. What changed: the ledger's entries became
    /// arrays (flow ids dropped, windows follow from the approval time); a `failed` callback's
    /// reason is no longer repeated as `failure_reason`; a claimed `completed` no longer moves a
    /// checkout, so one that only a claim had moved goes back to `in_browser` (or
    /// `awaiting_session`), the claim kept.
    static func convertFormat2(_ snapshot: JSONValue, lenient: Bool) throws(PayHandoffError) -> JSONValue {
        guard case .object(var document) = snapshot else { return snapshot }
        document["version"] = .integer(Coordinator.snapshotVersion)
        var flows: [JSONValue] = []
        for element in try snapshot.optionalArray(at: "flows") ?? [] {
            guard case .object(var flow) = element, case .string(let type)? = flow["type"], type.hasSameBytes(as: "checkout") else {
                flows.append(element)
                continue
            }
            let verified = (try? element.optionalBool(at: "callback.verified")) ?? nil
            let state = (try? element.optionalString(at: "state")) ?? nil
            if verified == true, let state, state.hasSameBytes(as: "failed") { flow["failure_reason"] = nil }
            if verified == false, let state, state.hasSameBytes(as: "awaiting_confirmation") {
                flow["state"] = .string(element.isPresent(at: "session") ? "in_browser" : "awaiting_session")
            }
            flows.append(.object(flow))
        }
        if snapshot.isPresent(at: "flows") { document["flows"] = .array(flows) }
        var sales: [JSONValue] = [], refunds: [JSONValue] = []
        let entries: [JSONValue]
        do throws(PayHandoffError) {
            entries = try snapshot.optionalArray(at: "ledger") ?? []
        } catch {
            guard lenient else { throw error }
            entries = []
        }
        for (index, element) in entries.enumerated() {
            let member = "ledger[" + String(index) + "]"
            do throws(PayHandoffError) {
                try element.rejectUnknownKeys(["transactionid", "flow_id", "operation", "amount", "refunded", "approved_at", "expires_at"])
                let id = JSONValue.string(try element.string(at: "transactionid"))
                guard let amount = try element.optionalAmount(at: "amount") else { throw JSONValue.missing("amount") }
                guard let refunded = try element.optionalAmount(at: "refunded") else { throw JSONValue.missing("refunded") }
                let approvedAt = JSONValue.integer(try element.integer(at: "approved_at"))
                let operation = try element.string(at: "operation")
                if operation.hasSameBytes(as: "venta") {
                    sales.append(.array([id, .integer(amount.minorUnits), .integer(refunded.minorUnits), approvedAt]))
                } else if operation.hasSameBytes(as: "devolucion") {
                    refunds.append(.array([id, .integer(amount.minorUnits), approvedAt]))
                } else {
                    throw PayHandoffError(.validation, field: "operation", "must be venta or devolucion")
                }
            } catch {
                guard lenient else { throw error.located(in: member) }
                sales.append(element)
            }
        }
        document["ledger"] = ["pruned_through": 0, "sales": .array(sales), "refunds": .array(refunds), "unknown": []]
        return .object(document)
    }

    /// Refuses `flow` when it would share a correlation key with any of `others` (the rule
    /// ``Coordinator`` keeps when flows start), or a pending refund's sale.
    static func checkCorrelation(of flow: Flow, among others: [Flow]) throws(PayHandoffError) {
        guard !others.contains(where: { $0.id.hasSameBytes(as: flow.id) }) else {
            throw PayHandoffError(.validation, field: "id", "two flows have the same id")
        }
        switch flow {
        case .checkout(let f):
            guard let nonce = f.nonce else { return }
            for case .checkout(let other) in others where other.nonce.hasSameBytes(as: nonce) {
                throw PayHandoffError(.conflict, field: "nonce", "two checkouts share this nonce")
            }
        case .pos(let f):
            for case .pos(let other) in others {
                if other.token.hasSameBytes(as: f.token), other.identifier.hasSameBytes(as: f.identifier),
                   ASCII.equalFoldingCase(other.answerScheme, f.answerScheme) {
                    throw PayHandoffError(.conflict, field: "token", "two POS hand-offs were sent the same identifier and token on one scheme")
                }
                if f.takesAnswer, other.takesAnswer, f.operation == .refund, other.operation == .refund,
                   other.saleTransactionId.hasSameBytes(as: f.saleTransactionId) {
                    throw PayHandoffError(.validation, field: "sale_transactionid", "two refunds of one sale are pending")
                }
            }
        }
    }
}

extension PayHandoffError {
    /// This error with `prefix` put in front of its field (`flows[2]` + `state` → `flows[2].state`).
    func located(in prefix: String) -> PayHandoffError {
        var located = self
        located.field = prefix + (field.map { $0.utf8.first == UInt8(ascii: "[") ? $0 : "." + $0 } ?? "")
        return located
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

extension RefundLedger {
    /// The ledger as the snapshot's `ledger` document.
    public var json: JSONValue {
        var sales: [JSONValue] = [], refunds: [JSONValue] = [], unknown: [JSONValue] = []
        for entry in entries {
            let id = JSONValue.string(entry.transactionId)
            switch entry.kind {
            case .sale(let refunded):
                sales.append(.array([id, .integer(entry.amount.minorUnits), .integer(refunded.minorUnits), .integer(entry.approvedAt)]))
            case .refund:
                refunds.append(.array([id, .integer(entry.amount.minorUnits), .integer(entry.approvedAt)]))
            case .balanceUnknown:
                unknown.append(.array([id, .integer(entry.expiresAt)]))
            }
        }
        var o = JSONObject(capacity: 4)
        o.appendNewMember("pruned_through", .integer(prunedThrough))
        o.appendNewMember("sales", .array(sales))
        o.appendNewMember("refunds", .array(refunds))
        o.appendNewMember("unknown", .array(unknown))
        return .object(o)
    }

    /// The three lists of the ledger document, with the entry kind each holds and its arity.
    static let lists: [(name: String, arity: Int)] = [("sales", 4), ("refunds", 3), ("unknown", 2)]

    /// A ledger from ``json``, checked: what the ledger could have booked.
    /// - Throws: `validation`/`invalid_json` naming the member (`ledger.sales[3]`, `ledger.pruned_through`).
    init(snapshot json: JSONValue) throws(PayHandoffError) {
        guard json != .null else {
            self.init()
            return
        }
        do throws(PayHandoffError) {
            try json.rejectUnknownKeys(["pruned_through", "sales", "refunds", "unknown"])
            let watermark = try json.optionalInteger(at: "pruned_through") ?? 0
            try MexicoCityTime.checkEpochMilliseconds(watermark, field: "pruned_through")
            var entries: [(entry: Entry, member: String)] = []
            for (list, name) in RefundLedger.lists.map({ $0.name }).enumerated() {
                for (index, element) in (try json.optionalArray(at: name) ?? []).enumerated() {
                    let member = name + "[" + String(index) + "]"
                    do throws(PayHandoffError) {
                        entries.append((try Entry(snapshot: element, list: list), member))
                    } catch {
                        throw error.located(in: member)
                    }
                }
            }
            try self.init(restoring: entries, prunedThrough: watermark)
        } catch {
            throw error.located(in: "ledger")
        }
    }
}

extension RefundLedger.Entry {
    /// An entry from its array in list `list` (0 sales, 1 refunds, 2 unknown), checked.
    /// - Throws: `validation`/`invalid_json` naming the position (`[1]`: the amount).
    init(snapshot json: JSONValue, list: Int) throws(PayHandoffError) {
        let arity = RefundLedger.lists[list].arity
        guard case .array(let items) = json, items.count == arity else {
            throw PayHandoffError(.invalidJSON, field: nil, "must be an array of " + String(arity) + " values")
        }
        func integer(_ position: Int) throws(PayHandoffError) -> Int64 {
            guard case .integer(let value) = items[position] else {
                throw JSONValue.wrongType("[" + String(position) + "]", expected: "an integer", found: items[position])
            }
            return value
        }
        func amount(_ position: Int) throws(PayHandoffError) -> Amount {
            let units = try integer(position)
            guard units > 0, units <= Amount.max else {
                throw PayHandoffError(.validation, field: "[" + String(position) + "]", "must be an amount in centavos above 0")
            }
            return Amount(unchecked: units)
        }
        func time(_ position: Int) throws(PayHandoffError) -> Int64 {
            let value = try integer(position)
            try MexicoCityTime.checkEpochMilliseconds(value, field: "[" + String(position) + "]")
            return value
        }
        guard case .string(let id) = items[0] else { throw JSONValue.wrongType("[0]", expected: "a transactionid", found: items[0]) }
        try RefundLedger.checkTransactionID(id, field: "[0]")
        switch list {
        case 0:
            let total = try amount(1)
            let refunded = try integer(2)
            guard refunded >= 0, refunded <= total.minorUnits else {
                throw PayHandoffError(.validation, field: "[2]", "a sale cannot have refunded more than its amount")
            }
            self.init(transactionId: id, kind: .sale(refunded: Amount(unchecked: refunded)), amount: total, approvedAt: try time(3))
        case 1:
            self.init(transactionId: id, kind: .refund, amount: try amount(1), approvedAt: try time(2))
        default:
            self.init(unknownBalanceOf: id, until: try time(1))
        }
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

    /// The flow as a document (one element of the coordinator snapshot's `flows`; secret-bearing).
    public var snapshotJSON: JSONValue { json(withSecrets: true) }

    /// The flow as a transition's `details`: the snapshot's document without the nonce or token,
    /// so that a host may log its answers.
    public var detailsJSON: JSONValue { json(withSecrets: false) }

    private func json(withSecrets secrets: Bool) -> JSONValue {
        var o = JSONObject(capacity: 14)
        o.appendNewMember("id", .string(id))
        o.appendNewMember("type", .string(typeName))
        o.appendNewMember("state", .string(stateName))
        switch self {
        case .checkout(let f):
            o.appendNewMember("kind", .string(f.kind.rawValue))
            o.appendNewMember("return_url", .string(f.returnURL.text))
            if secrets { o.appendNewMember("nonce", ifPresent: f.nonce.map { .string($0) }) }
            o.appendNewMember("deadline", .integer(f.deadline))
            o.appendNewMember("session", ifPresent: f.session?.json)
            o.appendNewMember("callback", ifPresent: f.callback?.json)
            o.appendNewMember("confirmation", ifPresent: f.confirmation?.eventJSON)
            o.appendNewMember("failure_reason", ifPresent: (secrets ? f.sessionFailure : f.failureReason).map { .string($0) })
        case .pos(let f):
            o.appendNewMember("operation", .string(f.operation.rawValue))
            o.appendNewMember("identifier", .string(f.identifier))
            if secrets { o.appendNewMember("token", .string(f.token)) }
            o.appendNewMember("answer_scheme", .string(f.answerScheme))
            o.appendNewMember("amount", ifPresent: f.amount.map { .string($0.decimalString) })
            o.appendNewMember("sale_transactionid", ifPresent: f.saleTransactionId.map { .string($0) })
            o.appendNewMember("grace_ms", .integer(f.graceMilliseconds))
            o.appendNewMember("foregrounded_at", ifPresent: f.foregroundedAt.map { .integer($0) })
            o.appendNewMember("response", ifPresent: f.response.map { response in
                // The answer echoes `<identifier>~<token>`: details show the app's identifier alone.
                guard !secrets, case .object(var document) = response.json else { return response.json }
                document["identifier"] = .string(f.identifier)
                return .object(document)
            })
            o.appendNewMember("answered_at", ifPresent: f.answeredAt.map { .integer($0) })
            o.appendNewMember("launch_failure", ifPresent: f.launchFailure.map { .string($0) })
        }
        return .object(o)
    }

    /// A flow from ``snapshotJSON``, checked as the events that make one are: every value by
    /// the rule its event applies, and its data against its state.
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
            if let callback, callback.json.printedLengthBound > CheckoutCallback.maxStoredLength {
                throw PayHandoffError(.validation, field: "callback", "is longer than the copy a flow keeps")
            }
            let confirmation = try json.optionalObject(at: "confirmation").map { o throws(PayHandoffError) in try CheckoutConfirmation(json: .object(o)) }
            let nonce = try json.optionalString(at: "nonce")
            if let nonce { try CorrelationSecret.check(nonce, field: "nonce") }
            guard nonce != nil || configuration.acceptUnverifiedCallbacks else {
                throw PayHandoffError(.validation, field: "nonce", "a checkout without nonce needs accept_unverified_callbacks")
            }
            let deadline = try json.integer(at: "deadline")
            try MexicoCityTime.checkEpochMilliseconds(deadline, field: "deadline")
            let failure = try json.optionalString(at: "failure_reason")
            try CheckoutFlow.checkReason(failure, field: "failure_reason")
            let flow = CheckoutFlow(id: id, kind: kind, returnURL: try ReturnURL(try json.string(at: "return_url")), nonce: nonce,
                                    deadline: deadline, state: state, session: session, callback: callback,
                                    confirmation: confirmation, sessionFailure: failure)
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
            try CorrelationSecret.checkToken(token, field: "token")
            let identifier = try json.string(at: "identifier")
            try POSRequest.checkIdentifier(identifier, token: token)
            let scheme = try json.string(at: "answer_scheme")
            try POSRequest.checkAnswerScheme(scheme, field: "answer_scheme")
            let amount = try json.optionalAmount(at: "amount")
            if let amount, amount == .zero { throw PayHandoffError(.validation, field: "amount", "must be greater than 0") }
            let sale = try json.optionalString(at: "sale_transactionid")
            if let sale { try RefundLedger.checkTransactionID(sale, field: "sale_transactionid") }
            let grace = try json.integer(at: "grace_ms")
            try CoordinatorEvent.checkGrace(grace, field: "grace_ms")
            let foregroundedAt = try json.optionalInteger(at: "foregrounded_at")
            if let foregroundedAt { try MexicoCityTime.checkEpochMilliseconds(foregroundedAt, field: "foregrounded_at") }
            let answeredAt = try json.optionalInteger(at: "answered_at")
            if let answeredAt { try MexicoCityTime.checkEpochMilliseconds(answeredAt, field: "answered_at") }
            let response = try json.optionalObject(at: "response").map { o throws(PayHandoffError) in try POSResponse(json: .object(o)) }
            if let response, response.json.printedLengthBound > POSResponse.maxStoredLength + JSONValue.printedLength(of: response.identifier) {
                throw PayHandoffError(.validation, field: "response", "is longer than the copy a flow keeps")
            }
            let launchFailure = try json.optionalString(at: "launch_failure")
            try POSFlow.checkReason(launchFailure, field: "launch_failure")
            let flow = POSFlow(
                id: id, operation: operation, identifier: identifier, token: token, answerScheme: scheme,
                amount: amount, saleTransactionId: sale, graceMilliseconds: grace, state: state, foregroundedAt: foregroundedAt,
                response: response, answeredAt: answeredAt, launchFailure: launchFailure)
            try flow.checkConsistent()
            self = .pos(flow)
        } else {
            throw PayHandoffError(.validation, field: "type", "must be checkout or pos")
        }
    }
}

extension JSONValue {
    /// Refuses a free text a flow keeps cut (a failure reason) that is longer than the cut.
    /// - Throws: `validation` naming `field`.
    static func checkKept(_ text: String?, limit: Int, field: String) throws(PayHandoffError) {
        if let text, printedLength(of: text) > limit {
            throw PayHandoffError(.validation, field: field, "is longer than the " + String(limit) + " bytes a flow keeps")
        }
    }
}

extension CheckoutFlow {
    /// The failure-reason rule of restore: what ``handle(_:now:)`` keeps of one, at most.
    static func checkReason(_ reason: String?, field: String) throws(PayHandoffError) {
        try JSONValue.checkKept(reason, limit: maxReasonLength, field: field)
    }

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
        // The one callback slot holds the latest claim until a verified callback replaces it;
        // claims never move the flow, so only a verified callback says how it ended.
        let verified = callback?.isVerified == true ? callback?.status : nil
        if sessionFailure != nil, session != nil || verified != nil {
            throw refuse("failure_reason", "only a flow whose session could not be created has a session failure")
        }
        let fits: Bool
        switch state {
        case .awaitingSession:
            fits = session == nil && verified == nil && sessionFailure == nil
        case .ready, .inBrowser, .returnedWithoutResult:
            fits = session != nil && verified == nil
        case .awaitingConfirmation:
            fits = verified == .completed && confirmation == nil
        case .confirmed:
            fits = confirmation != nil
        case .failed:
            fits = verified == .failed || (verified == nil && session == nil && sessionFailure != nil)
        case .cancelled:
            fits = verified == .cancelled
        case .expired:
            fits = verified == nil || verified == .completed
        }
        guard fits else { throw refuse("state", "the flow's data does not fit its state") }
    }
}

extension POSFlow {
    /// The launch-failure rule of restore: what ``handle(_:now:)`` keeps of one, at most.
    static func checkReason(_ reason: String?, field: String) throws(PayHandoffError) {
        try JSONValue.checkKept(reason, limit: maxReasonLength, field: field)
    }

    /// Refuses data no sequence of events could have left in this state.
    /// - Throws: `validation` naming the member that does not fit (`state`, `response`, …).
    func checkConsistent() throws(PayHandoffError) {
        func refuse(_ member: String, _ why: String) -> PayHandoffError {
            PayHandoffError(.validation, field: member, why)
        }
        guard (operation == .refund) == (saleTransactionId != nil) else {
            throw refuse("sale_transactionid", "a refund names its sale, a sale does not")
        }
        guard amount != nil else { throw refuse("amount", "a sale or refund always carries its amount") }
        guard (response == nil) == (answeredAt == nil) else { throw refuse("answered_at", "goes with the response") }
        if state == .returnedWithoutResponse, foregroundedAt == nil {
            throw refuse("foregrounded_at", "a flow returned without response came back to the foreground")
        }
        guard let response else {
            guard state.acceptsAnswer, state != .unrecognizedResult else { throw refuse("state", "this state needs the answer that led to it") }
            return
        }
        // A flow still waiting holds no answer, but for one whose answer's word was unknown.
        guard !state.acceptsAnswer || state == .unrecognizedResult else { throw refuse("response", "a flow still waiting holds no answer") }
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
        case .unrecognizedResult:
            fits = response.result == .unrecognized
        case .ready, .launched, .launchFailed, .returnedWithoutResponse:
            fits = false
        }
        guard fits else { throw refuse("state", "the flow's answer does not fit its state") }
    }
}
