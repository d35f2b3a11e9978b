/// The files a web host publishes so the OS opens its https links in the app: Android's
/// `/.well-known/assetlinks.json` and Apple's `/.well-known/apple-app-site-association`.
/// Doctor checks the files it is given; it does not fetch them (no network), so whether the
/// host serves them (https, no redirect, right content type) is left to the platform tools.
enum AssociationChecks {
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// Checks an assetlinks.json for the callback link.
    /// - Parameters:
    ///   - path: The file.
    ///   - link: The https callback.
    ///   - package: The app's package (applicationId), when known.
    ///   - certificate: The SHA-256 fingerprint of the signing certificate, when given.
    static func assetLinks(at path: String, link: LinkTarget, package: String?, certificate: String?) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, InputFile.json(at:)) else { return findings }
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read a JSON document"))
        let host = link.host ?? ""
        let fix = Snippet.json([[
            "relation": [handleAllURLs],
            "target": ["namespace": "android_app", "package_name": package ?? "com.your.app",
                       "sha256_cert_fingerprints": [certificate ?? "<SHA-256 of the signing certificate (keytool -list -v, or Play Console > App signing)>"]],
        ]]) + "\nserved at https://\(host)/.well-known/assetlinks.json"
        guard let statements = document as? [Any] else {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path, "the top level is not a JSON array of statements", fix: fix))
            return findings
        }
        let targets = statements.compactMap { statement -> [String: Any]? in
            guard let statement = statement as? [String: Any],
                  let relations = statement["relation"] as? [Any], relations.contains(where: { ($0 as? String) == handleAllURLs }),
                  let target = statement["target"] as? [String: Any], (target["namespace"] as? String) == "android_app" else { return nil }
            return target
        }
        guard !targets.isEmpty else {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                "no statement gives an android_app \(handleAllURLs): Android cannot verify \(host) for any app", fix: fix))
            return findings
        }
        let packages = targets.compactMap { $0["package_name"] as? String }
        let ours = package.map { package in targets.filter { ($0["package_name"] as? String) == package } } ?? targets
        guard !ours.isEmpty else {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                "lists \(packages.isEmpty ? "no package_name" : packages.joined(separator: ", ")), not \(package ?? ""): Android does not verify \(host) for this app",
                fix: fix))
            return findings
        }
        let name = package ?? (packages.isEmpty ? "(no package_name)" : packages.joined(separator: ", "))
        let fingerprints = ours.flatMap { ($0["sha256_cert_fingerprints"] as? [Any] ?? []).map { $0 as? String ?? "" } }
        let malformed = fingerprints.filter { !isSHA256Fingerprint($0) }
        if fingerprints.isEmpty || !malformed.isEmpty {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                fingerprints.isEmpty ? "\(name) has no sha256_cert_fingerprints: Android cannot verify \(host)"
                    : "\(name): \(malformed.map { "\"\($0)\"" }.joined(separator: ", ")) \(malformed.count > 1 ? "are not SHA-256 fingerprints" : "is not a SHA-256 fingerprint") (32 hex bytes separated by ':')",
                fix: fix))
            return findings
        }
        let notCompared = package == nil ? " (the app's package is not compared: pass --android-package)" : ""
        let unserved = "that https://\(host)/.well-known/assetlinks.json serves this file (no network)"
        if let certificate {
            guard fingerprints.contains(where: { $0.uppercased() == certificate.uppercased() }) else {
                findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                    "\(name)'s fingerprints do not include \(certificate): an app signed with that key is not verified for \(host)", fix: fix))
                return findings
            }
            findings.append(DoctorFinding(.androidAssetLinks, .ok, file: path,
                "lets \(name), signed with \(certificate), handle all URLs of \(host)\(notCompared); not checked: \(unserved)"))
            return findings
        }
        findings.append(DoctorFinding(.androidAssetLinks, .ok, file: path,
            "lets \(name) handle all URLs of \(host) with \(fingerprints.count) well-formed SHA-256 fingerprint\(fingerprints.count > 1 ? "s" : "")\(notCompared); not checked: that one is the signing key's (that needs the key: pass --android-cert-sha256 from keytool -list -v or Play Console > App signing), \(unserved)"))
        return findings
    }

    /// 32 bytes as two hex digits each, separated by `:`.
    static func isSHA256Fingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isHexDigit } }
    }

    /// Checks an apple-app-site-association for the callback link.
    /// - Parameters:
    ///   - path: The file.
    ///   - link: The https callback.
    ///   - appID: `TEAMID.bundle.id`, when given: only its entries count.
    static func appleAppSiteAssociation(at path: String, link: LinkTarget, appID: String?) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, InputFile.json(at:)) else { return findings }
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read a JSON document"))
        let host = link.host ?? ""
        let prefix = link.registeredPath.isEmpty ? "/" : link.registeredPath
        let fix = Snippet.json(["applinks": ["details": [[
            "appIDs": [appID ?? "TEAMID.com.your.app"],
            "components": [["/": prefix + "*", "comment": "the callback: the core may add to the return URL's path"]],
        ]]]]) + "\nserved at https://\(host)/.well-known/apple-app-site-association"
        guard let details = ((document as? [String: Any])?["applinks"] as? [String: Any])?["details"] as? [Any] else {
            findings.append(DoctorFinding(.iosAASA, .error, file: path, "has no applinks.details array: no app may open links of \(host)", fix: fix))
            return findings
        }
        var listed: [String] = []
        var excluded: [String] = []
        var covering: [String] = []
        for case let detail as [String: Any] in details {
            let ids = (detail["appIDs"] as? [Any])?.compactMap { $0 as? String } ?? [detail["appID"] as? String].compactMap { $0 }
            listed += ids
            if let appID, !ids.contains(appID) { continue }
            switch decision(detail, link) {
            case .included(let pattern)?: covering.append("\(ids.joined(separator: ", ")) by \(pattern)")
            case .excluded(let pattern)?: excluded.append("\(ids.joined(separator: ", ")) by \(pattern)")
            case nil: break
            }
        }
        let path_ = link.encodedPath.isEmpty ? "/" : link.encodedPath
        if !covering.isEmpty {
            findings.append(DoctorFinding(.iosAASA, .ok, file: path,
                "lets \(covering.joined(separator: "; ")) open \(path_)\(appID == nil ? " (app IDs not compared: pass --ios-app-id TEAMID.bundle.id)" : ""); not checked: that https://\(host)/.well-known/apple-app-site-association serves this file (no network)"))
        } else if let appID, !listed.contains(appID) {
            findings.append(DoctorFinding(.iosAASA, .error, file: path,
                "has no entry for \(appID) (it lists \(listed.isEmpty ? "no app" : listed.joined(separator: ", "))): iOS does not open links of \(host) in this app", fix: fix))
        } else if !excluded.isEmpty {
            findings.append(DoctorFinding(.iosAASA, .error, file: path,
                "excludes \(path_), the callback's path, for \(excluded.joined(separator: "; ")): the gateway's redirect stays in the browser", fix: fix))
        } else {
            findings.append(DoctorFinding(.iosAASA, .error, file: path,
                "no path pattern covers \(path_), the callback's path (the return URL's path plus what the core adds): the gateway's redirect stays in the browser; a prefix pattern covers it",
                fix: fix))
        }
        return findings
    }

    private enum Decision {
        case included(String)
        case excluded(String)
    }

    /// The first pattern of one `details` entry that matches the link decides: the newer
    /// `components` (with `exclude`, `caseSensitive`, `?` query items, `#` fragment) or the
    /// older `paths` (a `NOT ` prefix excludes).
    private static func decision(_ detail: [String: Any], _ link: LinkTarget) -> Decision? {
        if let components = detail["components"] as? [Any] {
            for case let component as [String: Any] in components {
                let caseSensitive = component["caseSensitive"] as? Bool ?? true
                let pathPattern = component["/"] as? String
                if let pathPattern, !wildcardMatches(pathPattern, link.encodedPath, caseSensitive: caseSensitive) { continue }
                if let fragment = component["#"] as? String, !wildcardMatches(fragment, "", caseSensitive: caseSensitive) { continue }
                if let query = component["?"] as? [String: Any] {
                    let matches = query.allSatisfy { name, pattern in
                        guard let pattern = pattern as? String else { return false }
                        let value = link.queryItems.first { $0.name == name }?.value
                        return value.map { wildcardMatches(pattern, $0, caseSensitive: caseSensitive) } ?? false
                    }
                    if !matches { continue }
                } else if let query = component["?"] as? String {
                    let text = link.queryItems.map { $0.name + "=" + $0.value }.joined(separator: "&")
                    if !wildcardMatches(query, text, caseSensitive: caseSensitive) { continue }
                }
                let described = "\"/\": \"\(pathPattern ?? "*")\""
                return component["exclude"] as? Bool == true ? .excluded(described) : .included(described)
            }
            return nil
        }
        for case let pattern as String in detail["paths"] as? [Any] ?? [] {
            if pattern.hasPrefix("NOT ") {
                if wildcardMatches(String(pattern.dropFirst(4)), link.encodedPath, caseSensitive: true) { return .excluded("\"\(pattern)\"") }
            } else if wildcardMatches(pattern, link.encodedPath, caseSensitive: true) {
                return .included("\"\(pattern)\"")
            }
        }
        return nil
    }

    /// Apple's pattern rule: `*` any run of characters (`/` included, empty allowed), `?` any
    /// one character, everything else itself; the whole text must match.
    static func wildcardMatches(_ pattern: String, _ text: String, caseSensitive: Bool) -> Bool {
        let p = Array(caseSensitive ? pattern : pattern.lowercased())
        let s = Array(caseSensitive ? text : text.lowercased())
        var i = 0, j = 0
        var star: Int? = nil  // the last `*` seen, and where in s it started matching
        var resume = 0
        while j < s.count {
            if i < p.count && (p[i] == "?" || p[i] == s[j]) {
                i += 1
                j += 1
            } else if i < p.count && p[i] == "*" {
                star = i
                resume = j
                i += 1
            } else if let star {
                // Let the last `*` take one more character and try again from there.
                i = star + 1
                resume += 1
                j = resume
            } else {
                return false
            }
        }
        while i < p.count && p[i] == "*" { i += 1 }
        return i == p.count
    }
}
