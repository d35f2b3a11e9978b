/// A reference inside a configuration value that the build replaces before the OS reads the
/// file: a Gradle manifest placeholder (`${applicationId}`), an Android value resource
/// (`@string/oauth_scheme`, `@integer/launchModeAPIlevel`, `@bool/links_enabled`) or an Xcode
/// build setting (`$(PRODUCT_BUNDLE_IDENTIFIER)`).
struct BuildReference: Equatable {
    enum Kind: Equatable {
        case manifestPlaceholder
        /// A resource of the type named (`string`, `integer`, `bool`).
        case resource(String)
        case buildSetting
    }

    var kind: Kind
    /// `applicationId`, `oauth_scheme`, `PRODUCT_BUNDLE_IDENTIFIER`.
    var name: String
    /// As written in the file: `${applicationId}`, `@string/oauth_scheme`, `$(NAME:lower)`.
    var written: String
    /// What the build puts there, when doctor was told; `nil` otherwise.
    var value: String?
    /// Where the value came from (`--android-package`, `<manifest package>`, `res/values/strings.xml`).
    var source: String?

    /// The command-line option that gives the value.
    var option: String {
        switch kind {
        case .manifestPlaceholder: return name == "applicationId" || name == "packageName" ? "--android-package" : "--manifest-placeholder"
        case .resource: return "--android-res"
        case .buildSetting: return "--build-setting"
        }
    }

    /// How to give the value: the option with its argument and where the value is found.
    var flag: String {
        switch kind {
        case .manifestPlaceholder:
            return option == "--android-package" ? "--android-package ID (the applicationId in build.gradle)"
                : "--manifest-placeholder \(name)=VALUE (manifestPlaceholders in build.gradle)"
        case .resource:
            return "--android-res app/src/main/res (the folder that holds values/; a value build.gradle sets with resValue is in app/build/generated/res/resValues/<variant>/, not under res/)"
        case .buildSetting:
            return "--build-setting \(name)=VALUE (the target's build setting in Xcode)"
        }
    }
}

/// A value as written in a file and as the build resolves it.
///
/// A literal resolves to itself. A value with references resolves when every reference has a
/// value; otherwise ``resolved`` is `nil` and the checks treat the value as possibly anything:
/// a filter or a URL type whose deciding value is unresolved *possibly* receives the link (a
/// warning naming the reference and the flag that would resolve it), never an error.
struct BuildValue: Equatable {
    /// A run of a value as the build writes it: text it knows, or a reference without a value.
    enum Piece: Equatable {
        case text(String)
        case unknown(BuildReference)
    }

    /// A value a resource gives from some API level on (a `values-vNN/` folder), when it
    /// differs from the default `values/` one: the package manager resolves manifest resources
    /// with the device's SDK level, so each range of devices sees its own.
    struct APILevelValue: Equatable {
        var level: Int
        var value: String
        var file: String
    }

    /// The text in the file.
    var written: String
    /// The text after the build's substitutions; `nil` when a reference has no value.
    var resolved: String?
    /// Every reference in ``written``, resolved or not.
    var references: [BuildReference] = []
    /// What could make the resolved value wrong (a qualified resource folder that gives another value).
    var notes: [String] = []
    /// The value as runs of known text and unknown references, in order: the literal text
    /// around an unresolved reference still decides (`ShareMedia-$(PRODUCT_BUNDLE_IDENTIFIER)`
    /// is never `im.fluffychat.auth`, whatever the setting is).
    var pieces: [Piece] = []
    /// The values `values-vNN/` folders give from API level NN on (the default `values/`
    /// one is ``resolved``), lowest level first.
    var byAPILevel: [APILevelValue] = []

    init(written: String, resolved: String?, references: [BuildReference] = [], notes: [String] = [], pieces: [Piece]? = nil, byAPILevel: [APILevelValue] = []) {
        self.written = written
        self.resolved = resolved
        self.references = references
        self.notes = notes
        self.byAPILevel = byAPILevel
        if let pieces {
            self.pieces = pieces
        } else if let resolved {
            self.pieces = [.text(resolved)]
        } else {
            self.pieces = references.filter { $0.value == nil }.map { .unknown($0) }
        }
    }

    /// A value with no references: it is what it says.
    static func literal(_ text: String) -> BuildValue { BuildValue(written: text, resolved: text) }

    /// The value on devices of each API level range, when a `values-vNN/` folder changes it
    /// (empty when every device sees ``resolved``): `from: nil` is the default folder's, below
    /// the first level that differs; `to` is the first level of the next range.
    var perAPILevel: [(from: Int?, to: Int?, value: String, file: String?)] {
        guard let resolved else { return [] }
        var ranges: [(from: Int?, to: Int?, value: String, file: String?)] = [(nil, nil, resolved, references.last?.source)]
        for level in byAPILevel where level.value != ranges[ranges.count - 1].value {
            ranges[ranges.count - 1].to = level.level
            ranges.append((level.level, nil, level.value, level.file))
        }
        return ranges.count > 1 ? ranges : []
    }

    /// Whether the value is written out in the file (no placeholder, resource or build setting).
    var isLiteral: Bool { references.isEmpty }

    /// The references that have no value.
    var unresolved: [BuildReference] { references.filter { $0.value == nil } }

    /// `"${applicationId}" (com.fix.app, from --android-package)`, or the literal in quotes.
    var described: String {
        guard !isLiteral else { return "\"\(written)\"" }
        guard let resolved else { return "\"\(written)\" (not resolved)" }
        let sources = references.compactMap { $0.source }
        return "\"\(written)\" (\(resolved)\(sources.isEmpty ? "" : ", from " + sources.joined(separator: ", ")))"
    }
}

/// Something that makes a match undecidable, and what would decide it.
struct Undecided: Equatable {
    /// What doctor could not evaluate: `${appAuthRedirectScheme}`, `pathAdvancedPattern "/cb/[0-9]+"`.
    var what: String
    /// The option that would decide it (`--manifest-placeholder`), if one would.
    var option: String?
    /// How to decide it: the option with its argument, or how to try the link instead.
    var resolveBy: String

    init(what: String, option: String? = nil, resolveBy: String) {
        self.what = what
        self.option = option
        self.resolveBy = resolveBy
    }

    init(_ reference: BuildReference) {
        self.init(what: reference.written, option: reference.option, resolveBy: reference.flag)
    }

    /// "${a} (--manifest-placeholder), @string/b (--android-res)", without repeats.
    static func describe(_ list: [Undecided]) -> String {
        var seen: [Undecided] = []
        for item in list where !seen.contains(item) { seen.append(item) }
        return seen.map { $0.what + ($0.option.map { " (\($0))" } ?? "") }.joined(separator: ", ")
    }
}

/// A three-valued answer: the platform would match, would not, or doctor cannot tell because a
/// value is unresolved (`possibly`). Combining follows Kleene's logic, so an unresolved value
/// decides only where a resolved one does not.
enum Tri: Equatable {
    case yes
    case no
    case possibly([Undecided])

    /// `yes` if any is; else `possibly` (all the reasons) if any is; else `no`.
    static func any(_ values: [Tri]) -> Tri {
        if values.contains(.yes) { return .yes }
        let open = values.flatMap { value -> [Undecided] in if case .possibly(let why) = value { return why } else { return [] } }
        return values.contains(where: { if case .possibly = $0 { return true } else { return false } }) ? .possibly(open) : .no
    }

    /// `no` if any is; else `possibly` if any is; else `yes`.
    static func all(_ values: [Tri]) -> Tri {
        if values.contains(.no) { return .no }
        let open = values.flatMap { value -> [Undecided] in if case .possibly(let why) = value { return why } else { return [] } }
        return values.contains(where: { if case .possibly = $0 { return true } else { return false } }) ? .possibly(open) : .yes
    }

    var isYes: Bool { self == .yes }
    var isNo: Bool { self == .no }
    var undecided: [Undecided] { if case .possibly(let why) = self { return why } else { return [] } }
}

extension DoctorFinding {
    /// The warning for a check that depends on values doctor could not resolve: `claim`
    /// ("CFBundleURLSchemes possibly registers myapp"), what it depends on, and the flags that
    /// would decide it (the fix).
    static func undecided(_ rule: DoctorRule, file: String?, _ claim: String, _ why: [Undecided]) -> DoctorFinding {
        var flags: [String] = []
        for item in why where !flags.contains(item.resolveBy) { flags.append(item.resolveBy) }
        let given = why.contains { $0.option != nil }
        return DoctorFinding(rule, .warning, file: file, "\(claim): it depends on \(Undecided.describe(why))",
                             fix: (given ? "give doctor the values: " : "") + flags.joined(separator: "; "))
    }
}
