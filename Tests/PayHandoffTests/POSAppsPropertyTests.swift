import PayHandoff
import PayHandoffFoundation
import XCTest

/// The guarantees every terminal app keeps, stated as properties over random answers (issue 39,
/// item 4): whatever answers arrive, in any order and any number of times, a flow is approved
/// only by an answer that echoes its `<identifier>~<token>` with the app's own approval; once it
/// ended, nothing moves it again; every state restores from its snapshot; nothing is booked.
final class POSAppsPropertyTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000
    let token = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a"

    enum Answer {
        case url(String)
        case extras(JSONValue?)
    }

    /// A random answer for `app`: the right echo, another token, the bare identifier or none;
    /// statuses the app knows and ones it does not; amounts exact, other, or odd text.
    func randomAnswer(_ app: String, _ random: inout SplitMix64) -> (Answer, genuineEcho: Bool) {
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        let echo: String? = pick(["ord-1~" + token, "ord-1~" + token, "ord-1~5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5b", "ord-1", nil])
        let genuine = echo == "ord-1~" + token
        switch app {
        case "sumup":
            var query: [String] = []
            if let status = pick(["success", "failed", "invalidstate", "SUCCESS", "pending", nil] as [String?]) { query.append("smp-status=" + status) }
            if let cause = pick(["transaction-failed", "invalid-token", "what", nil] as [String?]) { query.append("smp-failure-cause=" + cause) }
            if let code = pick(["TX1", "TX2", nil] as [String?]) { query.append("smp-tx-code=" + code) }
            if let echo { query.append("foreign-tx-id=" + echo) }
            return (.url("myapp://sumup-result?" + query.shuffled(using: &random).joined(separator: "&")), genuine)
        case "square-ios":
            var members: [String] = []
            if let status = pick(["ok", "error", "OK", nil] as [String?]) { members.append("\"status\":\"\(status)\"") }
            if let code = pick(["payment_canceled", "not_logged_in", nil] as [String?]) { members.append("\"error_code\":\"\(code)\"") }
            if let id = pick(["T1", nil] as [String?]) { members.append("\"transaction_id\":\"\(id)\"") }
            if let echo { members.append("\"state\":\"\(echo)\"") }
            let data = "{" + members.shuffled(using: &random).joined(separator: ",") + "}"
            return (.url("myapp://square-callback?data=" + data.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!), genuine)
        case "square-android":
            guard random.next() % 8 != 0 else { return (.extras(nil), false) }
            var extras: JSONObject = [:]
            if let code = pick(["com.squareup.pos.ERROR_TRANSACTION_CANCELED", "com.squareup.pos.ERROR_NO_RESULT",
                                "com.squareup.pos.ERROR_UNEXPECTED", "com.squareup.pos.ERROR_NEW", nil] as [String?]) {
                extras["com.squareup.pos.ERROR_CODE"] = .string(code)
            }
            if let id = pick(["S1", nil] as [String?]) { extras["com.squareup.pos.SERVER_TRANSACTION_ID"] = .string(id) }
            if let echo { extras["com.squareup.pos.REQUEST_METADATA"] = .string(echo) }
            return (.extras(.object(extras)), genuine)
        default:  // clip
            guard random.next() % 8 != 0 else { return (.extras(nil), false) }
            var members: [String] = []
            if let echo { members.append("\"reference\":\"\(echo)\"") }
            if let status = pick(["approved", "error", "APPROVED", nil] as [String?]) { members.append("\"status\":\"\(status)\"") }
            if let amount = pick(["100.0", "1.0E2", "100.5", "0.30000000000000004", nil] as [String?]) { members.append("\"amount\":\"\(amount)\"") }
            var extras: JSONObject = ["PAYMENT_RESPONSE": .string("{" + members.joined(separator: ",") + "}")]
            if let code = pick(["CANCELLED", "UNKNOWN_ERROR", "NO_CONNECTION", nil] as [String?]) { extras["PAYMENT_ERROR"] = .string(code) }
            return (.extras(.object(extras)), genuine)
        }
    }

    var requests: [String: JSONValue] {
        ["sumup": ["pos_app": "sumup", "affiliate_key": "k", "app_id": "com.example.app", "identifier": "ord-1", "amount": "100.00", "currency": "EUR",
                   "callback_url": "myapp://sumup-result"],
         "square-ios": ["pos_app": "square", "client_id": "c", "identifier": "ord-1", "amount": "100.00", "currency": "USD",
                        "callback_url": "myapp://square-callback"],
         "square-android": ["pos_app": "square", "client_id": "c", "identifier": "ord-1", "amount": "100.00", "currency": "USD",
                            "callback_url": "myapp://square-callback"],
         "clip": ["pos_app": "clip", "identifier": "ord-1", "amount": "100.00"]]
    }

    func testNoAnswerApprovesWithoutTheEchoAndEndedFlowsNeverMove() throws {
        var random = SplitMix64(seed: 39)
        for app in ["sumup", "square-ios", "square-android", "clip"] {
            for round in 0..<150 {
                var coordinator = Coordinator()
                coordinator.jsonText = FoundationJSONText()
                _ = coordinator.send(try CoordinatorEvent(json: ["type": "pos.start", "now": .integer(t0), "flow_id": "p",
                                                                 "token": .string(token), "request": requests[app]!]), using: &random)
                var ended: String? = nil
                for step in 0..<6 {
                    let (answer, genuine) = randomAnswer(app, &random)
                    let before = coordinator
                    let now = t0 + Int64(step + 1) * 1_000
                    let result: CoordinatorAnswer
                    switch answer {
                    case .url(let url): result = coordinator.handle(url: url, now: now)
                    case .extras(let extras):
                        result = coordinator.send(try CoordinatorEvent(json: ["type": "pos.result", "now": .integer(now), "flow_id": "p",
                                                                              "extras": extras ?? .null]), using: &random)
                    }
                    let state = coordinator.flow(id: "p")?.stateName ?? "?"
                    let context = "\(app) round \(round) step \(step): \(answer) -> \(state)"
                    if state == "approved" || state == "approved_amount_mismatch", before.flow(id: "p")?.stateName != state {
                        XCTAssertTrue(genuine, "approved without the echo: " + context)
                    }
                    if result.outcome != .accepted { XCTAssertEqual(coordinator, before, "a refused answer moved the flow: " + context) }
                    if let ended { XCTAssertEqual(state, ended, "an ended flow moved: " + context) }
                    if ["approved", "approved_amount_mismatch", "declined", "error", "cancelled"].contains(state) { ended = state }
                    var restored = try Coordinator(snapshot: coordinator.snapshot)
                    restored.jsonText = coordinator.jsonText
                    XCTAssertEqual(restored, coordinator, "restore: " + context)
                    XCTAssertTrue(coordinator.ledger.entries.isEmpty, "booked: " + context)
                }
            }
        }
    }
}
