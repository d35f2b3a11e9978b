/// How the app opens the checkout page and gets the return (`--return-channel`): the
/// channels of the core's `checkout.browser_result` event (issue 38). Which one is in use
/// decides what the OS verifies before it hands an https return back: Auth Tab checks
/// Digital Asset Links, ASWebAuthenticationSession the `webcredentials` associated domain.
public enum ReturnChannel: String, CaseIterable, Sendable {
    /// Android's Auth Tab (androidx.browser 1.9+, Chrome 137+): the return comes as an activity result.
    case authTab = "auth_tab"
    /// iOS's `ASWebAuthenticationSession`: the return comes to the session's completion handler.
    case webAuthenticationSession = "web_authentication_session"
    /// An Android Custom Tab: the return comes as a deep link (an intent filter).
    case customTab = "custom_tab"
    /// iOS's `SFSafariViewController`: the return comes as a deep link (URL types or Universal Links).
    case safariViewController = "safari_view_controller"
}
