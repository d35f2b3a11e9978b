import Foundation
import PayHandoffDoctor
import XCTest
import PayHandoff

/// `payhandoff doctor` run as a process: arguments, output, exit status; and the run shown in
/// docs/doctor.md, which must be the tool's real output.
final class DoctorCLITests: DoctorTestCase {
    func doctor(_ arguments: [String]) throws -> Run { try run(["doctor"] + arguments) }

    let everything = [
        "--android-manifest", fixture("android/AndroidManifest.xml"), "--info-plist", fixture("ios/Info-binary.plist"),
        "--entitlements", fixture("ios/App.entitlements"), "--expo-config", fixture("expo/app.json"),
        "--assetlinks", fixture("association/assetlinks.json"), "--aasa", fixture("association/apple-app-site-association"),
        "--ios-app-id", "ABCDE12345.com.fix.app", "--pos-scheme", "myapp",
    ]

    func testGoodFilesExitZero() throws {
        let good = try doctor(everything + ["--return-url", "https://fix.example.com/checkout-callback"])
        XCTAssertEqual(good.status, 0, good.stdout + good.stderr)
        XCTAssertTrue(good.stdout.hasSuffix("0 errors, 0 warnings, 32 ok: exit status 0\n"), good.stdout)
        // Warnings alone do not fail the run.
        let warned = try doctor(["--android-manifest", fixture("android/broken/launch-standard.xml"), "--return-url", "fixapp://checkout-callback"])
        XCTAssertEqual(warned.status, 0, warned.stdout)
        XCTAssertTrue(warned.stdout.contains("warning  android.launch-mode"), warned.stdout)
    }

    /// Issue 38: the return channel and the checkout host are options; a wrong value is a usage error.
    func testReturnChannelsAndCheckoutHosts() throws {
        let good = try doctor(everything + ["--return-url", "https://fix.example.com/checkout-callback",
                                            "--return-channel", "auth_tab,web_authentication_session", "--return-channel", "custom_tab",
                                            "--checkout-host", "checkout.stripe.com"])
        XCTAssertEqual(good.status, 0, good.stdout + good.stderr)
        for line in ["ok       android.auth-tab  gives the app delegate_permission/common.handle_all_urls for fix.example.com",
                     "ok       ios.webcredentials  associated domains hold webcredentials:fix.example.com",
                     "ok       ios.webcredentials  webcredentials.apps lists ABCDE12345.com.fix.app",
                     "ok       android.checkout-host  no verified App Link of the app claims checkout.stripe.com"] {
            XCTAssertTrue(good.stdout.contains(line), line + "\n" + good.stdout)
        }
        // The checkout page on the app's own verified host: Android opens it in the app.
        let own = try doctor(everything + ["--return-url", "https://fix.example.com/checkout-callback", "--checkout-host", "fix.example.com"])
        XCTAssertEqual(own.status, 0, "the project's filter names a path, so a warning: " + own.stdout)
        XCTAssertTrue(own.stdout.contains("warning  android.checkout-host  the app verifies fix.example.com as its App Link"), own.stdout)
        let channel = try doctor(["--return-url", "fixapp://checkout-callback", "--return-channel", "chrome"])
        XCTAssertEqual(channel.status, 2)
        XCTAssertTrue(channel.stderr.contains("--return-channel takes auth_tab, web_authentication_session, custom_tab, safari_view_controller, got 'chrome'"), channel.stderr)
        let host = try doctor(["--return-url", "fixapp://checkout-callback", "--checkout-host", "https://pay.example.com/"])
        XCTAssertEqual(host.status, 2)
        XCTAssertTrue(host.stderr.contains("--checkout-host takes the checkout page's host"), host.stderr)
    }

    /// Issue 39: `--pos-app` names the POS apps (repeatable or comma-separated, `--pos-apps` the
    /// same option); it alone is enough to check their visibility; a wrong name is a usage error.
    func testPOSApps() throws {
        let good = try doctor(["--android-manifest", fixture("android/queries-pos-apps.xml"), "--info-plist", fixture("ios/Info-pos-apps.plist"),
                               "--pos-app", "square,sumup", "--pos-apps", "billpocket", "--pos-app", "square"])
        XCTAssertEqual(good.status, 0, good.stdout + good.stderr)
        XCTAssertTrue(good.stdout.contains("  POS apps     square, sumup, billpocket  "), good.stdout)
        for line in ["ok       android.queries  <queries> declares the action com.squareup.pos.action.CHARGE: on Android 11+ the app can see the Square Point of Sale app",
                     "ok       android.queries  <queries> declares VIEW sumupmerchant://: on Android 11+ the app can see the SumUp app",
                     "ok       ios.queries-schemes  LSApplicationQueriesSchemes holds square-commerce-v1",
                     "ok       ios.queries-schemes  LSApplicationQueriesSchemes holds sumupmerchant"] {
            XCTAssertTrue(good.stdout.contains(line), line + "\n" + good.stdout)
        }
        XCTAssertTrue(good.stdout.hasSuffix("0 errors, 0 warnings, 10 ok: exit status 0\n"), good.stdout)
        // Clip on an iOS file: a warning, and the run still passes.
        let clip = try doctor(["--info-plist", fixture("ios/Info-pos-apps.plist"), "--pos-app", "clip", "--json"])
        XCTAssertEqual(clip.status, 0, clip.stdout)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(clip.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["links"] as? [String: Any])?["pos_apps"] as? [String], ["clip"])
        let findings = try XCTUnwrap(document["findings"] as? [[String: Any]])
        XCTAssertEqual(findings.filter { $0["rule"] as? String == "ios.queries-schemes" }.map { $0["severity"] as? String }, ["warning"])
        let wrong = try doctor(["--pos-app", "square,mercadopago"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("--pos-app takes billpocket, square, sumup, clip, got 'mercadopago'"), wrong.stderr)
        XCTAssertEqual(try doctor(["--pos-app", ""]).status, 2, "an empty name is no POS app")
    }

    func testAnErrorExitsOneAndPrintsTheFix() throws {
        let broken = try doctor(["--android-manifest", fixture("android/broken/not-exported.xml"), "--info-plist", fixture("ios/broken/no-queries-schemes.plist"),
                                 "--return-url", "fixapp://checkout-callback", "--pos-scheme", "myapp"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stderr, "")
        XCTAssertTrue(broken.stdout.contains("error    android.exported"), broken.stdout)
        XCTAssertTrue(broken.stdout.contains("android:exported=\"true\""), broken.stdout)
        XCTAssertTrue(broken.stdout.contains("<key>LSApplicationQueriesSchemes</key>") || broken.stdout.contains("<string>billpocket</string>"), broken.stdout)
        XCTAssertTrue(broken.stdout.contains("adb shell am start -W -a android.intent.action.VIEW -d "), broken.stdout)
        XCTAssertTrue(broken.stdout.contains("xcrun simctl openurl booted 'fixapp://checkout-callback"), broken.stdout)
        // A file that cannot be read is an error too, named on its line.
        let missing = try doctor(["--info-plist", "/no/such/Info.plist", "--return-url", "fixapp://checkout-callback"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stdout.contains("error    input.readable  /no/such/Info.plist: no such file"), missing.stdout)
        let bomb = try doctor(["--android-manifest", fixture("android/bad/entity-bomb.xml"), "--return-url", "fixapp://checkout-callback"])
        XCTAssertEqual(bomb.status, 1)
        XCTAssertTrue(bomb.stdout.contains("entity-bomb.xml: is not well-formed XML"), bomb.stdout)
    }

    func testJSONForCI() throws {
        let result = try doctor(everything + ["--return-url", "https://fix.example.com/checkout-callback", "--android-package", "com.fix.app.staging", "--json"])
        XCTAssertEqual(result.status, 1)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["version"] as? Int, 1)
        XCTAssertEqual(document["ok"] as? Bool, false)
        let findings = try XCTUnwrap(document["findings"] as? [[String: Any]])
        let errors = findings.filter { $0["severity"] as? String == "error" }
        XCTAssertEqual(errors.map { $0["rule"] as? String }, ["android.assetlinks"])
        XCTAssertEqual(errors.first?["file"] as? String, fixture("association/assetlinks.json"))
        XCTAssertNotNil(errors.first?["fix"] as? String)
        XCTAssertEqual((document["summary"] as? [String: Any])?["errors"] as? Int, 1)
        let summary = try XCTUnwrap(document["summary"] as? [String: Any])
        XCTAssertEqual(findings.count, summary.values.compactMap { $0 as? Int }.reduce(0, +))
        let links = try XCTUnwrap(document["links"] as? [String: Any])
        XCTAssertEqual(links["pos_answer_url"] as? String, "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=order-42")
        XCTAssertTrue((links["callback_url"] as? String ?? "").hasPrefix("https://fix.example.com/checkout-callback"))
        let commands = try XCTUnwrap(document["try"] as? [[String: String]])
        XCTAssertEqual(commands.map { $0["platform"] ?? "" }, ["android", "ios", "android", "ios"])
        XCTAssertTrue(commands[0]["command"]?.hasSuffix(" com.fix.app.staging") ?? false, "adb targets the package: \(commands[0])")
    }

    func testUsageErrorsExitTwo() throws {
        for arguments in [[], ["--android-manifest", fixture("android/AndroidManifest.xml")], ["--return-url"],
                          ["--return-url", "fixapp://x", "--manifest", "a.xml"], ["--return-url", "fixapp://x", "extra"],
                          ["--return-url", "fixapp://x", "--manifest-placeholder", "appAuthRedirectScheme"],
                          ["--return-url", "fixapp://x", "--build-setting", "=com.fix.app"],
                          ["--return-url", "fixapp://x", "--target-sdk", "thirty-four"], ["--return-url", "fixapp://x", "--target-sdk", "0"],
                          ["--return-url", "fixapp://x", "--fix-diff=yes"]] {
            let result = try doctor(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stdout)")
            XCTAssertTrue(result.stderr.hasPrefix("error: usage: "), result.stderr)
        }
    }

    func testHelpAndRules() throws {
        let help = try doctor(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("exit status: 0 no error (warnings allowed), 1 at least one error"), help.stdout)
        for option in ["--manifest-placeholder KEY=VALUE", "--android-res", "--build-setting KEY=VALUE", "--target-sdk N", "--fix-diff"] {
            XCTAssertTrue(help.stdout.contains(option), option)
        }
        let rules = try doctor(["--rules"])
        XCTAssertEqual(rules.status, 0)
        for rule in DoctorRule.allCases { XCTAssertTrue(rules.stdout.contains(rule.rawValue + "\n"), rule.rawValue) }
    }

    /// The printed commands, run as printed with stand-ins for `adb` (which hands its joined
    /// arguments to the device's shell), `am` and `xcrun`, deliver exactly the links.
    func testTheTryCommandsDeliverTheLinks() throws {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("delivered")
        let scripts = [
            "adb": "#!/bin/sh\n[ \"$1\" = shell ] || exit 9\nshift\nexec /bin/sh -c \"$*\"\n",
            "am": "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -d ] && printf '%s\\n' \"$2\" >> '\(log.path)'; shift; done\n",
            "xcrun": "#!/bin/sh\n[ \"$1 $2 $3\" = 'simctl openurl booted' ] || exit 9\nprintf '%s\\n' \"$4\" >> '\(log.path)'\n",
        ]
        for (name, text) in scripts {
            let url = bin.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let result = try doctor(["--return-url", "fixapp://checkout-callback?order=42", "--pos-scheme", "myapp", "--json"])
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let links = try XCTUnwrap(document["links"] as? [String: String])
        let commands = try XCTUnwrap(document["try"] as? [[String: String]]).compactMap { $0["command"] }
        XCTAssertEqual(commands.count, 4)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for command in commands {
            let ran = try run(["-c", command], environment: ["PATH": path], executable: URL(fileURLWithPath: "/bin/sh"))
            XCTAssertEqual(ran.status, 0, command + ran.stderr)
        }
        let delivered = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let callback = try XCTUnwrap(links["callback_url"]), answer = try XCTUnwrap(links["pos_answer_url"])
        XCTAssertEqual(delivered, [callback, callback, answer, answer])
        XCTAssertTrue(callback.hasSuffix("&status=completed&card_id=card_xyz"), callback)
    }

    /// The `payhandoff doctor` runs of docs/doctor.md (each report, and the same run's --fix-diff)
    /// are this build's output, byte for byte (refresh them with `make doctor-readme` when the
    /// output changes).
    func testTheDocumentedRunIsTheToolsOutput() throws {
        let page = try String(contentsOf: DoctorTestCase.repository.appendingPathComponent("docs/doctor.md"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```console\n$ payhandoff doctor ").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
        // Pairs: a report, then the same run's --fix-diff (issue 39's POS apps; the usual mistakes;
        // issue 38's return-routing traps).
        XCTAssertEqual(blocks.count, 6, "docs/doctor.md has three ```console blocks running payhandoff doctor, each followed by its --fix-diff")
        for block in blocks {
            var lines = block.components(separatedBy: "\n")
            let arguments = lines.removeFirst().split(separator: " ").map(String.init)
            let status = try XCTUnwrap(lines.popLast())
            XCTAssertEqual(lines.popLast(), "$ echo $?")
            let result = try run(["doctor"] + arguments, in: DoctorTestCase.repository)
            XCTAssertEqual(result.stdout, lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n", "docs/doctor.md's doctor run is stale: run make doctor-readme")
            XCTAssertEqual(String(result.status), status)
            XCTAssertEqual(result.status, 1, "docs/doctor.md shows a broken manifest")
        }
        for pair in stride(from: 0, to: blocks.count - 1, by: 2) {
            let report = blocks[pair].components(separatedBy: "\n").first ?? "-", diff = blocks[pair + 1].components(separatedBy: "\n").first ?? ""
            XCTAssertEqual(diff, report + " --fix-diff", "the diff is the run before it's fixes")
        }
        for rule in DoctorRule.allCases {
            XCTAssertTrue(page.contains("`\(rule.rawValue)`"), "docs/doctor.md lists the rule \(rule.rawValue)")
        }
    }
}
