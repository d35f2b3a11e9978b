/// The iOS rules: Info.plist (XML or binary) and the app's entitlements.
enum AppleChecks {
    static let associatedDomainsKey = "com.apple.developer.associated-domains"

    /// The custom schemes iOS must route to the app: the callback's (unless it is https) and
    /// the POS answer's, each with the link it is for.
    static func customSchemes(_ links: DoctorLinks) -> [(scheme: String, link: LinkTarget)] {
        var schemes: [(scheme: String, link: LinkTarget)] = []
        for link in links.targets where !link.isWeb && !schemes.contains(where: { $0.scheme == link.scheme }) {
            schemes.append((link.scheme, link))
        }
        return schemes
    }

    /// Checks the Info.plist at `path`.
    static func check(infoPlistAt path: String, links: DoctorLinks) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        guard let plist = InputFile.read(path, into: &findings, InputFile.propertyList(at:)) else { return findings }
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read a property list of \(plist.count) keys"))
        let types = plist["CFBundleURLTypes"] as? [Any]
        let registered = (types ?? []).flatMap { (($0 as? [String: Any])?["CFBundleURLSchemes"] as? [Any] ?? []).compactMap { $0 as? String } }
        for (scheme, link) in customSchemes(links) {
            // iOS compares schemes ignoring case.
            if registered.contains(where: { $0.lowercased() == scheme }) {
                findings.append(DoctorFinding(.iosURLSchemes, .ok, file: path, "CFBundleURLSchemes registers \(scheme) (the \(link.role.name))"))
            } else {
                var message = "CFBundleURLTypes does not register \(scheme): iOS hands \(scheme):// links (the \(link.role.name)) to no app"
                if registered.contains(where: { $0.contains("$(") }) {
                    message += " (schemes written as build settings, $(…), are not expanded by doctor)"
                }
                findings.append(DoctorFinding(.iosURLSchemes, .error, file: path, message,
                                              fix: Snippet.urlType(scheme, keyExists: types != nil)))
            }
        }
        if links.usesPOS {
            let key = "LSApplicationQueriesSchemes"
            let queries = (plist[key] as? [Any])?.compactMap { $0 as? String }
            let scheme = DoctorLinks.posAppScheme
            if (queries ?? []).contains(where: { $0.lowercased() == scheme }) {
                findings.append(DoctorFinding(.iosQueriesSchemes, .ok, file: path, "\(key) holds \(scheme): canOpenURL can see the POS app"))
            } else {
                findings.append(DoctorFinding(.iosQueriesSchemes, .error, file: path,
                    "\(key) does not hold \(scheme): canOpenURL(\(scheme)://…) answers false even with the POS app installed, so an app that checks before opening reports it missing",
                    fix: Snippet.plistStrings(key: key, [scheme], keyExists: queries != nil)))
            }
        }
        return findings
    }

    /// Checks the entitlements file (a plist) at `path`: the associated domains an https
    /// return URL needs.
    static func check(entitlementsAt path: String, links: DoctorLinks) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        guard let plist = InputFile.read(path, into: &findings, InputFile.propertyList(at:)) else { return findings }
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read a property list of \(plist.count) keys"))
        if let link = links.targets.first(where: { $0.role == .callback && $0.isWeb }) {
            let domains = plist[associatedDomainsKey] as? [Any]
            findings.append(associatedDomains((domains ?? []).compactMap { $0 as? String }, for: link, rule: .iosAssociatedDomains, file: path,
                fix: Snippet.plistStrings(key: associatedDomainsKey, ["applinks:" + (link.host ?? "")], keyExists: domains != nil)))
        }
        return findings
    }

    /// Whether `domains` (`applinks:host`, `applinks:*.example.com`, optionally `?mode=…`)
    /// cover the link's host (shared with Expo's `ios.associatedDomains`).
    static func associatedDomains(_ domains: [String], for link: LinkTarget, rule: DoctorRule, file: String, fix: String) -> DoctorFinding {
        let host = (link.host ?? "").lowercased()
        let covering = domains.first { entry in
            guard entry.hasPrefix("applinks:") else { return false }
            let domain = entry.dropFirst("applinks:".count).prefix { $0 != "?" }.lowercased()
            // A wildcard covers subdomains, not the domain itself.
            if domain.hasPrefix("*.") { return host.hasSuffix(domain.dropFirst(1)) }
            return domain == host
        }
        if let covering {
            return DoctorFinding(rule, .ok, file: file, "associated domains hold \(covering): iOS asks \(host) for its apple-app-site-association")
        }
        return DoctorFinding(rule, .error, file: file,
            "no applinks:\(host) in the associated domains: iOS never treats https://\(host) as a Universal Link of this app, so the gateway's redirect stays in the browser",
            fix: fix)
    }
}
