/// What one flow did in answer to an event: its new state and the effects to perform, in order.
public struct FlowTransition: Equatable, Sendable {
    /// The flow after the event.
    public var flow: Coordinator.Flow
    /// What the host must do, in order (`persist` last when the flow changed).
    public var effects: [FlowEffect]

    /// The flow's id.
    public var flowID: String { flow.id }
}

/// The coordinator's answer to an event or URL.
public struct CoordinatorAnswer: Equatable, Sendable {
    /// What happened to the event.
    public var outcome: EventOutcome
    /// The flows the event touched (none for `not_ours` or a rejected URL).
    public var transitions: [FlowTransition]
    /// Why the event was rejected (only with `.rejected`).
    public var error: PayHandoffError?
    /// Whether the snapshot changed and should be saved now.
    public var persist: Bool
    /// Ended flows a start forgot to make room in the snapshot (their results were handed out
    /// already; their ledger entries stay), oldest first; usually empty.
    public var forgotten: [String] = []

    init(outcome: EventOutcome, transitions: [FlowTransition], error: PayHandoffError? = nil, persist: Bool? = nil) {
        self.outcome = outcome
        self.transitions = transitions
        self.error = error
        self.persist = persist ?? transitions.contains { $0.effects.contains { $0.isPersist } }
    }

    /// The answer as a document:
    /// `{"version": 1, "outcome": "accepted", "persist": true, "transitions": [{"flow_id": "c1",
    /// "flow": "checkout", "state": "awaiting_confirmation", "effects": [{"type": "close_browser"}, …],
    /// "details": {…the flow, without its nonce or token…}}], "forgotten": ["p0"], "error": {"code", "field",
    /// "message"}}` (`forgotten` only when a start forgot ended flows, `error` only when rejected).
    /// Details carry no correlation secret, so a host may log answers; the effects
    /// `create_session` (its return URL), `send_request` and `open_pos_app` do carry one (and the
    /// API key or POS user token): they are secret-bearing, like the snapshot.
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("outcome", string: outcome.rawValue)
        writer.member("persist", bool: persist)
        writer.beginArray("transitions")
        for transition in transitions {
            writer.beginObject()
            writer.member("flow_id", string: transition.flowID)
            writer.member("flow", string: transition.flow.typeName)
            writer.member("state", string: transition.flow.stateName)
            writer.beginArray("effects")
            for effect in transition.effects { effect.write(to: writer) }
            writer.end()
            writer.key("details")
            transition.flow.write(to: writer, secrets: false)
            writer.end()
        }
        writer.end()
        if !forgotten.isEmpty { writer.member("forgotten", strings: forgotten) }
        if let error {
            writer.key("error")
            error.write(to: writer)
        }
        writer.end()
    }
}

extension PayHandoffError {
    /// `{"code": "validation", "field": "amount", "message": "…"}` (`field` null when none).
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        writeMembers(to: writer)
        writer.end()
    }

    /// Writes the members `code`, `field` and `message` into the object being written.
    func writeMembers(to writer: JSONWriter) {
        writer.member("code", string: code.rawValue)
        writer.key("field")
        if let field { writer.string(field) } else { writer.null() }
        writer.member("message", string: message)
    }
}
