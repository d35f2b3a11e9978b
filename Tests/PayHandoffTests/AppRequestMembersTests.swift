@testable import PayHandoff
import XCTest

/// The apps' request tables (``AppRequestMembers``): a row the reader cannot parse would end the
/// table early and leave the members after it unread, so every table must parse to the end, list
/// exactly the keys the document may have, in order, and carry the limits the apps' constants name.
final class AppRequestMembersTests: XCTestCase {
    func rows(_ table: StaticString) -> (keys: [String], rows: [AppRequestMembers.Row], parsedToEnd: Bool) {
        var at = 0
        var rows: [AppRequestMembers.Row] = []
        while let row = AppRequestMembers.row(in: table, at: &at) { rows.append(row) }
        return (rows.map(\.field), rows, at == table.utf8CodeUnitCount)
    }

    func testEveryTableParsesToTheEndAndListsTheDocumentKeys() {
        for (name, keys, table) in [("square", SquareRequest.jsonKeys, SquareRequest.members),
                                    ("sumup", SumUpRequest.jsonKeys, SumUpRequest.members),
                                    ("clip", ClipRequest.jsonKeys, ClipRequest.members)] {
            let parsed = rows(table)
            XCTAssertTrue(parsed.parsedToEnd, "\(name): a row whose kind is not a Kind case ends the table early")
            XCTAssertEqual(["pos_app", "transaction"] + parsed.keys + ["token"], keys.description.split(separator: " ").map(String.init), name)
        }
    }

    func testLimitsAreTheConstants() {
        func limit(_ table: StaticString, _ key: String) -> Int64? { rows(table).rows.first { $0.field == key }?.limit }
        XCTAssertEqual(limit(SquareRequest.members, "amount"), SquareRequest.maxMinorUnits)
        XCTAssertEqual(limit(ClipRequest.members, "amount"), ClipRequest.maxMinorUnits)
        XCTAssertEqual(limit(ClipRequest.members, "tip"), ClipRequest.maxMinorUnits)
        XCTAssertEqual(limit(SumUpRequest.members, "amount"), Int64.max)
        for table in [SquareRequest.members, ClipRequest.members] {
            XCTAssertEqual(limit(table, "identifier"), Int64(POSRequest.Limit.identifier))
        }
        XCTAssertEqual(rows(SquareRequest.members).rows.first { $0.field == "amount" }.map { String(decoding: $0.message, as: UTF8.self) },
                       "Square's TOTAL_AMOUNT is an int: at most 21474836.47")
    }
}
