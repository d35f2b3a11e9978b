import Foundation
import PayHandoff
import PayHandoffABI
import XCTest

/// The other terminal apps through the C ABI: the same functions serve every `pos_app`, and JSON
/// text inside an answer (Clip's `PAYMENT_RESPONSE`) is read by cJSON (JSONText.codec), the
/// coordinator handles' codec too. The shared vectors of each app are issue 39's vector work.
final class POSAppsABITests: XCTestCase {
    let token = "00112233445566778899aabbccddeeff"

    func object(_ text: String) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]) ?? [:]
    }

    func testClipResultIsReadThroughCJSON() {
        let extras = #"{"PAYMENT_RESPONSE":"{\"reference\":\"ord-1~00112233445566778899aabbccddeeff\",\"status\":\"approved\",\"amount\":\"1.0E7\",\"receiptNumber\":\"R-1\"}"}"#
        let options = #"{"pos_app":"clip","identifier":"ord-1","token":"00112233445566778899aabbccddeeff"}"#
        let r = call { payhandoff_pos_parse_result(extras, options, $0) }
        XCTAssertEqual(r.status, 0, r.text)
        let answer = object(r.text)
        XCTAssertEqual(answer["pos_app"] as? String, "clip")
        XCTAssertEqual(answer["result"] as? String, "approved")
        XCTAssertEqual(answer["amount"] as? String, "10000000.00")
        XCTAssertEqual(answer["transactionid"] as? String, "R-1")
        // A fraction in the JSON text is refused by cJSON's integer-only rule, naming where it was.
        let fraction = #"{"PAYMENT_RESPONSE":"{\"reference\":\"ord-1\",\"status\":\"approved\",\"amount\":100.5}"}"#
        let refused = call { payhandoff_pos_parse_result(fraction, #"{"pos_app":"clip"}"#, $0) }
        XCTAssertEqual(errorOf(refused.text).code, "invalid_json")
        // Billpocket's documents are what they were: no pos_app in an answer, but in a build answer.
        let billpocket = call { payhandoff_pos_parse_result(#"{"result":"aprobada","identifier":"o","amount":"1.00"}"#, "{}", $0) }
        XCTAssertNil(object(billpocket.text)["pos_app"])
        let built = call { payhandoff_pos_build_url(#"{"transaction":"venta","usertoken":"t","identifier":"o","amount":"1.00","urlScheme":"myapp"}"#, $0) }
        XCTAssertEqual(object(built.text)["pos_app"] as? String, "billpocket")
    }

    func testSumUpAnswerAndCoordinatorHandle() {
        let options = #"{"pos_app":"sumup","callback_url":"myapp://sumup-result","identifier":"ord-1","token":"00112233445566778899aabbccddeeff"}"#
        let url = "myapp://sumup-result?smp-status=failed&smp-failure-cause=transaction-failed&smp-tx-code=TX1&foreign-tx-id=ord-1~" + token
        let r = call { payhandoff_pos_parse_response(url, options, $0) }
        XCTAssertEqual(r.status, 0, r.text)
        XCTAssertEqual(object(r.text)["result"] as? String, "declined")
        XCTAssertEqual(errorOf(call { payhandoff_pos_parse_response("myapp://sumup-result?smp-status=success&foreign-tx-id=ord-1", options, $0) }.text).code,
                       "callback_mismatch")

        // A coordinator handle reads Clip's JSON text through cJSON.
        var handle: OpaquePointer?
        XCTAssertEqual(call { payhandoff_coordinator_new(nil, &handle, $0) }.status, 0)
        defer { payhandoff_coordinator_free(handle) }
        let start = #"{"type":"pos.start","flow_id":"k1","now":1796054400000,"token":"00112233445566778899aabbccddeeff","request":{"pos_app":"clip","identifier":"ord-1","amount":"100.00"}}"#
        XCTAssertEqual(call { payhandoff_coordinator_send(handle, start, $0) }.status, 0)
        let result = #"{"type":"pos.result","flow_id":"k1","now":1796054430000,"extras":{"PAYMENT_RESPONSE":"{\"reference\":\"ord-1~00112233445566778899aabbccddeeff\",\"status\":\"error\",\"amount\":\"100.0\"}","PAYMENT_ERROR":"CANCELLED"}}"#
        let answer = call { payhandoff_coordinator_send(handle, result, $0) }
        XCTAssertEqual(object(answer.text)["outcome"] as? String, "accepted", answer.text)
        let transitions = object(answer.text)["transitions"] as? [[String: Any]]
        XCTAssertEqual(transitions?.first?["state"] as? String, "cancelled")
    }

    func testSquareRequestJSONIsPrintedByCJSON() throws {
        let request = #"{"pos_app":"square","client_id":"sq0idp-X","identifier":"ord-1","amount":"100.00","currency":"USD","callback_url":"myapp://sq","token":"00112233445566778899aabbccddeeff"}"#
        let r = call { payhandoff_pos_build_url(request, $0) }
        XCTAssertEqual(r.status, 0, r.text)
        let url = try XCTUnwrap(object(r.text)["url"] as? String)
        let data = try XCTUnwrap(URLComponents(string: url)?.queryItems?.first { $0.name == "data" }?.value)
        let json = object(data)
        XCTAssertEqual((json["amount_money"] as? [String: Any])?["amount"] as? Int, 10_000)
        XCTAssertEqual(json["state"] as? String, "ord-1~" + token)
        XCTAssertEqual(json["callback_url"] as? String, "myapp://sq")
        let extras = (object(r.text)["intent"] as? [String: Any])?["extras"] as? [[String: Any]]
        let total = extras?.first { $0["key"] as? String == "com.squareup.pos.TOTAL_AMOUNT" }
        XCTAssertEqual(total?["type"] as? String, "int")
        XCTAssertEqual(total?["value"] as? Int, 10_000)
        // The answer's data=JSON is read by cJSON too.
        let answer = "myapp://sq/square_request?data=" + #"{"status":"ok","transaction_id":"T1","state":"ord-1~00112233445566778899aabbccddeeff"}"#
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let parsed = call { payhandoff_pos_parse_response(answer, #"{"pos_app":"square","callback_url":"myapp://sq","identifier":"ord-1","token":"00112233445566778899aabbccddeeff"}"#, $0) }
        XCTAssertEqual(object(parsed.text)["result"] as? String, "approved", parsed.text)
        XCTAssertEqual(object(parsed.text)["transactionid"] as? String, "T1")
    }
}
