import Foundation
import PayHandoff
#if canImport(AuthenticationServices)
import AuthenticationServices
#endif

/// `ASWebAuthenticationSession`'s completion handler, `(URL?, Error?)`, as the
/// `checkout.browser_result` event it is (issue 38). Both initializers hand the same pair:
/// `init(url:callback:completionHandler:)` (iOS 17.4+/macOS 14.4+, `.customScheme` or
/// `.https(host:path:)` from `open_browser`'s `return_to`) and
/// `init(url:callbackURLScheme:completionHandler:)` (custom schemes, older systems).
///
/// ```swift
/// let session = ASWebAuthenticationSession(url: checkoutURL, callback: .customScheme(scheme)) { url, error in
///     let result = try BrowserResult(webAuthenticationSessionCallbackURL: url, error: error)
///     answer = try coordinator.send(.browserResult(flowID: flowID, result: result))
/// }
/// ```
///
/// The mapping is written against the error codes' values so that it runs (and is tested) where
/// AuthenticationServices does not exist.
extension BrowserResult {
    /// `ASWebAuthenticationSessionErrorDomain`.
    public static let webAuthenticationSessionErrorDomain = "com.apple.AuthenticationServices.WebAuthenticationSession"

    /// `ASWebAuthenticationSessionError.Code`'s values (AuthenticationServices).
    public enum WebAuthenticationSessionErrorCode: Int, Sendable {
        /// The user cancelled (the sheet's Cancel, or the consent alert's).
        case canceledLogin = 1
        /// No `presentationContextProvider`: the session never showed the page.
        case presentationContextNotProvided = 2
        /// The provider gave no usable window: the session never showed the page.
        case presentationContextInvalid = 3
    }

    /// The result a session's completion handler reports.
    ///
    /// - A callback URL and no error: `ok` with the URL (the coordinator checks its nonce as a
    ///   deep link's).
    /// - `canceledLogin`: `canceled` (no result yet, never a failure: the webhook decides).
    /// - `presentationContextNotProvided` / `presentationContextInvalid`: the page was never
    ///   shown, so no payment can have started in it: `canceled` too — the flow is
    ///   `returned_without_result`, as nothing came back, and opening the browser again moves it
    ///   on. (Fix the presentation context; it is a bug of the app, not of the payment.)
    /// - Anything else (another domain or code, or neither URL nor error): `unknown`, which
    ///   reconciles — the payment may have happened.
    /// - Parameters:
    ///   - callbackURL: The completion handler's URL.
    ///   - error: The completion handler's error.
    /// - Throws: Never for these inputs in practice; `PayHandoffError` as
    ///   ``BrowserResult/init(channel:code:url:)``.
    public init(webAuthenticationSessionCallbackURL callbackURL: URL?, error: Error?) throws {
        let channel = BrowserResult.Channel.webAuthenticationSession
        if error == nil, let callbackURL {
            try self.init(channel: channel, code: .ok, url: callbackURL.absoluteString)
            return
        }
        let code: BrowserResult.Code
        if let error = error as NSError?, error.domain == BrowserResult.webAuthenticationSessionErrorDomain,
           WebAuthenticationSessionErrorCode(rawValue: error.code) != nil {
            code = .canceled
        } else {
            code = .unknown
        }
        try self.init(channel: channel, code: code, url: nil)
    }
}
