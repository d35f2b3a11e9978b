/// An AndroidManifest.xml reduced to what the checks read: the package, the activities and
/// activity aliases with their intent filters, and the `<queries>` entries.
struct AndroidManifest {
    /// An `<activity>` or `<activity-alias>`.
    struct Component {
        var kind: String
        var name: String
        var exported: String?
        /// For an alias, its target activity's (an alias has none of its own).
        var launchMode: String?
        var line: Int
        var filters: [IntentFilter]
    }

    static let namespace = "http://schemas.android.com/apk/res/android"

    var package: String?
    var components: [Component] = []
    var queryIntents: [IntentFilter] = []
    var queryPackages: [String] = []

    /// Reads the tree of a `<manifest>`.
    init(_ root: XMLTreeElement) {
        // Attributes are read as written (`android:scheme`); the prefix is whatever the file
        // binds to the Android namespace, "android" by convention.
        let prefix = root.attributes.first { $0.key.hasPrefix("xmlns:") && $0.value == AndroidManifest.namespace }
            .map { String($0.key.dropFirst("xmlns:".count)) } ?? "android"
        func attribute(_ element: XMLTreeElement, _ name: String) -> String? { element.attributes[prefix + ":" + name] }
        func filter(_ element: XMLTreeElement) -> IntentFilter {
            IntentFilter(
                actions: element.children("action").compactMap { attribute($0, "name") },
                categories: element.children("category").compactMap { attribute($0, "name") },
                data: element.children("data").map { data in
                    IntentFilter.DataElement(
                        scheme: attribute(data, "scheme"), host: attribute(data, "host"), port: attribute(data, "port"),
                        path: attribute(data, "path"), pathPrefix: attribute(data, "pathPrefix"),
                        pathPattern: attribute(data, "pathPattern"), pathSuffix: attribute(data, "pathSuffix"),
                        pathAdvancedPattern: attribute(data, "pathAdvancedPattern"), mimeType: attribute(data, "mimeType"),
                        line: data.line)
                },
                autoVerify: attribute(element, "autoVerify") == "true",
                line: element.line)
        }

        package = root.attributes["package"]
        let application = root.children("application")
        let activities = application.flatMap { $0.children("activity") }
        for element in application.flatMap({ $0.children.filter { $0.name == "activity" || $0.name == "activity-alias" } }) {
            var launchMode = attribute(element, "launchMode")
            if element.name == "activity-alias", let target = attribute(element, "targetActivity") {
                launchMode = activities.first { attribute($0, "name") == target }.flatMap { attribute($0, "launchMode") }
            }
            components.append(Component(
                kind: element.name, name: attribute(element, "name") ?? "(unnamed)", exported: attribute(element, "exported"),
                launchMode: launchMode, line: element.line, filters: element.children("intent-filter").map(filter)))
        }
        for queries in root.children("queries") {
            queryIntents += queries.children("intent").map(filter)
            queryPackages += queries.children("package").compactMap { attribute($0, "name") }
        }
    }
}

/// The Android rules, for a manifest (and the parts Expo's `android.intentFilters` share).
enum AndroidChecks {
    /// Checks the manifest at `path` against the links.
    /// - Parameters:
    ///   - path: The AndroidManifest.xml.
    ///   - links: The links the app must receive.
    /// - Returns: The findings, and the manifest's package when it names one.
    static func check(manifestAt path: String, links: DoctorLinks) -> (findings: [DoctorFinding], package: String?) {
        var findings: [DoctorFinding] = []
        guard let root = InputFile.read(path, into: &findings, { path throws(InputError) in try InputFile.xml(at: path, root: "manifest") }) else {
            return (findings, nil)
        }
        let manifest = AndroidManifest(root)
        let components = manifest.components.count, filters = manifest.components.reduce(0) { $0 + $1.filters.count }
        findings.append(DoctorFinding(.inputReadable, .ok, file: path,
            "read \(components) activit\(components == 1 ? "y" : "ies") (aliases included), \(filters) intent filter\(filters == 1 ? "" : "s")"))
        findings += receivers(manifest, links: links, file: path)
        findings += lowerCaseSchemes(manifest.components.flatMap { $0.filters }, file: path)
        findings += pairings(manifest.components.flatMap { component in component.filters.map { (component.name, $0) } }, file: path)
        if links.usesPOS { findings.append(queries(manifest, file: path)) }
        return (findings, manifest.package)
    }

    // MARK: receivers

    private static func receivers(_ manifest: AndroidManifest, links: DoctorLinks, file: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        var chosen: [(component: AndroidManifest.Component, roles: [LinkRole])] = []
        for link in links.targets {
            let candidates = manifest.components.flatMap { component in
                component.filters.filter { $0.mismatch(link) == nil }.map { (component: component, filter: $0) }
            }
            guard let best = candidates.max(by: { score($0.component, $0.filter) < score($1.component, $1.filter) }) else {
                findings.append(DoctorFinding(.androidIntentFilter, .error, file: file,
                    "no activity receives the \(link.role.name) \(link.url): \(nearMisses(manifest, link))",
                    fix: receiverFix(manifest, link)))
                continue
            }
            let names = Set(candidates.map { $0.component.name })
            if names.count > 1 {
                findings.append(DoctorFinding(.androidIntentFilter, .warning, file: file,
                    "\(names.sorted().joined(separator: " and ")) \(names.count == 2 ? "both" : "all") receive the \(link.role.name) \(link.url): Android asks the user which one to open",
                    fix: "keep the link's <intent-filter> on one activity only"))
            } else {
                var message = "\(best.component.name) receives the \(link.role.name) \(link.url) (intent filter at line \(best.filter.line ?? 0))"
                if best.filter.hasAdvancedPatterns { message += "; its pathAdvancedPattern entries were not evaluated" }
                if !best.filter.schemes.contains(link.scheme) { message += ", once its scheme is written in lower case (\(DoctorRule.androidSchemeLowercase.rawValue))" }
                findings.append(DoctorFinding(.androidIntentFilter, .ok, file: file, message))
            }
            findings += filterFindings(best.filter, owner: best.component.name, link: link, file: file)
            if let index = chosen.firstIndex(where: { $0.component.name == best.component.name }) {
                chosen[index].roles.append(link.role)
            } else {
                chosen.append((best.component, [link.role]))
            }
        }
        for (component, roles) in chosen {
            let what = roles.map { $0.name }.joined(separator: " and ")
            findings.append(exported(component, receiving: what, file: file))
            findings.append(launchMode(component, receiving: what, file: file))
        }
        return findings
    }

    /// How well a candidate is set up, to report on the best one when several match.
    private static func score(_ component: AndroidManifest.Component, _ filter: IntentFilter) -> Int {
        var score = 0
        if filter.actions.contains(IntentFilter.view) { score += 8 }
        if filter.categories.contains(IntentFilter.defaultCategory) { score += 4 }
        if filter.categories.contains(IntentFilter.browsable) { score += 4 }
        if component.exported == "true" { score += 2 }
        if filter.autoVerify { score += 1 }
        return score
    }

    /// Filters that have the link's scheme but miss it on host, port or path: the likely culprits.
    private static func nearMisses(_ manifest: AndroidManifest, _ link: LinkTarget) -> String {
        var misses: [String] = []
        for component in manifest.components {
            for filter in component.filters where filter.schemes.contains(where: { $0.lowercased() == link.scheme }) {
                if let reason = filter.mismatch(link) {
                    misses.append("\(component.name)'s intent filter at line \(filter.line ?? 0): \(reason)")
                }
            }
        }
        if misses.isEmpty { return "no intent filter has the scheme \(link.scheme)" }
        return misses.joined(separator: "; ")
    }

    /// Where to put the missing filter: the activity whose filter nearly matched, or else the
    /// one with the other deep links; a scheme written alone in another link's filter (where
    /// it borrowed that filter's host) moves out.
    private static func receiverFix(_ manifest: AndroidManifest, _ link: LinkTarget) -> String {
        var home = "the <activity> that handles deep links"
        var move = ""
        let linked = manifest.components.first { component in component.filters.contains { $0.actions.contains(IntentFilter.view) } }
        if let component = manifest.components.first(where: { $0.filters.contains { $0.schemes.contains { $0.lowercased() == link.scheme } } }) ?? linked {
            home = "<\(component.kind) android:name=\"\(Snippet.xml(component.name))\"> (line \(component.line))"
            for filter in component.filters where !filter.authorities.isEmpty {
                if let element = filter.data.first(where: { $0.scheme?.lowercased() == link.scheme && $0.host == nil }) {
                    move = "take <data android:scheme=\"\(Snippet.xml(element.scheme ?? ""))\" /> out of the intent filter at line \(filter.line ?? 0), and "
                }
            }
        }
        return move + "add inside \(home):\n" + Snippet.intentFilter(for: link)
    }

    /// VIEW + DEFAULT + BROWSABLE on the filter that receives `link`, and `autoVerify` for an
    /// https link (shared with the Expo check, which reports them under its own rule).
    static func missingPieces(_ filter: IntentFilter, link: LinkTarget) -> (errors: [String], warnings: [String], lines: [String]) {
        var errors: [String] = []
        var warnings: [String] = []
        var lines: [String] = []
        if !filter.actions.contains(IntentFilter.view) {
            errors.append("no action VIEW (links arrive as ACTION_VIEW intents)")
            lines.append("<action android:name=\"android.intent.action.VIEW\" />")
        }
        if !filter.categories.contains(IntentFilter.defaultCategory) {
            errors.append("no category DEFAULT (startActivity adds it to every implicit intent, so a filter without it receives none)")
            lines.append("<category android:name=\"android.intent.category.DEFAULT\" />")
        }
        if !filter.categories.contains(IntentFilter.browsable) {
            if link.role == .callback {
                errors.append("no category BROWSABLE (the browser tab opens only BROWSABLE activities: the gateway's redirect never reaches the app)")
            } else {
                warnings.append("no category BROWSABLE (the POS app's plain VIEW intent does not need it, a link opened from a browser does)")
            }
            lines.append("<category android:name=\"android.intent.category.BROWSABLE\" />")
        }
        return (errors, warnings, lines)
    }

    private static func filterFindings(_ filter: IntentFilter, owner: String, link: LinkTarget, file: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let where_ = "\(owner)'s intent filter at line \(filter.line ?? 0)"
        let missing = missingPieces(filter, link: link)
        if !missing.errors.isEmpty || !missing.warnings.isEmpty {
            findings.append(DoctorFinding(.androidViewBrowsable, missing.errors.isEmpty ? .warning : .error, file: file,
                "\(where_) (the \(link.role.name)) has " + (missing.errors + missing.warnings).joined(separator: "; "),
                fix: "add inside that <intent-filter>:\n" + missing.lines.map { "    " + $0 }.joined(separator: "\n")))
        } else {
            findings.append(DoctorFinding(.androidViewBrowsable, .ok, file: file,
                "\(where_) (the \(link.role.name)) has action VIEW and categories DEFAULT and BROWSABLE"))
        }
        if link.isWeb {
            if filter.autoVerify {
                findings.append(DoctorFinding(.androidAppLinksVerify, .ok, file: file,
                    "\(where_) has android:autoVerify=\"true\": Android verifies \(link.host ?? "") against its assetlinks.json"))
            } else {
                findings.append(DoctorFinding(.androidAppLinksVerify, .error, file: file,
                    "\(where_) receives https://\(link.host ?? "") without android:autoVerify=\"true\": from Android 12 an https link that is not a verified App Link opens in the browser, so the gateway's redirect stays in the tab",
                    fix: "<intent-filter android:autoVerify=\"true\">   (line \(filter.line ?? 0); and publish https://\(link.host ?? "")/.well-known/assetlinks.json)"))
            }
        }
        return findings
    }

    private static func exported(_ component: AndroidManifest.Component, receiving what: String, file: String) -> DoctorFinding {
        let element = "<\(component.kind) android:name=\"\(Snippet.xml(component.name))\"> (line \(component.line))"
        switch component.exported {
        case "true"?:
            return DoctorFinding(.androidExported, .ok, file: file, "\(component.name) (the \(what)) is exported")
        case nil:
            return DoctorFinding(.androidExported, .error, file: file,
                "\(component.name) (the \(what)) has intent filters but no android:exported: apps targeting Android 12 (API 31) or later must say it, or the build and the install fail",
                fix: "on \(element):\n    android:exported=\"true\"")
        case let value?:
            return DoctorFinding(.androidExported, .error, file: file,
                "\(component.name) (the \(what)) has android:exported=\"\(value)\": other apps (the browser tab, the POS app) cannot start it, so the link never arrives",
                fix: "on \(element):\n    android:exported=\"true\"")
        }
    }

    private static func launchMode(_ component: AndroidManifest.Component, receiving what: String, file: String) -> DoctorFinding {
        let element = "<activity android:name=\"\(Snippet.xml(component.name))\">"
        let fix = "on \(element)\(component.kind == "activity-alias" ? " (the alias's targetActivity)" : " (line \(component.line))"):\n    android:launchMode=\"singleTask\""
        switch component.launchMode ?? "standard" {
        case "singleTask", "singleInstance", "singleInstancePerTask":
            return DoctorFinding(.androidLaunchMode, .ok, file: file,
                "\(component.name) (the \(what)) is \(component.launchMode ?? ""): a link goes to the running instance's onNewIntent, and the browser tab or POS app above it in its task is closed")
        case "singleTop":
            return DoctorFinding(.androidLaunchMode, .warning, file: file,
                "\(component.name) (the \(what)) is singleTop: the link reaches onNewIntent only while \(component.name) is at the top of its task; with the browser tab (Custom Tab) or the POS app above it, Android creates a second instance (onCreate, link in getIntent()) and the tab stays open beneath it",
                fix: fix)
        default:
            return DoctorFinding(.androidLaunchMode, .warning, file: file,
                "\(component.name) (the \(what)) has launchMode standard: every link creates a new instance on top of the browser tab (onCreate with the link in getIntent(); onNewIntent is never called), the tab stays in the back stack and the screen that started the payment is another instance: read the link in onCreate too and restore the flow from the coordinator's snapshot, or use singleTask",
                fix: fix)
        }
    }

    // MARK: schemes and pairings

    /// Upper-case schemes never match: Android compares schemes case-sensitively and the
    /// browser (and Billpocket's sample code) send them in lower case.
    static func lowerCaseSchemes(_ filters: [IntentFilter], file: String, setting: String = "<data android:scheme>") -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for filter in filters {
            for element in filter.data {
                guard let scheme = element.scheme, scheme != scheme.lowercased() else { continue }
                findings.append(DoctorFinding(.androidSchemeLowercase, .error, file: file,
                    "\(setting) \"\(scheme)\"\(element.line.map { " (line \($0))" } ?? ""): Android matches schemes case-sensitively and browsers send them in lower case, so this filter never receives \(scheme.lowercased()):// links",
                    fix: setting.hasPrefix("<data") ? "android:scheme=\"\(Snippet.xml(scheme.lowercased()))\"" : "\"scheme\": \"\(scheme.lowercased())\""))
            }
        }
        if findings.isEmpty {
            findings.append(DoctorFinding(.androidSchemeLowercase, .ok, file: file, "every scheme is lower case"))
        }
        return findings
    }

    /// Filters whose `<data>` pairs cross into pairings nobody wrote.
    static func pairings(_ filters: [(owner: String, filter: IntentFilter)], file: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for (owner, filter) in filters {
            let crossed = filter.crossedPairings()
            guard !crossed.isEmpty else { continue }
            findings.append(DoctorFinding(.androidDataPairings, .warning, file: file,
                "\(owner)'s intent filter\(filter.line.map { " at line \($0)" } ?? "") also claims \(crossed.joined(separator: ", ")): the <data> elements of one filter combine into every scheme/host pairing, not the pairs as written",
                fix: "give each scheme/host pair its own <intent-filter> (each with the same <action> and <category> lines)"))
        }
        if findings.isEmpty {
            findings.append(DoctorFinding(.androidDataPairings, .ok, file: file, "no intent filter claims pairings that were not written"))
        }
        return findings
    }

    // MARK: queries

    private static func queries(_ manifest: AndroidManifest, file: String) -> DoctorFinding {
        let scheme = DoctorLinks.posAppScheme
        let byURL = manifest.queryIntents.contains { $0.actions.contains(IntentFilter.view) && $0.schemes.contains(scheme) }
        let byIntent = manifest.queryIntents.contains { $0.actions.contains("com.billpocket.payments.START") }
        if byURL || byIntent {
            return DoctorFinding(.androidQueries, .ok, file: file,
                "<queries> declares \(byURL ? "VIEW \(scheme)://" : "com.billpocket.payments.START"): on Android 11+ the app can see the Billpocket app")
        }
        let fix = """
        in <manifest>, next to <application>:
        <queries>
            <intent>
                <action android:name="android.intent.action.VIEW" />
                <data android:scheme="\(scheme)" />
            </intent>
        </queries>
        """
        if !manifest.queryPackages.isEmpty {
            return DoctorFinding(.androidQueries, .warning, file: file,
                "<queries> names the package\(manifest.queryPackages.count > 1 ? "s" : "") \(manifest.queryPackages.joined(separator: ", ")); doctor cannot tell whether one is Billpocket's (its package name is not in the integration guides): declaring the intent is certain",
                fix: fix)
        }
        return DoctorFinding(.androidQueries, .error, file: file,
            "no <queries> entry for \(scheme)://: on Android 11+ (targetSdk 30 or later) the Billpocket app is invisible to this app, so resolveActivity, queryIntentActivities and React Native's Linking.canOpenURL answer \"not installed\" and a check-then-open hand-off never opens it (a bare startActivity still would; catch ActivityNotFoundException). With the intent hand-off, declare <action android:name=\"com.billpocket.payments.START\" /> instead",
            fix: fix)
    }
}
