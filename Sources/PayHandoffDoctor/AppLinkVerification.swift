/// Which hosts Android verifies as the app's App Links, written once for the manifest and
/// Expo's `android.intentFilters`. The rules are AOSP's (frameworks/base, read, not copied):
///
/// - [DomainVerificationCollector.java] (services/core/java/com/android/server/pm/verify/
///   domain): from targetSdkVersion 31 (`RESTRICT_DOMAINS`, enabled since S) a filter asks
///   for its hosts to be verified only when it has `autoVerify`, action VIEW, categories
///   BROWSABLE and DEFAULT, and only the schemes `http`/`https` (`handlesWebUris(true)`).
///   Below 31, one such filter makes every filter with VIEW, BROWSABLE and a web scheme
///   (`handlesWebUris(false)`) contribute its hosts. Either way a host counts only when it is a
///   domain name, optionally after `*.` (`DOMAIN_NAME_WITH_WILDCARD`, built on
///   android.util.Patterns.DOMAIN_NAME): `*` alone, an empty host, or no host at all verify
///   nothing.
/// - [verify-android-applinks] (developer.android.com/training/app-links/verify-android-applinks):
///   a host written `*.example.com` is verified with `https://example.com/.well-known/
///   assetlinks.json` and covers the names under example.com; verification is per host for
///   apps on Android 12 and later, and one filter with `autoVerify` per host is enough.
enum AppLinkVerification {
    /// A host a filter asks Android to verify, and the filter's place.
    struct Claim {
        var component: String
        var filter: IntentFilter
        var host: BuildValue
    }

    /// The outcome for one link.
    struct Outcome {
        /// `yes` when a claim covers the link's host.
        var verified: Tri
        /// The claim that covers it, when one does.
        var claim: Claim?
        /// Why each `autoVerify` filter that names the link's host or scheme verifies nothing for it.
        var misses: [String]
    }

    /// Whether `filter` asks for its hosts to be verified on its own (the targetSdkVersion 31
    /// rule): `autoVerify`, VIEW, BROWSABLE, DEFAULT and only web schemes. An unresolved scheme
    /// counts as not web: it cannot be shown to verify.
    static func requestsVerification(_ filter: IntentFilter) -> Bool {
        filter.autoVerify && handlesWebURIs(filter, onlyWebSchemes: true) && filter.categories.contains(IntentFilter.defaultCategory)
    }

    /// AOSP `IntentFilter.handlesWebUris`: VIEW, BROWSABLE, at least one scheme, and every
    /// scheme (`onlyWebSchemes`) or some scheme `http`/`https`.
    static func handlesWebURIs(_ filter: IntentFilter, onlyWebSchemes: Bool) -> Bool {
        guard filter.hasView, filter.categories.contains(IntentFilter.browsable), !filter.schemes.isEmpty else { return false }
        let web = filter.schemes.map { $0.resolved == "http" || $0.resolved == "https" }
        return onlyWebSchemes ? !web.contains(false) : web.contains(true)
    }

    /// The hosts the app asks Android to verify, filter by filter.
    /// - Parameters:
    ///   - filters: Every filter of the enabled components, with the component's name.
    ///   - legacy: The app targets an SDK below 31 (the older collection rule).
    static func claims(_ filters: [(component: String, filter: IntentFilter)], legacy: Bool) -> [Claim] {
        let asking: [(component: String, filter: IntentFilter)]
        if legacy {
            // One filter that `needsVerification()` makes every web filter's hosts count.
            let needed = filters.contains { $0.filter.autoVerify && handlesWebURIs($0.filter, onlyWebSchemes: true) }
            asking = needed ? filters.filter { handlesWebURIs($0.filter, onlyWebSchemes: false) } : []
        } else {
            asking = filters.filter { requestsVerification($0.filter) }
        }
        return asking.flatMap { entry in
            entry.filter.authorities.map { Claim(component: entry.component, filter: entry.filter, host: $0.host) }
        }
    }

    /// Whether `host` is a name Android accepts for verification: a domain name (labels of
    /// letters, digits and `-`, a top-level label of letters or `xn--`) or an IPv4 address,
    /// optionally after `*.`.
    static func isVerifiableHost(_ host: String) -> Bool {
        let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count == 4, labels.allSatisfy({ UInt8($0) != nil }) { return !host.hasPrefix("*.") }
        guard labels.count >= 2, let top = labels.last else { return false }
        let labelsOK = labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || !$0.isASCII }
        }
        let topOK = top.hasPrefix("xn--") || (top.count >= 2 && top.allSatisfy { $0.isLetter })
        return labelsOK && topOK
    }

    /// Whether a verified `claimed` host covers `host`: the same name, or a name under a
    /// `*.` domain ([verify-android-applinks]); names compare ignoring case.
    static func covers(_ claimed: String, _ host: String) -> Bool {
        let claimed = claimed.lowercased(), host = host.lowercased()
        if claimed.hasPrefix("*.") { return host.hasSuffix(claimed.dropFirst(1)) }
        return claimed == host
    }

    /// Whether the app's filters make `link`'s host a verified App Link host.
    static func outcome(for link: LinkTarget, filters: [(component: String, filter: IntentFilter)], legacy: Bool) -> Outcome {
        guard let host = link.host, isVerifiableHost(host) else {
            return Outcome(verified: .no, claim: nil, misses: ["\(link.host ?? "(no host)") is not a domain name Android verifies"])
        }
        let claims = claims(filters, legacy: legacy)
        var open: [Undecided] = []
        for claim in claims {
            guard let claimed = claim.host.resolved else {
                if !IntentFilter.hostMatches(claim.host, host).isNo { open += claim.host.unresolved.map(Undecided.init) }
                continue
            }
            if isVerifiableHost(claimed) && covers(claimed, host) { return Outcome(verified: .yes, claim: claim, misses: []) }
        }
        if !open.isEmpty { return Outcome(verified: .possibly(open), claim: nil, misses: []) }
        // Why the autoVerify filters that look meant for the link verify nothing for it,
        // one sentence per reason (a real manifest repeats one filter shape many times).
        var reasons: [(reason: String, places: [String])] = []
        for (component, filter) in filters where filter.autoVerify && filter.hasView {
            let named = filter.authorities.contains { !IntentFilter.hostMatches($0.host, host).isNo }
                || (filter.authorities.isEmpty && filter.schemes.contains { $0.resolved == link.scheme })
            guard named else { continue }
            let others = filter.schemes.compactMap { $0.resolved ?? $0.written }.filter { $0 != "http" && $0 != "https" }
            let reason: String
            if filter.authorities.isEmpty {
                reason = "android:autoVerify=\"true\" but no host: Android verifies only the hosts a filter names"
            } else if !legacy && !others.isEmpty {
                reason = "android:autoVerify=\"true\" but also the scheme\(others.count == 1 ? "" : "s") \(others.joined(separator: ", ")): from targetSdkVersion 31 Android verifies only filters whose schemes are all http/https"
            } else if !legacy && !(filter.categories.contains(IntentFilter.defaultCategory) && filter.categories.contains(IntentFilter.browsable)) {
                reason = "android:autoVerify=\"true\" but not both categories DEFAULT and BROWSABLE, so Android verifies none of its hosts"
            } else {
                let bad = filter.authorities.compactMap { $0.host.resolved }.filter { !isVerifiableHost($0) }
                guard !bad.isEmpty else { continue }
                reason = "android:autoVerify=\"true\" but the host \(bad.map { "\"\($0)\"" }.joined(separator: ", ")), not a domain name: Android verifies only concrete hosts (a wildcard must be *.example.com, verified with https://example.com/.well-known/assetlinks.json)"
            }
            let place = "\(component)'s intent filter\(filter.line.map { " at line \($0)" } ?? "")"
            if let index = reasons.firstIndex(where: { $0.reason == reason }) {
                reasons[index].places.append(place)
            } else {
                reasons.append((reason, [place]))
            }
        }
        let misses = reasons.map { entry in
            entry.places.count == 1 ? "\(entry.places[0]) has \(entry.reason)"
                : "\(entry.places.joined(separator: " and ")) each have \(entry.reason)"
        }
        return Outcome(verified: .no, claim: nil, misses: misses)
    }
}
