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
        /// `TEAMID.bundle.id`, to look for in apple-app-site-association (its bundle part is
        /// also `$(PRODUCT_BUNDLE_IDENTIFIER)` unless a build setting says otherwise).
        public var iosAppID: String?
        /// Gradle manifest placeholders (`manifestPlaceholders` of build.gradle), for `${name}` in the manifest.
        public var manifestPlaceholders: [String: String] = [:]
        /// `res` folders whose `values*/` string resources resolve `@string/name` in the manifest
        /// (a later folder overrides an earlier one, as a flavor's overrides `main`'s).
        public var androidResources: [String] = []
        /// Xcode build settings, for `$(NAME)` and `${NAME}` in Info.plist, the entitlements and Expo's `ios.infoPlist`.
        public var buildSettings: [String: String] = [:]
        /// The app's targetSdkVersion (in build.gradle); wins over `<uses-sdk>`.
        public var targetSDK: Int?
        /// How the app opens the checkout and gets the return (`--return-channel`, repeatable:
        /// an app may use Auth Tab on Android and ASWebAuthenticationSession on iOS).
        public var returnChannels: [ReturnChannel] = []
        /// The hosts of the checkout URLs the app opens (`--checkout-host`, repeatable).
        public var checkoutHosts: [String] = []
        /// The POS apps the app hands sales to (`--pos-app`, repeatable or comma-separated):
        /// each must be visible to the app (Android `<queries>`, iOS `LSApplicationQueriesSchemes`).
        /// Empty: Billpocket when a POS answer scheme is given (what doctor checked before
        /// issue 39), else none.
        public var posApps: [POSApp] = []

        /// The POS apps whose visibility is checked: ``posApps``, else Billpocket when
        /// ``posScheme`` is given.
        public var checkedPOSApps: [POSApp] {
            if !posApps.isEmpty { return posApps }
            return posScheme == nil ? [] : [.billpocket]
        }

        /// An empty input; set the members to check.
        public init() {}
    }

    /// Runs every check that the input allows.
    /// - Parameter input: The files and links.
    /// - Returns: The report; ``DoctorReport/hasErrors`` when any check failed.
    public static func check(_ input: Input) -> DoctorReport {
        let links = DoctorLinks(returnURL: input.returnURL, posScheme: input.posScheme)
        var findings = links.findings()
        var sources: [String: FixDiff.Source] = [:]
        let expoFacts = input.expoConfig.map(ExpoChecks.facts(configAt:)) ?? ExpoChecks.Facts()
        var package = input.androidPackage
        let buildSettings = input.buildSettings.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        var resources: [String: AndroidBuildValues.Resource]? = nil
        if !input.androidResources.isEmpty {
            let read = AndroidBuildValues.readResources(input.androidResources)
            findings += read.findings
            resources = read.resources
        }
        if let path = input.androidManifest {
            let build = AndroidBuildInputs(
                placeholders: input.manifestPlaceholders.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) },
                androidPackage: input.androidPackage, expoPackage: expoFacts.androidPackage, resources: resources, targetSDK: input.targetSDK)
            let result = AndroidChecks.check(manifestAt: path, links: links, build: build, checkoutHosts: input.checkoutHosts, posApps: input.checkedPOSApps)
            findings += result.findings
            package = package ?? result.package
            if let contents = result.contents { sources[path] = FixDiff.Source(bytes: contents, kind: .xml(root: "manifest")) }
        }
        // $(PRODUCT_BUNDLE_IDENTIFIER): a build setting given, else --ios-app-id's bundle part, else Expo's.
        let bundleIdentifier: (value: String, source: String)? = input.iosAppID.flatMap { id in
            id.firstIndex(of: ".").map { (String(id[id.index(after: $0)...]), "--ios-app-id") }
        } ?? expoFacts.bundleIdentifier.map { ($0, "Expo ios.bundleIdentifier") }
        let apple = AppleBuildValues(settings: buildSettings, bundleIdentifier: bundleIdentifier)
        if let path = input.infoPlist {
            let result = AppleChecks.check(infoPlistAt: path, links: links, build: apple, posApps: input.checkedPOSApps)
            findings += result.findings
            if let contents = result.contents { sources[path] = FixDiff.Source(bytes: contents, kind: .propertyList) }
        }
        if let path = input.entitlements {
            let result = AppleChecks.check(entitlementsAt: path, links: links, build: apple, webCredentials: input.returnChannels.contains(.webAuthenticationSession))
            findings += result.findings
            if let contents = result.contents { sources[path] = FixDiff.Source(bytes: contents, kind: .propertyList) }
        }
        if let path = input.expoConfig {
            let result = ExpoChecks.check(configAt: path, links: links, hasManifest: input.androidManifest != nil, buildSettings: buildSettings,
                                          webCredentials: input.returnChannels.contains(.webAuthenticationSession), checkoutHosts: input.checkoutHosts,
                                          posApps: input.checkedPOSApps)
            findings += result.findings
            package = package ?? result.facts.androidPackage
            if let contents = result.contents { sources[path] = FixDiff.Source(bytes: contents, kind: .json) }
        }

        let usesAndroid = input.androidManifest != nil || input.expoConfig != nil || input.assetLinks != nil
        let usesApple = input.infoPlist != nil || input.entitlements != nil || input.expoConfig != nil || input.appleAppSiteAssociation != nil
        let web = links.targets.first { $0.role == .callback && $0.isWeb }
        if let path = input.assetLinks {
            if let web {
                let result = AssociationChecks.assetLinks(at: path, link: web, package: package, certificate: input.androidCertificateSHA256)
                findings += result.findings
                if let contents = result.contents { sources[path] = FixDiff.Source(bytes: contents, kind: .json) }
            } else {
                findings += readable(path)
            }
        } else if let web, usesAndroid {
            findings.append(DoctorFinding(.androidAssetLinks, .warning, file: nil,
                "not checked: pass a copy of https://\(web.host ?? "")/.well-known/assetlinks.json with --assetlinks"))
        }
        if let path = input.appleAppSiteAssociation {
            if let web {
                let result = AssociationChecks.appleAppSiteAssociation(at: path, link: web, appID: input.iosAppID)
                findings += result.findings
                if let contents = result.contents { sources[path] = FixDiff.Source(bytes: contents, kind: .json) }
            } else {
                findings += readable(path)
            }
        } else if let web, usesApple {
            findings.append(DoctorFinding(.iosAASA, .warning, file: nil,
                "not checked: pass a copy of https://\(web.host ?? "")/.well-known/apple-app-site-association with --aasa"))
        }
        if let web, input.returnChannels.contains(.authTab) {
            findings.append(AssociationChecks.authTab(link: web, assetLinks: input.assetLinks, findings: findings))
        }
        if let web, input.returnChannels.contains(.webAuthenticationSession) {
            if let path = input.appleAppSiteAssociation {
                findings += AssociationChecks.webCredentials(at: path, link: web, appID: input.iosAppID)
            } else {
                findings.append(DoctorFinding(.iosWebCredentials, .warning, file: nil,
                    "not checked: pass a copy of https://\(web.host ?? "")/.well-known/apple-app-site-association with --aasa (its webcredentials.apps must list the app)"))
            }
            if input.entitlements == nil && input.expoConfig == nil {
                findings.append(DoctorFinding(.iosWebCredentials, .warning, file: nil,
                    "not checked: pass the app's .entitlements file with --entitlements (webcredentials:\(web.host ?? "") must be in it)"))
            }
        }
        if let web, usesApple, input.entitlements == nil, input.expoConfig == nil {
            findings.append(DoctorFinding(.iosAssociatedDomains, .warning, file: nil,
                "not checked: pass the app's .entitlements file with --entitlements (applinks:\(web.host ?? "") must be in it)"))
        }
        return DoctorReport(links: links, findings: findings, tryCommands: links.tryCommands(androidPackage: package), sources: sources,
                            posApps: input.posApps)
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

    /// The POS apps named with `--pos-app` (empty when none was: then Billpocket is checked
    /// when a POS scheme is given, as before issue 39).
    public let posApps: [POSApp]

    /// The files read, for the fixes' diff.
    let sources: [String: FixDiff.Source]

    init(links: DoctorLinks, findings: [DoctorFinding], tryCommands: [(platform: String, link: String, command: String)], sources: [String: FixDiff.Source] = [:],
         posApps: [POSApp] = []) {
        self.posApps = posApps
        self.links = links
        self.findings = findings
        self.tryCommands = tryCommands.map { TryCommand(platform: $0.platform, link: $0.link, command: $0.command) }
        self.sources = sources
    }

    /// Every fix that can be written into its file, as a unified diff against the files as
    /// given (`--fix-diff`; apply it with `patch -p0` from the directory doctor ran in), and
    /// notes on files whose fixes could not be written so. Warnings' fixes are included;
    /// fixes that need a choice (which activity keeps a link, which query scheme goes) are not.
    public var fixDiff: (diff: String, notes: [String]) { FixDiff.make(findings: findings, sources: sources) }

    /// How many findings came out as `severity`.
    /// - Parameter severity: The severity to count.
    /// - Returns: The number of findings.
    public func count(_ severity: DoctorSeverity) -> Int { findings.filter { $0.severity == severity }.count }

    /// Whether any check failed (`payhandoff doctor` then exits with status 1).
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// The report as a JSON document (`--json`): `version`, `ok`, `summary`, `links` (with
    /// `pos_apps` when `--pos-app` named them),
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
        if !posApps.isEmpty { linkObject["pos_apps"] = .array(posApps.map { .string($0.rawValue) }) }
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
        if !posApps.isEmpty { lines.append("  POS apps     " + posApps.map { $0.rawValue }.joined(separator: ", ") + "  (each must be visible to the app: <queries>, LSApplicationQueriesSchemes)") }
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
