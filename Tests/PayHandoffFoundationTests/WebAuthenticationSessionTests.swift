import Foundation
import PayHandoff
import PayHandoffFoundation
import XCTest
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif

/// ASWebAuthenticationSession's (callbackURL, error) as a checkout.browser_result, on Linux too.
final class WebAuthenticationSessionTests: XCTestCase {
    let url = URL(string: "fixapp://checkout-callback/ph_0123456789abcdef0123456789abcdef?status=completed&card_id=card_1")!

    func result(_ url: URL?, _ error: Error?) throws -> BrowserResult {
        try BrowserResult(webAuthenticationSessionCallbackURL: url, error: error)
    }

    func testTheCompletionHandlersPairsMapToTheEvent() throws {
        let domain = BrowserResult.webAuthenticationSessionErrorDomain
        XCTAssertEqual(try result(url, nil), try BrowserResult(channel: .webAuthenticationSession, code: .ok, url: url.absoluteString))
        XCTAssertEqual(try result(nil, NSError(domain: domain, code: 1)).code, .canceled)
        XCTAssertEqual(try result(nil, NSError(domain: domain, code: 2)).code, .canceled, "never presented: nothing can have been paid")
        XCTAssertEqual(try result(nil, NSError(domain: domain, code: 3)).code, .canceled)
        XCTAssertEqual(try result(nil, NSError(domain: domain, code: 4)).code, .unknown)
        XCTAssertEqual(try result(nil, NSError(domain: NSURLErrorDomain, code: 1)).code, .unknown)
        XCTAssertEqual(try result(nil, nil).code, .unknown)
        XCTAssertEqual(try result(url, NSError(domain: domain, code: 1)).code, .canceled, "an error wins over a URL")
        XCTAssertNil(try result(nil, NSError(domain: domain, code: 1)).url)
    }

    #if canImport(AuthenticationServices)
    func testThePinnedValuesAreAuthenticationServices() {
        XCTAssertEqual(BrowserResult.webAuthenticationSessionErrorDomain, ASWebAuthenticationSessionErrorDomain)
        XCTAssertEqual(BrowserResult.WebAuthenticationSessionErrorCode.canceledLogin.rawValue, ASWebAuthenticationSessionError.Code.canceledLogin.rawValue)
        XCTAssertEqual(BrowserResult.WebAuthenticationSessionErrorCode.presentationContextNotProvided.rawValue,
                       ASWebAuthenticationSessionError.Code.presentationContextNotProvided.rawValue)
        XCTAssertEqual(BrowserResult.WebAuthenticationSessionErrorCode.presentationContextInvalid.rawValue,
                       ASWebAuthenticationSessionError.Code.presentationContextInvalid.rawValue)
    }
    #endif

    func testTheEventMovesTheFlowOnceWithTheDeepLink() throws {
        var coordinator = Coordinator()
        _ = try coordinator.send(.checkoutStart(flowID: "c1", start: .backend(kind: .cards, returnURL: try ReturnURL("fixapp://checkout-callback"),
                                                                          nonce: "0123456789abcdef0123456789abcdef"), deadline: nil))
        let first = try coordinator.send(.browserResult(flowID: "c1", result: try result(url, nil)))
        XCTAssertEqual(first.outcome, .accepted)
        XCTAssertEqual(coordinator.handle(url).outcome, .duplicate)
    }
}
