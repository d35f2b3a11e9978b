import PayHandoff
import XCTest

final class POSRequestTests: XCTestCase {
    let reference = "Pago & % # ( ) / @ con propina a 3 meses sin intereses"

    func testSaleURLHasNoQuestionMarkKeysInTableOrderAndLowercaseUsertoken() throws {
        let sale = try POSRequest.sale(userToken: "tok/en+1", identifier: "ord-1", amount: Amount(parsing: "100"),
                                       urlScheme: "myapp", tip: Amount(parsing: "15.5"), msi: 3,
                                       reference: reference, showPhotoButton: true, mandatoryPhoto: true)
        XCTAssertEqual(sale.url,
            "billpocket://transaction=venta&usertoken=tok%2Fen%2B1&identifier=ord-1&amount=100.00&urlScheme=myapp"
            + "&tip=15.50&msi=3&reference=Pago%20%26%20%25%20%23%20%28%20%29%20%2F%20%40%20con%20propina%20a%203%20meses%20sin%20intereses"
            + "&showPhotoButton=true&mandatoryPhoto=true")
    }

    func testBuiltURLDecodesBackToTheSameFields() throws {
        let sale = try POSRequest.sale(userToken: "t&=+%#", identifier: "ñ 😀/@", amount: Amount(parsing: "1.05"),
                                       urlScheme: "com.fix.app://", reference: reference, email: "a+b@x.mx")
        let payload = sale.url.dropFirst("billpocket://".count)
        XCTAssertFalse(payload.hasPrefix("?"))
        for plus in [QueryDecoder.PlusSign.literal, .space] {
            XCTAssertEqual(try QueryDecoder.decode(payload, plus: plus, caseInsensitiveKeys: true), sale.fields())
        }
    }

    func testAndroidIntentKeysDifferOnlyInUserToken() throws {
        let refund = try POSRequest.refund(userToken: "tok", identifier: "r-1", urlScheme: "myapp",
                                           transactionId: "720371", amount: Amount(parsing: "40"))
        let url = refund.fields(keyStyle: .urlScheme), intent = refund.fields(keyStyle: .androidIntent)
        XCTAssertEqual(url.map(\.key), ["transaction", "usertoken", "identifier", "amount", "urlScheme", "transactionId"])
        XCTAssertEqual(intent.map(\.key), ["transaction", "userToken", "identifier", "amount", "urlScheme", "transactionId"])
        XCTAssertEqual(url.map(\.value), intent.map(\.value))
        XCTAssertEqual(url.first?.value, "devolucion")
    }

    func testTheUserTokenNeverAppearsInDescriptionsOrDumps() throws {
        let sale = try POSRequest.sale(userToken: "SECRET-TOKEN-123", identifier: "ord-1",
                                       amount: Amount(parsing: "1"), urlScheme: "myapp")
        XCTAssertFalse(sale.description.contains("SECRET-TOKEN-123"))
        XCTAssertFalse(String(describing: sale).contains("SECRET-TOKEN-123"))
        XCTAssertFalse("\(sale)".contains("SECRET-TOKEN-123"))
        XCTAssertTrue(sale.description.contains("<redacted>"))
        var dumped = ""
        dump(sale, to: &dumped)
        XCTAssertFalse(dumped.contains("SECRET-TOKEN-123"), dumped)
        XCTAssertTrue(sale.url.contains("SECRET-TOKEN-123"), "the POS app needs the token in the URL")
    }

    func testLimitsCountUTF16CodeUnits() throws {
        let amount = try Amount(parsing: "1")
        XCTAssertNoThrow(try POSRequest.sale(userToken: "t", identifier: String(repeating: "😀", count: 128),
                                             amount: amount, urlScheme: "myapp"))
        XCTAssertThrowsError(try POSRequest.sale(userToken: "t", identifier: String(repeating: "😀", count: 128) + "a",
                                                 amount: amount, urlScheme: "myapp")) { error in
            XCTAssertEqual(error as? PayHandoffError,
                           PayHandoffError(.validation, field: "identifier",
                                           "is longer than 256 characters (UTF-16 code units)"))
        }
        XCTAssertNoThrow(try POSRequest.sale(userToken: "t", identifier: "i", amount: amount, urlScheme: "myapp",
                                             phone: "+5255123456789"))
        XCTAssertThrowsError(try POSRequest.sale(userToken: "t", identifier: "i", amount: amount, urlScheme: "myapp",
                                                 phone: "+52551234567890"))
    }

    func testRulesNameTheField() throws {
        let one = try Amount(parsing: "1")
        func field(_ make: () throws -> POSRequest) -> String? {
            do { _ = try make(); return "no error" } catch { return (error as? PayHandoffError)?.field }
        }
        XCTAssertEqual(field { try .sale(userToken: "", identifier: "i", amount: one, urlScheme: "a") }, "usertoken")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "", amount: one, urlScheme: "a") }, "identifier")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: .zero, urlScheme: "a") }, "amount")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: "my_app") }, "urlScheme")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: "myapp:") }, "urlScheme")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: "a", msi: 4) }, "msi")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: "a", mandatoryPhoto: true) }, "mandatoryPhoto")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: "a", showPhotoButton: false, mandatoryPhoto: true) }, "mandatoryPhoto")
        XCTAssertEqual(field { try .refund(userToken: "t", identifier: "i", urlScheme: "a", transactionId: "") }, "transactionId")
        XCTAssertEqual(field { try .refund(userToken: "t", identifier: "i", urlScheme: "a", transactionId: "x", amount: .zero) }, "amount")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: String(repeating: "a", count: 51)) }, "urlScheme")
        XCTAssertEqual(field { try .sale(userToken: "t", identifier: "i", amount: one, urlScheme: String(repeating: "a", count: 47) + "://") }, "no error")
    }

    func testJSONRefusesFieldsTheOperationDoesNotTake() {
        let refund: JSONValue = ["transaction": "devolucion", "usertoken": "t", "identifier": "i",
                                 "urlScheme": "myapp", "transactionId": "1", "tip": "1.00"]
        XCTAssertThrowsError(try POSRequest(json: refund)) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "tip")
        }
        let sale: JSONValue = ["transaction": "venta", "usertoken": "t", "identifier": "i", "amount": 100,
                               "urlScheme": "myapp", "userToken": "t"]
        XCTAssertThrowsError(try POSRequest(json: sale)) { error in
            XCTAssertEqual(error as? PayHandoffError, PayHandoffError(.validation, field: "userToken", "unknown field"))
        }
    }
}
