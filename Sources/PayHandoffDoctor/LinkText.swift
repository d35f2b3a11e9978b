/// A part of a link (a path, a scheme-specific part) as the platforms compare it, knowing which
/// characters change from one link to the next: the core's nonce differs on every payment, so a
/// pattern must accept the callback whatever its nonce is. Literal characters and the values of
/// build references never match a changing character (a build value is fixed when the app is
/// built); only a pattern's wildcards do (`pathPrefix` past its end, `.`/`.*` of a
/// `pathPattern`, `*`/`?` of an association file). That is why an exact `android:path` never
/// receives a callback, whatever it or its placeholder says.
struct LinkText: Equatable {
    let characters: [Character]
    /// `true` where the character is the nonce's: it differs on every callback.
    let varies: [Bool]

    /// `text`, with the characters of every occurrence of `changing` marked as varying.
    init(_ text: String, changing: String? = nil) {
        characters = Array(text)
        var varies = Array(repeating: false, count: characters.count)
        if let changing, !changing.isEmpty {
            let needle = Array(changing)
            var index = 0
            while index + needle.count <= characters.count {
                if Array(characters[index..<index + needle.count]) == needle {
                    for offset in index..<index + needle.count { varies[offset] = true }
                    index += needle.count
                } else {
                    index += 1
                }
            }
        }
        self.varies = varies
    }

    private init(characters: [Character], varies: [Bool]) {
        self.characters = characters
        self.varies = varies
    }

    var text: String { String(characters) }
    var reversed: LinkText { LinkText(characters: characters.reversed(), varies: varies.reversed()) }
    func lowercased() -> LinkText { LinkText(characters: characters.map(LinkText.lowercased), varies: varies) }

    /// `character` in lower case, when that is one character (case folding never changes a
    /// link's length here: a character whose lower case is longer is kept as it is).
    static func lowercased(_ character: Character) -> Character {
        let lower = character.lowercased()
        return lower.count == 1 ? Character(lower) : character
    }

    /// The text before the first varying character (all of it when none varies).
    var fixedPrefix: String { String(characters.indices.prefix { !varies[$0] }.map { characters[$0] }) }

    /// How a value is compared with the text.
    enum Comparison {
        /// The whole text (`android:path`, `android:scheme`, `android:host`).
        case equal
        /// The value starts the text (`pathPrefix`, `sspPrefix`).
        case prefix
        /// The value ends the text (`pathSuffix`, `sspSuffix`).
        case suffix
    }

    /// Whether `value` compares as `comparison` to this text for every nonce: `yes` or `no`
    /// when the value is resolved; for an unresolved one `possibly` when some value of its
    /// references would (around their literal text), else `no`.
    func test(_ value: BuildValue, _ comparison: Comparison, ignoringCase: Bool = false) -> Tri {
        var tokens: [Token] = []
        var unknown: [Undecided] = []
        for piece in value.pieces {
            switch piece {
            case .text(let text): tokens += text.map { Token.character(ignoringCase ? LinkText.lowercased($0) : $0) }
            case .unknown(let reference):
                tokens.append(.unknown)
                unknown.append(Undecided(reference))
            }
        }
        var subject = ignoringCase ? lowercased() : self
        if comparison == .suffix {
            subject = subject.reversed
            tokens.reverse()
        }
        // A suffix is a prefix of the reversed text: only equality must use all of it.
        guard subject.matches(tokens, anchored: comparison == .equal) else { return .no }
        return unknown.isEmpty ? .yes : .possibly(unknown)
    }

    private enum Token: Equatable {
        case character(Character)
        /// A reference's value: any run of characters, but none that varies.
        case unknown
    }

    /// Whether `tokens` match the start of the text (all of it when `anchored`).
    private func matches(_ tokens: [Token], anchored: Bool) -> Bool {
        var failed = Set<Int>()  // token index * (count + 1) + text index, known not to match
        func match(_ t: Int, _ i: Int) -> Bool {
            if t == tokens.count { return !anchored || i == characters.count }
            let key = t * (characters.count + 1) + i
            if failed.contains(key) { return false }
            var result = false
            switch tokens[t] {
            case .character(let c):
                result = i < characters.count && !varies[i] && characters[i] == c && match(t + 1, i + 1)
            case .unknown:
                var end = i
                while true {
                    if match(t + 1, end) { result = true; break }
                    guard end < characters.count, !varies[end] else { break }
                    end += 1
                }
            }
            if !result { failed.insert(key) }
            return result
        }
        return match(0, 0)
    }

    /// `android:pathPattern` / `sspPattern` as [PatternMatcher.java] reads it
    /// (PATTERN_SIMPLE_GLOB): `.` any character, `x*` zero or more of `x`, `.*` any run of
    /// characters up to the first occurrence of the character after it (it does not
    /// backtrack), `\\` escapes. The whole text must match; once the text is used up, only a
    /// remaining `.*` still matches (a remaining `x*` does not: Android stops there too). A
    /// varying character is matched only by `.` and `.*`.
    func globMatches(_ pattern: String) -> Bool {
        let p = Array(pattern)
        let s = characters
        func same(_ j: Int, _ c: Character) -> Bool { !varies[j] && s[j] == c }
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
                while j < s.count && !same(j, next) { j += 1 }
                guard j < s.count else { return false }
                i += 1
                j += 1
            } else if starred {
                while j < s.count && same(j, c) { j += 1 }
                i += 2
            } else {
                guard (c == "." && !escaped) || same(j, c) else { return false }
                i += 1
                j += 1
            }
        }
        if i >= p.count && j >= s.count { return true }
        return j >= s.count && i == p.count - 2 && p[i] == "." && p[i + 1] == "*"
    }

    /// Apple's association-file pattern ([aasa]): `*` any run of characters (`/` included,
    /// empty allowed), `?` any one character, everything else itself; the whole text must
    /// match. A varying character is matched only by `*` and `?`.
    func wildcardMatches(_ pattern: String, caseSensitive: Bool) -> Bool {
        let p = caseSensitive ? Array(pattern) : Array(pattern).map(LinkText.lowercased)
        let s = caseSensitive ? characters : lowercased().characters
        var i = 0, j = 0
        var star: Int? = nil  // the last `*` seen, and where in s it started matching
        var resume = 0
        while j < s.count {
            if i < p.count && (p[i] == "?" || (!varies[j] && p[i] == s[j])) {
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
