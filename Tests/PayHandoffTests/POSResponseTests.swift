import Foundation
import PayHandoff
import XCTest

final class POSResponseTests: XCTestCase {
    static let seedReference = "Pago & % # ( ) / @ con propina a 3 meses sin intereses"
    static let seedAnswer = "myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00"
        + "&reference=Pago%20%26%20%25%20%23%20(%20)%20/%20@%20con%20propina%20a%203%20meses%20sin%20intereses"
        + "&transactionid=72037&identifier=ord-1"

    func testTheSeedExampleParsesToExactlyItsText() throws {
        let response = try POSResponse.parse(Self.seedAnswer, urlScheme: "myapp", expectedIdentifier: "ord-1")
        XCTAssertEqual(response.result, .approved)
        XCTAssertEqual(response.reference, Self.seedReference)
        XCTAssertEqual(response.amount?.minorUnits, 10000)
        XCTAssertEqual(response.tip?.minorUnits, 1500)
        XCTAssertEqual(response.transactionId, "72037")
        XCTAssertNil(response.statusInfo, "an empty value counts as absent")
    }

    /// Why not URLComponents: the POS app writes the payload right after `scheme://`, where a URL
    /// parser expects the authority (`userinfo@host:port`). The `/` in the reference ends the
    /// "authority" and the `@` inside it looks like userinfo, so URLComponents either refuses the
    /// string or puts the start of the answer into `host`/`user`/`path`, and `queryItems` is nil
    /// because there is no `?`. Either way the reference cannot be recovered from `queryItems`.
    func testURLComponentsCannotReadTheSeedExample() throws {
        let components = URLComponents(string: Self.seedAnswer)
        let fromQueryItems = components?.queryItems?.first { $0.name == "reference" }?.value
        XCTAssertNotEqual(fromQueryItems, Self.seedReference)
        XCTAssertNil(fromQueryItems)
        // PayHandoff reads it, with or without the tolerated '?'.
        let withQuestionMark = Self.seedAnswer.replacingOccurrences(of: "myapp://", with: "myapp://?")
        XCTAssertEqual(try POSResponse.parse(withQuestionMark, urlScheme: "myapp").reference, Self.seedReference)
    }

    func testPlusStaysLiteralInPOSAnswers() throws {
        let response = try POSResponse.parse("myapp://result=rechazada&identifier=a+b&statusinfo=Fondos+insuficientes%2B",
                                             urlScheme: "MYAPP://")
        XCTAssertEqual(response.identifier, "a+b")
        XCTAssertEqual(response.statusInfo, "Fondos+insuficientes+")
        XCTAssertEqual(response.result, .declined)
    }

    func testEchoedUserTokenIsDroppedAndUnknownKeysKeptAside() throws {
        let response = try POSResponse.parse("myapp://result=error&identifier=x&UserToken=SECRET&foo=b%20ar&statusinfo=Sin%20lector",
                                             urlScheme: "myapp")
        XCTAssertEqual(response.extra, [QueryItem(key: "foo", value: "b ar")])
        XCTAssertFalse("\(response)".contains("SECRET"))
        XCTAssertFalse("\(response.json)".contains("SECRET"))
        XCTAssertEqual(response.statusInfo, "Sin lector")
    }

    func testCorrelationAndSchemeAreChecked() {
        XCTAssertThrowsError(try POSResponse.parse(Self.seedAnswer, urlScheme: "otherapp")) { error in
            XCTAssertEqual(error as? PayHandoffError,
                           PayHandoffError(.callbackMismatch, field: "scheme",
                                           "the URL's scheme is not the urlScheme the POS request was sent with"))
        }
        XCTAssertThrowsError(try POSResponse.parse(Self.seedAnswer, urlScheme: "myapp", expectedIdentifier: "ord-2")) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, .callbackMismatch)
            XCTAssertEqual((error as? PayHandoffError)?.field, "identifier")
        }
    }

    func testJSONRoundTrip() throws {
        let url = Self.seedAnswer + "&msi=3&creditcard=************4242&accountType=Debit&bp_version=4.3.24&zz=1"
        let response = try POSResponse.parse(url, urlScheme: "myapp")
        XCTAssertEqual(response.cardLastFour, "4242")
        XCTAssertEqual(response.accountType, .debit)
        XCTAssertEqual(try POSResponse(json: response.json), response)
    }
}
