import Foundation
import XCTest
import PayHandoff
@testable import PayHandoffDoctor

/// `--fix-diff` is safe to apply: for every failing fixture of DoctorRuleTests whose fix can be
/// written into its file, the diff `payhandoff doctor --fix-diff` prints is applied with
/// `patch -p0`, and then
///
/// 1. the rule passes on that file;
/// 2. no rule that passed on that file fails, and none fails worse;
/// 3. every scheme, host and path the file matched before (probed on the file's own schemes,
///    hosts and paths, and on the links) still reaches what it reached.
///
/// The fixtures whose fix is not a diff say why (`Case.noDiff`), and their failing findings
/// carry no edits.
final class DoctorFixDiffTests: DoctorTestCase {
    /// The fingerprint of the good assetlinks.json: with it the assetlinks fixes can be written.
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static var files: [(option: String, member: WritableKeyPath<Doctor.Input, String?>)] { [
        ("--android-manifest", \.androidManifest), ("--info-plist", \.infoPlist), ("--entitlements", \.entitlements),
        ("--expo-config", \.expoConfig), ("--assetlinks", \.assetLinks), ("--aasa", \.appleAppSiteAssociation),
    ] }

    /// `input` as `payhandoff doctor` arguments.
    static func arguments(_ input: Doctor.Input) -> [String] {
        var arguments: [String] = []
        for (option, member) in files { if let path = input[keyPath: member] { arguments += [option, path] } }
        let values: [(String, String?)] = [("--return-url", input.returnURL), ("--pos-scheme", input.posScheme), ("--android-package", input.androidPackage),
                                          ("--android-cert-sha256", input.androidCertificateSHA256), ("--ios-app-id", input.iosAppID),
                                          ("--target-sdk", input.targetSDK.map(String.init))]
        for (option, value) in values { if let value { arguments += [option, value] } }
        for (key, value) in input.manifestPlaceholders.sorted(by: { $0.key < $1.key }) { arguments += ["--manifest-placeholder", key + "=" + value] }
        for (key, value) in input.buildSettings.sorted(by: { $0.key < $1.key }) { arguments += ["--build-setting", key + "=" + value] }
        for folder in input.androidResources { arguments += ["--android-res", folder] }
        for channel in input.returnChannels { arguments += ["--return-channel", channel.rawValue] }
        for host in input.checkoutHosts { arguments += ["--checkout-host", host] }
        if !input.posApps.isEmpty { arguments += ["--pos-app", input.posApps.map { $0.rawValue }.joined(separator: ",")] }
        return arguments
    }

    func testEveryFailingFixturesDiffAppliesAndFixesOnlyItsRule() throws {
        var applied: [String] = []
        var seen: Set<String> = []
        for (number, c) in DoctorRuleTests.cases.enumerated() {
            guard let brokenFile = c.file(c.broken) else { continue }  // the return URL or POS scheme itself
            var input = c.broken
            if c.rule == .androidAssetLinks && input.androidCertificateSHA256 == nil { input.androidCertificateSHA256 = Self.fingerprint }
            guard seen.insert(Self.arguments(input).joined(separator: " ")).inserted else { continue }
            let name = "\(c.rule.rawValue) on \(URL(fileURLWithPath: brokenFile).lastPathComponent) (DoctorRuleTests.swift:\(c.line))"
            if let reason = c.noDiff {
                let edits = Doctor.check(input).findings.filter { $0.rule == c.rule && $0.file == brokenFile && $0.severity != .ok }.flatMap { $0.edits }
                XCTAssertEqual(edits, [], "\(name) has no diff (\(reason)), so no edits")
                continue
            }
            // Every file in a folder of its own, named relative to it, as a developer runs doctor.
            let directory = folder.appendingPathComponent("case-\(number)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var relative = input, absolute = input
            for (option, member) in Self.files {
                guard let path = input[keyPath: member] else { continue }
                let copy = String(option.dropFirst(2)) + "-" + URL(fileURLWithPath: path).lastPathComponent
                try FileManager.default.copyItem(atPath: path, toPath: directory.appendingPathComponent(copy).path)
                relative[keyPath: member] = copy
                absolute[keyPath: member] = directory.appendingPathComponent(copy).path
            }
            let target = try XCTUnwrap(absolute[keyPath: try XCTUnwrap(Self.files.first { input[keyPath: $0.member] == brokenFile }?.member)])
            let before = Doctor.check(absolute)
            let original = try Data(contentsOf: URL(fileURLWithPath: target))

            let diffRun = try run(["doctor"] + Self.arguments(relative) + ["--fix-diff"], in: directory)
            XCTAssertEqual(diffRun.stderr, "", "\(name): no fix left out")
            XCTAssertTrue(diffRun.stdout.hasPrefix("--- "), "\(name): a diff\n\(diffRun.stdout)")
            let patch = try run(["-p0", "--batch", "--forward", "--no-backup-if-mismatch", "-i", "-"], in: directory,
                                                  executable: URL(fileURLWithPath: "/usr/bin/patch"), input: diffRun.stdout)
            XCTAssertEqual(patch.status, 0, "\(name): patch: " + patch.stdout + patch.stderr + "\n" + diffRun.stdout)
            for word in ["fuzz", "offset", "FAILED", "reject"] {
                XCTAssertFalse(patch.stdout.contains(word), "\(name): the diff applies exactly: \(patch.stdout)")
            }

            let after = Doctor.check(absolute)
            func failing(_ report: DoctorReport) -> [DoctorRule: DoctorSeverity] {
                var rules: [DoctorRule: DoctorSeverity] = [:]
                for finding in report.findings where finding.file == target && finding.severity != .ok {
                    if rules[finding.rule] != .error { rules[finding.rule] = finding.severity }
                }
                return rules
            }
            let was = failing(before), now = failing(after)
            XCTAssertNil(now[c.rule], "\(name): the rule passes after the diff: \(after.findings.filter { $0.rule == c.rule && $0.severity != .ok }.map { $0.message })\n\(diffRun.stdout)")
            for (rule, severity) in now {
                // A link that reached no activity before reaches one now: that activity's own
                // checks (exported, permission, launch mode) run for the first time; a singleTask
                // launcher activity is an error of its own (issue 38: Element X's), not the fix's.
                if c.rule == .androidIntentFilter, was[.androidIntentFilter] == .error, severity == .warning || rule == .androidLaunchMode,
                   [.androidExported, .androidPermission, .androidLaunchMode].contains(rule) { continue }
                XCTAssertNotNil(was[rule], "\(name): \(rule.rawValue) passed before the diff and fails after it\n\(diffRun.stdout)")
                if severity == .error { XCTAssertEqual(was[rule], .error, "\(name): \(rule.rawValue) got worse") }
            }
            // The file before and after, probed on the same links: each one's own and the other's.
            let originalPath = directory.appendingPathComponent("original-" + URL(fileURLWithPath: target).lastPathComponent).path
            try original.write(to: URL(fileURLWithPath: originalPath))
            var originalInput = absolute
            for (_, member) in Self.files where absolute[keyPath: member] == target { originalInput[keyPath: member] = originalPath }
            let urls = Set(try Self.probes(originalPath, originalInput).keys).union(try Self.probes(target, absolute).keys)
            let probesBefore = try Self.probes(originalPath, originalInput, urls: urls)
            let probesAfter = try Self.probes(target, absolute, urls: urls)
            for (probe, reached) in probesBefore {
                XCTAssertTrue(reached.isSubset(of: probesAfter[probe] ?? []),
                              "\(name): \(probe) reached \(reached.sorted()) before the diff and \((probesAfter[probe] ?? []).sorted()) after\n\(diffRun.stdout)")
            }
            // The converse: the fix opens nothing but the links asked for.
            for (probe, reached) in probesAfter {
                let gained = reached.subtracting(probesBefore[probe] ?? [])
                XCTAssertTrue(gained.isEmpty || Self.askedFor(probe, gained, absolute),
                              "\(name): the fix opens \(probe) to \(gained.sorted()), which is none of the links asked for\n\(diffRun.stdout)")
            }
            // autoVerify is added only where it verifies a host.
            let idle = try Self.verifyingNothing(target, absolute).subtracting(Self.verifyingNothing(originalPath, originalInput))
            XCTAssertEqual(idle, [], "\(name): the fix adds android:autoVerify where it verifies nothing\n\(diffRun.stdout)")
            applied.append(name)
        }
        // Every kind of file and rule with a fix took part.
        XCTAssertGreaterThanOrEqual(applied.count, 40, applied.joined(separator: "\n"))
        for kind in ["android.intent-filter", "android.view-browsable", "android.exported", "android.permission", "android.launch-mode",
                     "android.scheme-lowercase", "android.queries", "android.app-links.verify", "android.assetlinks", "ios.url-schemes",
                     "ios.queries-schemes", "ios.associated-domains", "ios.aasa", "expo.scheme", "expo.android-intent-filters",
                     "expo.ios-queries-schemes", "expo.ios-associated-domains", "ios.webcredentials"] {
            XCTAssertTrue(applied.contains { $0.hasPrefix(kind + " on ") }, "a diff for \(kind) was applied")
        }
    }

    // MARK: the file's own layout

    /// Writes `text` as `name` in a folder, runs doctor with `arguments` there with
    /// `--fix-diff`, applies the diff with `patch -p0`, and returns the diff and the file after.
    func patched(_ name: String, _ text: String, _ arguments: [String]) throws -> (diff: String, after: String) {
        let directory = folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        let diff = try run(["doctor"] + arguments + ["--fix-diff"], in: directory)
        XCTAssertEqual(diff.stderr, "")
        let patch = try run(["-p0", "--batch", "--forward", "--no-backup-if-mismatch", "-i", "-"], in: directory,
                            executable: URL(fileURLWithPath: "/usr/bin/patch"), input: diff.stdout)
        XCTAssertEqual(patch.status, 0, patch.stdout + patch.stderr + diff.stdout)
        XCTAssertFalse(patch.stdout.contains("fuzz") || patch.stdout.contains("offset"), patch.stdout)
        return (diff.stdout, try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
    }

    /// A self-closing activity gets a body; CRLF line ends and tab indentation are kept; a
    /// commented-out tag does not shift the map.
    func testManifestFixesKeepTheFilesLayout() throws {
        let manifest = [
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"com.fix.app\">",
            "\t<!-- <activity android:name=\".Old\"> was here -->",
            "\t<application>",
            "\t\t<activity android:name=\".Main\" android:exported=\"true\" android:launchMode=\"singleTask\" />",
            "\t</application>",
            "</manifest>",
        ].joined(separator: "\r\n")
        let result = try patched("AndroidManifest.xml", manifest, ["--android-manifest", "AndroidManifest.xml", "--return-url", "fixapp://checkout-callback"])
        XCTAssertTrue(result.after.contains("\t\t<activity android:name=\".Main\" android:exported=\"true\" android:launchMode=\"singleTask\">\r\n\t\t\t<intent-filter>\r\n\t\t\t\t<action"), result.after)
        XCTAssertTrue(result.after.contains("\t\t</activity>\r\n\t</application>"), result.after)
        XCTAssertTrue(result.after.hasSuffix("</manifest>"), "no newline added at the end")
        XCTAssertFalse(result.after.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
        let path = folder.appendingPathComponent("check.xml")
        try result.after.write(to: path, atomically: true, encoding: .utf8)
        var input = Doctor.Input()
        input.returnURL = "fixapp://checkout-callback"
        input.androidManifest = path.path
        XCTAssertEqual(Doctor.check(input).findings.filter { $0.file == path.path && $0.severity != .ok }.map { $0.message }, [])
    }

    /// A plist whose last line has no line feed, and a JSON file indented with tabs whose
    /// member names have escapes: the diff says so and patch applies it.
    func testPlistAndJSONFixesKeepTheFilesLayout() throws {
        let plist = try String(contentsOfFile: fixture("ios/broken/no-queries-schemes.plist"), encoding: .utf8)
        let trimmed = String(plist.dropLast(plist.hasSuffix("\n") ? 1 : 0))
        let fixed = try patched("Info.plist", trimmed, ["--info-plist", "Info.plist", "--pos-scheme", "myapp"])
        XCTAssertTrue(fixed.after.contains("<string>whatsapp</string>\n\t\t<string>billpocket</string>"), fixed.after)
        let json = "{\n\t\"expo\": {\n\t\t\"na\\\"me\": \"Fix\",\n\t\t\"scheme\": []\n\t}\n}"
        let expo = try patched("app.json", json, ["--expo-config", "app.json", "--pos-scheme", "myapp"])
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(expo.after.utf8)) as? [String: Any])
        let config = try XCTUnwrap(document["expo"] as? [String: Any])
        XCTAssertEqual(config["scheme"] as? [String], ["myapp"])
        XCTAssertEqual(config["na\"me"] as? String, "Fix")
        XCTAssertEqual(((config["ios"] as? [String: Any])?["infoPlist"] as? [String: Any])?["LSApplicationQueriesSchemes"] as? [String], ["billpocket"])
        XCTAssertTrue(expo.after.contains("\n\t\t\"scheme\": [\n\t\t\t\"myapp\"\n\t\t]"), expo.after)
    }

    /// Issue 39: for every set of POS apps, on a manifest without `<queries>`, one with it, and
    /// a plist with and without the key, the diff writes each missing entry once (one new
    /// `<queries>` or key however many apps miss), after it every app passes, and a second
    /// `--fix-diff` has nothing left to write.
    func testEverySetOfPOSAppsIsFixedOnceByOneDiff() throws {
        let apps = POSApp.allCases
        let sets = (1..<(1 << apps.count)).map { mask in apps.indices.filter { mask & (1 << $0) != 0 }.map { apps[$0] } }
        let plistWithoutKey = try String(contentsOfFile: fixture("ios/Info.plist"), encoding: .utf8)
            .replacingOccurrences(of: "\t<key>LSApplicationQueriesSchemes</key>\n\t<array>\n\t\t<string>billpocket</string>\n\t</array>\n", with: "")
        XCTAssertFalse(plistWithoutKey.contains("LSApplicationQueriesSchemes"))
        let files: [(name: String, text: String, option: String, rule: DoctorRule)] = [
            ("AndroidManifest.xml", try String(contentsOfFile: fixture("android/broken/no-queries.xml"), encoding: .utf8), "--android-manifest", .androidQueries),
            ("AndroidManifest.xml", try String(contentsOfFile: fixture("android/AndroidManifest.xml"), encoding: .utf8), "--android-manifest", .androidQueries),
            ("Info.plist", plistWithoutKey, "--info-plist", .iosQueriesSchemes),
            ("Info.plist", try String(contentsOfFile: fixture("ios/broken/no-queries-schemes.plist"), encoding: .utf8), "--info-plist", .iosQueriesSchemes),
        ]
        var patched = 0
        for file in files {
            for set in sets {
                let arguments = [file.option, file.name, "--pos-app", set.map { $0.rawValue }.joined(separator: ",")]
                let name = "\(file.option) (\(file.text.count) bytes) --pos-app \(arguments[3])"
                let directory = folder.appendingPathComponent(UUID().uuidString)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let path = directory.appendingPathComponent(file.name)
                try Data(file.text.utf8).write(to: path)
                func findings() -> [DoctorFinding] {
                    var input = Doctor.Input()
                    if file.option == "--android-manifest" { input.androidManifest = path.path } else { input.infoPlist = path.path }
                    input.posApps = set
                    return Doctor.check(input).findings.filter { $0.rule == file.rule }
                }
                let before = findings()
                XCTAssertEqual(before.count, set.count, "\(name): one finding per app")
                let missing = before.filter { $0.severity == .error }
                let diff = try run(["doctor"] + arguments + ["--fix-diff"], in: directory)
                XCTAssertEqual(diff.stderr, "", name)
                guard !missing.isEmpty else {
                    XCTAssertEqual(diff.stdout, "", "\(name): nothing to write")
                    continue
                }
                for opening in ["<queries>", "<key>LSApplicationQueriesSchemes</key>"] where file.text.contains(opening) || diff.stdout.contains(opening) {
                    XCTAssertLessThanOrEqual(diff.stdout.components(separatedBy: "+" + opening).count + diff.stdout.components(separatedBy: "+    " + opening).count - 2, 1, "\(name): one \(opening) written\n\(diff.stdout)")
                }
                let patch = try run(["-p0", "--batch", "--forward", "--no-backup-if-mismatch", "-i", "-"], in: directory,
                                    executable: URL(fileURLWithPath: "/usr/bin/patch"), input: diff.stdout)
                XCTAssertEqual(patch.status, 0, "\(name): \(patch.stdout)\(patch.stderr)\n\(diff.stdout)")
                patched += 1
                let after = findings()
                XCTAssertEqual(after.filter { $0.severity == .error }.map { $0.message }, [], "\(name): every app passes after the diff\n\(diff.stdout)")
                XCTAssertEqual(after.filter { $0.severity == .warning }.count, set.contains(.clip) && file.rule == .iosQueriesSchemes ? 1 : 0, name)
                let text = try String(contentsOf: path, encoding: .utf8)
                // Each missing app's distinctive lines appear once more than before.
                let missingApps = set.filter { app in
                    missing.contains { finding in
                        file.rule == .androidQueries ? finding.message.contains("entry for \(app.name) (")
                            : app.iosQueryScheme.map { finding.message.contains(" hold \($0):") } ?? false
                    }
                }
                XCTAssertEqual(missingApps.count, missing.count, name)
                for line in missingApps.flatMap({ file.rule == .androidQueries ? $0.androidQueryLines.filter { $0.hasPrefix("<package") || $0.contains("<data") || $0.contains("pos.action") } : [$0.iosQueryScheme.map { "<string>\($0)</string>" }].compactMap { $0 } }) {
                    XCTAssertEqual(text.components(separatedBy: line).count - file.text.components(separatedBy: line).count, 1, "\(name): \(line) written once\n\(text)")
                }
                var input = Doctor.Input()
                if file.option == "--android-manifest" { input.androidManifest = path.path } else { input.infoPlist = path.path }
                input.posApps = set
                XCTAssertEqual(Doctor.check(input).fixDiff.diff, "", "\(name): a second diff writes nothing")
            }
        }
        XCTAssertGreaterThan(patched, 40)
    }

    /// LSApplicationQueriesSchemes counts only its first 50 entries: a scheme the fix would
    /// append past them would still be unread, so that fix is advice without a diff; one that
    /// fits is a diff, and the scheme it writes is read.
    func testQuerySchemesAreNotAppendedPastTheFiftieth() throws {
        let others = (1...49).map { "\t\t<string>app\($0)</string>\n" }.joined()
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>LSApplicationQueriesSchemes</key>\n\t<array>\n"
            + others + "\t</array>\n</dict>\n</plist>\n"
        let fits = try patched("Info.plist", plist, ["--info-plist", "Info.plist", "--pos-app", "square"])
        XCTAssertTrue(fits.after.contains("<string>app49</string>\n\t\t<string>square-commerce-v1</string>\n\t</array>"), fits.after)
        let path = folder.appendingPathComponent("Info.plist")
        try Data(fits.after.utf8).write(to: path)
        var input = Doctor.Input()
        input.infoPlist = path.path
        input.posApps = [.square]
        XCTAssertFalse(Doctor.check(input).hasErrors, "the 50th entry is read")
        try Data(plist.utf8).write(to: path)
        input.posApps = [.square, .sumup]
        let full = Doctor.check(input)
        XCTAssertEqual(full.findings.filter { $0.severity == .error }.map { $0.rule }, [.iosQueriesSchemes, .iosQueriesSchemes])
        for finding in full.findings where finding.severity == .error {
            XCTAssertEqual(finding.edits, [])
            XCTAssertTrue(finding.fix?.contains("among the first 50 entries (the list holds 49)") ?? false, finding.fix ?? "")
        }
        XCTAssertEqual(full.fixDiff.diff, "")
    }

    /// Edits that overlap are not written as a diff: the note says so.
    func testOverlappingEditsAreLeftToTheDeveloper() {
        let findings = [DoctorFinding(.iosURLSchemes, .error, file: "a", "x", edits: [TextEdit(range: 2..<6, replacement: "X")]),
                        DoctorFinding(.iosURLSchemes, .error, file: "a", "y", edits: [TextEdit(range: 4..<8, replacement: "Y")])]
        let result = FixDiff.make(findings: findings, sources: ["a": FixDiff.Source(bytes: Array("0123456789\n".utf8), kind: .json)])
        XCTAssertEqual(result.diff, "")
        XCTAssertEqual(result.notes, ["a: two fixes touch the same text; apply them by hand"])
    }

    // MARK: probes

    /// What the file at `path` (one of `input`'s) routes where: probe → what it reaches. For
    /// a manifest or an Expo config the probes are URLs (`urls` added to the file's own).
    static func probes(_ path: String, _ input: Doctor.Input, urls: Set<String> = []) throws -> [String: Set<String>] {
        let links = DoctorLinks(returnURL: input.returnURL, posScheme: input.posScheme)
        switch path {
        case input.androidManifest:
            let root = try InputFile.xml(at: path, root: "manifest")
            let resources = input.androidResources.isEmpty ? nil : AndroidBuildValues.readResources(input.androidResources).resources
            let values = AndroidBuildValues(placeholders: input.manifestPlaceholders.map { (key: $0.key, value: $0.value) },
                                            applicationId: (input.androidPackage ?? root.attributes["package"]).map { ($0, "") }, resources: resources)
            let manifest = AndroidManifest(root, build: values)
            var probes = receivers(manifest.components.map { ($0.name, $0.filters) }, links: links, urls: urls)
            probes["queries"] = Set(POSApp.allCases.filter { AndroidChecks.queriesCover($0, intents: manifest.queryIntents, packages: manifest.queryPackages) != nil }.map { $0.rawValue })
            return probes
        case input.infoPlist, input.entitlements:
            let plist = try InputFile.propertyList(at: path)
            let apple = AppleBuildValues(settings: input.buildSettings.map { (key: $0.key, value: $0.value) },
                                         bundleIdentifier: input.iosAppID.map { (String($0.drop { $0 != "." }.dropFirst()), "") })
            func strings(_ value: Any?) -> [String] { (value as? [Any] ?? []).compactMap { $0 as? String }.compactMap { apple.resolve($0).resolved?.lowercased() } }
            let schemes = (plist["CFBundleURLTypes"] as? [Any] ?? []).flatMap { strings(($0 as? [String: Any])?["CFBundleURLSchemes"]) }
            return ["url schemes": Set(schemes), "ios queries": Set(strings(plist[AppleChecks.queriesKey]).prefix(AppleChecks.queriesLimit)),
                    "associated domains": Set(strings(plist[AppleChecks.associatedDomainsKey]))]
        case input.expoConfig:
            let root = try XCTUnwrap(try InputFile.json(at: path) as? [String: Any])
            let expo = root["expo"] as? [String: Any] ?? root
            let platforms = ExpoChecks.platforms(expo, apple: AppleBuildValues(settings: [], bundleIdentifier: nil))
            var probes = receivers([("MainActivity", platforms.androidFilters)], links: links, urls: urls)
            probes["ios url schemes"] = Set(platforms.iosSchemes.compactMap { $0.resolved?.lowercased() })
            probes["associated domains"] = Set(platforms.associatedDomains)
            let queries = ((expo["ios"] as? [String: Any])?["infoPlist"] as? [String: Any])?[AppleChecks.queriesKey] as? [Any] ?? []
            probes["ios queries"] = Set(queries.compactMap { $0 as? String }.prefix(AppleChecks.queriesLimit))
            return probes
        case input.appleAppSiteAssociation:
            let document = try InputFile.json(at: path)
            let details = ((document as? [String: Any])?["applinks"] as? [String: Any])?["details"] as? [Any] ?? []
            var patterns: [String] = []
            for case let detail as [String: Any] in details {
                patterns += (detail["paths"] as? [Any] ?? []).compactMap { $0 as? String }.map { $0.hasPrefix("NOT ") ? String($0.dropFirst(4)) : $0 }
                patterns += (detail["components"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["/"] as? String }
            }
            let paths = Set(patterns.map { $0.replacingOccurrences(of: "*", with: "probe").replacingOccurrences(of: "?", with: "p") })
                .union(links.targets.filter { $0.isWeb }.map { $0.encodedPath })
            var probes: [String: Set<String>] = [:]
            for path in paths {
                guard let link = LinkTarget(.callback, "https://fix.example.com" + path, returnURL: nil) else { continue }
                for appID in Set(details.compactMap { $0 as? [String: Any] }.flatMap(AssociationChecks.appIDs)) {
                    if case .included? = AssociationChecks.answer(document, appID: appID, link: link)?.decision { probes[path, default: []].insert(appID) }
                }
            }
            return probes
        case input.assetLinks:
            let statements = try XCTUnwrap(try InputFile.json(at: path) as? [Any])
            var verified: Set<String> = []
            for case let statement as [String: Any] in statements where (statement["relation"] as? [Any] ?? []).contains(where: { $0 as? String == AssociationChecks.handleAllURLs }) {
                guard let target = statement["target"] as? [String: Any], let package = target["package_name"] as? String else { continue }
                for case let fingerprint as String in target["sha256_cert_fingerprints"] as? [Any] ?? [] where AssociationChecks.isSHA256Fingerprint(fingerprint) {
                    verified.insert(package + " " + fingerprint.uppercased())
                }
            }
            return ["verified": verified]
        default:
            XCTFail("\(path) is not among the input's files")
            return [:]
        }
    }

    /// The URLs the filters name (their own schemes × hosts × paths, any host of each scheme,
    /// any web link, and the links), and the components whose VIEW filters receive each, as
    /// doctor matches them: "Name" from an app (DEFAULT), "Name (browser)" from a browser
    /// (DEFAULT and BROWSABLE), so a fix that opens a filter to browsers shows.
    static func receivers(_ components: [(name: String, filters: [IntentFilter])], links: DoctorLinks, urls extra: Set<String> = []) -> [String: Set<String>] {
        var urls = Set(links.targets.map { $0.url }).union(extra).union(["https://probe-host/probe", "http://probe-host/probe"])
        for (_, filters) in components {
            for filter in filters where filter.hasView {
                let hosts = filter.authorities.compactMap { authority in
                    authority.host.resolved.map { host in
                        (host.hasPrefix("*") ? "probe" + host.dropFirst() : host) + (authority.port?.resolved.map { ":" + $0 } ?? "")
                    }
                }
                let paths = filter.data.flatMap { element -> [String] in
                    [element.path?.resolved, element.pathPrefix?.resolved.map { $0 + "probe" }, element.pathSuffix?.resolved.map { "/probe" + $0 },
                     element.pathPattern?.resolved.map { $0.replacingOccurrences(of: ".*", with: "probe").replacingOccurrences(of: "\\", with: "") }].compactMap { $0 }
                }
                for scheme in filter.schemes.compactMap({ $0.resolved }) {
                    urls.insert("\(scheme)://probe-host/probe")
                    for host in hosts.isEmpty ? ["probe-host"] : hosts {
                        for path in paths.isEmpty ? ["/probe"] : paths { urls.insert("\(scheme)://\(host)\(path)") }
                    }
                }
            }
        }
        var reached: [String: Set<String>] = [:]
        for url in urls {
            guard let link = LinkTarget(.callback, url, returnURL: nil) else { continue }
            var names: Set<String> = []
            for (name, filters) in components {
                for filter in filters where filter.hasView && filter.categories.contains(IntentFilter.defaultCategory) && filter.match(link) == .yes {
                    names.insert(name)
                    if filter.categories.contains(IntentFilter.browsable) { names.insert(name + " (browser)") }
                }
            }
            reached[url] = names
        }
        return reached
    }

    /// Whether `gained`, newly reached by `probe`, is one of the links `input` asks for: a URL
    /// with the POS answer's scheme, the custom callback's scheme, or an https callback's
    /// scheme and host (IntentFilter.staysWithin's rule); the POS apps asked for in the query
    /// lists; the custom schemes, the callback's applinks (and webcredentials) domain, its path (from the nonce on)
    /// for the app, the package and fingerprint given.
    static func askedFor(_ probe: String, _ gained: Set<String>, _ input: Doctor.Input) -> Bool {
        let links = DoctorLinks(returnURL: input.returnURL, posScheme: input.posScheme)
        let callback = links.targets.first { $0.role == .callback }
        switch probe {
        case "queries":
            // The POS apps asked for, by name (Android: the apps <queries> makes visible).
            return gained.isSubset(of: Set(input.checkedPOSApps.map { $0.rawValue }))
        case "ios queries":
            return gained.isSubset(of: Set(input.checkedPOSApps.compactMap { $0.iosQueryScheme }))
        case "url schemes", "ios url schemes":
            return gained.isSubset(of: Set(AppleChecks.customSchemes(links).map { $0.scheme }))
        case "associated domains":
            // webcredentials: too when the return comes through ASWebAuthenticationSession (issue 38).
            let services = ["applinks:"] + (input.returnChannels.contains(.webAuthenticationSession) ? ["webcredentials:"] : [])
            return gained.allSatisfy { entry in services.contains { entry.hasPrefix($0 + (callback?.host ?? "")) } }
        case "verified":
            return gained.allSatisfy { $0.hasPrefix((input.androidPackage ?? "") + " ") }
        default:
            break
        }
        if probe.hasPrefix("/") {
            // An association file's path: the callback's, whatever the nonce.
            guard let callback else { return false }
            return probe.hasPrefix(callback.callbackPathPattern.dropLast())
        }
        guard let components = URLComponents(string: probe), let scheme = components.scheme?.lowercased() else { return false }
        // A custom scheme is the app's own (any host of it is meant for the app); an http(s)
        // callback asks for its host only.
        return links.targets.contains { link in
            link.role == .posAnswer || !link.isWeb ? link.scheme == scheme
                : link.scheme == scheme && link.host?.lowercased() == components.host?.lowercased()
        }
    }

    /// The autoVerify filters of a manifest or Expo config that make Android verify no host
    /// (AppLinkVerification, targetSdkVersion 31 rule), each as its component and data.
    static func verifyingNothing(_ path: String, _ input: Doctor.Input) throws -> Set<String> {
        var filters: [(String, IntentFilter)] = []
        switch path {
        case input.androidManifest:
            let root = try InputFile.xml(at: path, root: "manifest")
            let values = AndroidBuildValues(placeholders: input.manifestPlaceholders.map { (key: $0.key, value: $0.value) },
                                            applicationId: (input.androidPackage ?? root.attributes["package"]).map { ($0, "") }, resources: nil)
            filters = AndroidManifest(root, build: values).components.flatMap { component in component.filters.map { (component.name, $0) } }
        case input.expoConfig:
            let root = try XCTUnwrap(try InputFile.json(at: path) as? [String: Any])
            let platforms = ExpoChecks.platforms(root["expo"] as? [String: Any] ?? root, apple: AppleBuildValues(settings: [], bundleIdentifier: nil))
            filters = platforms.androidFilters.map { ("MainActivity", $0) }
        default:
            return []
        }
        return Set(filters.filter { _, filter in
            filter.autoVerify && !(AppLinkVerification.requestsVerification(filter)
                && filter.authorities.allSatisfy { $0.host.resolved.map(AppLinkVerification.isVerifiableHost) ?? false } && !filter.authorities.isEmpty)
        }.map { name, filter in
            name + ": " + filter.data.map { [$0.scheme, $0.host, $0.path, $0.pathPrefix, $0.pathPattern].map { $0?.written ?? "" }.joined(separator: " ") }.joined(separator: "; ")
        })
    }
}
