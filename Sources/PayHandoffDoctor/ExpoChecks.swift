/// The Expo rules: `app.json` / `app.config.json` (the config under `expo`, or at the top level).
///
/// What `npx expo prebuild` generates from it: each `scheme` becomes an intent filter on
/// MainActivity (exported, singleTask in Expo's template) and a CFBundleURLTypes entry;
/// `android.intentFilters` are added to MainActivity as written; `ios.infoPlist` is merged into
/// Info.plist; `ios.associatedDomains` becomes the entitlement. `<queries>` cannot be written
/// in app.json (it takes a config plugin), so that rule needs the generated manifest.
enum ExpoChecks {
    /// What the orchestrator needs from the config besides the findings.
    struct Facts {
        var readable = false
        var androidPackage: String?
    }

    /// Checks the Expo config at `path` against the links.
    static func check(configAt path: String, links: DoctorLinks) -> (findings: [DoctorFinding], facts: Facts) {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, InputFile.json(at:)) else { return (findings, Facts()) }
        guard let root = document as? [String: Any] else {
            return ([DoctorFinding(.inputReadable, .error, file: path, "\(path): the top level is not a JSON object")], Facts())
        }
        let expo = root["expo"] as? [String: Any] ?? root
        let android = expo["android"] as? [String: Any] ?? [:]
        let ios = expo["ios"] as? [String: Any] ?? [:]
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read the Expo config\(root["expo"] == nil ? " (top level)" : " (under \"expo\")")"))

        // scheme: a string or an array of strings.
        let schemes = (expo["scheme"] as? String).map { [$0] } ?? (expo["scheme"] as? [Any])?.compactMap { $0 as? String } ?? []
        let needed = AppleChecks.customSchemes(links)
        for (scheme, link) in needed {
            if schemes.contains(where: { $0.lowercased() == scheme }) {
                findings.append(DoctorFinding(.expoScheme, .ok, file: path, "\"scheme\" holds \(scheme) (the \(link.role.name)): prebuild registers it on Android and iOS"))
            } else {
                let all = schemes + needed.map { $0.scheme }.filter { wanted in !schemes.contains { $0.lowercased() == wanted } }
                findings.append(DoctorFinding(.expoScheme, .error, file: path,
                    "\"scheme\" does not hold \(scheme): neither the Android manifest nor Info.plist that prebuild generates will receive \(scheme):// links (the \(link.role.name))",
                    fix: "in \"expo\":\n" + Snippet.json(["scheme": all.count == 1 ? all[0] as Any : all as Any])))
            }
        }
        let filters = (android["intentFilters"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.map(intentFilter)
        let schemeFilter = IntentFilter(actions: [], categories: [], data: schemes.map { IntentFilter.DataElement(scheme: $0) },
                                        autoVerify: false, line: nil)
        findings += AndroidChecks.lowerCaseSchemes([schemeFilter] + filters, file: path, setting: "Expo scheme or intentFilters scheme")
        findings += AndroidChecks.pairings(filters.map { (owner: "android.intentFilters", filter: $0) }, file: path)

        if let link = links.targets.first(where: { $0.role == .callback && $0.isWeb }) {
            findings.append(webIntentFilter(filters, link: link, file: path))
            let domains = ios["associatedDomains"] as? [Any]
            findings.append(AppleChecks.associatedDomains((domains ?? []).compactMap { $0 as? String }, for: link,
                rule: .expoIOSAssociatedDomains, file: path,
                fix: "in \"expo\".\"ios\":\n" + Snippet.json(["associatedDomains": ((domains ?? []).compactMap { $0 as? String }) + ["applinks:" + (link.host ?? "")]])))
        }
        if links.usesPOS {
            let key = "LSApplicationQueriesSchemes"
            let infoPlist = ios["infoPlist"] as? [String: Any] ?? [:]
            let queries = (infoPlist[key] as? [Any] ?? []).compactMap { $0 as? String }
            if queries.contains(where: { $0.lowercased() == DoctorLinks.posAppScheme }) {
                findings.append(DoctorFinding(.expoIOSQueriesSchemes, .ok, file: path, "ios.infoPlist.\(key) holds \(DoctorLinks.posAppScheme)"))
            } else {
                findings.append(DoctorFinding(.expoIOSQueriesSchemes, .error, file: path,
                    "ios.infoPlist.\(key) does not hold \(DoctorLinks.posAppScheme): on iOS canOpenURL(\(DoctorLinks.posAppScheme)://…) answers false even with the POS app installed",
                    fix: "in \"expo\".\"ios\":\n" + Snippet.json(["infoPlist": [key: queries + [DoctorLinks.posAppScheme]]])))
            }
        }
        return (findings, Facts(readable: true, androidPackage: android["package"] as? String))
    }

    /// An Expo intent filter as the manifest entry prebuild writes: `action` and `category`
    /// without their `android.intent.` prefixes, `data` an object or an array of objects.
    private static func intentFilter(_ object: [String: Any]) -> IntentFilter {
        func strings(_ value: Any?) -> [String] {
            (value as? String).map { [$0] } ?? (value as? [Any])?.compactMap { $0 as? String } ?? []
        }
        func qualified(_ name: String, _ prefix: String) -> String { name.contains(".") ? name : prefix + name }
        let data = (object["data"] as? [String: Any]).map { [$0] } ?? (object["data"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
        return IntentFilter(
            actions: strings(object["action"]).map { qualified($0, "android.intent.action.") },
            categories: strings(object["category"]).map { qualified($0, "android.intent.category.") },
            data: data.map { element in
                IntentFilter.DataElement(
                    scheme: element["scheme"] as? String, host: element["host"] as? String,
                    port: (element["port"] as? String) ?? (element["port"] as? Int).map(String.init),
                    path: element["path"] as? String, pathPrefix: element["pathPrefix"] as? String,
                    pathPattern: element["pathPattern"] as? String, mimeType: element["mimeType"] as? String)
            },
            autoVerify: object["autoVerify"] as? Bool ?? false,
            line: nil)
    }

    private static func webIntentFilter(_ filters: [IntentFilter], link: LinkTarget, file: String) -> DoctorFinding {
        let fix = "in \"expo\".\"android\":\n" + Snippet.json(["intentFilters": [[
            "action": "VIEW", "autoVerify": true, "category": ["BROWSABLE", "DEFAULT"],
            "data": [["scheme": "https", "host": link.host ?? "", "pathPrefix": link.registeredPath.isEmpty ? "/" : link.registeredPath]],
        ]]])
        guard let filter = filters.first(where: { $0.mismatch(link) == nil }) else {
            return DoctorFinding(.expoAndroidIntentFilters, .error, file: file,
                "no android.intentFilters entry receives the \(link.role.name) \(link.url) (https host \(link.host ?? ""), a path prefix covering \(link.path.isEmpty ? "/" : link.path))",
                fix: fix)
        }
        var problems = AndroidChecks.missingPieces(filter, link: link).errors
        if !filter.autoVerify { problems.append("no \"autoVerify\": true (from Android 12 an unverified https link opens in the browser)") }
        guard problems.isEmpty else {
            return DoctorFinding(.expoAndroidIntentFilters, .error, file: file,
                "the android.intentFilters entry for \(link.host ?? "") has " + problems.joined(separator: "; "), fix: fix)
        }
        return DoctorFinding(.expoAndroidIntentFilters, .ok, file: file,
            "an android.intentFilters entry receives \(link.url) as a verified App Link (VIEW, BROWSABLE, DEFAULT, autoVerify)")
    }
}
