import Foundation
import PayHandoff

/// What the Android build contributes to a manifest check (command-line flags and the Expo config).
struct AndroidBuildInputs {
    /// `--manifest-placeholder KEY=VALUE`, in order.
    var placeholders: [(key: String, value: String)] = []
    /// `--android-package`: the applicationId.
    var androidPackage: String?
    /// Expo's `android.package`, the last source of the applicationId.
    var expoPackage: String?
    /// The value resources of `--android-res`, when given.
    var resources: [String: AndroidBuildValues.Resource]?
    /// `--target-sdk`.
    var targetSDK: Int?
}

/// The Android rules, for a manifest (and the parts Expo's `android.intentFilters` share).
enum AndroidChecks {
    /// Android 12 (API 31): components with intent filters must set `android:exported`
    /// (developer.android.com/guide/topics/manifest/activity-element#exported).
    static let exportedRequiredFrom = 31
    /// Android 11 (API 30): package visibility; `<queries>` needed to see another app
    /// (developer.android.com/training/package-visibility).
    static let queriesRequiredFrom = 30

    /// The target SDK doctor goes by, and where it comes from.
    struct TargetSDK {
        var value: Int?
        var source: String

        /// "targetSdkVersion 22 (<uses-sdk>, line 5)".
        var described: String { value.map { "targetSdkVersion \($0) (\(source))" } ?? "targetSdkVersion not given" }
        /// " (targetSdkVersion 34, --target-sdk)" when known, else nothing.
        var note: String { value.map { " (targetSdkVersion \($0), \(source))" } ?? "" }
        /// Whether a rule from `level` on applies; an unknown target is taken as current (Google
        /// Play requires a recent one of new apps and updates).
        func atLeast(_ level: Int) -> Bool { (value ?? Int.max) >= level }
    }

    /// Checks the manifest at `path` against the links.
    /// - Parameters:
    ///   - path: The AndroidManifest.xml.
    ///   - links: The links the app must receive.
    ///   - build: The placeholders, resources and target SDK of the build.
    ///   - checkoutHosts: The checkout pages' hosts (`--checkout-host`), which no verified App Link may claim.
    ///   - posApps: The POS apps the app hands sales to, which `<queries>` must make visible.
    /// - Returns: The findings, the applicationId when known, and the file's bytes (for `--fix-diff`).
    static func check(manifestAt path: String, links: DoctorLinks, build: AndroidBuildInputs, checkoutHosts: [String] = [], posApps: [POSApp] = []) -> (findings: [DoctorFinding], package: String?, contents: [UInt8]?) {
        var findings: [DoctorFinding] = []
        guard let document = InputFile.read(path, into: &findings, { path throws(InputError) in try InputFile.xmlDocument(at: path, root: "manifest") }) else {
            return (findings, nil, nil)
        }
        let root = document.root
        let applicationId: (value: String, source: String)? = build.androidPackage.map { ($0, "--android-package") }
            ?? root.attributes["package"].map { ($0, "<manifest package>") }
            ?? build.expoPackage.map { ($0, "Expo android.package") }
        let values = AndroidBuildValues(placeholders: build.placeholders, applicationId: applicationId, resources: build.resources)
        let manifest = AndroidManifest(root, build: values)
        let map = XMLSourceMap(document.contents, root: root)
        let targetSDK: TargetSDK
        if let flag = build.targetSDK {
            targetSDK = TargetSDK(value: flag, source: "--target-sdk")
        } else if let usesSDK = manifest.usesSDKTarget {
            targetSDK = TargetSDK(value: usesSDK.value, source: "<uses-sdk>, line \(usesSDK.line)")
        } else {
            targetSDK = TargetSDK(value: nil, source: "")
        }
        let context = Context(manifest: manifest, map: map, file: path, targetSDK: targetSDK, links: links.targets)

        let components = manifest.components.count, filters = manifest.components.reduce(0) { $0 + $1.filters.count }
        var read = "read \(components) activit\(components == 1 ? "y" : "ies") (aliases included), \(filters) intent filter\(filters == 1 ? "" : "s")"
        if !manifest.skipped.isEmpty {
            read += "; set aside as the package manager will: " + manifest.skipped.map { "\($0.component.name), \($0.why)" }.joined(separator: "; ")
        }
        if map == nil { read += " (its markup could not be mapped: fixes are printed, not offered as a diff)" }
        findings.append(DoctorFinding(.inputReadable, .ok, file: path, read))
        findings += receivers(context, links: links)
        findings += lowerCase(context)
        findings += pairings(manifest.components.flatMap { component in component.filters.map { (component.name, $0) } }, file: path)
        findings += queries(context, apps: posApps)
        findings += checkoutHosts.map { checkoutHost($0, filters: context.filters, legacy: !context.targetSDK.atLeast(31), file: path) }
        return (findings, applicationId?.value, map?.bytes)
    }

    // MARK: the checkout page's host

    /// Issue 38 (c): a checkout page on a host the app verifies as its own App Link is not
    /// opened in the browser: Android resolves the https intent to the app, which "doesn't open
    /// the browser … Android routes the intent back into the app" (expo/expo PR #47524, fixing
    /// #46428). Verification is per host (``AppLinkVerification``), routing per filter: a
    /// verified host whose web filter takes any path catches every checkout URL on it (an
    /// error); one whose filters name paths catches those paths only (a warning naming them).
    /// - Parameters:
    ///   - host: The checkout page's host.
    ///   - filters: Every filter of the app (the manifest's, or Expo's `android.intentFilters`), with its owner.
    ///   - legacy: The app targets an SDK below 31 (the older verification rule).
    ///   - file: The file the filters come from.
    /// - Returns: The `android.checkout-host` finding.
    static func checkoutHost(_ host: String, filters: [(component: String, filter: IntentFilter)], legacy: Bool, file: String) -> DoctorFinding {
        guard let link = LinkTarget(.callback, "https://\(host)/", returnURL: nil) else {
            return DoctorFinding(.androidCheckoutHost, .warning, file: file, "\(host) is not a host name: not checked", fix: "pass the checkout page's host, such as checkout.example.com")
        }
        let outcome = AppLinkVerification.outcome(for: link, filters: filters, legacy: legacy)
        switch outcome.verified {
        case .no:
            return DoctorFinding(.androidCheckoutHost, .ok, file: file,
                "no verified App Link of the app claims \(host): Android opens the checkout URL in the browser tab")
        case .possibly(let why):
            return .undecided(.androidCheckoutHost, file: file, "the app possibly verifies \(host) as its App Link (then Android opens the checkout URL in the app, not the browser)", why)
        case .yes:
            break
        }
        // Expo's entries have no line: "an android.intentFilters entry".
        func place(_ entry: (component: String, filter: IntentFilter)) -> String {
            entry.filter.line.map { "\(entry.component)'s intent filter at line \($0)" } ?? "an \(entry.component) entry"
        }
        let claim = outcome.claim.map { "\(place(($0.component, $0.filter))) verifies \($0.host.resolved ?? $0.host.written)" } ?? "an autoVerify filter"
        // The web filters that take the host: with no path, every checkout URL; else their paths.
        let takers = filters.filter { entry in
            entry.filter.hasView && entry.filter.categories.contains(IntentFilter.browsable)
                && entry.filter.schemes.contains { $0.resolved == "https" }
                && entry.filter.authorities.contains { !IntentFilter.hostMatches($0.host, host).isNo }
        }
        let fix = "open the checkout on a host the app does not claim (the gateway's own checkout domain), or give the filters for \(host) android:pathPrefix values the checkout's paths never start with (no diff: which paths the app's own links need is the app's choice)"
        let whole = takers.filter { !$0.filter.hasPaths }
        if !whole.isEmpty || takers.isEmpty {
            let places = whole.map(place)
            return DoctorFinding(.androidCheckoutHost, .error, file: file,
                "the app verifies \(host) as its App Link (\(claim))\(places.isEmpty ? "" : "; \(places.joined(separator: " and ")) take\(places.count == 1 ? "s" : "") every path of it"): Android hands the checkout URL back to the app instead of opening the browser tab, so the payment page never shows (expo/expo #46428)",
                fix: fix)
        }
        let paths = takers.flatMap { $0.filter.data }.flatMap { data in
            [("path", data.path), ("pathPrefix", data.pathPrefix), ("pathPattern", data.pathPattern), ("pathSuffix", data.pathSuffix), ("pathAdvancedPattern", data.pathAdvancedPattern)]
                .compactMap { name, value in value.map { "\(name) \"\($0.resolved ?? $0.written)\"" } }
        }
        return DoctorFinding(.androidCheckoutHost, .warning, file: file,
            "the app verifies \(host) as its App Link (\(claim)) for the paths \(unique(paths).joined(separator: ", ")): a checkout URL on one of them opens in the app instead of the browser tab (expo/expo #46428)",
            fix: fix)
    }

    /// What every manifest rule needs.
    private struct Context {
        var manifest: AndroidManifest
        var map: XMLSourceMap?
        var file: String
        var targetSDK: TargetSDK
        /// Every link the app must receive (a fix for one must not open the app to others).
        var links: [LinkTarget]

        var filters: [(component: String, filter: IntentFilter)] {
            manifest.components.flatMap { component in component.filters.map { (component.name, $0) } }
        }
    }

    // MARK: receivers

    private struct Candidate {
        var component: AndroidManifest.Component
        var filter: IntentFilter
        var match: Tri
    }

    /// How a link reaches the app: the filter reported on, and how sure that is.
    private struct Reception {
        enum Kind {
            /// A filter the link's sender reaches receives it.
            case receives
            /// A filter the sender reaches possibly receives it (a value doctor could not resolve).
            case possibly
            /// A filter's data matches, but it lacks a category the sender's intent carries.
            case unrouted
        }

        var best: Candidate
        var kind: Kind
        /// The components that receive the link for sure, and those that may.
        var definite: [String]
        var possible: [Candidate]
        /// Filters whose data matches for sure that the sender's intent does not reach (a
        /// BROWSABLE missing for a browser's redirect): said next to the receiver.
        var unrouted: [Candidate] = []
    }

    /// How Android routes `link` among the manifest's filters: only VIEW filters whose data
    /// matches and whose categories hold the intent's (``IntentFilter/routes(_:)``) receive it.
    private static func reception(_ manifest: AndroidManifest, _ link: LinkTarget) -> Reception? {
        let candidates = manifest.components.flatMap { component in
            component.filters.filter { $0.hasView }.map { Candidate(component: component, filter: $0, match: $0.match(link)) }
        }.filter { !$0.match.isNo }
        let routed = candidates.filter { $0.filter.routes(link) }
        let definite = routed.filter { $0.match.isYes }
        let possible = routed.filter { !$0.match.isYes }
        let names = unique(definite.map { $0.component.name })
        if let best = definite.max(by: { score($0) < score($1) }) {
            let unrouted = candidates.filter { $0.match.isYes && !$0.filter.routes(link) && !names.contains($0.component.name) }
            return Reception(best: best, kind: .receives, definite: names, possible: possible, unrouted: unrouted)
        }
        if let best = possible.max(by: { score($0) < score($1) }) {
            return Reception(best: best, kind: .possibly, definite: [], possible: possible)
        }
        let unrouted = candidates.filter { $0.match.isYes }.isEmpty ? candidates : candidates.filter { $0.match.isYes }
        guard let best = unrouted.max(by: { score($0) < score($1) }) else { return nil }
        return Reception(best: best, kind: .unrouted, definite: [], possible: [])
    }

    private static func receivers(_ context: Context, links: DoctorLinks) -> [DoctorFinding] {
        let manifest = context.manifest, file = context.file
        var findings: [DoctorFinding] = []
        var chosen: [(component: AndroidManifest.Component, roles: [LinkRole], possibly: Bool)] = []
        let receptions = links.targets.map { reception(manifest, $0) }
        for (offset, link) in links.targets.enumerated() {
            // Where the other link arrives: the place for this one's filter when no filter nearly matches it.
            let other = links.targets.indices.filter { $0 != offset }.compactMap { receptions[$0]?.best.component ?? nearMiss(manifest, links.targets[$0]) }.first
            guard let reception = receptions[offset] else {
                let fix = receiverFix(context, link, other: other)
                findings.append(DoctorFinding(.androidIntentFilter, .error, file: file,
                    "no activity receives the \(link.role.name) \(link.url): \(nearMisses(manifest, link))",
                    fix: fix.text, edits: fix.edits))
                continue
            }
            let best = reception.best
            let filterLine = "intent filter at line \(best.filter.line ?? 0)"
            let possibleNames = unique(reception.possible.map { $0.component.name })
                .filter { !reception.definite.contains($0) && $0 != best.component.name }
            if reception.definite.count > 1 {
                findings.append(DoctorFinding(.androidIntentFilter, .warning, file: file,
                    "\(reception.definite.joined(separator: " and ")) \(reception.definite.count == 2 ? "both" : "all") receive the \(link.role.name) \(link.url)\(link.role == .callback ? " from the browser" : ""): Android asks the user which one to open",
                    fix: "keep the link's <intent-filter> on one activity only (doctor does not choose which: no diff)"))
            } else if reception.kind == .possibly || !best.match.isYes {
                var claim = "\(best.component.name) possibly receives the \(link.role.name) \(link.url) (\(filterLine))"
                let misses = namedMisses(manifest, link)
                if !misses.isEmpty { claim += "; the filters written for it miss it: " + misses.joined(separator: "; ") }
                findings.append(.undecided(.androidIntentFilter, file: file, claim, best.match.undecided))
            } else {
                var message = reception.kind == .unrouted
                    ? "\(best.component.name)'s \(filterLine) matches the \(link.role.name) \(link.url) but lacks a category its sender's intent carries (\(DoctorRule.androidViewBrowsable.rawValue))"
                    : "\(best.component.name) receives the \(link.role.name) \(link.url) (\(filterLine))"
                let resolved = best.filter.data.flatMap { [$0.scheme, $0.host, $0.port, $0.path, $0.pathPrefix, $0.pathPattern] }.compactMap { $0 }.filter { !$0.isLiteral }
                if !resolved.isEmpty { message += "; resolved " + unique(resolved.map { $0.described }).joined(separator: ", ") }
                if best.filter.matchesOnlyIgnoringSchemeCase(link) { message += ", once its scheme is written in lower case (\(DoctorRule.androidSchemeLowercase.rawValue))" }
                for other in reception.unrouted {
                    message += "; \(other.component.name)'s intent filter at line \(other.filter.line ?? 0) matches it too, but " + (other.filter.categories.contains(IntentFilter.defaultCategory)
                        ? "without BROWSABLE a browser's redirect does not reach it" : "without DEFAULT no implicit intent reaches it")
                }
                findings.append(DoctorFinding(.androidIntentFilter, .ok, file: file, message))
            }
            let values = best.filter.data.flatMap { [$0.scheme, $0.host, $0.port, $0.path, $0.pathPrefix, $0.pathPattern] }.compactMap { $0 }
            let notes = unique(values.flatMap { $0.notes })
            if !notes.isEmpty {
                // A value missing from the folders given needs another folder; one that varies needs moving.
                let missing = values.contains { $0.resolved == nil && !$0.notes.isEmpty }
                findings.append(DoctorFinding(.androidIntentFilter, .warning, file: file,
                    "\(best.component.name)'s \(filterLine) (the \(link.role.name)): " + notes.joined(separator: "; "),
                    fix: missing ? "pass every res folder the build merges with --android-res, the generated resValues/<variant>/ one included"
                        : "keep the link's values in res/values/ only, out of the qualified values-*/ folders (no diff: the resource files are not checked as fixes)"))
            }
            if let note = best.component.enabledNote {
                findings.append(DoctorFinding(.androidIntentFilter, .warning, file: file,
                    "\(best.component.name) (the \(link.role.name)) \(note): on those devices the link does not arrive",
                    fix: "give the resource the value true for every API level, or receive the link on an activity that is always enabled (no diff: the value is in a resource file)"))
            }
            if reception.definite.count <= 1 && !possibleNames.isEmpty {
                let why = reception.possible.filter { possibleNames.contains($0.component.name) }.flatMap { $0.match.undecided }
                findings.append(.undecided(.androidIntentFilter, file: file,
                    "\(possibleNames.joined(separator: " and ")) may also receive the \(link.role.name) (then Android asks the user which screen to open)", why))
            }
            let possibly = !best.match.isYes
            findings += filterFindings(best, link: link, possibly: possibly, context)
            if let index = chosen.firstIndex(where: { $0.component.name == best.component.name }) {
                chosen[index].roles.append(link.role)
                chosen[index].possibly = chosen[index].possibly && possibly
            } else {
                chosen.append((best.component, [link.role], possibly))
            }
        }
        for (component, roles, possibly) in chosen {
            let what = roles.map { $0.name }.joined(separator: " and ")
            let checks = [exported(component, receiving: what, context), permission(component, receiving: what, context), launchMode(component, receiving: what, context)]
            findings += possibly ? checks.map { $0.onlyIfReceiving() } : checks
        }
        return findings
    }

    /// How well a candidate is set up, to report on the best one when several match.
    private static func score(_ candidate: Candidate) -> Int {
        var score = 0
        if candidate.filter.categories.contains(IntentFilter.defaultCategory) { score += 4 }
        if candidate.filter.categories.contains(IntentFilter.browsable) { score += 4 }
        if candidate.component.exported?.resolved == "true" { score += 2 }
        if candidate.filter.autoVerify { score += 1 }
        return score
    }

    /// Filters that have the link's scheme but miss it, and components that would receive it
    /// but are not used for links: the likely culprits.
    private static func nearMisses(_ manifest: AndroidManifest, _ link: LinkTarget) -> String {
        var misses: [String] = []
        let all = manifest.components.map { ($0, "") } + manifest.skipped.map { ($0.component, $0.why) }
        for (component, why) in all {
            for filter in component.filters where filter.schemes.contains(where: { !LinkText(link.scheme).test($0, .equal, ignoringCase: true).isNo }) {
                let at = "\(component.name)'s intent filter at line \(filter.line ?? 0)"
                if !filter.match(link).isNo {
                    if !why.isEmpty {
                        misses.append("\(at) matches, but \(component.name) is \(why)")
                    } else if !filter.hasView {
                        misses.append("\(at) matches the link's data but has no action VIEW (\(filter.actions.joined(separator: ", "))): it is not a link receiver")
                    }
                } else {
                    misses.append("\(at): \(filter.mismatch(link))")
                }
            }
        }
        if misses.isEmpty {
            // Schemes written with build values that resolved to something else: say what, and why.
            var seen: Set<String> = []
            let resolved = manifest.components.flatMap { $0.filters }.flatMap { $0.schemes }
                .filter { !$0.isLiteral && $0.resolved != nil && seen.insert($0.written).inserted }
            return "no intent filter has the scheme \(link.scheme)" + IntentFilter.buildNote(resolved, link.scheme)
        }
        return misses.joined(separator: "; ")
    }

    /// Why the filters written for `link` (its scheme and, for a callback, its host, both
    /// literal or resolved) miss it: said next to a receiver doctor could not resolve, so the
    /// real problem is not hidden behind a "possibly".
    private static func namedMisses(_ manifest: AndroidManifest, _ link: LinkTarget) -> [String] {
        manifest.components.flatMap { component in
            component.filters.filter { filter in
                filter.hasView && filter.match(link).isNo
                    && filter.schemes.contains { $0.resolved?.lowercased() == link.scheme }
                    && (link.role == .posAnswer || link.host == nil || filter.authorities.contains { $0.host.resolved.map { IntentFilter.hostMatches($0, link.host) } ?? false })
            }.map { "\(component.name)'s intent filter at line \($0.line ?? 0): \($0.mismatch(link))" }
        }
    }

    /// The component whose VIEW filter nearly matches `link`: the link's scheme and host, else
    /// its scheme, else (a callback) its host.
    private static func nearMiss(_ manifest: AndroidManifest, _ link: LinkTarget) -> AndroidManifest.Component? {
        func has(_ filter: IntentFilter, scheme: Bool, host: Bool) -> Bool {
            guard filter.hasView else { return false }
            let schemeOK = !scheme || filter.schemes.contains { $0.resolved?.lowercased() == link.scheme }
            let hostOK = !host || (link.role == .callback && link.host != nil
                && filter.authorities.contains { $0.host.resolved.map { IntentFilter.hostMatches($0, link.host) } ?? false })
            return schemeOK && hostOK
        }
        for (scheme, host) in [(true, true), (true, false), (false, true)] {
            if let component = manifest.components.first(where: { $0.filters.contains { has($0, scheme: scheme, host: host) } }) { return component }
        }
        return nil
    }

    /// A new filter for the link, added to the activity whose filter nearly matched it (same
    /// scheme or host), else the one that receives the other link (`other`), else the
    /// launcher: additive, so nothing another link uses is removed. No other activity is
    /// picked: an unrelated screen would start on the link.
    private static func receiverFix(_ context: Context, _ link: LinkTarget, other: AndroidManifest.Component?) -> (text: String, edits: [TextEdit]) {
        let manifest = context.manifest
        let snippet = Snippet.intentFilter(for: link)
        let launcher = manifest.components.first { $0.filters.contains { $0.actions.contains("android.intent.action.MAIN") && $0.categories.contains("android.intent.category.LAUNCHER") } }
        let activities = manifest.components.filter { !$0.isAlias }
        // A manifest with one activity (a library's demo, a merged fragment) has no other choice.
        let only = activities.count == 1 ? activities.first : nil
        // A scheme that ${applicationId} gives another build: sending that build's scheme is the other fix.
        let variant = link.role == .callback ? manifest.components.flatMap { $0.filters }.flatMap { $0.schemes }
            .first { $0.references.contains { $0.name == "applicationId" || $0.name == "packageName" } && $0.resolved != nil && $0.resolved != link.scheme } : nil
        let returnURL = link.url.components(separatedBy: "/" + ReturnURL.nonceSegmentPrefix).first ?? link.url
        let alternative = variant?.resolved.map { "\n(or, if this build is the one that pays, send its own scheme: --return-url \($0)\(returnURL.drop { $0 != ":" }))" } ?? ""
        guard let home = nearMiss(manifest, link) ?? other ?? launcher ?? only else {
            return ("add inside the <activity> that handles deep links (doctor found neither a filter for this scheme or host nor a launcher activity: no diff):\n" + snippet + alternative, [])
        }
        return ("add inside \(element(home)):\n" + snippet + alternative, newFilter(snippet, in: home, context))
    }

    /// The edits that add `snippet` as the last child of `component`.
    private static func newFilter(_ snippet: String, in component: AndroidManifest.Component, _ context: Context) -> [TextEdit] {
        context.map.map { [$0.insertChildren(snippet.components(separatedBy: "\n"), in: component.index, children: component.childIndexes)] } ?? []
    }

    /// DEFAULT and BROWSABLE on a VIEW filter that receives `link` (shared with the Expo check,
    /// which reports them under its own rule): `startActivity` adds DEFAULT to every implicit
    /// intent, and browsers add BROWSABLE ([intents-filters], "Category test").
    static func missingPieces(_ filter: IntentFilter, link: LinkTarget) -> (errors: [String], warnings: [String], lines: [String]) {
        var errors: [String] = []
        var warnings: [String] = []
        var lines: [String] = []
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

    private static func filterFindings(_ best: Candidate, link: LinkTarget, possibly: Bool, _ context: Context) -> [DoctorFinding] {
        let file = context.file, filter = best.filter, owner = best.component
        var findings: [DoctorFinding] = []
        let where_ = "\(owner.name)'s intent filter at line \(filter.line ?? 0)"
        let missing = missingPieces(filter, link: link)
        if !missing.errors.isEmpty || !missing.warnings.isEmpty {
            let fix: String
            let edits: [TextEdit]
            if filter.staysWithin(context.links) {
                // Everything this filter matches is the links' own: the categories go into it.
                edits = filter.index.flatMap { index in context.map.map { map in
                    [filter.anchorIndex.map { map.insertAfter(missing.lines, element: $0) } ?? map.insertChildren(missing.lines, in: index, children: filter.childIndexes)]
                } } ?? []
                fix = "add inside that <intent-filter>:\n" + missing.lines.map { "    " + $0 }.joined(separator: "\n")
            } else {
                // The filter also matches other links (its other schemes, hosts or paths):
                // adding a category would open those to the browser too. A filter of its own.
                let snippet = Snippet.intentFilter(for: link)
                edits = newFilter(snippet, in: owner, context)
                fix = "add inside \(element(owner)) a filter of its own (that <intent-filter> also matches links other than the \(link.role.name): adding the categories to it would open them to browsers too):\n" + snippet
            }
            var finding = DoctorFinding(.androidViewBrowsable, missing.errors.isEmpty ? .warning : .error, file: file,
                "\(where_) (the \(link.role.name)) has " + (missing.errors + missing.warnings).joined(separator: "; "), fix: fix, edits: edits)
            if possibly { finding = finding.onlyIfReceiving() }
            findings.append(finding)
        } else {
            findings.append(DoctorFinding(.androidViewBrowsable, .ok, file: file,
                "\(where_) (the \(link.role.name)) has action VIEW and categories DEFAULT and BROWSABLE"))
        }
        if link.isWeb {
            var finding = appLinks(best, link: link, context)
            if possibly { finding = finding.onlyIfReceiving() }
            findings.append(finding)
        }
        return findings
    }

    /// `android.app-links.verify` for a web callback that `best` receives: whether some filter of
    /// the app makes its host a verified App Link host (``AppLinkVerification``).
    private static func appLinks(_ best: Candidate, link: LinkTarget, _ context: Context) -> DoctorFinding {
        let file = context.file, filter = best.filter
        let host = link.host ?? ""
        let legacy = !context.targetSDK.atLeast(31)
        let outcome = AppLinkVerification.outcome(for: link, filters: context.filters, legacy: legacy)
        switch outcome.verified {
        case .yes:
            let claim = outcome.claim!
            let claimed = claim.host.resolved ?? claim.host.written
            let wildcard = claimed.hasPrefix("*.") ? "; \(claimed) is verified with https://\(claimed.dropFirst(2))/.well-known/assetlinks.json" : ""
            return DoctorFinding(.androidAppLinksVerify, .ok, file: file,
                "\(claim.component)'s intent filter at line \(claim.filter.line ?? 0) has android:autoVerify=\"true\" and the host \(claimed): Android verifies \(host) against its assetlinks.json\(wildcard)")
        case .possibly(let why):
            return .undecided(.androidAppLinksVerify, file: file, "\(host) is possibly verified as an App Link host", why)
        case .no:
            break
        }
        let reasons = outcome.misses.isEmpty ? "no filter with android:autoVerify=\"true\" names \(host)" : outcome.misses.joined(separator: "; ")
        let message = "nothing makes \(host) a verified App Link host (\(reasons)): from Android 12 an https link that is not a verified App Link opens in the browser, so the gateway's redirect stays in the tab (Android 6 to 11 verify every host of the app's autoVerify filters together: each needs its assetlinks.json)"
        // autoVerify goes onto the receiving filter only where it verifies exactly the link's
        // host (web schemes and that host alone, VIEW, DEFAULT, BROWSABLE); anywhere else it
        // would verify nothing or vouch for other hosts, so the link gets a filter of its own.
        let verifiesHere = filter.routes(link) && AppLinkVerification.handlesWebURIs(filter, onlyWebSchemes: true)
            && !filter.authorities.isEmpty && filter.authorities.allSatisfy { $0.host.resolved.map { AppLinkVerification.isVerifiableHost($0) && AppLinkVerification.covers($0, host) } ?? false }
        if verifiesHere {
            let edits = filter.index.flatMap { index in context.map.map { [$0.setAttribute("android:autoVerify", "true", in: index)] } } ?? []
            return DoctorFinding(.androidAppLinksVerify, .error, file: file, message,
                fix: "<intent-filter android:autoVerify=\"true\">   (line \(filter.line ?? 0); and publish https://\(host)/.well-known/assetlinks.json)", edits: edits)
        }
        let snippet = Snippet.intentFilter(for: link)
        return DoctorFinding(.androidAppLinksVerify, .error, file: file, message,
            fix: "add inside \(element(best.component)) a filter of its own (android:autoVerify on the receiving filter would not verify \(host)), and publish https://\(host)/.well-known/assetlinks.json:\n" + snippet,
            edits: newFilter(snippet, in: best.component, context))
    }

    private static func element(_ component: AndroidManifest.Component) -> String {
        "<\(component.kind) android:name=\"\(Snippet.xml(component.name))\"> (line \(component.line))"
    }

    private static func exported(_ component: AndroidManifest.Component, receiving what: String, _ context: Context) -> DoctorFinding {
        let file = context.file
        let fix = "on \(element(component)):\n    android:exported=\"true\""
        let edits = context.map.map { [$0.setAttribute("android:exported", "true", in: component.index)] } ?? []
        guard let exported = component.exported else {
            if !context.targetSDK.atLeast(exportedRequiredFrom) {
                return DoctorFinding(.androidExported, .warning, file: file,
                    "\(component.name) (the \(what)) has intent filters but no android:exported: with \(context.targetSDK.described) it is exported, but from targetSdkVersion \(exportedRequiredFrom) the build and the install fail until it says so",
                    fix: fix, edits: edits)
            }
            return DoctorFinding(.androidExported, .error, file: file,
                "\(component.name) (the \(what)) has intent filters but no android:exported: apps targeting Android 12 (API 31) or later must say it, or the build and the install fail\(context.targetSDK.note)",
                fix: fix, edits: edits)
        }
        let levels = exported.perAPILevel
        if !levels.isEmpty, levels.contains(where: { $0.value != "true" }) {
            return DoctorFinding(.androidExported, .error, file: file,
                "\(component.name) (the \(what)) has android:exported=\"\(exported.written)\", which is " + describe(levels) + ": where it is false, other apps (the browser tab, the POS app) cannot start it, so the link never arrives",
                fix: "give \(exported.written) the value true in every values*/ folder (no diff: the value is in a resource file)")
        }
        switch exported.resolved {
        case "true"?:
            return DoctorFinding(.androidExported, .ok, file: file, "\(component.name) (the \(what)) is exported\(exported.isLiteral ? "" : " (\(exported.described))")")
        case nil:
            return .undecided(.androidExported, file: file,
                "\(component.name) (the \(what)) has android:exported=\(exported.described), so whether the browser and the POS app may start it is not known", exported.unresolved.map(Undecided.init))
        case let value?:
            return DoctorFinding(.androidExported, .error, file: file,
                "\(component.name) (the \(what)) has android:exported=\"\(value)\": other apps (the browser tab, the POS app) cannot start it, so the link never arrives",
                fix: fix, edits: exported.isLiteral ? edits : [])
        }
    }

    /// "singleTask below API 30 (values/manifest.xml), standard from API 30 (values-v30/manifest.xml)".
    private static func describe(_ levels: [(from: Int?, to: Int?, value: String, file: String?)], name: (String) -> String = { $0 }) -> String {
        levels.map { level in
            let range = level.from.map { "from API \($0)" } ?? "below API \(level.to ?? 0)"
            let folder = level.file.map { URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent + "/" + URL(fileURLWithPath: $0).lastPathComponent }
            return "\(name(level.value)) \(range)\(folder.map { " (\($0))" } ?? "")"
        }.joined(separator: ", ")
    }

    private static func permission(_ component: AndroidManifest.Component, receiving what: String, _ context: Context) -> DoctorFinding {
        guard let permission = component.permission else {
            return DoctorFinding(.androidPermission, .ok, file: context.file, "\(component.name) (the \(what)) requires no permission to start")
        }
        let own = permission.owner.hasPrefix("its own")
        let edits: [TextEdit]
        if own {
            edits = context.map.flatMap { $0.removeAttribute("android:permission", in: component.index) }.map { [$0] } ?? []
        } else {
            edits = context.map.map { [$0.insertAttribute("android:permission", "", in: component.index)] } ?? []
        }
        return DoctorFinding(.androidPermission, .error, file: context.file,
            "\(component.name) (the \(what)) requires the permission \(permission.value) (\(permission.owner)): only apps that hold it may start it, and the browser tab and the POS app do not, so the link never arrives",
            fix: own ? "on \(element(component)): remove android:permission=\"\(Snippet.xml(permission.value))\" (or receive the link on an activity that needs none)"
                     : "on \(element(component)):\n    android:permission=\"\"   (an empty permission clears the application's for this activity)",
            edits: edits)
    }

    /// The names of `android:launchMode`'s values: the manifest's enum (attrs_manifest.xml)
    /// is stored as an integer, which is what an `@integer/` resource gives.
    static func launchModeName(_ value: String) -> String {
        ["0": "standard", "1": "singleTop", "2": "singleTask", "3": "singleInstance", "4": "singleInstancePerTask"][value] ?? value
    }

    /// Where the activity that receives a link runs, seen from the home-screen icon: what a
    /// `singleTask` launch of it clears.
    private enum TaskPlace {
        /// It is the launcher entry (or its alias's target): the icon starts it.
        case launcher
        /// Another activity of the launcher's task (the same `taskAffinity`, or no launcher here).
        case launchersTask
        /// An activity with a task of its own (another `taskAffinity`).
        case ownTask
    }

    private static func taskPlace(_ component: AndroidManifest.Component, _ manifest: AndroidManifest) -> TaskPlace {
        let launchers = manifest.components.filter { $0.isLauncher }
        if component.isLauncher || launchers.contains(where: { $0.runningActivity == component.runningActivity }) { return .launcher }
        guard let launcher = launchers.first else { return .launchersTask }
        return component.taskAffinity == launcher.taskAffinity ? .launchersTask : .ownTask
    }

    /// The launch mode doctor writes: `singleTop` (issue 38; the reasoning is in docs/doctor.md,
    /// "Which launch mode"): the icon and App Links re-enter without finishing the browser tab,
    /// and the link arrives in `onCreate` or `onNewIntent`, both of which must read it.
    static let recommendedLaunchMode = "singleTop"

    private static func launchMode(_ component: AndroidManifest.Component, receiving what: String, _ context: Context) -> DoctorFinding {
        let file = context.file
        let readBoth = "read the link in both onCreate (getIntent().getData()) and onNewIntent (call setIntent(intent) there)"
        if component.isAlias && component.target == nil {
            return DoctorFinding(.androidLaunchMode, .warning, file: file,
                "\(component.name) (the \(what)) is an activity-alias whose targetActivity is not declared in this manifest (a library's?): its launchMode, which the alias takes from it, is not known",
                fix: "pass the merged manifest (app/build/intermediates/merged_manifest*/…/AndroidManifest.xml), or give the target android:launchMode=\"\(recommendedLaunchMode)\" and \(readBoth)")
        }
        let owner = component.target.map { "<activity android:name=\"\(Snippet.xml($0.name))\"> (line \($0.line), the alias's targetActivity)" } ?? element(component)
        let ownerIndex = component.target?.index ?? component.index
        let from = component.target.map { " (from its target \($0.name))" } ?? ""
        let value = component.launchMode
        if let value, value.resolved == nil {
            return .undecided(.androidLaunchMode, file: file, "\(component.name) (the \(what)) has android:launchMode=\(value.described)\(from)", value.unresolved.map(Undecided.init))
        }
        let place = taskPlace(component, context.manifest)
        // A resource (`@integer/`) is resolved; the fix then goes into the resource, not over the reference.
        let literal = value?.isLiteral ?? true
        let fix = literal ? "on \(owner):\n    android:launchMode=\"\(recommendedLaunchMode)\"\nand \(readBoth)"
            : "give \(value?.written ?? "") the value 1 (\(recommendedLaunchMode)) in every values*/ folder, or write android:launchMode=\"\(recommendedLaunchMode)\" on \(owner) (no diff: the value is in a resource file), and \(readBoth)"
        let edits = literal ? context.map.map { [$0.setAttribute("android:launchMode", recommendedLaunchMode, in: ownerIndex)] } ?? [] : []
        let levels = value?.perAPILevel ?? []
        guard !levels.isEmpty else {
            let mode = launchModeName(value?.resolved ?? "standard")
            let advice = launchModeAdvice(mode, component: component.name, place: place)
            let via = literal ? "" : " (\(value?.described ?? ""))"
            switch advice.severity {
            case .ok:
                return DoctorFinding(.androidLaunchMode, .ok, file: file, "\(component.name) (the \(what)) is \(mode)\(from)\(via): \(advice.text)")
            default:
                let has = mode == "singleTop" ? "is singleTop" : "has launchMode \(mode)"
                return DoctorFinding(.androidLaunchMode, advice.severity, file: file, "\(component.name) (the \(what)) \(has)\(from)\(via): \(advice.text)", fix: fix, edits: edits)
            }
        }
        // A values-vNN/ folder changes it: what each range of devices gets, with the advice for each mode that does not pass.
        let modes = levels.map { (range: $0, mode: launchModeName($0.value)) }
        let advices = unique(modes.map { $0.mode }).map { mode in (mode: mode, advice: launchModeAdvice(mode, component: component.name, place: place)) }
        let worst: DoctorSeverity = advices.contains { $0.advice.severity == .error } ? .error : advices.contains { $0.advice.severity == .warning } ? .warning : .ok
        let summary = "\(component.name) (the \(what)) has android:launchMode=\"\(value?.written ?? "")\"\(from): " + describe(levels, name: launchModeName)
        guard worst != .ok else { return DoctorFinding(.androidLaunchMode, .ok, file: file, summary + ": " + advices[0].advice.text) }
        let notes = advices.filter { $0.advice.severity != .ok }.map { "where it is \($0.mode): \($0.advice.text)" }
        return DoctorFinding(.androidLaunchMode, worst, file: file, summary + "; " + notes.joined(separator: "; "), fix: fix, edits: edits)
    }

    /// What `mode` does to a payment whose browser tab (Custom Tab or Auth Tab) or POS app is
    /// above the activity in its task, and how it is rated. The traps (issue 38, research C4):
    /// a `singleTask`/`singleInstance` launcher activity is restarted by the home-screen icon,
    /// which finishes everything above it — the tab with the payment page, mid-3-D Secure — and
    /// so does any link into it while the tab is open (flutter_custom_tabs #271: a payment
    /// app's App Link; stripe-android #9050, fixed with `singleTop`).
    private static func launchModeAdvice(_ mode: String, component: String, place: TaskPlace) -> (severity: DoctorSeverity, text: String) {
        switch (mode, place) {
        case ("singleTask", .launcher), ("singleInstancePerTask", .launcher):
            return (.error, "\(component) is the launcher activity, so tapping the app's icon while the checkout is open restarts the task at \(component) and finishes the browser tab (Custom Tab or Auth Tab) above it, and so does any link into it mid-payment (a bank app's App Link): the payment page is gone and no result comes back (flutter_custom_tabs #271, stripe-android #9050): use singleTop")
        case ("singleInstance", .launcher):
            return (.error, "\(component) is the launcher activity and alone in its task, so the browser tab it opens runs in another task: tapping the app's icon mid-payment brings back \(component) without the tab, and the payment page is lost behind it (flutter_custom_tabs #271, stripe-android #9050): use singleTop")
        case ("singleTask", _), ("singleInstance", _), ("singleInstancePerTask", _):
            return (.ok, "a link goes to the running instance's onNewIntent and finishes the browser tab or POS app above it in its task (the return does that on purpose); it is not the launcher, so the app's icon re-enters without closing the tab")
        case ("singleTop", _):
            return (.ok, "a link reaches onNewIntent while it is at the top of its task, else a new instance's onCreate (read getIntent() there too); the app's icon and App Links re-enter without closing the browser tab (with the tab above it, the return opens a second instance and the tab stays beneath: a return activity that forwards the link with FLAG_ACTIVITY_CLEAR_TOP | FLAG_ACTIVITY_SINGLE_TOP closes it, docs/doctor.md)")
        default:
            return (.warning, "every link creates a new instance on top of the browser tab (onCreate with the link in getIntent(); onNewIntent is never called), the tab stays in the back stack and the screen that started the payment is another instance: use singleTop, so a link reaches the running instance's onNewIntent when it is on top")
        }
    }

    // MARK: schemes and pairings

    /// Upper-case schemes never match: Android compares schemes case-sensitively and the
    /// browser (and Billpocket's sample code) send them in lower case. The fix adds the
    /// lower-case scheme next to it (the elements of a filter combine, so it gets the same
    /// hosts and paths) rather than changing it: whatever sends the upper-case form still works.
    private static func lowerCase(_ context: Context) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for component in context.manifest.components {
            for filter in component.filters {
                for (element, scheme) in filter.upperCaseSchemes() {
                    let line = "<data android:scheme=\"\(Snippet.xml(scheme.lowercased()))\" />"
                    let edits = element.index.flatMap { index in context.map.map { [$0.insertAfter([line], element: index)] } } ?? []
                    findings.append(DoctorFinding(.androidSchemeLowercase, .error, file: context.file,
                        "<data android:scheme> \"\(scheme)\"\(element.line.map { " (line \($0))" } ?? ""): Android matches schemes case-sensitively and browsers send them in lower case, so this filter never receives \(scheme.lowercased()):// links",
                        fix: "add next to it, in the same <intent-filter>:\n" + line, edits: edits))
                }
                for (element, host) in filter.upperCaseHosts() {
                    var line = "<data android:host=\"\(Snippet.xml(host.lowercased()))\""
                    if let port = element.port?.written { line += " android:port=\"\(Snippet.xml(port))\"" }
                    line += " />"
                    let edits = element.index.flatMap { index in context.map.map { [$0.insertAfter([line], element: index)] } } ?? []
                    findings.append(DoctorFinding(.androidSchemeLowercase, .warning, file: context.file,
                        "<data android:host> \"\(host)\"\(element.line.map { " (line \($0))" } ?? ""): Android's documentation calls host matching case-sensitive and asks for lower case (today's IntentFilter compares hosts ignoring case, so the link still arrives)",
                        fix: "add next to it, in the same <intent-filter>:\n" + line, edits: edits))
                }
            }
        }
        if findings.isEmpty {
            findings.append(DoctorFinding(.androidSchemeLowercase, .ok, file: context.file, "every scheme and host written in the manifest is lower case"))
        }
        return findings
    }

    /// Filters whose `<data>` pairs cross into pairings nobody wrote. Advice only: splitting
    /// the filter would drop the crossed pairings, which the app may rely on (no diff).
    static func pairings(_ filters: [(owner: String, filter: IntentFilter)], file: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for (owner, filter) in filters {
            let crossed = filter.crossedPairings()
            guard !crossed.isEmpty else { continue }
            findings.append(DoctorFinding(.androidDataPairings, .warning, file: file,
                "\(owner)'s intent filter\(filter.line.map { " at line \($0)" } ?? "") also claims \(crossed.joined(separator: ", ")): the <data> elements of one filter combine into every scheme/host pairing, not the pairs as written",
                fix: "give each scheme/host pair its own <intent-filter> (each with the same <action> and <category> lines), if nothing relies on the crossed pairings (no diff: doctor cannot tell)"))
        }
        if findings.isEmpty {
            findings.append(DoctorFinding(.androidDataPairings, .ok, file: file, "no intent filter claims pairings that were not written"))
        }
        return findings
    }

    // MARK: queries

    /// Whether `<queries>` makes `app` visible (Android 11+ package visibility:
    /// developer.android.com/training/package-visibility/declaring): by its package name, by an
    /// intent action that starts it, or by a VIEW intent for its URL scheme (``POSApp`` lists
    /// each provider's entries and their sources).
    /// - Returns: The entry that does, described; `nil` when none does.
    static func queriesCover(_ app: POSApp, intents: [IntentFilter], packages: [String]) -> String? {
        if let package = app.androidPackages.first(where: packages.contains) { return "<package android:name=\"\(package)\">" }
        if let action = app.androidActions.first(where: { action in intents.contains { $0.actions.contains(action) } }) { return "the action \(action)" }
        if let scheme = app.androidViewScheme, intents.contains(where: { $0.hasView && $0.schemes.contains { $0.resolved == scheme } }) { return "VIEW \(scheme)://" }
        return nil
    }

    /// One finding per POS app: `android.queries` ok when `<queries>` makes it visible. The
    /// entries of every app missing are written as one edit (one new `<queries>`, or one
    /// insertion into the existing one), carried by each missing app's finding: `--fix-diff`
    /// writes an edit once however many findings carry it.
    private static func queries(_ context: Context, apps: [POSApp]) -> [DoctorFinding] {
        let manifest = context.manifest
        let missing = apps.filter { queriesCover($0, intents: manifest.queryIntents, packages: manifest.queryPackages) == nil }
        func block(_ apps: [POSApp]) -> (lines: [String], fix: String) {
            let lines = apps.flatMap { $0.androidQueryLines }
            if manifest.queriesIndex != nil { return (lines, "inside the existing <queries>:\n" + lines.joined(separator: "\n")) }
            let block = ["<queries>"] + lines.map { "    " + $0 } + ["</queries>"]
            return (block, "in <manifest>, next to <application>:\n" + block.joined(separator: "\n"))
        }
        var edits: [TextEdit] = []
        if let map = context.map, !missing.isEmpty {
            let lines = block(missing).lines
            if let queries = manifest.queriesIndex {
                edits = [map.insertChildren(lines, in: queries, children: manifest.queriesChildren)]
            } else if let application = manifest.applicationIndex {
                edits = [map.insertBefore(lines, element: application)]
            } else {
                edits = [map.insertChildren(lines, in: 0, children: manifest.rootChildren)]
            }
        }
        return apps.map { app in
            if let covering = queriesCover(app, intents: manifest.queryIntents, packages: manifest.queryPackages) {
                return DoctorFinding(.androidQueries, .ok, file: context.file,
                    "<queries> declares \(covering): on Android 11+ the app can see the \(app.name) app" + (app == .clip ? clipTerminalNote : ""))
            }
            let fix = block([app]).fix
            // Packages that might have been meant for it (Clip's QA build's): not another POS app's.
            let named = manifest.queryPackages.filter { package in !POSApp.allCases.contains { $0.androidPackages.contains(package) } }
            let names = named.isEmpty ? "" : "it names \(named.joined(separator: ", ")), not \(app.androidPackages.joined(separator: " or "))"
            let consequence = "the \(app.name) app is invisible to this app, so resolveActivity, queryIntentActivities and React Native's Linking.canOpenURL answer \"not installed\" and a check-then-open hand-off never opens it (a bare startActivity still would; catch ActivityNotFoundException)"
                + app.libraryNote + (app == .clip ? clipTerminalNote : "")
            if !context.targetSDK.atLeast(queriesRequiredFrom) {
                return DoctorFinding(.androidQueries, .warning, file: context.file,
                    "no <queries> entry for \(app.name)\(names.isEmpty ? "" : " (\(names))"): with \(context.targetSDK.described) every app is visible, but from targetSdkVersion \(queriesRequiredFrom) (Android 11) \(consequence)",
                    fix: fix, edits: edits)
            }
            return DoctorFinding(.androidQueries, .error, file: context.file,
                "no <queries> entry for \(app.name) (\(app.androidEntriesDescribed)\(names.isEmpty ? "" : "; " + names)): on Android 11+\(context.targetSDK.note) \(consequence)",
                fix: fix, edits: edits)
        }
    }

    /// Said with every Clip finding: where Clip runs decides where the merchant app must.
    static let clipTerminalNote = "; Clip runs only on Clip's terminals (Total, Total 2, Pro 2), with this app installed on the terminal itself"

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
