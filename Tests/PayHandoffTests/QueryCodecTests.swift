import PayHandoff
import XCTest

final class QueryCodecTests: XCTestCase {
    func testEncoderLeavesOnlyUnreservedCharactersLiteral() {
        XCTAssertEqual(QueryEncoder.percentEncode("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(QueryEncoder.percentEncode("a b&c=d+e%f#g/h@i?j"),
                       "a%20b%26c%3Dd%2Be%25f%23g%2Fh%40i%3Fj")
        XCTAssertEqual(QueryEncoder.percentEncode("ñ😀"), "%C3%B1%F0%9F%98%80")
        XCTAssertEqual(QueryEncoder.percentEncode("()!*'"), "%28%29%21%2A%27")
    }

    func testDecoderSplitsOnAmpersandThenFirstEquals() throws {
        let items = try QueryDecoder.decode("a=1&&b=x=y&c=&", plus: .literal, caseInsensitiveKeys: false)
        XCTAssertEqual(items, [QueryItem(key: "a", value: "1"), QueryItem(key: "b", value: "x=y"),
                               QueryItem(key: "c", value: "")])
    }

    func testPlusRuleIsTheCallersChoice() throws {
        let literal = try QueryDecoder.decode("r=a+b%2Bc%20d", plus: .literal, caseInsensitiveKeys: false)
        XCTAssertEqual(literal.first?.value, "a+b+c d")
        let space = try QueryDecoder.decode("r=a+b%2Bc%20d", plus: .space, caseInsensitiveKeys: false)
        XCTAssertEqual(space.first?.value, "a b+c d")
    }

    func testDecoderRefusesMalformedInput() {
        let bad: [(Substring, String?)] = [
            ("novalue", nil), ("=v", nil), ("a=%", "a"), ("a=%4", "a"), ("a=%zz", "a"), ("a=%G0", "a"),
            ("a=%00", "a"), ("a=%C0%AF", "a"), ("a=%ED%A0%80", "a"), ("a=%FF", "a"), ("a=%C3", "a"),
            ("a=1&a=2", "a"), ("k%zz=1", nil),
        ]
        for (query, field) in bad {
            XCTAssertThrowsError(try QueryDecoder.decode(query, plus: .literal, caseInsensitiveKeys: false),
                                 String(query)) { error in
                XCTAssertEqual((error as? PayHandoffError)?.code, .malformedURL, String(query))
                XCTAssertEqual((error as? PayHandoffError)?.field, field, String(query))
            }
        }
    }

    func testDuplicateKeysIgnoringCaseOnlyWhenAsked() throws {
        XCTAssertThrowsError(try QueryDecoder.decode("Result=1&result=2", plus: .literal, caseInsensitiveKeys: true))
        XCTAssertEqual(try QueryDecoder.decode("Result=1&result=2", plus: .literal, caseInsensitiveKeys: false).count, 2)
    }

    func testEncodeThenDecodeIsIdentityForAnyText() throws {
        var generator = SplitMix64(seed: 0xC0FFEE)
        let alphabet = Array("aZ09-._~ &=+%#/@?:;,ñé€😀\u{1F1F2}\u{1F1FD}()!*'\"<>\\^`{|}[]\t\n")
        for _ in 0..<2000 {
            let length = Int(generator.next() % 24)
            let value = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let query = QueryEncoder.encode([QueryItem(key: "k", value: value)])
            for plus in [QueryDecoder.PlusSign.space, .literal] {
                let decoded = try QueryDecoder.decode(Substring(query), plus: plus, caseInsensitiveKeys: false)
                XCTAssertEqual(decoded, [QueryItem(key: "k", value: value)], query)
            }
        }
    }
}

/// The word-at-a-time scanner's edges: duplicates beyond the on-stack key store, escaped keys,
/// escapes and separators at every offset of an 8-byte word.
final class QueryScannerTests: XCTestCase {
    func testDuplicatesAreFoundBeyondTheStackStore() throws {
        let keys = (0..<60).map { "key" + String($0) + "=v" }
        XCTAssertEqual(try QueryDecoder.decode(Substring(keys.joined(separator: "&")), plus: .literal, caseInsensitiveKeys: false).count, 60)
        let repeated = keys + ["key50=w"]
        XCTAssertThrowsError(try QueryDecoder.decode(Substring(repeated.joined(separator: "&")), plus: .literal,
                                                     caseInsensitiveKeys: false)) { error in
            XCTAssertEqual(error as? PayHandoffError, PayHandoffError(.malformedURL, field: "key50", "query key appears more than once"))
        }
    }

    /// Unknown keys are kept inline up to four, then in an array; escaped ones are decoded aside.
    /// A repeat is found whichever of those places the two keys sit in.
    func testRepeatsAcrossInlineAndSpilledKeysEscapedOrNot() throws {
        let keys = ["k%30", "k1", "k%32", "k3", "k%34", "k5", "k6"]  // k0 … k6, some escaped
        let text = keys.map { $0 + "=v" }.joined(separator: "&")
        XCTAssertEqual(try QueryDecoder.decode(Substring(text), plus: .literal, caseInsensitiveKeys: false).map(\.key),
                       ["k0", "k1", "k2", "k3", "k4", "k5", "k6"])
        for (again, name, caseInsensitive) in [("k0", "k0", false), ("k%33", "k3", false), ("k%35", "k5", false), ("k6", "k6", false),
                                               ("K%34", "K4", true), ("K1", "K1", true)] {
            XCTAssertThrowsError(try QueryDecoder.decode(Substring(text + "&" + again + "=w"), plus: .literal,
                                                         caseInsensitiveKeys: caseInsensitive)) { error in
                XCTAssertEqual(error as? PayHandoffError, PayHandoffError(.malformedURL, field: name, "query key appears more than once"))
            }
        }
        XCTAssertNoThrow(try QueryDecoder.decode(Substring(text + "&K1=w"), plus: .literal, caseInsensitiveKeys: false))
    }

    func testAnEscapedKeyIsTheKeyItDecodesTo() {
        XCTAssertThrowsError(try QueryDecoder.decode("a%62=1&ab=2", plus: .literal, caseInsensitiveKeys: false))
        XCTAssertThrowsError(try QueryDecoder.decode("ab=1&a%62=2", plus: .literal, caseInsensitiveKeys: false))
        XCTAssertThrowsError(try QueryDecoder.decode("AB=1&a%62=2", plus: .literal, caseInsensitiveKeys: true))
        XCTAssertNoThrow(try QueryDecoder.decode("AB=1&a%62=2", plus: .literal, caseInsensitiveKeys: false))
    }

    func testKeysAreComparedByBytesNotCanonicalEquivalence() throws {
        // "café" precomposed and decomposed are canonically equivalent (== on String) but are
        // different keys on the wire.
        let items = try QueryDecoder.decode("caf%C3%A9=1&cafe%CC%81=2", plus: .literal, caseInsensitiveKeys: false)
        XCTAssertEqual(items.count, 2)
        XCTAssertTrue(items[0].key == items[1].key, "String == says equal; the decoder must not")
    }

    func testEveryOffsetInAWord() throws {
        // Shift the same query through all alignments so '&', '=', '%' and '+' land on every
        // byte position of a word, and in the unaligned tail.
        for shift in 1...16 {
            let padding = String(repeating: "x", count: shift)
            let query = padding + "=1&k=a%20b+c&" + padding + "y=%2B&z=" + padding
            let items = try QueryDecoder.decode(Substring(query), plus: .space, caseInsensitiveKeys: false)
            XCTAssertEqual(items.map(\.key), [padding, "k", padding + "y", "z"], "shift \(shift)")
            XCTAssertEqual(items.map(\.value), ["1", "a b c", "+", padding], "shift \(shift)")
            XCTAssertThrowsError(try QueryDecoder.decode(Substring(query + "&k2=%4"), plus: .space, caseInsensitiveKeys: false))
            XCTAssertThrowsError(try QueryDecoder.decode(Substring(query + "&" + padding + "=2"), plus: .space, caseInsensitiveKeys: false))
        }
    }

    func testEveryTwoCharacterEscapeInKeyAndValue() {
        // The scanner checks the escapes of ASCII bytes itself and leaves the rest to the full
        // check: every `%XY` of printable ASCII, at every offset of a word, in a key and in a
        // value, is accepted exactly when XY is hex for a byte from 0x01 to 0x7F (a lone byte
        // ≥ 0x80 is not UTF-8; 0x00 is refused).
        let printable = (UInt8(0x21)...UInt8(0x7E)).filter { $0 != UInt8(ascii: "#") }
        func hex(_ byte: UInt8) -> UInt8? { UInt8(String(UnicodeScalar(byte)), radix: 16) }
        for x in printable {
            for y in printable {
                let escape = "%" + String(UnicodeScalar(x)) + String(UnicodeScalar(y))
                let value = hex(x).flatMap { high in hex(y).map { high << 4 | $0 } }
                let accepted = value.map { $0 != 0 && $0 < 0x80 } ?? false
                for shift in 1...8 {
                    let padding = String(repeating: "p", count: shift)
                    for query in [padding + "=1&k=a" + escape + "b", padding + "=1&a" + escape + "b=1"] {
                        let items = try? QueryDecoder.decode(Substring(query), plus: .space, caseInsensitiveKeys: false)
                        XCTAssertEqual(items != nil, accepted, query)
                        if let items, let value, items.count == 2 {
                            let decoded = "a" + String(UnicodeScalar(value)) + "b"
                            XCTAssertTrue(Array(items[1].key.utf8) == Array(decoded.utf8) || Array(items[1].value.utf8) == Array(decoded.utf8), query)
                        }
                    }
                }
            }
        }
    }

    func testEveryStartAddressAndShortLength() {
        // The scanner reads its words at aligned addresses after the first: the same query must
        // read the same wherever it starts in memory and however short it is.
        let queries = ["a=1", "a=%41", "k=v&", "=v", "a", "a=1&b=2&c=%7E&d=+", "ab=%4", "x=%00", "a=1#", "abcdefg=1234567&h=%C3%A9"]
        for query in queries {
            let alone = Result { try QueryDecoder.decode(Substring(query), plus: .space, caseInsensitiveKeys: false) }
            for lead in 0..<16 {
                let text = String(repeating: "z", count: lead) + query
                let sliced = Result { try QueryDecoder.decode(text.dropFirst(lead), plus: .space, caseInsensitiveKeys: false) }
                switch (alone, sliced) {
                case let (.success(a), .success(b)): XCTAssertEqual(a, b, "\(query) after \(lead) bytes")
                case let (.failure(a), .failure(b)):
                    XCTAssertEqual(a as? PayHandoffError, b as? PayHandoffError, "\(query) after \(lead) bytes")
                default: XCTFail("\(query) after \(lead) bytes: \(alone) vs \(sliced)")
                }
            }
        }
    }
}
