import PayHandoff
import XCTest

/// Runs a `coordinator.script` vector: a fresh coordinator, then each step in order, summarised
/// the way every language's runner summarises it (Tests/Vectors/README.md).
enum CoordinatorScript {
    static func run(_ input: JSONValue) throws(PayHandoffError) -> JSONValue {
        // Created from `config`, or restored (`salvage`: salvaged) from the `snapshot` given.
        var coordinator: Coordinator
        var dropped: [JSONValue]? = nil
        if let snapshot = input.value(at: "snapshot") {
            if try input.optionalBool(at: "salvage") == true {
                let salvage = try Coordinator.Salvage(snapshot: snapshot)
                coordinator = salvage.coordinator
                dropped = salvage.dropped.map { .string($0.member) }
            } else {
                coordinator = try Coordinator(snapshot: snapshot)
            }
        } else {
            coordinator = Coordinator(configuration: try Coordinator.Configuration(json: input.value(at: "config") ?? [:]))
        }
        // A service, not state (never in a snapshot): set again after every restore, as the C ABI's
        // coordinator handle does.
        coordinator.jsonText = Vectors.jsonText
        var generator = SplitMix64(seed: 0)
        var summaries: [JSONValue] = []
        for step in try input.optionalArray(at: "steps") ?? [] {
            if try step.optionalBool(at: "restore") == true {
                coordinator = try Coordinator(snapshot: coordinator.snapshot)
                coordinator.jsonText = Vectors.jsonText
                summaries.append(summary(outcome: "restored", coordinator: coordinator, answer: nil))
                continue
            }
            if let refused = step.value(at: "text_layer_error") {
                let error = PayHandoffError(PayHandoffError.Code(rawValue: try refused.string(at: "code")) ?? .invalidJSON,
                                            field: try refused.optionalString(at: "field"), "number out of range")
                summaries.append(summary(outcome: "invalid_event", coordinator: coordinator, answer: nil, error: error))
                continue
            }
            let answer: CoordinatorAnswer
            if let url = try step.optionalString(at: "url") {
                answer = coordinator.handle(url: url, now: try step.integer(at: "now"))
            } else {
                let eventJSON = step.value(at: "event") ?? .null
                do throws(PayHandoffError) {
                    answer = coordinator.send(try CoordinatorEvent(json: eventJSON), using: &generator)
                } catch {
                    summaries.append(summary(outcome: "invalid_event", coordinator: coordinator, answer: nil, error: error))
                    continue
                }
            }
            summaries.append(summary(outcome: answer.outcome.rawValue, coordinator: coordinator, answer: answer, error: answer.error))
        }
        return dropped.map { ["steps": .array(summaries), "dropped": .array($0)] } ?? ["steps": .array(summaries)]
    }

    static func summary(outcome: String, coordinator: Coordinator, answer: CoordinatorAnswer?,
                        error: PayHandoffError? = nil) -> JSONValue {
        var flows = JSONObject()
        for flow in coordinator.flows { flows[flow.id] = .string(flow.stateName) }
        var effects: [JSONValue] = []
        for transition in answer?.transitions ?? [] {
            for effect in transition.effects {
                effects.append(.string(transition.flowID + ":" + ((try? effect.json.string(at: "type")) ?? "?")))
            }
        }
        var o = JSONObject()
        o["outcome"] = .string(outcome)
        o["flows"] = .object(flows)
        o["effects"] = .array(effects)
        if let error { o["error"] = ["code": .string(error.code.rawValue), "field": error.field.map { .string($0) } ?? .null] }
        return .object(o)
    }
}

final class FlowVectorTests: XCTestCase {
    func testCoordinatorScripts() throws {
        let count = try Vectors.run(folder: "flows", suite: "coordinator.script") { input throws(PayHandoffError) in
            try CoordinatorScript.run(input)
        }
        XCTAssertGreaterThanOrEqual(count, 100)
    }

    /// The hostile-input corpus's scripts (Tests/Vectors/hostile, issue 9).
    func testHostileCoordinatorScripts() throws {
        try Vectors.run(folder: "hostile", suite: "coordinator.script") { input throws(PayHandoffError) in
            try CoordinatorScript.run(input)
        }
    }
}
