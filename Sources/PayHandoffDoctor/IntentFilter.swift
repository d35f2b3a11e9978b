/// An Android intent filter as the platform matches it: from a manifest's `<intent-filter>` or
/// from Expo's `android.intentFilters`.
///
/// Android merges every `<data>` element of one filter into one matcher: a set of schemes, a
/// set of authorities (host + port) and a set of paths, and a URI matches when its scheme is in
/// the first, its authority in the second (if the filter has any) and its path in the third
/// (if the filter has authorities and paths: without a host, paths are ignored). So two
/// `<data>` elements written as pairs also claim the crossed pairs.
struct IntentFilter {
    /// One `<data>` element's URI attributes (`nil` when absent).
    struct DataElement {
        var scheme: String?
        var host: String?
        var port: String?
        var path: String?
        var pathPrefix: String?
        var pathPattern: String?
        var pathSuffix: String?
        var pathAdvancedPattern: String?
        var mimeType: String?
        var line: Int?
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

    var schemes: [String] { unique(data.compactMap { $0.scheme }) }
    /// Android ignores a port written without a host.
    var authorities: [(host: String, port: String?)] {
        data.compactMap { element in element.host.map { (host: $0, port: element.port) } }
    }
    var hasPaths: Bool {
        data.contains { $0.path != nil || $0.pathPrefix != nil || $0.pathPattern != nil || $0.pathSuffix != nil || $0.pathAdvancedPattern != nil }
    }

    /// Why the filter does not receive a link, or `nil` when it does. Schemes are compared
    /// ignoring case here: a filter meant for the link but spelled in upper case is reported
    /// once, by the lower-case rule, not twice.
    func mismatch(_ link: LinkTarget) -> String? {
        if data.contains(where: { $0.mimeType != nil }) { return "it declares a mimeType, and a deep link carries none" }
        guard schemes.contains(where: { $0.lowercased() == link.scheme }) else {
            return schemes.isEmpty ? "it has no scheme" : "its schemes are " + schemes.joined(separator: ", ")
        }
        let authorities = authorities
        guard !authorities.isEmpty else { return nil }
        guard let host = link.host else { return "it requires a host and the link has none" }
        guard authorities.contains(where: { IntentFilter.hostMatches($0.host, host) && IntentFilter.portMatches($0.port, link.port) }) else {
            let written = authorities.map { $0.host + ($0.port.map { ":" + $0 } ?? "") }.joined(separator: ", ")
            // The classic trap: a scheme written alone, next to another <data> with a host.
            let borrowed = data.contains { $0.scheme?.lowercased() == link.scheme && $0.host == nil }
                ? " (a host written on another <data> element of the same filter: the elements combine)" : ""
            if link.role == .posAnswer {
                return "it restricts the host to \(written)\(borrowed), and the POS app writes its answer where a host would be (\(host))"
            }
            return "its hosts are \(written)\(borrowed), the link's is \(host)\(link.port.map { ":" + String($0) } ?? "")"
        }
        guard hasPaths else { return nil }
        if data.contains(where: { element in pathMatches(element, link.path) }) { return nil }
        return "none of its paths (\(pathList)) matches the path \(link.path.isEmpty ? "(empty)" : link.path)"
    }

    /// Whether a `pathAdvancedPattern` was skipped (doctor does not evaluate them).
    var hasAdvancedPatterns: Bool { data.contains { $0.pathAdvancedPattern != nil } }

    private var pathList: String {
        data.flatMap { element -> [String] in
            var list: [String] = []
            if let p = element.path { list.append("path \(p)") }
            if let p = element.pathPrefix { list.append("pathPrefix \(p)") }
            if let p = element.pathPattern { list.append("pathPattern \(p)") }
            if let p = element.pathSuffix { list.append("pathSuffix \(p)") }
            if let p = element.pathAdvancedPattern { list.append("pathAdvancedPattern \(p), not evaluated") }
            return list
        }.joined(separator: ", ")
    }

    private func pathMatches(_ element: DataElement, _ path: String) -> Bool {
        if let literal = element.path, path == literal { return true }
        if let prefix = element.pathPrefix, path.hasPrefix(prefix) { return true }
        if let suffix = element.pathSuffix, path.hasSuffix(suffix) { return true }
        if let pattern = element.pathPattern, IntentFilter.simpleGlobMatches(pattern, path) { return true }
        return false
    }

    /// Android's host rule: a leading `*` matches any prefix (`*.example.com`), `*` alone any
    /// host; otherwise equal, ignoring case.
    static func hostMatches(_ pattern: String, _ host: String) -> Bool {
        if pattern.hasPrefix("*") {
            let suffix = pattern.dropFirst().lowercased()
            return host.lowercased().hasSuffix(suffix)
        }
        return pattern.lowercased() == host.lowercased()
    }

    /// A port written in the filter must equal the link's; an absent one matches any.
    static func portMatches(_ pattern: String?, _ port: Int?) -> Bool {
        guard let pattern else { return true }
        return Int(pattern) == port
    }

    /// `android:pathPattern` as Android's PatternMatcher (PATTERN_SIMPLE_GLOB) reads it:
    /// `.` any character, `x*` zero or more of `x`, `.*` any run of characters up to the
    /// first occurrence of the character after it (it does not backtrack), `\` escapes.
    /// The whole path must match; once the path is used up, only a remaining `.*` still
    /// matches (a remaining `x*` does not: Android stops there too).
    static func simpleGlobMatches(_ pattern: String, _ path: String) -> Bool {
        let p = Array(pattern)
        let s = Array(path)
        if p.isEmpty { return s.isEmpty }
        var i = 0  // in p
        var j = 0  // in s
        while i < p.count && j < s.count {
            var c = p[i]
            var escaped = false
            if c == "\\", i + 1 < p.count {
                escaped = true
                i += 1
                c = p[i]
            }
            let starred = i + 1 < p.count && p[i + 1] == "*"
            if starred && c == "." && !escaped {
                i += 2
                guard i < p.count else { return true }  // a trailing `.*` takes the rest
                var next = p[i]
                if next == "\\", i + 1 < p.count { i += 1; next = p[i] }
                // Up to the first occurrence of the next character, which must exist.
                while j < s.count && s[j] != next { j += 1 }
                guard j < s.count else { return false }
                i += 1
                j += 1
            } else if starred {
                while j < s.count && s[j] == c { j += 1 }
                i += 2
            } else {
                guard (c == "." && !escaped) || s[j] == c else { return false }
                i += 1
                j += 1
            }
        }
        if i >= p.count && j >= s.count { return true }
        return j >= s.count && i == p.count - 2 && p[i] == "." && p[i + 1] == "*"
    }

    /// Scheme/host pairings the filter claims that no `<data>` element wrote together: when
    /// two elements each name a scheme and a host, Android also matches each scheme with the
    /// other's host. (Elements that name only a scheme or only a host are meant to combine.)
    func crossedPairings() -> [String] {
        let written = data.filter { $0.scheme != nil && $0.host != nil }
        let schemes = unique(written.compactMap { $0.scheme })
        let hosts = unique(written.compactMap { $0.host })
        guard schemes.count > 1 && hosts.count > 1 else { return [] }
        var crossed: [String] = []
        for scheme in self.schemes {
            for authority in unique(authorities.map { $0.host }) {
                let wrote = written.contains { $0.scheme == scheme && $0.host == authority }
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
