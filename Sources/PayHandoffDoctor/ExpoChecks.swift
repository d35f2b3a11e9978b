import Foundation
import PayHandoff

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

        /// The edits that add `items` to the array at `path` (under the config's base):
        /// appended when the array exists, the key created (with the missing objects on the
        /// way) when it does not, and a lone string turned into an array holding it and the
        /// items. `single` writes a new key holding one item as that item, not an array of one.
        func add(_ items: [Any], at path: [String], single: Bool = false) -> [TextEdit] {
            guard let map, !items.isEmpty, var node = map.node(base.map { .key($0) }) else { return [] }
            for (offset, key) in path.enumerated() {
                if let next = node[key] {
                    node = next
                    continue
                }
                var value: Any = single && offset == path.count - 1 && items.count == 1 ? items[0] : items
                for key in path[(offset + 1)...].reversed() { value = [key: value] }
                return map.insert(key, value, into: node).map { [$0] } ?? []
            }
            switch node.kind {
            case .array: return items.compactMap { map.append($0, to: node) }
            case .scalar: return self.value(path).map { [map.replace(node, with: [$0] + items)] } ?? []
            case .object: return []
            }
        }
    }

    /// Checks the Expo config at `path` against the links.
    /// - Parameters:
    ///   - hasManifest: Whether the generated AndroidManifest.xml is checked too (it then
    ///     answers for `<queries>`).
    ///   - buildSettings: `--build-setting` values, for `$(…)` in `ios.infoPlist`.
    ///   - posApps: The POS apps the app hands sales to (`--pos-app`): their query schemes, and
    ///     their `<queries>` entries when the generated manifest is not given.
    /// - Returns: The findings, the facts, and the file's bytes (for `--fix-diff`).
    static func check(configAt path: String, links: DoctorLinks, hasManifest: Bool, buildSettings: [(key: String, value: String)], webCredentials: Bool = false,
                      checkoutHosts: [String] = [], posApps: [POSApp] = []) -> (findings: [DoctorFinding], facts: Facts, contents: [UInt8]?) {
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
        let platforms = platforms(expo, apple: apple)
        findings += schemes(config, links: links, platforms: platforms)
        findings += lowerCase(config, filters: platforms.intentFilters)
        findings += AndroidChecks.pairings(platforms.intentFilters.compactMap { $0 }.map { (owner: "android.intentFilters", filter: $0) }, file: path)

        if let link = links.targets.first(where: { $0.role == .callback && $0.isWeb }) {
            findings.append(webIntentFilter(config, platforms.intentFilters, link: link))
            let key = platforms.associatedDomainsKey
            let domains = platforms.associatedDomains
            let entry = "applinks:" + (link.host ?? "")
            findings.append(AppleChecks.associatedDomains(domains.map(apple.resolve), for: link, rule: .expoIOSAssociatedDomains, file: path,
                fix: "in \"expo\".\"ios\":\n" + Snippet.json([key.last ?? "": domains + [entry]]),
                edits: config.add([entry], at: key)))
            if webCredentials {
                let entry = "webcredentials:" + (link.host ?? "")
                findings.append(AppleChecks.associatedDomains(domains.map(apple.resolve), for: link, rule: .iosWebCredentials, file: path, service: "webcredentials",
                    fix: "in \"expo\".\"ios\":\n" + Snippet.json([key.last ?? "": domains + [entry]]),
                    edits: config.add([entry], at: key)))
            }
        }
        if !posApps.isEmpty {
            let key = AppleChecks.queriesKey
            let queries = (config.infoPlist[key] as? [Any])?.compactMap { $0 as? String }
            findings += AppleChecks.querySchemes(queries?.map(apple.resolve), apps: posApps, file: path, rule: .expoIOSQueriesSchemes, setting: "ios.infoPlist.\(key)",
                fix: { "in \"expo\".\"ios\":\n" + Snippet.json(["infoPlist": [key: (queries ?? []) + $0]]) },
                edits: { config.add($0, at: ["ios", "infoPlist", key]) })
            if !hasManifest { findings += androidQueries(config, apps: posApps) }
        }
        findings += ExpoRouterChecks.check(expo, configAt: path, links: links)
        // The generated manifest holds these filters and the launch mode: with it given, its checks cover them.
        if !hasManifest {
            findings.append(generatedLaunchMode(path))
            let filters = platforms.intentFilters.compactMap { $0 }.map { (component: "android.intentFilters", filter: $0) }
            findings += checkoutHosts.map { AndroidChecks.checkoutHost($0, filters: filters, legacy: false, file: path) }
        }
        return (limitedToPlatforms(findings, expo: expo, file: path), facts, config.map?.bytes)
    }

    /// Issue 38 (d) for an Expo app whose generated manifest is not given: prebuild writes the
    /// template's `MainActivity`, the launcher, with `android:launchMode="singleTask"` (expo/expo
    /// templates/expo-template-bare-minimum/android/app/src/main/AndroidManifest.xml, read at
    /// commit 0aebf19), and no app config key changes it: the app's icon mid-payment finishes
    /// the browser tab. A warning: doctor has not seen the generated file.
    private static func generatedLaunchMode(_ path: String) -> DoctorFinding {
        DoctorFinding(.androidLaunchMode, .warning, file: path,
            "npx expo prebuild gives MainActivity, the launcher that receives the links, android:launchMode=\"singleTask\" (Expo's template), so tapping the app's icon while the checkout is open finishes the browser tab (flutter_custom_tabs #271, stripe-android #9050); not seen: pass the generated android/app/src/main/AndroidManifest.xml with --android-manifest to check it",
            fix: "a config plugin (withAndroidManifest from expo/config-plugins) that sets android:launchMode=\"singleTop\" on .MainActivity, and read the link in onCreate and onNewIntent (no diff: the value is in the generated manifest)")
    }

    /// `"platforms"`: Expo CLI reads it for `expo start` and `expo export`, but `npx expo
    /// prebuild` does not filter on it: the platforms it generates come from `--platform`
    /// alone (`@expo/cli` src/prebuild: `resolvePlatformOption(args['--platform'])`, `all` by
    /// default, which is android and ios except iOS on Windows), so the native project of a
    /// platform the config leaves out is still generated from it. Doctor therefore still checks
    /// that platform, but reports its errors as warnings naming `platforms`: they matter only
    /// if that app is built.
    static func limitedToPlatforms(_ findings: [DoctorFinding], expo: [String: Any], file: String) -> [DoctorFinding] {
        guard let platforms = expo["platforms"] as? [Any] else { return findings }
        let listed = platforms.compactMap { $0 as? String }
        let written = "[" + listed.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        func left(_ platform: String) -> Bool { !listed.contains(platform) }
        return findings.map { finding in
            guard finding.file == file, finding.severity == .error else { return finding }
            let android = [.expoAndroidIntentFilters, .androidSchemeLowercase, .androidDataPairings, .androidQueries, .androidCheckoutHost].contains(finding.rule)
                || (finding.rule == .expoScheme && finding.message.hasPrefix("Android:"))
            let ios = [.expoIOSQueriesSchemes, .expoIOSAssociatedDomains, .iosWebCredentials].contains(finding.rule)
                || (finding.rule == .expoScheme && finding.message.hasPrefix("iOS:"))
            guard let platform = android && left("android") ? "android" : ios && left("ios") ? "ios" : nil else { return finding }
            var downgraded = finding
            downgraded.severity = .warning
            downgraded.message += " (\"platforms\" is \(written), without \(platform): npx expo prebuild does not read it and still generates the \(platform) project unless run with --platform \(listed.first ?? "ios"), so this matters only if that app is built)"
            return downgraded
        }
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

    /// What each platform gets from the config, as prebuild writes it.
    struct Platforms {
        /// The filters on MainActivity: the schemes' filter, then `android.intentFilters`
        /// (`nil` where an entry is not an object).
        var schemeFilter: IntentFilter?
        var intentFilters: [IntentFilter?]
        /// The iOS URL schemes, and whether `ios.infoPlist.CFBundleURLTypes` gives them.
        var iosSchemes: [BuildValue]
        var iosOverride: Bool
        /// The iOS associated domains, and the key that holds them.
        var associatedDomains: [String]
        var associatedDomainsKey: [String]

        var androidFilters: [IntentFilter] { [schemeFilter].compactMap { $0 } + intentFilters.compactMap { $0 } }
    }

    /// The platforms of the config `expo` (the object under "expo", or the top level).
    static func platforms(_ expo: [String: Any], apple: AppleBuildValues) -> Platforms {
        let android = expo["android"] as? [String: Any] ?? [:]
        let ios = expo["ios"] as? [String: Any] ?? [:]
        let top = strings(expo["scheme"])
        let override = (ios["infoPlist"] as? [String: Any])?["CFBundleURLTypes"] as? [Any]
        let iosSchemes = override.map { $0.flatMap { strings(($0 as? [String: Any])?["CFBundleURLSchemes"]) }.map(apple.resolve) }
            ?? (top + strings(ios["scheme"]) + [ios["bundleIdentifier"] as? String].compactMap { $0 }).map(BuildValue.literal)
        let explicit = ios["associatedDomains"] as? [Any]
        let entitlement = (ios["entitlements"] as? [String: Any])?[AppleChecks.associatedDomainsKey] as? [Any]
        return Platforms(
            schemeFilter: schemeFilter(top + strings(android["scheme"])),
            intentFilters: (android["intentFilters"] as? [Any] ?? []).map { ($0 as? [String: Any]).map(intentFilter) },
            iosSchemes: iosSchemes, iosOverride: override != nil,
            associatedDomains: (explicit ?? entitlement ?? []).compactMap { $0 as? String },
            associatedDomainsKey: explicit != nil || entitlement == nil ? ["ios", "associatedDomains"] : ["ios", "entitlements", AppleChecks.associatedDomainsKey])
    }

    private static func schemes(_ config: Config, links: DoctorLinks, platforms: Platforms) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let file = config.file
        let top = strings(config.expo["scheme"])
        let androidFilters = platforms.androidFilters
        let iosOverride = platforms.iosOverride
        let iosSchemes = platforms.iosSchemes
        let iosSource = platforms.iosOverride ? "ios.infoPlist.CFBundleURLTypes (set, so prebuild ignores \"scheme\" and ios.scheme on iOS)"
                                              : "\"scheme\", ios.scheme and ios.bundleIdentifier"
        let needed = AppleChecks.customSchemes(links)
        func androidMatch(_ link: LinkTarget) -> Tri { Tri.any(androidFilters.filter { $0.hasView }.map { $0.match(link) }) }
        // Every scheme "scheme" must gain is written in one edit, attached to the first finding
        // that needs it (two edits creating the key would write it twice).
        let forTop = needed.filter { androidMatch($0.link).isNo || (!iosOverride && AppleChecks.registers(iosSchemes, $0.scheme).isNo) }.map { $0.scheme }
        var topEdits = config.add(forTop, at: ["scheme"], single: true)
        let topFix = "in \"expo\":\n" + Snippet.json(["scheme": top.isEmpty && forTop.count == 1 ? forTop[0] as Any : (top + forTop) as Any])
        func takeTopEdits() -> [TextEdit] {
            defer { topEdits = [] }
            return topEdits
        }
        for (scheme, link) in needed {
            // Android: the filters prebuild writes, matched as Android matches them.
            if androidMatch(link).isYes {
                findings.append(DoctorFinding(.expoScheme, .ok, file: file, "Android: prebuild's MainActivity receives \(scheme):// (the \(link.role.name)) from \"scheme\", android.scheme or android.intentFilters"))
            } else {
                findings.append(DoctorFinding(.expoScheme, .error, file: file,
                    "Android: neither \"scheme\", android.scheme nor a custom-scheme android.intentFilters entry gives MainActivity \(scheme):// (the \(link.role.name)): the Android app that prebuild generates never receives it",
                    fix: topFix, edits: takeTopEdits()))
            }
            // iOS: the URL types prebuild writes, compared ignoring case.
            switch AppleChecks.registers(iosSchemes, scheme) {
            case .yes:
                findings.append(DoctorFinding(.expoScheme, .ok, file: file, "iOS: \(iosSource) register\(!iosOverride ? "" : "s") \(scheme) (the \(link.role.name))"))
            case .possibly(let why):
                findings.append(.undecided(.expoScheme, file: file, "iOS: \(iosSource) possibly register\(!iosOverride ? "" : "s") \(scheme)", why))
            case .no:
                if iosOverride {
                    let entry: [String: Any] = ["CFBundleURLSchemes": [scheme]]
                    findings.append(DoctorFinding(.expoScheme, .error, file: file,
                        "iOS: ios.infoPlist.CFBundleURLTypes is set and does not hold \(scheme) (prebuild then leaves \"scheme\" and ios.scheme out of Info.plist): the iOS app never receives \(scheme):// (the \(link.role.name))",
                        fix: "in \"expo\".\"ios\".\"infoPlist\".\"CFBundleURLTypes\":\n" + Snippet.json(entry),
                        edits: config.add([entry], at: ["ios", "infoPlist", "CFBundleURLTypes"])))
                } else {
                    findings.append(DoctorFinding(.expoScheme, .error, file: file,
                        "iOS: neither \"scheme\", ios.scheme nor ios.bundleIdentifier is \(scheme): the iOS app that prebuild generates never receives \(scheme):// (the \(link.role.name))",
                        fix: topFix, edits: takeTopEdits()))
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
                    edits: config.add([scheme.lowercased()], at: key)))
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

    private static func webIntentFilter(_ config: Config, _ filters: [IntentFilter?], link: LinkTarget) -> DoctorFinding {
        let entry: [String: Any] = [
            "action": "VIEW", "autoVerify": true, "category": ["BROWSABLE", "DEFAULT"],
            "data": [["scheme": "https", "host": link.host ?? "", "pathPrefix": link.registeredPath.isEmpty ? "/" : link.registeredPath]],
        ]
        let fix = "in \"expo\".\"android\".\"intentFilters\":\n" + Snippet.json(entry)
        // A complete entry is added, never a change to an existing one: whatever that one serves stays.
        let edits = config.add([entry], at: ["android", "intentFilters"])
        let indexed = filters.enumerated().compactMap { offset, filter in filter.map { (offset: offset, filter: $0) } }
        let receiving = indexed.filter { $0.filter.hasView && $0.filter.match(link).isYes }
        guard let best = receiving.min(by: { AndroidChecks.missingPieces($0.filter, link: link).errors.count < AndroidChecks.missingPieces($1.filter, link: link).errors.count }) else {
            // Near misses, as for a manifest: the entries that name https or the host, and why each misses.
            let misses = indexed.filter { entry in
                entry.filter.schemes.contains { $0.resolved == link.scheme } || entry.filter.authorities.contains { IntentFilter.hostMatches($0.host, link.host).isYes }
            }.map { entry -> String in
                let name = "android.intentFilters[\(entry.offset)]"
                if !entry.filter.hasView && entry.filter.match(link).isYes {
                    return "\(name) matches the data but its action is \(entry.filter.actions.joined(separator: ", ")), no VIEW filter (prebuild prefixes \"action\" with android.intent.action.: write \"VIEW\")"
                }
                return "\(name): " + entry.filter.mismatch(link)
            }
            return DoctorFinding(.expoAndroidIntentFilters, .error, file: config.file,
                "no android.intentFilters entry receives the \(link.role.name) \(link.url) (https host \(link.host ?? ""), a path prefix covering \(link.path.isEmpty ? "/" : link.path))"
                    + (misses.isEmpty ? "" : ": " + misses.joined(separator: "; ")),
                fix: fix, edits: edits)
        }
        var problems = AndroidChecks.missingPieces(best.filter, link: link).errors
        // Prebuild puts every entry on MainActivity: the app's verified hosts are those of all entries.
        let outcome = AppLinkVerification.outcome(for: link, filters: indexed.map { (component: "android.intentFilters[\($0.offset)]", filter: $0.filter) }, legacy: false)
        if !outcome.verified.isYes {
            problems.append("nothing verifies \(link.host ?? ""): " + (outcome.misses.isEmpty ? "no entry with \"autoVerify\": true names it" : outcome.misses.joined(separator: "; ")) + " (from Android 12 an unverified https link opens in the browser)")
        }
        guard problems.isEmpty else {
            return DoctorFinding(.expoAndroidIntentFilters, .error, file: config.file,
                "the android.intentFilters entry for \(link.host ?? "") has " + problems.joined(separator: "; "), fix: fix, edits: edits)
        }
        return DoctorFinding(.expoAndroidIntentFilters, .ok, file: config.file,
            "an android.intentFilters entry receives \(link.url) as a verified App Link (VIEW, BROWSABLE, DEFAULT, autoVerify)")
    }

    /// `<queries>` from the `expo-build-properties` plugin, when the generated manifest is not
    /// given: one finding per POS app (a warning when missing: another config plugin might
    /// declare it, which doctor cannot see).
    private static func androidQueries(_ config: Config, apps: [POSApp]) -> [DoctorFinding] {
        let plugins = config.expo["plugins"] as? [Any] ?? []
        let options = plugins.compactMap { plugin -> [String: Any]? in
            guard let pair = plugin as? [Any], pair.first as? String == "expo-build-properties" else { return nil }
            return pair.dropFirst().first as? [String: Any]
        }
        let manifestQueries = options.compactMap { ($0["android"] as? [String: Any])?["manifestQueries"] as? [String: Any] }
        let intents = manifestQueries.flatMap { ($0["intent"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.map(intentFilter) }
        let packages = manifestQueries.flatMap { strings($0["package"]) }
        return apps.map { app in
            if let covering = AndroidChecks.queriesCover(app, intents: intents, packages: packages) {
                return DoctorFinding(.androidQueries, .ok, file: config.file,
                    "the expo-build-properties plugin's android.manifestQueries declares \(covering): on Android 11+ the app can see the \(app.name) app")
            }
            let query = app.expoManifestQuery
            var manifestQuery: [String: Any] = [:]
            if let package = query.package { manifestQuery["package"] = [package] }
            if let intent = query.intent { manifestQuery["intent"] = [intent] }
            let prefixed = app.androidActions.isEmpty ? "" : "; its intent actions get android.intent.action. prepended, so \(app.name)'s own action\(app.androidActions.count == 1 ? "" : "s") cannot be declared there"
            let fix = "in \"expo\".\"plugins\" (the expo-build-properties plugin\(prefixed)):\n"
                + Snippet.json([["expo-build-properties", ["android": ["manifestQueries": manifestQuery]]]]) + "\nor check the generated manifest: npx expo prebuild, then --android-manifest android/app/src/main/AndroidManifest.xml"
            return DoctorFinding(.androidQueries, .warning, file: config.file,
                "no expo-build-properties android.manifestQueries entry for \(app.name) (app.json itself cannot declare <queries>; another config plugin might, which doctor cannot see), so the \(app.name) app's visibility on Android 11+ is not confirmed",
                fix: fix)
        }
    }
}
