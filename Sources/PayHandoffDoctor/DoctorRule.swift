/// The checks `payhandoff doctor` makes. The raw value is the rule's stable id, printed with
/// every finding and in `--json` output, so CI scripts can match on it; ``summary`` says what
/// each one checks (docs/doctor.md lists them with the fixtures that prove them).
public enum DoctorRule: String, CaseIterable, Sendable {
    case inputReadable = "input.readable"
    case returnURLValid = "return-url.valid"
    case returnURLScheme = "return-url.scheme"
    case posSchemeValid = "pos-scheme.valid"
    case androidIntentFilter = "android.intent-filter"
    case androidViewBrowsable = "android.view-browsable"
    case androidExported = "android.exported"
    case androidPermission = "android.permission"
    case androidLaunchMode = "android.launch-mode"
    case androidSchemeLowercase = "android.scheme-lowercase"
    case androidDataPairings = "android.data-pairings"
    case androidQueries = "android.queries"
    case androidAppLinksVerify = "android.app-links.verify"
    case androidAssetLinks = "android.assetlinks"
    case iosURLSchemes = "ios.url-schemes"
    case iosQueriesSchemes = "ios.queries-schemes"
    case iosAssociatedDomains = "ios.associated-domains"
    case iosAASA = "ios.aasa"
    case expoScheme = "expo.scheme"
    case expoAndroidIntentFilters = "expo.android-intent-filters"
    case expoIOSQueriesSchemes = "expo.ios-queries-schemes"
    case expoIOSAssociatedDomains = "expo.ios-associated-domains"
    case iosWebCredentials = "ios.webcredentials"
    case androidAuthTab = "android.auth-tab"
    case androidCheckoutHost = "android.checkout-host"
    case expoRouterNativeIntent = "expo.router-native-intent"

    /// What the rule checks, in one line (`payhandoff doctor --rules`).
    public var summary: String {
        switch self {
        case .inputReadable:
            return "every file given can be read and parsed (missing, unreadable, not a regular file, over 4 MiB, not well-formed, entity bomb, corrupt binary plist: an error naming the file)"
        case .returnURLValid:
            return "the return URL passes the core's own validation (ReturnURL)"
        case .returnURLScheme:
            return "advice on the return URL's scheme: a custom scheme can be claimed by any app (RFC 8252 asks for reverse-DNS names); lower case"
        case .posSchemeValid:
            return "the POS answer scheme passes the core's urlScheme validation; lower case"
        case .androidIntentFilter:
            return "an activity's intent filter receives the gateway's callback URL (from a browser: BROWSABLE) and the POS answer (scheme, host, port and path as Android matches them, for every nonce)"
        case .androidViewBrowsable:
            return "that filter has action VIEW and categories DEFAULT and BROWSABLE"
        case .androidExported:
            return "that activity has android:exported=\"true\" (required from API 31 for components with intent filters)"
        case .androidPermission:
            return "that activity requires no android:permission to start (the browser and the POS app hold none)"
        case .androidLaunchMode:
            return "that activity's launchMode keeps the browser tab alive: singleTask/singleInstance on the launcher activity is an error (the app's icon or a link mid-payment finishes the tab); singleTop passes (the link read in onCreate and onNewIntent); standard is a warning"
        case .androidSchemeLowercase:
            return "every <data android:scheme> (and Expo scheme) is lower case: Android matches schemes case-sensitively"
        case .androidDataPairings:
            return "no intent filter claims scheme/host pairings nobody wrote (<data> elements of one filter combine)"
        case .androidQueries:
            return "a <queries> entry lets the app see each POS app it uses on Android 11+ (--pos-app: Billpocket, Square, SumUp, Clip; Billpocket alone when only --pos-scheme is given)"
        case .androidAppLinksVerify:
            return "an https return URL's host is verified for the app: an android:autoVerify=\"true\" filter names it (a concrete host, or *. its parent) with VIEW, BROWSABLE, DEFAULT and only web schemes"
        case .androidAssetLinks:
            return "assetlinks.json lets the app's package handle all URLs of the host, with well-formed SHA-256 fingerprints"
        case .iosURLSchemes:
            return "Info.plist CFBundleURLTypes/CFBundleURLSchemes holds the return URL's custom scheme and the POS answer scheme"
        case .iosQueriesSchemes:
            return "Info.plist LSApplicationQueriesSchemes holds each POS app's scheme (billpocket, square-commerce-v1, sumupmerchant) among its first 50 (else canOpenURL answers false); Clip, which has no iOS app, is a warning"
        case .iosAssociatedDomains:
            return "an https return URL's host is in the associated domains entitlement (applinks:host)"
        case .iosAASA:
            return "apple-app-site-association lets the app (paths or components) open the callback URL's path"
        case .expoScheme:
            return "Expo app.json \"scheme\" holds the return URL's custom scheme and the POS answer scheme"
        case .expoAndroidIntentFilters:
            return "Expo android.intentFilters receives an https return URL (VIEW, BROWSABLE, DEFAULT, autoVerify)"
        case .expoIOSQueriesSchemes:
            return "Expo ios.infoPlist.LSApplicationQueriesSchemes holds each POS app's scheme (billpocket, square-commerce-v1, sumupmerchant)"
        case .expoIOSAssociatedDomains:
            return "Expo ios.associatedDomains holds applinks:host for an https return URL"
        case .iosWebCredentials:
            return "with --return-channel web_authentication_session and an https return URL: the entitlements (or Expo ios.associatedDomains) hold webcredentials:host and apple-app-site-association's webcredentials.apps lists the app"
        case .androidAuthTab:
            return "with --return-channel auth_tab and an https return URL: assetlinks.json gives the app delegate_permission/common.handle_all_urls for the host (the relation Chrome's AuthTabVerifier checks)"
        case .androidCheckoutHost:
            return "each --checkout-host is not a host the app claims with a verified App Link (else Android opens the checkout URL in the app instead of the browser)"
        case .expoRouterNativeIntent:
            return "an Expo app with expo-router has app/+native-intent.tsx whose redirectSystemPath hands PayHandoff's URLs to the coordinator and returns null for them (else the router navigates to the return path)"
        }
    }
}

/// How a check came out. `error` makes `payhandoff doctor` exit with status 1.
public enum DoctorSeverity: String, Sendable {
    /// The check passed.
    case ok
    /// The setup works, but not as well as it could, or something could not be checked.
    case warning
    /// The hand-off will fail on a device.
    case error
}

/// One check's outcome.
public struct DoctorFinding: Equatable, Sendable {
    /// The rule checked.
    public var rule: DoctorRule
    /// How it came out.
    public var severity: DoctorSeverity
    /// The file the finding is about, as given; `nil` for the return URL and POS scheme themselves.
    public var file: String?
    /// What was found, and why it matters.
    public var message: String
    /// The exact lines to add or change (XML, plist or JSON), when there is a fix.
    public var fix: String?
    /// The fix as edits of ``file``'s text (`--fix-diff`), when it can be written into the
    /// file: every one adds to the file or changes one value, never removes what other links use.
    public var edits: [TextEdit] = []

    /// Creates a finding.
    /// - Parameters:
    ///   - rule: The rule checked.
    ///   - severity: How it came out.
    ///   - file: The file it is about, if any.
    ///   - message: What was found.
    ///   - fix: The lines to add or change.
    ///   - edits: The fix as edits of the file's text.
    public init(_ rule: DoctorRule, _ severity: DoctorSeverity, file: String?, _ message: String, fix: String? = nil, edits: [TextEdit] = []) {
        self.rule = rule
        self.severity = severity
        self.file = file
        self.message = message
        self.fix = fix
        self.edits = edits
    }
}

extension DoctorFinding {
    /// This finding about a filter or activity that only possibly receives the link (a value
    /// doctor could not resolve decides): an error becomes a warning, as every "possibly" is.
    func onlyIfReceiving() -> DoctorFinding {
        guard severity == .error else { return self }
        var finding = self
        finding.severity = .warning
        finding.message += " (if it receives the link at all: see android.intent-filter)"
        return finding
    }
}
