import Foundation
import PayHandoff
import PayHandoffABI
import XCTest

/// `payhandoff pos answer` and `payhandoff checkout answer` (issue 29): what they compose moves a
/// flow exactly as the POS app's or the gateway's answer does — through `payhandoff route`, through
/// the coordinator in Swift and through the C ABI, from the same saved state — and what is not
/// for a flow of the state is refused as a real answer is.
final class AnswerCommandTests: CLITestCase {
    let t0: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00
    let token = "0123456789abcdef"
    let nonce = "0123456789abcdef0123456789abcdef"
    let hostileReference = "Pago & % + # it's ; $(touch PWNED) `id` \"q\" \\ ! <x>\nsegunda línea"

    // MARK: helpers

    var state: String { folder.appendingPathComponent("state.json").path }

    /// Sends `event` to the state file; returns the human output.
    @discardableResult
    func send(_ event: String, at now: Int64, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(["send", event, "--state", state, "--now", String(now)])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr, file: file, line: line)
        return result.stdout
    }

    /// Starts and launches a POS hand-off; returns the billpocket:// URL as `send` prints it
    /// (`usertoken=<redacted>`), as a developer copies it from a log.
    func startPOS(_ id: String, _ request: String, extra: String = "", at now: Int64) throws -> String {
        let output = try send(#"{"type":"pos.start","flow_id":"\#(id)","token":"\#(token)","request":\#(request)\#(extra)}"#, at: now)
        try send(#"{"type":"pos.launched","flow_id":"\#(id)"}"#, at: now + 500)
        let line = try XCTUnwrap(output.split(separator: "\n").first { $0.contains("effect: open_pos_app ") })
        let url = String(try XCTUnwrap(line.components(separatedBy: "effect: open_pos_app ").last))
        XCTAssertTrue(url.contains("usertoken=<redacted>"), url)
        return url
    }

    func sale(_ identifier: String = "ord-1", amount: String = "100.00") -> String {
        #"{"transaction":"venta","usertoken":"SECRET_TOKEN","identifier":"\#(identifier)","amount":"\#(amount)","tip":"15.00","urlScheme":"myapp","reference":\#(jsonString(hostileReference))}"#
    }

    func jsonString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    /// Composes with the tool; exit 0 and no secret printed.
    func compose(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        XCTAssertFalse((result.stdout + result.stderr).contains("SECRET_TOKEN"), "the user token is never printed", file: file, line: line)
        return result.stdout.hasSuffix("\n") ? String(result.stdout.dropLast()) : result.stdout
    }

    /// The answer of `url` given to the coordinator in `snapshot`: through `payhandoff route`
    /// (which saves the state), the coordinator in Swift and the C ABI. The three must be the same
    /// document; returns it with the coordinator after it (Swift).
    func routeEverywhere(_ url: String, snapshot: String, at now: Int64, file: StaticString = #filePath,
                         line: UInt = #line) throws -> (answer: [String: Any], coordinator: Coordinator) {
        try snapshot.write(toFile: state, atomically: true, encoding: .utf8)
        let routed = try run(["route", url, "--state", state, "--now", String(now), "--json"])
        let (swiftText, coordinator) = try routeInSwift(url, snapshot: snapshot, at: now)
        let abiText = try routeThroughABI(url, snapshot: snapshot, at: now)
        let cli = try json(routed.stdout)
        XCTAssertEqual(cli as NSDictionary, try json(swiftText) as NSDictionary, "route and the Swift coordinator differ", file: file, line: line)
        XCTAssertEqual(cli as NSDictionary, try json(abiText) as NSDictionary, "route and the C ABI differ", file: file, line: line)
        XCTAssertEqual(routed.status, cli["outcome"] as? String == "rejected" ? 1 : 0, routed.stderr, file: file, line: line)
        return (cli, coordinator)
    }

    func routeInSwift(_ url: String, snapshot: String, at now: Int64) throws -> (String, Coordinator) {
        var coordinator = try Coordinator(snapshot: JSONText.parse(snapshot, parameter: "snapshot", limit: JSONText.maxSnapshotBytes))
        let answer = coordinator.handle(url: url, now: now)
        return (JSONText.render(answer.json), coordinator)
    }

    func routeThroughABI(_ url: String, snapshot: String, at now: Int64) throws -> String {
        var handle: OpaquePointer? = nil
        var out: UnsafeMutablePointer<CChar>? = nil
        XCTAssertEqual(payhandoff_coordinator_restore(snapshot, &handle, &out), 0)
        payhandoff_string_free(out)
        defer { payhandoff_coordinator_free(handle) }
        XCTAssertEqual(payhandoff_coordinator_handle_url(handle, url, now, &out), 0)
        defer { payhandoff_string_free(out) }
        return String(cString: try XCTUnwrap(out))
    }

    func snapshotText() throws -> String { try String(contentsOfFile: state, encoding: .utf8) }

    func transition(_ answer: [String: Any]) -> (state: String?, effects: [String]) {
        let first = (answer["transitions"] as? [[String: Any]])?.first
        return (first?["state"] as? String, ((first?["effects"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String })
    }

    func ledger(_ coordinator: Coordinator) -> NSDictionary? {
        (try? json(JSONText.render(coordinator.snapshot)))?["ledger"] as? NSDictionary
    }

    // MARK: pos answer

    /// Approved, declined and error: the composed answer, routed from the saved state, moves the
    /// sale exactly as the POS app's own answer (written out here as the app sends it) does —
    /// same outcome, state, effects and ledger — in route, Swift and the C ABI; a second delivery
    /// is a duplicate, like the app's.
    func testComposedPOSAnswersMoveTheSaleAsThePOSAppsAnswersDo() throws {
        let real = [
            "approved": "myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00&transactionid=720371&authorization=Z9&creditcard=4242&identifier=ord-1~\(token)&bp_version=4.3.24",
            "declined": "myapp://result=rechazada&statusinfo=Fondos%20insuficientes&amount=100.00&identifier=ord-1~\(token)",
            "error": "myapp://result=error&statusinfo=La%20transacci%C3%B3n%20fue%20cancelada&amount=10.00&identifier=ord-1~\(token)",
        ]
        for (result, expected) in [("approved", "approved"), ("declined", "declined"), ("error", "error")] {
            try? FileManager.default.removeItem(atPath: state)
            let request = try startPOS("p1", sale(), at: t0)
            let before = try snapshotText()
            let answer = try compose(["pos", "answer", request, "--result", result, "--transaction-id", "720371"])
            XCTAssertFalse(answer.contains("\n"), "one line: \(answer)")
            let composed = try routeEverywhere(answer, snapshot: before, at: t0 + 30_000)
            XCTAssertEqual(composed.answer["outcome"] as? String, "accepted", result)
            XCTAssertEqual(transition(composed.answer).state, expected)
            let (realText, realCoordinator) = try routeInSwift(try XCTUnwrap(real[result]), snapshot: before, at: t0 + 30_000)
            let realAnswer = try json(realText)
            XCTAssertEqual(realAnswer["outcome"] as? String, "accepted")
            XCTAssertEqual(transition(composed.answer).state, transition(realAnswer).state, result)
            XCTAssertEqual(transition(composed.answer).effects, transition(realAnswer).effects, result)
            XCTAssertEqual(ledger(composed.coordinator), ledger(realCoordinator), result)
            if result == "approved" {
                let sales = try XCTUnwrap(ledger(composed.coordinator)?["sales"] as? [[Any]])
                XCTAssertEqual(sales.first?.first as? String, "720371", "the approval is booked under its transactionid")
            }
            let again = try routeEverywhere(answer, snapshot: try snapshotText(), at: t0 + 31_000)
            XCTAssertEqual(again.answer["outcome"] as? String, "duplicate", result)
        }
    }

    /// The default answer: the request's amount and tip, a fresh numeric transaction id, the
    /// identifier as sent (token included), the POS app's escaping (`+`, `'`, `;`, `$`, `(` raw;
    /// `&`, `%`, `#`, spaces, newlines and accents escaped), no `?`; read back exactly.
    func testTheDefaultAnswerIsInThePOSAppsOwnForm() throws {
        let request = try startPOS("p1", sale(), at: t0)
        let answer = try compose(["pos", "answer", request, "--result", "approved"])
        let prefix = "myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00&reference=Pago%20%26%20%25%20+%20%23%20it's%20;%20$(touch%20PWNED)%20%60id%60%20%22q%22%20%5C%20!%20%3Cx%3E%0Asegunda%20l%C3%ADnea&transactionid="
        XCTAssertTrue(answer.hasPrefix(prefix), answer)
        let id = String(answer.dropFirst(prefix.count).prefix { $0 != "&" })
        XCTAssertEqual(id.count, 9, id)
        XCTAssertTrue(id.allSatisfy(\.isNumber), id)
        XCTAssertTrue(answer.hasSuffix("&authorization=A1B2C3&creditcard=************4242&identifier=ord-1~\(token)&accountType=credit&bp_version=4.3.24"), answer)
        let other = try compose(["pos", "answer", request, "--result", "approved"])
        XCTAssertNotEqual(other, answer, "a fresh transaction id each time")
        let parsed = try run(["pos", "parse", answer, "--url-scheme", "myapp", "--identifier", "ord-1", "--token", token, "--json"])
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        XCTAssertEqual(try json(parsed.stdout)["reference"] as? String, hostileReference)
        XCTAssertEqual(try json(parsed.stdout)["transactionid"] as? String, id)

        // Told: amount, tip, statusinfo; an answer for another amount is what the POS app may send.
        let told = try compose(["pos", "answer", request, "--result", "declined", "--amount", "90", "--tip", "0",
                                "--statusinfo", "Fondos insuficientes", "--transaction-id", "T-1"])
        XCTAssertTrue(told.hasPrefix("myapp://result=rechazada&statusinfo=Fondos%20insuficientes&amount=90.00&tip=0.00&reference="), told)
        XCTAssertTrue(told.hasSuffix("&transactionid=T-1&identifier=ord-1~\(token)"), told)
        let mismatch = try routeEverywhere(try compose(["pos", "answer", request, "--result", "approved", "--amount", "90"]),
                                           snapshot: try snapshotText(), at: t0 + 30_000)
        XCTAssertEqual(transition(mismatch.answer).state, "approved_amount_mismatch")
        XCTAssertEqual(transition(mismatch.answer).effects, ["reconcile", "persist"])

        // A request written by hand, urlScheme with '://' and a leading '?', no user token at all.
        let bare = try compose(["pos", "answer", "billpocket://?transaction=venta&identifier=a%2Bb&amount=5&urlScheme=com.fix.app%3A%2F%2F",
                                "--result", "error"])
        XCTAssertEqual(bare, "com.fix.app://result=error&statusinfo=La%20transacci%C3%B3n%20fue%20cancelada&amount=5.00&identifier=a+b")
    }

    /// A refund of a composed sale, itself answered by a composed approval, books the refund
    /// against the sale exactly as the POS app's answer does.
    func testAComposedRefundApprovalRefundsTheSale() throws {
        let saleRequest = try startPOS("p1", sale(), at: t0)
        let saleAnswer = try compose(["pos", "answer", saleRequest, "--result", "approved", "--transaction-id", "720371"])
        XCTAssertEqual(transition(try routeEverywhere(saleAnswer, snapshot: try snapshotText(), at: t0 + 5_000).answer).state, "approved")
        let refund = #"{"transaction":"devolucion","usertoken":"SECRET_TOKEN","identifier":"ref-1","urlScheme":"myapp","transactionId":"720371","amount":"40.00"}"#
        let refundRequest = try startPOS("r1", refund, extra: #","sale_flow_id":"p1""#, at: t0 + 70_000)
        XCTAssertTrue(refundRequest.contains("transaction=devolucion"), refundRequest)
        let before = try snapshotText()
        let answer = try compose(["pos", "answer", refundRequest, "--result", "approved", "--transaction-id", "720999"])
        XCTAssertTrue(answer.hasPrefix("myapp://result=aprobada&statusinfo=&amount=40.00&transactionid=720999&"), answer)
        let composed = try routeEverywhere(answer, snapshot: before, at: t0 + 80_000)
        XCTAssertEqual(composed.answer["outcome"] as? String, "accepted")
        XCTAssertEqual(transition(composed.answer).state, "approved")
        let real = "myapp://result=aprobada&statusinfo=&amount=40.00&transactionid=720999&identifier=ref-1~\(token)"
        let (realText, realCoordinator) = try routeInSwift(real, snapshot: before, at: t0 + 80_000)
        XCTAssertEqual(transition(composed.answer).effects, transition(try json(realText)).effects)
        XCTAssertEqual(ledger(composed.coordinator), ledger(realCoordinator))
        XCTAssertEqual(composed.coordinator.refundedAmount(transactionId: "720371", now: t0 + 80_000), try Amount(parsing: "40.00"))
    }

    /// `--as android` prints the result extras; `--json` with it the `pos.result` event, its flow
    /// found in the state file (or given), which `payhandoff send` — and the coordinator in Swift
    /// and through the C ABI — takes as the POS app's `onActivityResult`.
    func testTheAndroidExtrasMoveTheFlowThroughAPOSResultEvent() throws {
        let request = try startPOS("p1", sale(), at: t0)
        let extras = try json(try compose(["pos", "answer", request, "--result", "approved", "--as", "android", "--transaction-id", "720371"]))
        XCTAssertEqual(extras["reference"] as? String, hostileReference, "decoded text, as onActivityResult gives it")
        XCTAssertEqual(extras["identifier"] as? String, "ord-1~\(token)")
        XCTAssertEqual(extras["result"] as? String, "aprobada")
        let eventText = try compose(["pos", "answer", request, "--result", "approved", "--as", "android", "--json", "--state", state,
                                     "--transaction-id", "720371"])
        let event = try json(eventText)
        XCTAssertEqual(event["type"] as? String, "pos.result")
        XCTAssertEqual(event["flow_id"] as? String, "p1")
        XCTAssertEqual(event["extras"] as? NSDictionary, extras as NSDictionary)
        let given = try json(try compose(["pos", "answer", request, "--result", "declined", "--as", "android", "--json", "--flow-id", "mine"]))
        XCTAssertEqual(given["flow_id"] as? String, "mine")

        let before = try snapshotText()
        let sent = try run(["send", eventText, "--state", state, "--now", String(t0 + 30_000), "--json"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        let answer = try json(sent.stdout)
        XCTAssertEqual(answer["outcome"] as? String, "accepted")
        XCTAssertEqual(transition(answer).state, "approved")
        // The same event in Swift and through the C ABI.
        var withNow = event
        withNow["now"] = Int(t0 + 30_000)
        let eventWithNow = String(decoding: try JSONSerialization.data(withJSONObject: withNow), as: UTF8.self)
        var coordinator = try Coordinator(snapshot: JSONText.parse(before, parameter: "snapshot", limit: JSONText.maxSnapshotBytes))
        var random = SystemRandomNumberGenerator()
        let swift = coordinator.send(try CoordinatorEvent(json: JSONText.parse(eventWithNow, parameter: "event")), using: &random)
        XCTAssertEqual(try json(JSONText.render(swift.json)) as NSDictionary, answer as NSDictionary)
        var handle: OpaquePointer? = nil
        var out: UnsafeMutablePointer<CChar>? = nil
        XCTAssertEqual(payhandoff_coordinator_restore(before, &handle, &out), 0)
        payhandoff_string_free(out)
        defer { payhandoff_coordinator_free(handle) }
        XCTAssertEqual(payhandoff_coordinator_send(handle, eventWithNow, &out), 0)
        XCTAssertEqual(try json(String(cString: try XCTUnwrap(out))) as NSDictionary, answer as NSDictionary)
        payhandoff_string_free(out)

        // The URL answer as a `url` event.
        let urlEvent = try json(try compose(["pos", "answer", request, "--result", "approved", "--json"]))
        XCTAssertEqual(urlEvent["type"] as? String, "url")
        XCTAssertTrue((urlEvent["url"] as? String)?.hasPrefix("myapp://result=aprobada&") == true)
    }

    /// `--result-word` (issue 30): `declinada` routes as a decline, everywhere; a word the library
    /// does not know leaves the sale in `unrecognized_result` with a reconcile effect and books
    /// nothing, even with the fields of an approval; the Android extras carry the word too.
    func testResultWordComposesTheWordsThePOSAppSends() throws {
        let request = try startPOS("p1", sale(), at: t0)
        let before = try snapshotText()
        let declinada = try compose(["pos", "answer", request, "--result", "declined", "--result-word", "declinada"])
        XCTAssertTrue(declinada.hasPrefix("myapp://result=declinada&"), declinada)
        let declined = try routeEverywhere(declinada, snapshot: before, at: t0 + 30_000)
        XCTAssertEqual(declined.answer["outcome"] as? String, "accepted")
        XCTAssertEqual(transition(declined.answer).state, "declined")

        let unknown = try compose(["pos", "answer", request, "--result", "approved", "--result-word", "pendiente",
                                   "--transaction-id", "720371"])
        XCTAssertTrue(unknown.hasPrefix("myapp://result=pendiente&"), unknown)
        let unrecognized = try routeEverywhere(unknown, snapshot: before, at: t0 + 30_000)
        XCTAssertEqual(unrecognized.answer["outcome"] as? String, "accepted")
        XCTAssertEqual(transition(unrecognized.answer).state, "unrecognized_result")
        XCTAssertTrue(transition(unrecognized.answer).effects.contains("reconcile"), "\(transition(unrecognized.answer).effects)")
        XCTAssertEqual((ledger(unrecognized.coordinator)?["sales"] as? [Any])?.count ?? 0, 0, "an unknown word books nothing")

        let extras = try json(try compose(["pos", "answer", request, "--result", "declined", "--result-word", "DECLINADA", "--as", "android"]))
        XCTAssertEqual(extras["result"] as? String, "DECLINADA")
        let empty = try run(["pos", "answer", request, "--result", "declined", "--result-word", ""])
        XCTAssertEqual(empty.status, 2, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("--result-word"), empty.stderr)
    }

    /// An answer composed for another hand-off — the same order number with another token, or
    /// a request no flow of the state sent — is refused as the POS app's would be, and changes nothing.
    func testAComposedAnswerForAnotherSaleIsRefusedLikeARealOne() throws {
        _ = try startPOS("p1", sale(), at: t0)
        let before = try snapshotText()
        let other = try run(["pos", "sale", "--usertoken", "SECRET_TOKEN", "--identifier", "ord-1~ffffffffffffffff",
                             "--amount", "100", "--url-scheme", "myapp"]).stdout.trimmingCharacters(in: .newlines)
        let answer = try compose(["pos", "answer", other, "--result", "approved", "--transaction-id", "720371"])
        let composed = try routeEverywhere(answer, snapshot: before, at: t0 + 30_000)
        XCTAssertEqual(composed.answer["outcome"] as? String, "rejected")
        XCTAssertEqual((composed.answer["error"] as? [String: Any])?["code"] as? String, "callback_mismatch")
        XCTAssertEqual((composed.answer["error"] as? [String: Any])?["field"] as? String, "identifier")
        XCTAssertEqual(try snapshotText(), before, "a refused answer leaves the state as it was")
        let real = "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~ffffffffffffffff"
        let (realText, _) = try routeInSwift(real, snapshot: before, at: t0 + 30_000)
        XCTAssertEqual(try json(realText)["error"] as? NSDictionary, composed.answer["error"] as? NSDictionary)
        // --state finds no flow that sent it.
        let lookup = try run(["pos", "answer", other, "--result", "approved", "--as", "android", "--json", "--state", state])
        XCTAssertEqual(lookup.status, 1)
        XCTAssertTrue(lookup.stderr.hasPrefix("error: unknown_flow [identifier]: "), lookup.stderr)
    }

    /// The user token in the request — real (from `send --json`), redacted or absent — is never
    /// printed, in any output or error.
    func testTheUserTokenIsNeverPrinted() throws {
        let started = try run(["send", #"{"type":"pos.start","flow_id":"p1","token":"\#(token)","request":\#(sale())}"#,
                               "--state", state, "--now", String(t0), "--json"])
        let effects = (try json(started.stdout)["transitions"] as? [[String: Any]])?.first?["effects"] as? [[String: Any]]
        let withToken = try XCTUnwrap(effects?.first { $0["type"] as? String == "open_pos_app" }?["url"] as? String)
        XCTAssertTrue(withToken.contains("usertoken=SECRET_TOKEN"), "the host's copy holds the token")
        for extra in [[], ["--as", "android"], ["--as", "android", "--json", "--state", state], ["--json"],
                      ["--deliver", "android"], ["--deliver", "ios"], ["--deliver", "android", "--package", "com.fix.app"]] {
            _ = try compose(["pos", "answer", withToken, "--result", "approved"] + extra)
        }
        for bad in [["--amount", "x"], ["--transaction-id", "a b"], ["--deliver", "android", "--package", "x;y"], ["--result", "maybe"],
                    ["--as", "android", "--json"]] {
            let refused = try run(["pos", "answer", withToken, "--result", "approved"] + bad)
            XCTAssertNotEqual(refused.status, 0, "\(bad)")
            XCTAssertFalse((refused.stdout + refused.stderr).contains("SECRET_TOKEN"), "\(bad): \(refused.stderr)")
        }
    }

    /// Bad input gets a typed error (exit 1) naming the field; a wrong command line is a usage
    /// error (exit 2) that says why.
    func testBadInputGetsTypedErrors() throws {
        let request = "billpocket://transaction=venta&usertoken=%3Credacted%3E&identifier=ord-1~\(token)&amount=100.00&urlScheme=myapp"
        let refused: [([String], String)] = [
            (["pos", "answer", "myapp://result=aprobada&identifier=ord-1&amount=1.00", "--result", "approved"], "malformed_url [url]"),
            (["pos", "answer", "https://example.com/billpocket://x", "--result", "approved"], "malformed_url [url]"),
            (["pos", "answer", "billpocket://transaction=venta&amount=1.00&urlScheme=myapp", "--result", "approved"], "validation [identifier]"),
            (["pos", "answer", "billpocket://transaction=venta&identifier=o&amount=1.00", "--result", "approved"], "validation [urlScheme]"),
            (["pos", "answer", "billpocket://identifier=o&amount=1.00&urlScheme=myapp", "--result", "approved"], "validation [transaction]"),
            (["pos", "answer", "billpocket://transaction=venta&identifier=o&amount=1,00&urlScheme=myapp", "--result", "approved"], "validation [amount]"),
            (["pos", "answer", "billpocket://transaction=venta&identifier=o&identifier=p&amount=1.00&urlScheme=myapp", "--result", "approved"], "malformed_url [identifier]"),
            (["pos", "answer", "billpocket://transaction=devolucion&identifier=r&urlScheme=myapp&transactionId=720371", "--result", "approved"], "validation [amount]"),
            (["pos", "answer", request, "--result", "approved", "--amount", "1.234"], "validation [amount]"),
            (["pos", "answer", request, "--result", "approved", "--amount", "cien"], "validation [amount]"),
            (["pos", "answer", request, "--result", "approved", "--amount", "-5"], "validation [amount]"),
            (["pos", "answer", request, "--result", "approved", "--tip", "1e3"], "validation [tip]"),
            (["pos", "answer", request, "--result", "approved", "--transaction-id", "a b"], "validation [transactionid]"),
            (["pos", "answer", request, "--result", "approved", "--deliver", "android", "--package", "com.fix;reboot"], "validation [package]"),
            (["pos", "answer", request, "--result", "approved", "--deliver", "android", "--package", "$(id)"], "validation [package]"),
            (["pos", "answer", request, "--result", "approved", "--deliver", "ios", "--package", "com.fix.app"], "validation [package]"),
            (["pos", "answer", request, "--result", "approved", "--state", folder.appendingPathComponent("none.json").path], "invalid_argument [state]"),
            (["checkout", "answer", "fixapp://cb/ph_short", "--status", "cancelled"], "validation [nonce]"),
            (["checkout", "answer", "javascript:alert(1)", "--status", "cancelled"], "validation [return_url]"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)#x", "--status", "cancelled"], "validation [return_url]"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "completed", "--card-id", "xyz"], "validation [card_id]"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "completed", "--kind", "payments", "--card-id", "card_1"], "callback_mismatch [card_id]"),
            (["checkout", "answer", "fixapp://cb", "--status", "cancelled", "--state", state], "validation [nonce]"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "completed", "--card-id", "card_1", "--deliver", "android", "--package", "a b"], "validation [package]"),
        ]
        for (arguments, expected) in refused {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("error: \(expected): "), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        let usage: [([String], String)] = [
            (["pos", "answer", request], "--result is required"),
            (["pos", "answer", request, "--result", "maybe"], "--result takes approved, declined or error"),
            (["pos", "answer", request, "--result", "approved", "--as", "windows"], "--as takes ios or android"),
            (["pos", "answer", request, "--result", "approved", "--as", "android", "--deliver", "android"], "adb can open a link in the app, but it cannot produce the data of onActivityResult"),
            (["pos", "answer", request, "--result", "approved", "--as", "android", "--deliver", "ios"], "URL answers only"),
            (["pos", "answer", request, "--result", "approved", "--as", "android", "--json"], "give --flow-id ID, or --state FILE"),
            (["pos", "answer", request, "--result", "approved", "--json", "--deliver", "ios"], "choose one"),
            (["pos", "answer", request, "--result", "approved", "--package", "com.fix.app"], "go with --deliver"),
            (["pos", "answer", request, "--result", "approved", "--run"], "go with --deliver"),
            (["pos", "answer", request, "--result", "approved", "--deliver", "windows"], "--deliver takes ios or android"),
            (["pos", "answer", "--result", "approved"], "BILLPOCKET_URL is required"),
            (["pos", "answer", request, "--result", "approved", "--result-ward", "x"], "unknown option --result-ward"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)"], "--status is required"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "done"], "--status takes completed, failed or cancelled"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "completed"], "give --card-id ID or --payment-id ID"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "failed", "--card-id", "card_1", "--payment-id", "pay_1"], "not both"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "failed", "--gateway", "sloppy"], "--gateway takes append"),
            (["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "failed", "--kind", "card"], "--kind takes cards or payments"),
        ]
        for (arguments, expected) in usage {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("error: usage: "), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        for command in [["pos", "answer"], ["checkout", "answer"]] {
            let help = try run(command + ["--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.hasPrefix("usage: payhandoff \(command.joined(separator: " "))"), help.stdout)
        }
    }

    // MARK: checkout answer

    /// Each gateway variant, for a return URL with and without a query of its own: the composed
    /// redirect — kind and id from the state file — moves the checkout exactly as the same
    /// redirect written out by hand does, in route, Swift and the C ABI; failed and cancelled too.
    func testComposedRedirectsMoveTheCheckoutAsTheGatewaysDo() throws {
        let cases: [(returnURL: String, kind: String, id: String, redirects: [String: String])] = [
            ("fixapp://checkout-callback", "cards", "card_9", [
                "append": "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_9",
                "append-qmark": "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_9",
                "append-amp": "fixapp://checkout-callback/ph_\(nonce)&status=completed&card_id=card_9",
                "replace-query": "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_9",
            ]),
            ("https://shop.example/cb?src=app", "payments", "pay_9", [
                "append": "https://shop.example/cb/ph_\(nonce)?src=app&status=completed&payment_id=pay_9",
                "append-qmark": "https://shop.example/cb/ph_\(nonce)?src=app?status=completed&payment_id=pay_9",
                "append-amp": "https://shop.example/cb/ph_\(nonce)?src=app&status=completed&payment_id=pay_9",
                "replace-query": "https://shop.example/cb/ph_\(nonce)?status=completed&payment_id=pay_9",
            ]),
        ]
        for c in cases {
            try? FileManager.default.removeItem(atPath: state)
            let started = try send(#"{"type":"checkout.start","flow_id":"c1","kind":"\#(c.kind)","return_url":"\#(c.returnURL)","nonce":"\#(nonce)"}"#, at: t0)
            let line = try XCTUnwrap(started.split(separator: "\n").first { $0.contains("create_session") })
            let handedOut = String(try XCTUnwrap(line.components(separatedBy: "with return_url ").last))
            let object = c.kind == "cards" ? "registration" : "checkout"
            try send(#"{"type":"checkout.session","flow_id":"c1","session":{"kind":"\#(c.kind)","status":201,"body":{"data":{"\#(object)":{"id":"s_1","checkout_url":"https://pay.example/c/1","\#(c.kind == "cards" ? "card_id" : "payment_id")":"\#(c.id)"}}}}}"#, at: t0 + 1_000)
            try send(#"{"type":"checkout.browser_opened","flow_id":"c1"}"#, at: t0 + 2_000)
            let before = try snapshotText()
            for gateway in ["append", "append-qmark", "append-amp", "replace-query"] {
                let redirect = try compose(["checkout", "answer", handedOut, "--status", "completed", "--state", state, "--gateway", gateway])
                XCTAssertEqual(redirect, c.redirects[gateway], gateway)
                let composed = try routeEverywhere(redirect, snapshot: before, at: t0 + 30_000)
                XCTAssertEqual(composed.answer["outcome"] as? String, "accepted", "\(c.returnURL) \(gateway)")
                XCTAssertEqual(transition(composed.answer).state, "awaiting_confirmation", "\(c.returnURL) \(gateway)")
                XCTAssertEqual(transition(composed.answer).effects, ["close_browser", "show_pending", "persist"], gateway)
                let callback = ((composed.answer["transitions"] as? [[String: Any]])?.first?["details"] as? [String: Any])?["callback"] as? [String: Any]
                XCTAssertEqual(callback?["verified"] as? Bool, true, gateway)
                XCTAssertEqual(callback?[c.kind == "cards" ? "card_id" : "payment_id"] as? String, c.id, gateway)
            }
            // Explicit id and kind, without the state: the same redirect.
            XCTAssertEqual(try compose(["checkout", "answer", handedOut, "--status", "completed",
                                        c.kind == "cards" ? "--card-id" : "--payment-id", c.id]), c.redirects["append"])
            let failed = try compose(["checkout", "answer", handedOut, "--status", "failed", "--reason", "Fondos insuficientes & más", "--state", state])
            let failedAnswer = try routeEverywhere(failed, snapshot: before, at: t0 + 30_000).answer
            XCTAssertEqual(transition(failedAnswer).state, "failed")
            let details = (failedAnswer["transitions"] as? [[String: Any]])?.first?["details"] as? [String: Any]
            XCTAssertEqual((details?["callback"] as? [String: Any])?["reason"] as? String, "Fondos insuficientes & más")
            let cancelled = try compose(["checkout", "answer", handedOut, "--status", "cancelled", "--state", state, "--gateway", "append-amp"])
            XCTAssertEqual(transition(try routeEverywhere(cancelled, snapshot: before, at: t0 + 30_000).answer).state, "cancelled")
        }
    }

    /// A redirect for another nonce, or with another id than the session's, is refused as the
    /// gateway's would be; the state file names no flow for a nonce it does not hold.
    /// `--channel`/`--code` (issue 38): every code prints the checkout.browser_result event that
    /// `send` accepts, moving the flow as the result would; `--deliver` cannot carry it.
    func testBrowserResultsPrintTheEventToSend() throws {
        let start = #"{"type":"checkout.start","flow_id":"c1","kind":"cards","return_url":"fixapp://cb","nonce":"\#(nonce)","session":{"kind":"cards","checkout_url":"https://pay.example/c/1","card_id":"card_9"}}"#
        let url = "fixapp://cb/ph_\(nonce)"
        let expected: [(String, String, String)] = [  // channel, code, the flow's state after send
            ("auth_tab", "ok", "awaiting_confirmation"), ("auth_tab", "canceled", "returned_without_result"),
            ("auth_tab", "verification_failed", "returned_without_result"), ("auth_tab", "verification_timed_out", "returned_without_result"),
            ("auth_tab", "unknown", "returned_without_result"), ("web_authentication_session", "ok", "awaiting_confirmation"),
            ("web_authentication_session", "canceled", "returned_without_result"), ("custom_tab", "canceled", "returned_without_result"),
            ("safari_view_controller", "canceled", "returned_without_result"),
        ]
        for (channel, code, after) in expected {
            try? FileManager.default.removeItem(atPath: state)
            try send(start, at: t0)
            try send(#"{"type":"checkout.browser_opened","flow_id":"c1"}"#, at: t0 + 500)
            let printed = try run(["checkout", "answer", url, "--channel", channel, "--code", code, "--state", state]
                                  + (code == "ok" ? ["--status", "completed"] : []))
            XCTAssertEqual(printed.status, 0, printed.stderr)
            let event = try json(printed.stdout)
            XCTAssertEqual(event["type"] as? String, "checkout.browser_result")
            XCTAssertEqual(event["flow_id"] as? String, "c1")
            XCTAssertEqual(event["channel"] as? String, channel)
            XCTAssertEqual(event["code"] as? String, code)
            XCTAssertEqual(event["url"] as? String, code == "ok" ? "\(url)?status=completed&card_id=card_9" : nil)
            let sent = try run(["send", printed.stdout, "--state", state, "--now", String(t0 + 1_000), "--json"])
            XCTAssertEqual(sent.status, 0, sent.stderr)
            XCTAssertEqual(try json(sent.stdout)["outcome"] as? String, "accepted", "\(channel) \(code): \(sent.stdout)")
            XCTAssertTrue(sent.stdout.contains(#""state":"\#(after)""#), "\(channel) \(code): \(sent.stdout)")
        }
        let flowID = try run(["checkout", "answer", url, "--channel", "auth_tab", "--code", "verification_failed", "--flow-id", "c9"])
        XCTAssertEqual(try json(flowID.stdout)["flow_id"] as? String, "c9")
        let pair = try run(["checkout", "answer", url, "--channel", "custom_tab", "--code", "unknown", "--flow-id", "c1"])
        XCTAssertEqual(pair.status, 1)
        XCTAssertTrue(pair.stderr.hasPrefix("error: validation [code]: custom_tab cannot report unknown"), pair.stderr)
        let usage: [([String], String)] = [
            (["--channel", "auth_tab", "--code", "ok", "--status", "completed", "--card-id", "card_1", "--flow-id", "c1", "--deliver", "android"],
             "adb and xcrun simctl can open a URL in the app, but they cannot produce a auth_tab result"),
            (["--channel", "web_authentication_session", "--code", "canceled", "--flow-id", "c1", "--deliver", "ios"], "cannot produce"),
            (["--channel", "chrome", "--code", "ok"], "--channel takes auth_tab"),
            (["--channel", "auth_tab"], "--code is required"),
            (["--channel", "auth_tab", "--code", "cancelled"], "--code takes ok, canceled"),
            (["--channel", "auth_tab", "--code", "canceled"], "give --flow-id ID, or --state FILE"),
            (["--channel", "auth_tab", "--code", "canceled", "--status", "failed", "--flow-id", "c1"], "only --code ok"),
            (["--code", "canceled", "--status", "failed"], "give --channel too"),
        ]
        for (arguments, expected) in usage {
            let result = try run(["checkout", "answer", url] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }

    /// `open_browser`'s https `return_to` path holds the nonce: printed only with --show-secrets.
    func testReturnToIsRedactedUnlessShowSecrets() throws {
        let start = #"{"type":"checkout.start","flow_id":"c1","kind":"cards","return_url":"https://tuapp.com/cb","nonce":"\#(nonce)","session":{"kind":"cards","checkout_url":"https://pay.example/c/1"}}"#
        let hidden = try run(["send", start, "--state", state, "--now", String(t0)])
        XCTAssertTrue(hidden.stdout.contains("open_browser https://pay.example/c/1 return_to https tuapp.com /cb/ph_<redacted>"), hidden.stdout)
        XCTAssertFalse(hidden.stdout.contains(nonce), hidden.stdout)
        try? FileManager.default.removeItem(atPath: state)
        let shown = try run(["send", start, "--state", state, "--now", String(t0), "--show-secrets"])
        XCTAssertTrue(shown.stdout.contains("return_to https tuapp.com /cb/ph_\(nonce)"), shown.stdout)
    }

    func testAComposedRedirectForAnotherCheckoutIsRefusedLikeARealOne() throws {
        try send(#"{"type":"checkout.start","flow_id":"c1","kind":"cards","return_url":"fixapp://cb","nonce":"\#(nonce)"}"#, at: t0)
        try send(#"{"type":"checkout.session","flow_id":"c1","session":{"kind":"cards","status":201,"body":{"data":{"registration":{"id":"s_1","checkout_url":"https://pay.example/c/1","card_id":"card_9"}}}}}"#, at: t0 + 1_000)
        let before = try snapshotText()
        let otherNonce = "fixapp://cb/ph_ffffffffffffffffffffffffffffffff"
        let forged = try compose(["checkout", "answer", otherNonce, "--status", "completed", "--card-id", "card_9"])
        let refused = try routeEverywhere(forged, snapshot: before, at: t0 + 30_000).answer
        XCTAssertEqual(refused["outcome"] as? String, "rejected")
        XCTAssertEqual((refused["error"] as? [String: Any])?["field"] as? String, "nonce")
        XCTAssertEqual(try snapshotText(), before)
        let wrongID = try compose(["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "completed", "--card-id", "card_other"])
        let mismatch = try routeEverywhere(wrongID, snapshot: before, at: t0 + 30_000).answer
        XCTAssertEqual(mismatch["outcome"] as? String, "rejected")
        XCTAssertEqual((mismatch["error"] as? [String: Any])?["code"] as? String, "callback_mismatch")
        XCTAssertEqual((mismatch["error"] as? [String: Any])?["field"] as? String, "card_id")
        let (realText, _) = try routeInSwift("fixapp://cb/ph_\(nonce)?status=completed&card_id=card_other", snapshot: before, at: t0 + 30_000)
        XCTAssertEqual(try json(realText)["error"] as? NSDictionary, mismatch["error"] as? NSDictionary)
        let lookup = try run(["checkout", "answer", otherNonce, "--status", "completed", "--state", state])
        XCTAssertEqual(lookup.status, 1)
        XCTAssertTrue(lookup.stderr.hasPrefix("error: unknown_flow [nonce]: "), lookup.stderr)
        let kind = try run(["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "cancelled", "--state", state, "--kind", "payments"])
        XCTAssertEqual(kind.status, 1)
        XCTAssertTrue(kind.stderr.hasPrefix("error: validation [kind]: "), kind.stderr)
        // Without a nonce segment: an unverified claim, said so; the coordinator refuses it.
        let bare = try run(["checkout", "answer", "fixapp://cb", "--status", "completed", "--card-id", "card_9"])
        XCTAssertEqual(bare.stdout, "fixapp://cb?status=completed&card_id=card_9\n")
        XCTAssertTrue(bare.stderr.contains("unverified"), bare.stderr)
        XCTAssertEqual(try routeEverywhere("fixapp://cb?status=completed&card_id=card_9", snapshot: before, at: t0 + 30_000).answer["outcome"] as? String, "rejected")
    }

    // MARK: --deliver

    /// A folder of fake `adb`, `xcrun` and `am` that record their arguments (NUL-separated) in
    /// `<name>.args` of ``folder``, and exit with the status written in `status` of ``folder`` (default 0).
    func fakeTools() throws -> String {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["adb", "xcrun", "am"] {
            let record = folder.appendingPathComponent("\(name).args").path
            let status = folder.appendingPathComponent("status").path
            let script = "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > '\(record)'\nexit \"$(cat '\(status)' 2>/dev/null || echo 0)\"\n"
            let url = bin.appendingPathComponent(name)
            try script.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        return bin.path + ":/usr/bin:/bin"
    }

    /// What fake `name` was called with last (and forgets it).
    func recorded(_ name: String) throws -> [String] {
        let file = folder.appendingPathComponent("\(name).args")
        defer { try? FileManager.default.removeItem(at: file) }
        let data = try Data(contentsOf: file)
        var words = String(decoding: data, as: UTF8.self).components(separatedBy: "\0")
        XCTAssertEqual(words.popLast(), "")
        return words
    }

    /// The printed command, run by a shell, and `--run`, run as an argument vector, call the tool
    /// with the same arguments; for `adb`, the device's shell (here `sh -c` over the joined
    /// arguments, as `adb shell` does, with a fake `am`) receives the answer URL exactly — with
    /// references holding `'`, `;`, `$()`, backquotes, newlines and `&`, none of which runs.
    func testDeliverHandsTheExactAnswerToTheDeviceThroughBothShells() throws {
        let path = try fakeTools()
        for reference in ["it's", "a;b", "$(touch PWNED)", "`touch PWNED`", "line\nbreak", "x&y", "\"q\" \\ !x", hostileReference] {
            let request = try run(["pos", "sale", "--usertoken", "SECRET_TOKEN", "--identifier", "ord-1~\(token)", "--amount", "100",
                                   "--url-scheme", "myapp", "--reference", reference]).stdout.trimmingCharacters(in: .newlines)
            let base = ["pos", "answer", request, "--result", "approved", "--transaction-id", "720371"]
            let answer = try compose(base)
            for (deliver, package) in [("android", ["--package", "com.fix.app"]), ("android", []), ("ios", [])] {
                let printed = try compose(base + ["--deliver", deliver] + package)
                XCTAssertFalse(printed.contains("\n"), "one line: \(printed)")
                XCTAssertEqual(try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", printed], path: path).status, 0, printed)
                let viaShell = try recorded(deliver == "ios" ? "xcrun" : "adb")
                let ran = try run(base + ["--deliver", deliver, "--run"] + package, path: path)
                XCTAssertEqual(ran.status, 0, ran.stderr)
                XCTAssertEqual(ran.stdout, printed + "\n", "--run prints the command it runs")
                let viaRun = try recorded(deliver == "ios" ? "xcrun" : "adb")
                XCTAssertEqual(viaRun, viaShell, "\(reference): --run runs what the printed line runs")
                if deliver == "ios" {
                    XCTAssertEqual(viaRun, ["simctl", "openurl", "booted", answer])
                    continue
                }
                XCTAssertEqual(Array(viaRun.prefix(1)), ["shell"])
                let device = viaRun.dropFirst().joined(separator: " ")
                XCTAssertEqual(try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", device], path: path).status, 0, device)
                XCTAssertEqual(try recorded("am"), ["start", "-W", "-a", "android.intent.action.VIEW", "-d", answer] + package.dropFirst(),
                               "\(reference): the device's shell hands am the answer exactly")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED").path), "nothing ran")
        }
        // The checkout redirect the same way.
        let redirect = try compose(["checkout", "answer", "fixapp://cb/ph_\(nonce)?o=it's", "--status", "failed", "--reason", "a;b $(x)"])
        let ran = try run(["checkout", "answer", "fixapp://cb/ph_\(nonce)?o=it's", "--status", "failed", "--reason", "a;b $(x)",
                           "--deliver", "android", "--run"], path: path)
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(try launch(URL(fileURLWithPath: "/bin/sh"), ["-c", try recorded("adb").dropFirst().joined(separator: " ")], path: path).status, 0)
        XCTAssertEqual(try recorded("am"), ["start", "-W", "-a", "android.intent.action.VIEW", "-d", redirect])
    }

    /// `--run` needs the tool on PATH, and reports a tool that fails.
    func testRunSaysWhenTheToolIsMissingOrFails() throws {
        let request = "billpocket://transaction=venta&identifier=ord-1~\(token)&amount=100.00&urlScheme=myapp"
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = try run(["pos", "answer", request, "--result", "approved", "--deliver", "android", "--run"], path: empty.path)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stdout.hasPrefix("adb shell am start -W -a android.intent.action.VIEW -d \"'myapp://result=aprobada&"), missing.stdout)
        XCTAssertTrue(missing.stderr.hasPrefix("error: invalid_argument [deliver]: adb is not on PATH"), missing.stderr)
        let ios = try run(["checkout", "answer", "fixapp://cb/ph_\(nonce)", "--status", "cancelled", "--deliver", "ios", "--run"], path: empty.path)
        XCTAssertEqual(ios.status, 1)
        XCTAssertTrue(ios.stderr.contains("xcrun is not on PATH"), ios.stderr)
        let path = try fakeTools()
        try "3".write(to: folder.appendingPathComponent("status"), atomically: true, encoding: .utf8)
        let failing = try run(["pos", "answer", request, "--result", "approved", "--deliver", "android", "--run"], path: path)
        XCTAssertEqual(failing.status, 1)
        XCTAssertEqual(failing.stderr, "error: adb exited with status 3\n")
    }
}
