import Foundation
import PayHandoff

/// The iOS rules: Info.plist (XML or binary) and the app's entitlements. The iOS matching
/// rules are written here once (Expo's checks call them), each citing where Apple states it:
///
/// - [url-scheme]: developer.apple.com/documentation/xcode/defining-a-custom-url-scheme-for-your-app,
///   and RFC 3986 section 3.1 ("schemes are case-insensitive")
/// - [canOpenURL]: developer.apple.com/documentation/uikit/uiapplication/canopenurl(_:)
/// - [associated-domains]: developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.associated-domains
///   and developer.apple.com/documentation/xcode/supporting-associated-domains
enum AppleChecks {
    static let associatedDomainsKey = "com.apple.developer.associated-domains"
    static let queriesKey = "LSApplicationQueriesSchemes"
    /// [canOpenURL]: "If your app is linked on or after iOS 15, … the system limits the number
    /// of schemes … to 50"; entries past the 50th are ignored.
    static let queriesLimit = 50

    /// The custom schemes iOS must route to the app: the callback's (unless it is https) and
    /// the POS answer's, each with the link it is for.
    static func customSchemes(_ links: DoctorLinks) -> [(scheme: String, link: LinkTarget)] {
        var schemes: [(scheme: String, link: LinkTarget)] = []
        for link in links.targets where !link.isWeb && !schemes.contains(where: { $0.scheme == link.scheme }) {
            schemes.append((link.scheme, link))
        }
        return schemes
    }

    // MARK: the iOS matching rules

    /// Whether `registered` (CFBundleURLSchemes, resolved) routes `scheme` to the app: schemes
    /// compare ignoring case ([url-scheme]); an unresolved entry decides by its literal text
    /// (`ShareMedia-$(PRODUCT_BUNDLE_IDENTIFIER)` never registers `im.fluffychat.auth`).
    static func registers(_ registered: [BuildValue], _ scheme: String) -> Tri {
        Tri.any(registered.map { LinkText(scheme).test($0, .equal, ignoringCase: true) })
    }

    /// Where `scheme` sits in LSApplicationQueriesSchemes (case ignored), and whether iOS reads
    /// that far ([canOpenURL]: the first ``queriesLimit`` entries).
    static func queryPosition(_ entries: [BuildValue], _ scheme: String) -> (found: Tri, position: Int?) {
        let position = entries.firstIndex { $0.resolved?.lowercased() == scheme }
        if position != nil { return (.yes, position) }
        return (Tri.any(entries.map { LinkText(scheme).test($0, .equal, ignoringCase: true) }), nil)
    }

    /// How an associated-domains entry covers `host` ([associated-domains]): the entry is
    /// `applinks:<fully qualified domain>` with no port, path or scheme; `*.` before a domain
    /// matches its subdomains but not the domain itself; `?mode=developer` / `managed` /
    /// `developer+managed` limit it to devices in developer mode or managed by MDM. Domain
    /// names compare ignoring case (DNS, RFC 4343).
    /// The same form holds for the other services (`webcredentials:`), named by `service`.
    static func covers(_ entry: String, host: String, service: String = "applinks") -> (covers: Bool, mode: String?) {
        guard entry.hasPrefix(service + ":") else { return (false, nil) }
        let rest = entry.dropFirst(service.count + 1)
        let domain = rest.prefix { $0 != "?" }.lowercased()
        let mode = rest.drop { $0 != "?" }.dropFirst().split(separator: "&").first { $0.hasPrefix("mode=") }.map { String($0.dropFirst(5)) }
        let host = host.lowercased()
        if domain.hasPrefix("*.") { return (host.hasSuffix(domain.dropFirst(1)) && host.count > domain.count - 1, mode) }
        return (domain == host, mode)
    }

    // MARK: Info.plist

    /// The property list at `path` and its text for fixes (`nil` for a binary plist), with the
    /// `input.readable` finding.
    private static func readPropertyList(_ path: String, into findings: inout [DoctorFinding]) -> (dictionary: [String: Any], source: PlistSource?)? {
        guard let document = InputFile.read(path, into: &findings, InputFile.propertyListDocument(at:)) else { return nil }
        let source = PlistSource(document.contents, path: path)
        findings.append(DoctorFinding(.inputReadable, .ok, file: path,
            "read a property list of \(document.dictionary.count) keys" + (source == nil ? " (binary: fixes are printed, not offered as a diff; plutil -convert xml1 makes it editable)" : "")))
        return (document.dictionary, source)
    }

    /// Checks the Info.plist at `path`, expanding build settings with `build`.
    /// - Returns: The findings, and the file's bytes when it is an XML plist (for `--fix-diff`).
    /// - Parameter posApps: The POS apps the app hands sales to, whose schemes LSApplicationQueriesSchemes must hold.
    static func check(infoPlistAt path: String, links: DoctorLinks, build: AppleBuildValues, posApps: [POSApp] = []) -> (findings: [DoctorFinding], contents: [UInt8]?) {
        var findings: [DoctorFinding] = []
        guard let (plist, source) = readPropertyList(path, into: &findings) else { return (findings, nil) }
        let types = plist["CFBundleURLTypes"] as? [Any]
        let registered = (types ?? []).flatMap { (($0 as? [String: Any])?["CFBundleURLSchemes"] as? [Any] ?? []).compactMap { $0 as? String } }.map(build.resolve)
        let missing = customSchemes(links).filter { registers(registered, $0.scheme).isNo }.map { $0.scheme }
        for (scheme, link) in customSchemes(links) {
            switch registers(registered, scheme) {
            case .yes:
                let via = registered.first { $0.resolved?.lowercased() == scheme }.flatMap { $0.isLiteral ? nil : $0.described }
                findings.append(DoctorFinding(.iosURLSchemes, .ok, file: path, "CFBundleURLSchemes registers \(scheme) (the \(link.role.name))\(via.map { ": " + $0 } ?? "")"))
            case .possibly(let why):
                findings.append(.undecided(.iosURLSchemes, file: path, "CFBundleURLSchemes possibly registers \(scheme) (the \(link.role.name))", why))
            case .no:
                // A new CFBundleURLTypes key is written once, with every missing scheme in it.
                let entry = Snippet.urlType(types == nil ? missing : [scheme], keyExists: false).components(separatedBy: "\n")
                let dictLines = Array(entry.dropFirst(2).dropLast()).map { String($0.dropFirst(4)) }
                let edit = types != nil ? source?.append(dictLines, toArrayOf: "CFBundleURLTypes")
                    : scheme == missing.first ? source?.insert(key: "CFBundleURLTypes", Array(entry.dropFirst())) : nil
                let resolved = registered.filter { !$0.isLiteral && $0.resolved != nil }.map { $0.described }
                // An unresolved entry is ruled out by its literal text: say so, or it reads as a guess.
                let ruledOut = registered.filter { $0.resolved == nil }.map { value in
                    "\"\(value.written)\" cannot be \(scheme) whatever \(Undecided.describe(value.unresolved.map(Undecided.init)).components(separatedBy: " (").first ?? "") is"
                }
                let notes = (resolved.isEmpty ? [] : ["resolved: " + resolved.joined(separator: ", ")]) + ruledOut
                findings.append(DoctorFinding(.iosURLSchemes, .error, file: path,
                    "CFBundleURLTypes does not register \(scheme): iOS hands \(scheme):// links (the \(link.role.name)) to no app\(notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")",
                    fix: Snippet.urlType([scheme], keyExists: types != nil), edits: edit.map { [$0] } ?? []))
            }
        }
        if !posApps.isEmpty {
            let entries = (plist[queriesKey] as? [Any])?.compactMap { $0 as? String }.map(build.resolve)
            findings += querySchemes(entries, apps: posApps, file: path, rule: .iosQueriesSchemes, setting: queriesKey,
                fix: { Snippet.plistStrings(key: queriesKey, $0, keyExists: entries != nil) },
                edits: { source?.appendStrings($0, to: queriesKey).map { [$0] } ?? [] })
        }
        return (findings, source?.map.bytes)
    }

    /// The LSApplicationQueriesSchemes findings (shared with Expo's `ios.infoPlist`), one per
    /// POS app. The schemes of every app missing are written as one edit (`edits` is given
    /// them all), carried by each missing app's finding: `--fix-diff` writes it once.
    /// - Parameters:
    ///   - entries: The list as written (build settings resolved); `nil` when the key is absent.
    ///   - apps: The POS apps the app hands sales to (`--pos-app`).
    ///   - fix: The text that adds the given schemes.
    ///   - edits: The edits that add the given schemes.
    /// - Returns: One finding per app.
    static func querySchemes(_ entries: [BuildValue]?, apps: [POSApp], file: String, rule: DoctorRule, setting: String,
                             fix: ([String]) -> String, edits: ([String]) -> [TextEdit]) -> [DoctorFinding] {
        let missing = apps.compactMap { $0.iosQueryScheme }.filter { queryPosition(entries ?? [], $0).found.isNo }
        // Appended past the 50th entry a scheme is still unread: then the fix is a choice (no diff).
        let full = (entries?.count ?? 0) + missing.count > queriesLimit
        let missingEdits = missing.isEmpty || full ? [] : edits(missing)
        return apps.map { app in
            guard let scheme = app.iosQueryScheme else {
                return DoctorFinding(rule, .warning, file: file,
                    "\(app.name) has no iOS app: it runs only on Clip's Android terminals (Total, Total 2, Pro 2), so an iOS build cannot hand it a sale and there is no scheme to declare",
                    fix: "offer \(app.name) on Android only (where Platform.OS is android), and drop it from --pos-app when checking the iOS files (no diff: nothing to declare)")
            }
            let (found, position) = queryPosition(entries ?? [], scheme)
            if let position {
                if position >= queriesLimit {
                    return DoctorFinding(rule, .error, file: file,
                        "\(setting) holds \(scheme) as entry \(position + 1) of \(entries?.count ?? 0): apps built for iOS 15 or later read only the first \(queriesLimit), so canOpenURL(\(scheme)://…) answers false",
                        fix: "move \(scheme) among the first \(queriesLimit) entries, dropping a scheme the app no longer queries (doctor does not choose which: no diff)")
                }
                return DoctorFinding(rule, .ok, file: file, "\(setting) holds \(scheme): canOpenURL can see \(app == .billpocket ? "the POS app" : "the \(app.name) app")")
            }
            if case .possibly(let why) = found {
                return .undecided(rule, file: file, "\(setting) possibly holds \(scheme)", why)
            }
            return DoctorFinding(rule, .error, file: file,
                "\(setting) does not hold \(scheme): canOpenURL(\(scheme)://…) answers false even with \(app == .billpocket ? "the POS app" : "the \(app.name) app") installed, so an app that checks before opening reports it missing",
                fix: full ? "add \(scheme) among the first \(queriesLimit) entries (the list holds \(entries?.count ?? 0)), dropping a scheme the app no longer queries (doctor does not choose which: no diff)" : fix([scheme]),
                edits: missingEdits)
        }
    }

    // MARK: entitlements

    /// Checks the entitlements file (a plist) at `path`: the associated domains an https
    /// return URL needs.
    /// - Parameter webCredentials: The return comes through ASWebAuthenticationSession's
    ///   `.https(host:path:)` callback, which also needs `webcredentials:<host>`.
    static func check(entitlementsAt path: String, links: DoctorLinks, build: AppleBuildValues, webCredentials: Bool = false) -> (findings: [DoctorFinding], contents: [UInt8]?) {
        var findings: [DoctorFinding] = []
        guard let (plist, source) = readPropertyList(path, into: &findings) else { return (findings, nil) }
        if let link = links.targets.first(where: { $0.role == .callback && $0.isWeb }) {
            let domains = plist[associatedDomainsKey] as? [Any]
            let resolved = (domains ?? []).compactMap { $0 as? String }.map(build.resolve)
            let entry = "applinks:" + (link.host ?? "")
            findings.append(associatedDomains(resolved, for: link, rule: .iosAssociatedDomains, file: path,
                fix: Snippet.plistStrings(key: associatedDomainsKey, [entry], keyExists: domains != nil),
                edits: source?.appendString(entry, to: associatedDomainsKey).map { [$0] } ?? []))
            if webCredentials {
                let entry = "webcredentials:" + (link.host ?? "")
                findings.append(associatedDomains(resolved, for: link, rule: .iosWebCredentials, file: path, service: "webcredentials",
                    fix: Snippet.plistStrings(key: associatedDomainsKey, [entry], keyExists: domains != nil),
                    edits: source?.appendString(entry, to: associatedDomainsKey).map { [$0] } ?? []))
            }
        }
        return (findings, source?.map.bytes)
    }

    /// Whether `domains` cover the link's host (shared with Expo's `ios.associatedDomains`).
    /// `service` `webcredentials`: ASWebAuthenticationSession's https callback ([as-https]:
    ///   "Using HTTPS callbacks requires Associated Domains using the webcredentials service
    ///   type", the runtime error quoted in developer.apple.com/forums/thread/805416).
    static func associatedDomains(_ domains: [BuildValue], for link: LinkTarget, rule: DoctorRule, file: String, service: String = "applinks", fix: String, edits: [TextEdit]) -> DoctorFinding {
        let host = (link.host ?? "").lowercased()
        let covering = domains.compactMap { value -> (entry: String, mode: String?)? in
            guard let resolved = value.resolved else { return nil }
            let result = covers(resolved, host: host, service: service)
            return result.covers ? (resolved, result.mode) : nil
        }
        if let full = covering.first(where: { $0.mode == nil }) {
            return DoctorFinding(rule, .ok, file: file, service == "webcredentials"
                ? "associated domains hold \(full.entry): ASWebAuthenticationSession may complete on https://\(host) (iOS 17.4+; Apple's forum reports it unreliable for a small share of users even so: keep the webhook deciding)"
                : "associated domains hold \(full.entry): iOS asks \(host) for its apple-app-site-association")
        }
        if let limited = covering.first {
            return DoctorFinding(rule, .warning, file: file,
                "associated domains hold \(limited.entry) only: with mode=\(limited.mode ?? "") iOS uses it only on devices in that mode (developer mode, or managed by MDM), not on the users' phones",
                fix: fix, edits: edits)
        }
        let why = domains.filter { $0.resolved == nil }.flatMap { $0.unresolved.map(Undecided.init) }
        if !why.isEmpty {
            return .undecided(rule, file: file, "associated domains possibly hold \(service):\(host)", why)
        }
        if service == "webcredentials" {
            return DoctorFinding(rule, .error, file: file,
                "no webcredentials:\(host) in the associated domains: ASWebAuthenticationSession refuses an https callback on \(host) (\"Using HTTPS callbacks requires Associated Domains using the webcredentials service type\"), so the session never hands the return back",
                fix: fix, edits: edits)
        }
        return DoctorFinding(rule, .error, file: file,
            "no applinks:\(host) in the associated domains: iOS never treats https://\(host) as a Universal Link of this app, so the gateway's redirect stays in the browser",
            fix: fix, edits: edits)
    }
}
