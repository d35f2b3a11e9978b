import Foundation

/// What the Android build substitutes into AndroidManifest.xml before the package manager reads
/// it: Gradle's manifest placeholders (`${applicationId}`, `manifestPlaceholders` of
/// build.gradle, replaced by the manifest merger) and resource references (`@string/name`,
/// `@integer/name`, `@bool/name`, resolved against the app's `res/values*/` folders: aapt2
/// links the reference, and the package manager reads its value for the device's
/// configuration when it parses the installed app).
struct AndroidBuildValues {
    /// A value resource (`string`, `integer`, `bool`) of the default `values/` folder, the
    /// values `values-vNN/` folders give it from API level NN on, and the values other
    /// qualified folders (`values-es`, `values-night`) give it.
    struct Resource {
        var value: String
        var file: String
        var byAPILevel: [BuildValue.APILevelValue] = []
        var qualified: [(folder: String, value: String)] = []
    }

    /// The resource types a manifest attribute can refer to that doctor reads: the text of
    /// `@string/`, the numbers of `@integer/` (`launchMode` is an enum whose values are
    /// integers: attrs_manifest.xml) and the `true`/`false` of `@bool/` (`exported`,
    /// `enabled`, `autoVerify`).
    static let resourceTypes = ["string", "integer", "bool"]

    /// Placeholder name → value and where it came from.
    var placeholders: [String: (value: String, source: String)] = [:]
    /// `type/name` (`string/oauth_scheme`, `integer/launchModeAPIlevel`) → resource; empty when
    /// no `--android-res` was given.
    var resources: [String: Resource] = [:]
    /// Whether `--android-res` was given (a missing name is then a real miss, not an unknown).
    var hasResources = false

    /// The resolver for a manifest: `applicationId` (and its legacy name `packageName`) from
    /// `--android-package`, else `<manifest package>`, else Expo's `android.package`, then the
    /// `--manifest-placeholder` values (which may also set `applicationId`).
    /// - Parameters:
    ///   - placeholders: `--manifest-placeholder KEY=VALUE`, in order.
    ///   - applicationId: The applicationId and where it came from, if known.
    ///   - resources: The value resources read from `--android-res`, if given.
    init(placeholders: [(key: String, value: String)], applicationId: (value: String, source: String)?, resources: [String: Resource]?) {
        if let applicationId {
            self.placeholders["applicationId"] = applicationId
            self.placeholders["packageName"] = applicationId
        }
        for (key, value) in placeholders { self.placeholders[key] = (value, "--manifest-placeholder") }
        self.resources = resources ?? [:]
        hasResources = resources != nil
    }

    /// The type and name of a resource reference (`@string/name`, `@android:integer/name`).
    static func reference(_ text: String) -> (type: String, name: String, framework: Bool)? {
        guard text.hasPrefix("@"), let slash = text.firstIndex(of: "/") else { return nil }
        var type = text[text.index(after: text.startIndex)..<slash]
        let framework = type.hasPrefix("android:")
        if framework { type = type.dropFirst("android:".count) }
        guard resourceTypes.contains(String(type)) else { return nil }
        return (String(type), String(text[text.index(after: slash)...]), framework)
    }

    /// `text` as the build resolves it. A resource reference is the whole value
    /// (`@string/name`, `@integer/name`, `@bool/name`, followed through aliases to the same
    /// type); placeholders may sit anywhere (`${applicationId}.auth`), as the manifest merger
    /// replaces every `${name}`.
    func resolve(_ text: String) -> BuildValue {
        if let reference = AndroidBuildValues.reference(text) {
            return resolveResource(text, type: reference.type, name: reference.name, framework: reference.framework)
        }
        var references: [BuildReference] = []
        var pieces: [BuildValue.Piece] = []
        var output = ""
        var complete = true
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            output += rest[..<open.lowerBound]
            pieces.append(.text(String(rest[..<open.lowerBound])))
            let name = String(rest[open.upperBound..<close])
            let given = placeholders[name]
            let reference = BuildReference(kind: .manifestPlaceholder, name: name, written: "${\(name)}",
                                           value: given?.value, source: given?.source)
            references.append(reference)
            if let given {
                output += given.value
                pieces.append(.text(given.value))
            } else {
                complete = false
                pieces.append(.unknown(reference))
            }
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        pieces.append(.text(String(rest)))
        return BuildValue(written: text, resolved: complete ? output : nil, references: references,
                          pieces: complete ? nil : pieces.filter { $0 != .text("") })
    }

    private func resolveResource(_ text: String, type: String, name: String, framework: Bool) -> BuildValue {
        var key = type + "/" + name
        var chain: [Resource] = []
        // aapt2 follows aliases (`<integer name="a">@integer/b</integer>`); a loop is its error, and unresolved here.
        while chain.count < 8, !framework, let resource = resources[key] {
            chain.append(resource)
            guard resource.value.hasPrefix("@" + type + "/") else { break }
            key = type + "/" + String(resource.value.dropFirst(type.count + 2))
        }
        let final = chain.last.flatMap { $0.value.hasPrefix("@") ? nil : $0 }
        let reference = BuildReference(kind: .resource(type), name: name, written: text, value: final?.value, source: final?.file)
        var notes: [String] = []
        if let final {
            for (folder, value) in final.qualified where value != final.value {
                notes.append("\(folder)/ gives \(text) another value (\"\(value)\"): the package manager reads manifest attributes as non-configuration strings, so which value a device sees is not what doctor can promise; keep link values out of qualified folders")
            }
        } else if hasResources && !framework {
            notes.append("\(text) is not in the values/ folders given with --android-res (a value build.gradle sets with resValue is not under res/: the build writes it to app/build/generated/res/resValues/<variant>/; pass that folder with --android-res too)")
        }
        return BuildValue(written: text, resolved: final?.value, references: [reference], notes: notes, byAPILevel: final?.byAPILevel ?? [])
    }

    /// The API level of a `values-vNN` folder (only the version qualifier), else `nil`: the
    /// "Platform Version (API level)" qualifier of developer.android.com/guide/topics/resources/
    /// providing-resources, which selects a value on devices of that level and later.
    static func apiLevel(ofFolder folder: String) -> Int? {
        guard folder.hasPrefix("values-v"), let level = Int(folder.dropFirst("values-v".count)) else { return nil }
        return level
    }

    /// Reads every `values*/` folder of each `res` folder given (`--android-res`, repeatable;
    /// a later folder overrides an earlier one, as a flavor's or build type's `res` overrides
    /// `main`'s). `<string>`, `<integer>`, `<bool>` and `<item type="…">` of those types are
    /// read, strings with aapt2's text rules (``decodeResourceText(_:)``). A `values-vNN/`
    /// folder gives a value from API level NN on (the package manager resolves manifest
    /// resources with the device's SDK level); other qualified folders are kept as notes.
    /// - Parameter directories: The `res` folders.
    /// - Returns: The resources by `type/name`, and the files that could not be read as
    ///   `input.readable` errors.
    static func readResources(_ directories: [String]) -> (resources: [String: Resource], findings: [DoctorFinding]) {
        var resources: [String: Resource] = [:]
        var byLevel: [String: [BuildValue.APILevelValue]] = [:]
        var qualified: [String: [(folder: String, value: String)]] = [:]
        var findings: [DoctorFinding] = []
        for directory in directories {
            let manager = FileManager.default
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                findings.append(DoctorFinding(.inputReadable, .error, file: directory, "\(directory): no such folder (--android-res takes a res folder, e.g. app/src/main/res)"))
                continue
            }
            let folders = ((try? manager.contentsOfDirectory(atPath: directory)) ?? []).filter { $0 == "values" || $0.hasPrefix("values-") }.sorted()
            guard folders.contains("values") else {
                findings.append(DoctorFinding(.inputReadable, .error, file: directory, "\(directory): has no values/ folder: --android-res takes the res folder that holds values/strings.xml"))
                continue
            }
            var counts: [String: Int] = [:]
            for folder in folders {
                let path = directory + "/" + folder
                for file in ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter({ $0.hasSuffix(".xml") }).sorted() {
                    let filePath = path + "/" + file
                    var fileFindings: [DoctorFinding] = []
                    guard let root = InputFile.read(filePath, into: &fileFindings, { path throws(InputError) in try InputFile.xml(at: path, root: "resources") }) else {
                        findings += fileFindings
                        continue
                    }
                    for element in root.children {
                        let type = element.name == "item" ? element.attributes["type"] ?? "" : element.name
                        guard resourceTypes.contains(type), let name = element.attributes["name"] else { continue }
                        let value = type == "string" ? decodeResourceText(element.text) : element.text.trimmingCharacters(in: .whitespacesAndNewlines)
                        let key = type + "/" + name
                        counts[type, default: 0] += 1
                        if folder == "values" {
                            resources[key] = Resource(value: value, file: filePath)
                        } else if let level = apiLevel(ofFolder: folder) {
                            byLevel[key, default: []].append(BuildValue.APILevelValue(level: level, value: value, file: filePath))
                        } else {
                            qualified[key, default: []].append((folder, value))
                        }
                    }
                }
            }
            let read = resourceTypes.compactMap { type in counts[type].map { "\($0) \(type)\($0 == 1 ? "" : "s")" } }
            findings.append(DoctorFinding(.inputReadable, .ok, file: directory, "read \(read.isEmpty ? "no value resources" : read.joined(separator: ", ")) from \(folders.joined(separator: ", "))"))
        }
        for (key, list) in qualified where resources[key] != nil { resources[key]?.qualified = list }
        for (key, list) in byLevel {
            // A later --android-res folder's value for the same level wins, as its default value does.
            var levels: [Int: BuildValue.APILevelValue] = [:]
            for value in list { levels[value.level] = value }
            let sorted = levels.values.sorted { $0.level < $1.level }
            if resources[key] != nil {
                resources[key]?.byAPILevel = sorted
            } else if let first = sorted.first {
                // Only versioned folders define it: below the first level it does not exist;
                // doctor takes the lowest one as the value.
                resources[key] = Resource(value: first.value, file: first.file, byAPILevel: Array(sorted.dropFirst()))
            }
        }
        return (resources, findings)
    }

    /// A string resource's text as aapt2 compiles it: a value in double quotes is kept as
    /// written; otherwise runs of white space become one space and the ends are trimmed; then
    /// the escapes `\'` `\"` `\\` `\@` `\?` `\n` `\t` `\uXXXX` are decoded.
    static func decodeResourceText(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let source: String
        if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
            source = String(trimmed.dropFirst().dropLast())
        } else {
            source = trimmed.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }
        var output = ""
        let characters = Array(source)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            guard character == "\\", index < characters.count else {
                output.append(character)
                continue
            }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "n": output.append("\n")
            case "t": output.append("\t")
            case "u" where index + 4 <= characters.count:
                if let scalar = UInt32(String(characters[index..<index + 4]), radix: 16).flatMap(Unicode.Scalar.init) {
                    output.unicodeScalars.append(scalar)
                    index += 4
                } else {
                    output.append("u")
                }
            default: output.append(escaped)
            }
        }
        return output
    }
}
