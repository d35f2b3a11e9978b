import Foundation
import XCTest
@testable import PayHandoffDoctor

/// What the build resolves (issue 28): Gradle placeholders, string resources, Xcode build
/// settings, the target SDK; and what an unresolved value does to a check.
final class DoctorBuildValuesTests: DoctorTestCase {
    func testManifestPlaceholders() {
        let values = AndroidBuildValues(placeholders: [(key: "appAuthRedirectScheme", value: "com.fix.app.oauth")],
                                        applicationId: ("com.fix.app", "--android-package"), resources: nil)
        XCTAssertEqual(values.resolve("${applicationId}").resolved, "com.fix.app")
        XCTAssertEqual(values.resolve("${packageName}.auth").resolved, "com.fix.app.auth")  // the merger's older name
        XCTAssertEqual(values.resolve("${appAuthRedirectScheme}").resolved, "com.fix.app.oauth")
        XCTAssertEqual(values.resolve("fixapp").references, [])
        let unresolved = values.resolve("${region}.fix.example.com")
        XCTAssertNil(unresolved.resolved)
        XCTAssertEqual(unresolved.unresolved.map { $0.written }, ["${region}"])
        XCTAssertEqual(unresolved.unresolved.first?.option, "--manifest-placeholder")
        // An unterminated placeholder is text, as the merger leaves it.
        XCTAssertEqual(values.resolve("${oops").resolved, "${oops")
    }

    func testStringResources() throws {
        let read = AndroidBuildValues.readResources([fixture("android/res")])
        XCTAssertEqual(read.findings.map { $0.severity }, [.ok])
        let values = AndroidBuildValues(placeholders: [], applicationId: nil, resources: read.resources)
        XCTAssertEqual(values.resolve("@string/checkout_scheme").resolved, "fixapp")
        // Followed through an alias, and its quotes dropped as aapt2 does.
        XCTAssertEqual(values.resolve("@string/checkout_host").resolved, "checkout-callback")
        XCTAssertEqual(values.resolve("@string/pos_error").resolved, "The POS app said: \"%1$s\"")
        XCTAssertEqual(values.resolve("@string/checkout_scheme").notes, [])
        let missing = values.resolve("@string/nope")
        XCTAssertNil(missing.resolved)
        XCTAssertEqual(missing.notes.count, 1)
        // A resValue of build.gradle is the usual reason: the note says where the build writes it.
        XCTAssertTrue(missing.notes[0].hasPrefix("@string/nope is not in the values/ folders given with --android-res (a value build.gradle sets with resValue is not under res/"), missing.notes[0])
        XCTAssertTrue(missing.notes[0].contains("app/build/generated/res/resValues/<variant>/"), missing.notes[0])
        let qualified = AndroidBuildValues(placeholders: [], applicationId: nil, resources: AndroidBuildValues.readResources([fixture("android/res-qualified")]).resources)
        XCTAssertTrue(qualified.resolve("@string/pos_answer_scheme").notes.first?.hasPrefix("values-es/ gives @string/pos_answer_scheme another value (\"miapp\")") ?? false)
        // Folders that are not res folders are input errors naming the folder.
        let wrong = AndroidBuildValues.readResources([fixture("android/res/values"), folder.appendingPathComponent("none").path])
        XCTAssertEqual(wrong.findings.map { $0.severity }, [.error, .error])
        XCTAssertTrue(wrong.findings[0].message.contains("has no values/ folder"), wrong.findings[0].message)
    }

    func testResourceTextAsAAPT2ReadsIt() {
        let cases: [(String, String)] = [
            ("  fixapp \n", "fixapp"),
            ("two   words\n  here", "two words here"),
            ("\"  kept  as is \"", "  kept  as is "),
            ("it\\'s \\\"quoted\\\"", "it's \"quoted\""),
            ("\\@string/not_a_reference", "@string/not_a_reference"),
            ("line\\nbreak\\ttab", "line\nbreak\ttab"),
            ("\\u00e9t\\u00e9", "été"),
        ]
        for (text, expected) in cases { XCTAssertEqual(AndroidBuildValues.decodeResourceText(text), expected, text) }
    }

    func testXcodeBuildSettings() {
        let values = AppleBuildValues(settings: [(key: "APP_NAME", value: "Fix Pay"), (key: "POS_SCHEME", value: "$(PRODUCT_BUNDLE_IDENTIFIER).pos")],
                                      bundleIdentifier: ("com.Fix.App", "--ios-app-id"))
        XCTAssertEqual(values.resolve("$(PRODUCT_BUNDLE_IDENTIFIER)").resolved, "com.Fix.App")
        XCTAssertEqual(values.resolve("${PRODUCT_BUNDLE_IDENTIFIER:lower}").resolved, "com.fix.app")
        XCTAssertEqual(values.resolve("$(APP_NAME:rfc1034identifier)").resolved, "Fix-Pay")
        XCTAssertEqual(values.resolve("$(APP_NAME:c99extidentifier)").resolved, "Fix_Pay")
        XCTAssertEqual(values.resolve("$(POS_SCHEME)").resolved, "com.Fix.App.pos")  // a setting that refers to another
        XCTAssertEqual(values.resolve("$(MISSING:default=fixapp)").resolved, "fixapp")
        XCTAssertNil(values.resolve("$(APP_NAME:frobnicate)").resolved)  // an operator doctor does not know
        let unresolved = values.resolve("$(OIDC_REDIRECT_URI_SCHEME)")
        XCTAssertNil(unresolved.resolved)
        XCTAssertEqual(unresolved.unresolved.first?.flag, "--build-setting OIDC_REDIRECT_URI_SCHEME=VALUE (the target's build setting in Xcode)")
        XCTAssertEqual(values.resolve("$(unterminated").resolved, "$(unterminated")
    }

    /// The original report: `${applicationId}` read as an upper-case scheme, with a fix naming a
    /// placeholder that does not exist. A placeholder is never held to the lower-case rule, and
    /// without its value the filter possibly receives the link (a warning naming the flag).
    func testAPlaceholderIsNeverAnUpperCaseScheme() {
        var input = Doctor.Input()
        input.returnURL = "com.fix.app://checkout-callback"
        input.androidManifest = fixture("android/gradle-placeholders.xml")
        let report = Doctor.check(input)
        XCTAssertEqual(report.findings.filter { $0.rule == .androidSchemeLowercase }.map { $0.severity }, [.ok])
        XCTAssertFalse(report.findings.contains { ($0.fix ?? "").contains("${applicationid}") })
        let receiver = report.findings.first { $0.rule == .androidIntentFilter && $0.message.contains("checkout callback") }
        XCTAssertEqual(receiver?.severity, .warning)
        XCTAssertTrue(receiver?.message.contains("it depends on ${applicationId} (--android-package)") ?? false, receiver?.message ?? "")
        XCTAssertFalse(report.hasErrors)
        // The manifest's own package, or Expo's android.package, stands in for --android-package.
        input.expoConfig = fixture("expo/app.json")
        let expo = Doctor.check(input)
        XCTAssertEqual(expo.findings.first { $0.rule == .androidIntentFilter && $0.file == input.androidManifest }?.severity, .ok)
    }

    /// The exported, launch-mode and category checks run on a receiver doctor could not
    /// resolve, as warnings.
    func testAPossibleReceiverIsStillChecked() throws {
        let manifest = folder.appendingPathComponent("AndroidManifest.xml")
        try """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.fix.app"><application>
          <activity android:name=".MainActivity" android:launchMode="standard">
            <intent-filter>
              <action android:name="android.intent.action.VIEW" />
              <category android:name="android.intent.category.DEFAULT" />
              <data android:scheme="${checkoutScheme}" android:host="checkout-callback" />
            </intent-filter>
          </activity>
        </application></manifest>
        """.write(to: manifest, atomically: true, encoding: .utf8)
        var input = Doctor.Input()
        input.returnURL = "fixapp://checkout-callback"
        input.androidManifest = manifest.path
        let report = Doctor.check(input)
        let failing = Dictionary(report.findings.filter { $0.file == manifest.path && $0.severity != .ok }.map { ($0.rule, $0.severity) }) { $1 }
        // Every check of a receiver that only possibly receives is a warning (issue 37): what it
        // finds matters only if the unresolved value turns out to match.
        XCTAssertEqual(failing, [.androidIntentFilter: .warning, .androidViewBrowsable: .warning, .androidExported: .warning, .androidLaunchMode: .warning])
        let browsable = report.findings.first { $0.rule == .androidViewBrowsable && $0.severity != .ok }
        XCTAssertTrue(browsable?.message.hasSuffix("(if it receives the link at all: see android.intent-filter)") ?? false, browsable?.message ?? "")
        XCTAssertFalse(report.hasErrors)
    }

    func testTheTargetSDK() {
        var input = Doctor.Input()
        input.returnURL = "fixapp://checkout-callback"
        input.posScheme = "myapp"
        input.androidManifest = fixture("android/broken/target-sdk-22-no-exported.xml")
        let legacy = Doctor.check(input).findings.first { $0.rule == .androidExported }
        XCTAssertEqual(legacy?.severity, .warning)
        XCTAssertTrue(legacy?.message.contains("targetSdkVersion 22 (<uses-sdk>, line 6)") ?? false, legacy?.message ?? "")
        // The flag wins over <uses-sdk>: Gradle's targetSdk is what the build uses.
        input.targetSDK = 33
        let current = Doctor.check(input).findings.first { $0.rule == .androidExported }
        XCTAssertEqual(current?.severity, .error)
        XCTAssertTrue(current?.message.contains("(targetSdkVersion 33, --target-sdk)") ?? false, current?.message ?? "")
        input.androidManifest = fixture("android/broken/no-queries.xml")
        input.targetSDK = 29
        XCTAssertEqual(Doctor.check(input).findings.first { $0.rule == .androidQueries }?.severity, .warning)
        input.targetSDK = 30
        XCTAssertEqual(Doctor.check(input).findings.first { $0.rule == .androidQueries }?.severity, .error)
    }

    func testInfoPlistBuildSettings() {
        var input = Doctor.Input()
        input.returnURL = "com.fix.app://checkout-callback"
        input.posScheme = "com.fix.app.pos"
        input.infoPlist = fixture("ios/Info-build-settings.plist")
        let unresolved = Doctor.check(input).findings.filter { $0.rule == .iosURLSchemes }
        XCTAssertEqual(unresolved.map { $0.severity }, [.warning, .warning])
        XCTAssertTrue(unresolved[0].message.contains("$(PRODUCT_BUNDLE_IDENTIFIER) (--build-setting)"), unresolved[0].message)
        XCTAssertTrue(unresolved[1].message.contains("${POS_ANSWER_SCHEME} (--build-setting)"), unresolved[1].message)
        // --ios-app-id gives PRODUCT_BUNDLE_IDENTIFIER; a build setting gives the rest.
        input.iosAppID = "ABCDE12345.com.fix.app"
        input.buildSettings = ["POS_ANSWER_SCHEME": "com.fix.app.pos"]
        let resolved = Doctor.check(input).findings.filter { $0.rule == .iosURLSchemes }
        XCTAssertEqual(resolved.map { $0.severity }, [.ok, .ok])
        XCTAssertTrue(resolved[0].message.contains("\"$(PRODUCT_BUNDLE_IDENTIFIER)\" (com.fix.app, from --ios-app-id)"), resolved[0].message)
    }
}
