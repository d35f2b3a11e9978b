import Foundation
import PayHandoff
import XCTest
@testable import PayHandoffDoctor

/// The links doctor matches are the core's, and the platform matching follows the platforms'
/// rules (including their quirks).
final class DoctorLinksTests: DoctorTestCase {
    /// The callback is the URL the core hands out plus the gateway's query, and the core's own
    /// callback parser accepts it as a verified, completed card registration.
    func testTheCallbackIsTheCoresReturnURLAsTheGatewayRedirectsToIt() throws {
        for text in ["fixapp://checkout-callback", "com.fix.app:/return", "https://fix.example.com/checkout-callback",
                     "https://fix.example.com:8443/a/b?order=42", "fixapp://cb/x?"] {
            let links = DoctorLinks(returnURL: text, posScheme: nil)
            let returnURL = try ReturnURL(text)
            let handedOut = returnURL.adding(nonce: links.sampleNonce)
            let separator = handedOut.contains("?") ? (handedOut.hasSuffix("?") || handedOut.hasSuffix("&") ? "" : "&") : "?"
            XCTAssertEqual(links.callbackURL, handedOut + separator + "status=completed&card_id=card_xyz", text)
            let callback = try CheckoutCallback.parse(try XCTUnwrap(links.callbackURL), kind: .cards, returnURL: returnURL, nonce: links.sampleNonce)
            XCTAssertTrue(callback.isVerified, text)
            XCTAssertEqual(callback.status, .completed, text)
            XCTAssertEqual(callback.objectID, "card_xyz", text)
        }
        // The sample nonce has the core's format (what makeNonce produces) and never changes.
        XCTAssertEqual(DoctorLinks(returnURL: "fixapp://x", posScheme: nil).sampleNonce, "0123456789abcdef0123456789abcdef")
    }

    func testThePOSAnswerIsOneTheCoreReads() throws {
        for scheme in ["myapp", "myapp://", "com.fix.app.pos"] {
            let links = DoctorLinks(returnURL: nil, posScheme: scheme)
            let answer = try POSResponse.parse(try XCTUnwrap(links.posAnswerURL), urlScheme: scheme, expectedIdentifier: "order-42")
            XCTAssertEqual(answer.result, .approved)
        }
        XCTAssertEqual(DoctorLinks(returnURL: nil, posScheme: "myapp://").posAnswerURL, "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=order-42")
        XCTAssertNotNil(DoctorLinks(returnURL: nil, posScheme: "my app").posSchemeError)
    }

    /// The platform checks match the URL the OS receives (the core's nonce segment and the
    /// gateway's query included) for every nonce the core may hand out: the narrowest pattern
    /// (the path up to the nonce, then anything) passes; a pattern one character longer fails,
    /// and so does the exact path of this sample callback, which no other payment's matches.
    func testPathsAreMatchedAgainstTheCallbackTheOSReceives() throws {
        let links = DoctorLinks(returnURL: "https://fix.example.com/checkout-callback", posScheme: nil)
        let callback = try XCTUnwrap(links.targets.first)
        let fixed = callback.pathText.fixedPrefix
        XCTAssertEqual(fixed, "/checkout-callback/ph_")
        let cases: [(android: String, aasa: String, passes: Bool)] = [
            ("android:pathPrefix=\"\(fixed)\"", fixed + "*", true),
            ("android:pathPattern=\"\(fixed).*\"", fixed + "????????????????????????????????", true),
            ("android:pathPrefix=\"\(fixed)x\"", fixed + "x*", false),
            ("android:path=\"\(callback.path)\"", callback.path, false),
            ("android:pathPrefix=\"\(callback.path)\"", callback.path + "*", false),
        ]
        for (android, aasaPattern, passes) in cases {
            let manifest = folder.appendingPathComponent("AndroidManifest.xml")
            try """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.fix.app"><application>
              <activity android:name=".MainActivity" android:exported="true" android:launchMode="singleTask">
                <intent-filter android:autoVerify="true">
                  <action android:name="android.intent.action.VIEW" />
                  <category android:name="android.intent.category.DEFAULT" />
                  <category android:name="android.intent.category.BROWSABLE" />
                  <data android:scheme="https" android:host="fix.example.com" \(android) />
                </intent-filter>
              </activity>
            </application></manifest>
            """.write(to: manifest, atomically: true, encoding: .utf8)
            let aasa = folder.appendingPathComponent("apple-app-site-association")
            try #"{"applinks": {"details": [{"appIDs": ["T.com.fix.app"], "components": [{"/": "\#(aasaPattern)"}]}]}}"#
                .write(to: aasa, atomically: true, encoding: .utf8)
            var input = Doctor.Input()
            input.returnURL = "https://fix.example.com/checkout-callback"
            input.androidManifest = manifest.path
            input.appleAppSiteAssociation = aasa.path
            let report = Doctor.check(input)
            for rule in [DoctorRule.androidIntentFilter, .iosAASA] {
                let severities = report.findings.filter { $0.rule == rule && $0.file != nil }.map { $0.severity }
                XCTAssertEqual(severities, [passes ? .ok : .error], "\(rule.rawValue) with \(rule == .iosAASA ? aasaPattern : android)")
            }
            if android.hasPrefix("android:path=") {
                let message = report.findings.first { $0.rule == .androidIntentFilter && $0.severity == .error }?.message ?? ""
                XCTAssertTrue(message.contains("an exact android:path never receives a callback"), message)
                let aasaMessage = report.findings.first { $0.rule == .iosAASA && $0.severity == .error }?.message ?? ""
                XCTAssertTrue(aasaMessage.contains("one matches this sample callback, but not every nonce"), aasaMessage)
            }
        }
        // The suggested fixes are prefixes of the return URL's path: they cover the callback.
        let fix = try XCTUnwrap(Doctor.check({ var i = Doctor.Input(); i.returnURL = "https://fix.example.com/checkout-callback"
                                               i.androidManifest = fixture("android/broken/https-wrong-path.xml"); return i }())
            .findings.first { $0.rule == .androidIntentFilter && $0.severity == .error }?.fix)
        XCTAssertTrue(fix.contains(#"android:pathPrefix="/checkout-callback""#), fix)
        XCTAssertTrue(callback.path.hasPrefix("/checkout-callback"))
    }

    func testAndroidPathPatternsAsPatternMatcherReadsThem() {
        let cases: [(String, String, Bool)] = [
            ("/checkout.*", "/checkout-callback/0123", true),
            ("/checkout-callback", "/checkout-callback", true),
            ("/a.c", "/abc", true),
            ("/a*b", "/b", true),
            ("/a*b", "/aaab", true),
            (".*", "", true),
            ("", "", true),
            ("", "/", false),
            ("/x", "/x/y", false),
            // `.*` runs only to the first occurrence of the next character, without backtracking.
            ("/.*/api", "/a/api", true),
            ("/.*/api", "/a/b/api", false),
            // Once the path is used up, a remaining `x*` does not match (a remaining `.*` does).
            ("/a*", "/", false),
            ("/a.*", "/a", true),
            ("/a\\*", "/a*", true),
            ("/a\\*", "/aa", false),
        ]
        for (pattern, path, expected) in cases {
            XCTAssertEqual(IntentFilter.simpleGlobMatches(pattern, path), expected, "\(pattern) ~ \(path)")
        }
    }

    func testAndroidHostsAndPorts() {
        XCTAssertTrue(IntentFilter.hostMatches("*.example.com", "fix.example.com"))
        XCTAssertFalse(IntentFilter.hostMatches("*.example.com", "example.com"))
        XCTAssertTrue(IntentFilter.hostMatches("*", "result=aprobada&identifier=order-42"))
        XCTAssertTrue(IntentFilter.hostMatches("Checkout-Callback", "checkout-callback"))
        XCTAssertTrue(IntentFilter.portMatches(nil, 8443))
        XCTAssertFalse(IntentFilter.portMatches("8443", nil))
    }

    func testAppleWildcards() {
        let cases: [(String, String, Bool, Bool)] = [
            ("/checkout-callback*", "/checkout-callback", true, true),
            ("/checkout-callback*", "/checkout-callback/0123", true, true),
            ("/checkout-callback/*", "/checkout-callback", true, false),
            ("/a?c", "/abc", true, true),
            ("/a?c", "/ac", true, false),
            ("*", "", true, true),
            ("/*/x/*", "/a/b/x/c", true, true),
            ("/Checkout*", "/checkout", true, false),
            ("/Checkout*", "/checkout", false, true),
        ]
        for (pattern, text, caseSensitive, expected) in cases {
            XCTAssertEqual(AssociationChecks.wildcardMatches(pattern, text, caseSensitive: caseSensitive), expected, "\(pattern) ~ \(text)")
        }
    }

    func testCrossedPairingsAreTheOnesNobodyWrote() {
        let filter = IntentFilter(actions: [IntentFilter.view], categories: [], data: [
            .init(scheme: "fixapp", host: "checkout-callback"), .init(scheme: "https", host: "fix.example.com"),
        ], autoVerify: false, line: nil)
        XCTAssertEqual(filter.crossedPairings(), ["fixapp://fix.example.com", "https://checkout-callback"])
        // Elements meant to combine (scheme alone, host alone) claim nothing unwritten.
        let split = IntentFilter(actions: [], categories: [], data: [
            .init(scheme: "http"), .init(scheme: "https"), .init(host: "fix.example.com"),
        ], autoVerify: false, line: nil)
        XCTAssertEqual(split.crossedPairings(), [])
    }

    /// The hosted-checkout guide's own snippets (seeds/000): its intent filter and its
    /// Info.plist lines register the guide's return URL.
    func testTheGuidesOwnSnippetsRegisterItsReturnURL() {
        var input = Doctor.Input()
        input.returnURL = "fixapp://checkout-callback"
        input.androidManifest = fixture("android/seed-intent-filter.xml")
        input.infoPlist = fixture("ios/seed-Info.plist")
        let report = Doctor.check(input)
        let fileFindings = report.findings.filter { $0.file != nil }
        XCTAssertEqual(fileFindings.filter { $0.severity != .ok }.map { $0.message }, [])
        for rule in [DoctorRule.androidIntentFilter, .androidViewBrowsable, .iosURLSchemes] {
            XCTAssertTrue(fileFindings.contains { $0.rule == rule && $0.severity == .ok }, rule.rawValue)
        }
        // The same snippets do not serve the POS hand-off: they register no answer scheme.
        input.posScheme = "myapp"
        let withPOS = Doctor.check(input).findings.filter { $0.severity == .error }.map { $0.rule }
        XCTAssertEqual(Set(withPOS), [.androidIntentFilter, .androidQueries, .iosURLSchemes, .iosQueriesSchemes])
    }

    /// The printed commands hand the device exactly the link: `adb shell` joins its arguments
    /// and runs them through the device's shell, so each command is run here through two
    /// shells (`sh -c` twice), as adb would.
    func testTheTryCommandsSurviveBothShells() throws {
        for url in ["fixapp://checkout-callback?ph_nonce=0a&status=completed&card_id=card_xyz",
                    "myapp://result=aprobada&identifier=order-42~t0k&reference=a;b|c>d",
                    "https://fix.example.com/it's/$HOME/`id`/\"q\"/\\/!x?a=1&b=2"] {
            let word = ShellQuoting.throughADBShell(url)
            let asADBReceivesIt = try sh("printf '%s' " + word)
            XCTAssertEqual(try sh("printf '%s' " + asADBReceivesIt), url, word)
            XCTAssertEqual(try sh("printf '%s' " + ShellQuoting.quoted(url)), url)
        }
    }

    /// The device commands (shared with `payhandoff … answer --deliver`): the printed line, read
    /// by a shell, is the argument vector `--run` executes; for `adb`, the device's shell turns
    /// the joined arguments back into the URL — for URLs with `'`, `;`, `$()`, newlines, `&`,
    /// backquotes, `"`, `\` and `!`. A package that is not an application id is refused.
    func testDeviceCommandsKeepHostileURLsWhole() throws {
        func words(_ line: String) throws -> [String] {
            var words = try sh("set -- " + line + "; printf '%s\\0' \"$@\"").components(separatedBy: "\0")
            XCTAssertEqual(words.popLast(), "")
            return words
        }
        for url in ["myapp://result=aprobada&identifier=o~t&reference=it's", "fixapp://cb/ph_x?a=1;b=$(touch /tmp/PWNED-doctor)",
                    "myapp://result=error&statusinfo=a\nb&c", "x`id`\"q\"\\!y", "plain://x"] {
            for platform in DeviceCommand.Platform.allCases {
                let command = try DeviceCommand(platform, url: url, package: platform == .android ? "com.fix.app" : nil)
                XCTAssertEqual(try words(command.commandLine), command.arguments, command.commandLine)
                XCTAssertEqual(command.tool, platform == .ios ? "xcrun" : "adb")
                guard platform == .android else {
                    XCTAssertEqual(command.arguments, ["xcrun", "simctl", "openurl", "booted", url])
                    continue
                }
                XCTAssertEqual(Array(command.arguments.prefix(2)), ["adb", "shell"])
                let onDevice = try words(command.arguments.dropFirst(2).joined(separator: " "))
                XCTAssertEqual(onDevice, ["am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", url, "com.fix.app"], url)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/PWNED-doctor"))
        for package in ["com.fix.app", "com.fix_app.x2", "A.b"] {
            XCTAssertNoThrow(try DeviceCommand(.android, url: "x://y", package: package), package)
        }
        for package in ["com.fix;reboot", "com.fix app", "$(id)", "fix", "1com.fix", "com..fix", "com.fix-app", "com.fíx", ""] {
            XCTAssertThrowsError(try DeviceCommand(.android, url: "x://y", package: package), package) { error in
                XCTAssertEqual((error as? PayHandoffError)?.field, "package")
            }
        }
        XCTAssertThrowsError(try DeviceCommand(.ios, url: "x://y", package: "com.fix.app"))
    }

    /// Runs `command` with /bin/sh and returns its standard output.
    func sh(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, command)
        return String(decoding: data, as: UTF8.self)
    }
}
