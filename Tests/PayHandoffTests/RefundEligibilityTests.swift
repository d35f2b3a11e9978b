import PayHandoff
import XCTest

final class RefundEligibilityTests: XCTestCase {
    // 2026-11-30T10:00:00-06:00 = 2026-11-30T16:00:00Z
    let tenAM: Int64 = 1_796_054_400
    var hundred: Amount { try! Amount(parsing: "100.00") }

    func sale(at approvedAt: Int64, version: String? = nil) -> RefundEligibility.Sale {
        RefundEligibility.Sale(transactionId: "T-1", amount: hundred, approvedAt: approvedAt, posAppVersion: version)
    }

    func testWindowBoundariesToTheSecond() throws {
        let deadline = tenAM + 13 * 3600  // 23:00:00 local
        let cases: [(Int64, [RefundEligibility.Reason])] = [
            (tenAM + 59, [.tooSoon]), (tenAM + 60, []), (deadline - 1, []), (deadline, [.pastDeadline]),
        ]
        for (now, reasons) in cases {
            let verdict = try RefundEligibility.check(sale: sale(at: tenAM), refundAmount: nil, now: now)
            XCTAssertEqual(verdict.reasons, reasons, "now=\(now)")
            XCTAssertEqual(verdict.isEligible, reasons.isEmpty)
            XCTAssertEqual(verdict.eligibleFrom, tenAM + 60)
            XCTAssertEqual(verdict.deadline, deadline)
        }
    }

    func testLateEveningSaleIsAlreadyTheNextDayInUTCButItsDeadlineIsTheLocalDay() throws {
        // 2026-11-30T23:30:00-06:00 = 2026-12-01T05:30:00Z: the local day is still Nov 30.
        let lateSale = tenAM + 13 * 3600 + 1800
        let verdict = try RefundEligibility.check(sale: sale(at: lateSale), refundAmount: nil, now: lateSale + 120)
        XCTAssertEqual(verdict.deadline, tenAM + 13 * 3600)
        XCTAssertEqual(MexicoCityTime.iso8601(verdict.deadline), "2026-11-30T23:00:00-06:00")
        XCTAssertEqual(verdict.reasons, [.pastDeadline])
        // 05:59:59Z and 06:00:00Z on Dec 1 are different Mexico City days.
        let lastSecondOfNov30 = tenAM + 14 * 3600 - 1
        XCTAssertEqual(MexicoCityTime.iso8601(lastSecondOfNov30), "2026-11-30T23:59:59-06:00")
        XCTAssertEqual(MexicoCityTime.startOfDay(containing: lastSecondOfNov30), tenAM - 10 * 3600)
        XCTAssertEqual(MexicoCityTime.startOfDay(containing: lastSecondOfNov30 + 1), tenAM + 14 * 3600)
    }

    func testSaleJustBeforeTheDeadlineCollectsBothReasons() throws {
        let saleAt = tenAM + 13 * 3600 - 30  // 22:59:30
        let verdict = try RefundEligibility.check(sale: sale(at: saleAt), refundAmount: nil, now: saleAt + 45)
        XCTAssertEqual(verdict.reasons, [.tooSoon, .pastDeadline])
        XCTAssertGreaterThan(verdict.eligibleFrom, verdict.deadline)
    }

    func testYesterdaysSaleIsRefusedWithEveryReason() throws {
        let verdict = try RefundEligibility.check(sale: sale(at: tenAM - 86_400, version: "4.3.9"),
                                                  refundAmount: Amount(parsing: "100.01"), now: tenAM)
        XCTAssertEqual(verdict.reasons, [.pastDeadline, .amountExceedsOriginal, .posAppTooOld])
        XCTAssertTrue(verdict.explanation(of: .pastDeadline).contains("2026-11-29T23:00:00-06:00"))
    }

    func testAmountAndVersionRules() throws {
        for (amount, ok) in [("40", true), ("100.00", true), ("100.01", false)] {
            let verdict = try RefundEligibility.check(sale: sale(at: tenAM), refundAmount: Amount(parsing: amount), now: tenAM + 600)
            XCTAssertEqual(verdict.isEligible, ok, amount)
        }
        for (version, ok) in [("4.3.24", true), ("4.3.24.0", true), ("4.10", true), ("5", true), ("4.3.24 (512)", true),
                              ("4.3.23", false), ("4.3", false), ("4", false), ("3.99.99", false)] {
            let verdict = try RefundEligibility.check(sale: sale(at: tenAM, version: version), refundAmount: nil, now: tenAM + 600)
            XCTAssertEqual(verdict.isEligible, ok, version)
        }
        XCTAssertThrowsError(try RefundEligibility.check(sale: sale(at: tenAM, version: "v4"), refundAmount: nil, now: tenAM))
        XCTAssertThrowsError(try RefundEligibility.check(sale: sale(at: tenAM), refundAmount: .zero, now: tenAM))
        XCTAssertThrowsError(try RefundEligibility.check(sale: sale(at: -1), refundAmount: nil, now: tenAM))
    }
}
