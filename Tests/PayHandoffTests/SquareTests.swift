import PayHandoff
import PayHandoffFoundation
import XCTest

/// Square Point of Sale (square/SquarePointOfSaleSDK-iOS SCCAPIRequest.m / SCCAPIResponse.m,
/// square/point-of-sale-android-sdk PosApi.java): the documented sale round trip on both
/// platforms and the guarantees every terminal app keeps. The iOS request and answer are JSON text
/// in `data=`, printed and read by the coordinator's codec (FoundationJSONText here).
final class SquareTests: XCTestCase {
    let t0: Int64 = 1_796_054_400_000
    let token = "abcdefabcdefabcdefabcdefabcdef01"
    var coordinator: Coordinator = {
        var coordinator = Coordinator()
        coordinator.jsonText = FoundationJSONText()
        return coordinator
    }()
    var random = SplitMix64(seed: 3)
    let codec = FoundationJSONText()

    var request: JSONValue {
        ["pos_app": "square", "client_id": "sq0idp-PUBLICAPPID", "identifier": "ord-1", "amount": "100.00", "currency": "USD",
         "callback_url": "myapp://square-callback", "notes": "Two coffees", "tender_types": ["card", "cash"], "auto_return_ms": 3200]
    }

    @discardableResult
    func send(_ json: JSONValue) throws -> CoordinatorAnswer {
        coordinator.send(try CoordinatorEvent(json: json), using: &random)
    }

    @discardableResult
    func start(_ id: String = "q1", token: String? = nil) throws -> CoordinatorAnswer {
        try send(["type": "pos.start", "now": .integer(t0), "flow_id": .string(id), "token": .string(token ?? self.token), "request": request])
    }

    /// The iOS answer: the callback (with the SDK's `square_request` segment) and `data=` JSON.
    func iOSAnswer(_ data: String) -> String {
        "myapp://square-callback/square_request?data=" + QueryEncoder.percentEncode(data)
    }

    func state(_ id: String = "q1") -> String? { coordinator.flow(id: id)?.stateName }

    /// The JSON document in a request URL's `data=`.
    func requestData(_ url: String) throws -> JSONValue {
        let prefix = "square-commerce-v1://payment/create?"
        XCTAssertTrue(url.hasPrefix(prefix), url)
        let items = try QueryDecoder.decode(Substring(url.dropFirst(prefix.count)), plus: .literal, caseInsensitiveKeys: false)
        XCTAssertEqual(items.map(\.key), ["data"])
        return try codec.parse(items[0].value, field: "data")
    }

    func testBuildWritesTheiOSJSONAndTheTypedAndroidIntent() throws {
        guard case .object(var object) = request else { return }
        object["token"] = .string(token)
        let built = try POSRequest.buildResultJSON(json: .object(object), using: &random, jsonText: codec)
        XCTAssertEqual(built.value(at: "pos_app"), "square")
        let data = try requestData(try built.string(at: "url"))
        XCTAssertEqual(data.value(at: "amount_money.amount"), .integer(10_000), "integer minor units")
        XCTAssertEqual(data.value(at: "amount_money.currency_code"), "USD")
        XCTAssertEqual(data.value(at: "state"), .string("ord-1~" + token))
        XCTAssertEqual(data.value(at: "client_id"), "sq0idp-PUBLICAPPID")
        XCTAssertEqual(data.value(at: "callback_url"), "myapp://square-callback")
        XCTAssertEqual(data.value(at: "version"), "1.3")
        XCTAssertEqual(data.value(at: "notes"), "Two coffees")
        XCTAssertEqual(data.value(at: "options.supported_tender_types"), ["CREDIT_CARD", "CASH"])
        XCTAssertEqual(data.value(at: "options.auto_return"), true)
        XCTAssertEqual(try built.string(at: "intent.action"), "com.squareup.pos.action.CHARGE")
        XCTAssertEqual(try built.string(at: "intent.package"), "com.squareup")
        guard case .array(let extras)? = built.value(at: "intent.extras") else { return XCTFail("no extras") }
        func extra(_ name: String) -> JSONValue? { extras.first { $0.value(at: "key") == .string("com.squareup.pos." + name) } }
        XCTAssertEqual(extra("TOTAL_AMOUNT"), ["key": "com.squareup.pos.TOTAL_AMOUNT", "type": "int", "value": 10_000])
        XCTAssertEqual(extra("TENDER_TYPES"), ["key": "com.squareup.pos.TENDER_TYPES", "type": "string_array",
                                               "value": ["com.squareup.pos.TENDER_CARD", "com.squareup.pos.TENDER_CASH"]])
        XCTAssertEqual(extra("AUTO_RETURN_TIMEOUT_MS"), ["key": "com.squareup.pos.AUTO_RETURN_TIMEOUT_MS", "type": "long", "value": 3200])
        XCTAssertEqual(extra("REQUEST_METADATA")?.value(at: "value"), .string("ord-1~" + token))
        XCTAssertEqual(extra("API_VERSION")?.value(at: "value"), "v2.0")
        // Without a codec the Swift API refuses rather than writing a URL by hand.
        XCTAssertThrowsError(try POSRequest.buildResultJSON(json: .object(object), using: &random))
    }

    func testRequestRules() throws {
        func error(_ change: (inout JSONObject) -> Void) -> PayHandoffError? {
            guard case .object(var object) = request else { return nil }
            change(&object)
            do { _ = try POSRequest(json: .object(object)); return nil } catch { return error }
        }
        XCTAssertNil(error { _ in })
        XCTAssertEqual(error { $0["amount"] = "21474836.48" }?.field, "amount", "TOTAL_AMOUNT is an int")
        XCTAssertNil(error { $0["amount"] = "21474836.47" })
        XCTAssertEqual(error { $0["currency"] = "KWD" }?.field, "currency", "three-decimal currencies are refused")
        XCTAssertEqual(error { $0["tender_types"] = ["card", "gift"] }?.field, "tender_types")
        XCTAssertEqual(error { $0["tender_types"] = ["card", "card"] }?.field, "tender_types")
        XCTAssertEqual(error { $0["auto_return_ms"] = 3000 }?.field, "auto_return_ms")
        XCTAssertNil(error { $0["auto_return_ms"] = 0 })
        XCTAssertEqual(error { $0["notes"] = .string(String(repeating: "n", count: 501)) }?.field, "notes")
        XCTAssertEqual(error { $0["client_id"] = nil }?.field, "client_id")
    }

    func testiOSRoundTripApprovesOnceAndBooksNothing() throws {
        let started = try start()
        let effect = try XCTUnwrap(started.transitions.first?.effects.first).json
        XCTAssertEqual(effect.value(at: "pos_app"), "square")
        XCTAssertEqual(try requestData(try effect.string(at: "url")).value(at: "state"), .string("ord-1~" + token))
        let url = iOSAnswer(#"{"status":"ok","transaction_id":"sq-T-1","client_transaction_id":"c-1","state":"ord-1~"# + token + #""}"#)
        let approved = coordinator.handle(url: url, now: t0 + 60_000)
        XCTAssertEqual(approved.outcome, .accepted, approved.error?.message ?? "")
        XCTAssertEqual(state(), "approved")
        XCTAssertEqual(details(approved)?.value(at: "response.transactionid"), "sq-T-1")
        XCTAssertEqual(details(approved)?.value(at: "response.pos_app"), "square")
        XCTAssertEqual(coordinator.handle(url: url, now: t0 + 61_000).outcome, .duplicate)
        XCTAssertTrue(coordinator.ledger.entries.isEmpty)
    }

    func testAndroidRoundTripAndOutcomes() throws {
        let cases: [(JSONObject, String)] = [
            (["com.squareup.pos.SERVER_TRANSACTION_ID": "S-1", "com.squareup.pos.CLIENT_TRANSACTION_ID": "C-1"], "approved"),
            (["com.squareup.pos.CLIENT_TRANSACTION_ID": "C-1"], "approved"),
            ([:], "unrecognized_result"),  // OK without any id (point-of-sale-android-sdk #69): reconcile
            (["com.squareup.pos.ERROR_CODE": "com.squareup.pos.ERROR_TRANSACTION_CANCELED"], "cancelled"),
            (["com.squareup.pos.ERROR_CODE": "com.squareup.pos.ERROR_USER_NOT_LOGGED_IN", "com.squareup.pos.ERROR_DESCRIPTION": "x"], "error"),
            (["com.squareup.pos.ERROR_CODE": "com.squareup.pos.UNSUPPORTED_API_VERSION"], "error"),
            (["com.squareup.pos.ERROR_CODE": "com.squareup.pos.ERROR_NO_RESULT"], "unrecognized_result"),
            (["com.squareup.pos.ERROR_CODE": "com.squareup.pos.ERROR_SOMETHING_NEW"], "unrecognized_result"),
        ]
        for (index, (extras, expected)) in cases.enumerated() {
            let token = String(format: "%032x", index + 7)
            let id = "q\(index)"
            try start(id, token: token)
            var all = extras
            all["com.squareup.pos.REQUEST_METADATA"] = .string("ord-1~" + token)
            let answer = try send(["type": "pos.result", "now": .integer(t0 + 20_000), "flow_id": .string(id), "extras": .object(all)])
            XCTAssertEqual(answer.outcome, .accepted, "\(extras)")
            XCTAssertEqual(state(id), expected, "\(extras)")
        }
        XCTAssertEqual(coordinator.flowDocument("q0")?.value(at: "response.transactionid"), "S-1")
    }

    func testNoDataAndForgedAnswersNeverDecline() throws {
        try start()
        let before = coordinator
        XCTAssertEqual(coordinator.handle(url: iOSAnswer(#"{"status":"ok","transaction_id":"T","state":"ord-1"}"#), now: t0 + 1).error?.code,
                       .callbackMismatch)
        XCTAssertEqual(coordinator.handle(url: iOSAnswer(#"{"status":"ok","transaction_id":"T"}"#), now: t0 + 1).error?.code, .validation)
        XCTAssertEqual(coordinator.handle(url: "myapp://square-callback?data=%7Bnot", now: t0 + 1).error?.code, .invalidJSON)
        let forged = try send(["type": "pos.result", "now": .integer(t0 + 1), "flow_id": "q1",
                               "extras": ["com.squareup.pos.SERVER_TRANSACTION_ID": "S", "com.squareup.pos.REQUEST_METADATA": "ord-1"]])
        XCTAssertEqual(forged.error?.code, .callbackMismatch)
        XCTAssertEqual(coordinator, before)
        // ERROR_NO_RESULT without the echo, as PosApi documents it: no data, reconcile.
        let noResult = try send(["type": "pos.result", "now": .integer(t0 + 2), "flow_id": "q1",
                                 "extras": ["com.squareup.pos.ERROR_CODE": "com.squareup.pos.ERROR_NO_RESULT"]])
        XCTAssertEqual(noResult.outcome, .accepted)
        XCTAssertEqual(state(), "returned_without_response")
        try start("q2", token: "22222222222222222222222222222222")
        XCTAssertEqual(try send(["type": "pos.result", "now": .integer(t0 + 3), "flow_id": "q2", "extras": nil]).outcome, .accepted)
        XCTAssertEqual(state("q2"), "returned_without_response", "the app crashed or was uninstalled: never declined")
    }

    func testProcessDeathInTheMiddleRestores() throws {
        try start()
        try send(["type": "pos.launched", "now": .integer(t0 + 1_000), "flow_id": "q1"])
        var restored = try Coordinator(snapshot: coordinator.snapshot)
        XCTAssertEqual(restored, coordinator)
        restored.jsonText = FoundationJSONText()
        let url = iOSAnswer(#"{"status":"error","error_code":"payment_canceled","state":"ord-1~"# + token + #""}"#)
        XCTAssertEqual(restored.handle(url: url, now: t0 + 9_000).outcome, .accepted)
        XCTAssertEqual(restored.flow(id: "q1")?.stateName, "cancelled")
        XCTAssertEqual(try Coordinator(snapshot: restored.snapshot), restored)
        XCTAssertEqual(restored.handle(url: url, now: t0 + 9_500).outcome, .duplicate)
    }

    func testTypedRequestIsTheJSONOne() throws {
        let typed = try POSRequest.square(clientID: "sq0idp-PUBLICAPPID", identifier: "ord-1", amount: try Amount(parsing: "100.00"),
                                          currency: "USD", callbackURL: "myapp://square-callback", notes: "Two coffees",
                                          tenderTypes: ["card", "cash"], autoReturnMilliseconds: 3200)
        XCTAssertEqual(typed, try POSRequest(json: request))
        XCTAssertEqual(try typed.handoffURL(jsonText: codec).map { try requestData($0).value(at: "amount_money.amount") }, .integer(10_000))
        XCTAssertNil(try POSRequest.clip(identifier: "o", amount: try Amount(parsing: "1.00")).handoffURL(jsonText: codec), "Clip has no URL")
    }

    func testClientIDIsPublicAndShown() throws {
        let built = try POSRequest(json: request)
        XCTAssertTrue(built.description.contains("sq0idp-PUBLICAPPID"), "Square's application id ships in every app: not a secret")
    }
}
