import PayHandoff

/// An Android intent filter, and how Android decides whether it receives a link. This file is
/// the one place doctor's Android matching is written; each rule cites where Android states it:
///
/// - [data-element]: developer.android.com/guide/topics/manifest/data-element
/// - [intents-filters]: developer.android.com/guide/components/intents-filters ("Data test")
/// - [IntentFilter.java]: AOSP frameworks/base, core/java/android/content/IntentFilter.java
///   (`matchData`, `AuthorityEntry.match`), the code that runs on the device
/// - [PatternMatcher.java]: AOSP frameworks/base, core/java/android/os/PatternMatcher.java
///
/// Values are ``BuildValue``s: what the manifest merger and aapt2 make of placeholders and
/// resources. Where a deciding value is unresolved, the answer is ``Tri/possibly(_:)``.
struct IntentFilter {
    /// One `<data>` element's URI attributes (`nil` when absent).
    struct DataElement {
        var scheme: BuildValue?
        var host: BuildValue?
        var port: BuildValue?
        var path: BuildValue?
        var pathPrefix: BuildValue?
        var pathPattern: BuildValue?
        var pathSuffix: BuildValue?
        var pathAdvancedPattern: BuildValue?
        var ssp: BuildValue?
        var sspPrefix: BuildValue?
        var sspPattern: BuildValue?
        var sspSuffix: BuildValue?
        var mimeType: BuildValue?
        var line: Int?
        /// The element's place in its file (``XMLTreeElement/index``), for fixes.
        var index: Int?

        /// An element of literal values (Expo's `intentFilters`, tests).
        init(scheme: String? = nil, host: String? = nil, port: String? = nil, path: String? = nil, pathPrefix: String? = nil,
             pathPattern: String? = nil, pathSuffix: String? = nil, pathAdvancedPattern: String? = nil, mimeType: String? = nil,
             line: Int? = nil) {
            self.scheme = scheme.map(BuildValue.literal)
            self.host = host.map(BuildValue.literal)
            self.port = port.map(BuildValue.literal)
            self.path = path.map(BuildValue.literal)
            self.pathPrefix = pathPrefix.map(BuildValue.literal)
            self.pathPattern = pathPattern.map(BuildValue.literal)
            self.pathSuffix = pathSuffix.map(BuildValue.literal)
            self.pathAdvancedPattern = pathAdvancedPattern.map(BuildValue.literal)
            self.mimeType = mimeType.map(BuildValue.literal)
            self.line = line
        }

        /// An element whose attributes are read through `value` (the manifest's resolver).
        init(line: Int?, index: Int?, _ value: (String) -> BuildValue?) {
            scheme = value("scheme")
            host = value("host")
            port = value("port")
            path = value("path")
            pathPrefix = value("pathPrefix")
            pathPattern = value("pathPattern")
            pathSuffix = value("pathSuffix")
            pathAdvancedPattern = value("pathAdvancedPattern")
            ssp = value("ssp")
            sspPrefix = value("sspPrefix")
            sspPattern = value("sspPattern")
            sspSuffix = value("sspSuffix")
            mimeType = value("mimeType")
            self.line = line
            self.index = index
        }

        var hasPath: Bool { path != nil || pathPrefix != nil || pathPattern != nil || pathSuffix != nil || pathAdvancedPattern != nil }
        var hasSSP: Bool { ssp != nil || sspPrefix != nil || sspPattern != nil || sspSuffix != nil }
    }

    static let view = "android.intent.action.VIEW"
    static let defaultCategory = "android.intent.category.DEFAULT"
    static let browsable = "android.intent.category.BROWSABLE"

    var actions: [String]
    var categories: [String]
    var data: [DataElement]
    var autoVerify: Bool
    /// Where the filter starts (manifest line), if known.
    var line: Int?
    /// The `<intent-filter>` element's place in its file, and its children's, for fixes.
    var index: Int? = nil
    var childIndexes: [Int] = []
    /// The last `<category>` (else `<action>`) child, after which new categories go.
    var anchorIndex: Int? = nil

    init(actions: [String], categories: [String], data: [DataElement], autoVerify: Bool, line: Int?, index: Int? = nil) {
        self.actions = actions
        self.categories = categories
        self.data = data
        self.autoVerify = autoVerify
        self.line = line
        self.index = index
    }

    /// Links arrive as `ACTION_VIEW` intents: a filter without that action never receives
    /// one, whatever its data ([intents-filters], "Action test": the intent's action must be
    /// listed). NFC's `NDEF_DISCOVERED` filters carry the same `<data>` and are not receivers.
    var hasView: Bool { actions.contains(IntentFilter.view) }

    var schemes: [BuildValue] { data.compactMap { $0.scheme } }
    /// The written schemes, for messages.
    var schemeList: String { schemes.map { $0.isLiteral ? $0.written : $0.described }.joined(separator: ", ") }
    /// [data-element]: "If a host is not specified, the port attribute … ignored": a port only counts next to a host.
    var authorities: [(host: BuildValue, port: BuildValue?)] {
        data.compactMap { element in element.host.map { (host: $0, port: element.port) } }
    }
    var hasPaths: Bool { data.contains { $0.hasPath } }
    var hasSSPs: Bool { data.contains { $0.hasSSP } }

    /// Whether the filter's data accepts `link`, as [IntentFilter.java] `matchData` decides:
    ///
    /// 1. Every `<data>` element of one filter adds to the same sets ([data-element]: "all the
    ///    `<data>` elements contained within the same `<intent-filter>` element contribute to
    ///    the same filter"): schemes, authorities (host + port), paths, scheme-specific parts.
    /// 2. A filter with a MIME type needs a typed intent; a link has none.
    /// 3. No scheme: only content:/file: URIs match ([data-element]: "If a scheme is not
    ///    specified …, all the other URI attributes are ignored").
    /// 4. The scheme must be in the set, compared case-sensitively ([data-element]: "Scheme
    ///    matching in the Android framework is case-sensitive"). A literal spelled in another
    ///    case counts here, reported once by `android.scheme-lowercase`.
    /// 5. A matching scheme-specific part (`ssp*`) decides; otherwise, if there are
    ///    authorities, one must match, and then, if there are paths, one must match
    ///    (paths without a host are ignored).
    ///
    /// Values are compared as ``LinkText`` does: for every nonce the core may add (an exact
    /// path never matches a callback), and around the literal text of an unresolved value.
    /// This is the data test only; whether the link's sender reaches the filter is
    /// ``routes(_:)``.
    func match(_ link: LinkTarget) -> Tri {
        if data.contains(where: { $0.mimeType != nil }) { return .no }
        let schemes = schemes
        guard !schemes.isEmpty else { return .no }
        let scheme = Tri.any(schemes.map { value in
            let exact = LinkText(link.scheme).test(value, .equal)
            return value.isLiteral && exact.isNo ? LinkText(link.scheme).test(value, .equal, ignoringCase: true) : exact
        })
        guard !scheme.isNo else { return .no }
        var ssp: Tri = .no
        if hasSSPs {
            let text = link.schemeSpecificText
            ssp = Tri.any(data.map { element in
                Tri.any([
                    element.ssp.map { text.test($0, .equal) },
                    element.sspPrefix.map { text.test($0, .prefix) },
                    element.sspSuffix.map { text.test($0, .suffix) },
                    element.sspPattern.map { IntentFilter.glob($0, text) },
                ].compactMap { $0 })
            })
            if ssp.isYes { return scheme }
        }
        let authorities = authorities
        guard !authorities.isEmpty else {
            // Scheme-specific parts given and none matched, and no authority to fall back on.
            return hasSSPs ? Tri.all([scheme, ssp]) : scheme
        }
        var result = Tri.all([scheme, authorityMatch(link)])
        if hasPaths {
            result = Tri.all([result, pathMatch(link)])
        }
        // A scheme-specific part that might match leaves a miss undecided.
        return hasSSPs && !ssp.isNo && result.isNo ? ssp : result
    }

    /// [IntentFilter.java] `AuthorityEntry.match` over the filter's authorities: any may match.
    private func authorityMatch(_ link: LinkTarget) -> Tri {
        Tri.any(authorities.map { entry in
            Tri.all([IntentFilter.hostMatches(entry.host, link.host),
                     entry.port.map { LinkText(link.port.map(String.init) ?? "").test($0, .equal) } ?? .yes])
        })
    }

    /// The path sets of [IntentFilter.java] `hasDataPath`: any entry may match.
    private func pathMatch(_ link: LinkTarget) -> Tri {
        let text = link.pathText
        return Tri.any(data.map { element in
            Tri.any([
                element.path.map { text.test($0, .equal) },
                element.pathPrefix.map { text.test($0, .prefix) },
                element.pathSuffix.map { text.test($0, .suffix) },
                element.pathPattern.map { IntentFilter.glob($0, text) },
                // PATTERN_ADVANCED_GLOB (API 31): not evaluated here, so it can only leave the answer open.
                element.pathAdvancedPattern.map { .possibly([Undecided(what: "pathAdvancedPattern \"\($0.written)\"",
                                                                       resolveBy: "doctor does not evaluate pathAdvancedPattern: try the link with the adb command below")]) },
            ].compactMap { $0 })
        })
    }

    /// A `pathPattern` / `sspPattern`: evaluated when resolved; an unresolved one leaves the
    /// answer open.
    static func glob(_ pattern: BuildValue, _ text: LinkText) -> Tri {
        guard let resolved = pattern.resolved else { return .possibly(pattern.unresolved.map(Undecided.init)) }
        return text.globMatches(resolved) ? .yes : .no
    }

    /// The category test of [IntentFilter.java] `matchCategories` for the intent that carries
    /// `link`: every category of the intent must be in the filter. `startActivity` adds DEFAULT
    /// to every implicit intent ([intents-filters], "Category test"); a browser sends a link
    /// the page navigates to as a BROWSABLE intent (the `Intent.CATEGORY_BROWSABLE` reference:
    /// "if the user is viewing a web page … and clicks on a link …, the Intent generated …
    /// will require the BROWSABLE category"), so the gateway's redirect reaches only BROWSABLE
    /// filters, while the POS app's answer (a plain VIEW intent from an app) does not need it.
    func routes(_ link: LinkTarget) -> Bool {
        hasView && categories.contains(IntentFilter.defaultCategory)
            && (link.role == .posAnswer || categories.contains(IntentFilter.browsable))
    }

    /// Whether every link this filter's data can match is one of `links`' own: the POS
    /// answer's scheme and a custom callback scheme (the app's own schemes, any host), an
    /// https callback's scheme and host (any path). A fix may then add a category to this
    /// filter without opening anything else to the browser; otherwise it adds a filter of its
    /// own (a `<data>` another link or screen uses is never widened: BlueWallet's filter for
    /// its custom schemes also lists http and https).
    func staysWithin(_ links: [LinkTarget]) -> Bool {
        guard !data.contains(where: { $0.mimeType != nil }), !schemes.isEmpty else { return false }
        let ownSchemes = links.filter { $0.role == .posAnswer || !$0.isWeb }.map { $0.scheme }
        let callbacks = links.filter { $0.role == .callback }
        for scheme in schemes {
            guard let resolved = scheme.resolved?.lowercased() else { return false }
            if ownSchemes.contains(resolved) { continue }
            guard !hasSSPs, !authorities.isEmpty,
                  let callback = callbacks.first(where: { $0.scheme == resolved }), let host = callback.host else { return false }
            for authority in authorities {
                guard let claimed = authority.host.resolved, !claimed.hasPrefix("*"), claimed.lowercased() == host.lowercased() else { return false }
            }
        }
        return true
    }

    /// Whether `link` reaches this filter only because a literal scheme is compared ignoring
    /// case (the device would not deliver it until the scheme is written in lower case).
    func matchesOnlyIgnoringSchemeCase(_ link: LinkTarget) -> Bool {
        !schemes.contains { $0.resolved == link.scheme } && schemes.contains { $0.isLiteral && $0.written.lowercased() == link.scheme }
    }

    /// Why the filter does not receive `link` (for a filter whose ``match(_:)`` is `no`).
    func mismatch(_ link: LinkTarget) -> String {
        if data.contains(where: { $0.mimeType != nil }) { return "it declares a mimeType, and a deep link carries none" }
        let schemes = schemes
        guard schemes.contains(where: { !LinkText(link.scheme).test($0, .equal).isNo || ($0.isLiteral && $0.written.lowercased() == link.scheme) }) else {
            if schemes.isEmpty { return "it has no scheme" }
            if let folded = schemes.first(where: { !$0.isLiteral && $0.resolved?.lowercased() == link.scheme }) {
                return "its scheme \(folded.described) differs from \(link.scheme) in case, and Android compares schemes case-sensitively (browsers send them in lower case)"
            }
            return "its schemes are " + schemeList + IntentFilter.buildNote(schemes, link.scheme)
        }
        if hasSSPs && authorities.isEmpty { return "none of its scheme-specific parts (ssp*) matches \(link.schemeSpecificPart)" }
        let written = authorities.map { $0.host.written + ($0.port.map { ":" + $0.written } ?? "") }.joined(separator: ", ")
        if authorityMatch(link).isNo {
            guard let host = link.host else { return "it requires a host and the link has none" }
            // The classic trap: a scheme written alone, next to another <data> with a host.
            let borrowed = data.contains { $0.scheme?.resolved?.lowercased() == link.scheme && $0.host == nil }
                && data.contains { $0.host != nil && $0.scheme != nil && $0.scheme?.resolved?.lowercased() != link.scheme }
                ? " (a host written on another <data> element of the same filter: the elements combine)" : ""
            if link.role == .posAnswer {
                return "it restricts the host to \(written)\(borrowed), and the POS app writes its answer where a host would be (\(host))"
            }
            return "its hosts are \(written)\(borrowed), the link's is \(host)\(link.port.map { ":" + String($0) } ?? "")" + IntentFilter.buildNote(authorities.map { $0.host }, host)
        }
        var reason = "none of its paths (\(pathList)) matches the path \(link.path.isEmpty ? "(empty)" : link.path)"
        if link.pathVaries, data.contains(where: { $0.path != nil }) {
            reason += " (an exact android:path never receives a callback: the core appends \(ReturnURL.nonceSegmentPrefix)<nonce> to the return URL's path, new on every payment; a pathPrefix covering \(link.registeredPath.isEmpty ? "/" : link.registeredPath) does)"
        }
        return reason
    }

    /// " (${applicationId} is net.example.beta from --android-package, not net.example)" for a
    /// value that a placeholder resolved to something other than what the link has: the
    /// usual cause is a build variant's applicationIdSuffix.
    static func buildNote(_ values: [BuildValue], _ wanted: String) -> String {
        let differing = values.filter { value in
            !value.isLiteral && value.resolved.map { $0.lowercased() != wanted.lowercased() } ?? false
        }
        var references: [BuildReference] = []
        for reference in differing.flatMap({ $0.references }) where reference.value != nil && !references.contains(where: { $0.written == reference.written }) {
            references.append(reference)
        }
        guard !references.isEmpty else { return "" }
        var note = references.map { "\($0.written) is \($0.value ?? "") (from \($0.source ?? "the build"))" }.joined(separator: ", ")
        let composed = differing.filter { value in !references.contains { $0.written == value.written } }
        if !composed.isEmpty { note += ", so " + composed.map { "\($0.written) is \($0.resolved ?? "")" }.joined(separator: " and ") }
        note += ", not \(wanted)"
        if references.contains(where: { $0.name == "applicationId" || $0.name == "packageName" }) {
            note += ": the return URL must use the applicationId of the build that runs (a build type's or flavor's applicationIdSuffix changes it)"
        }
        return " (" + note + ")"
    }

    private var pathList: String {
        data.flatMap { element -> [String] in
            var list: [String] = []
            if let p = element.path { list.append("path \(p.written)") }
            if let p = element.pathPrefix { list.append("pathPrefix \(p.written)") }
            if let p = element.pathPattern { list.append("pathPattern \(p.written)") }
            if let p = element.pathSuffix { list.append("pathSuffix \(p.written)") }
            if let p = element.pathAdvancedPattern { list.append("pathAdvancedPattern \(p.written), not evaluated") }
            return list
        }.joined(separator: ", ")
    }

    /// The host rule of [IntentFilter.java] `AuthorityEntry`: a host written with a leading
    /// `*` matches any host that ends with the rest (`*.example.com` matches
    /// `fix.example.com`, not `example.com`; `*` alone matches any host); a `*` anywhere else is
    /// an ordinary character. The comparison ignores case (`compareToIgnoreCase`), although
    /// [data-element] calls host matching case-sensitive and asks for lower case: doctor
    /// follows the code and reports upper-case hosts as a warning (`android.scheme-lowercase`).
    static func hostMatches(_ pattern: String, _ host: String?) -> Bool {
        hostMatches(.literal(pattern), host).isYes
    }

    /// ``hostMatches(_:_:)`` for a value the build may not have resolved: its literal text
    /// still decides where it can.
    static func hostMatches(_ pattern: BuildValue, _ host: String?) -> Tri {
        guard let host else { return .no }
        if case .text(let first)? = pattern.pieces.first, first.hasPrefix("*") {
            var rest = pattern
            rest.pieces[0] = .text(String(first.dropFirst()))
            rest.pieces = rest.pieces.filter { $0 != .text("") }
            return LinkText(host).test(rest, .suffix, ignoringCase: true)
        }
        return LinkText(host).test(pattern, .equal, ignoringCase: true)
    }

    /// [IntentFilter.java] `AuthorityEntry.match`: a port written in the filter must equal the
    /// link's (a link without a port has none, not 443); an absent one matches any.
    static func portMatches(_ pattern: String?, _ port: Int?) -> Bool {
        guard let pattern else { return true }
        return Int(pattern) == port
    }

    /// `android:pathPattern` as [PatternMatcher.java] reads it, on a text that does not vary
    /// (``LinkText/globMatches(_:)``).
    static func simpleGlobMatches(_ pattern: String, _ path: String) -> Bool {
        LinkText(path).globMatches(pattern)
    }

    /// Literal `<data android:scheme>` values with upper-case letters that have no lower-case
    /// twin in the filter: they never receive a browser's link (rule 4 of ``match(_:)``).
    /// A placeholder or resource is never reported: its value is not written here.
    func upperCaseSchemes() -> [(element: DataElement, scheme: String)] {
        data.compactMap { element in
            guard let scheme = element.scheme, scheme.isLiteral, scheme.written != scheme.written.lowercased(),
                  !data.contains(where: { $0.scheme?.written == scheme.written.lowercased() }) else { return nil }
            return (element, scheme.written)
        }
    }

    /// Literal hosts with upper-case letters and no lower-case twin in the filter: Android
    /// matches them today (``hostMatches(_:_:)``) but documents the comparison as
    /// case-sensitive and asks for lower case.
    func upperCaseHosts() -> [(element: DataElement, host: String)] {
        data.compactMap { element in
            guard let host = element.host, host.isLiteral, host.written != host.written.lowercased(),
                  !data.contains(where: { $0.host?.written == host.written.lowercased() }) else { return nil }
            return (element, host.written)
        }
    }

    /// Scheme/host pairings the filter claims that no `<data>` element wrote together: when
    /// two elements each name a scheme and a host, Android also matches each scheme with the
    /// other's host (rule 1 of ``match(_:)``). Elements that name only a scheme or only a host
    /// are meant to combine.
    func crossedPairings() -> [String] {
        func text(_ value: BuildValue?) -> String? { value.map { $0.resolved ?? $0.written } }
        let written = data.filter { $0.scheme != nil && $0.host != nil }
        let schemes = unique(written.compactMap { text($0.scheme) })
        let hosts = unique(written.compactMap { text($0.host) })
        guard schemes.count > 1 && hosts.count > 1 else { return [] }
        var crossed: [String] = []
        for scheme in unique(self.schemes.map { $0.resolved ?? $0.written }) {
            for authority in unique(authorities.map { $0.host.resolved ?? $0.host.written }) {
                let wrote = written.contains { text($0.scheme) == scheme && text($0.host) == authority }
                if !wrote { crossed.append(scheme + "://" + authority) }
            }
        }
        return crossed
    }

    private func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
