/// What Xcode substitutes into Info.plist and the entitlements when it builds the app: build
/// settings written `$(NAME)` or `${NAME}`, optionally with operators (`$(NAME:lower)`), as
/// Xcode's "Info.plist preprocessing" of build settings does (Xcode Help, "Build settings
/// reference": "Evaluating build settings"; the operators are those of `xcodebuild -showBuildSettings`).
struct AppleBuildValues {
    /// Setting name → value and where it came from.
    var settings: [String: (value: String, source: String)] = [:]

    /// - Parameters:
    ///   - settings: `--build-setting KEY=VALUE`, in order.
    ///   - bundleIdentifier: The bundle identifier and where it came from (`--ios-app-id`'s
    ///     part after the team ID, or Expo's `ios.bundleIdentifier`): the value of
    ///     `PRODUCT_BUNDLE_IDENTIFIER` unless a build setting gives it.
    init(settings: [(key: String, value: String)], bundleIdentifier: (value: String, source: String)?) {
        if let bundleIdentifier { self.settings["PRODUCT_BUNDLE_IDENTIFIER"] = bundleIdentifier }
        for (key, value) in settings { self.settings[key] = (value, "--build-setting") }
    }

    /// `text` with every `$(NAME[:op,…])` and `${NAME[:op,…]}` replaced. A setting whose value
    /// refers to other settings is expanded too (at most 8 levels deep).
    func resolve(_ text: String) -> BuildValue { resolve(text, depth: 0) }

    private func resolve(_ text: String, depth: Int) -> BuildValue {
        var references: [BuildReference] = []
        var output = ""
        var complete = true
        // The known text between unresolved settings, for ``BuildValue/pieces``.
        var pieces: [BuildValue.Piece] = []
        var literal = ""
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let close: Character? = index + 1 < characters.count && character == "$"
                ? (characters[index + 1] == "(" ? ")" : characters[index + 1] == "{" ? "}" : nil) : nil
            guard let close, let end = characters[(index + 2)...].firstIndex(of: close) else {
                output.append(character)
                literal.append(character)
                index += 1
                continue
            }
            let written = String(characters[index...end])
            let inner = String(characters[(index + 2)..<end])
            let parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
            let name = parts.first ?? ""
            let operators = parts.count > 1 ? parts[1].split(separator: ",").map(String.init) : []
            var value: String? = nil
            var source: String? = nil
            if let given = settings[name], depth < 8 {
                let expanded = resolve(given.value, depth: depth + 1)
                value = expanded.resolved.flatMap { AppleBuildValues.apply(operators, to: $0) }
                source = given.source
                references += expanded.references
            } else if let fallback = operators.first(where: { $0.hasPrefix("default=") }) {
                value = String(fallback.dropFirst("default=".count))
                source = "its :default= operator"
            }
            let reference = BuildReference(kind: .buildSetting, name: name, written: written, value: value, source: source)
            references.append(reference)
            if let value {
                output += value
                literal += value
            } else {
                complete = false
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
                pieces.append(.unknown(reference))
            }
            index = end + 1
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return BuildValue(written: text, resolved: complete ? output : nil, references: references, pieces: complete ? nil : pieces)
    }

    /// Xcode's build-setting operators: `lower`, `upper`, `rfc1034identifier` (characters other
    /// than letters, digits, `-` and `.` become `-`), `c99extidentifier` / `identifier`
    /// (other than letters, digits and `_` become `_`, a leading digit gets `_`), `default=`
    /// (only for an empty value). An unknown operator leaves the value unresolved.
    static func apply(_ operators: [String], to value: String) -> String? {
        var value = value
        for op in operators {
            switch op {
            case "lower": value = value.lowercased()
            case "upper": value = value.uppercased()
            case "rfc1034identifier":
                value = String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
            case "c99extidentifier", "identifier":
                value = String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
                if value.first?.isNumber == true { value = "_" + value }
            case let op where op.hasPrefix("default="):
                if value.isEmpty { value = String(op.dropFirst("default=".count)) }
            default:
                return nil
            }
        }
        return value
    }
}
