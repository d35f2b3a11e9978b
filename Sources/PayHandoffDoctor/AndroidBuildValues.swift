import Foundation

/// What the Android build substitutes into AndroidManifest.xml before the package manager reads
/// it: Gradle's manifest placeholders (`${applicationId}`, `manifestPlaceholders` of
/// build.gradle, replaced by the manifest merger) and resource references (`@string/name`,
/// resolved by aapt2 against the app's `res/values*/` folders).
struct AndroidBuildValues {
    /// A string resource of the default `values/` folder, and the other values qualified
    /// folders (`values-es`, `values-night`) give it.
    struct StringResource {
        var value: String
        var file: String
        var qualified: [(folder: String, value: String)] = []
    }

    /// Placeholder name → value and where it came from.
    var placeholders: [String: (value: String, source: String)] = [:]
    /// String name → resource; empty when no `--android-res` was given.
    var strings: [String: StringResource] = [:]
    /// Whether `--android-res` was given (a missing name is then a real miss, not an unknown).
    var hasResources = false

    /// The resolver for a manifest: `applicationId` (and its legacy name `packageName`) from
    /// `--android-package`, else `<manifest package>`, else Expo's `android.package`, then the
    /// `--manifest-placeholder` values (which may also set `applicationId`).
    /// - Parameters:
    ///   - placeholders: `--manifest-placeholder KEY=VALUE`, in order.
    ///   - applicationId: The applicationId and where it came from, if known.
    ///   - resources: The string resources read from `--android-res`, if given.
    init(placeholders: [(key: String, value: String)], applicationId: (value: String, source: String)?, resources: [String: StringResource]?) {
        if let applicationId {
            self.placeholders["applicationId"] = applicationId
            self.placeholders["packageName"] = applicationId
        }
        for (key, value) in placeholders { self.placeholders[key] = (value, "--manifest-placeholder") }
        strings = resources ?? [:]
        hasResources = resources != nil
    }

    /// `text` as the build resolves it. A resource reference is the whole value
    /// (`@string/name`, followed through `@string/` aliases); placeholders may sit anywhere
    /// (`${applicationId}.auth`), as the manifest merger replaces every `${name}`.
    func resolve(_ text: String) -> BuildValue {
        if text.hasPrefix("@string/") || text.hasPrefix("@android:string/") {
            return resolveResource(text)
        }
        var references: [BuildReference] = []
        var output = ""
        var complete = true
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            output += rest[..<open.lowerBound]
            let name = String(rest[open.upperBound..<close])
            let given = placeholders[name]
            references.append(BuildReference(kind: .manifestPlaceholder, name: name, written: "${\(name)}",
                                             value: given?.value, source: given?.source))
            if let given { output += given.value } else { complete = false }
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return BuildValue(written: text, resolved: complete ? output : nil, references: references)
    }

    private func resolveResource(_ text: String) -> BuildValue {
        var name = String(text.drop { $0 != "/" }.dropFirst())
        var chain: [StringResource] = []
        // aapt2 follows aliases (`<string name="a">@string/b</string>`); a loop is its error, and unresolved here.
        while chain.count < 8, !text.hasPrefix("@android:"), let resource = strings[name] {
            chain.append(resource)
            guard resource.value.hasPrefix("@string/") else { break }
            name = String(resource.value.dropFirst("@string/".count))
        }
        let final = chain.last.flatMap { $0.value.hasPrefix("@") ? nil : $0 }
        let reference = BuildReference(kind: .stringResource, name: String(text.drop { $0 != "/" }.dropFirst()), written: text,
                                       value: final?.value, source: final?.file)
        var notes: [String] = []
        if let final {
            for (folder, value) in final.qualified where value != final.value {
                notes.append("\(folder)/ gives \(text) another value (\"\(value)\"): the package manager reads manifest attributes as non-configuration strings, so which value a device sees is not what doctor can promise; keep link values out of qualified folders")
            }
        } else if hasResources && !text.hasPrefix("@android:") {
            notes.append("\(text) is not in the values/ folders given with --android-res")
        }
        return BuildValue(written: text, resolved: final?.value, references: [reference], notes: notes)
    }

    /// Reads every `values*/` folder of each `res` folder given (`--android-res`, repeatable;
    /// a later folder overrides an earlier one, as a flavor's or build type's `res` overrides
    /// `main`'s). `<string name="…">` and `<item type="string" name="…">` are read with aapt2's
    /// text rules (``decodeResourceText(_:)``).
    /// - Parameter directories: The `res` folders.
    /// - Returns: The strings, and the files that could not be read as `input.readable` errors.
    static func readResources(_ directories: [String]) -> (strings: [String: StringResource], findings: [DoctorFinding]) {
        var strings: [String: StringResource] = [:]
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
            var count = 0
            for folder in folders {
                let path = directory + "/" + folder
                for file in ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter({ $0.hasSuffix(".xml") }).sorted() {
                    let filePath = path + "/" + file
                    var fileFindings: [DoctorFinding] = []
                    guard let root = InputFile.read(filePath, into: &fileFindings, { path throws(InputError) in try InputFile.xml(at: path, root: "resources") }) else {
                        findings += fileFindings
                        continue
                    }
                    for element in root.children where element.name == "string" || (element.name == "item" && element.attributes["type"] == "string") {
                        guard let name = element.attributes["name"] else { continue }
                        let value = decodeResourceText(element.text)
                        count += 1
                        if folder == "values" {
                            strings[name] = StringResource(value: value, file: filePath)
                        } else {
                            qualified[name, default: []].append((folder, value))
                        }
                    }
                }
            }
            findings.append(DoctorFinding(.inputReadable, .ok, file: directory, "read \(count) string resource\(count == 1 ? "" : "s") from \(folders.joined(separator: ", "))"))
        }
        for (name, list) in qualified where strings[name] != nil { strings[name]?.qualified = list }
        return (strings, findings)
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
