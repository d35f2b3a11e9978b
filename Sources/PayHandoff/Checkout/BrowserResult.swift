/// What the browser reported when it handed control back to the app: the result of an
/// OS-captured return channel, event `checkout.browser_result` (issue 38).
///
/// | `channel` | codes it can give |
/// |---|---|
/// | `auth_tab` (Android's Auth Tab, androidx.browser 1.9+, Chrome 137+) | every code |
/// | `web_authentication_session` (iOS `ASWebAuthenticationSession`) | `ok`, `canceled` (`canceledLogin`), `unknown` |
/// | `custom_tab`, `safari_view_controller` | `canceled` (the return itself comes as a deep link) |
///
/// What the flow makes of each code:
/// - `ok` (with `url`, the only code that has one): the URL goes through the same nonce check and
///   once-only rule as a deep link — the same return arriving both ways, in either order, moves
///   the flow once, the second is `duplicate`; a URL carrying another flow's nonce is
///   `callback_mismatch` and moves no flow. (The fallback of an Auth Tab is a Custom Tab whose
///   return comes as a deep link: the channel's word is never trusted in place of the nonce.)
/// - `canceled`: what `checkout.browser_dismissed` means — no result yet, not a failure.
/// - `verification_failed` / `verification_timed_out`: Chrome could not verify the https return
///   (Digital Asset Links) and withheld the URL, so the payment may or may not have happened:
///   `reconcile`, never "cancelled"; `unknown` likewise. Then the flow waits as
///   `returned_without_result` does: the webhook or a later genuine return still decides.
///
/// `ASWebAuthenticationSession`'s errors 2 and 3 (`presentationContextNotProvided`,
/// `presentationContextInvalid`) mean the session never showed the page: the payment cannot have
/// started in it. They are `canceled` (the tab is not open, no result came, a new launch may
/// follow); any other error is `unknown`.
public struct BrowserResult: Equatable, Sendable {
    /// The return channel.
    public enum Channel: String, Sendable, CaseIterable {
        /// Android's Auth Tab (`AuthTabIntent`): the result comes as an activity result.
        case authTab = "auth_tab"
        /// iOS's `ASWebAuthenticationSession`: the result comes to its completion handler.
        case webAuthenticationSession = "web_authentication_session"
        /// Android's Custom Tab: only its closing is known; the return is a deep link.
        case customTab = "custom_tab"
        /// iOS's `SFSafariViewController`: only its closing is known; the return is a deep link.
        case safariViewController = "safari_view_controller"

        /// The channel spelled `rawValue`, matched by UTF-8 bytes.
        public init?(rawValue: String) {
            guard let value = Channel.matching(rawValue, among: Channel.allCases) else { return nil }
            self = value
        }

        /// Whether the channel can report `code`.
        public func canReport(_ code: Code) -> Bool {
            switch (self, code) {
            case (.authTab, _): return true
            case (.webAuthenticationSession, .ok), (.webAuthenticationSession, .canceled), (.webAuthenticationSession, .unknown): return true
            case (.customTab, .canceled), (.safariViewController, .canceled): return true
            default: return false
            }
        }
    }

    /// The result code.
    public enum Code: String, Sendable, CaseIterable {
        /// The browser handed back the return URL.
        case ok
        /// The user closed the browser without completing.
        case canceled
        /// The OS could not verify the https return (Digital Asset Links).
        case verificationFailed = "verification_failed"
        /// The verification did not finish in time.
        case verificationTimedOut = "verification_timed_out"
        /// Any other result.
        case unknown

        /// The code spelled `rawValue`, matched by UTF-8 bytes.
        public init?(rawValue: String) {
            guard let value = Code.matching(rawValue, among: Code.allCases) else { return nil }
            self = value
        }
    }

    /// The return channel.
    public let channel: Channel
    /// What it reported.
    public let code: Code
    /// The return URL, with ``Code/ok`` only.
    public let url: String?

    /// A result, checked against the channel's codes.
    /// - Parameters:
    ///   - channel: The return channel.
    ///   - code: What it reported.
    ///   - url: The URL it handed back: required with `ok`, refused with any other code.
    /// - Throws: `validation` naming `code` (a code the channel cannot give) or `url`.
    public init(channel: Channel, code: Code, url: String?) throws(PayHandoffError) {
        guard channel.canReport(code) else {
            throw PayHandoffError(.validation, field: "code", channel.rawValue + " cannot report " + code.rawValue)
        }
        switch (code, url) {
        case (.ok, nil): throw PayHandoffError(.validation, field: "url", "is required with code ok")
        case (.ok, _?), (_, nil): break
        case (_, _?): throw PayHandoffError(.validation, field: "url", "only code ok carries a url")
        }
        self.channel = channel
        self.code = code
        self.url = url
    }

    /// A result from the words of its document.
    /// - Throws: `validation` naming `channel` or `code` for an unknown word, or as ``init(channel:code:url:)``.
    init(channel: String, code: String, url: String?) throws(PayHandoffError) {
        guard let knownChannel = Channel(rawValue: channel) else {
            throw PayHandoffError(.validation, field: "channel",
                                  "must be auth_tab, web_authentication_session, custom_tab or safari_view_controller")
        }
        guard let knownCode = Code(rawValue: code) else {
            throw PayHandoffError(.validation, field: "code",
                                  "must be ok, canceled, verification_failed, verification_timed_out or unknown")
        }
        try self.init(channel: knownChannel, code: knownCode, url: url)
    }

    /// Why the flow must be reconciled after this result (`nil` for `ok` and `canceled`).
    var reconcileReason: String? {
        switch code {
        case .ok, .canceled: return nil
        case .verificationFailed, .verificationTimedOut:
            return "the browser withheld the https return: "
                + (code == .verificationFailed ? "Digital Asset Links verification failed" : "Digital Asset Links verification timed out")
                + " (the return host's /.well-known/assetlinks.json; iOS: the webcredentials associated domain); the payment may have happened: ask the backend"
        case .unknown:
            return "the browser returned an unknown result: the payment may have happened: ask the backend"
        }
    }

    /// Equal when every field is; the URL compared by UTF-8 bytes.
    public static func == (lhs: BrowserResult, rhs: BrowserResult) -> Bool {
        lhs.channel == rhs.channel && lhs.code == rhs.code && lhs.url.hasSameBytes(as: rhs.url)
    }
}
