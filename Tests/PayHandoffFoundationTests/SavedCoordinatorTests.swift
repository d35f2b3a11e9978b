import Foundation
import PayHandoff
import PayHandoffFoundation
import XCTest

/// The Foundation layer converts at the edge (URL, Date, Data) and saves before it answers.
final class SavedCoordinatorTests: XCTestCase {
    let start = Date(epochMilliseconds: 1_796_054_400_000)  // 2026-11-30T10:00:00-06:00

    func sale() throws -> POSRequest {
        try POSRequest.sale(userToken: "bp-secret", identifier: "order-42", amount: try Amount(parsing: "100.00"), urlScheme: "myapp")
    }

    func testTheSnapshotIsSavedBeforeTheAnswerIsReturnedAndPersistIsNotAnEffect() throws {
        var saves: [Data] = []
        let store = try SavedCoordinator(saved: nil) { saves.append($0) }
        let started = try store.send(.posStart(flowID: "sale-42", request: try sale(), refundOf: nil, graceMilliseconds: nil,
                                               token: "0123456789abcdef0123456789abcdef"), at: start)
        XCTAssertEqual(saves.count, 1, "saved before the answer came back")
        XCTAssertEqual(started.transitions.first?.effects.count, 1, "open_pos_app only: persist is done")
        XCTAssertEqual(started.transitions.first?.effects.first?.openURL?.scheme, "billpocket")
        XCTAssertFalse(String(decoding: saves[0], as: UTF8.self).contains("bp-secret"), "no user token at rest")

        // Not ours and refused URLs change nothing and save nothing.
        XCTAssertEqual(try store.handle(URL(string: "otherapp://x")!, at: start).outcome, .notOurs)
        XCTAssertEqual(try store.handle(URL(string: "myapp://result=aprobada&amount=100.00&identifier=order-42")!, at: start).outcome,
                       .rejected)
        XCTAssertEqual(saves.count, 1)

        // Process death: a new store from what was saved continues where the first left off.
        let answer = URL(string: "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=order-42~0123456789abcdef0123456789abcdef")!
        let restarted = try SavedCoordinator(saved: saves.last) { saves.append($0) }
        XCTAssertEqual(try restarted.handle(answer, at: start.addingTimeInterval(30)).outcome, .accepted)
        XCTAssertEqual(saves.count, 2)
        XCTAssertEqual(restarted.coordinator.flow(id: "sale-42")?.stateName, "approved")
        XCTAssertEqual(try Coordinator(snapshotData: saves.last), restarted.coordinator)
    }

    func testDatesAndURLsConvertAtTheEdge() throws {
        XCTAssertEqual(start.epochMilliseconds, 1_796_054_400_000)
        XCTAssertEqual(Date(epochMilliseconds: 1_796_054_400_999).epochMilliseconds, 1_796_054_400_999)
        let verdict = try RefundEligibility.check(transactionId: "720371", amount: try Amount(parsing: "100.00"),
                                                  approvedAt: start, at: start.addingTimeInterval(59))
        XCTAssertEqual(verdict.reasons, [.tooSoon])
        XCTAssertEqual(try ReturnURL(URL(string: "fixapp://checkout-callback")!).text, "fixapp://checkout-callback")
        XCTAssertEqual(try sale().openURL.scheme, "billpocket")
        XCTAssertEqual(CorrelationSecret.make().utf8.count, 32)
        let parsed = try POSResponse.parse(URL(string: "myapp://result=rechazada&identifier=order-42")!, urlScheme: "myapp",
                                           expectedIdentifier: "order-42")
        XCTAssertEqual(parsed.result, .declined)
    }

    func testDamagedSavedDataIsATypedError() {
        XCTAssertThrowsError(try SavedCoordinator(saved: Data("{not json".utf8)) { _ in }) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, .invalidJSON)
        }
        XCTAssertThrowsError(try Coordinator(snapshotData: Data(#"{"version": 9}"#.utf8))) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, .unsupportedVersion)
        }
        XCTAssertEqual(try Coordinator(snapshotData: Data()), Coordinator(), "empty data: first launch")
    }
}
