import Foundation

/// The files a web host publishes so the OS opens its https links in the app: Android's
/// `/.well-known/assetlinks.json` and Apple's `/.well-known/apple-app-site-association`.
/// Doctor checks the files it is given; it does not fetch them (no network), so whether the
/// host serves them (https, no redirect, right content type) is left to the platform tools.
///
/// Apple's matching of an association file is written here once, citing:
/// - [aasa]: developer.apple.com/documentation/xcode/supporting-associated-domains and
///   developer.apple.com/documentation/bundleresources/applinks (`details`, `components`,
///   `defaults`, `substitutionVariables`)
/// - [wwdc19-717]: "What's New in Universal Links" (WWDC 2019): iOS 13 reads `components`
///   and, in an entry that has them, ignores `paths`; older systems read `paths`
enum AssociationChecks {
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    // MARK: assetlinks.json

    /// Checks an assetlinks.json for the callback link.
    /// - Parameters:
    ///   - path: The file.
    ///   - link: The https callback.
    ///   - package: The app's package (applicationId), when known.
    ///   - certificate: The SHA-256 fingerprint of the signing certificate, when given.
    /// - Returns: The findings and the file's bytes (for `--fix-diff`).
    static func assetLinks(at path: String, link: LinkTarget, package: String?, certificate: String?) -> (findings: [DoctorFinding], contents: [UInt8]?) {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, InputFile.jsonDocument(at:)) else { return (findings, nil) }
        let map = JSONSourceMap(document.contents)
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read a JSON document"))
        let host = link.host ?? ""
        let statement: [String: Any] = [
            "relation": [handleAllURLs],
            "target": ["namespace": "android_app", "package_name": package ?? "com.your.app",
                       "sha256_cert_fingerprints": [certificate ?? "<SHA-256 of the signing certificate (keytool -list -v, or Play Console > App signing)>"]],
        ]
        let fix = Snippet.json([statement]) + "\nserved at https://\(host)/.well-known/assetlinks.json"
        // A new statement is written into the file only with the real package and fingerprint:
        // a placeholder would not verify.
        let addStatement = package != nil && certificate != nil ? map.flatMap { $0.append(statement, to: $0.root) }.map { [$0] } ?? [] : []
        let needs = package == nil || certificate == nil ? " (the fix goes into the file with --android-package and --android-cert-sha256)" : ""
        guard let statements = document.value as? [Any] else {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path, "the top level is not a JSON array of statements", fix: fix))
            return (findings, map?.bytes)
        }
        let targets = statements.enumerated().compactMap { offset, statement -> (offset: Int, target: [String: Any])? in
            guard let statement = statement as? [String: Any],
                  let relations = statement["relation"] as? [Any], relations.contains(where: { ($0 as? String) == handleAllURLs }),
                  let target = statement["target"] as? [String: Any], (target["namespace"] as? String) == "android_app" else { return nil }
            return (offset, target)
        }
        guard !targets.isEmpty else {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                "no statement gives an android_app \(handleAllURLs): Android cannot verify \(host) for any app\(needs)", fix: fix, edits: addStatement))
            return (findings, map?.bytes)
        }
        let packages = targets.compactMap { $0.target["package_name"] as? String }
        let ours = package.map { package in targets.filter { ($0.target["package_name"] as? String) == package } } ?? targets
        guard !ours.isEmpty else {
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                "lists \(packages.isEmpty ? "no package_name" : packages.joined(separator: ", ")), not \(package ?? ""): Android does not verify \(host) for this app\(needs)",
                fix: fix, edits: addStatement))
            return (findings, map?.bytes)
        }
        let name = package ?? (packages.isEmpty ? "(no package_name)" : packages.joined(separator: ", "))
        let fingerprints = ours.flatMap { ($0.target["sha256_cert_fingerprints"] as? [Any] ?? []).map { $0 as? String ?? "" } }
        let malformed = fingerprints.filter { !isSHA256Fingerprint($0) }
        func fingerprintNodes(_ entry: (offset: Int, target: [String: Any])) -> JSONSourceMap.Node? {
            map?.node([.index(entry.offset), .key("target"), .key("sha256_cert_fingerprints")])
        }
        if fingerprints.isEmpty || !malformed.isEmpty {
            // The malformed value is replaced by the given fingerprint: it could never verify.
            var edits: [TextEdit] = []
            if let certificate, let map, !fingerprints.contains(where: { $0.uppercased() == certificate.uppercased() }) {
                for entry in ours {
                    guard let array = fingerprintNodes(entry) else { continue }
                    let values = entry.target["sha256_cert_fingerprints"] as? [Any] ?? []
                    if let bad = values.firstIndex(where: { !isSHA256Fingerprint($0 as? String ?? "") }), bad < array.elements.count {
                        edits = [map.replace(array.elements[bad], with: certificate)]
                    } else if let edit = map.append(certificate, to: array) {
                        edits = [edit]
                    }
                    break
                }
            }
            findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                fingerprints.isEmpty ? "\(name) has no sha256_cert_fingerprints: Android cannot verify \(host)"
                    : "\(name): \(malformed.map { "\"\($0)\"" }.joined(separator: ", ")) \(malformed.count > 1 ? "are not SHA-256 fingerprints" : "is not a SHA-256 fingerprint") (32 hex bytes separated by ':')" + (certificate == nil ? " (the fix goes into the file with --android-cert-sha256)" : ""),
                fix: fix, edits: edits))
            return (findings, map?.bytes)
        }
        let notCompared = package == nil ? " (the app's package is not compared: pass --android-package)" : ""
        let unserved = "that https://\(host)/.well-known/assetlinks.json serves this file (no network)"
        if let certificate {
            guard fingerprints.contains(where: { $0.uppercased() == certificate.uppercased() }) else {
                let edits = ours.first.flatMap(fingerprintNodes).flatMap { array in map?.append(certificate, to: array) }.map { [$0] } ?? []
                findings.append(DoctorFinding(.androidAssetLinks, .error, file: path,
                    "\(name)'s fingerprints do not include \(certificate): an app signed with that key is not verified for \(host)",
                    fix: "add \"\(certificate)\" to \(name)'s sha256_cert_fingerprints", edits: edits))
                return (findings, map?.bytes)
            }
            findings.append(DoctorFinding(.androidAssetLinks, .ok, file: path,
                "lets \(name), signed with \(certificate), handle all URLs of \(host)\(notCompared); not checked: \(unserved)"))
            return (findings, map?.bytes)
        }
        findings.append(DoctorFinding(.androidAssetLinks, .ok, file: path,
            "lets \(name) handle all URLs of \(host) with \(fingerprints.count) well-formed SHA-256 fingerprint\(fingerprints.count > 1 ? "s" : "")\(notCompared); not checked: that one is the signing key's (that needs the key: pass --android-cert-sha256 from keytool -list -v or Play Console > App signing), \(unserved)"))
        return (findings, map?.bytes)
    }

    /// Issue 38 (b): an https return through Android's Auth Tab. Chrome verifies the redirect
    /// host before it hands the URL back ([auth-tab-verifier]: chromium/src
    /// chrome/android/java/src/org/chromium/chrome/browser/browserservices/ui/controller/AuthTabVerifier.java):
    /// on Android 12+ it first asks `DomainVerificationManager` whether exactly that host is
    /// verified for the calling package; otherwise it runs its own Digital Asset Links check with
    /// `CustomTabsService.RELATION_HANDLE_ALL_URLS`, `delegate_permission/common.handle_all_urls`:
    /// the relation ``assetLinks(at:link:package:certificate:)`` checks, so this rule reads that
    /// check's outcome rather than repeating it. A failure is `RESULT_VERIFICATION_FAILED` (2),
    /// no answer in time `RESULT_VERIFICATION_TIMED_OUT` (3), and the app gets no URL.
    /// - Parameters:
    ///   - link: The https callback.
    ///   - assetLinks: The `--assetlinks` file, when given.
    ///   - findings: The findings so far (the `android.assetlinks` ones among them).
    /// - Returns: The `android.auth-tab` finding.
    static func authTab(link: LinkTarget, assetLinks: String?, findings: [DoctorFinding]) -> DoctorFinding {
        let host = link.host ?? ""
        let relation = "Chrome's AuthTabVerifier checks delegate_permission/common.handle_all_urls for the redirect host"
        guard let path = assetLinks else {
            return DoctorFinding(.androidAuthTab, .warning, file: nil,
                "not checked: an https return through Auth Tab needs https://\(host)/.well-known/assetlinks.json to verify the app (\(relation)): pass a copy with --assetlinks",
                fix: "--assetlinks assetlinks.json (a copy of the served file)")
        }
        let own = findings.filter { $0.file == path && ($0.rule == .androidAssetLinks || $0.rule == .inputReadable) }
        let failure = "Auth Tab answers RESULT_VERIFICATION_FAILED (2) instead of the URL (RESULT_VERIFICATION_TIMED_OUT (3) when the check takes too long): the payment's outcome is unknown until the webhook says"
        if own.contains(where: { $0.severity == .error }) {
            return DoctorFinding(.androidAuthTab, .error, file: path,
                "an https return through Auth Tab on \(host) needs the app verified by Digital Asset Links (\(relation)), and this file does not give it (android.assetlinks): \(failure)",
                fix: "the android.assetlinks fix: a statement with \"relation\": [\"\(handleAllURLs)\"] for the app's package and signing key (get_login_creds alone does not verify a return)")
        }
        if own.contains(where: { $0.severity == .warning }) {
            return DoctorFinding(.androidAuthTab, .warning, file: path,
                "an https return through Auth Tab on \(host) needs the app verified by Digital Asset Links (\(relation)); whether this file gives it depends on what android.assetlinks could not decide",
                fix: "give doctor what android.assetlinks asks for")
        }
        return DoctorFinding(.androidAuthTab, .ok, file: path,
            "gives the app \(handleAllURLs) for \(host): the relation Chrome's AuthTabVerifier checks before Auth Tab hands an https return back (on Android 12+ it first takes Android's own verification of exactly \(host)); Chrome matches the return by host and the whole path (no prefix): launch with the open_browser effect's return_to.https_path")
    }

    /// 32 bytes as two hex digits each, separated by `:`.
    static func isSHA256Fingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isHexDigit } }
    }

    // MARK: apple-app-site-association

    /// How one `details` entry treats a link: the pattern that decided (its index in the
    /// entry's `components` or `paths`, and its text), or nothing matched.
    enum Decision: Equatable {
        case included(index: Int, pattern: String)
        case excluded(index: Int, pattern: String)
        case undecided([Undecided])
    }

    /// The app IDs of a `details` entry: `appIDs` (iOS 13 format) or `appID` (the older one).
    static func appIDs(_ detail: [String: Any]) -> [String] {
        (detail["appIDs"] as? [Any])?.compactMap { $0 as? String } ?? [detail["appID"] as? String].compactMap { $0 }
    }

    /// The decision of one `details` entry for `link`, as iOS 13 and later make it ([aasa],
    /// [wwdc19-717]): an entry with `components` is read by them alone; otherwise its `paths`.
    /// Patterns are tried in order and the first that matches decides, excluded or included;
    /// none matching means not a universal link.
    ///
    /// - `components`: every key given must match: `/` the path, `?` the query (a string for
    ///   the whole query, or a dictionary of item name to pattern, all of which must match),
    ///   `#` the fragment; `exclude: true` makes a match an exclusion; `caseSensitive` and
    ///   `percentEncoded` (both true by default, or as `defaults` says) say how to compare.
    ///   A pattern with `$(…)` uses `substitutionVariables`, which doctor does not expand.
    /// - `paths` (the older format): case-sensitive patterns on the path; `NOT ` excludes.
    static func decision(_ detail: [String: Any], defaults: [String: Any], _ link: LinkTarget) -> Decision? {
        let entryDefaults = defaults.merging(detail["defaults"] as? [String: Any] ?? [:]) { $1 }
        if let components = detail["components"] as? [Any] {
            for (index, item) in components.enumerated() {
                guard let component = item as? [String: Any] else { continue }
                let caseSensitive = component["caseSensitive"] as? Bool ?? entryDefaults["caseSensitive"] as? Bool ?? true
                let percentEncoded = component["percentEncoded"] as? Bool ?? entryDefaults["percentEncoded"] as? Bool ?? true
                let patterns = [component["/"], component["#"]].compactMap { $0 as? String } + ((component["?"] as? [String: Any])?.values.compactMap { $0 as? String } ?? []) + [component["?"] as? String].compactMap { $0 }
                if let variable = patterns.first(where: { $0.contains("$(") }) {
                    return .undecided([Undecided(what: "the pattern \"\(variable)\"", resolveBy: "doctor does not expand substitutionVariables: try the link on a device")])
                }
                let path = percentEncoded ? link.encodedPathText : link.pathText
                let pathPattern = component["/"] as? String
                if let pathPattern, !path.wildcardMatches(pathPattern, caseSensitive: caseSensitive) { continue }
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
                return component["exclude"] as? Bool == true ? .excluded(index: index, pattern: described) : .included(index: index, pattern: described)
            }
            return nil
        }
        for (index, item) in (detail["paths"] as? [Any] ?? []).enumerated() {
            guard let pattern = item as? String else { continue }
            if pattern.hasPrefix("NOT ") {
                if link.encodedPathText.wildcardMatches(String(pattern.dropFirst(4)), caseSensitive: true) { return .excluded(index: index, pattern: "\"\(pattern)\"") }
            } else if link.encodedPathText.wildcardMatches(pattern, caseSensitive: true) {
                return .included(index: index, pattern: "\"\(pattern)\"")
            }
        }
        return nil
    }

    /// What the file answers for `link` and `appID` (any app when `nil`): the first `details`
    /// entry listing the app whose patterns decide, its place and its app IDs; `nil` when no
    /// entry decides (not a universal link).
    static func answer(_ document: Any, appID: String?, link: LinkTarget) -> (offset: Int, ids: [String], decision: Decision)? {
        let applinks = (document as? [String: Any])?["applinks"] as? [String: Any]
        let defaults = applinks?["defaults"] as? [String: Any] ?? [:]
        for (offset, item) in (applinks?["details"] as? [Any] ?? []).enumerated() {
            guard let detail = item as? [String: Any] else { continue }
            let ids = appIDs(detail)
            if let appID, !ids.contains(appID) { continue }
            if let decision = decision(detail, defaults: defaults, link) { return (offset, ids, decision) }
        }
        return nil
    }

    /// Checks an apple-app-site-association for the callback link.
    /// - Parameters:
    ///   - path: The file.
    ///   - link: The https callback.
    ///   - appID: `TEAMID.bundle.id`, when given: only its entries count.
    /// - Returns: The findings and the file's bytes (for `--fix-diff`).
    static func appleAppSiteAssociation(at path: String, link: LinkTarget, appID: String?) -> (findings: [DoctorFinding], contents: [UInt8]?) {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, InputFile.jsonDocument(at:)) else { return (findings, nil) }
        let map = JSONSourceMap(document.contents)
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read a JSON document"))
        let host = link.host ?? ""
        let pattern = link.callbackPathPattern
        let comment = "the gateway's redirect to the return URL, with the core's nonce"
        let component: [String: Any] = ["/": pattern, "comment": comment]
        let newEntry: [String: Any] = ["appIDs": [appID ?? "TEAMID.com.your.app"], "components": [component]]
        let fixText = Snippet.json(["applinks": ["details": [newEntry]]]) + "\nserved at https://\(host)/.well-known/apple-app-site-association"
        let applinks = (document.value as? [String: Any])?["applinks"] as? [String: Any]
        guard let details = applinks?["details"] as? [Any] else {
            var edits: [TextEdit] = []
            if appID != nil, let map, map.root.kind == .object, map.root["applinks"] == nil,
               let edit = map.insert("applinks", ["details": [newEntry]], into: map.root) { edits = [edit] }
            findings.append(DoctorFinding(.iosAASA, .error, file: path, "has no applinks.details array: no app may open links of \(host)", fix: fixText, edits: edits))
            return (findings, map?.bytes)
        }
        let listed = details.compactMap { $0 as? [String: Any] }.flatMap(appIDs)
        let first = answer(document.value, appID: appID, link: link)
        let path_ = link.encodedPath.isEmpty ? "/" : link.encodedPath
        let notCompared = appID == nil ? " (app IDs not compared: pass --ios-app-id TEAMID.bundle.id)" : ""
        switch first?.decision {
        case .included(_, let pattern)?:
            findings.append(DoctorFinding(.iosAASA, .ok, file: path,
                "lets \(first!.ids.joined(separator: ", ")) open \(path_) by \(pattern)\(notCompared); not checked: that https://\(host)/.well-known/apple-app-site-association serves this file (no network)"))
            return (findings, map?.bytes)
        case .undecided(let why)?:
            findings.append(.undecided(.iosAASA, file: path, "possibly lets \(first!.ids.joined(separator: ", ")) open \(path_)", why))
            return (findings, map?.bytes)
        default:
            break
        }
        if let appID, !listed.contains(appID) {
            // A new entry in the style of the file's others (components, or the older paths).
            let usesPaths = details.contains { ($0 as? [String: Any])?["paths"] != nil } && !details.contains { ($0 as? [String: Any])?["components"] != nil }
            let usesArrayIDs = details.contains { ($0 as? [String: Any])?["appIDs"] != nil }
            var entry: [String: Any] = usesPaths ? ["paths": [pattern]] : ["components": [component]]
            if usesArrayIDs || !usesPaths { entry["appIDs"] = [appID] } else { entry["appID"] = appID }
            let edits = map.flatMap { map in map.node([.key("applinks"), .key("details")]).flatMap { map.append(entry, to: $0) } }.map { [$0] } ?? []
            findings.append(DoctorFinding(.iosAASA, .error, file: path,
                "has no entry for \(appID) (it lists \(listed.isEmpty ? "no app" : listed.joined(separator: ", "))): iOS does not open links of \(host) in this app",
                fix: "add to applinks.details:\n" + Snippet.json(entry), edits: edits))
            return (findings, map?.bytes)
        }
        // Add the narrow pattern to the entry that decides (or the app's first entry), in that
        // entry's own format and just before the pattern that excluded the callback: the first
        // match decides, so nothing else the entry includes or excludes changes.
        let target = first?.offset ?? details.firstIndex { item in (item as? [String: Any]).map { appID == nil || appIDs($0).contains(appID!) } ?? false }
        var edits: [TextEdit] = []
        var fix = fixText
        if let target, let detail = details[target] as? [String: Any] {
            let usesComponents = detail["components"] != nil || detail["paths"] == nil
            let key = usesComponents ? "components" : "paths"
            let value: Any = usesComponents ? component : pattern
            var before: Int? = nil
            if case .excluded(let index, _)? = first?.decision { before = index }
            fix = "in \(appIDs(detail).joined(separator: ", "))'s entry, \(before.map { "before its pattern #\($0 + 1) (the one that excludes the callback)" } ?? "in") \"\(key)\":\n" + Snippet.json(value)
            if let map, let node = map.node([.key("applinks"), .key("details"), .index(target)]) {
                if let array = node[key] {
                    if let before, before < array.elements.count {
                        edits = [map.insert(value, before: array.elements[before])]
                    } else if let edit = map.append(value, to: array) {
                        edits = [edit]
                    }
                } else if let edit = map.insert(key, [value], into: node) {
                    edits = [edit]
                }
            }
        }
        let excluded = first.flatMap { entry -> String? in
            if case .excluded(_, let pattern) = entry.decision { return "\(entry.ids.joined(separator: ", ")) by \(pattern)" }
            return nil
        }
        if let excluded {
            findings.append(DoctorFinding(.iosAASA, .error, file: path,
                "excludes \(path_), the callback's path, for \(excluded): the gateway's redirect stays in the browser", fix: fix, edits: edits))
        } else {
            findings.append(DoctorFinding(.iosAASA, .error, file: path,
                "no path pattern covers \(path_), the callback's path (the return URL's path plus what the core adds)\(nearMisses(details, appID: appID, link: link)): the gateway's redirect stays in the browser; \(pattern) covers it",
                fix: fix, edits: edits))
        }
        return (findings, map?.bytes)
    }

    /// The patterns the app's entries try, for a callback none of them covers: "; the
    /// patterns of T.app are "/orders/*", "/checkout" (an exact path: the core adds a nonce
    /// segment, new on every payment)".
    private static func nearMisses(_ details: [Any], appID: String?, link: LinkTarget) -> String {
        var patterns: [String] = []
        var ids: [String] = []
        for case let detail as [String: Any] in details where appID == nil || appIDs(detail).contains(appID!) {
            ids += appIDs(detail)
            if let components = detail["components"] as? [Any] {
                patterns += components.compactMap { ($0 as? [String: Any]).map { ($0["exclude"] as? Bool == true ? "exclude " : "") + "\"\($0["/"] as? String ?? "*")\"" } }
            } else {
                patterns += (detail["paths"] as? [Any] ?? []).compactMap { $0 as? String }.map { "\"\($0)\"" }
            }
        }
        guard !patterns.isEmpty else { return "" }
        var shown = patterns.prefix(6).joined(separator: ", ") + (patterns.count > 6 ? ", …" : "")
        // A pattern that matches this sample but not every nonce: literal where the nonce varies.
        let exact = patterns.contains { raw in
            let text = raw.replacingOccurrences(of: "exclude ", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return LinkText(link.encodedPath).wildcardMatches(text, caseSensitive: true)
        }
        if exact { shown += " (one matches this sample callback, but not every nonce: the core's nonce is new on every payment, so only a wildcard may stand for it)" }
        return "; the patterns of \(unique(ids).joined(separator: ", ")) are \(shown), and none matches it"
    }

    /// Checks `webcredentials.apps` of an apple-app-site-association: ASWebAuthenticationSession's
    /// `.https(host:path:)` callback needs the app associated with the host for the
    /// `webcredentials` service (issue 38; developer.apple.com/forums/thread/805416), which
    /// reads this key, not `applinks` (developer.apple.com/documentation/xcode/supporting-associated-domains).
    /// The file is read again on its own: its `input.readable` finding is the `ios.aasa` check's.
    /// - Parameters:
    ///   - path: The file.
    ///   - link: The https callback.
    ///   - appID: `TEAMID.bundle.id`, when given (`--ios-app-id`); without it, any app listed passes with a note.
    /// - Returns: The finding.
    static func webCredentials(at path: String, link: LinkTarget, appID: String?) -> [DoctorFinding] {
        var ignored: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &ignored, InputFile.jsonDocument(at:)) else { return [] }
        let map = JSONSourceMap(document.contents)
        let host = link.host ?? ""
        let id = appID ?? "TEAMID.com.your.app"
        let root = document.value as? [String: Any]
        let section = root?["webcredentials"] as? [String: Any]
        let apps = (section?["apps"] as? [Any])?.compactMap { $0 as? String }
        let served = "served at https://\(host)/.well-known/apple-app-site-association"
        let consequence = "ASWebAuthenticationSession does not complete on https://\(host) for this app: the session never hands the return back"
        if let apps, appID.map(apps.contains) ?? !apps.isEmpty {
            let listed = appID ?? apps.joined(separator: ", ")
            return [DoctorFinding(.iosWebCredentials, .ok, file: path,
                "webcredentials.apps lists \(listed)\(appID == nil ? " (app IDs not compared: pass --ios-app-id TEAMID.bundle.id)" : ""); not checked: that https://\(host)/.well-known/apple-app-site-association serves this file (no network)")]
        }
        var edits: [TextEdit] = []
        let fix: String
        if let apps {
            fix = "add \"\(id)\" to webcredentials.apps (\(served))"
            if appID != nil, let map, let array = map.node([.key("webcredentials"), .key("apps")]), let edit = map.append(id, to: array) { edits = [edit] }
            return [DoctorFinding(.iosWebCredentials, .error, file: path,
                "webcredentials.apps lists \(apps.isEmpty ? "no app" : apps.joined(separator: ", ")), not \(id): \(consequence)", fix: fix, edits: edits)]
        }
        fix = Snippet.json(["webcredentials": ["apps": [id]]]) + "\n(a top-level key beside applinks, \(served))"
        if appID != nil, section == nil, let map, map.root.kind == .object, let edit = map.insert("webcredentials", ["apps": [id]], into: map.root) { edits = [edit] }
        return [DoctorFinding(.iosWebCredentials, .error, file: path,
            "has no webcredentials.apps: \(consequence)", fix: fix, edits: edits)]
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// Apple's pattern rule ([aasa]) on a text that does not vary (``LinkText/wildcardMatches(_:caseSensitive:)``).
    static func wildcardMatches(_ pattern: String, _ text: String, caseSensitive: Bool) -> Bool {
        LinkText(text).wildcardMatches(pattern, caseSensitive: caseSensitive)
    }
}
