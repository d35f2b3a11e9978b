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
            "return_url": "fixapp://checkout-callback?ph_nonce=0123456789abcdef0123456789abcdef",
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
                                   "return_url": "https://tuapp.com/cb?src=app&ph_nonce=abcdefabcdefabcd"])
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
        let n1 = ReturnURL.makeNonce(using: &a)
        XCTAssertEqual(n1, ReturnURL.makeNonce(using: &b))
        XCTAssertNotEqual(n1, ReturnURL.makeNonce(using: &c))
        XCTAssertEqual(n1.utf8.count, 32)
    }

    func testCallbackRules() throws {
        let returnURL = try ReturnURL("fixapp://checkout-callback")
        let nonce = "0123456789abcdef0123456789abcdef"
        let good = try CheckoutCallback.parse("FIXAPP://checkout-callback?status=completed&card_id=card_xyz789&ph_nonce=\(nonce)#frag",
                                              kind: .cards, returnURL: returnURL, nonce: nonce)
        XCTAssertEqual(good.status, .completed)
        XCTAssertEqual(good.objectID, "card_xyz789")
        XCTAssertTrue(good.isVerified)

        let spoof = try CheckoutCallback.parse("fixapp://checkout-callback?status=completed&card_id=card_x",
                                               kind: .cards, returnURL: returnURL, nonce: nonce)
        XCTAssertFalse(spoof.isVerified, "no nonce: reported, but never proof")

        func code(_ url: String, kind: CheckoutKind = .cards) -> String? {
            do { _ = try CheckoutCallback.parse(url, kind: kind, returnURL: returnURL, nonce: nonce); return nil }
            catch { return "\(error.code.rawValue):\(error.field ?? "-")" }
        }
        XCTAssertEqual(code("fixapp://checkout-callback?status=completed&card_id=card_x&ph_nonce=bad"), "callback_mismatch:ph_nonce")
        XCTAssertEqual(code("evilapp://checkout-callback?status=completed&card_id=card_x"), "callback_mismatch:scheme")
        XCTAssertEqual(code("fixapp://checkout-callback/?status=completed&card_id=card_x"), "callback_mismatch:path")
        XCTAssertEqual(code("fixapp://other?status=completed&card_id=card_x"), "callback_mismatch:host")
        XCTAssertEqual(code("fixapp://checkout-callback?status=completed&payment_id=pay_1"), "callback_mismatch:payment_id")
        XCTAssertEqual(code("fixapp://checkout-callback?status=completed"), "validation:card_id")
        XCTAssertEqual(code("fixapp://checkout-callback?status=done&card_id=card_x"), "validation:status")
        XCTAssertEqual(code("fixapp://checkout-callback?status=failed&reason=a&reason=b"), "malformed_url:reason")
        // Raw control characters come first, wherever they are and whatever else is wrong.
        XCTAssertEqual(code("fixapp://checkout-callback\u{1}?status=completed&card_id=card_x"), "malformed_url:url")
        XCTAssertEqual(code("evilapp://checkout-callback?status=done#a b"), "malformed_url:url")
        XCTAssertEqual(code("fixapp://checkout-callback?status=done&reason=a\u{7F}"), "malformed_url:url")
        XCTAssertNil(code("fixapp://checkout-callback?status=failed&reason=Hola!%22#!"), "'!' and '\"' are fine")
        let lazily = try CheckoutCallback.parse("fixapp://checkout-callback?z=1&status=failed&a%20b=c+d&ph_nonce=\(nonce)",
                                                kind: .cards, returnURL: returnURL, nonce: nonce)
        XCTAssertEqual(lazily.extra, [QueryItem(key: "z", value: "1"), QueryItem(key: "a b", value: "c d")])
        XCTAssertEqual(lazily, try CheckoutCallback(json: lazily.json), "read from the URL or restored: same values")
        let failed = try CheckoutCallback.parse("fixapp://checkout-callback?status=failed&reason=Fondos+insuficientes%2B",
                                                kind: .cards, returnURL: returnURL, nonce: nonce)
        XCTAssertEqual(failed.reason, "Fondos insuficientes+")
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
                    let callback = try CheckoutCallback.parse(url, kind: .cards, returnURL: returnURL, nonce: nil)
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
                                                  returnURL: ReturnURL("fixapp://cb"), nonce: nil)
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
