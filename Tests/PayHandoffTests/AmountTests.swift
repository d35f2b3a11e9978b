import PayHandoff
import XCTest

final class AmountTests: XCTestCase {
    func testParsesDecimalTextIntoMinorUnits() throws {
        let cases: [(String, Int64)] = [
            ("100", 10000), ("100.5", 10050), ("100.50", 10050), ("100.00", 10000), ("0.01", 1),
            ("0", 0), ("007.50", 750), ("90071992547409.91", 9_007_199_254_740_991),
        ]
        for (text, units) in cases {
            XCTAssertEqual(try Amount(parsing: text).minorUnits, units, text)
        }
    }

    func testRefusesEverythingButPlainDecimalText() {
        for text in ["", " 1", "1 ", "+1", "-1", "1e2", "1E2", "1,000.00", ".5", "5.", "1.234", "1..2",
                     "1.2.3", "abc", "0x10", "１", "90071992547409.92", "99999999999999999999999", "1.0e1"] {
            XCTAssertThrowsError(try Amount(parsing: text, field: "amount"), text) { error in
                XCTAssertEqual((error as? PayHandoffError)?.code, .validation, text)
                XCTAssertEqual((error as? PayHandoffError)?.field, "amount", text)
            }
        }
    }

    func testMinorUnitsRange() throws {
        XCTAssertEqual(try Amount(minorUnits: 0).decimalString, "0.00")
        XCTAssertEqual(try Amount(minorUnits: Amount.max).minorUnits, Amount.max)
        XCTAssertThrowsError(try Amount(minorUnits: -1))
        XCTAssertThrowsError(try Amount(minorUnits: Amount.max + 1))
        XCTAssertThrowsError(try Amount(minorUnits: Int64.min))
    }

    func testFormatsWithExactlyTwoDecimals() throws {
        let cases: [(Int64, String)] = [(0, "0.00"), (5, "0.05"), (50, "0.50"), (10000, "100.00"),
                                        (123_456_789, "1234567.89"), (Amount.max, "90071992547409.91")]
        for (units, text) in cases {
            XCTAssertEqual(try Amount(minorUnits: units).decimalString, text)
        }
    }

    func testTextRoundTripsForEveryCentValueAndManyMagnitudes() throws {
        var units: Int64 = 0
        while units < Amount.max / 7 {
            let amount = try Amount(minorUnits: units)
            XCTAssertEqual(try Amount(parsing: amount.decimalString), amount)
            units = units * 7 + 13
        }
        for cents in 0..<100 {
            let amount = try Amount(minorUnits: Int64(100 + cents))
            XCTAssertEqual(try Amount(parsing: amount.decimalString).minorUnits, Int64(100 + cents))
        }
    }
}
