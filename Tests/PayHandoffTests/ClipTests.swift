@testable import PayHandoff
import PayHandoffFoundation
import XCTest

/// Clip on its terminal (ClipMX/mobile.android.blaze.pinpad.sdk: SystemClipIntentProvider.kt,
/// ActivityClipResultManager.kt, PaymentResult.kt): the documented sale round trip and the
/// guarantees every terminal app keeps. `PAYMENT_RESPONSE` is JSON text inside an extra, read
/// through the coordinator's codec (FoundationJSONText here; the C ABI's is cJSON).
final class ClipTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000
    let token = "00112233445566778899aabbccddeeff"
    var coordinator: Coordinator = {
        var coordinator = Coordinator()
        coordinator.jsonText = FoundationJSONText()
        return coordinator
    }()
    var random = SplitMix64(seed: 5)

    @discardableResult
    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    @discardableResult
    func start(_ id: String = "k1", amount: String = "100.00", token: String? = nil) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(t0), "flow_id": .string(id), "token": .string(token ?? self.token),
                  "request": ["pos_app": "clip", "identifier": "ord-1", "amount": .string(amount), "tip": "10.00", "auto_return": true]])
    }

    /// `pos.result` with Clip's extras: `PAYMENT_RESPONSE` as the SDK's Gson writes it, and `PAYMENT_ERROR`.
    @discardableResult
    func result(_ id: String = "k1", reference: String?, status: String, amount: String = "100.0", receipt: String? = "R-77",
                error: String? = nil, at offset: Int64 = 30_000) throws -> CoordinatorAnswer {
        var fields: [String] = []
        if let reference { fields.append("\"reference\":\"\(reference)\"") }
        fields.append("\"status\":\"\(status)\"")
        fields.append("\"amount\":\"\(amount)\"")
        if let receipt { fields.append("\"receiptNumber\":\"\(receipt)\"") }
        fields.append("\"wasSessionReplaced\":false")
        var extras: JSONObject = ["PAYMENT_RESPONSE": .string("{" + fields.joined(separator: ",") + "}")]
        if let error { extras["PAYMENT_ERROR"] = .string(error) }
        return try send(["type": "pos.result", "now": .integer(t0 + offset), "flow_id": .string(id), "extras": .object(extras)])
    }

    func state(_ id: String = "k1") -> String? { coordinator.flow(id: id)?.stateName }

    func testBuildWritesTheExplicitIntentWithExactDecimalText() throws {
        let built = try POSRequest.buildResultJSON(json: [
            "pos_app": "clip", "identifier": "ord-1", "amount": "10000000.00", "tip": "15.50", "auto_return": true, "retry": false,
            "token": .string(token)], using: &random)
        XCTAssertEqual(built.value(at: "pos_app"), "clip")
        XCTAssertNil(built.value(at: "url"), "Clip has no URL")
        XCTAssertEqual(built.value(at: "intent"), [
            "action": "android.intent.action.MAIN",
            "component": "com.payclip.blaze.pinpad/com.payclip.blaze.pinpad.shared.ui.MainActivity",
            "extras": [
                ["key": "PAYMENT_REFERENCE", "value": .string("ord-1~" + token)],
                ["key": "PAYMENT_AMOUNT", "value": "10000000.00"],  // never 1.0E7
                ["key": "PAYMENT_TIP_AMOUNT", "value": "15.50"],
                ["key": "PAYMENT_AUTO_RETURN", "type": "bool", "value": true],
                ["key": "PAYMENT_RETRY", "type": "bool", "value": false],
            ],
        ])
    }

    func testRequestRules() throws {
        func error(_ json: JSONValue) -> PayHandoffError? {
            do { _ = try POSRequest(json: json); return nil } catch { return error }
        }
        XCTAssertNil(error(["pos_app": "clip", "identifier": "o", "amount": "9999999999999.99"]), "15 significant digits")
        XCTAssertEqual(error(["pos_app": "clip", "identifier": "o", "amount": "10000000000000.00"])?.field, "amount",
                       "a Java double cannot carry 16 digits to the cent")
        XCTAssertEqual(error(["pos_app": "clip", "identifier": "o", "amount": "1.00", "currency": "USD"])?.field, "currency")
        XCTAssertNil(error(["pos_app": "clip", "identifier": "o", "amount": "1.00", "currency": "MXN"]))
        XCTAssertEqual(error(["pos_app": "clip", "identifier": "o", "amount": "1.00", "component": "nopackage"])?.field, "component")
        XCTAssertNil(error(["pos_app": "clip", "identifier": "o", "amount": "1.00", "component": "com.payclip.blaze.pinpad.qa/com.payclip.blaze.pinpad.shared.ui.MainActivity"]))
        XCTAssertEqual(error(["pos_app": "clip", "identifier": "o", "amount": "1.00", "transaction": "devolucion"])?.field, "transaction")
        XCTAssertEqual(error(["pos_app": "clip", "identifier": "o", "amount": "1.00", "CLIP_LOGIN_CREDENTIALS": "x"])?.field,
                       "CLIP_LOGIN_CREDENTIALS", "the Parcelable login is the host's to add, never PayHandoff's")
        XCTAssertEqual(error(["pos_app": "mercadopago", "identifier": "o", "amount": "1.00"])?.field, "pos_app")
    }

    func testDocumentedSaleRoundTripApprovesOnceAndBooksNothing() throws {
        let started = try start()
        let effect = try XCTUnwrap(started.transitions.first?.effects.first).json
        XCTAssertEqual(effect.value(at: "pos_app"), "clip")
        XCTAssertNil(effect.value(at: "url"))
        XCTAssertEqual(effect.value(at: "intent.component"), .string(ClipRequest.defaultComponent))
        try send(["type": "pos.launched", "now": .integer(t0 + 1_000), "flow_id": "k1"])
        let approved = try result(reference: "ord-1~" + token, status: "approved")
        XCTAssertEqual(approved.outcome, .accepted, approved.error?.message ?? "")
        XCTAssertEqual(state(), "approved")
        let response = try XCTUnwrap(details(approved)?.value(at: "response"))
        XCTAssertEqual(response.value(at: "pos_app"), "clip")
        XCTAssertEqual(response.value(at: "amount"), "100.00")
        XCTAssertEqual(response.value(at: "transactionid"), "R-77")
        XCTAssertEqual(try result(reference: "ord-1~" + token, status: "approved", at: 31_000).outcome, .duplicate)
        XCTAssertTrue(coordinator.ledger.entries.isEmpty, "only Billpocket approvals are booked")
        let check = try RefundEligibility.check(json: ["sale": ["pos_app": "clip", "transactionid": "R-77", "amount": "100.00",
                                                                "approved_at": .integer(t0 / 1000)], "now": .integer(t0 / 1000 + 120)])
        XCTAssertFalse(check.isEligible)
        XCTAssertEqual(check.reasons, [.clipServerRefund])
    }

    func testExponentAmountsAreReadExactly() throws {
        try start(amount: "10000000.00")
        XCTAssertEqual(try result(reference: "ord-1~" + token, status: "approved", amount: "1.0E7").outcome, .accepted)
        XCTAssertEqual(state(), "approved", "Double.toString(1.0E7) is 10,000,000.00 exactly")
        try start("k2", token: "0f" + String(token.dropFirst(2)))
        XCTAssertEqual(try result("k2", reference: "ord-1~0f" + String(token.dropFirst(2)), status: "approved", amount: "100.5").outcome, .accepted)
        XCTAssertEqual(state("k2"), "approved_amount_mismatch", "another amount is never silently approved")
        try start("k3", token: "1f" + String(token.dropFirst(2)))
        XCTAssertEqual(try result("k3", reference: "ord-1~1f" + String(token.dropFirst(2)), status: "approved",
                                  amount: "100.00000000000001").outcome, .accepted)
        XCTAssertEqual(state("k3"), "unrecognized_result", "an amount that is not whole cents: reconcile")
    }

    func testErrorsCancelledAndUnknown() throws {
        let cases: [(String, String?, String)] = [
            ("error", "CANCELLED", "cancelled"),
            ("error", "NO_CONNECTION", "error"),
            ("error", "UNKNOWN_ERROR", "unrecognized_result"),
            ("error", nil, "unrecognized_result"),
            ("APPROVED", nil, "unrecognized_result"),  // the README's spelling; the SDK counts only lowercase
            ("PENDING", nil, "unrecognized_result"),
            ("approved", "TERMINAL_ERROR", "unrecognized_result"),
        ]
        for (index, (status, code, expected)) in cases.enumerated() {
            let token = String(format: "%032x", index + 100)
            let id = "k\(index)"
            try start(id, token: token)
            let answer = try result(id, reference: "ord-1~" + token, status: status, error: code)
            XCTAssertEqual(answer.outcome, .accepted, "\(status) \(code ?? "-")")
            XCTAssertEqual(state(id), expected, "\(status) \(code ?? "-")")
        }
    }

    func testForgedAndReferencelessAnswersChangeNothing() throws {
        try start()
        let before = coordinator
        XCTAssertEqual(try result(reference: "ord-1", status: "approved").error?.code, .callbackMismatch)
        XCTAssertEqual(try result(reference: "ord-1~ffffffffffffffffffffffffffffffff", status: "approved").error?.code, .callbackMismatch)
        XCTAssertEqual(try result(reference: nil, status: "error", error: "CANCELLED").error?.code, .validation)
        let onlyError = try send(["type": "pos.result", "now": .integer(t0 + 1), "flow_id": "k1", "extras": ["PAYMENT_ERROR": "TERMINAL_ERROR"]])
        XCTAssertNotNil(onlyError.error, "a PAYMENT_ERROR without PAYMENT_RESPONSE has no reference: never moves the flow")
        let notJSON = try send(["type": "pos.result", "now": .integer(t0 + 1), "flow_id": "k1", "extras": ["PAYMENT_RESPONSE": "{status: approved"]])
        XCTAssertEqual(notJSON.error?.code, .invalidJSON)
        XCTAssertEqual(coordinator, before)
        // No data at all (extras null): returned without response, reconcile — never declined.
        let noData = try send(["type": "pos.result", "now": .integer(t0 + 2), "flow_id": "k1", "extras": nil])
        XCTAssertEqual(noData.outcome, .accepted)
        XCTAssertEqual(state(), "returned_without_response")
        // A late genuine answer still resolves it.
        XCTAssertEqual(try result(reference: "ord-1~" + token, status: "approved").outcome, .accepted)
        XCTAssertEqual(state(), "approved")
    }

    func testWithoutACodecTheAnswerIsRefusedNotSkipped() throws {
        var bare = Coordinator()
        _ = bare.send(try CoordinatorEvent(json: ["type": "pos.start", "now": .integer(t0), "flow_id": "k1", "token": .string(token),
                                                  "request": ["pos_app": "clip", "identifier": "ord-1", "amount": "1.00"]]), using: &random)
        let answer = bare.send(try CoordinatorEvent(json: ["type": "pos.result", "now": .integer(t0 + 1), "flow_id": "k1",
                                                          "extras": ["PAYMENT_RESPONSE": "{}"]]), using: &random)
        XCTAssertEqual(answer.error?.code, .invalidArgument)
        XCTAssertEqual(bare.flow(id: "k1")?.stateName, "ready")
    }

    func testProcessDeathInTheMiddleRestores() throws {
        try start()
        try send(["type": "pos.launched", "now": .integer(t0 + 1_000), "flow_id": "k1"])
        let document = try XCTUnwrap(coordinator.flowDocument("k1"))
        XCTAssertEqual(document.value(at: "pos_app"), "clip")
        XCTAssertNil(document.value(at: "answer_scheme"), "Clip answers by intent only")
        var restored = try Coordinator(snapshot: coordinator.snapshot)
        XCTAssertEqual(restored, coordinator)
        restored.jsonText = FoundationJSONText()
        coordinator = restored
        XCTAssertEqual(try result(reference: "ord-1~" + token, status: "error", error: "CANCELLED").outcome, .accepted)
        XCTAssertEqual(state(), "cancelled")
        let again = try Coordinator(snapshot: coordinator.snapshot)
        XCTAssertEqual(again, coordinator, "a cancelled Clip flow reads back")
        XCTAssertEqual(try result(reference: "ord-1~" + token, status: "error", error: "CANCELLED", at: 40_000).outcome, .duplicate)
    }

    func testTypedRequestIsTheJSONOne() throws {
        let typed = try POSRequest.clip(identifier: "ord-1", amount: try Amount(parsing: "100.00"), tip: try Amount(parsing: "10.00"),
                                        autoReturn: true)
        XCTAssertEqual(typed, try POSRequest(json: ["pos_app": "clip", "identifier": "ord-1", "amount": "100.00", "tip": "10.00",
                                                     "auto_return": true]))
        XCTAssertEqual(typed.intent.component, ClipRequest.defaultComponent)
        XCTAssertThrowsError(try POSRequest.clip(identifier: "o", amount: try Amount(parsing: "1.00"), component: "x"))
    }

    func testClipAmountText() {
        XCTAssertEqual(ClipAmount.minorUnits("100.0"), 10_000)
        XCTAssertEqual(ClipAmount.minorUnits("1.0E7"), 1_000_000_000)
        XCTAssertEqual(ClipAmount.minorUnits("1.2345E3"), 123_450)
        XCTAssertEqual(ClipAmount.minorUnits("0.05"), 5)
        XCTAssertEqual(ClipAmount.minorUnits("1.5E-1"), 15)
        XCTAssertNil(ClipAmount.minorUnits("0.30000000000000004"))
        XCTAssertNil(ClipAmount.minorUnits("1.0E-3"))
        XCTAssertNil(ClipAmount.minorUnits("-1.0"))
        XCTAssertNil(ClipAmount.minorUnits("NaN"))
        XCTAssertNil(ClipAmount.minorUnits("1.0E300"))
        XCTAssertNil(ClipAmount.minorUnits(""))
    }
}
