import Foundation
import PayHandoff
import PayHandoffABI
import XCTest

/// Calls one `payhandoff_*` function and returns its status and `*out` (freed here).
func call(_ body: (OutString) -> Int32) -> (status: Int32, text: String) {
    var out: UnsafeMutablePointer<CChar>? = nil
    let status = body(&out)
    defer { payhandoff_string_free(out) }
    return (status, out.map { String(cString: $0) } ?? "")
}

/// `*out`'s error code and field.
func errorOf(_ text: String) -> (code: String?, field: String?) {
    let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    return (object?["code"] as? String, object?["field"] as? String)
}

/// Hostile inputs that cannot be written as shared vector files (Tests/Vectors/hostile): the
/// runners read those files with Foundation's JSONDecoder and with cJSON, which refuse 10 000-deep
/// JSON and lone-surrogate escapes, JSON cannot carry raw invalid UTF-8, and JSON numbers with a
/// fraction are refused by the Swift runner's loader. So they go straight to the C ABI here
/// (the same checks run in the C harness, `hostile_direct`).
final class HostileABITests: XCTestCase {
    let sale = #"{"transaction":"venta","usertoken":"tok_1","identifier":"ord-1","amount":"100.00","urlScheme":"myapp"}"#

    func testTenThousandDeepJSONIsInvalidJSON() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let r = call { payhandoff_pos_build_url(deep, $0) }
        XCTAssertEqual(r.status, 2, r.text)
        XCTAssertEqual(errorOf(r.text).code, "invalid_json")
        let deepObject = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        var handle: OpaquePointer? = nil
        let e = call { payhandoff_coordinator_new(nil, &handle, $0) }
        XCTAssertEqual(e.status, 0)
        XCTAssertEqual(call { payhandoff_coordinator_send(handle, deepObject, $0) }.status, 2)
        payhandoff_coordinator_free(handle)
        var restored: OpaquePointer? = OpaquePointer(bitPattern: 1)
        XCTAssertEqual(call { payhandoff_coordinator_restore(deepObject, &restored, $0) }.status, 2)
        XCTAssertNil(restored, "a failed restore sets *handle to NULL")
    }

    func testDepthLimitOffByOne() {
        // PAYHANDOFF_MAX_JSON_DEPTH is 64 (the root counts): {"x": 63 arrays} is read, and refused
        // only for its unknown member; {"x": 64 arrays} is invalid_json.
        let nested = { (n: Int) in "{\"x\":" + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}" }
        let at = errorOf(call { payhandoff_pos_build_url(nested(63), $0) }.text)
        XCTAssertEqual(at.code, "validation")
        XCTAssertEqual(at.field, "x")
        XCTAssertEqual(errorOf(call { payhandoff_pos_build_url(nested(64), $0) }.text).code, "invalid_json")
    }

    func testFloatsAsAmountsAreInvalidJSON() {
        for amount in ["100.5", "100.00", "1e2", "-0.0", "1E+2"] {
            let request = sale.replacingOccurrences(of: #""amount":"100.00""#, with: #""amount":"# + amount)
            let r = call { payhandoff_pos_build_url(request, $0) }
            XCTAssertEqual(errorOf(r.text).code, "invalid_json", "\(amount): \(r.text)")
            XCTAssertEqual(errorOf(r.text).field, "amount", "\(amount): \(r.text)")
        }
        // Regression (found by this corpus): 100.00 and 1e2 were read as 100 minor units (1.00).
        // Fractions inside strings and keys are text, untouched.
        let text = call { payhandoff_pos_build_url(#"{"transaction":"venta","usertoken":"t.1e2","identifier":"1.5","amount":"100.00","urlScheme":"myapp"}"#, $0) }
        XCTAssertEqual(text.status, 0, text.text)
        let integer = sale.replacingOccurrences(of: #""amount":"100.00""#, with: #""amount":10000"#)
        XCTAssertEqual(call { payhandoff_pos_build_url(integer, $0) }.status, 0, "integers are minor units")
        let big = sale.replacingOccurrences(of: #""amount":"100.00""#, with: #""amount":9007199254740992"#)
        XCTAssertEqual(errorOf(call { payhandoff_pos_build_url(big, $0) }.text).code, "invalid_json", "2^53 is beyond the integer rule")
    }

    func testLoneSurrogateEscapesAreRefused() {
        for escape in [#"\ud800"#, #"\udc00"#, #"\ud800x"#, #"\ud800\u0041"#] {
            let request = sale.replacingOccurrences(of: "ord-1", with: "ord" + escape)
            let r = call { payhandoff_pos_build_url(request, $0) }
            XCTAssertEqual(errorOf(r.text).code, "invalid_json", "\(escape): \(r.text)")
        }
        let pair = sale.replacingOccurrences(of: "ord-1", with: #"ord\ud83d\ude00"#)
        XCTAssertEqual(call { payhandoff_pos_build_url(pair, $0) }.status, 0, "a proper surrogate pair is one character")
    }

    func testRawInvalidUTF8() {
        let options = #"{"urlScheme":"myapp"}"#
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            var url = Array("myapp://result=aprobada&identifier=ord-1&amount=100.00&reference=".utf8) + bytes
            url.append(0)
            let r = url.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                    call { payhandoff_pos_parse_response(p, options, $0) } } }
            XCTAssertEqual(errorOf(r.text).code, "malformed_url", "\(bytes): \(r.text)")
            var json = Array(#"{"urlScheme":"my"#.utf8) + bytes + Array(#""}"#.utf8)
            json.append(0)
            let j = json.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                    call { payhandoff_pos_parse_response("myapp://result=error&identifier=x", p, $0) } } }
            XCTAssertEqual(errorOf(j.text).code, "invalid_json", "\(bytes): \(j.text)")
        }
    }

    func testInvalidUTF8IsReportedFirstEvenWhereCJSONWouldNotSeeIt() {
        // Raw invalid UTF-8 inside a malformed \u escape (cJSON reads \uXXXX with a non-hex digit
        // as U+0000 and never shows those bytes), and alongside a syntax error or an unknown key:
        // always "is not valid UTF-8", as when the whole text was validated before cJSON.
        for bytes: [UInt8] in [Array(#"{"urlScheme":"my\u00"#.utf8) + [0xC3] + Array(#"9"}"#.utf8),
                               Array(#"{"urlScheme":"my\uZZZZ"#.utf8) + [0xC3] + Array(#""}"#.utf8),
                               Array(#"{"urlScheme":"my"#.utf8) + [0xC3],
                               Array(#"{"x":1,"urlScheme":"my"#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)] {
            let json = bytes + [0]
            let r = json.withUnsafeBufferPointer { b in
                b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { p in
                    call { payhandoff_pos_parse_response("myapp://result=error&identifier=x", p, $0) } } }
            XCTAssertEqual(r.status, 2, r.text)
            XCTAssertTrue(r.text.contains("is not valid UTF-8"), r.text)
            XCTAssertEqual(errorOf(r.text).field, "options_json", r.text)
        }
    }

    func testAMalformedUnicodeEscapeIsRefusedNotReadAsNUL() {
        // cJSON reads \u without four hex digits as U+0000 and cuts the string there: a Square
        // answer's state "ord-1~<token>\u00:0x" arrived as "ord-1~<token>". Not JSON: refused.
        for text in [#"{"urlScheme":"my\u00:0app"}"#, #"{"urlScheme":"myapp\uZZZZ"}"#, #"{"urlScheme":"myapp\u12"}"#] {
            let r = call { payhandoff_pos_parse_response("myapp://result=error&identifier=x", text, $0) }
            XCTAssertEqual(r.status, 2, text)
            XCTAssertEqual(errorOf(r.text).code, "invalid_json", r.text)
            XCTAssertEqual(errorOf(r.text).field, "options_json", r.text)
            XCTAssertTrue(r.text.contains("escape"), r.text)
        }
        // Well-formed escapes (and an escaped backslash before a u) still read.
        for text in [#"{"urlScheme":"my\u0061pp"}"#, #"{"urlScheme":"myapp","identifier":"a\\u00"}"#] {
            let r = call { payhandoff_pos_parse_response("myapp://result=error&identifier=x", text, $0) }
            XCTAssertNotEqual(errorOf(r.text).code, "invalid_json", r.text)
        }
    }

    func testOversizedInputs() {
        let megabyteURL = "myapp://result=aprobada&identifier=ord-1&pad=" + String(repeating: "x", count: 1 << 20)
        let r = call { payhandoff_pos_parse_response(megabyteURL, #"{"urlScheme":"myapp"}"#, $0) }
        XCTAssertEqual(r.status, 10)
        XCTAssertEqual(errorOf(r.text).field, "url")
        var handle: OpaquePointer? = nil
        _ = call { payhandoff_coordinator_new(nil, &handle, $0) }
        defer { payhandoff_coordinator_free(handle) }
        XCTAssertEqual(call { payhandoff_coordinator_handle_url(handle, megabyteURL, 1_796_054_400_000, $0) }.status, 10)
        // 10 000 members: over 64 KiB of JSON text.
        let members = (0..<10_000).map { "\"k\($0)\":0" }.joined(separator: ",")
        let wide = call { payhandoff_pos_build_url("{" + members + "}", $0) }
        XCTAssertEqual(wide.status, 10, wide.text)
        XCTAssertEqual(errorOf(wide.text).field, "request_json")
        // 65536 bytes is the last size read; 65537 is not.
        let pad = { (n: Int) in "{\"p\":\"" + String(repeating: "x", count: n - 8) + "\"}" }
        XCTAssertEqual(pad(65_536).utf8.count, 65_536)
        XCTAssertNotEqual(call { payhandoff_pos_build_url(pad(65_536), $0) }.status, 10)
        XCTAssertEqual(call { payhandoff_pos_build_url(pad(65_537), $0) }.status, 10)
        // 8192-byte URLs are read, 8193 are not.
        let head = "myapp://result=error&identifier=ord-1&pad="
        let at = head + String(repeating: "x", count: 8192 - head.utf8.count)
        XCTAssertEqual(call { payhandoff_pos_parse_response(at, #"{"urlScheme":"myapp"}"#, $0) }.status, 0)
        XCTAssertEqual(call { payhandoff_pos_parse_response(at + "x", #"{"urlScheme":"myapp"}"#, $0) }.status, 10)
    }

    func testNULInsideJSONStringsAndNullPointers() {
        // U+0000 reaches the core (cJSON alone would cut "ord\u00001" to "ord"): a POS request
        // refuses it by name, since an answer echoing %00 could never be read; an answer that
        // carries %00 is malformed_url.
        let request = sale.replacingOccurrences(of: "ord-1", with: #"ord\u00001"#)
        let r = call { payhandoff_pos_build_url(request, $0) }
        XCTAssertEqual(r.status, 3, r.text)
        XCTAssertEqual(errorOf(r.text).field, "identifier")
        let echoed = call { payhandoff_pos_parse_response("myapp://result=aprobada&identifier=ord%001&amount=100.00",
                                                          #"{"urlScheme":"myapp","identifier":"ord\u00001"}"#, $0) }
        XCTAssertEqual(errorOf(echoed.text).code, "malformed_url", echoed.text)
        XCTAssertEqual(call { payhandoff_pos_build_url(nil, $0) }.status, 1)
        XCTAssertEqual(payhandoff_pos_build_url(sale, nil), 1)
    }
}

/// The snapshot budget counts printed bytes without printing: the count must never be below what
/// cJSON prints (else a snapshot could pass 64 KiB), and it is exact for what PayHandoff writes.
final class PrintedLengthTests: XCTestCase {
    func testTheCountIsWhatCJSONPrints() {
        var random = SplitMix64(seed: 3)
        let alphabet: [String] = ["a", "Z", "0", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "é", "😀", "\u{0}", " ", "~"]
        func text() -> String {
            (0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
        }
        for _ in 0..<2000 {
            var object = JSONObject()
            for _ in 0..<Int(random.next() % 6) { object[text()] = .string(text()) }
            let number = JSONValue.integer(Int64(bitPattern: random.next()) % 9_007_199_254_740_991)
            let list = JSONValue.array([.bool(true), .null, .string(text()), .object(object)])
            let document = JSONValue.object(JSONObject(["s": .string(text()), "n": number, "a": list, "o": .object(object)]))
            XCTAssertEqual(JSONText.render(document).utf8.count, document.printedLengthBound, "\(document)")
        }
    }
}
