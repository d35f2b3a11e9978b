import Foundation
import XCTest
import PayHandoff
@testable import PayHandoffDoctor

/// Issue 37: what doctor says about public apps' own files (reduced under Fixtures/*/apps/,
/// each naming its app and file), one test per thing it got wrong. DoctorRuleTests runs the
/// same fixtures as passing and failing pairs, and DoctorFixDiffTests applies their fixes.
final class DoctorRealAppTests: DoctorTestCase {
    func check(_ configure: (inout Doctor.Input) -> Void) -> DoctorReport {
        var input = Doctor.Input()
        configure(&input)
        return Doctor.check(input)
    }

    func finding(_ report: DoctorReport, _ rule: DoctorRule, _ severity: DoctorSeverity? = nil, containing text: String? = nil) -> DoctorFinding? {
        report.findings.first { $0.rule == rule && (severity == nil || $0.severity == severity) && (text == nil || $0.message.contains(text!)) }
    }

    // MARK: 1. autoVerify verifies concrete http(s) hosts only

    /// AOSP DomainVerificationCollector: a host counts only as a domain name, optionally after
    /// `*.`; `*.example.com` is verified at example.com and covers the names under it.
    func testOnlyConcreteHostsAreVerified() {
        for host in ["example.com", "*.example.com", "app.element.io", "xn--bcher-kva.example", "192.0.2.1"] {
            XCTAssertTrue(AppLinkVerification.isVerifiableHost(host), host)
        }
        for host in ["*", "", "*example.com", "localhost", "example.c0m", "a..b.com", "*.192.0.2.1", "exa mple.com"] {
            XCTAssertFalse(AppLinkVerification.isVerifiableHost(host), host)
        }
        XCTAssertTrue(AppLinkVerification.covers("*.bitwarden.com", "vault.bitwarden.com"))
        XCTAssertFalse(AppLinkVerification.covers("*.bitwarden.com", "bitwarden.community"))
        XCTAssertTrue(AppLinkVerification.covers("Cloud.Example.org", "cloud.example.org"))
    }

    /// From targetSdkVersion 31 only a filter whose schemes are all web ones, with VIEW,
    /// DEFAULT and BROWSABLE, asks for verification; below, one such filter makes every web
    /// filter's hosts count.
    func testWhichFiltersAskForVerification() {
        func filter(_ data: [IntentFilter.DataElement], categories: [String] = [IntentFilter.defaultCategory, IntentFilter.browsable], autoVerify: Bool = true) -> IntentFilter {
            IntentFilter(actions: [IntentFilter.view], categories: categories, data: data, autoVerify: autoVerify, line: nil)
        }
        let mixed = filter([.init(scheme: "https", host: "fix.example.com"), .init(scheme: "fixapp")])
        let web = filter([.init(scheme: "https", host: "fix.example.com")])
        let plain = filter([.init(scheme: "https", host: "other.example.com")], autoVerify: false)
        let noDefault = filter([.init(scheme: "https", host: "fix.example.com")], categories: [IntentFilter.browsable])
        XCTAssertEqual(AppLinkVerification.claims([("A", mixed)], legacy: false).count, 0)
        XCTAssertEqual(AppLinkVerification.claims([("A", noDefault)], legacy: false).count, 0)
        XCTAssertEqual(AppLinkVerification.claims([("A", web), ("A", plain)], legacy: false).map { $0.host.written }, ["fix.example.com"])
        XCTAssertEqual(AppLinkVerification.claims([("A", web), ("A", plain)], legacy: true).map { $0.host.written }, ["fix.example.com", "other.example.com"])
        XCTAssertEqual(AppLinkVerification.claims([("A", mixed), ("A", plain)], legacy: true).count, 0)
    }

    /// Verification is the app's: one autoVerify filter naming the host is enough, even when
    /// the filter that receives the callback has none ([verify-android-applinks]).
    func testOneVerifyingFilterPerHostIsEnough() throws {
        let manifest = folder.appendingPathComponent("AndroidManifest.xml")
        try """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android"><application>
          <activity android:name=".MainActivity" android:exported="true" android:launchMode="singleTask">
            <intent-filter android:autoVerify="true">
              <action android:name="android.intent.action.VIEW" />
              <category android:name="android.intent.category.DEFAULT" />
              <category android:name="android.intent.category.BROWSABLE" />
              <data android:scheme="https" android:host="fix.example.com" android:pathPrefix="/orders/" />
            </intent-filter>
            <intent-filter>
              <action android:name="android.intent.action.VIEW" />
              <category android:name="android.intent.category.DEFAULT" />
              <category android:name="android.intent.category.BROWSABLE" />
              <data android:scheme="https" android:host="fix.example.com" android:pathPrefix="/checkout-callback" />
            </intent-filter>
          </activity>
        </application></manifest>
        """.write(to: manifest, atomically: true, encoding: .utf8)
        let report = check {
            $0.returnURL = "https://fix.example.com/checkout-callback"
            $0.androidManifest = manifest.path
        }
        XCTAssertEqual(report.findings.filter { $0.file == manifest.path && $0.severity != .ok }.map { $0.message }, [])
        XCTAssertTrue(finding(report, .androidAppLinksVerify, .ok)?.message.contains("intent filter at line 3 has android:autoVerify=\"true\" and the host fix.example.com") ?? false)
    }

    /// Nextcloud's filters name the host "*" with autoVerify: receiving the link is not being
    /// verified for it. AppFlowy's names no host at all. Bitwarden's *.bitwarden.com is.
    func testNextcloudAppFlowyAndBitwarden() throws {
        let nextcloud = check {
            $0.returnURL = "https://cloud.example.org/app/checkout-callback"
            $0.androidManifest = fixture("android/apps/nextcloud-any-host.xml")
        }
        XCTAssertEqual(finding(nextcloud, .androidIntentFilter)?.severity, .ok)
        let verify = try XCTUnwrap(finding(nextcloud, .androidAppLinksVerify))
        XCTAssertEqual(verify.severity, .error)
        XCTAssertTrue(verify.message.contains("each have android:autoVerify=\"true\" but the host \"*\", not a domain name"), verify.message)
        // The fix is a filter of its own with the concrete host: autoVerify is already there.
        XCTAssertTrue(verify.fix?.contains("android:host=\"cloud.example.org\"") ?? false, verify.fix ?? "")
        let appflowy = check {
            $0.returnURL = "https://appflowy.com/checkout-callback"
            $0.androidManifest = fixture("android/apps/appflowy-no-host.xml")
        }
        XCTAssertTrue(finding(appflowy, .androidAppLinksVerify, .error)?.message.contains("has android:autoVerify=\"true\" but no host") ?? false)
        let bitwarden = check {
            $0.returnURL = "https://vault.bitwarden.com/redirect-connector/checkout"
            $0.androidManifest = fixture("android/apps/bitwarden.xml")
        }
        let verified = try XCTUnwrap(finding(bitwarden, .androidAppLinksVerify))
        XCTAssertEqual(verified.severity, .ok)
        XCTAssertTrue(verified.message.hasSuffix("*.bitwarden.com is verified with https://bitwarden.com/.well-known/assetlinks.json"), verified.message)
    }

    // MARK: 2. The literal text around an unresolved value

    /// Literal pieces decide; only the unresolved part is unknown; a reference's value (fixed
    /// at build time) never stands for the nonce, which is new on every payment.
    func testLiteralTextAroundUnresolvedValues() {
        let android = AndroidBuildValues(placeholders: [], applicationId: nil, resources: nil)
        let apple = AppleBuildValues(settings: [], bundleIdentifier: nil)
        XCTAssertEqual(LinkText("net.thunderbird.android").test(android.resolve("${applicationId}.mobile"), .equal), .no)
        XCTAssertFalse(LinkText("net.thunderbird.android.mobile").test(android.resolve("${applicationId}.mobile"), .equal).isNo)
        XCTAssertFalse(LinkText("net.thunderbird.android").test(android.resolve("${applicationId}"), .equal).isNo)
        XCTAssertEqual(LinkText("im.fluffychat.auth").test(apple.resolve("ShareMedia-$(PRODUCT_BUNDLE_IDENTIFIER)"), .equal, ignoringCase: true), .no)
        XCTAssertFalse(LinkText("sharemedia-im.fluffychat").test(apple.resolve("ShareMedia-$(PRODUCT_BUNDLE_IDENTIFIER)"), .equal, ignoringCase: true).isNo)
        XCTAssertEqual(IntentFilter.hostMatches(android.resolve("${region}.fix.example.com"), "fix.other.com"), .no)
        XCTAssertFalse(IntentFilter.hostMatches(android.resolve("${region}.fix.example.com"), "eu.fix.example.com").isNo)
        // A path with the nonce: an exact path, placeholder or not, never covers every callback.
        let path = LinkText("/element/ph_0123456789abcdef", changing: "0123456789abcdef")
        XCTAssertEqual(path.test(.literal("/element/ph_0123456789abcdef"), .equal), .no)
        XCTAssertEqual(path.test(android.resolve("/${applicationId}"), .equal), .no)
        XCTAssertEqual(path.test(android.resolve("/element/${x}"), .equal), .no)
        XCTAssertEqual(path.test(.literal("/element/"), .prefix), .yes)
        XCTAssertFalse(path.test(android.resolve("/${x}/"), .prefix).isNo)
        XCTAssertEqual(path.test(.literal("/element/ph_0"), .prefix), .no)
        XCTAssertTrue(path.globMatches("/element/ph_.*"))
        XCTAssertFalse(path.globMatches("/element/ph_0.*"))
        XCTAssertTrue(path.wildcardMatches("/element/ph_????????????????", caseSensitive: true))
    }

    /// FluffyChat: "ShareMedia-$(PRODUCT_BUNDLE_IDENTIFIER)" is no "possibly": an error saying why.
    func testFluffyChatsShareMediaScheme() throws {
        let report = check {
            $0.returnURL = "im.fluffychat.auth://checkout-callback"
            $0.infoPlist = fixture("ios/apps/fluffychat-Info.plist")
        }
        let schemes = try XCTUnwrap(finding(report, .iosURLSchemes))
        XCTAssertEqual(schemes.severity, .error)
        XCTAssertTrue(schemes.message.contains("\"ShareMedia-$(PRODUCT_BUNDLE_IDENTIFIER)\" cannot be im.fluffychat.auth whatever $(PRODUCT_BUNDLE_IDENTIFIER) is"), schemes.message)
    }

    /// Element X: the unresolved OIDC scheme keeps the answer a warning, but the warning names
    /// the real problem, the exact path of the filter for the link's host; its resValue is
    /// said to be outside res/; with the generated folder, an error; no error either way
    /// comes from the filter that only possibly receives.
    func testElementXsExactPath() throws {
        let res = fixture("android/apps/element-x-res"), generated = fixture("android/apps/element-x-resvalues")
        let possibly = check {
            $0.returnURL = "https://mobile.element.io/element/"
            $0.androidManifest = fixture("android/apps/element-x.xml")
            $0.androidResources = [res]
        }
        XCTAssertFalse(possibly.hasErrors)
        let receiver = try XCTUnwrap(finding(possibly, .androidIntentFilter, .warning, containing: "possibly receives"))
        XCTAssertTrue(receiver.message.contains("none of its paths (path /element/) matches the path /element/ph_"), receiver.message)
        XCTAssertTrue(receiver.message.contains("an exact android:path never receives a callback"), receiver.message)
        let note = try XCTUnwrap(finding(possibly, .androidIntentFilter, .warning, containing: "@string/login_redirect_scheme is not in"))
        XCTAssertTrue(note.message.contains("resValue is not under res/"), note.message)
        let resolved = check {
            $0.returnURL = "https://mobile.element.io/element/"
            $0.androidManifest = fixture("android/apps/element-x.xml")
            $0.androidResources = [res, generated]
        }
        let error = try XCTUnwrap(finding(resolved, .androidIntentFilter, .error))
        XCTAssertTrue(error.fix?.contains("android:pathPrefix=\"/element/\"") ?? false, error.fix ?? "")
        XCTAssertFalse(resolved.findings.contains { $0.rule == .androidAppLinksVerify && $0.severity != .ok })
    }

    // MARK: 3. BROWSABLE decides for the browser's redirect, not for the POS app's answer

    func testBrowsableDecidesForTheBrowserOnly() throws {
        let defaultOnly = IntentFilter(actions: [IntentFilter.view], categories: [IntentFilter.defaultCategory],
                                       data: [.init(scheme: "bitwarden")], autoVerify: false, line: nil)
        let links = DoctorLinks(returnURL: "bitwarden://sso-callback", posScheme: "bitwarden")
        let callback = try XCTUnwrap(links.targets.first { $0.role == .callback })
        let answer = try XCTUnwrap(links.targets.first { $0.role == .posAnswer })
        XCTAssertFalse(defaultOnly.routes(callback))
        XCTAssertTrue(defaultOnly.routes(answer))
        // Bitwarden: two activities match bitwarden://sso-callback, one of them is BROWSABLE.
        let report = check {
            $0.returnURL = "bitwarden://sso-callback"
            $0.androidManifest = fixture("android/apps/bitwarden.xml")
        }
        let receiver = try XCTUnwrap(finding(report, .androidIntentFilter))
        XCTAssertEqual(receiver.severity, .ok)
        XCTAssertTrue(receiver.message.hasPrefix(".AuthCallbackActivity receives the checkout callback"), receiver.message)
        XCTAssertTrue(receiver.message.hasSuffix(".MainActivity's intent filter at line 66 matches it too, but without BROWSABLE a browser's redirect does not reach it"), receiver.message)
        XCTAssertFalse(report.findings.contains { $0.message.contains("both receive") })
    }

    // MARK: 4. Fixes that widen nothing

    /// BlueWallet's filter for its custom schemes also lists http and https: BROWSABLE goes
    /// into a filter of its own, never into that one. The converse check of DoctorFixDiffTests
    /// catches the fix that would: every web link opened from a browser would reach the app.
    func testBlueWalletGetsAFilterOfItsOwn() throws {
        let report = check {
            $0.returnURL = "bluewallet://checkout-callback"
            $0.androidManifest = fixture("android/apps/bluewallet.xml")
        }
        let browsable = try XCTUnwrap(finding(report, .androidViewBrowsable, .error))
        XCTAssertTrue(browsable.fix?.hasPrefix("add inside <activity android:name=\".MainActivity\"> (line 26) a filter of its own") ?? false, browsable.fix ?? "")
        XCTAssertTrue(browsable.fix?.contains("<data android:scheme=\"bluewallet\" android:host=\"checkout-callback\" />") ?? false, browsable.fix ?? "")
        // The fix doctor used to write, by hand: BROWSABLE in the shared filter.
        var text = try String(contentsOfFile: fixture("android/apps/bluewallet.xml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "<intent-filter tools:ignore=\"AppLinkUrlError\">\n                <action android:name=\"android.intent.action.VIEW\" />",
                                         with: "<intent-filter tools:ignore=\"AppLinkUrlError\">\n                <action android:name=\"android.intent.action.VIEW\" />\n                <category android:name=\"android.intent.category.BROWSABLE\" />")
        let widened = folder.appendingPathComponent("widened.xml")
        try text.write(to: widened, atomically: true, encoding: .utf8)
        var input = Doctor.Input()
        input.returnURL = "bluewallet://checkout-callback"
        input.androidManifest = fixture("android/apps/bluewallet.xml")
        let before = try DoctorFixDiffTests.probes(fixture("android/apps/bluewallet.xml"), input, urls: ["https://probe-host/probe"])
        input.androidManifest = widened.path
        let after = try DoctorFixDiffTests.probes(widened.path, input, urls: ["https://probe-host/probe"])
        let gained = (after["https://probe-host/probe"] ?? []).subtracting(before["https://probe-host/probe"] ?? [])
        XCTAssertEqual(gained, [".MainActivity (browser)"])
        XCTAssertFalse(DoctorFixDiffTests.askedFor("https://probe-host/probe", gained, input))
        XCTAssertTrue(DoctorFixDiffTests.askedFor("bluewallet://probe-host/probe", gained, input))
    }

    /// autoVerify on a custom-scheme filter (what doctor used to add for Element X) verifies
    /// nothing: the fix-diff test's autoVerify check finds it.
    func testAutoVerifyWhereItVerifiesNothingIsCaught() throws {
        let manifest = folder.appendingPathComponent("AndroidManifest.xml")
        try """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android"><application>
          <activity android:name=".MainActivity" android:exported="true">
            <intent-filter android:autoVerify="true">
              <action android:name="android.intent.action.VIEW" />
              <category android:name="android.intent.category.DEFAULT" />
              <category android:name="android.intent.category.BROWSABLE" />
              <data android:scheme="io.element.android" />
            </intent-filter>
          </activity>
        </application></manifest>
        """.write(to: manifest, atomically: true, encoding: .utf8)
        var input = Doctor.Input()
        input.androidManifest = manifest.path
        XCTAssertEqual(try DoctorFixDiffTests.verifyingNothing(manifest.path, input), [".MainActivity: io.element.android    "])
    }

    // MARK: 5. @integer/ and @bool/ per API level

    /// Bitwarden: launchMode is @integer/launchModeAPIlevel, singleTask (2) in values/ and
    /// standard (0) in values-v30/.
    func testBitwardensLaunchModePerAPILevel() throws {
        let read = AndroidBuildValues.readResources([fixture("android/apps/bitwarden-res")])
        let values = AndroidBuildValues(placeholders: [], applicationId: nil, resources: read.resources)
        let mode = values.resolve("@integer/launchModeAPIlevel")
        XCTAssertEqual(mode.resolved, "2")
        XCTAssertEqual(mode.perAPILevel.map { "\($0.from.map(String.init) ?? "-")..\($0.to.map(String.init) ?? "-")=\($0.value)" }, ["-..30=2", "30..-=0"])
        let report = check {
            $0.returnURL = "https://vault.bitwarden.com/redirect-connector/checkout"
            $0.androidManifest = fixture("android/apps/bitwarden.xml")
            $0.androidResources = [fixture("android/apps/bitwarden-res")]
        }
        let launch = try XCTUnwrap(finding(report, .androidLaunchMode))
        // Issue 38: below API 30 the launcher activity is singleTask, so the app's icon mid-payment
        // finishes the browser tab: an error; from API 30, standard: a warning.
        XCTAssertEqual(launch.severity, .error)
        XCTAssertTrue(launch.message.contains("has android:launchMode=\"@integer/launchModeAPIlevel\": singleTask below API 30 (values/manifest.xml), standard from API 30 (values-v30/manifest.xml); where it is singleTask: .MainActivity is the launcher activity, so tapping the app's icon while the checkout is open restarts the task"), launch.message)
        XCTAssertTrue(launch.message.contains("; where it is standard: every link creates a new instance"), launch.message)
        XCTAssertTrue(launch.fix?.contains("the value 1 (singleTop)") ?? false, launch.fix ?? "")
        XCTAssertEqual(launch.edits, [], "the reference is not overwritten")
        // Without the folder, the mode is unknown: not "standard".
        let unknown = check {
            $0.returnURL = "https://vault.bitwarden.com/redirect-connector/checkout"
            $0.androidManifest = fixture("android/apps/bitwarden.xml")
        }
        XCTAssertTrue(finding(unknown, .androidLaunchMode)?.message.contains("it depends on @integer/launchModeAPIlevel (--android-res)") ?? false)
    }

    /// `android:enabled` and `android:exported` as `@bool/`: resolved, and per API level.
    func testBoolResourcesPerAPILevel() throws {
        let res = folder.appendingPathComponent("res")
        for (folderName, enabled, exported) in [("values", "false", "true"), ("values-v23", "true", "true"), ("values-v31", "true", "false")] {
            let values = res.appendingPathComponent(folderName)
            try FileManager.default.createDirectory(at: values, withIntermediateDirectories: true)
            try "<resources><bool name=\"links_enabled\">\(enabled)</bool><item type=\"bool\" name=\"links_exported\">\(exported)</item></resources>"
                .write(to: values.appendingPathComponent("bools.xml"), atomically: true, encoding: .utf8)
        }
        let manifest = folder.appendingPathComponent("AndroidManifest.xml")
        try """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android"><application>
          <activity android:name=".Links" android:enabled="@bool/links_enabled" android:exported="@bool/links_exported" android:launchMode="singleTask">
            <intent-filter>
              <action android:name="android.intent.action.VIEW" />
              <category android:name="android.intent.category.DEFAULT" />
              <category android:name="android.intent.category.BROWSABLE" />
              <data android:scheme="fixapp" />
            </intent-filter>
          </activity>
        </application></manifest>
        """.write(to: manifest, atomically: true, encoding: .utf8)
        let report = check {
            $0.returnURL = "fixapp://checkout-callback"
            $0.androidManifest = manifest.path
            $0.androidResources = [res.path]
        }
        XCTAssertTrue(finding(report, .androidIntentFilter, .warning)?.message.contains(".Links (the checkout callback) is disabled below API 23 (android:enabled=\"@bool/links_enabled\")") ?? false,
                      report.findings.map { $0.message }.joined(separator: "\n"))
        let exported = try XCTUnwrap(finding(report, .androidExported))
        XCTAssertEqual(exported.severity, .error)
        XCTAssertTrue(exported.message.contains("which is true below API 31 (values/bools.xml), false from API 31 (values-v31/bools.xml)"), exported.message)
    }

    // MARK: 6. Expo "platforms"

    /// Jellyfin: an iOS-only config (platforms ["ios"]) gets its Android miss as a warning
    /// naming platforms; the same config listing android gets it as an error.
    func testJellyfinsPlatforms() throws {
        func run(_ path: String) -> DoctorReport {
            check {
                $0.returnURL = "org.jellyfin.expo://checkout-callback"
                $0.expoConfig = fixture(path)
            }
        }
        let iosOnly = run("expo/apps/jellyfin-ios-only.json")
        XCTAssertFalse(iosOnly.hasErrors)
        let android = try XCTUnwrap(finding(iosOnly, .expoScheme, .warning))
        XCTAssertTrue(android.message.hasPrefix("Android: "), android.message)
        XCTAssertTrue(android.message.contains("(\"platforms\" is [\"ios\"], without android: npx expo prebuild does not read it"), android.message)
        XCTAssertEqual(finding(run("expo/apps/jellyfin-ios-and-android.json"), .expoScheme, .error)?.message.hasPrefix("Android: "), true)
    }

    // MARK: 7. Explanations and where fixes go

    /// Thunderbird beta: ${applicationId} resolved to the beta's id, not the return URL's scheme.
    func testThunderbirdsApplicationId() throws {
        let report = check {
            $0.returnURL = "net.thunderbird.android://checkout-callback"
            $0.androidPackage = "net.thunderbird.android.beta"
            $0.androidManifest = fixture("android/apps/thunderbird-beta.xml")
        }
        let miss = try XCTUnwrap(finding(report, .androidIntentFilter, .error))
        XCTAssertTrue(miss.message.contains("(${applicationId} is net.thunderbird.android.beta (from --android-package), so ${applicationId}.mobile is net.thunderbird.android.beta.mobile, not net.thunderbird.android: the return URL must use the applicationId of the build that runs"), miss.message)
        XCTAssertTrue(miss.fix?.hasSuffix("(or, if this build is the one that pays, send its own scheme: --return-url net.thunderbird.android.beta://checkout-callback)") ?? false, miss.fix ?? "")
    }

    /// A new filter goes to the nearest miss's activity (Mastodon's OAuthActivity has the
    /// callback's scheme), then to the other link's (the POS answer follows it), then to the
    /// launcher (Nextcloud's, not FileDisplayActivity, the first with a VIEW filter).
    func testFixesGoWhereTheLinkBelongs() throws {
        let mastodon = check {
            $0.returnURL = "mastodon-android-auth://checkout-callback"
            $0.posScheme = "mastodonpos"
            $0.androidManifest = fixture("android/apps/mastodon.xml")
        }
        let misses = mastodon.findings.filter { $0.rule == .androidIntentFilter && $0.severity == .error }
        XCTAssertEqual(misses.count, 2)
        for miss in misses { XCTAssertTrue(miss.fix?.hasPrefix("add inside <activity android:name=\".OAuthActivity\"> (line 30):") ?? false, miss.fix ?? "") }
        let nextcloud = check {
            $0.posScheme = "com.nextcloud.client.pos"
            $0.androidManifest = fixture("android/apps/nextcloud-any-host.xml")
        }
        let miss = try XCTUnwrap(finding(nextcloud, .androidIntentFilter, .error))
        XCTAssertTrue(miss.fix?.hasPrefix("add inside <activity android:name=\"com.nmc.android.ui.LauncherActivity\"> (line 81):") ?? false, miss.fix ?? "")
    }

    /// Expo's intent filters get near-miss explanations as a manifest's do: prebuild writes
    /// rne-features' "https://" as it is, which is never https.
    func testExpoNearMisses() throws {
        let report = check {
            $0.returnURL = "https://johnchang.me/pros/checkout-callback"
            $0.expoConfig = fixture("expo/apps/rne-features.json")
        }
        let miss = try XCTUnwrap(finding(report, .expoAndroidIntentFilters, .error))
        XCTAssertTrue(miss.message.hasSuffix("android.intentFilters[0]: its schemes are rnefeatures://, https://"), miss.message)
    }

    // MARK: issue 38: Expo Router's +native-intent

    /// The file doctor prints is one text: docs/doctor.md shows it, and the fixtures that pass
    /// `expo.router-native-intent` hold it, byte for byte (so none drifts from what is printed).
    func testThePrintedNativeIntentFileIsTheDocumentedOne() throws {
        let printed = ExpoRouterChecks.nativeIntentFile + "\n"
        let page = try String(contentsOf: DoctorTestCase.repository.appendingPathComponent("docs/doctor.md"), encoding: .utf8)
        XCTAssertTrue(page.contains("```tsx\n" + printed + "```"), "docs/doctor.md shows the printed +native-intent.tsx")
        for folder in ["expo", "expo/broken", "expo/apps/expo-template-default-native-intent"] {
            XCTAssertEqual(try String(contentsOfFile: fixture(folder + "/app/+native-intent.tsx"), encoding: .utf8), printed, folder)
        }
        // Detected from package.json when the plugins do not name it; the plugin's root option moves the folder.
        let app = folder.appendingPathComponent("router-app")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("src/screens"), withIntermediateDirectories: true)
        try #"{"expo": {"scheme": "myapp"}}"#.write(to: app.appendingPathComponent("app.json"), atomically: true, encoding: .utf8)
        let noRouter = check { $0.returnURL = "myapp://checkout-callback"; $0.expoConfig = app.appendingPathComponent("app.json").path }
        XCTAssertNil(finding(noRouter, .expoRouterNativeIntent), "no expo-router: no finding")
        try #"{"dependencies": {"expo-router": "~5.1.0"}}"#.write(to: app.appendingPathComponent("package.json"), atomically: true, encoding: .utf8)
        let fromPackage = check { $0.returnURL = "myapp://checkout-callback"; $0.expoConfig = app.appendingPathComponent("app.json").path }
        XCTAssertEqual(finding(fromPackage, .expoRouterNativeIntent)?.severity, .error)
        XCTAssertTrue(finding(fromPackage, .expoRouterNativeIntent)?.message.hasPrefix("package.json's dependencies list expo-router") ?? false)
        try #"{"expo": {"scheme": "myapp", "plugins": [["expo-router", {"root": "src/screens"}]]}}"#.write(to: app.appendingPathComponent("app.json"), atomically: true, encoding: .utf8)
        try "export function redirectSystemPath({ path }) { return path; }\n".write(to: app.appendingPathComponent("src/screens/+native-intent.ts"), atomically: true, encoding: .utf8)
        let template = check { $0.returnURL = "myapp://checkout-callback"; $0.expoConfig = app.appendingPathComponent("app.json").path }
        XCTAssertEqual(finding(template, .expoRouterNativeIntent)?.severity, .warning, "redirectSystemPath without handleUrl: " + (finding(template, .expoRouterNativeIntent)?.message ?? ""))
    }

    // MARK: issue 39: the POS apps an app must see

    /// Square's own Android sample declares no `<queries>`: the Point of Sale SDK it depends on
    /// does, in its library manifest, and the manifest merger carries it into the app. Doctor
    /// reads the file it is given, so on the source manifest it fails and names the merged one;
    /// on the merged manifest it passes. Square's iOS example (The Coffee Shop) has
    /// `square-commerce-v1` and nothing for SumUp.
    func testSquaresSamplesSeePointOfSale() throws {
        let source = check {
            $0.androidManifest = fixture("android/apps/square-hellocharge.xml")
            $0.targetSDK = 33
            $0.posApps = [.square]
        }
        let missing = try XCTUnwrap(finding(source, .androidQueries))
        XCTAssertEqual(missing.severity, .error)
        XCTAssertTrue(missing.message.hasPrefix("no <queries> entry for Square Point of Sale (its package com.squareup or the action com.squareup.pos.action.CHARGE)"), missing.message)
        XCTAssertTrue(missing.message.contains("Square's point-of-sale-sdk library declares the CHARGE intent in its own manifest, which only the merged manifest"), missing.message)
        XCTAssertEqual(source.findings.filter { $0.severity != .ok }.map { $0.rule }, [.androidQueries], "nothing else fails: the answer is an activity result, no link")
        let merged = check {
            $0.androidManifest = fixture("android/apps/square-hellocharge-merged.xml")
            $0.targetSDK = 33
            $0.posApps = [.square]
        }
        XCTAssertEqual(finding(merged, .androidQueries)?.severity, .ok)
        XCTAssertTrue(finding(merged, .androidQueries)?.message.hasPrefix("<queries> declares the action com.squareup.pos.action.CHARGE") ?? false)
        XCTAssertFalse(merged.hasErrors)
        let coffeeShop = { (apps: [POSApp]) in
            self.check {
                $0.infoPlist = fixture("ios/apps/square-coffee-shop-Info.plist")
                $0.posScheme = "coffeeshop"
                $0.posApps = apps
            }
        }
        let square = coffeeShop([.square])
        XCTAssertFalse(square.hasErrors, square.text)
        XCTAssertEqual(square.findings.filter { $0.rule == .iosQueriesSchemes }.map { $0.severity }, [.ok])
        XCTAssertEqual(finding(square, .iosURLSchemes)?.severity, .ok, "coffeeshop:// is registered for Square's answer")
        let both = coffeeShop([.square, .sumup, .clip])
        XCTAssertEqual(both.findings.filter { $0.rule == .iosQueriesSchemes }.map { $0.severity }, [.ok, .error, .warning])
        XCTAssertTrue(finding(both, .iosQueriesSchemes, .error)?.message.hasPrefix("LSApplicationQueriesSchemes does not hold sumupmerchant") ?? false)
    }
}
