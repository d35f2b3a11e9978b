import PayHandoff
import XCTest

/// One readable test per user story, through the Swift API of the coordinator.
final class FlowScenarioTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000  // 2026-11-30T10:00:00-06:00, in ms
    let nonce = "0123456789abcdef0123456789abcdef"
    let token = "fedcba9876543210fedcba9876543210"
    var coordinator = Coordinator()
    var random = SplitMix64(seed: 7)

    @discardableResult
    func send(_ json: JSONValue, file: StaticString = #filePath, line: UInt = #line) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    func state(_ id: String) -> String? { coordinator.flow(id: id)?.stateName }

    func effects(_ answer: CoordinatorAnswer) -> [String] {
        answer.transitions.flatMap { $0.effects.map { (try? $0.json.string(at: "type")) ?? "?" } }
    }

    func startCard(_ id: String = "c1") throws -> CoordinatorAnswer {
        try send(["type": "checkout.start", "now": .integer(t0), "flow_id": .string(id), "nonce": .string(nonce),
                  "request": ["kind": "cards", "api_key": "sk_test_SECRET", "return_url": "fixapp://checkout-callback",
                              "provider": "dinelco", "customer_id": "cus_1", "target_origin": ["https://fix.example.com"],
                              "customer": ["name": "Juan", "lastname": "Pérez", "email": "juan@example.com"]]])
    }

    func session(_ id: String = "c1", at offset: Int64 = 1_000) throws -> CoordinatorAnswer {
        try send(["type": "checkout.session", "now": .integer(t0 + offset), "flow_id": .string(id),
                  "session": ["kind": "cards", "status": 201,
                              "body": ["data": ["registration": ["id": "reg_1", "checkout_url": "https://pay.example.com/c/1"]]]]])
    }

    var confirmation: JSONValue {
        ["type": "card.registered", "data": ["card_id": "card_xyz", "brand": "visa", "last_four": "4242", "token": "tok_1"]]
    }

    func testCardRegistrationHappyPath() throws {
        let start = try startCard()
        XCTAssertEqual(effects(start), ["send_request", "persist"])
        XCTAssertFalse("\(coordinator.snapshot)".contains("SECRET"), "the API key is in the effect, never in the snapshot")
        XCTAssertEqual(effects(try session()), ["open_browser", "persist"])
        try send(["type": "checkout.browser_opened", "now": .integer(t0 + 2_000), "flow_id": "c1"])
        let callback = coordinator.handle(url: "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_xyz", now: t0 + 60_000)
        XCTAssertEqual(callback.outcome, .accepted)
        XCTAssertEqual(effects(callback), ["close_browser", "show_pending", "persist"])
        XCTAssertEqual(state("c1"), "awaiting_confirmation")
        let confirmed = try send(["type": "checkout.confirmation", "now": .integer(t0 + 61_000), "flow_id": "c1", "event": confirmation])
        XCTAssertEqual(confirmed.outcome, .accepted)
        XCTAssertEqual(state("c1"), "confirmed")
        XCTAssertEqual(try send(["type": "checkout.confirmation", "now": .integer(t0 + 62_000), "flow_id": "c1", "event": confirmation]).outcome,
                       .duplicate)
    }

    func testThreeDSFailedThenWebhookConfirmed() throws {
        try startCard(); try session()
        let failed = coordinator.handle(url: "fixapp://checkout-callback/ph_\(nonce)?status=failed&reason=OTP+rechazado", now: t0 + 30_000)
        XCTAssertEqual(failed.outcome, .accepted)
        XCTAssertEqual(state("c1"), "failed")
        try send(["type": "checkout.confirmation", "now": .integer(t0 + 40_000), "flow_id": "c1", "event": confirmation])
        XCTAssertEqual(state("c1"), "confirmed", "the webhook is the truth and wins over the deep link")
    }

    func testTabDismissedThenDeepLink() throws {
        try startCard(); try session()
        try send(["type": "checkout.browser_opened", "now": .integer(t0 + 2_000), "flow_id": "c1"])
        let dismissed = try send(["type": "checkout.browser_dismissed", "now": .integer(t0 + 3_000), "flow_id": "c1"])
        XCTAssertEqual(state("c1"), "returned_without_result", "a dismissed tab is no failure")
        XCTAssertEqual(effects(dismissed), ["persist"])
        coordinator.handle(url: "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_xyz", now: t0 + 3_100)
        XCTAssertEqual(state("c1"), "awaiting_confirmation")
    }

    func testAppKilledWhileInTheBrowserThenRestoredAndCompleted() throws {
        try startCard(); try session()
        try send(["type": "checkout.browser_opened", "now": .integer(t0 + 2_000), "flow_id": "c1"])
        let saved = coordinator.snapshot
        coordinator = try Coordinator(snapshot: saved)  // the OS killed the app; it starts again from the file
        let url = "fixapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_xyz"
        XCTAssertEqual(coordinator.handle(url: url, now: t0 + 90_000).outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url: url, now: t0 + 90_500).outcome, .duplicate, "Linking delivers it twice")
        try send(["type": "checkout.confirmation", "now": .integer(t0 + 91_000), "flow_id": "c1", "event": confirmation])
        XCTAssertEqual(state("c1"), "confirmed")
    }

    func testSpoofedCallbacksNeverConfirm() throws {
        try startCard(); try session()
        let wrong = coordinator.handle(url: "fixapp://checkout-callback/ph_ffffffffffffffffffffffffffffffff?status=completed&card_id=card_evil", now: t0 + 5_000)
        XCTAssertEqual(wrong.outcome, .rejected)
        XCTAssertEqual(wrong.error?.code, .callbackMismatch)
        XCTAssertEqual(state("c1"), "ready", "a rejected URL changes nothing")
        let bare = coordinator.handle(url: "fixapp://checkout-callback?status=failed&reason=x", now: t0 + 5_000)
        XCTAssertEqual(bare.outcome, .rejected, "any app can send a callback without the nonce")
        XCTAssertEqual(bare.error?.field, "nonce")
        XCTAssertTrue(bare.transitions.isEmpty, "no close_browser for a stranger's deep link")
        XCTAssertEqual(state("c1"), "ready")
        XCTAssertEqual(coordinator.handle(url: "otherapp://x?status=completed", now: t0 + 5_000).outcome, .notOurs)
    }

    func testForgedPOSApprovalWithTheOrderNumberIsRefused() throws {
        try posStart()
        let forged = coordinator.handle(url: "myapp://result=aprobada&amount=100.00&transactionid=666&identifier=ord-1", now: t0 + 1_000)
        XCTAssertEqual(forged.outcome, .rejected)
        XCTAssertEqual(forged.error?.code, .callbackMismatch)
        XCTAssertEqual(forged.error?.field, "identifier")
        XCTAssertEqual(state("p1"), "ready")
        let otherToken = coordinator.handle(url: "myapp://result=aprobada&amount=100.00&transactionid=666&identifier=ord-1~"
                                            + String(token.reversed()), now: t0 + 1_000)
        XCTAssertEqual(otherToken.error?.code, .callbackMismatch)
        XCTAssertEqual(coordinator.handle(url: answer("aprobada", "100.00", "720371"), now: t0 + 2_000).outcome, .accepted)
        XCTAssertEqual(state("p1"), "approved")
    }

    func posStart(_ id: String = "p1", identifier: String = "ord-1", at time: Int64? = nil) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(time ?? t0), "flow_id": .string(id), "token": .string(token),
                  "request": ["transaction": "venta", "usertoken": "POS-SECRET", "identifier": .string(identifier),
                              "amount": "100.00", "urlScheme": "myapp"]])
    }

    /// The POS app's answer for `identifier`, echoing the flow's token.
    func answer(_ result: String, _ amount: String, _ transactionId: String, identifier: String = "ord-1") -> String {
        "myapp://result=" + result + "&amount=" + amount + "&identifier=" + identifier + "~" + token + "&transactionid=" + transactionId
    }

    // MARK: - Issue 30: what real Billpocket integrations send

    func testAnUnknownResultWordEndsTheWaitNeverApprovesAndALaterAnswerResolves() throws {
        try posStart()
        let unknown = coordinator.handle(url: answer("pendiente", "100.00", "720371"), now: t0 + 1_000)
        XCTAssertEqual(unknown.outcome, .accepted)
        XCTAssertEqual(state("p1"), "unrecognized_result")
        XCTAssertEqual(effects(unknown), ["reconcile", "persist"])
        XCTAssertTrue(coordinator.ledger.entries.isEmpty, "an unknown word books nothing")
        XCTAssertEqual(coordinator.handle(url: answer("pendiente", "100.00", "720371"), now: t0 + 1_500).outcome, .duplicate)
        XCTAssertEqual(coordinator.handle(url: answer("otra", "100.00", "720371"), now: t0 + 1_600).outcome, .ignored)
        // A later genuine answer with a known word resolves the flow (and books the sale).
        XCTAssertEqual(coordinator.handle(url: answer("Aprobada", "100.00", "720371"), now: t0 + 2_000).outcome, .accepted)
        XCTAssertEqual(state("p1"), "approved")
        XCTAssertEqual(coordinator.ledger.entries.count, 1)
        XCTAssertEqual(try Coordinator(snapshot: coordinator.snapshot), coordinator)
    }

    func testDeclinadaIsADecline() throws {
        try posStart()
        coordinator.handle(url: answer("DECLINADA", "100.00", "720371"), now: t0 + 1_000)
        XCTAssertEqual(state("p1"), "declined")
    }

    func testNoDataBackIsUnknownAtOnceAndALateAnswerStillResolves() throws {
        try posStart()
        try send(["type": "pos.launched", "now": .integer(t0 + 500), "flow_id": "p1"])
        let none = try send(["type": "pos.result", "now": .integer(t0 + 30_000), "flow_id": "p1", "extras": [:]])
        XCTAssertEqual(state("p1"), "returned_without_response")
        XCTAssertEqual(effects(none), ["reconcile", "persist"], "unknown, never declined")
        XCTAssertEqual(try send(["type": "pos.result", "now": .integer(t0 + 30_500), "flow_id": "p1"]).outcome, .duplicate)
        XCTAssertEqual(coordinator.handle(url: answer("aprobada", "100.00", "720371"), now: t0 + 40_000).outcome, .accepted)
        XCTAssertEqual(state("p1"), "approved")
    }

    func testAnEchoedPinNeverReachesTheSnapshotOrTheAnswer() throws {
        try posStart()
        let answered = try send(["type": "pos.result", "now": .integer(t0 + 1_000), "flow_id": "p1",
                                 "extras": ["result": "Aprobada", "amount": "100.00", "identifier": .string("ord-1~" + token),
                                            "transactionid": "9931", "PIN": "0427", "userToken": "POS-SECRET"]])
        XCTAssertEqual(state("p1"), "approved")
        for text in ["\(coordinator.snapshot)", "\(answered.json)"] {
            XCTAssertFalse(text.contains("0427") || text.contains("POS-SECRET"), text)
        }
    }

    func testPOSSaleApprovedAndDuplicateAnswerIgnored() throws {
        let start = try posStart()
        XCTAssertEqual(effects(start), ["open_pos_app", "persist"])
        XCTAssertFalse("\(coordinator.snapshot)".contains("POS-SECRET"), "the user token is never in a snapshot")
        try send(["type": "pos.launched", "now": .integer(t0 + 500), "flow_id": "p1"])
        let url = answer("aprobada", "100.00", "720371") + "&usertoken=POS-SECRET"
        XCTAssertEqual(coordinator.handle(url: url, now: t0 + 30_000).outcome, .accepted)
        XCTAssertEqual(state("p1"), "approved")
        XCTAssertEqual(coordinator.handle(url: url, now: t0 + 30_100).outcome, .duplicate)
        XCTAssertFalse("\(coordinator.snapshot)".contains("POS-SECRET"))
    }

    func testPOSAppMissing() throws {
        try posStart()
        let failed = try send(["type": "pos.launch_failed", "now": .integer(t0 + 100), "flow_id": "p1", "reason": "canOpenURL false"])
        XCTAssertEqual(effects(failed), ["show_hint", "persist"])
        XCTAssertEqual(state("p1"), "launch_failed")
    }

    func testUserReturnsWithoutAnswerIsUnknownNeverDeclined() throws {
        try posStart()
        try send(["type": "pos.launched", "now": .integer(t0 + 100), "flow_id": "p1"])
        try send(["type": "app.foregrounded", "now": .integer(t0 + 20_000)])
        XCTAssertEqual(try send(["type": "tick", "now": .integer(t0 + 21_000)]).transitions.count, 0, "still within the grace period")
        let late = try send(["type": "tick", "now": .integer(t0 + 23_000)])
        XCTAssertEqual(effects(late), ["reconcile", "persist"])
        XCTAssertEqual(state("p1"), "returned_without_response")
        coordinator.handle(url: answer("aprobada", "100.00", "720371"), now: t0 + 60_000)
        XCTAssertEqual(state("p1"), "approved", "a late answer still resolves the flow")
    }

    func testApprovedForAnotherAmountIsFlagged() throws {
        try posStart()
        let mismatch = coordinator.handle(url: answer("aprobada", "10.00", "1"), now: t0 + 1_000)
        XCTAssertEqual(state("p1"), "approved_amount_mismatch")
        XCTAssertEqual(effects(mismatch), ["reconcile", "persist"])
    }

    func testAnApprovalOfZeroBooksNothingRefundableAndTheSnapshotRestores() throws {
        // Found by FuzzCoordinator: the ledger booked the 0.00 the answer approved (the smaller
        // of requested and answered), and restore refused that entry.
        try posStart()
        coordinator.handle(url: answer("aprobada", "0.00", "720371"), now: t0 + 1_000)
        XCTAssertEqual(state("p1"), "approved_amount_mismatch")
        let restored = try Coordinator(snapshot: coordinator.snapshot)
        XCTAssertEqual(restored, coordinator)
        let refund = try send(["type": "pos.start", "now": .integer(t0 + 120_000), "flow_id": "r1", "sale_flow_id": "p1",
                               "request": ["transaction": "devolucion", "usertoken": "t", "identifier": "r1",
                                           "urlScheme": "myapp", "transactionId": "720371", "amount": "1.00"]])
        XCTAssertEqual(refund.outcome, .rejected, "nothing of a 0.00 sale can be refunded")
        XCTAssertEqual(refund.error?.code, .invalidState)
        XCTAssertTrue(refund.error?.message.contains("fully refunded") ?? false, refund.error?.message ?? "")
    }

    func testRefundOfYesterdaysSaleIsRefusedWithReasons() throws {
        let refund = try send(["type": "pos.start", "now": .integer(t0), "flow_id": "r1",
                               "request": ["transaction": "devolucion", "usertoken": "t", "identifier": "ref-1",
                                           "urlScheme": "myapp", "transactionId": "720371"],
                               "sale": ["transactionid": "720371", "amount": "100.00",
                                        "approved_at": .integer(t0 / 1000 - 86_400)]])
        XCTAssertEqual(refund.outcome, .rejected)
        XCTAssertEqual(refund.error?.code, .notEligible)
        XCTAssertTrue(refund.error?.message.contains("past_deadline") ?? false, refund.error?.message ?? "")
        XCTAssertTrue(refund.error?.message.contains("2026-11-29T23:00:00-06:00") ?? false)
        XCTAssertNil(coordinator.flow(id: "r1"))
    }

    func testRefundOfASaleFlowOnlyOnceFully() throws {
        try posStart()
        coordinator.handle(url: answer("aprobada", "100.00", "720371"), now: t0)
        func refund(_ id: String, amount: JSONValue?, at time: Int64) throws -> CoordinatorAnswer {
            var request: JSONObject = ["transaction": "devolucion", "usertoken": "t", "identifier": .string(id),
                                       "urlScheme": "myapp", "transactionId": "720371"]
            if let amount { request["amount"] = amount }
            return try send(["type": "pos.start", "now": .integer(time), "flow_id": .string(id), "sale_flow_id": "p1",
                             "token": .string(token), "request": .object(request)])
        }
        XCTAssertEqual(try refund("r0", amount: "60.00", at: t0 + 59_999).error?.code, .notEligible, "59.999 s is less than a minute")
        XCTAssertEqual(try refund("r1", amount: "60.00", at: t0 + 60_000).outcome, .accepted)
        XCTAssertEqual(try refund("r1b", amount: "10.00", at: t0 + 60_000).error?.code, .invalidState, "one pending refund per sale")
        coordinator.handle(url: answer("aprobada", "60.00", "9001", identifier: "r1"), now: t0 + 70_000)
        XCTAssertEqual(coordinator.refundedAmount(transactionId: "720371", now: t0 + 70_000), try Amount(parsing: "60.00"))
        XCTAssertEqual(try refund("r2", amount: "50.00", at: t0 + 80_000).error?.code, .notEligible, "only 40.00 left")
        // Without an amount the refund asks for what is left, and says so in the URL it opens.
        let rest = try refund("r3", amount: nil, at: t0 + 80_000)
        XCTAssertEqual(rest.outcome, .accepted)
        guard case .openPOSApp(let url)? = rest.transitions.first?.effects.first else { return XCTFail("no open_pos_app") }
        XCTAssertTrue(url.contains("&amount=40.00&"), url)
        // The POS app approves 100.00: more than is left. Never booked as a plain approval.
        let over = coordinator.handle(url: answer("aprobada", "100.00", "9002", identifier: "r3"), now: t0 + 90_000)
        XCTAssertEqual(state("r3"), "approved_amount_mismatch")
        XCTAssertEqual(effects(over), ["reconcile", "persist"])
        XCTAssertEqual(coordinator.refundedAmount(transactionId: "720371", now: t0 + 90_000), try Amount(parsing: "100.00"),
                       "never more than the sale")
        let again = try refund("r4", amount: "1.00", at: t0 + 100_000)
        XCTAssertEqual(again.error?.code, .invalidState)
        XCTAssertEqual(again.error?.message, "the sale is already fully refunded")
    }

    func testAMismatchedSaleRefundsOnlyWhatWasRequested() throws {
        try posStart()
        coordinator.handle(url: answer("aprobada", "1000.00", "720371"), now: t0)
        XCTAssertEqual(state("p1"), "approved_amount_mismatch")
        let refund = try send(["type": "pos.start", "now": .integer(t0 + 60_000), "flow_id": "r1", "sale_flow_id": "p1",
                               "request": ["transaction": "devolucion", "usertoken": "t", "identifier": "r1",
                                           "urlScheme": "myapp", "transactionId": "720371", "amount": "900.00"]])
        XCTAssertEqual(refund.error?.code, .notEligible, "min(100.00 requested, 1000.00 answered) is refundable")
        XCTAssertTrue(refund.error?.message.contains("amount_exceeds_original") ?? false)
    }

    func testAReplayedApprovalNeverApprovesAnotherFlow() throws {
        try posStart()
        let genuine = answer("aprobada", "100.00", "720371")
        coordinator.handle(url: genuine, now: t0 + 1_000)
        try send(["type": "flow.remove", "now": .integer(t0 + 2_000), "flow_id": "p1"])
        // A second sale with the same order reference and — the host's choice here — the same
        // token: refused, its key is remembered from p1 (issue 35), so the replay reaches nothing.
        XCTAssertEqual(try posStart("p2").error?.code, .conflict)
        XCTAssertEqual(coordinator.handle(url: genuine, now: t0 + 3_000).outcome, .notOurs)
        // With another order reference the token is another key; p1's replayed approval still books nothing.
        XCTAssertEqual(try posStart("p2", identifier: "ord-2").outcome, .accepted)
        let replay = coordinator.handle(url: answer("aprobada", "100.00", "720371", identifier: "ord-2"), now: t0 + 3_000)
        XCTAssertEqual(replay.outcome, .rejected, "the transactionid is booked by p1")
        XCTAssertEqual(replay.error?.code, .duplicate)
        XCTAssertEqual(replay.error?.field, "transactionid")
        XCTAssertEqual(state("p2"), "ready")
    }

    func testPendingFlowsAreRemovedOnlyWhenGivenUp() throws {
        try posStart()
        let refused = try send(["type": "flow.remove", "now": .integer(t0 + 1_000), "flow_id": "p1"])
        XCTAssertEqual(refused.error?.code, .invalidState)
        XCTAssertEqual(state("p1"), "ready")
        XCTAssertEqual(try send(["type": "flow.remove", "now": .integer(t0 + 1_000), "flow_id": "p1", "give_up": true]).outcome, .accepted)
        XCTAssertNil(coordinator.flow(id: "p1"))
    }
}
