import PayHandoff
import XCTest

final class CheckoutTests: XCTestCase {
    let customer = CheckoutRequest.Customer(name: "Juan", lastname: "Pérez", email: "juan@example.com", phone: "+595981234567")

    func cardRequest(apiKey: String = "sk_test_SECRET123", returnURL: String? = "fixapp://checkout-callback",
                     integration: CheckoutRequest.Integration = .browserTab) throws -> CheckoutRequest {
        try .cardRegistration(apiKey: apiKey, returnURL: returnURL, provider: "dinelco", customerID: "cus_1",
                              targetOrigins: ["https://fix.example.com"], customer: customer, integration: integration)
    }

    func testCardRequestMatchesTheSeedsExampleBodyPlusNonce() throws {
        let http = try cardRequest().httpRequest(nonce: "0123456789abcdef0123456789abcdef")
        XCTAssertEqual(http.method, "POST")
        XCTAssertEqual(http.url, "https://api.pay.ingalca.com/v1/cards")
        XCTAssertEqual(http.headers.map(\.name), ["Authorization", "Content-Type"])
        XCTAssertEqual(http.headers.map(\.value), ["Bearer sk_test_SECRET123", "application/json"])
        XCTAssertEqual(http.body, [
            "provider": "dinelco", "customer_id": "cus_1", "target_origin": ["https://fix.example.com"],
            "customer": ["name": "Juan", "lastname": "Pérez", "email": "juan@example.com", "phone": "+595981234567"],
            "return_url": "fixapp://checkout-callback/ph_0123456789abcdef0123456789abcdef",
        ])
    }

    func testTheAPIKeyIsRedactedEverywhereButTheRequestToSend() throws {
        let http = try cardRequest().httpRequest(nonce: "0123456789abcdef")
        XCTAssertFalse(http.description.contains("SECRET123"))
        XCTAssertTrue(http.description.contains("Bearer sk_…"), http.description)
        XCTAssertFalse("\(http.json(revealingSecrets: false))".contains("SECRET123"))
        XCTAssertTrue("\(http.json(revealingSecrets: true))".contains("SECRET123"))
        XCTAssertThrowsError(try cardRequest(apiKey: "sk_test_SECRET123\r\nX-Evil: 1")) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "api_key")
            XCTAssertFalse("\(error)".contains("SECRET123"))
        }
    }

    func testPaymentExtraFieldsAreCarriedButCannotOverride() throws {
        var fields = JSONObject()
        fields["amount"] = 10000
        fields["currency"] = "MXN"
        let payment = try CheckoutRequest.payment(apiKey: "k", returnURL: "https://tuapp.com/cb?src=app", fields: fields,
                                                  baseURL: "http://127.0.0.1:8080/")
        let http = payment.httpRequest(nonce: "abcdefabcdefabcd")
        XCTAssertEqual(http.url, "http://127.0.0.1:8080/v1/payments")
        XCTAssertEqual(http.body, ["amount": 10000, "currency": "MXN",
                                   "return_url": "https://tuapp.com/cb/ph_abcdefabcdefabcd?src=app"])
        fields["return_url"] = "https://evil.example/cb"
        XCTAssertThrowsError(try CheckoutRequest.payment(apiKey: "k", returnURL: "https://tuapp.com/cb", fields: fields))
        XCTAssertThrowsError(try CheckoutRequest.payment(apiKey: "k", returnURL: "fixapp://cb", baseURL: "http://api.example.com"))
    }

    func testIframeCombinationsFollowTheSeedsFallbackRules() throws {
        XCTAssertThrowsError(try cardRequest(integration: .iframe)) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "return_url")
        }
        XCTAssertEqual(try cardRequest(returnURL: "https://fix.example.com/cb", integration: .iframe).warnings.count, 1)
        XCTAssertEqual(try cardRequest(returnURL: nil, integration: .iframe).warnings, [])
        XCTAssertThrowsError(try cardRequest(returnURL: nil))
    }

    func testNonceComesFromTheInjectedGenerator() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let n1 = CorrelationSecret.make(using: &a)
        XCTAssertEqual(n1, CorrelationSecret.make(using: &b))
        XCTAssertNotEqual(n1, CorrelationSecret.make(using: &c))
        XCTAssertEqual(n1.utf8.count, 32)
    }

    /// The nonce and token rule, byte by byte: every byte value at the first, a middle and the
    /// last position of values whose last 8 bytes do and do not overlap the word before them
    /// (the check reads 8 bytes at a time).
    func testSecretRuleEveryByteAtEveryKindOfPosition() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        for length in [16, 17, 23, 24, 31, 32, 127, 128] {
            for position in Set([0, 7, 8, length / 2, length - 9, length - 8, length - 1]) {
                for byte in 0...127 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = UInt8(byte)
                    let value = String(decoding: bytes, as: UTF8.self)
                    let follows = unreserved.contains(UInt8(byte))
                    XCTAssertEqual((try? CorrelationSecret.check(value, field: "nonce")) != nil, follows, "\(length) \(position) \(byte)")
                    XCTAssertEqual((try? CorrelationSecret.checkToken(value, field: "token")) != nil, follows && byte != 0x7E,
                                   "\(length) \(position) \(byte)")
                }
                var bytes = Array(String(repeating: "a", count: length - 1).utf8)
                bytes.insert(contentsOf: "é".utf8, at: Swift.min(position, bytes.count - 1))  // non-ASCII anywhere: refused
                XCTAssertThrowsError(try CorrelationSecret.check(String(decoding: bytes, as: UTF8.self), field: "nonce"))
            }
        }
        XCTAssertNoThrow(try CorrelationSecret.check(String(repeating: "Z", count: 16), field: "nonce"))
        XCTAssertThrowsError(try CorrelationSecret.check(String(repeating: "Z", count: 15), field: "nonce"))
        XCTAssertThrowsError(try CorrelationSecret.check(String(repeating: "Z", count: 129), field: "nonce"))
        XCTAssertThrowsError(try CorrelationSecret.checkToken("0123456789abcdef~", field: "token")) { error in
            XCTAssertTrue((error as? PayHandoffError)?.message.contains("'~'") == true)
        }
        XCTAssertThrowsError(try CorrelationSecret.checkToken("0123456789abcde", field: "token")) { error in
            XCTAssertEqual((error as? PayHandoffError)?.message, "must be 16 to 128 characters from A-Z a-z 0-9 - . _ ~")
        }
    }

    func testCallbackRules() throws {
        let returnURL = try ReturnURL("fixapp://checkout-callback")
        let nonce = "0123456789abcdef0123456789abcdef"
        let good = try CheckoutCallback.parse("FIXAPP://checkout-callback/ph_\(nonce)?status=completed&card_id=card_xyz789#frag",
                                              kind: .cards, returnURL: returnURL, nonce: nonce)
        XCTAssertEqual(good.status, .completed)
        XCTAssertEqual(good.objectID, "card_xyz789")
        XCTAssertTrue(good.isVerified)

        let spoof = "fixapp://checkout-callback?status=completed&card_id=card_x"
        XCTAssertThrowsError(try CheckoutCallback.parse(spoof, kind: .cards, returnURL: returnURL, nonce: nonce)) { error in
            XCTAssertEqual(error as? PayHandoffError, PayHandoffError(.callbackMismatch, field: "nonce",
                           "the callback carries no nonce: any app or page can send it, so it is refused"))
        }
        let claim = try CheckoutCallback.parse(spoof, kind: .cards, returnURL: returnURL, nonce: nonce, acceptUnverified: true)
        XCTAssertFalse(claim.isVerified, "accepted only when asked for, and then never proof")
        for bad in ["", "short", "0123456789abcdef/", "0123456789abcdef%41"] {
            XCTAssertThrowsError(try CheckoutCallback.parse(spoof, kind: .cards, returnURL: returnURL, nonce: bad)) { error in
                XCTAssertEqual((error as? PayHandoffError)?.field, "nonce", "the one nonce rule: " + bad)
                XCTAssertEqual((error as? PayHandoffError)?.code, .validation)
            }
        }
        XCTAssertThrowsError(try CheckoutCallback.parse(spoof, kind: .cards, returnURL: returnURL, nonce: nil)) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, .validation, "a nonce is required unless unverified callbacks are accepted")
        }

        func code(_ url: String, kind: CheckoutKind = .cards) -> String? {
            do { _ = try CheckoutCallback.parse(url, kind: kind, returnURL: returnURL, nonce: nonce); return nil }
            catch { return "\(error.code.rawValue):\(error.field ?? "-")" }
        }
        let base = "fixapp://checkout-callback/ph_" + nonce
        XCTAssertEqual(code("fixapp://checkout-callback/ph_bad?status=completed&card_id=card_x"), "callback_mismatch:nonce")
        XCTAssertEqual(code("fixapp://checkout-callback/ph_\(nonce)/x?status=completed&card_id=card_x"), "callback_mismatch:path")
        XCTAssertEqual(code("fixapp://checkout-callback/ph_?status=completed&card_id=card_x"), "callback_mismatch:path")
        XCTAssertEqual(code("evilapp://checkout-callback/ph_\(nonce)?status=completed&card_id=card_x"), "callback_mismatch:scheme")
        XCTAssertEqual(code("fixapp://checkout-callback/?status=completed&card_id=card_x"), "callback_mismatch:path")
        XCTAssertEqual(code("fixapp://other/ph_\(nonce)?status=completed&card_id=card_x"), "callback_mismatch:host")
        XCTAssertEqual(code(base + "?status=completed&payment_id=pay_1"), "callback_mismatch:payment_id")
        XCTAssertEqual(code(base + "?status=completed"), "validation:card_id")
        XCTAssertEqual(code(base + "?status=done&card_id=card_x"), "validation:status")
        XCTAssertEqual(code(base + "?status=failed&reason=a&reason=b"), "malformed_url:reason")
        XCTAssertEqual(code(base + "?status=completed&card_id=card_" + String(repeating: "x", count: 124)), "validation:card_id",
                       "ids are kept whole: at most 128 bytes")
        // Raw control characters come first, wherever they are and whatever else is wrong.
        XCTAssertEqual(code("fixapp://checkout-callback\u{1}?status=completed&card_id=card_x"), "malformed_url:url")
        XCTAssertEqual(code("evilapp://checkout-callback?status=done#a b"), "malformed_url:url")
        XCTAssertEqual(code(base + "?status=done&reason=a\u{7F}"), "malformed_url:url")
        XCTAssertNil(code(base + "?status=failed&reason=Hola!%22#!"), "'!' and '\"' are fine")
        let lazily = try CheckoutCallback.parse(base + "?z=1&status=failed&a%20b=c+d&ph_nonce=x", kind: .cards, returnURL: returnURL, nonce: nonce)
        XCTAssertEqual(lazily.extra, [QueryItem(key: "z", value: "1"), QueryItem(key: "a b", value: "c d"), QueryItem(key: "ph_nonce", value: "x")],
                       "ph_nonce is an ordinary parameter now")
        XCTAssertEqual(lazily, try CheckoutCallback(json: lazily.json), "read from the URL or restored: same values")
        let failed = try CheckoutCallback.parse(base + "?status=failed&reason=Fondos+insuficientes%2B", kind: .cards,
                                                returnURL: returnURL, nonce: nonce)
        XCTAssertEqual(failed.reason, "Fondos insuficientes+")
    }

    func testTheNonceSurvivesEveryWayAGatewayAddsItsParameters() throws {
        let nonce = "0123456789abcdef0123456789abcdef"
        for (registered, sent) in [
            ("fixapp://checkout-callback", "fixapp://checkout-callback/ph_\(nonce)"),
            ("fixapp://checkout-callback?src=app", "fixapp://checkout-callback/ph_\(nonce)?src=app"),
            ("https://shop.example/pay/return", "https://shop.example/pay/return/ph_\(nonce)"),
            ("https://shop.example/pay/return/", "https://shop.example/pay/return/ph_\(nonce)"),
            ("https://shop.example", "https://shop.example/ph_\(nonce)"),
            ("com.fix.app:/return", "com.fix.app:/return/ph_\(nonce)"),
            ("http://127.0.0.1:8080/cb?a=1&b=2", "http://127.0.0.1:8080/cb/ph_\(nonce)?a=1&b=2"),
        ] {
            let returnURL = try ReturnURL(registered)
            XCTAssertEqual(returnURL.adding(nonce: nonce), sent)
            let hasQuery = sent.contains("?")
            let appended = sent + (hasQuery ? "&" : "?") + "status=completed&card_id=card_1"   // append with & (or ? when none)
            let blind = sent + "?status=completed&card_id=card_1"                                 // append with ? blindly
            let replaced = String(sent.split(separator: "?")[0]) + "?status=completed&card_id=card_1"  // replace the query
            for url in [appended, blind, replaced] {
                let callback = try CheckoutCallback.parse(url, kind: .cards, returnURL: returnURL, nonce: nonce)
                XCTAssertTrue(callback.isVerified, url)
                XCTAssertEqual(callback.status, .completed, url)
                XCTAssertEqual(callback.objectID, "card_1", url)
            }
        }
        for refused in ["myapp://", "myapp:///cb", "myapp://result=aprobada", "myapp://a&b/cb", "fixapp://cb/ph_0123456789abcdef",
                        "https://shop.example/ph_x"] {
            XCTAssertThrowsError(try ReturnURL(refused), refused) { error in
                XCTAssertEqual((error as? PayHandoffError)?.field, "return_url")
            }
        }
    }

    func testAnExactEchoOfTheReturnURLReadsAsEveryOtherSpellingOfIt() throws {
        // A callback that starts with the registered text is not split again (the shortcut of
        // ReturnURL.addressedSpans); respellings take the full way. Both must agree, and text
        // that merely starts like the return URL must not pass for it.
        let cases: [(registered: String, respelled: String, lookalike: String, lookalikeField: String)] = [
            ("fixapp://checkout-callback", "FIXAPP://Checkout-Callback", "fixapp://checkout-callbackX", "host"),
            ("https://fix.example.com/cb", "HTTPS://FIX.example.com:443/cb", "https://fix.example.com/cb2", "path"),
            ("https://fix.example.com", "https://fix.example.com:443/", "https://fix.example.com.evil", "host"),
            ("com.fix.app:/return", "COM.fix.APP:/return", "com.fix.app:/returned", "path"),
            ("http://127.0.0.1:8080/cb", "HTTP://127.0.0.1:8080/cb", "http://127.0.0.1:8080/cb/x", "path"),
        ]
        for (registered, respelled, lookalike, field) in cases {
            let returnURL = try ReturnURL(registered)
            func outcome(_ url: String) -> String {
                do {
                    let callback = try CheckoutCallback.parse(url, kind: .cards, returnURL: returnURL, nonce: nil, acceptUnverified: true)
                    return callback.status.rawValue + "," + callback.extra.map { $0.key + "=" + $0.value }.joined(separator: "&")
                } catch {
                    return error.code.rawValue + ":" + (error.field ?? "-")
                }
            }
            for tail in ["?status=cancelled", "?status=cancelled&x=1#frag", "#frag", "", "?status=done",
                         "?status=cancelled&x=1#a=1&b=%zz&&c", "?x=1&status=failed#", "?#status=cancelled", "#?status=cancelled"] {
                XCTAssertEqual(outcome(registered + tail), outcome(respelled + tail), registered + tail)
            }
            XCTAssertEqual(outcome(registered + "?status=cancelled"), "cancelled,")
            XCTAssertEqual(outcome(lookalike + "?status=cancelled"), "callback_mismatch:" + field, lookalike)
        }
    }

    func testConfirmationsAreIdempotentAndConflictsAreReported() throws {
        let event: JSONValue = ["type": "card.registered", "data": ["card_id": "card_xyz", "brand": "visa",
                                "last_four": "4242", "token": "tok_1", "created_at": "2026-11-30T16:00:00Z"]]
        let first = try CheckoutConfirmation(json: event)
        let retried = try CheckoutConfirmation(json: ["type": "card.registered", "data": ["id": "card_xyz", "brand": "visa",
                                "last_four": "4242", "token": "tok_1", "created_at": "2026-11-30T16:00:09Z"]])
        XCTAssertNoThrow(try first.checkConsistent(with: retried))
        let other = try CheckoutConfirmation(json: ["type": "card.registered", "data": ["card_id": "card_xyz", "brand": "mastercard",
                                "last_four": "4242", "token": "tok_1"]])
        XCTAssertThrowsError(try first.checkConsistent(with: other)) { error in
            XCTAssertEqual(error as? PayHandoffError, PayHandoffError(.conflict, field: "brand", "confirmations disagree on the brand"))
        }
        let callback = try CheckoutCallback.parse("fixapp://cb?status=completed&card_id=card_abc", kind: .cards,
                                                  returnURL: ReturnURL("fixapp://cb"), nonce: nil, acceptUnverified: true)
        XCTAssertThrowsError(try first.checkMatches(callback)) { error in
            XCTAssertEqual((error as? PayHandoffError)?.code, .conflict)
        }
        XCTAssertEqual(try CheckoutConfirmation(json: first.eventJSON), first)
    }

    func testGatewayErrorsKeepTheGatewaysMessage() {
        XCTAssertThrowsError(try CheckoutSession.parse(kind: .cards, status: 422,
                                                       body: ["error": ["code": "invalid_customer", "message": "customer_id no existe"]])) { error in
            XCTAssertEqual(error as? PayHandoffError,
                           PayHandoffError(.gatewayError, "the gateway answered HTTP 422: invalid_customer: customer_id no existe"))
        }
        XCTAssertThrowsError(try CheckoutSession.parse(kind: .payments, status: 201,
                                                       body: ["data": ["checkout": ["checkout_url": "http://pay.example/c"]]])) { error in
            XCTAssertEqual((error as? PayHandoffError)?.field, "data.checkout.checkout_url")
        }
    }
}
