import Foundation
import XCTest
@testable import PayHandoffDoctor

/// The platforms' matching rules as doctor writes them once (IntentFilter, AppleChecks,
/// AssociationChecks, ExpoChecks), each against the behaviour its source states.
final class DoctorMatchingTests: DoctorTestCase {
    func link(_ url: String) -> LinkTarget { LinkTarget(.callback, url, returnURL: nil)! }

    func filter(_ data: [IntentFilter.DataElement], actions: [String] = [IntentFilter.view]) -> IntentFilter {
        IntentFilter(actions: actions, categories: [IntentFilter.defaultCategory, IntentFilter.browsable], data: data, autoVerify: false, line: nil)
    }

    /// AOSP AuthorityEntry: a leading `*` is a suffix match of the rest (so `*.` covers
    /// subdomains, not the domain); any other `*` is a character; case is ignored.
    func testAndroidHostsAsAuthorityEntryMatchesThem() {
        XCTAssertTrue(IntentFilter.hostMatches("*.example.com", "fix.example.com"))
        XCTAssertFalse(IntentFilter.hostMatches("*.example.com", "example.com"))
        XCTAssertTrue(IntentFilter.hostMatches("*example.com", "example.com"))
        XCTAssertTrue(IntentFilter.hostMatches("*example.com", "myexample.com"))
        XCTAssertFalse(IntentFilter.hostMatches("fix.*.com", "fix.example.com"))
        XCTAssertTrue(IntentFilter.hostMatches("fix.*.com", "fix.*.com"))
        XCTAssertTrue(IntentFilter.hostMatches("*", "anything"))
        XCTAssertTrue(IntentFilter.hostMatches("Fix.Example.COM", "fix.example.com"))
        XCTAssertFalse(IntentFilter.hostMatches("fix.example.com", nil))
    }

    /// [data-element]: paths and ports count only next to a host; a filter without a scheme
    /// matches no link; schemes compare case-sensitively (a literal in another case is counted
    /// and reported by the lower-case rule).
    func testAndroidDataRules() {
        let callback = link("fixapp://checkout-callback/ph_1?status=completed")
        XCTAssertEqual(filter([.init(scheme: "fixapp", path: "/elsewhere")]).match(callback), .yes)  // a path without a host is ignored
        XCTAssertEqual(filter([.init(host: "checkout-callback")]).match(callback), .no)
        XCTAssertEqual(filter([.init(scheme: "fixapp", host: "checkout-callback", port: "8080")]).match(callback), .no)
        XCTAssertEqual(filter([.init(scheme: "fixapp"), .init(mimeType: "text/plain")]).match(callback), .no)
        XCTAssertEqual(filter([.init(scheme: "FixApp")]).match(callback), .yes)
        XCTAssertTrue(filter([.init(scheme: "FixApp")]).matchesOnlyIgnoringSchemeCase(callback))
        // A resolved placeholder in another case is a real miss: it is not written in the manifest.
        var resolved = IntentFilter.DataElement(scheme: "x")
        resolved.scheme = BuildValue(written: "${applicationId}", resolved: "com.Fix.App",
                                     references: [BuildReference(kind: .manifestPlaceholder, name: "applicationId", written: "${applicationId}", value: "com.Fix.App")])
        let caseMiss = filter([resolved]).match(link("com.fix.app://checkout-callback"))
        XCTAssertEqual(caseMiss, .no)
        XCTAssertTrue(filter([resolved]).mismatch(link("com.fix.app://checkout-callback")).contains("differs from com.fix.app in case"))
    }

    /// [IntentFilter.java] matchData: a matching scheme-specific part decides on its own; one
    /// that does not match falls back on the authorities, and with none the filter misses.
    func testAndroidSchemeSpecificParts() {
        let answer = link("myapp://result=aprobada&amount=100.00")
        var ssp = IntentFilter.DataElement(scheme: "myapp")
        ssp.sspPrefix = .literal("//result=")
        XCTAssertEqual(filter([ssp]).match(answer), .yes)
        ssp.sspPrefix = .literal("//other")
        XCTAssertEqual(filter([ssp]).match(answer), .no)
        XCTAssertEqual(filter([ssp, .init(host: "*")]).match(answer), .yes)
    }

    /// Three-valued: an unresolved value decides only where a resolved one does not.
    func testUnresolvedValuesLeaveTheAnswerOpen() {
        var unresolved = IntentFilter.DataElement(scheme: "x")
        unresolved.scheme = AndroidBuildValues(placeholders: [], applicationId: nil, resources: nil).resolve("${scheme}")
        let callback = link("fixapp://checkout-callback/x")
        XCTAssertEqual(filter([unresolved]).match(callback).undecided.map { $0.what }, ["${scheme}"])
        XCTAssertEqual(filter([unresolved, .init(scheme: "fixapp")]).match(callback), .yes)
        XCTAssertEqual(filter([unresolved, .init(host: "elsewhere")]).match(callback), .no)  // the host decides
        XCTAssertEqual(Tri.all([.yes, .possibly([])]), .possibly([]))
        XCTAssertEqual(Tri.any([.no, .possibly([])]), .possibly([]))
    }

    /// An activity-alias keeps its own exported and permission and takes its target's launchMode
    /// (AOSP makeAlias); an activity inherits the application's permission, an empty one clears it.
    func testAliasesAndPermissions() throws {
        let manifest = folder.appendingPathComponent("AndroidManifest.xml")
        func check(_ body: String) throws -> [DoctorRule: DoctorSeverity] {
            try """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.fix.app">
              <queries><package android:name="com.billpocket.billpocket" /></queries>
              \(body)
            </manifest>
            """.write(to: manifest, atomically: true, encoding: .utf8)
            var input = Doctor.Input()
            input.returnURL = "fixapp://checkout-callback"
            input.androidManifest = manifest.path
            return Dictionary(Doctor.check(input).findings.filter { $0.file == manifest.path && $0.severity != .ok }.map { ($0.rule, $0.severity) }) { $1 }
        }
        let filter = """
            <intent-filter><action android:name="android.intent.action.VIEW" /><category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" /><data android:scheme="fixapp" /></intent-filter>
            """
        XCTAssertEqual(try check("""
            <application><activity android:name=".Main" android:exported="true" android:launchMode="singleTask" />
            <activity-alias android:name=".Links" android:targetActivity=".Main" android:exported="false">\(filter)</activity-alias></application>
            """), [.androidExported: .error])
        XCTAssertEqual(try check("""
            <application android:permission="com.fix.app.INTERNAL"><activity android:name=".Main" android:exported="true" android:launchMode="singleTask">\(filter)</activity></application>
            """), [.androidPermission: .error])
        XCTAssertEqual(try check("""
            <application android:permission="com.fix.app.INTERNAL"><activity android:name=".Main" android:exported="true" android:permission="" android:launchMode="singleTask">\(filter)</activity></application>
            """), [:])
        // The alias does not inherit the application's permission.
        XCTAssertEqual(try check("""
            <application android:permission="com.fix.app.INTERNAL"><activity android:name="com.fix.app.Main" android:exported="true" android:launchMode="singleTask" />
            <activity-alias android:name=".Links" android:targetActivity=".Main" android:exported="true">\(filter)</activity-alias></application>
            """), [:])
        // A target declared elsewhere (a library's manifest): its launchMode is not known.
        XCTAssertEqual(try check("""
            <application><activity-alias android:name=".Links" android:targetActivity="com.lib.Main" android:exported="true">\(filter)</activity-alias></application>
            """), [.androidLaunchMode: .warning])
    }

    /// iOS: URL schemes compare ignoring case; LSApplicationQueriesSchemes is read up to 50
    /// entries; `*.` domains cover subdomains only; `mode=` limits a domain to some devices.
    func testAppleRules() {
        XCTAssertEqual(AppleChecks.registers([.literal("FixApp")], "fixapp"), .yes)
        let entries = (1...50).map { BuildValue.literal("s\($0)") } + [.literal("billpocket")]
        XCTAssertEqual(AppleChecks.queryPosition(entries, "billpocket").position, 50)
        XCTAssertTrue(AppleChecks.covers("applinks:*.example.com", host: "fix.example.com").covers)
        XCTAssertFalse(AppleChecks.covers("applinks:*.example.com", host: "example.com").covers)
        XCTAssertTrue(AppleChecks.covers("applinks:Fix.Example.com", host: "fix.example.com").covers)
        XCTAssertEqual(AppleChecks.covers("applinks:fix.example.com?mode=managed", host: "fix.example.com").mode, "managed")
        XCTAssertFalse(AppleChecks.covers("webcredentials:fix.example.com", host: "fix.example.com").covers)
    }

    /// AASA: an entry's `components` replace its `paths` (iOS 13+); the first matching pattern
    /// decides; `defaults` and `percentEncoded` apply; a substitution variable is not expanded.
    func testAppleAppSiteAssociation() {
        let callback = link("https://fix.example.com/checkout-callback/ph_1?status=completed")
        let both: [String: Any] = ["appIDs": ["T.app"], "paths": ["/checkout-callback/*"], "components": [["/": "/other/*"]]]
        XCTAssertNil(AssociationChecks.decision(both, defaults: [:], callback))
        let order: [String: Any] = ["components": [["/": "/checkout-*", "exclude": true], ["/": "/checkout-callback/*"]]]
        XCTAssertEqual(AssociationChecks.decision(order, defaults: [:], callback), .excluded(index: 0, pattern: "\"/\": \"/checkout-*\""))
        let upper: [String: Any] = ["components": [["/": "/Checkout-Callback/*"]]]
        XCTAssertNil(AssociationChecks.decision(upper, defaults: [:], callback))
        XCTAssertNotNil(AssociationChecks.decision(upper, defaults: ["caseSensitive": false], callback))
        let query: [String: Any] = ["components": [["/": "/checkout-callback/*", "?": ["status": "completed"]]]]
        XCTAssertEqual(AssociationChecks.decision(query, defaults: [:], callback), .included(index: 0, pattern: "\"/\": \"/checkout-callback/*\""))
        let variable: [String: Any] = ["components": [["/": "/$(lang)/checkout-callback/*"]]]
        guard case .undecided? = AssociationChecks.decision(variable, defaults: [:], callback) else { return XCTFail("a substitution variable leaves it open") }
        // The first entry listing the app answers, even when a later one would include the path.
        let document: [String: Any] = ["applinks": ["details": [["appIDs": ["T.app"], "components": [["/": "/checkout-callback/*", "exclude": true]]],
                                                                ["appIDs": ["T.app"], "components": [["/": "*"]]]]]]
        XCTAssertEqual(AssociationChecks.answer(document, appID: "T.app", link: callback)?.offset, 0)
    }

    /// Expo: prebuild prefixes every action and category (IntentFilters.ts), so a full action
    /// name becomes a broken one; the expo-build-properties plugin prefixes its query intents'
    /// actions too, so Billpocket's own actions cannot be declared there, its package can.
    func testExpoRendersFiltersAsPrebuildDoes() throws {
        let expo: [String: Any] = ["scheme": "fixapp", "android": ["intentFilters": [
            ["action": "VIEW", "category": ["BROWSABLE", "DEFAULT"], "data": ["scheme": "com.fix.app"]],
            ["action": "android.intent.action.VIEW", "category": "BROWSABLE", "data": [["scheme": "other"]]],
        ]]]
        let platforms = ExpoChecks.platforms(expo, apple: AppleBuildValues(settings: [], bundleIdentifier: nil))
        XCTAssertEqual(platforms.intentFilters.map { $0?.actions ?? [] }, [["android.intent.action.VIEW"], ["android.intent.action.android.intent.action.VIEW"]])
        XCTAssertEqual(platforms.intentFilters.map { $0?.hasView ?? false }, [true, false])
        XCTAssertEqual(platforms.schemeFilter?.schemes.map { $0.written }, ["fixapp"])
        let config = folder.appendingPathComponent("app.json")
        for (queries, severity) in [(#"{"intent": [{"action": "billpocket.payments.START"}]}"#, DoctorSeverity.warning),
                                    (#"{"package": ["com.billpocket.billpocket"]}"#, .ok)] {
            try #"{"expo": {"scheme": "myapp", "plugins": [["expo-build-properties", {"android": {"manifestQueries": \#(queries)}}]]}}"#
                .write(to: config, atomically: true, encoding: .utf8)
            var input = Doctor.Input()
            input.posScheme = "myapp"
            input.expoConfig = config.path
            XCTAssertEqual(Doctor.check(input).findings.first { $0.rule == .androidQueries }?.severity, severity, queries)
        }
    }
}
