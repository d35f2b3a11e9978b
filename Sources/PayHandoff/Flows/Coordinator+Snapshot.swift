/// Snapshots: every flow serializes to a versioned document and restores from it, so a flow
/// survives the OS killing the app while the browser tab or the POS app is in front. A
/// restored coordinator behaves exactly like the original from there on.
///
/// Snapshots hold no secrets: no API key (only ``FlowEffect/sendRequest(_:)`` carries it, once)
/// and no POS user token (only ``FlowEffect/openPOSApp(url:)`` does; an echoed token in an
/// answer is dropped by the parser).
///
/// ```json
/// {"version": 1, "config": {"single_pending_per_kind": false, "checkout_timeout_ms": 1800000, "pos_grace_ms": 3000},
///  "flows": [{"id": "c1", "type": "checkout", "state": "in_browser", "kind": "cards",
///             "return_url": "fixapp://checkout-callback", "nonce": "…", "deadline": 1796056200000,
///             "session": {…}, "callback": {…}, "confirmation": {…}, "failure_reason": "…"},
///            {"id": "p1", "type": "pos", "state": "launched", "operation": "venta", "identifier": "ord-1",
///             "answer_scheme": "myapp", "amount": "100.00", "grace_ms": 3000, "foregrounded_at": …,
///             "response": {…}, "answered_at": …, "sale_transactionid": "…", "launch_failure": "…"}],
///  "refunded": {"720371": "40.00"}}
/// ```
extension Coordinator {
    /// The snapshot format this build writes and the newest it reads.
    public static let snapshotVersion: Int64 = 1

    /// The whole coordinator as a versioned document.
    public var snapshot: JSONValue {
        var config = JSONObject()
        config["single_pending_per_kind"] = .bool(configuration.singlePendingPerKind)
        config["checkout_timeout_ms"] = .integer(configuration.checkoutTimeoutMilliseconds)
        config["pos_grace_ms"] = .integer(configuration.posGraceMilliseconds)
        var refundedObject = JSONObject()
        for sale in refunded { refundedObject[sale.transactionId] = .string(sale.amount.decimalString) }  // ordered by bytes
        return [
            "version": .integer(Coordinator.snapshotVersion),
            "config": .object(config),
            "flows": .array(flows.map { $0.snapshotJSON }),
            "refunded": .object(refundedObject),
        ]
    }

    /// Restores a coordinator from ``snapshot``. All or nothing: a damaged document restores nothing.
    /// - Parameter snapshot: A document written by ``snapshot`` (of this or an older format).
    /// - Throws: `unsupported_version` for a newer format; `validation`/`invalid_json` naming
    ///   the damaged member (`flows[2].state`, …).
    public init(snapshot: JSONValue) throws(PayHandoffError) {
        let version = try snapshot.integer(at: "version")
        guard version <= Coordinator.snapshotVersion else {
            throw PayHandoffError(.unsupportedVersion, field: "version",
                "snapshot format " + String(version) + " is newer than this build reads (" + String(Coordinator.snapshotVersion) + ")")
        }
        guard version >= 1 else { throw PayHandoffError(.validation, field: "version", "must be 1 or more") }
        try snapshot.rejectUnknownKeys(["version", "config", "flows", "refunded"])
        let configuration = try Configuration(json: snapshot.value(at: "config") ?? [:])
        var flows: [Flow] = []
        for (index, element) in (try snapshot.optionalArray(at: "flows") ?? []).enumerated() {
            let flow: Flow
            do throws(PayHandoffError) {
                flow = try Flow(snapshot: element)
            } catch {
                var located = error
                located.field = "flows[" + String(index) + "]" + (error.field.map { "." + $0 } ?? "")
                throw located
            }
            guard !flows.contains(where: { $0.id.hasSameBytes(as: flow.id) }) else {
                throw PayHandoffError(.validation, field: "flows[" + String(index) + "].id", "two flows have the same id")
            }
            flows.append(flow)
        }
        self.init(configuration: configuration, flows: flows, refunded: [])
        for member in (try snapshot.optionalObject(at: "refunded"))?.members ?? [] {
            guard case .string(let text) = member.value else {
                throw JSONValue.wrongType("refunded." + member.key, expected: "an amount string", found: member.value)
            }
            setRefunded(try Amount(parsing: text, field: "refunded." + member.key), transactionId: member.key)
        }
    }
}

extension Coordinator.Configuration {
    /// Reads `{"single_pending_per_kind": bool, "checkout_timeout_ms": int, "pos_grace_ms": int}`;
    /// missing members take the defaults. Used by the snapshot and by hosts creating a coordinator.
    /// - Parameter json: The configuration document.
    /// - Throws: `validation`/`invalid_json` for unknown members or values out of range.
    public init(json: JSONValue) throws(PayHandoffError) {
        try json.rejectUnknownKeys(["single_pending_per_kind", "checkout_timeout_ms", "pos_grace_ms"])
        let defaults = Coordinator.Configuration()
        let timeout = try json.optionalInteger(at: "checkout_timeout_ms") ?? defaults.checkoutTimeoutMilliseconds
        let grace = try json.optionalInteger(at: "pos_grace_ms") ?? defaults.posGraceMilliseconds
        guard timeout > 0, timeout <= 7 * 86_400_000 else {
            throw PayHandoffError(.validation, field: "checkout_timeout_ms", "must be 1 ms to 7 days")
        }
        guard grace >= 0, grace <= 3_600_000 else {
            throw PayHandoffError(.validation, field: "pos_grace_ms", "must be 0 to 3600000")
        }
        self.init(singlePendingPerKind: try json.optionalBool(at: "single_pending_per_kind") ?? false,
                  checkoutTimeoutMilliseconds: timeout, posGraceMilliseconds: grace)
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
        var o = JSONObject()
        o["id"] = .string(id)
        o["type"] = .string(typeName)
        o["state"] = .string(stateName)
        switch self {
        case .checkout(let f):
            o["kind"] = .string(f.kind.rawValue)
            o["return_url"] = .string(f.returnURL.text)
            o.setIfPresent("nonce", f.nonce.map { .string($0) })
            o["deadline"] = .integer(f.deadline)
            o.setIfPresent("session", f.session?.json)
            o.setIfPresent("callback", f.callback?.json)
            o.setIfPresent("confirmation", f.confirmation?.eventJSON)
            o.setIfPresent("failure_reason", f.failureReason.map { .string($0) })
        case .pos(let f):
            o["operation"] = .string(f.operation.rawValue)
            o["identifier"] = .string(f.identifier)
            o["answer_scheme"] = .string(f.answerScheme)
            o.setIfPresent("amount", f.amount.map { .string($0.decimalString) })
            o.setIfPresent("sale_transactionid", f.saleTransactionId.map { .string($0) })
            o["grace_ms"] = .integer(f.graceMilliseconds)
            o.setIfPresent("foregrounded_at", f.foregroundedAt.map { .integer($0) })
            o.setIfPresent("response", f.response?.json)
            o.setIfPresent("answered_at", f.answeredAt.map { .integer($0) })
            o.setIfPresent("launch_failure", f.launchFailure.map { .string($0) })
        }
        return .object(o)
    }

    /// A flow from ``snapshotJSON``, checked for consistency (a state that needs an answer,
    /// callback or confirmation has it).
    /// - Parameter json: The flow document.
    /// - Throws: `validation`/`invalid_json` naming the damaged member.
    public init(snapshot json: JSONValue) throws(PayHandoffError) {
        let id = try json.string(at: "id")
        guard !id.isEmpty, id.utf8.count <= CoordinatorEvent.maxFlowIDLength else {
            throw PayHandoffError(.validation, field: "id", "must be 1 to 128 bytes")
        }
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
            if let nonce { try CheckoutRequest.checkNonce(nonce, field: "nonce") }
            let consistent: Bool
            switch state {
            case .awaitingSession: consistent = session.isNone && callback.isNone
            case .ready, .inBrowser, .returnedWithoutResult: consistent = !session.isNone && callback.isNone
            case .awaitingConfirmation: consistent = callback?.status == .completed && confirmation.isNone
            case .confirmed: consistent = !confirmation.isNone
            case .failed, .cancelled, .expired: consistent = confirmation.isNone
            }
            guard consistent, session.map({ $0.kind == kind }) ?? true, callback.map({ $0.kind == kind }) ?? true,
                  confirmation.map({ $0.kind == kind }) ?? true else {
                throw PayHandoffError(.validation, field: "state", "the flow's data does not fit its state")
            }
            self = .checkout(CheckoutFlow(
                id: id, kind: kind, returnURL: try ReturnURL(try json.string(at: "return_url")), nonce: nonce,
                deadline: try json.integer(at: "deadline"), state: state, session: session, callback: callback,
                confirmation: confirmation, failureReason: try json.optionalString(at: "failure_reason")))
        } else if type.hasSameBytes(as: "pos") {
            try json.rejectUnknownKeys(["id", "type", "state", "operation", "identifier", "answer_scheme", "amount",
                                        "sale_transactionid", "grace_ms", "foregrounded_at", "response", "answered_at",
                                        "launch_failure"])
            guard let state = POSFlow.State(rawValue: stateText) else {
                throw PayHandoffError(.validation, field: "state", "is not a POS state")
            }
            guard let operation = POSRequest.Operation(rawValue: try json.string(at: "operation")) else {
                throw PayHandoffError(.validation, field: "operation", "must be venta or devolucion")
            }
            let response = try json.optionalObject(at: "response").map { o throws(PayHandoffError) in try POSResponse(json: .object(o)) }
            let answeredAt = try json.optionalInteger(at: "answered_at")
            let identifier = try json.string(at: "identifier")
            let scheme = try json.string(at: "answer_scheme")
            guard URLSyntax.isValidScheme(Substring(scheme)) else {
                throw PayHandoffError(.validation, field: "answer_scheme", "is not a URL scheme")
            }
            let saleTransactionId = try json.optionalString(at: "sale_transactionid")
            guard response.isNone == state.acceptsAnswer, response.isNone == (answeredAt == nil),
                  response.map({ $0.identifier.hasSameBytes(as: identifier) }) ?? true,
                  (operation == .refund) == (saleTransactionId != nil) else {
                throw PayHandoffError(.validation, field: "state", "the flow's data does not fit its state")
            }
            let grace = try json.integer(at: "grace_ms")
            guard grace >= 0, grace <= 3_600_000 else { throw PayHandoffError(.validation, field: "grace_ms", "must be 0 to 3600000") }
            self = .pos(POSFlow(
                id: id, operation: operation, identifier: identifier, answerScheme: scheme,
                amount: try json.optionalAmount(at: "amount"), saleTransactionId: saleTransactionId,
                graceMilliseconds: grace, state: state, foregroundedAt: try json.optionalInteger(at: "foregrounded_at"),
                response: response, answeredAt: answeredAt, launchFailure: try json.optionalString(at: "launch_failure")))
        } else {
            throw PayHandoffError(.validation, field: "type", "must be checkout or pos")
        }
    }
}
