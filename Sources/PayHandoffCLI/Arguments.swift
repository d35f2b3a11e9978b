import PayHandoff

/// The command line, parsed by hand (no outside packages): positional words and `--name value`
/// / `--name=value` options, plus `--flag` switches. Only names the command declares are
/// accepted, so a typo is a usage error rather than an ignored option.
struct Arguments: Equatable {
    /// Positional words in order.
    var positional: [String] = []
    /// Options with a value; repeatable ones keep every value in order.
    var options: [String: [String]] = [:]
    /// Switches that were given.
    var flags: Set<String> = []

    /// A usage error: exit status 2.
    struct UsageError: Error, Equatable {
        var message: String
    }

    /// Parses `words`.
    /// - Parameters:
    ///   - words: The arguments after the command words.
    ///   - valued: Option names (without `--`) that take a value.
    ///   - switches: Option names that take none (`--json`, `--help` are always allowed).
    /// - Throws: ``UsageError`` for an unknown option or a missing value.
    init(_ words: [String], valued: Set<String>, switches: Set<String> = []) throws(UsageError) {
        let allSwitches = switches.union(["json", "help"])
        var index = 0
        var onlyPositional = false
        while index < words.count {
            let word = words[index]
            index += 1
            guard !onlyPositional, word.hasPrefix("--"), word.count > 2 else {
                if word == "--" && !onlyPositional { onlyPositional = true } else { positional.append(word) }
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String? = nil
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if allSwitches.contains(name) {
                guard value == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard index < words.count else { throw UsageError(message: "--\(name) needs a value") }
                    value = words[index]
                    index += 1
                }
                options[name, default: []].append(value ?? "")
            } else {
                throw UsageError(message: "unknown option --\(name)")
            }
        }
    }

    /// The last value of `name`, if given.
    func value(_ name: String) -> String? { options[name]?.last }

    /// The value of `name`, which the command needs.
    /// - Throws: ``UsageError`` when missing.
    func required(_ name: String) throws(UsageError) -> String {
        guard let value = value(name) else { throw UsageError(message: "--\(name) is required") }
        return value
    }

    /// Whether `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The `field` of a ``PayHandoffError`` that is a usage error (exit status 2): commands throw
    /// one error type, and `run` tells the two apart by it.
    static let usageField = "usage"

    /// A usage error as a ``PayHandoffError``.
    /// - Parameter message: What is wrong with the command line.
    /// - Returns: The error (`invalid_argument`, field ``usageField``).
    static func usageError(_ message: String) -> PayHandoffError {
        PayHandoffError(.invalidArgument, field: usageField, message)
    }

    /// The value of `name`, which the command needs.
    /// - Throws: ``usageError(_:)`` when missing.
    func requiredOption(_ name: String) throws(PayHandoffError) -> String {
        guard let value = value(name) else { throw Arguments.usageError("--\(name) is required") }
        return value
    }

    /// The only positional word.
    /// - Parameter what: What it is, for the error message.
    /// - Throws: ``UsageError`` unless exactly one was given.
    func single(_ what: String) throws(UsageError) -> String {
        guard positional.count == 1 else {
            throw UsageError(message: positional.isEmpty ? "\(what) is required" : "expected one \(what), got \(positional.count) words")
        }
        return positional[0]
    }
}
