import Foundation
import PayHandoff

/// The URLs the app must receive, derived from the core: the gateway's redirect to the return
/// URL (the URL `ReturnURL.adding(nonce:)` hands out, with the gateway's `status`/`card_id`
/// appended) and the POS app's answer on the answer scheme. Every platform check matches these
/// URLs, not the bare return URL, so a change in where the core puts its nonce (a query
/// parameter today, possibly a path segment) is checked as the OS will see it.
public struct DoctorLinks: Sendable {
    /// The query the gateway appends to the return URL after a card registration (the guide's example).
    public static let sampleCallbackQuery = "status=completed&card_id=card_xyz"
    /// The answer the POS app sends after an approved sale of 100.00 (the fields the core requires).
    public static let samplePOSAnswer = "result=aprobada&amount=100.00&transactionid=720371&identifier=order-42"
    /// The scheme of the Billpocket POS app.
    public static let posAppScheme = "billpocket"

    /// The return URL as given (`--return-url`), or `nil`.
    public let returnURLText: String?
    /// The return URL when it passed the core's validation.
    public let returnURL: ReturnURL?
    /// Why the core refused the return URL.
    public let returnURLError: PayHandoffError?
    /// The nonce used for the sample callback: the core's format, fixed digits.
    public let sampleNonce: String
    /// The URL the gateway redirects the browser tab to (return URL + core nonce + gateway query).
    public let callbackURL: String?
    /// The POS answer scheme as given (`--pos-scheme`), or `nil`.
    public let posSchemeText: String?
    /// The bare answer scheme (`myapp`) when it passed the core's validation.
    public let posScheme: String?
    /// Why the core refused the POS scheme.
    public let posSchemeError: PayHandoffError?
    /// A sample answer of the POS app on that scheme.
    public let posAnswerURL: String?

    /// Derives the links.
    /// - Parameters:
    ///   - returnURL: The return URL the app sends to the gateway, if the app uses the hosted checkout.
    ///   - posScheme: The `urlScheme` the app sends to the POS app, if it uses the POS hand-off.
    public init(returnURL: String?, posScheme: String?) {
        var generator = FixedDigits()
        sampleNonce = CorrelationSecret.make(using: &generator)
        returnURLText = returnURL
        var valid: ReturnURL? = nil
        var refusal: PayHandoffError? = nil
        if let returnURL {
            do throws(PayHandoffError) {
                valid = try ReturnURL(returnURL)
            } catch {
                refusal = error
            }
        }
        self.returnURL = valid
        returnURLError = refusal
        if let valid {
            // The gateway appends its query as the guide shows: `?status=…`, or `&status=…`
            // when the URL it was given already has a query (`GatewayRedirect.append`).
            callbackURL = GatewayRedirect.append.url(valid.adding(nonce: sampleNonce), query: DoctorLinks.sampleCallbackQuery)
        } else {
            callbackURL = nil
        }

        posSchemeText = posScheme
        var scheme: String? = nil
        var schemeRefusal: PayHandoffError? = nil
        if let posScheme {
            do throws(PayHandoffError) {
                // The core's own rules for `urlScheme`, applied by building a sale with it.
                let request = try POSRequest.sale(userToken: "doctor", identifier: "order-42",
                                                  amount: try Amount(parsing: "1.00"), urlScheme: posScheme)
                scheme = request.answerScheme
            } catch {
                schemeRefusal = error
            }
        }
        self.posScheme = scheme
        posSchemeError = schemeRefusal
        posAnswerURL = scheme.map { $0 + "://" + DoctorLinks.samplePOSAnswer }
    }

    /// The links as the OS sees them (scheme, host, port, path), for the platform checks.
    var targets: [LinkTarget] {
        var targets: [LinkTarget] = []
        if let callbackURL, let returnURL, let target = LinkTarget(.callback, callbackURL, returnURL: returnURL, nonce: sampleNonce) { targets.append(target) }
        if let posAnswerURL, let target = LinkTarget(.posAnswer, posAnswerURL, returnURL: nil) { targets.append(target) }
        return targets
    }

    /// The findings about the return URL and the POS scheme themselves.
    func findings() -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if let text = returnURLText {
            if let error = returnURLError {
                findings.append(DoctorFinding(.returnURLValid, .error, file: nil,
                    "the core refuses the return URL \(text): \(error.message)",
                    fix: "send a return URL such as com.fix.app://checkout-callback (custom scheme) or https://fix.example.com/checkout-callback (App Link / Universal Link)"))
            } else if let returnURL, let callbackURL {
                if targets.contains(where: { $0.role == .callback }) {
                    findings.append(DoctorFinding(.returnURLValid, .ok, file: nil,
                        "\(text) passes the core's validation; the gateway will redirect to \(callbackURL)"))
                } else {
                    findings.append(DoctorFinding(.returnURLValid, .warning, file: nil,
                        "\(text) passes the core's validation, but Foundation's URL parser cannot split \(callbackURL) into scheme, host and path: the platform checks skip the callback"))
                }
                findings.append(schemeAdvice(returnURL))
            }
        }
        if let text = posSchemeText {
            if let error = posSchemeError {
                findings.append(DoctorFinding(.posSchemeValid, .error, file: nil,
                    "the core refuses the POS answer scheme \(text): \(error.message)",
                    fix: "use a scheme such as com.fix.app.pos or myapp (a letter, then letters, digits, '+', '-' or '.'; at most 50 characters)"))
            } else if let scheme = posScheme, scheme != scheme.lowercased() {
                findings.append(DoctorFinding(.posSchemeValid, .warning, file: nil,
                    "the POS answer scheme \(scheme) has upper-case letters: the POS app answers on it as written and Android matches schemes case-sensitively, so the intent filter must spell it exactly; lower case avoids the trap",
                    fix: "--pos-scheme \(scheme.lowercased())  (and register \(scheme.lowercased()) in the manifest and Info.plist)"))
            } else if let scheme = posScheme {
                findings.append(DoctorFinding(.posSchemeValid, .ok, file: nil,
                    "the POS app will answer on \(scheme):// (sample: \(posAnswerURL ?? ""))"))
            }
        }
        return findings
    }

    private func schemeAdvice(_ returnURL: ReturnURL) -> DoctorFinding {
        let scheme = String(returnURL.text.prefix { $0 != ":" })
        if scheme != scheme.lowercased() {
            return DoctorFinding(.returnURLScheme, .warning, file: nil,
                "the scheme \(scheme) has upper-case letters: browsers hand the app the lower-case form, and Android matches intent-filter schemes case-sensitively",
                fix: "--return-url \(scheme.lowercased())\(returnURL.text.dropFirst(scheme.count))  (and register \(scheme.lowercased()) in lower case)")
        }
        if scheme == "http" {
            return DoctorFinding(.returnURLScheme, .warning, file: nil,
                "an http return URL cannot be a verified App Link or Universal Link (both need https), so it opens in the browser or in any app that claims it",
                fix: "--return-url https\(returnURL.text.dropFirst(scheme.count))")
        }
        if !returnURL.isCustomScheme {
            return DoctorFinding(.returnURLScheme, .ok, file: nil,
                "an https return URL opens the app only as a verified App Link / Universal Link (checked below), which no other app can claim; where it is not verified it stays in the browser")
        }
        let note = "any app can register \(scheme):// and receive the callback: the core's nonce keeps a forged callback from moving the flow, but only a verified App Link / Universal Link (an https return URL) keeps another app from receiving the user's redirect"
        if scheme.contains(".") {
            return DoctorFinding(.returnURLScheme, .ok, file: nil, "reverse-DNS scheme, as RFC 8252 recommends; \(note)")
        }
        return DoctorFinding(.returnURLScheme, .warning, file: nil,
            "\(scheme) is not a reverse-DNS name: RFC 8252 (section 7.1) asks for one based on a domain you control, so two apps do not pick the same scheme; \(note)",
            fix: "use a scheme such as com.fix.app://checkout-callback (your reverse domain), registered in the manifest and Info.plist")
    }

    /// The commands that hand a device or simulator the links, and which link each opens.
    /// - Parameter androidPackage: When known, `adb` targets the app's package (no chooser).
    func tryCommands(androidPackage: String?) -> [(platform: String, link: String, command: String)] {
        var commands: [(platform: String, link: String, command: String)] = []
        // A package that is not an application id is left out rather than quoted: the device's
        // shell would read it again.
        let package = androidPackage.flatMap { DeviceCommand.isAndroidPackage($0) ? $0 : nil }
        for (name, url) in [("callback", callbackURL), ("pos_answer", posAnswerURL)] {
            guard let url else { continue }
            for platform in [DeviceCommand.Platform.android, .ios] {
                guard let command = try? DeviceCommand(platform, url: url, package: platform == .android ? package : nil) else { continue }
                commands.append((platform: platform.rawValue, link: name, command: command.commandLine))
            }
        }
        return commands
    }
}

/// Which link a check is about.
enum LinkRole {
    case callback
    case posAnswer

    var name: String { self == .callback ? "checkout callback" : "POS answer" }
}

/// A link split the way the OS splits it: lower-case scheme (browsers send it so), host, port,
/// path (decoded, as Android's `Uri.getPath()` gives it; percent-encoded for Apple's matching).
struct LinkTarget {
    let role: LinkRole
    let url: String
    let scheme: String
    let host: String?
    let port: Int?
    let path: String
    let encodedPath: String
    let queryItems: [(name: String, value: String)]
    /// What Android's `Uri.getSchemeSpecificPart()` gives: everything between `scheme:` and
    /// `#`, percent-decoded (`//host/path?query`).
    let schemeSpecificPart: String
    /// The return URL's own path: what a path prefix must cover (the core adds to it).
    let registeredPath: String
    /// The narrowest path pattern (Apple's wildcards) that covers every callback the core can
    /// hand out: the percent-encoded path up to the sample nonce, then `*`.
    let callbackPathPattern: String
    /// ``path``, ``encodedPath`` and ``schemeSpecificPart`` as the matchers compare them: the
    /// nonce's characters vary (a callback carries a new one each time), so only a wildcard may
    /// match them (``LinkText``).
    let pathText: LinkText
    let encodedPathText: LinkText
    let schemeSpecificText: LinkText

    init?(_ role: LinkRole, _ url: String, returnURL: ReturnURL?, nonce: String? = nil) {
        guard let components = URLComponents(string: url), let scheme = components.scheme else { return nil }
        self.role = role
        self.url = url
        self.scheme = scheme.lowercased()
        host = components.host
        port = components.port
        path = components.path
        encodedPath = components.percentEncodedPath
        queryItems = (components.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let afterScheme = url.drop { $0 != ":" }.dropFirst().prefix { $0 != "#" }
        schemeSpecificPart = String(afterScheme).removingPercentEncoding ?? String(afterScheme)
        if let returnURL, let registered = URLComponents(string: returnURL.text) {
            registeredPath = registered.path
        } else {
            registeredPath = components.path
        }
        pathText = LinkText(path, changing: nonce)
        encodedPathText = LinkText(encodedPath, changing: nonce)
        schemeSpecificText = LinkText(schemeSpecificPart, changing: nonce)
        if let nonce, let at = encodedPath.range(of: nonce) {
            callbackPathPattern = encodedPath[..<at.lowerBound] + "*"
        } else {
            callbackPathPattern = (registeredPath.isEmpty ? "/" : registeredPath) + "*"
        }
    }

    var isWeb: Bool { scheme == "https" || scheme == "http" }

    /// Whether the link's path carries the core's nonce (a callback), which no exact path can match.
    var pathVaries: Bool { pathText.varies.contains(true) }
}

/// The nonce generator of the sample callback: always the same words, so the output of
/// `payhandoff doctor` is the same on every run (the core formats them).
private struct FixedDigits: RandomNumberGenerator {
    mutating func next() -> UInt64 { 0x0123_4567_89ab_cdef }
}
