import Foundation
import XCTest

/// The commands as a user runs them (see ``CLITestCase``).
final class CLITests: CLITestCase {
    let seedAnswer = "myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00&reference=Pago%20%26%20%25%20%23%20(%20)%20/%20@%20con%20propina&transactionid=720371&identifier=ord-1"

    func testPOSSaleAndRefundPrintTheURL() throws {
        let sale = try run(["pos", "sale", "--usertoken", "tok", "--identifier", "ord-1", "--amount", "100",
                            "--url-scheme", "myapp", "--tip", "15.5", "--msi", "3", "--reference", "a&b c"])
        XCTAssertEqual(sale.status, 0, sale.stderr)
        XCTAssertEqual(sale.stdout, "billpocket://transaction=venta&usertoken=tok&identifier=ord-1&amount=100.00&urlScheme=myapp&tip=15.50&msi=3&reference=a%26b%20c\n")
        let refund = try run(["pos", "refund", "--usertoken", "tok", "--identifier", "r-1", "--url-scheme", "myapp",
                              "--transaction-id", "720371", "--amount", "40", "--json"])
        XCTAssertEqual(refund.status, 0, refund.stderr)
        XCTAssertEqual(try json(refund.stdout)["url"] as? String,
                       "billpocket://transaction=devolucion&usertoken=tok&identifier=r-1&amount=40.00&urlScheme=myapp&transactionId=720371")
    }

    func testRejectedInputExitsOneWithTheCodeOnStderr() throws {
        let bad = try run(["pos", "sale", "--usertoken", "tok", "--identifier", "ord-1", "--amount", "1.234", "--url-scheme", "myapp"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stdout, "")
        XCTAssertTrue(bad.stderr.hasPrefix("error: validation [amount]: "), bad.stderr)
    }

    func testUsageErrorsExitTwo() throws {
        for arguments in [["pos", "sale", "--amout", "1"], ["pos", "parse"], ["nonsense"], [],
                          ["checkout", "request", "card"], ["pos", "parse", "a", "b", "--url-scheme", "x"], ["route", "--state"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout) \(result.stderr)")
        }
    }

    func testEveryCommandHasHelp() throws {
        for command in [["pos", "sale"], ["pos", "refund"], ["pos", "parse"], ["pos", "refund-check"],
                        ["checkout", "request"], ["checkout", "callback"], ["route"], ["send"], ["demo"], []] {
            let result = try run(command + ["--help"])
            XCTAssertEqual(result.status, 0, "\(command)")
            XCTAssertTrue(result.stdout.contains("usage"), "\(command): \(result.stdout)")
        }
    }

    func testPOSParseExplainsAndChecksTheIdentifier() throws {
        let parsed = try run(["pos", "parse", seedAnswer, "--url-scheme", "myapp"])
        XCTAssertEqual(parsed.status, 0, parsed.stderr)
        XCTAssertTrue(parsed.stdout.contains("reference: Pago & % # ( ) / @ con propina\n"), parsed.stdout)
        XCTAssertTrue(parsed.stdout.contains("result: approved\n"))
        let other = try run(["pos", "parse", seedAnswer, "--url-scheme", "myapp", "--identifier", "ord-2"])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("callback_mismatch [identifier]"), other.stderr)
    }

    func testRefundCheck() throws {
        let approved = "1796054400"  // 2026-11-30T10:00:00-06:00
        let soon = try run(["pos", "refund-check", "--transaction-id", "T", "--sale-amount", "100", "--approved-at", approved,
                            "--now", "1796054430"])
        XCTAssertEqual(soon.status, 1)
        XCTAssertTrue(soon.stdout.contains("too_soon"), soon.stdout)
        let ok = try run(["pos", "refund-check", "--transaction-id", "T", "--sale-amount", "100", "--approved-at", approved,
                          "--now", "1796054460", "--json"])
        XCTAssertEqual(ok.status, 0)
        XCTAssertEqual(try json(ok.stdout)["eligible"] as? Bool, true)
    }

    func testCheckoutRequestRedactsTheKeyUnlessAsked() throws {
        let base = ["checkout", "request", "cards", "--api-key", "sk_test_SECRET", "--return-url", "fixapp://cb",
                    "--provider", "dinelco", "--customer-id", "c1", "--target-origin", "https://fix.example.com",
                    "--name", "Juan", "--lastname", "Pérez", "--email", "juan@example.com", "--nonce", "0123456789abcdef"]
        let shown = try run(base)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertFalse(shown.stdout.contains("SECRET"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("POST https://api.pay.ingalca.com/v1/cards"))
        XCTAssertTrue(shown.stdout.contains("return_url: fixapp://cb/ph_0123456789abcdef"), shown.stdout)
        XCTAssertTrue(try run(base + ["--show-secrets"]).stdout.contains("Bearer sk_test_SECRET"))
        XCTAssertFalse(try run(base + ["--json"]).stdout.contains("SECRET"))
    }

    func testCheckoutCallbackSaysWhichRuleItBroke() throws {
        let good = try run(["checkout", "callback", "fixapp://cb/ph_0123456789abcdef?status=completed&card_id=card_1",
                            "--return-url", "fixapp://cb", "--nonce", "0123456789abcdef", "--json"])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(try json(good.stdout)["verified"] as? Bool, true)
        let wrongPath = try run(["checkout", "callback", "fixapp://cb/x?status=completed&card_id=card_1", "--return-url", "fixapp://cb",
                                 "--nonce", "0123456789abcdef"])
        XCTAssertEqual(wrongPath.status, 1)
        XCTAssertTrue(wrongPath.stderr.contains("callback_mismatch [path]"), wrongPath.stderr)
        let bare = try run(["checkout", "callback", "fixapp://cb?status=failed&payment_id=pay_1", "--return-url", "fixapp://cb",
                            "--nonce", "0123456789abcdef"])
        XCTAssertEqual(bare.status, 1)
        XCTAssertTrue(bare.stderr.contains("callback_mismatch [nonce]"), bare.stderr)
        let payment = try run(["checkout", "callback", "fixapp://cb?status=failed&payment_id=pay_1&reason=Fondos+insuficientes",
                               "--return-url", "fixapp://cb", "--accept-unverified"])
        XCTAssertEqual(payment.status, 0, payment.stderr)
        XCTAssertTrue(payment.stdout.contains("reason: Fondos insuficientes"), payment.stdout)
        XCTAssertTrue(payment.stdout.contains("kind: payments"))
        XCTAssertTrue(payment.stdout.contains("note: no nonce: unverified"), payment.stdout)
    }

    func testSendAndRouteThroughASavedState() throws {
        let state = folder.appendingPathComponent("state.json").path
        let start = #"{"type":"pos.start","flow_id":"p1","token":"0123456789abcdef","request":{"transaction":"venta","usertoken":"SECRET","identifier":"ord-1","amount":"100.00","urlScheme":"myapp"}}"#
        let started = try run(["send", start, "--state", state, "--now", "1796054400000"])
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(started.stdout.contains("usertoken=<redacted>"), started.stdout)
        XCTAssertFalse(try String(contentsOfFile: state, encoding: .utf8).contains("SECRET"))
        let answer = seedAnswer.replacingOccurrences(of: "identifier=ord-1", with: "identifier=ord-1~0123456789abcdef")
        XCTAssertNotEqual(answer, seedAnswer)
        let forged = try run(["route", seedAnswer, "--state", state, "--now", "1796054430000"])
        XCTAssertEqual(forged.status, 1, "the order number alone is not the hand-off's token")
        XCTAssertTrue(forged.stdout.contains("callback_mismatch [identifier]"), forged.stdout)
        let routed = try run(["route", answer, "--state", state, "--now", "1796054430000", "--json"])
        XCTAssertEqual(routed.status, 0, routed.stderr)
        XCTAssertEqual(try json(routed.stdout)["outcome"] as? String, "accepted")
        let again = try run(["route", answer, "--state", state, "--now", "1796054431000"])
        XCTAssertTrue(again.stdout.contains("outcome: duplicate"), again.stdout)
        let spoof = try run(["route", "myapp://result=aprobada&amount=1.00&identifier=ord-9", "--state", state])
        XCTAssertEqual(spoof.status, 1)
        XCTAssertTrue(spoof.stdout.contains("callback_mismatch [identifier]"), spoof.stdout)
        XCTAssertTrue(try run(["route", "otherapp://x", "--state", state]).stdout.contains("outcome: not_ours"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "state.json" }
        XCTAssertEqual(leftovers, [], "no temporary files are left behind")
    }

    func testAStateFileOverTheJSONLimitIsReadUpToTheSnapshotLimit() throws {
        // A merchant's day: 3,000 sales in the ledger take more than the 65536 bytes of other JSON
        // inputs; the tool reads the state file up to PAYHANDOFF_MAX_SNAPSHOT_BYTES, as restore does.
        let state = folder.appendingPathComponent("state.json").path
        let sales = (0..<3_000).map { String(format: #"["%010d",10000,0,1796054460000]"#, $0) }.joined(separator: ",")
        let text = #"{"version":3,"config":{},"flows":[],"ledger":{"pruned_through":0,"sales":["# + sales + #"],"refunds":[],"unknown":[]}}"#
        XCTAssertGreaterThan(text.utf8.count, 65_536)
        try text.write(toFile: state, atomically: true, encoding: .utf8)
        let routed = try run(["route", "otherapp://x", "--state", state, "--now", "1796054470000"])
        XCTAssertEqual(routed.status, 0, routed.stderr)
        XCTAssertTrue(routed.stdout.contains("outcome: not_ours"), routed.stdout)
    }

    func testAStateFileIsNeverHalfWrittenEvenWhenTheProcessIsKilled() throws {
        let state = folder.appendingPathComponent("state.json").path
        var valid: Set<String> = []
        for round in 0..<40 {
            let event = #"{"type":"checkout.start","flow_id":"c\#(round)","kind":"cards","return_url":"fixapp://cb-\#(round)"}"#
            let process = Process()
            process.executableURL = Self.binary
            process.arguments = ["send", event, "--state", state, "--now", "1796054400000"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(round % 8) * 700)  // kill at different moments: before, during, after the save
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard FileManager.default.fileExists(atPath: state) else { continue }
            let text = try String(contentsOfFile: state, encoding: .utf8)
            let snapshot = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                                         "round \(round): the state file is not a complete JSON document")
            XCTAssertEqual(snapshot["version"] as? Int, 4)  // format 4 since issue 35
            valid.insert(text)
        }
        // The file still loads in the tool, whatever moment the kills hit.
        if FileManager.default.fileExists(atPath: state) {
            XCTAssertEqual(try run(["route", "otherapp://x", "--state", state]).status, 0)
        }
        let missing = try run(["route", "otherapp://x", "--state", folder.appendingPathComponent("no/such/dir/state.json").path])
        XCTAssertEqual(missing.status, 0, "a missing state file starts an empty coordinator (nothing to save for not_ours)")
    }

    func testDemoShowsBothFlows() throws {
        let demo = try run(["demo"])
        XCTAssertEqual(demo.status, 0, demo.stderr)
        for expected in ["card-1 (checkout) → confirmed", "outcome: rejected", "sale-1 (pos) → approved", "outcome: duplicate",
                         "user token inside: no", "not_eligible", "Final states: card-1=confirmed, sale-1=approved"] {
            XCTAssertTrue(demo.stdout.contains(expected), "missing: \(expected)")
        }
        XCTAssertFalse(demo.stdout.contains("bp_user_token_demo"), "the demo prints no secret")
        XCTAssertFalse(demo.stdout.contains("sk_test_demo"), "the demo prints no secret")
    }
}
