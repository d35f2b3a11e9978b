import Foundation
import PayHandoff
import PayHandoffABI
import XCTest

/// `--pos-app` on the pos commands (issue 39): `pos sale` builds SumUp's and Clip's requests
/// through the core, `pos answer --pos-app sumup` composes SumUp's answer URL and `--pos-app clip`
/// Clip's `pos.result` event, and what they compose moves the hand-off exactly as the app's own
/// answer (written out here from SumUp's READMEs and Clip's SDK) does; SumUp's affiliate key is
/// printed only with `--show-secrets`.
final class POSAppAnswerTests: CLITestCase {
    let t0: Int64 = 1_796_054_400_000
    let token = "fedcba9876543210fedcba9876543210"
    let affiliateKey = "sup_afk_SECRETKEY42"

    var state: String { folder.appendingPathComponent("state.json").path }

    var sumupRequest: String {
        #"{"pos_app":"sumup","affiliate_key":"\#(affiliateKey)","app_id":"com.example.shop","identifier":"ord-1","amount":"100.00","currency":"EUR","callback_url":"myapp://sumup-result"}"#
    }
    let clipRequest = #"{"pos_app":"clip","identifier":"ord-1","amount":"100.00","tip":"10.00","auto_return":true}"#

    @discardableResult
    func send(_ event: String, at now: Int64, expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(["send", event, "--state", state, "--now", String(now)])
        XCTAssertEqual(result.status, status, result.stdout + result.stderr, file: file, line: line)
        XCTAssertFalse((result.stdout + result.stderr).contains(affiliateKey), "the affiliate key is never printed", file: file, line: line)
        return result.stdout
    }

    /// Starts and launches a hand-off; returns what `send` prints after `open_pos_app <app> `.
    func start(_ id: String, _ request: String, token: String? = nil, at now: Int64) throws -> String {
        let output = try send(#"{"type":"pos.start","flow_id":"\#(id)","token":"\#(token ?? self.token)","request":\#(request)}"#, at: now)
        try send(#"{"type":"pos.launched","flow_id":"\#(id)"}"#, at: now + 500)
        let line = try XCTUnwrap(output.split(separator: "\n").first { $0.contains("effect: open_pos_app ") })
        return String(try XCTUnwrap(line.components(separatedBy: "effect: open_pos_app ").last))
    }

    func compose(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertFalse((result.stdout + result.stderr).contains(affiliateKey), "the affiliate key is never printed", file: file, line: line)
        return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
    }

    /// The state and effects of the first transition of a `--json` answer.
    func outcome(_ text: String) throws -> (outcome: String?, state: String?, effects: [String]) {
        let answer = try json(text)
        let first = (answer["transitions"] as? [[String: Any]])?.first
        return (answer["outcome"] as? String, first?["state"] as? String,
                ((first?["effects"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String })
    }

    func route(_ url: String, at now: Int64) throws -> (outcome: String?, state: String?, effects: [String]) {
        let result = try run(["route", url, "--state", state, "--now", String(now), "--json"])
        return try outcome(result.stdout)
    }

    func sendJSON(_ event: String, at now: Int64) throws -> (outcome: String?, state: String?, effects: [String]) {
        let result = try run(["send", event, "--state", state, "--now", String(now), "--json"])
        return try outcome(result.stdout)
    }

    // MARK: pos sale --pos-app

    func testPOSSaleBuildsEachAppsRequestThroughTheCore() throws {
        let sumup = try compose(["pos", "sale", "--pos-app", "sumup", "--affiliate-key", affiliateKey, "--app-id", "com.example.shop",
                                 "--identifier", "ord-1", "--amount", "100.00", "--currency", "EUR", "--callback-url", "myapp://sumup-result"])
        XCTAssertEqual(sumup, "sumupmerchant://pay/1.0?amount=100.00&currency=EUR&affiliate-key=<redacted>&foreign-tx-id=ord-1"
                       + "&callbacksuccess=myapp%3A%2F%2Fsumup-result&callbackfail=myapp%3A%2F%2Fsumup-result")
        let shown = try run(["pos", "sale", "--pos-app", "sumup", "--affiliate-key", affiliateKey, "--app-id", "com.example.shop",
                             "--identifier", "ord-1", "--amount", "100.00", "--currency", "EUR", "--callback-url", "myapp://sumup-result",
                             "--show-secrets", "--json"])
        let document = try json(shown.stdout)
        XCTAssertTrue((document["url"] as? String)?.contains("affiliate-key=\(affiliateKey)") == true, "--show-secrets shows it")
        let android = try XCTUnwrap((document["intent"] as? [String: Any])?["data"] as? String)
        XCTAssertTrue(android.contains("affiliate-key=\(affiliateKey)"))
        // The request with the real key: the answer never carries it, nor does an error.
        for url in [try XCTUnwrap(document["url"] as? String), android] {
            XCTAssertTrue(try compose(["pos", "answer", url, "--pos-app", "sumup", "--result", "approved"]).hasPrefix("myapp://sumup-result?"))
            let refused = try run(["pos", "answer", url, "--pos-app", "sumup", "--result", "approved", "--transaction-id", "a b"])
            XCTAssertEqual(refused.status, 1, refused.stderr)
            XCTAssertFalse((refused.stdout + refused.stderr).contains(affiliateKey), refused.stderr)
        }
        let redacted = try compose(["pos", "sale", "--pos-app", "sumup", "--affiliate-key", affiliateKey, "--app-id", "com.example.shop",
                                    "--identifier", "ord-1", "--amount", "100.00", "--currency", "EUR", "--callback-url", "myapp://sumup-result", "--json"])
        XCTAssertTrue(redacted.contains("affiliate-key=<redacted>"), redacted)

        let clip = try json(try compose(["pos", "sale", "--pos-app", "clip", "--identifier", "ord-1", "--amount", "10000000.00", "--auto-return"]))
        XCTAssertEqual(clip["action"] as? String, "android.intent.action.MAIN")
        XCTAssertEqual(clip["component"] as? String, "com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.shared.ui.MainActivity")
        let extras = try XCTUnwrap(clip["extras"] as? [[String: Any]])
        XCTAssertEqual(extras.map { $0["key"] as? String }, ["PAYMENT_REFERENCE", "PAYMENT_AMOUNT", "PAYMENT_AUTO_RETURN"])
        XCTAssertEqual(extras[1]["value"] as? String, "10000000.00", "never 1.0E7")
        XCTAssertEqual(extras[2]["type"] as? String, "bool")

        // The core's rules, named by the core.
        let yen = try run(["pos", "sale", "--pos-app", "sumup", "--affiliate-key", affiliateKey, "--app-id", "com.example.shop",
                           "--identifier", "ord-1", "--amount", "100", "--currency", "JPY", "--callback-url", "myapp://sumup-result"])
        XCTAssertEqual(yen.status, 1)
        XCTAssertTrue(yen.stderr.contains("validation [currency]"), yen.stderr)
        XCTAssertFalse(yen.stderr.contains(affiliateKey))
        let token = try run(["pos", "sale", "--pos-app", "clip", "--identifier", "ord-1", "--amount", "1.00", "--usertoken", "x"])
        XCTAssertEqual(token.status, 1, "Billpocket's member is not Clip's")
        XCTAssertTrue(token.stderr.contains("[usertoken]"), token.stderr)
        XCTAssertEqual(try run(["pos", "sale", "--pos-app", "mercadopago", "--identifier", "o", "--amount", "1"]).status, 2)
        XCTAssertEqual(try run(["pos", "sale", "--pos-app", "clip", "--identifier", "o", "--amount", "1", "--comes-from-qr"]).status, 2)
    }

    // MARK: pos answer --pos-app sumup

    /// SumUp's answer URL, composed from the URL the app opened (as `send` prints it, the
    /// affiliate key redacted), moves the sale as SumUp's own answer does; a replay is a duplicate.
    func testComposedSumUpAnswersMoveTheSaleAsSumUpsDo() throws {
        let cases: [(String, String, String)] = [
            ("approved", "approved", "smp-status=success&smp-tx-code=TEENSY42&smp-receipt-sent=false"),
            ("declined", "declined", "smp-status=failed&smp-failure-cause=transaction-failed"),
            ("error", "error", "smp-status=failed&smp-failure-cause=invalid-param"),
        ]
        for (index, (result, expected, real)) in cases.enumerated() {
            let flowToken = String(format: "%032x", index + 1)
            let request = try start("s\(index)", sumupRequest, token: flowToken, at: t0)
            XCTAssertTrue(request.hasPrefix("sumup sumupmerchant://pay/1.0?"), request)
            XCTAssertTrue(request.contains("affiliate-key=<redacted>"), request)
            let url = String(request.dropFirst("sumup ".count))
            let snapshot = try String(contentsOfFile: state, encoding: .utf8)
            var arguments = ["pos", "answer", url, "--pos-app", "sumup", "--result", result, "--state", state]
            if result == "approved" { arguments += ["--transaction-id", "TEENSY42"] }
            let answer = try compose(arguments)
            XCTAssertTrue(answer.hasPrefix("myapp://sumup-result?smp-status="), answer)
            XCTAssertTrue(answer.hasSuffix("&foreign-tx-id=ord-1~\(flowToken)"), answer)
            let composed = try route(answer, at: t0 + 30_000)
            XCTAssertEqual(composed.outcome, "accepted", result)
            XCTAssertEqual(composed.state, expected, result)
            XCTAssertEqual(try route(answer, at: t0 + 31_000).outcome, "duplicate", result)
            // SumUp's own answer, from the same state, does the same.
            try snapshot.write(toFile: state, atomically: true, encoding: .utf8)
            let own = try route("myapp://sumup-result?\(real)&foreign-tx-id=ord-1~\(flowToken)", at: t0 + 30_000)
            XCTAssertEqual(own.state, composed.state, result)
            XCTAssertEqual(own.effects, composed.effects, result)
            try send(#"{"type":"flow.remove","flow_id":"s\#(index)","give_up":true}"#, at: t0 + 40_000)
        }
    }

    /// An answer echoing the affiliate key (a forged or buggy callback): routed, the key is in
    /// no output and not in the saved state.
    func testAnEchoedAffiliateKeyIsNeitherPrintedNorSaved() throws {
        _ = try start("s1", sumupRequest, at: t0)
        let echo = "myapp://sumup-result?smp-status=success&smp-tx-code=T1&affiliate-key=\(affiliateKey)&foreign-tx-id=ord-1~\(token)"
        for arguments in [["route", echo, "--state", state, "--now", String(t0 + 1_000)], ["route", echo, "--state", state, "--json"],
                          ["pos", "parse", echo, "--pos-app", "sumup", "--callback-url", "myapp://sumup-result", "--json"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse((result.stdout + result.stderr).contains(affiliateKey), "\(arguments): \(result.stdout)")
        }
        XCTAssertFalse(try String(contentsOfFile: state, encoding: .utf8).contains(affiliateKey))
    }

    func testSumUpAnswersFollowTheRequestsPlatformAndRefuseWhatSumUpCannotSend() throws {
        // The Android intent's data: one callback; iOS: the failure goes to callbackfail.
        let android = "sumupmerchant://pay/1.0?total=100.00&currency=EUR&affiliate-key=%3Credacted%3E&app-id=com.example.shop&foreign-tx-id=ord-1~\(token)&callback=myapp%3A%2F%2Fandroid-cb"
        XCTAssertTrue(try compose(["pos", "answer", android, "--pos-app", "sumup", "--result", "declined"]).hasPrefix("myapp://android-cb?smp-status=failed"))
        let ios = "sumupmerchant://pay/1.0?amount=100.00&currency=EUR&foreign-tx-id=ord-1~\(token)&callbacksuccess=myapp%3A%2F%2Fok&callbackfail=myapp%3A%2F%2Ffail"
        XCTAssertTrue(try compose(["pos", "answer", ios, "--pos-app", "sumup", "--result", "error"]).hasPrefix("myapp://fail?"))
        XCTAssertTrue(try compose(["pos", "answer", ios, "--pos-app", "sumup", "--result", "approved"]).hasPrefix("myapp://ok?smp-status=success&smp-tx-code=TX"))
        let json = try json(try compose(["pos", "answer", ios, "--pos-app", "sumup", "--result", "approved", "--json"]))
        XCTAssertEqual(json["type"] as? String, "url")
        XCTAssertEqual(try run(["pos", "answer", ios, "--pos-app", "sumup", "--result", "cancelled"]).status, 2, "SumUp has no cancel answer")
        XCTAssertEqual(try run(["pos", "answer", ios, "--pos-app", "sumup", "--result", "approved", "--error-code", "X"]).status, 2)
        let noEcho = try run(["pos", "answer", "sumupmerchant://pay/1.0?amount=1.00&callback=myapp%3A%2F%2Fcb", "--pos-app", "sumup", "--result", "approved"])
        XCTAssertEqual(noEcho.status, 1)
        XCTAssertTrue(noEcho.stderr.contains("[foreign-tx-id]"), noEcho.stderr)
        let billpocket = try run(["pos", "answer", "billpocket://transaction=venta&identifier=o&urlScheme=myapp", "--pos-app", "sumup", "--result", "approved"])
        XCTAssertEqual(billpocket.status, 1)
        XCTAssertTrue(billpocket.stderr.contains("malformed_url"), billpocket.stderr)
        // --deliver carries SumUp's answer (a URL on both platforms).
        let deliver = try compose(["pos", "answer", ios, "--pos-app", "sumup", "--result", "approved", "--transaction-id", "T1",
                                   "--deliver", "ios"])
        XCTAssertTrue(deliver.hasPrefix("xcrun simctl openurl booted 'myapp://ok?smp-status=success&smp-tx-code=T1"), deliver)
    }

    // MARK: pos answer --pos-app clip

    /// Clip's `pos.result` event, composed from the intent the effect carries, moves the sale as
    /// Clip's own result extras do: approved (once), cancelled, error.
    func testComposedClipResultsMoveTheSaleAsClipsDo() throws {
        let cases: [(String, String)] = [("approved", "approved"), ("cancelled", "cancelled"), ("error", "error")]
        for (index, (result, expected)) in cases.enumerated() {
            let flowToken = String(format: "%032x", index + 1)
            let shown = try start("k\(index)", clipRequest, token: flowToken, at: t0)
            XCTAssertTrue(shown.hasPrefix("clip intent {"), shown)
            let intent = String(shown.dropFirst("clip intent ".count))
            let snapshot = try String(contentsOfFile: state, encoding: .utf8)
            let eventText = try compose(["pos", "answer", intent, "--pos-app", "clip", "--result", result, "--state", state])
            let event = try json(eventText)
            XCTAssertEqual(event["type"] as? String, "pos.result")
            XCTAssertEqual(event["flow_id"] as? String, "k\(index)", "the flow that sent the reference")
            XCTAssertEqual(event["result_code"] as? Int, -1, "Clip answers every outcome with RESULT_OK")
            let extras = try XCTUnwrap(event["extras"] as? [String: String])
            let payment = try json(try XCTUnwrap(extras["PAYMENT_RESPONSE"]))
            XCTAssertEqual(payment["reference"] as? String, "ord-1~\(flowToken)")
            XCTAssertEqual(payment["amount"] as? String, "100.0", "Double.toString(), as Clip's SDK writes it")
            XCTAssertEqual(payment["tipAmount"] as? String, "10.0")
            XCTAssertEqual(extras["PAYMENT_ERROR"], ["approved": nil, "cancelled": "CANCELLED", "error": "TERMINAL_ERROR"][result] ?? nil)
            let composed = try sendJSON(eventText, at: t0 + 30_000)
            XCTAssertEqual(composed.outcome, "accepted", "\(result): \(eventText)")
            XCTAssertEqual(composed.state, expected, result)
            XCTAssertEqual(try sendJSON(eventText, at: t0 + 31_000).outcome, "duplicate", result)
            // Clip's own extras (as its SDK's Gson writes PaymentResult), from the same state.
            try snapshot.write(toFile: state, atomically: true, encoding: .utf8)
            let status = result == "approved" ? "approved" : "error"
            let own = #"{"type":"pos.result","flow_id":"k\#(index)","extras":{"PAYMENT_RESPONSE":"{\"reference\":\"ord-1~\#(flowToken)\",\"status\":\"\#(status)\",\"amount\":\"100.0\",\"receiptNumber\":\"R-77\",\"wasSessionReplaced\":false}"\#(result == "approved" ? "" : #","PAYMENT_ERROR":"\#(result == "cancelled" ? "CANCELLED" : "NO_CONNECTION")""#)}}"#
            let real = try sendJSON(own, at: t0 + 30_000)
            XCTAssertEqual(real.state, composed.state, result)
            XCTAssertEqual(real.effects, composed.effects, result)
            try send(#"{"type":"flow.remove","flow_id":"k\#(index)","give_up":true}"#, at: t0 + 40_000)
        }
    }

    func testClipAnswersAreEventsNeverDeliveredAndReadBack() throws {
        let intent = try compose(["pos", "sale", "--pos-app", "clip", "--identifier", "ord-9", "--amount", "12345678.90"])
        // The intent's reference has no token here (pos sale without one): the answer echoes it as sent.
        let event = try json(try compose(["pos", "answer", intent, "--pos-app", "clip", "--result", "approved", "--flow-id", "k9"]))
        let payment = try json(try XCTUnwrap((event["extras"] as? [String: String])?["PAYMENT_RESPONSE"]))
        XCTAssertEqual(payment["amount"] as? String, "1.23456789E7", "Double.toString() from ten million on")
        XCTAssertEqual(payment["reference"] as? String, "ord-9")
        // Read back by the core: pos parse --extras.
        let extras = JSONText.render(JSONValue.object(["PAYMENT_RESPONSE": .string(JSONText.render(JSONValue.object([
            "reference": "ord-9", "status": "approved", "amount": "1.23456789E7", "receiptNumber": "R-1"])))]))
        let parsed = try json(try compose(["pos", "parse", "--extras", extras, "--pos-app", "clip", "--identifier", "ord-9", "--json"]))
        XCTAssertEqual(parsed["result"] as? String, "approved")
        XCTAssertEqual(parsed["amount"] as? String, "12345678.90")
        XCTAssertEqual(try run(["pos", "answer", intent, "--pos-app", "clip", "--result", "approved", "--flow-id", "k9", "--deliver", "android"]).status, 2,
                       "adb cannot produce an activity result")
        XCTAssertEqual(try run(["pos", "answer", intent, "--pos-app", "clip", "--result", "approved"]).status, 2, "the event names its flow")
        XCTAssertEqual(try run(["pos", "answer", intent, "--pos-app", "clip", "--result", "declined", "--flow-id", "k9"]).status, 2)
        let notIntent = try run(["pos", "answer", "{\"action\":\"x\"}", "--pos-app", "clip", "--result", "approved", "--flow-id", "k9"])
        XCTAssertEqual(notIntent.status, 1)
        XCTAssertTrue(notIntent.stderr.contains("invalid_json"), notIntent.stderr)
        // An unknown state: no hand-off in it sent this reference.
        try send(#"{"type":"tick"}"#, at: t0)
        XCTAssertEqual(try run(["pos", "answer", intent, "--pos-app", "clip", "--result", "approved", "--state", state]).status, 1)
    }

    // MARK: pos answer --pos-app square

    /// Square on iOS: the answer URL on the request's callback (`data=` JSON echoing `state`);
    /// on Android: the `pos.result` event with `result_code` and Square's extras. Each moves the
    /// sale as Square's own answer does.
    func testComposedSquareAnswersMoveTheSaleAsSquaresDo() throws {
        let request = #"{"pos_app":"square","client_id":"sq0idp-APP","identifier":"ord-1","amount":"100.00","currency":"USD","callback_url":"myapp://square-callback"}"#
        let shown = try start("q1", request, at: t0)
        XCTAssertTrue(shown.hasPrefix("square square-commerce-v1://payment/create?data="), shown)
        let url = String(shown.dropFirst("square ".count))
        let answer = try compose(["pos", "answer", url, "--pos-app", "square", "--result", "approved", "--transaction-id", "SRV1", "--state", state])
        XCTAssertTrue(answer.hasPrefix("myapp://square-callback?data="), answer)
        let approved = try route(answer, at: t0 + 30_000)
        XCTAssertEqual(approved.outcome, "accepted")
        XCTAssertEqual(approved.state, "approved")
        XCTAssertEqual(try route(answer, at: t0 + 31_000).outcome, "duplicate")
        XCTAssertEqual(try run(["pos", "answer", url, "--pos-app", "square", "--result", "error"]).status, 2, "iOS error codes: --error-code")
        XCTAssertEqual(try run(["pos", "answer", url, "--pos-app", "square", "--result", "declined"]).status, 2)

        // Android: the intent from the effect (as --json prints it), answered with the event.
        let started = try run(["send", #"{"type":"pos.start","flow_id":"q2","token":"00112233445566778899aabbccddeeff","request":\#(request.replacingOccurrences(of: "ord-1", with: "ord-2"))}"#,
                               "--state", state, "--now", String(t0), "--json"])
        let effect = try XCTUnwrap(((try json(started.stdout)["transitions"] as? [[String: Any]])?.first?["effects"] as? [[String: Any]])?.first)
        let intent = String(decoding: try JSONSerialization.data(withJSONObject: try XCTUnwrap(effect["intent"])), as: UTF8.self)
        for (result, code, expected) in [("cancelled", 0, "cancelled")] {
            let eventText = try compose(["pos", "answer", intent, "--pos-app", "square", "--result", result, "--state", state])
            let event = try json(eventText)
            XCTAssertEqual(event["flow_id"] as? String, "q2")
            XCTAssertEqual(event["result_code"] as? Int, code)
            XCTAssertEqual((event["extras"] as? [String: String])?["com.squareup.pos.REQUEST_METADATA"], "ord-2~00112233445566778899aabbccddeeff")
            XCTAssertEqual(try sendJSON(eventText, at: t0 + 30_000).state, expected)
        }
        XCTAssertEqual(try run(["pos", "answer", intent, "--pos-app", "square", "--result", "approved", "--flow-id", "q2", "--deliver", "android"]).status, 2)
        let android = try json(try compose(["pos", "answer", intent, "--pos-app", "square", "--result", "approved", "--flow-id", "q9"]))
        XCTAssertEqual(android["result_code"] as? Int, -1)
        XCTAssertNotNil((android["extras"] as? [String: String])?["com.squareup.pos.SERVER_TRANSACTION_ID"])
    }

    // MARK: pos parse --pos-app

    func testPOSParseReadsEachAppsAnswer() throws {
        let url = "myapp://sumup-result?smp-status=success&smp-tx-code=TX1&foreign-tx-id=ord-1~\(token)"
        let parsed = try json(try compose(["pos", "parse", url, "--pos-app", "sumup", "--callback-url", "myapp://sumup-result",
                                           "--identifier", "ord-1", "--token", token, "--json"]))
        XCTAssertEqual(parsed["pos_app"] as? String, "sumup")
        XCTAssertEqual(parsed["transactionid"] as? String, "TX1")
        let forged = try run(["pos", "parse", url, "--pos-app", "sumup", "--callback-url", "myapp://sumup-result", "--identifier", "ord-2"])
        XCTAssertEqual(forged.status, 1)
        XCTAssertTrue(forged.stderr.contains("callback_mismatch"), forged.stderr)
        XCTAssertEqual(try run(["pos", "parse", url, "--extras", "{}"]).status, 2, "--extras takes no URL")
    }
}
