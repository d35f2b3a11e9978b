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

    func testEveryKeyIsKnownInAnyCaseAndNearMissesAreExtra() throws {
        // The key lookup compares words against each key's literal: every key of the table must
        // be found whatever its case, and a key one letter or one byte away must not.
        let values: [(String, String)] = [
            ("statusinfo", "ok"), ("tip", "1.00"), ("reference", "r"), ("transactionid", "1"), ("msi", "3"),
            ("authorization", "a"), ("creditcard", "****1234"), ("cardtype", "visa"), ("email", "e@x.mx"),
            ("phone", "1"), ("arqc", "a"), ("aid", "a"), ("applabel", "a"), ("url", "u"), ("bank", "b"),
            ("accountType", "credit"), ("name", "n"), ("bp_version", "4.3"), ("usertoken", "SECRET"),
        ]
        func spellings(_ key: String) -> [String] {
            let mixed = String(key.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
            return [key.lowercased(), key.uppercased(), mixed]
        }
        for spelled in spellings("result") + spellings("amount") + spellings("identifier") {
            let lower = spelled.lowercased()
            let answer = "myapp://" + (lower == "result" ? spelled : "result") + "=aprobada&" + (lower == "amount" ? spelled : "amount")
                + "=1.00&" + (lower == "identifier" ? spelled : "identifier") + "=ord-1"
            XCTAssertEqual(try POSResponse.parse(answer, urlScheme: "myapp").extra, [], spelled)
        }
        for (key, value) in values {
            for spelled in spellings(key) {
                let answer = "myapp://result=aprobada&amount=1.00&identifier=ord-1&" + spelled + "=" + value
                XCTAssertEqual(try POSResponse.parse(answer, urlScheme: "myapp").extra, [], spelled)
            }
            var bytes = Array(key.utf8)
            bytes[bytes.count - 1] = bytes.last == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
            let lastChanged = String(decoding: bytes, as: UTF8.self)
            bytes = Array(key.utf8)
            bytes[0] = bytes[0] == UInt8(ascii: "q") ? UInt8(ascii: "j") : UInt8(ascii: "q")
            let firstChanged = String(decoding: bytes, as: UTF8.self)
            for nearMiss in [lastChanged, firstChanged, key + "s", String(key.dropLast())] {
                let answer = "myapp://result=aprobada&amount=1.00&identifier=ord-1&" + nearMiss + "=" + value
                XCTAssertEqual(try POSResponse.parse(answer, urlScheme: "myapp").extra.map(\.key), [nearMiss], nearMiss)
            }
        }
    }

    func testOneTableNamesEveryFieldInTheDocumentAndTheMirror() throws {
        // An answer with all 21 keys of the Billpocket response table: the JSON document has a
        // member for each (plus version), the mirror a child for each, under the table's names.
        let url = "myapp://result=aprobada&statusinfo=ok&amount=1.00&tip=0.50&reference=r&transactionid=T1&msi=3"
            + "&authorization=A1&creditcard=****1234&cardtype=visa&email=e@x.mx&phone=55&arqc=AB&aid=A0&applabel=VISA"
            + "&url=u&identifier=ord-1&bank=B&accountType=credit&name=N&bp_version=4.3.24"
        let response = try POSResponse.parse(url, urlScheme: "myapp")
        guard case .object(let document) = response.json else { return XCTFail("not an object") }
        XCTAssertEqual(document.members.map(\.key), [
            "version", "result", "identifier", "statusinfo", "amount", "tip", "reference", "transactionid", "msi",
            "authorization", "creditcard", "cardtype", "email", "phone", "arqc", "aid", "applabel", "url", "bank",
            "accountType", "name", "bp_version",
        ])
        let labels = Mirror(reflecting: response).children.compactMap(\.label)
        XCTAssertEqual(labels.count, 21)
        XCTAssertEqual(Set(labels), ["result", "identifier", "statusInfo", "amount", "tip", "reference", "transactionId", "msi",
                                     "authorization", "cardLastFour", "cardType", "email", "phone", "arqc", "aid", "appLabel",
                                     "voucherURL", "bank", "accountType", "cardholderName", "posAppVersion"])
        XCTAssertEqual(try POSResponse(json: response.json), response)
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

/// What the one-pass reader must keep from the step-by-step rules.
final class POSResponseReaderTests: XCTestCase {
    private func error(_ url: String) -> PayHandoffError? {
        do { _ = try POSResponse.parse(url, urlScheme: "myapp"); return nil } catch { return error }
    }

    func testTheFirstProblemInTheDocumentedOrderIsReported() {
        // A raw space anywhere wins over a later escape error, a scheme mismatch or a '#'.
        XCTAssertEqual(error("myapp://result=aprobada&identifier=x&amount=%4&note=a b")?.message, "URL contains a space or control character")
        XCTAssertEqual(error("other://result=aprobada&identifier=x&note=a b")?.message, "URL contains a space or control character")
        XCTAssertEqual(error("myapp://result=aprobada&identifier=x&amount=1&note=a\u{7F}")?.message, "URL contains a space or control character")
        // A raw '#' wins over query and field errors, not over the scheme.
        XCTAssertEqual(error("myapp://result=aprobada&identifier=x&amount=%4#f")?.message, "a POS answer must not contain a raw '#'")
        XCTAssertEqual(error("myapp://result=nope#f")?.message, "a POS answer must not contain a raw '#'")
        XCTAssertEqual(error("other://result=aprobada#f")?.field, "scheme")
        // '!' and '"' only make the reader look twice; they are fine in a value.
        XCTAssertNil(error("myapp://result=error&identifier=x&statusinfo=Hola!%22"))
    }

    func testEqualityIsByteEqualityOfTheDecodedFields() throws {
        let a = try POSResponse.parse("myapp://result=error&identifier=caf%C3%A9", urlScheme: "myapp")
        let b = try POSResponse.parse("myapp://result=error&identifier=cafe%CC%81", urlScheme: "myapp")
        XCTAssertTrue(a.identifier == b.identifier, "canonically equivalent")
        XCTAssertNotEqual(a, b, "different identifiers on the wire")
        let c = try POSResponse.parse("myapp://?Result=ERROR&IDENTIFIER=%63af%C3%A9", urlScheme: "myapp")
        XCTAssertEqual(a, c, "same fields, different spelling of the text")
        XCTAssertThrowsError(try POSResponse.parse("myapp://result=error&identifier=cafe%CC%81", urlScheme: "myapp",
                                                   expectedIdentifier: "caf\u{E9}"))
    }

    func testFieldsAreReadFromEscapedText() throws {
        let response = try POSResponse.parse("myapp://result=aprobada&identifier=i%2F1&amount=1%2E5&msi=%33&creditcard=%2A%2A42%34%32&accounttype=%44ebit",
                                             urlScheme: "myapp")
        XCTAssertEqual(response.identifier, "i/1")
        XCTAssertEqual(response.amount, try Amount(parsing: "1.50"))
        XCTAssertEqual(response.msi, 3)
        XCTAssertEqual(response.cardLastFour, "4242")
        XCTAssertEqual(response.accountType, .debit)
    }

    func testManyUnknownKeysAndTheLargestAnswer() throws {
        // More unknown keys than the reader keeps on the stack, an echoed token, and an answer
        // near the 8 KiB limit: fields still read back, repeats are still found.
        let unknown = (0..<300).map { "k" + String($0) + "=v" + String($0) }.joined(separator: "&")
        let url = "myapp://result=error&identifier=x&UserToken=SECRET&" + unknown + "&statusinfo=" + String(repeating: "a", count: 4000)
        XCTAssertLessThanOrEqual(url.utf8.count, 8192)
        let response = try POSResponse.parse(url, urlScheme: "myapp")
        XCTAssertEqual(response.extra.count, 300)
        XCTAssertEqual(response.extra.last, QueryItem(key: "k299", value: "v299"))
        XCTAssertEqual(response.statusInfo?.utf8.count, 4000)
        XCTAssertFalse("\(response)".contains("SECRET"))
        XCTAssertEqual(try POSResponse(json: response.json), response)
        XCTAssertEqual(error(url + "&K150=again")?.message, "query key appears more than once")
        XCTAssertEqual(error(url + "&" + String(repeating: "b", count: 9000) + "=1")?.code, .limitExceeded)
    }
}
