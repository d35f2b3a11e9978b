import PayHandoff

/// `payhandoff doctor`: checks an app's real configuration files against the return URL and
/// POS answer scheme it uses, the way Android and iOS will route the links.
///
/// The checks read files with Foundation's parsers (XMLParser, PropertyListSerialization,
/// JSONSerialization) and take the links from the core (``DoctorLinks``), so the rule that
/// decides whether the app receives a callback is the core's own return-URL rule plus the
/// platform's matching. Nothing here ships inside an app.
public enum Doctor {
    /// What to check. Every file is optional; at least a return URL or a POS scheme is needed
    /// for the platform checks to have something to match.
    public struct Input: Sendable {
        /// `android/app/src/main/AndroidManifest.xml` (source or merged; not the compiled one from an APK).
        public var androidManifest: String?
        /// `ios/<App>/Info.plist`, XML or binary.
        public var infoPlist: String?
        /// `ios/<App>/<App>.entitlements` (associated domains for Universal Links).
        public var entitlements: String?
        /// Expo `app.json` or `app.config.json`.
        public var expoConfig: String?
        /// A copy of `https://<host>/.well-known/assetlinks.json`.
        public var assetLinks: String?
        /// A copy of `https://<host>/.well-known/apple-app-site-association`.
        public var appleAppSiteAssociation: String?
        /// The return URL the app sends to the gateway.
        public var returnURL: String?
        /// The `urlScheme` the app sends to the POS app.
        public var posScheme: String?
        /// The Android applicationId (else the manifest's `package`, or Expo's `android.package`).
        public var androidPackage: String?
        /// The SHA-256 fingerprint of the Android signing certificate, to look for in assetlinks.json.
        public var androidCertificateSHA256: String?
        /// `TEAMID.bundle.id`, to look for in apple-app-site-association.
        public var iosAppID: String?

        /// An empty input; set the members to check.
        public init() {}
    }

    /// Runs every check that the input allows.
    /// - Parameter input: The files and links.
    /// - Returns: The report; ``DoctorReport/hasErrors`` when any check failed.
    public static func check(_ input: Input) -> DoctorReport {
        let links = DoctorLinks(returnURL: input.returnURL, posScheme: input.posScheme)
        var findings = links.findings()
        var package = input.androidPackage
        if let path = input.androidManifest {
            let result = AndroidChecks.check(manifestAt: path, links: links)
            findings += result.findings
            package = package ?? result.package
        }
        if let path = input.infoPlist { findings += AppleChecks.check(infoPlistAt: path, links: links) }
        if let path = input.entitlements { findings += AppleChecks.check(entitlementsAt: path, links: links) }
        if let path = input.expoConfig {
            let result = ExpoChecks.check(configAt: path, links: links)
            findings += result.findings
            package = package ?? result.facts.androidPackage
            if links.usesPOS && input.androidManifest == nil && result.facts.readable {
                findings.append(DoctorFinding(.androidQueries, .warning, file: path,
                    "app.json cannot declare <queries> (it takes a config plugin), so the Billpocket app's visibility on Android 11+ is not checked: run npx expo prebuild and pass android/app/src/main/AndroidManifest.xml with --android-manifest"))
            }
        }

        let android = input.androidManifest != nil || input.expoConfig != nil || input.assetLinks != nil
        let apple = input.infoPlist != nil || input.entitlements != nil || input.expoConfig != nil || input.appleAppSiteAssociation != nil
        let web = links.targets.first { $0.role == .callback && $0.isWeb }
        if let path = input.assetLinks {
            if let web {
                findings += AssociationChecks.assetLinks(at: path, link: web, package: package, certificate: input.androidCertificateSHA256)
            } else {
                findings += readable(path)
            }
        } else if let web, android {
            findings.append(DoctorFinding(.androidAssetLinks, .warning, file: nil,
                "not checked: pass a copy of https://\(web.host ?? "")/.well-known/assetlinks.json with --assetlinks"))
        }
        if let path = input.appleAppSiteAssociation {
            if let web {
                findings += AssociationChecks.appleAppSiteAssociation(at: path, link: web, appID: input.iosAppID)
            } else {
                findings += readable(path)
            }
        } else if let web, apple {
            findings.append(DoctorFinding(.iosAASA, .warning, file: nil,
                "not checked: pass a copy of https://\(web.host ?? "")/.well-known/apple-app-site-association with --aasa"))
        }
        if let web, apple, input.entitlements == nil, input.expoConfig == nil {
            findings.append(DoctorFinding(.iosAssociatedDomains, .warning, file: nil,
                "not checked: pass the app's .entitlements file with --entitlements (applinks:\(web.host ?? "") must be in it)"))
        }
        return DoctorReport(links: links, findings: findings, tryCommands: links.tryCommands(androidPackage: package))
    }

    /// `input.readable` for an association file no rule needs (the return URL is not https).
    private static func readable(_ path: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if InputFile.read(path, into: &findings, InputFile.json(at:)) != nil {
            findings.append(DoctorFinding(.inputReadable, .ok, file: path, "read; not used: the return URL is not https"))
        }
        return findings
    }
}

/// The outcome of ``Doctor/check(_:)``: every finding, the links checked and the commands
/// that try them on a device, for people (``text``) and for CI (``json``).
public struct DoctorReport: Sendable {
    /// A command that hands a device or simulator one of the links.
    public struct TryCommand: Equatable, Sendable {
        /// `android` or `ios`.
        public var platform: String
        /// `callback` or `pos_answer`.
        public var link: String
        /// The shell command.
        public var command: String
    }

    /// The links checked.
    public let links: DoctorLinks
    /// Every finding, in the order the checks ran.
    public let findings: [DoctorFinding]
    /// The commands to try the links.
    public let tryCommands: [TryCommand]

    init(links: DoctorLinks, findings: [DoctorFinding], tryCommands: [(platform: String, link: String, command: String)]) {
        self.links = links
        self.findings = findings
        self.tryCommands = tryCommands.map { TryCommand(platform: $0.platform, link: $0.link, command: $0.command) }
    }

    /// How many findings came out as `severity`.
    /// - Parameter severity: The severity to count.
    /// - Returns: The number of findings.
    public func count(_ severity: DoctorSeverity) -> Int { findings.filter { $0.severity == severity }.count }

    /// Whether any check failed (`payhandoff doctor` then exits with status 1).
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// The report as a JSON document (`--json`): `version`, `ok`, `summary`, `links`,
    /// `findings` (`rule`, `severity`, `file`, `message`, `fix`), `try`.
    public var json: JSONValue {
        var summary = JSONObject()
        summary["errors"] = .integer(Int64(count(.error)))
        summary["warnings"] = .integer(Int64(count(.warning)))
        summary["ok"] = .integer(Int64(count(.ok)))
        var linkObject = JSONObject()
        linkObject.setIfPresent("return_url", links.returnURLText.map { .string($0) })
        linkObject.setIfPresent("callback_url", links.callbackURL.map { .string($0) })
        if links.callbackURL != nil { linkObject["sample_nonce"] = .string(links.sampleNonce) }
        linkObject.setIfPresent("pos_scheme", links.posSchemeText.map { .string($0) })
        linkObject.setIfPresent("pos_answer_url", links.posAnswerURL.map { .string($0) })
        let findingValues: [JSONValue] = findings.map { finding in
            var object = JSONObject()
            object["rule"] = .string(finding.rule.rawValue)
            object["severity"] = .string(finding.severity.rawValue)
            object.setIfPresent("file", finding.file.map { .string($0) })
            object["message"] = .string(finding.message)
            object.setIfPresent("fix", finding.fix.map { .string($0) })
            return .object(object)
        }
        let commands: [JSONValue] = tryCommands.map { command in
            .object(["platform": .string(command.platform), "link": .string(command.link), "command": .string(command.command)])
        }
        var document = JSONObject()
        document["version"] = 1
        document["ok"] = .bool(!hasErrors)
        document["summary"] = .object(summary)
        document["links"] = .object(linkObject)
        document["findings"] = .array(findingValues)
        document["try"] = .array(commands)
        return .object(document)
    }

    /// The report for people: the links, the findings grouped by file with their fixes, the
    /// commands to try the links, and a summary line with the exit status.
    public var text: String {
        var lines = ["payhandoff doctor", ""]
        if let returnURL = links.returnURLText { lines.append("  return URL   \(returnURL)") }
        if let callback = links.callbackURL {
            lines.append("  callback     \(callback)")
            lines.append("               (the return URL as the core hands it out, with a sample nonce, plus the gateway's")
            lines.append("               status query: the URL the OS receives and the filters must match)")
        }
        if let answer = links.posAnswerURL { lines.append("  POS answer   \(answer)") }
        var files: [String?] = []
        for finding in findings where !files.contains(where: { $0 == finding.file }) { files.append(finding.file) }
        for file in files {
            lines.append("")
            lines.append(file ?? "return URL and POS scheme")
            for finding in findings where finding.file == file {
                let severity = finding.severity.rawValue.padded(to: 8)
                lines.append("  \(severity) \(finding.rule.rawValue)  \(finding.message)")
                if let fix = finding.fix {
                    let fixLines = fix.split(separator: "\n", omittingEmptySubsequences: false)
                    lines.append("           fix: " + (fixLines.first.map(String.init) ?? ""))
                    for line in fixLines.dropFirst() { lines.append("                " + line) }
                }
            }
        }
        if !tryCommands.isEmpty {
            lines.append("")
            lines.append("try the links on a device or simulator")
            for command in tryCommands {
                lines.append("  " + command.command)
            }
        }
        lines.append("")
        let errors = count(.error), warnings = count(.warning)
        lines.append("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"), \(count(.ok)) ok: exit status \(hasErrors ? 1 : 0)")
        return lines.joined(separator: "\n")
    }
}

private extension String {
    func padded(to length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
