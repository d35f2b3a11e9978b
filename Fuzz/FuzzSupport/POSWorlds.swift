// Issue 39: a world per terminal app for the exhaustive check (Fuzz/ModelCheck `--world`) and the
// coordinator fuzzer (FuzzCoordinator: the input's first byte picks the world), not the four
// apps' letters in one world. Each world is POS only: two hand-offs p1 and p2 of that app (the
// same identifier `ord-1`, tokens T1 and T2), their starts, launches, removals, the app's answers
// — genuine approvals echoing the token, declined / error / cancelled / unknown statuses, forged
// ones (no token, another token, the token in another field, JSON text that is not an object),
// the app's own shapes (Square's Android result with no data and ERROR_NO_RESULT, Clip's
// PAYMENT_ERROR with and without a PAYMENT_RESPONSE, a response without reference, another
// amount) —, a Billpocket refund of p1 (by `sale_flow_id` and by a sale document naming the app),
// foreground, tick, process death (the snapshot's text restored) and the time steps.
//
// Each letter says what it may do (``POSExpectation``); ``FlowAlphabet/checkWorld(before:letter:after:answer:)``
// checks it after every step, beside FlowProperties.checkStep (no answer moves a flow without its
// genuine echo; a result moves only the flow it names; keys never move another flow):
// - a forged answer changes nothing at all;
// - a genuine answer moves only to the states its status allows (an unknown status never
//   approves, never declines; a cancel is `cancelled`; another amount is a mismatch), and sent
//   again at once is `duplicate` and changes nothing;
// - a refund start never starts: `not_eligible` naming `<app>_server_refund` whenever the sale is
//   known (flow or document), and nothing changes;
// - an ended hand-off never changes (a late approval after a cancel is ignored);
// - the ledger books nothing (the branch's rule: only Billpocket approvals are booked, since only
//   Billpocket refunds app-to-app);
// - process death restores an equal coordinator (checkStep; checkState on every state too).
import PayHandoff
import PayHandoffABI

/// What a letter of an issue-39 world may do.
public enum POSExpectation: Sendable {
    /// An answer that echoes a flow's `<identifier>~<token>` in the app's field (the letter's
    /// secrets): a flow that changes state enters one of these states only.
    case genuine([POSFlow.State])
    /// An answer without a genuine echo (none, another token, the token elsewhere, unreadable):
    /// the coordinator stays as it was.
    case forged
    /// A result with no data the host reports for a flow: that flow only, to `returned_without_response` only.
    case noData
    /// A Billpocket refund of a sale of `POSApp`: never starts; `not_eligible` with the app's server-refund reason.
    case refund(POSApp)
}

extension FlowAlphabet {
    /// A world: Billpocket's (with the checkouts) or one other terminal app's.
    public enum World: String, Sendable, CaseIterable {
        case billpocket, square, sumup, clip

        /// The app whose hand-offs the world holds.
        public var app: POSApp {
            switch self {
            case .billpocket: return .billpocket
            case .square: return .square
            case .sumup: return .sumup
            case .clip: return .clip
            }
        }
    }

    static let squareCallback = "myapp://square-callback"
    static let sumupCallback = "myapp://sumup-result"

    /// The letters of `world` (not Billpocket's).
    static func posWorldLetters(_ world: World) -> [Letter] {
        let id = FlowAlphabet.identifier
        let t1 = FlowAlphabet.tokens["p1"]!, t2 = FlowAlphabet.tokens["p2"]!
        let keys = ["p1": id + "~" + t1, "p2": id + "~" + t2]
        let forged = id + "~" + FlowAlphabet.forgedToken
        var letters: [Letter] = []
        func event(_ label: String, _ json: String, _ expectation: POSExpectation? = nil, secrets: [String]? = nil) {
            guard case .object(var o)? = try? JSONText.parse(json, parameter: "letter") else { fatalError("bad letter JSON: " + json) }
            let withoutNow = JSONValue.object(o)
            o["now"] = .integer(FlowAlphabet.start)
            do throws(PayHandoffError) {
                var letter = Letter(label, .event(try CoordinatorEvent(json: .object(o)).kind, json: withoutNow),
                                    secrets: secrets.map { ([], $0) })
                letter.expectation = expectation
                letters.append(letter)
            } catch {
                fatalError("letter \(label) is not an event: \(error)")
            }
        }
        func url(_ label: String, _ text: String, _ expectation: POSExpectation, secrets: [String]) {
            var letter = Letter(label, .url(text), secrets: ([], secrets))
            letter.expectation = expectation
            letters.append(letter)
        }
        /// A JSON string literal's content (the letters' texts hold only `"` to escape).
        func quoted(_ text: String) -> String {
            var out: [UInt8] = []
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            return String(decoding: out, as: UTF8.self)
        }

        let request: String
        switch world {
        case .square:
            request = #"{"pos_app":"square","client_id":"sq0idp-PayHandoffTest","identifier":"\#(id)","amount":"100.00","currency":"USD","callback_url":"\#(squareCallback)"}"#
        case .sumup:
            request = #"{"pos_app":"sumup","affiliate_key":"7ca84f17-84a5-4140-8df6-6ebeed8540fc","app_id":"com.example.myapp","identifier":"\#(id)","amount":"100.00","currency":"EUR","callback_url":"\#(sumupCallback)"}"#
        case .clip:
            request = #"{"pos_app":"clip","identifier":"\#(id)","amount":"100.00"}"#
        case .billpocket:
            fatalError("Billpocket's world is FlowAlphabet's own")
        }
        for (pid, token) in [("p1", t1), ("p2", t2)] {
            event("\(pid).start sale", #"{"type":"pos.start","flow_id":"\#(pid)","request":\#(request),"token":"\#(token)"}"#)
            event("\(pid).launched", #"{"type":"pos.launched","flow_id":"\#(pid)"}"#)
            event("\(pid).launch_failed", #"{"type":"pos.launch_failed","flow_id":"\#(pid)","reason":"not installed"}"#)
            event("\(pid).remove", #"{"type":"flow.remove","flow_id":"\#(pid)"}"#)
            event("\(pid).give_up", #"{"type":"flow.remove","flow_id":"\#(pid)","give_up":true}"#)
        }
        // A Billpocket refund of p1 (the app refunds through its server API only), and of a sale
        // document naming the app.
        let refund = #"{"transaction":"devolucion","usertoken":"tok-secret","identifier":"\#(id)","urlScheme":"myapp","transactionId":"tx-1","amount":"40.00"}"#
        event("p2.start refund of p1", #"{"type":"pos.start","flow_id":"p2","sale_flow_id":"p1","request":\#(refund),"token":"\#(t2)"}"#,
              .refund(world.app))
        event("p2.start refund of a \(world.rawValue) sale document",
              #"{"type":"pos.start","flow_id":"p2","sale":{"pos_app":"\#(world.rawValue)","transactionid":"tx-1","amount":"100.00","approved_at":\#(FlowAlphabet.start / 1000)},"request":\#(refund),"token":"\#(t2)"}"#,
              .refund(world.app))
        event("app.foregrounded", #"{"type":"app.foregrounded"}"#)
        event("tick", #"{"type":"tick"}"#)
        var death = Letter("process death (restore the snapshot's text)", .restart)
        death.expectation = nil
        letters.append(death)

        let unclear: [POSFlow.State] = [.unrecognizedResult, .returnedWithoutResponse]
        switch world {
        case .square:
            // iOS: the answer URL's data= member, JSON text (SCCAPIResponse.m).
            func ios(_ label: String, _ json: String, _ expectation: POSExpectation, secrets: [String]) {
                url("square ios " + label, squareCallback + "?data=" + Fuzz.percentEncode(json), expectation, secrets: secrets)
            }
            // Android: the activity result's extras (PosApi.java).
            let p = "com.squareup.pos."
            func android(_ label: String, flow: String, _ extras: String, _ expectation: POSExpectation, secrets: [String]) {
                event("square android \(flow) " + label, #"{"type":"pos.result","flow_id":"\#(flow)","extras":\#(extras)}"#, expectation, secrets: secrets)
            }
            for (pid, n) in [("p1", "1"), ("p2", "2")] {
                let key = keys[pid]!
                ios("\(pid) ok TX-SQ-\(n)", #"{"status":"ok","state":"\#(key)","transaction_id":"TX-SQ-\#(n)"}"#, .genuine([.approved]), secrets: [key])
                android("ok TX-SQ-\(n)", flow: pid, #"{"\#(p)REQUEST_METADATA":"\#(key)","\#(p)SERVER_TRANSACTION_ID":"TX-SQ-\#(n)"}"#,
                        .genuine([.approved]), secrets: [key])
            }
            let k1 = keys["p1"]!
            ios("p1 payment_canceled", #"{"status":"error","error_code":"payment_canceled","state":"\#(k1)"}"#, .genuine([.cancelled]), secrets: [k1])
            ios("p1 not_logged_in", #"{"status":"error","error_code":"not_logged_in","state":"\#(k1)"}"#, .genuine([.error]), secrets: [k1])
            ios("p1 unknown status", #"{"status":"pending","state":"\#(k1)","transaction_id":"TX-SQ-1"}"#, .genuine(unclear), secrets: [k1])
            ios("ok without token", #"{"status":"ok","state":"\#(id)","transaction_id":"TX-SQ-9"}"#, .forged, secrets: [])
            ios("ok forged token", #"{"status":"ok","state":"\#(forged)","transaction_id":"TX-SQ-9"}"#, .forged, secrets: [])
            ios("ok, token in transaction_id", #"{"status":"ok","state":"\#(id)","transaction_id":"\#(k1)"}"#, .forged, secrets: [])
            url("square ios data= an array", squareCallback + "?data=" + Fuzz.percentEncode(#"["ok","\#(k1)"]"#), .forged, secrets: [])
            url("square ios data= a string", squareCallback + "?data=" + Fuzz.percentEncode(#""\#(quoted(k1))""#), .forged, secrets: [])
            android("TRANSACTION_CANCELED", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(k1)","\#(p)ERROR_CODE":"\#(p)ERROR_TRANSACTION_CANCELED"}"#,
                    .genuine([.cancelled]), secrets: [k1])
            android("NO_NETWORK", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(k1)","\#(p)ERROR_CODE":"\#(p)ERROR_NO_NETWORK"}"#,
                    .genuine([.error]), secrets: [k1])
            android("unknown error code", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(k1)","\#(p)ERROR_CODE":"\#(p)ERROR_FROM_THE_FUTURE"}"#,
                    .genuine(unclear), secrets: [k1])
            android("NO_RESULT", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(k1)","\#(p)ERROR_CODE":"\#(p)ERROR_NO_RESULT"}"#,
                    .genuine(unclear), secrets: [k1])
            android("ok, T2's metadata", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(keys["p2"]!)","\#(p)SERVER_TRANSACTION_ID":"TX-SQ-2"}"#,
                    .forged, secrets: [keys["p2"]!])
            android("ok without token", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(id)","\#(p)SERVER_TRANSACTION_ID":"TX-SQ-9"}"#, .forged, secrets: [])
            android("ok forged token", flow: "p1", #"{"\#(p)REQUEST_METADATA":"\#(forged)","\#(p)SERVER_TRANSACTION_ID":"TX-SQ-9"}"#, .forged, secrets: [])
            android("ok, token in CLIENT_TRANSACTION_ID", flow: "p1", #"{"\#(p)CLIENT_TRANSACTION_ID":"\#(k1)","\#(p)SERVER_TRANSACTION_ID":"TX-SQ-9"}"#,
                    .forged, secrets: [])
            // The app crashed or was uninstalled: no data at all (the host reports it for p1).
            android("no data (extras null)", flow: "p1", "null", .noData, secrets: [])
        case .sumup:
            // The callback URL's query (sumup-android-url-scheme / sumup-ios-url-scheme README).
            func answer(_ label: String, _ query: String, _ expectation: POSExpectation, secrets: [String]) {
                url("sumup " + label, sumupCallback + "?" + query, expectation, secrets: secrets)
            }
            for (pid, n) in [("p1", "1"), ("p2", "2")] {
                let key = keys[pid]!
                answer("\(pid) success TX-SU-\(n)", "smp-status=success&smp-tx-code=TX-SU-\(n)&foreign-tx-id=" + Fuzz.percentEncode(key),
                       .genuine([.approved]), secrets: [key])
            }
            let k1 = Fuzz.percentEncode(keys["p1"]!), s1 = [keys["p1"]!]
            answer("p1 failed transaction-failed", "smp-status=failed&smp-failure-cause=transaction-failed&foreign-tx-id=" + k1, .genuine([.declined]), secrets: s1)
            answer("p1 failed invalid-param", "smp-status=failed&smp-failure-cause=invalid-param&foreign-tx-id=" + k1, .genuine([.error]), secrets: s1)
            answer("p1 failed without cause", "smp-status=failed&foreign-tx-id=" + k1, .genuine(unclear), secrets: s1)
            answer("p1 invalidstate", "smp-status=invalidstate&foreign-tx-id=" + k1, .genuine([.error]), secrets: s1)
            answer("p1 unknown status", "smp-status=pending&smp-tx-code=TX-SU-1&foreign-tx-id=" + k1, .genuine(unclear), secrets: s1)
            answer("p1 success without smp-tx-code", "smp-status=success&foreign-tx-id=" + k1, .genuine(unclear), secrets: s1)
            answer("success without token", "smp-status=success&smp-tx-code=TX-SU-9&foreign-tx-id=" + id, .forged, secrets: [])
            answer("success forged token", "smp-status=success&smp-tx-code=TX-SU-9&foreign-tx-id=" + Fuzz.percentEncode(forged), .forged, secrets: [])
            answer("success, token in smp-tx-code", "smp-status=success&smp-tx-code=" + k1 + "&foreign-tx-id=" + id, .forged, secrets: [])
            answer("success, foreign-tx-id twice", "smp-status=success&smp-tx-code=TX-SU-9&foreign-tx-id=" + k1 + "&foreign-tx-id=" + id,
                   .forged, secrets: [])
        case .clip:
            // The activity result's extras (ActivityClipResultManager.kt): PAYMENT_RESPONSE is the
            // JSON text of PaymentResult; PAYMENT_ERROR on errors.
            func result(_ label: String, flow: String = "p1", response: String?, error: String? = nil, _ expectation: POSExpectation, secrets: [String]) {
                var members: [String] = []
                if let response { members.append(#""PAYMENT_RESPONSE":"\#(quoted(response))""#) }
                if let error { members.append(#""PAYMENT_ERROR":"\#(error)""#) }
                event("clip \(flow) " + label, #"{"type":"pos.result","flow_id":"\#(flow)","result_code":-1,"extras":{\#(members.joined(separator: ","))}}"#,
                      expectation, secrets: secrets)
            }
            for (pid, n) in [("p1", "1"), ("p2", "2")] {
                let key = keys[pid]!
                result("approved R-\(n)", flow: pid, response: #"{"reference":"\#(key)","status":"approved","amount":"100.0","receiptNumber":"R-\#(n)"}"#,
                       .genuine([.approved]), secrets: [key])
            }
            let k1 = keys["p1"]!
            result("approved 90.0", response: #"{"reference":"\#(k1)","status":"approved","amount":"90.0","receiptNumber":"R-1"}"#,
                   .genuine([.approvedAmountMismatch]), secrets: [k1])
            result("error CANCELLED", response: #"{"reference":"\#(k1)","status":"error","amount":"100.0"}"#, error: "CANCELLED", .genuine([.cancelled]), secrets: [k1])
            result("error TERMINAL_ERROR", response: #"{"reference":"\#(k1)","status":"error","amount":"100.0"}"#, error: "TERMINAL_ERROR", .genuine([.error]), secrets: [k1])
            result("error UNKNOWN_ERROR", response: #"{"reference":"\#(k1)","status":"error","amount":"100.0"}"#, error: "UNKNOWN_ERROR", .genuine(unclear), secrets: [k1])
            result("unknown status", response: #"{"reference":"\#(k1)","status":"pending","amount":"100.0","receiptNumber":"R-1"}"#, .genuine(unclear), secrets: [k1])
            // RESULT_OK with PAYMENT_ERROR alone, and with a response without reference: no echo.
            result("PAYMENT_ERROR without PAYMENT_RESPONSE", response: nil, error: "TERMINAL_ERROR", .forged, secrets: [])
            result("error without reference", response: #"{"status":"error","amount":"100.0"}"#, error: "TERMINAL_ERROR", .forged, secrets: [])
            result("approved without reference", response: #"{"status":"approved","amount":"100.0","receiptNumber":"R-9"}"#, .forged, secrets: [])
            result("approved, T2's reference", response: #"{"reference":"\#(keys["p2"]!)","status":"approved","amount":"100.0","receiptNumber":"R-2"}"#,
                   .forged, secrets: [keys["p2"]!])
            result("approved without token", response: #"{"reference":"\#(id)","status":"approved","amount":"100.0","receiptNumber":"R-9"}"#, .forged, secrets: [])
            result("approved forged token", response: #"{"reference":"\#(forged)","status":"approved","amount":"100.0","receiptNumber":"R-9"}"#, .forged, secrets: [])
            result("approved, token in receiptNumber", response: #"{"reference":"\#(id)","status":"approved","amount":"100.0","receiptNumber":"\#(k1)"}"#,
                   .forged, secrets: [])
            result("approved without reference, token in receiptNumber", response: #"{"status":"approved","amount":"100.0","receiptNumber":"\#(k1)"}"#,
                   .forged, secrets: [])
            result("PAYMENT_RESPONSE an array", response: #"["\#(k1)","approved"]"#, .forged, secrets: [])
            event("clip p1 no data (extras null)", #"{"type":"pos.result","flow_id":"p1","result_code":0,"extras":null}"#, .noData, secrets: [])
        case .billpocket:
            break
        }
        return letters
    }

    /// Checks a step of an issue-39 world against what its letter may do (the header's list); nil
    /// for Billpocket's world (FlowProperties alone).
    /// - Parameters:
    ///   - before: The state before the letter.
    ///   - letter: The letter.
    ///   - after: The state after it.
    ///   - answer: The coordinator's answer (nil for a time step or process death).
    /// - Returns: The property violated, or nil.
    public func checkWorld(before: State, letter: Letter, after: State, answer: CoordinatorAnswer?) -> String? {
        guard world != .billpocket else { return nil }
        let b = before.coordinator, a = after.coordinator
        // Only Billpocket approvals are booked (Coordinator+Refunds.swift: the others refund through their servers).
        if !a.ledger.entries.isEmpty { return "\(letter.label): the ledger booked \(a.ledger.entries.count) entries in \(world.rawValue)'s world" }
        for case .pos(let flow) in a.flows where flow.posApp != world.app {
            return "\(flow.id) is a \(flow.posApp.rawValue) hand-off in \(world.rawValue)'s world"
        }
        // An ended hand-off (its result known: approved, a mismatch, declined, error, cancelled) stays
        // as it ended: a late answer, genuine or not, never changes it (it may only be removed).
        for case .pos(let o) in b.flows where FlowProperties.hasEnded(.pos(o)) {
            if case .pos(let n)? = a.flow(id: o.id), n != o {
                return "\(letter.label) changed \(o.id), which had ended \(o.state.rawValue), to \(n.state.rawValue)"
            }
        }
        guard let expectation = letter.expectation, let answer else { return nil }
        switch expectation {
        case .forged:
            if a != b { return "\(letter.label), an answer without the genuine echo, changed the coordinator (\(answer.outcome.rawValue))" }
        case .noData:
            for case .pos(let n) in a.flows {
                guard case .pos(let o)? = b.flow(id: n.id), n != o else { continue }
                guard case .event(.posResult(let named, _), _) = letter.action, named.sameBytes(n.id) else {
                    return "\(letter.label) moved \(n.id)"
                }
                if n.state != o.state && n.state != .returnedWithoutResponse { return "\(letter.label) moved \(n.id) to \(n.state.rawValue)" }
                if n.response != o.response { return "\(letter.label) gave \(n.id) an answer" }
            }
        case .genuine(let allowed):
            var movedAnswer = false
            for case .pos(let n) in a.flows {
                guard case .pos(let o)? = b.flow(id: n.id) else { continue }
                if n.state != o.state && !allowed.contains(n.state) {
                    return "\(letter.label) moved \(n.id) from \(o.state.rawValue) to \(n.state.rawValue) (allowed: \(allowed.map { $0.rawValue }))"
                }
                if n.response != o.response { movedAnswer = true }
            }
            // A replay: the same answer again at once is `duplicate` and changes nothing.
            if movedAnswer {
                let (again, second) = apply(letter, to: after)
                if let second, second.outcome != .duplicate || again.coordinator != a {
                    return "\(letter.label) sent again answered \(second.outcome.rawValue)"
                        + (second.error.map { " " + $0.code.rawValue } ?? "") + (again.coordinator != a ? " and changed the coordinator" : "")
                }
            }
        case .refund(let app):
            if a != b { return "\(letter.label) changed the coordinator: a \(app.rawValue) sale is never refunded app-to-app" }
            guard case .event(.posStart(let id, _, let refundOf?, _, _), _) = letter.action, b.flow(id: id) == nil else { return nil }
            var known = true
            if case .saleFlow(let sale) = refundOf { known = b.flow(id: sale) != nil }
            // A refusal that comes first (the token was a forgotten hand-off's: conflict) is as good.
            guard known, answer.error?.code != .conflict else { return nil }
            let reason = app.rawValue + "_server_refund"
            guard answer.error?.code == .notEligible, answer.error?.message.containsBytes(reason) == true else {
                return "\(letter.label) answered \(answer.outcome.rawValue) " + (answer.error.map { $0.code.rawValue + ": " + $0.message } ?? "")
                    + ", not not_eligible with " + reason
            }
        }
        return nil
    }
}
