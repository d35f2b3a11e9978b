import PayHandoff
import XCTest

/// Issue 38: `open_browser`'s `return_to` and the event `checkout.browser_result`, through the
/// Swift API (the shared vectors in Tests/Vectors/flows/browser_result.json run the same rules
/// in every language).
final class BrowserResultTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000
    let nonce = "0123456789abcdef0123456789abcdef"
    let other = "fedcba9876543210fedcba9876543210"
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 7)

    @discardableResult
    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    func effects(_ answer: CoordinatorAnswer) -> [String] {
        answer.transitions.flatMap { $0.effects.map { (try? $0.json.string(at: "type")) ?? "?" } }
    }

    func state(_ id: String) -> String? { coordinator.flow(id: id)?.stateName }

    /// A backend-created session, started ready: the answer's `open_browser` effect.
    @discardableResult
    func start(_ id: String = "c1", returnURL: String, nonce: String? = nil) throws -> CoordinatorAnswer {
        try send(["type": "checkout.start", "now": .integer(t0), "flow_id": .string(id), "kind": "cards",
                  "return_url": .string(returnURL), "nonce": .string(nonce ?? self.nonce),
                  "session": ["kind": "cards", "checkout_url": "https://pay.example.com/c/1"]])
    }

    func result(_ code: String, channel: String = "auth_tab", url: String? = nil, id: String = "c1", at offset: Int64 = 5_000) -> JSONValue {
        var members: JSONObject = ["type": "checkout.browser_result", "now": .integer(t0 + offset), "flow_id": .string(id),
                                            "channel": .string(channel), "code": .string(code)]
        if let url { members["url"] = .string(url) }
        return .object(members)
    }

    func returnTo(_ answer: CoordinatorAnswer) -> JSONValue? {
        answer.transitions.first?.effects.first?.json.value(at: "return_to")
    }

    // MARK: 1. return_to

    func testOpenBrowserCarriesReturnTo() throws {
        XCTAssertEqual(returnTo(try start("c1", returnURL: "fixapp://checkout-callback")), ["scheme": "fixapp"])
        XCTAssertEqual(returnTo(try start("c2", returnURL: "https://TuApp.com/checkout-callback", nonce: other)),
                       ["https_host": "tuapp.com", "https_path": .string("/checkout-callback/ph_" + other)])
        let n3 = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", n4 = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
        // The path PayHandoff sends the gateway, query left out; a trailing slash kept once.
        XCTAssertEqual(returnTo(try start("c3", returnURL: "https://tuapp.com/cb/?src=app", nonce: n3)),
                       ["https_host": "tuapp.com", "https_path": .string("/cb/ph_" + n3)])
        XCTAssertEqual(returnTo(try start("c4", returnURL: "https://tuapp.com", nonce: n4)),
                       ["https_host": "tuapp.com", "https_path": .string("/ph_" + n4)])
        // No OS channel captures plain http or another port: no return_to, the deep link only.
        XCTAssertNil(returnTo(try start("c5", returnURL: "http://tuapp.com/cb", nonce: "cccccccccccccccccccccccccccccccc")))
        XCTAssertNil(returnTo(try start("c6", returnURL: "https://tuapp.com:8443/cb", nonce: "dddddddddddddddddddddddddddddddd")))
        XCTAssertEqual(returnTo(try start("c7", returnURL: "Com.Fix.App:/return", nonce: "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee")),
                       ["scheme": "com.fix.app"])
    }

    func testReturnToFollowsTheURLSentToTheGateway() throws {
        for text in ["https://tuapp.com/checkout-callback", "https://tuapp.com/a/b/", "https://tuapp.com", "https://tuapp.com/x?q=1"] {
            let url = try ReturnURL(text)
            guard case .https(let host, let path)? = url.target(nonce: nonce) else { return XCTFail(text) }
            // What the gateway redirects to starts with https://host + path, then the query or nothing.
            let sent = url.adding(nonce: nonce)
            XCTAssertTrue(sent == "https://" + host + path || sent.hasPrefix("https://" + host + path + "?"), "\(text): \(sent)")
        }
    }

    func testReturnToIsRedactedWhenPrinted() throws {
        let answer = try start(returnURL: "https://tuapp.com/checkout-callback")
        for printed in ["\(answer)", String(reflecting: answer), "\(answer.transitions[0].effects[0])"] {
            XCTAssertFalse(printed.contains(nonce), printed)
            XCTAssertTrue(printed.contains("ph_<redacted>"), printed)
        }
        var dumped = ""
        dump(answer, to: &dumped)
        XCTAssertFalse(dumped.contains(nonce), dumped)
    }

    // MARK: 2. checkout.browser_result

    func testOKIsTheDeepLinkOnceInEitherOrder() throws {
        let link = "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_xyz"
        try start(returnURL: "fixapp://checkout-callback")
        try send(["type": "checkout.browser_opened", "now": .integer(t0 + 1_000), "flow_id": "c1"])
        let first = try send(result("ok", url: link))
        XCTAssertEqual(first.outcome, .accepted)
        XCTAssertEqual(effects(first), ["close_browser", "show_pending", "persist"])
        XCTAssertEqual(state("c1"), "awaiting_confirmation")
        XCTAssertEqual(coordinator.handle(url: link, now: t0 + 6_000).outcome, .duplicate)

        coordinator = Coordinator()
        try start(returnURL: "fixapp://checkout-callback")
        XCTAssertEqual(coordinator.handle(url: link, now: t0 + 6_000).outcome, .accepted)
        coordinator = try Coordinator(snapshot: coordinator.snapshot)  // process death between the two
        XCTAssertEqual(try send(result("ok", url: link, at: 7_000)).outcome, .duplicate)
        XCTAssertEqual(state("c1"), "awaiting_confirmation")
    }

    func testAnotherFlowsNonceMovesNothing() throws {
        try start("c1", returnURL: "fixapp://checkout-callback")
        try start("c2", returnURL: "fixapp://checkout-callback", nonce: other)
        let before = coordinator
        let answer = try send(result("ok", url: "fixapp://checkout-callback/ph_\(other)?status=completed&card_id=card_xyz"))
        XCTAssertEqual(answer.outcome, .rejected)
        XCTAssertEqual(answer.error?.code, .callbackMismatch)
        XCTAssertEqual(answer.error?.field, "nonce")
        XCTAssertEqual(coordinator, before)
    }

    func testCanceledIsDismissedAndVerificationFailureReconciles() throws {
        try start(returnURL: "https://tuapp.com/checkout-callback")
        try send(["type": "checkout.browser_opened", "now": .integer(t0 + 1_000), "flow_id": "c1"])
        let failed = try send(result("verification_failed"))
        XCTAssertEqual(effects(failed), ["reconcile", "persist"])
        XCTAssertEqual(state("c1"), "returned_without_result")
        guard case .reconcile(let reason)? = failed.transitions.first?.effects.first else { return XCTFail("\(failed)") }
        XCTAssertTrue(reason.contains("Digital Asset Links") && reason.contains("webcredentials"), reason)
        // A later genuine return still decides.
        let link = "https://tuapp.com/checkout-callback/ph_\(nonce)?status=completed&card_id=card_xyz"
        XCTAssertEqual(coordinator.handle(url: link, now: t0 + 9_000).outcome, .accepted)
        XCTAssertEqual(state("c1"), "awaiting_confirmation")

        coordinator = Coordinator()
        try start(returnURL: "fixapp://checkout-callback")
        XCTAssertEqual(effects(try send(result("canceled", channel: "custom_tab"))), ["persist"])
        XCTAssertEqual(state("c1"), "returned_without_result")
        XCTAssertEqual(try send(result("canceled", channel: "safari_view_controller")).outcome, .duplicate)
        // Still waiting: an unknown result asks for a reconcile, the state (and snapshot) unchanged.
        let unknown = try send(result("unknown", channel: "web_authentication_session"))
        XCTAssertEqual(unknown.outcome, .accepted)
        XCTAssertEqual(effects(unknown), ["reconcile"])
    }

    func testRefusedResults() throws {
        let cases: [(JSONValue, String)] = [
            (result("verification_failed", channel: "web_authentication_session"), "code"),
            (result("ok", channel: "custom_tab", url: "fixapp://checkout-callback"), "code"),
            (result("unknown", channel: "safari_view_controller"), "code"),
            (result("ok"), "url"),
            (result("canceled", url: "fixapp://checkout-callback"), "url"),
            (result("canceled", channel: "chrome"), "channel"),
            (result("cancelled"), "code"),
            (result("OK", url: "fixapp://checkout-callback"), "code"),
        ]
        for (json, field) in cases {
            XCTAssertThrowsError(try CoordinatorEvent(json: json), "\(json)") { error in
                XCTAssertEqual((error as? PayHandoffError)?.code, .validation)
                XCTAssertEqual((error as? PayHandoffError)?.field, field, "\(json)")
            }
        }
        var extra = result("canceled")
        if case .object(var o) = extra { o["reason"] = "x"; extra = .object(o) }
        XCTAssertThrowsError(try CoordinatorEvent(json: extra))
    }

    func testEveryPairTheTableAllows() throws {
        for channel in BrowserResult.Channel.allCases {
            for code in BrowserResult.Code.allCases {
                let allowed: Bool
                switch channel {
                case .authTab: allowed = true
                case .webAuthenticationSession: allowed = [.ok, .canceled, .unknown].contains(code)
                case .customTab, .safariViewController: allowed = code == .canceled
                }
                XCTAssertEqual((try? BrowserResult(channel: channel, code: code, url: code == .ok ? "fixapp://cb" : nil)) != nil, allowed,
                               "\(channel) \(code)")
            }
        }
    }

    func testPrintedResultHidesTheNonce() throws {
        let event = try CoordinatorEvent(json: result("ok", url: "fixapp://checkout-callback/ph_\(nonce)?status=completed"))
        var dumped = ""
        dump(event, to: &dumped)
        for printed in ["\(event)", String(reflecting: event), dumped] {
            XCTAssertFalse(printed.contains(nonce), printed)
        }
    }
}
