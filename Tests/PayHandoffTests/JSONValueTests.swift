import Foundation
import PayHandoff
import XCTest

final class JSONValueTests: XCTestCase {
    let document: JSONValue = ["data": ["registration": ["checkout_url": "https://pay.example/c/1", "n": 3]]]

    func testTypedAccessorsNameThePath() throws {
        XCTAssertEqual(try document.string(at: "data.registration.checkout_url"), "https://pay.example/c/1")
        XCTAssertThrowsError(try document.string(at: "data.checkout.checkout_url")) { error in
            XCTAssertEqual(error as? PayHandoffError, PayHandoffError(.validation, field: "data.checkout.checkout_url", "is required"))
        }
        XCTAssertThrowsError(try document.string(at: "data.registration.n")) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, .invalidJSON)
            XCTAssertEqual((error as? PayHandoffError)?.field, "data.registration.n")
        }
        XCTAssertThrowsError(try document.rejectUnknownKeys(["checkout_url"], at: "data.registration")) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "data.registration.n")
        }
    }

    func testObjectsKeepOrderAndCompareIgnoringIt() {
        var a = JSONObject()
        a["z"] = 1; a["a"] = 2; a["m"] = 3
        XCTAssertEqual(a.keys, ["z", "a", "m"])
        a["a"] = nil
        XCTAssertEqual(a.keys, ["z", "m"])
        XCTAssertEqual(JSONValue.object(a), ["m": 3, "z": 1])
        XCTAssertNotEqual(JSONValue.object(a), ["m": 3, "z": 1, "q": .null])
    }

    func testCodableWithFoundationRefusesFractions() throws {
        let text = #"{"a":[1,true,null,"x",{"b":-9007199254740991}]}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        XCTAssertEqual(value, ["a": [1, true, nil, "x", ["b": -9_007_199_254_740_991]]])
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        XCTAssertEqual(again, value)
        XCTAssertThrowsError(try JSONDecoder().decode(JSONValue.self, from: Data(#"{"amount":100.5}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(JSONValue.self, from: Data(#"[1.5e0]"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(JSONValue.self, from: Data(#"[1e30]"#.utf8)))
        // JSONDecoder keeps no number text: 1e3 and 1000.00 arrive as the integer 1000 (the known
        // limit documented on the Codable conformance; the C ABI's cJSON layer refuses them).
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: Data(#"[1e3, 1000.00]"#.utf8)), [1000, 1000])
    }
}
