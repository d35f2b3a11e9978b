@_spi(JSONText) @testable import PayHandoff
import XCTest

/// Every comparison of two strings' bytes goes through one outlined pass, `ASCII.compare` (issue
/// 39, item 7: it replaced a `withUTF8` specialized around each closure). Each comparison is held
/// here to the plain definition over the strings' UTF-8 arrays, for every pair of a set that has
/// the empty string, small and heap-stored strings (over 15 bytes), case, a prefix and a suffix of
/// each other, NUL and both Unicode spellings of "é".
final class ASCIICompareTests: XCTestCase {
    let texts: [String] = [
        "", "a", "A", "ab", "aB", "Ab", "abc", "b", "ba", "\u{0}", "a\u{0}",
        "caf\u{E9}", "cafe\u{301}", "CAF\u{E9}", "caf",
        "https://shop.example/checkout/return", "HTTPS://SHOP.EXAMPLE/checkout/return",
        "https://shop.example/checkout/return?x=1", "shop.example/checkout/return",
        "0123456789abcdef", "0123456789abcdeF", "0123456789abcdef0",
    ]

    func lowered(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    }

    func testEachComparisonIsItsDefinitionOverTheBytes() {
        for a in texts {
            for b in texts {
                let x = Array(a.utf8), y = Array(b.utf8)
                let pair = "\(x) \(y)"
                XCTAssertEqual(a.hasSameBytes(as: b), x == y, pair)
                XCTAssertEqual(ASCII.equalFoldingCase(a, b), lowered(a) == lowered(b), pair)
                XCTAssertEqual(a.hasBytePrefix(b), x.starts(with: y), pair)
                XCTAssertEqual(a.hasByteSuffix(b), x.reversed().starts(with: y.reversed()), pair)
                XCTAssertEqual(a.precedesByBytes(b), x.lexicographicallyPrecedes(y), pair)
                // The pass itself, lengths unequal included (the callers check them first).
                XCTAssertEqual(ASCII.compare(a, b, .equal), x == y, pair)
                XCTAssertEqual(ASCII.compare(a, b, .equalFoldingCase), lowered(a) == lowered(b), pair)
            }
        }
    }
}
