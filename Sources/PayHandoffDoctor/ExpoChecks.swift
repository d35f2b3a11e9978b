import Foundation

/// The Expo rules: `app.json` / `app.config.json` (the config under `expo`, or at the top
/// level), checked per platform as `npx expo prebuild` turns it into each platform's files.
///
/// What prebuild does, confirmed in expo/expo's source (packages/@expo/config-plugins and
/// packages/@expo/prebuild-config; read, not copied):
///
/// - iOS URL schemes (`ios/Scheme.ts` `setScheme`): `CFBundleURLTypes` becomes one entry
///   holding `scheme` + `ios.scheme` + `ios.bundleIdentifier`; the plugin is created with
///   `createInfoPlistPluginWithPropertyGuard` (`plugins/ios-plugins.ts`), so when
///   `ios.infoPlist.CFBundleURLTypes` is set it leaves that alone and the config's are the only ones.
/// - `ios.infoPlist` is merged over the generated Info.plist (`withIosBaseMods.ts`, the
///   `infoPlist` provider), so `ios.infoPlist.LSApplicationQueriesSchemes` is what iOS reads.
/// - Associated domains (`ios/Entitlements.ts` `setAssociatedDomains`): `ios.associatedDomains`
///   replaces the entitlement when set; otherwise `ios.entitlements` (merged by the
///   `entitlements` provider) keeps its `com.apple.developer.associated-domains`.
/// - Android schemes (`android/Scheme.ts` `setScheme`): `scheme` + `android.scheme` (not the
///   package) are added as scheme-only `<data>` to the VIEW filters of the first singleTask
///   activity (MainActivity in Expo's template), which gets a VIEW + DEFAULT + BROWSABLE filter
///   when it has none (`ensureManifestHasValidIntentFilter`).
/// - `android.intentFilters` (`android/IntentFilters.ts`): each becomes an `<intent-filter>` on
///   MainActivity with `android.intent.action.` + `action` and `android.intent.category.` +
///   each category (always prefixed: `"action": "android.intent.action.VIEW"` makes a broken
///   action), `data` attributes as written, `autoVerify`. The default plugins register
///   `withAndroidIntentFilters` before `withScheme` and mods run last-registered first
///   (`plugins/withMod.ts`), so the schemes are not added to these filters.
/// - `<queries>`: app.json has no key for it; the `expo-build-properties` plugin's
///   `android.manifestQueries` (`package`, `intent`, `provider`) adds entries
///   (`expo-build-properties/src/android.ts` `withAndroidQueries`), its intents' actions also
///   prefixed with `android.intent.action.`.
enum ExpoChecks {
    /// What the orchestrator needs from the config besides the findings.
    struct Facts {
        var readable = false
        var androidPackage: String?
        var bundleIdentifier: String?
    }

    /// The package and bundle identifier of the config at `path`, read quietly (the check
    /// reports what is wrong with the file): the applicationId and `PRODUCT_BUNDLE_IDENTIFIER`
    /// for the other files' checks.
    static func facts(configAt path: String) -> Facts {
        guard let document = try? InputFile.json(at: path), let root = document as? [String: Any] else { return Facts() }
        let expo = root["expo"] as? [String: Any] ?? root
        return Facts(readable: true, androidPackage: (expo["android"] as? [String: Any])?["package"] as? String,
                     bundleIdentifier: (expo["ios"] as? [String: Any])?["bundleIdentifier"] as? String)
    }

    /// The parts of the config the checks read, and where they sit in the file.
    private struct Config {
        var root: [String: Any]
        var expo: [String: Any]
        var base: [String]
        var map: JSONSourceMap?
        var file: String

        var android: [String: Any] { expo["android"] as? [String: Any] ?? [:] }
        var ios: [String: Any] { expo["ios"] as? [String: Any] ?? [:] }
        var infoPlist: [String: Any] { ios["infoPlist"] as? [String: Any] ?? [:] }

        /// The value at `path` (under the config's base) in the parsed document.
        func value(_ path: [String]) -> Any? {
            var value: Any? = expo
            for key in path { value = (value as? [String: Any])?[key] }
            return value
        }

        /// An edit that adds `item` to the array at `path` (under the config's base): appended
        /// when the array exists, the key created (with the missing objects on the way) when
        /// it does not, and a lone string turned into an array holding it and `item`.
        /// `single` writes a new key as the item itself rather than an array of one.
        func add(_ item: Any, at path: [String], single: Bool = false) -> TextEdit? {
            guard let map else { return nil }
            var node = map.node(base.map { .key($0) })
            guard node != nil else { return nil }
            for (offset, key) in path.enumerated() {
                if let next = node?[key] {
                    node = next
                    continue
                }
                guard let parent = node else { return nil }
                var value: Any = single && offset == path.count - 1 ? item : [item]
                for key in path[(offset + 1)...].reversed() { value = [key: value] }
                return map.insert(key, value, into: parent)
            }
            guard let node else { return nil }
            switch node.kind {
            case .array: return map.append(item, to: node)
            case .scalar: return self.value(path).map { map.replace(node, with: [$0, item]) }
            case .object: return nil
            }
        }
    }

    /// Checks the Expo config at `path` against the links.
    /// - Parameters:
    ///   - hasManifest: Whether the generated AndroidManifest.xml is checked too (it then
    ///     answers for `<queries>`).
    ///   - buildSettings: `--build-setting` values, for `$(…)` in `ios.infoPlist`.
    /// - Returns: The findings, the facts, and the file's bytes (for `--fix-diff`).
    static func check(configAt path: String, links: DoctorLinks, hasManifest: Bool, buildSettings: [(key: String, value: String)]) -> (findings: [DoctorFinding], facts: Facts, contents: [UInt8]?) {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, InputFile.jsonDocument(at:)) else { return (findings, Facts(), nil) }
        guard let root = document.value as? [String: Any] else {
            return ([DoctorFinding(.inputReadable, .error, file: path, "\(path): the top level is not a JSON object")], Facts(), nil)
        }
        let expo = root["expo"] as? [String: Any] ?? root
        let config = Config(root: root, expo: expo, base: root["expo"] is [String: Any] ? ["expo"] : [], map: JSONSourceMap(document.contents), file: path)
        let facts = Facts(readable: true, androidPackage: config.android["package"] as? String, bundleIdentifier: config.ios["bundleIdentifier"] as? String)
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read the Expo config\(root["expo"] == nil ? " (top level)" : " (under \"expo\")")"))

        let apple = AppleBuildValues(settings: buildSettings, bundleIdentifier: facts.bundleIdentifier.map { ($0, "Expo ios.bundleIdentifier") })
        let filters = (config.android["intentFilters"] as? [Any] ?? []).map { ($0 as? [String: Any]).map(intentFilter) }
        findings += schemes(config, links: links, filters: filters.compactMap { $0 }, apple: apple)
        findings += lowerCase(config, filters: filters)
        findings += AndroidChecks.pairings(filters.compactMap { $0 }.map { (owner: "android.intentFilters", filter: $0) }, file: path)

        if let link = links.targets.first(where: { $0.role == .callback && $0.isWeb }) {
            findings.append(webIntentFilter(config, filters.compactMap { $0 }, link: link))
            let explicit = config.ios["associatedDomains"] as? [Any]
            let entitlement = (config.ios["entitlements"] as? [String: Any])?[AppleChecks.associatedDomainsKey] as? [Any]
            let key = explicit != nil || entitlement == nil ? ["ios", "associatedDomains"] : ["ios", "entitlements", AppleChecks.associatedDomainsKey]
            let domains = (explicit ?? entitlement ?? []).compactMap { $0 as? String }
            let entry = "applinks:" + (link.host ?? "")
            findings.append(AppleChecks.associatedDomains(domains.map(apple.resolve), for: link, rule: .expoIOSAssociatedDomains, file: path,
                fix: "in \"expo\".\"ios\":\n" + Snippet.json([key.last ?? "": domains + [entry]]),
                edits: config.add(entry, at: key).map { [$0] } ?? []))
        }
        if links.usesPOS {
            let key = AppleChecks.queriesKey
            let queries = (config.infoPlist[key] as? [Any])?.compactMap { $0 as? String }
            findings.append(AppleChecks.querySchemes(queries?.map(apple.resolve), file: path, rule: .expoIOSQueriesSchemes, setting: "ios.infoPlist.\(key)",
                fix: "in \"expo\".\"ios\":\n" + Snippet.json(["infoPlist": [key: (queries ?? []) + [DoctorLinks.posAppScheme]]]),
                edits: config.add(DoctorLinks.posAppScheme, at: ["ios", "infoPlist", key]).map { [$0] } ?? []))
            if !hasManifest { findings.append(androidQueries(config)) }
        }
        return (findings, facts, config.map?.bytes)
    }

    // MARK: schemes, per platform

    /// The filters prebuild puts on MainActivity for `scheme` + `android.scheme`.
    private static func schemeFilter(_ schemes: [String]) -> IntentFilter? {
        guard !schemes.isEmpty else { return nil }
        return IntentFilter(actions: [IntentFilter.view], categories: [IntentFilter.defaultCategory, IntentFilter.browsable],
                            data: schemes.map { IntentFilter.DataElement(scheme: $0) }, autoVerify: false, line: nil)
    }

    private static func strings(_ value: Any?) -> [String] {
        (value as? String).map { [$0] } ?? (value as? [Any])?.compactMap { $0 as? String } ?? []
    }

    private static func schemes(_ config: Config, links: DoctorLinks, filters: [IntentFilter], apple: AppleBuildValues) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let file = config.file
        let top = strings(config.expo["scheme"])
        let androidSchemes = top + strings(config.android["scheme"])
        let androidFilters = [schemeFilter(androidSchemes)].compactMap { $0 } + filters
        let iosOverride = config.infoPlist["CFBundleURLTypes"] as? [Any]
        let iosSchemes: [BuildValue]
        let iosSource: String
        if let iosOverride {
            iosSchemes = iosOverride.flatMap { strings(($0 as? [String: Any])?["CFBundleURLSchemes"]) }.map(apple.resolve)
            iosSource = "ios.infoPlist.CFBundleURLTypes (set, so prebuild ignores \"scheme\" and ios.scheme on iOS)"
        } else {
            iosSchemes = (top + strings(config.ios["scheme"]) + [config.ios["bundleIdentifier"] as? String].compactMap { $0 }).map(BuildValue.literal)
            iosSource = "\"scheme\", ios.scheme and ios.bundleIdentifier"
        }
        for (scheme, link) in AppleChecks.customSchemes(links) {
            // Android: the filters prebuild writes, matched as Android matches them.
            let android = Tri.any(androidFilters.filter { $0.hasView }.map { $0.match(link) })
            var schemeEdit = config.add(scheme, at: ["scheme"], single: true)
            let schemeFix = "in \"expo\":\n" + Snippet.json(["scheme": top.isEmpty ? scheme as Any : (top + [scheme]) as Any])
            if android.isYes {
                findings.append(DoctorFinding(.expoScheme, .ok, file: file, "Android: prebuild's MainActivity receives \(scheme):// (the \(link.role.name)) from \"scheme\", android.scheme or android.intentFilters"))
            } else {
                findings.append(DoctorFinding(.expoScheme, .error, file: file,
                    "Android: neither \"scheme\", android.scheme nor a custom-scheme android.intentFilters entry gives MainActivity \(scheme):// (the \(link.role.name)): the Android app that prebuild generates never receives it",
                    fix: schemeFix, edits: schemeEdit.map { [$0] } ?? []))
                if iosOverride == nil { schemeEdit = nil }  // the same line serves iOS: written once
            }
            // iOS: the URL types prebuild writes, compared ignoring case.
            switch AppleChecks.registers(iosSchemes, scheme) {
            case .yes:
                findings.append(DoctorFinding(.expoScheme, .ok, file: file, "iOS: \(iosSource) register\(iosOverride == nil ? "" : "s") \(scheme) (the \(link.role.name))"))
            case .possibly(let why):
                findings.append(.undecided(.expoScheme, file: file, "iOS: \(iosSource) possibly register\(iosOverride == nil ? "" : "s") \(scheme)", why))
            case .no:
                if iosOverride != nil {
                    let entry: [String: Any] = ["CFBundleURLSchemes": [scheme]]
                    findings.append(DoctorFinding(.expoScheme, .error, file: file,
                        "iOS: ios.infoPlist.CFBundleURLTypes is set and does not hold \(scheme) (prebuild then leaves \"scheme\" and ios.scheme out of Info.plist): the iOS app never receives \(scheme):// (the \(link.role.name))",
                        fix: "in \"expo\".\"ios\".\"infoPlist\".\"CFBundleURLTypes\":\n" + Snippet.json(entry),
                        edits: config.add(entry, at: ["ios", "infoPlist", "CFBundleURLTypes"]).map { [$0] } ?? []))
                } else {
                    findings.append(DoctorFinding(.expoScheme, .error, file: file,
                        "iOS: neither \"scheme\", ios.scheme nor ios.bundleIdentifier is \(scheme): the iOS app that prebuild generates never receives \(scheme):// (the \(link.role.name))",
                        fix: schemeFix + (schemeEdit == nil && !android.isYes ? "   (the same line as the Android fix)" : ""), edits: schemeEdit.map { [$0] } ?? []))
                }
            }
        }
        return findings
    }

    /// An Expo intent filter as prebuild renders it (confirmed in IntentFilters.ts: the action
    /// and each category always get their `android.intent.` prefix).
    private static func intentFilter(_ object: [String: Any]) -> IntentFilter {
        let data = (object["data"] as? [String: Any]).map { [$0] } ?? (object["data"] as? [Any])?.compactMap { $0 as? [String: Any] } ?? []
        func string(_ value: Any?) -> String? { (value as? String) ?? (value as? Int).map(String.init) }
        return IntentFilter(
            actions: [object["action"] as? String].compactMap { $0 }.map { "android.intent.action." + $0 },
            categories: strings(object["category"]).map { "android.intent.category." + $0 },
            data: data.map { element in
                IntentFilter.DataElement(
                    scheme: string(element["scheme"]), host: string(element["host"]), port: string(element["port"]),
                    path: string(element["path"]), pathPrefix: string(element["pathPrefix"]),
                    pathPattern: string(element["pathPattern"]), pathSuffix: string(element["pathSuffix"]),
                    pathAdvancedPattern: string(element["pathAdvancedPattern"]), mimeType: string(element["mimeType"]))
            },
            autoVerify: object["autoVerify"] as? Bool ?? false,
            line: nil)
    }

    /// Android's lower-case rule on the schemes prebuild writes; the fix adds the lower-case
    /// scheme next to the upper-case one (additive, as in the manifest).
    private static func lowerCase(_ config: Config, filters: [IntentFilter?]) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for key in [["scheme"], ["android", "scheme"]] {
            let written = strings(config.value(key))
            for scheme in written where scheme != scheme.lowercased() && !written.contains(scheme.lowercased()) {
                findings.append(DoctorFinding(.androidSchemeLowercase, .error, file: config.file,
                    "\(key.joined(separator: ".")) \"\(scheme)\": Android matches schemes case-sensitively and browsers send them in lower case, so the Android app never receives \(scheme.lowercased()):// links",
                    fix: "add next to it in \(key.joined(separator: ".")): \"\(scheme.lowercased())\"",
                    edits: config.add(scheme.lowercased(), at: key).map { [$0] } ?? []))
            }
        }
        for (offset, filter) in filters.enumerated() {
            guard let filter else { continue }
            for (_, scheme) in filter.upperCaseSchemes() {
                let dataPath: [JSONPath] = config.base.map { .key($0) } + [.key("android"), .key("intentFilters"), .index(offset), .key("data")]
                let edits = config.map.flatMap { map in map.node(dataPath).flatMap { map.append(["scheme": scheme.lowercased()], to: $0) } }.map { [$0] } ?? []
                findings.append(DoctorFinding(.androidSchemeLowercase, .error, file: config.file,
                    "android.intentFilters[\(offset)] scheme \"\(scheme)\": Android matches schemes case-sensitively and browsers send them in lower case, so this filter never receives \(scheme.lowercased()):// links",
                    fix: "add to that entry's \"data\": {\"scheme\": \"\(scheme.lowercased())\"}", edits: edits))
            }
        }
        if findings.isEmpty {
            findings.append(DoctorFinding(.androidSchemeLowercase, .ok, file: config.file, "every scheme Expo writes into the Android manifest is lower case"))
        }
        return findings
    }

    private static func webIntentFilter(_ config: Config, _ filters: [IntentFilter], link: LinkTarget) -> DoctorFinding {
        let entry: [String: Any] = [
            "action": "VIEW", "autoVerify": true, "category": ["BROWSABLE", "DEFAULT"],
            "data": [["scheme": "https", "host": link.host ?? "", "pathPrefix": link.registeredPath.isEmpty ? "/" : link.registeredPath]],
        ]
        let fix = "in \"expo\".\"android\".\"intentFilters\":\n" + Snippet.json(entry)
        // A complete entry is added, never a change to an existing one: whatever that one serves stays.
        let edits = config.add(entry, at: ["android", "intentFilters"]).map { [$0] } ?? []
        let receiving = filters.filter { $0.hasView && $0.match(link).isYes }
        guard let filter = receiving.max(by: { (AndroidChecks.missingPieces($0, link: link).errors.count + ($0.autoVerify ? 0 : 1)) > (AndroidChecks.missingPieces($1, link: link).errors.count + ($1.autoVerify ? 0 : 1)) }) else {
            let broken = filters.filter { !$0.hasView && $0.match(link).isYes }.map { $0.actions.joined(separator: ", ") }
            return DoctorFinding(.expoAndroidIntentFilters, .error, file: config.file,
                "no android.intentFilters entry receives the \(link.role.name) \(link.url) (https host \(link.host ?? ""), a path prefix covering \(link.path.isEmpty ? "/" : link.path))"
                    + (broken.isEmpty ? "" : "; an entry with the action \(broken.joined(separator: "; ")) matches the data but is no VIEW filter (prebuild prefixes \"action\" with android.intent.action.: write \"VIEW\")"),
                fix: fix, edits: edits)
        }
        var problems = AndroidChecks.missingPieces(filter, link: link).errors
        if !filter.autoVerify { problems.append("no \"autoVerify\": true (from Android 12 an unverified https link opens in the browser)") }
        guard problems.isEmpty else {
            return DoctorFinding(.expoAndroidIntentFilters, .error, file: config.file,
                "the android.intentFilters entry for \(link.host ?? "") has " + problems.joined(separator: "; "), fix: fix, edits: edits)
        }
        return DoctorFinding(.expoAndroidIntentFilters, .ok, file: config.file,
            "an android.intentFilters entry receives \(link.url) as a verified App Link (VIEW, BROWSABLE, DEFAULT, autoVerify)")
    }

    /// `<queries>` from the `expo-build-properties` plugin, when the generated manifest is not given.
    private static func androidQueries(_ config: Config) -> DoctorFinding {
        let plugins = config.expo["plugins"] as? [Any] ?? []
        let options = plugins.compactMap { plugin -> [String: Any]? in
            guard let pair = plugin as? [Any], pair.first as? String == "expo-build-properties" else { return nil }
            return pair.dropFirst().first as? [String: Any]
        }
        let manifestQueries = options.compactMap { ($0["android"] as? [String: Any])?["manifestQueries"] as? [String: Any] }
        let intents = manifestQueries.flatMap { ($0["intent"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.map(intentFilter) }
        let packages = manifestQueries.flatMap { strings($0["package"]) }
        let suggestion: [String: Any] = ["android": ["manifestQueries": ["package": [AndroidChecks.billpocketPackage]]]]
        let fix = "in \"expo\".\"plugins\" (the expo-build-properties plugin; its intent actions get android.intent.action. prepended, so Billpocket's own actions cannot be declared there):\n"
            + Snippet.json([["expo-build-properties", suggestion]]) + "\nor check the generated manifest: npx expo prebuild, then --android-manifest android/app/src/main/AndroidManifest.xml"
        if let covering = AndroidChecks.queriesCover(intents: intents, packages: packages) {
            return DoctorFinding(.androidQueries, .ok, file: config.file,
                "the expo-build-properties plugin's android.manifestQueries declares \(covering): on Android 11+ the app can see the Billpocket app")
        }
        return DoctorFinding(.androidQueries, .warning, file: config.file,
            "no expo-build-properties android.manifestQueries entry for Billpocket (app.json itself cannot declare <queries>; another config plugin might, which doctor cannot see), so the Billpocket app's visibility on Android 11+ is not confirmed",
            fix: fix)
    }
}
