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
}
