import Foundation
import XCTest
import PayHandoff
@testable import PayHandoffDoctor

/// Every rule, with a fixture that passes it and one that fails exactly it.
final class DoctorRuleTests: XCTestCase {
    static let custom = "fixapp://checkout-callback"
    /// A custom scheme without advice against it (reverse-DNS).
    static let reverseDNS = "com.fix.app://checkout-callback"
    static let https = "https://fix.example.com/checkout-callback"
    static let appID = "ABCDE12345.com.fix.app"

    /// One rule's pair of runs. `file` picks the input whose findings are compared (`nil`:
    /// the findings about the return URL and POS scheme themselves).
    struct Case {
        var rule: DoctorRule
        var severity: DoctorSeverity
        var good: Doctor.Input
        var broken: Doctor.Input
        var file: (Doctor.Input) -> String?
        /// Why the broken fixture's fix is not offered as a diff (`nil`: it is, and
        /// DoctorFixDiffTests applies it).
        var noDiff: String?
        /// A real app's file fails other rules too, the same way in every run: those rules and
        /// their worst severity, for the good and the broken run (the project's own fixtures
        /// fail exactly their rule, so these are empty).
        var goodOthers: [DoctorRule: DoctorSeverity] = [:]
        var brokenOthers: [DoctorRule: DoctorSeverity] = [:]
        var line: UInt
    }

    static func input(returnURL: String? = custom, posScheme: String? = "myapp", _ configure: (inout Doctor.Input) -> Void = { _ in }) -> Doctor.Input {
        var input = Doctor.Input()
        input.returnURL = returnURL
        input.posScheme = posScheme
        configure(&input)
        return input
    }

    static func manifest(_ path: String, returnURL: String = custom) -> Doctor.Input {
        input(returnURL: returnURL) { $0.androidManifest = fixture(path) }
    }

    static func plist(_ path: String) -> Doctor.Input { input { $0.infoPlist = fixture(path) } }

    static func expo(_ path: String, returnURL: String = https) -> Doctor.Input {
        // With the generated manifest, so the Expo file is the only one that can fail.
        input(returnURL: returnURL) {
            $0.expoConfig = fixture(path)
            $0.androidManifest = fixture("android/AndroidManifest.xml")
        }
    }

    static func web(_ configure: (inout Doctor.Input) -> Void) -> Doctor.Input {
        input(returnURL: https, posScheme: nil) {
            $0.androidPackage = "com.fix.app"
            $0.iosAppID = appID
            configure(&$0)
        }
    }

    static var cases: [Case] {
        var cases: [Case] = []
        func add(_ rule: DoctorRule, _ severity: DoctorSeverity, good: Doctor.Input, broken: Doctor.Input,
                 file: @escaping (Doctor.Input) -> String?, noDiff: String? = nil,
                 goodOthers: [DoctorRule: DoctorSeverity] = [:], brokenOthers: [DoctorRule: DoctorSeverity] = [:], line: UInt = #line) {
            cases.append(Case(rule: rule, severity: severity, good: good, broken: broken, file: file, noDiff: noDiff,
                              goodOthers: goodOthers, brokenOthers: brokenOthers, line: line))
        }
        let flagOnly = "the fix is a flag that gives doctor the value, not an edit"
        let advice = "advice: which activity keeps the link, or whether crossed pairings are used, is the developer's choice"
        let arguments: (Doctor.Input) -> String? = { _ in nil }
        let androidFile: (Doctor.Input) -> String? = { $0.androidManifest }
        let plistFile: (Doctor.Input) -> String? = { $0.infoPlist }
        let expoFile: (Doctor.Input) -> String? = { $0.expoConfig }
        let good = manifest("android/AndroidManifest.xml")
        let goodWeb = manifest("android/AndroidManifest.xml", returnURL: https)

        let unreadable = "bad input: nothing to edit"
        add(.inputReadable, .error, good: good, broken: manifest("android/bad/truncated.xml"), file: androidFile, noDiff: unreadable)
        add(.inputReadable, .error, good: plist("ios/Info-binary.plist"), broken: plist("ios/bad/corrupt-binary.plist"), file: plistFile, noDiff: unreadable)
        add(.inputReadable, .error, good: expo("expo/app.json"), broken: expo("expo/bad/app.config.js"), file: expoFile, noDiff: unreadable)

        add(.returnURLValid, .error, good: input(returnURL: reverseDNS), broken: input(returnURL: "javascript:alert(1)"), file: arguments)
        add(.returnURLValid, .error, good: input(returnURL: reverseDNS + "?order=42"), broken: input(returnURL: reverseDNS + "#done"), file: arguments)
        add(.returnURLScheme, .warning, good: input(returnURL: reverseDNS), broken: input(returnURL: custom), file: arguments)
        add(.returnURLScheme, .warning, good: input(returnURL: https), broken: input(returnURL: "Com.Fix.App://checkout-callback"), file: arguments)
        add(.returnURLScheme, .warning, good: input(returnURL: https), broken: input(returnURL: "http://fix.example.com/checkout-callback"), file: arguments)
        add(.posSchemeValid, .error, good: input(returnURL: reverseDNS, posScheme: "myapp"), broken: input(returnURL: reverseDNS, posScheme: "1pos"), file: arguments)
        add(.posSchemeValid, .warning, good: input(returnURL: reverseDNS, posScheme: "myapp://"), broken: input(returnURL: reverseDNS, posScheme: "MyApp"), file: arguments)

        add(.androidIntentFilter, .error, good: good, broken: manifest("android/broken/callback-wrong-host.xml"), file: androidFile)
        add(.androidIntentFilter, .error, good: goodWeb, broken: manifest("android/broken/https-wrong-path.xml", returnURL: https), file: androidFile)
        add(.androidIntentFilter, .error, good: good, broken: manifest("android/broken/pos-filter-with-host.xml"), file: androidFile)
        add(.androidIntentFilter, .warning, good: good, broken: manifest("android/broken/two-receivers.xml"), file: androidFile, noDiff: advice)
        add(.androidViewBrowsable, .error, good: good, broken: manifest("android/broken/no-browsable.xml"), file: androidFile)
        add(.androidExported, .error, good: good, broken: manifest("android/broken/not-exported.xml"), file: androidFile)
        add(.androidExported, .error, good: good, broken: manifest("android/broken/exported-false.xml"), file: androidFile)
        add(.androidPermission, .error, good: good, broken: manifest("android/broken/receiver-permission.xml"), file: androidFile)
        add(.androidLaunchMode, .warning, good: good, broken: manifest("android/broken/launch-standard.xml"), file: androidFile)
        add(.androidLaunchMode, .error, good: good, broken: manifest("android/broken/launch-single-task.xml"), file: androidFile)
        add(.androidSchemeLowercase, .error, good: good, broken: manifest("android/broken/uppercase-scheme.xml"), file: androidFile)
        add(.androidSchemeLowercase, .error, good: expo("expo/app.json"), broken: expo("expo/broken/uppercase-scheme.json"), file: expoFile)
        add(.androidDataPairings, .warning, good: good, broken: manifest("android/broken/crossed-pairings.xml"), file: androidFile, noDiff: advice)
        add(.androidQueries, .error, good: good, broken: manifest("android/broken/no-queries.xml"), file: androidFile)
        add(.androidQueries, .error, good: good, broken: manifest("android/broken/queries-package-only.xml"), file: androidFile)
        add(.androidAppLinksVerify, .error, good: goodWeb, broken: manifest("android/broken/no-autoverify.xml", returnURL: https), file: androidFile)

        // Issue 28: values the build resolves. A deciding value left unresolved is a warning
        // naming the flag; resolved, it is matched like a literal.
        let placeholders = input(returnURL: "com.fix.app://checkout-callback", posScheme: "com.fix.app.pos") {
            $0.androidManifest = fixture("android/gradle-placeholders.xml")
            $0.androidPackage = "com.fix.app"
            $0.manifestPlaceholders = ["posAnswerScheme": "com.fix.app.pos", "appAuthRedirectScheme": "com.fix.app.oauth"]
        }
        var unresolvedPlaceholders = placeholders
        unresolvedPlaceholders.androidPackage = nil
        unresolvedPlaceholders.manifestPlaceholders = [:]
        var otherPlaceholder = placeholders
        otherPlaceholder.manifestPlaceholders["posAnswerScheme"] = "com.fix.app.payments"
        add(.androidIntentFilter, .warning, good: placeholders, broken: unresolvedPlaceholders, file: androidFile, noDiff: flagOnly)
        add(.androidIntentFilter, .error, good: placeholders, broken: otherPlaceholder, file: androidFile)
        var resources = manifest("android/string-resources.xml")
        resources.androidResources = [fixture("android/res")]
        var qualified = resources
        qualified.androidResources = [fixture("android/res-qualified")]
        add(.androidIntentFilter, .warning, good: resources, broken: manifest("android/string-resources.xml"), file: androidFile, noDiff: flagOnly)
        add(.androidIntentFilter, .warning, good: resources, broken: qualified, file: androidFile, noDiff: "the value to change is in a values-*/ resource file")
        add(.androidExported, .warning, good: good, broken: manifest("android/broken/target-sdk-22-no-exported.xml"), file: androidFile)
        var legacyQueries = manifest("android/broken/no-queries.xml")
        legacyQueries.targetSDK = 29
        add(.androidQueries, .warning, good: good, broken: legacyQueries, file: androidFile)
        // Issue 28: components Android does not use for links, and its host rules.
        add(.androidIntentFilter, .warning, good: manifest("android/nfc-alias.xml"), broken: manifest("android/broken/two-receivers.xml"), file: androidFile, noDiff: advice)
        add(.androidIntentFilter, .error, good: good, broken: manifest("android/broken/no-view-action.xml"), file: androidFile)
        add(.androidIntentFilter, .warning, good: manifest("android/disabled-and-removed.xml"), broken: manifest("android/broken/two-receivers.xml"), file: androidFile, noDiff: advice)
        add(.androidIntentFilter, .error, good: good, broken: manifest("android/broken/receiver-disabled.xml"), file: androidFile)
        add(.androidLaunchMode, .warning, good: manifest("android/activity-alias.xml"), broken: manifest("android/broken/alias-target-standard.xml"), file: androidFile)
        add(.androidIntentFilter, .error, good: manifest("android/app-links-main-filter.xml", returnURL: https),
            broken: manifest("android/broken/app-links-main-filter-no-callback.xml", returnURL: https), file: androidFile)
        add(.androidIntentFilter, .error, good: manifest("android/host-wildcard.xml", returnURL: https),
            broken: manifest("android/broken/host-wildcard-apex.xml", returnURL: https), file: androidFile)
        add(.androidSchemeLowercase, .warning, good: good, broken: manifest("android/broken/uppercase-host.xml"), file: androidFile)
        // Issue 30: <queries> by package or by either action.
        for accepted in ["queries-package.xml", "queries-start-action.xml", "queries-com-start-action.xml"] {
            add(.androidQueries, .error, good: manifest("android/" + accepted), broken: manifest("android/broken/no-queries.xml"), file: androidFile)
        }

        // Issue 39: every POS app of --pos-app, each by the entries its provider documents
        // (POSApp cites them); Billpocket alone when only --pos-scheme is given (above).
        func using(_ apps: [POSApp], _ input: Doctor.Input) -> Doctor.Input {
            var input = input
            input.posApps = apps
            return input
        }
        let everyPOSApp: [POSApp] = [.billpocket, .square, .sumup, .clip]
        let iosPOSApps: [POSApp] = [.billpocket, .square, .sumup]
        for good in ["queries-pos-apps.xml", "queries-pos-apps-packages.xml"] {
            for (broken, app) in [("queries-without-square.xml", POSApp.square), ("queries-without-sumup.xml", .sumup), ("queries-without-clip.xml", .clip)] {
                add(.androidQueries, .error, good: using(everyPOSApp, manifest("android/" + good)), broken: using([app], manifest("android/broken/" + broken)), file: androidFile)
            }
        }
        //    All of them missing: one <queries> holds every entry (the diff writes it once).
        add(.androidQueries, .error, good: using(everyPOSApp, manifest("android/queries-pos-apps.xml")),
            broken: using(everyPOSApp, manifest("android/broken/no-queries.xml")), file: androidFile)
        var legacySumUp = using([.sumup], manifest("android/broken/queries-without-sumup.xml"))
        legacySumUp.targetSDK = 29
        add(.androidQueries, .warning, good: using(everyPOSApp, manifest("android/queries-pos-apps.xml")), broken: legacySumUp, file: androidFile)
        for (broken, app) in [("queries-without-square.plist", POSApp.square), ("queries-without-sumup.plist", .sumup)] {
            add(.iosQueriesSchemes, .error, good: using(iosPOSApps, plist("ios/Info-pos-apps.plist")), broken: using([app], plist("ios/broken/" + broken)), file: plistFile)
        }
        add(.iosQueriesSchemes, .error, good: using(iosPOSApps, plist("ios/Info-pos-apps.plist")),
            broken: using(iosPOSApps, plist("ios/broken/no-queries-schemes.plist")), file: plistFile)
        //    Clip has no iOS app: listing it for an iOS file is a warning with nothing to write.
        let clipOnIOS = "Clip has no iOS app: there is no scheme to declare"
        add(.iosQueriesSchemes, .warning, good: using(iosPOSApps, plist("ios/Info-pos-apps.plist")),
            broken: using(everyPOSApp, plist("ios/Info-pos-apps.plist")), file: plistFile, noDiff: clipOnIOS)
        //    Expo: ios.infoPlist's list, with the generated manifest that sees every app.
        func expoPOS(_ path: String, _ apps: [POSApp]) -> Doctor.Input {
            using(apps, input(returnURL: Self.https) {
                $0.expoConfig = fixture(path)
                $0.androidManifest = fixture("android/queries-pos-apps.xml")
            })
        }
        add(.expoIOSQueriesSchemes, .error, good: expoPOS("expo/pos-apps.json", iosPOSApps),
            broken: expoPOS("expo/broken/pos-apps-no-sumup-scheme.json", iosPOSApps), file: expoFile)
        add(.expoIOSQueriesSchemes, .warning, good: expoPOS("expo/pos-apps.json", iosPOSApps),
            broken: expoPOS("expo/pos-apps.json", everyPOSApp), file: expoFile, noDiff: clipOnIOS)

        let assetLinks: (Doctor.Input) -> String? = { $0.assetLinks }
        for broken in ["assetlinks-other-package.json", "assetlinks-short-fingerprint.json", "assetlinks-login-only.json"] {
            add(.androidAssetLinks, .error, good: web { $0.assetLinks = fixture("association/assetlinks.json") },
                broken: web { $0.assetLinks = fixture("association/broken/" + broken) }, file: assetLinks)
        }
        add(.androidAssetLinks, .error,
            good: web { $0.assetLinks = fixture("association/assetlinks.json"); $0.androidCertificateSHA256 = "14:6d:e9:83:c5:73:06:50:d8:ee:b9:95:2f:34:fc:64:16:a0:83:42:e6:1d:be:a8:8a:04:96:b2:3f:cf:44:e5" },
            broken: web { $0.assetLinks = fixture("association/assetlinks.json"); $0.androidCertificateSHA256 = "00:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5" },
            file: assetLinks)

        add(.iosURLSchemes, .error, good: plist("ios/Info.plist"), broken: plist("ios/broken/no-pos-scheme.plist"), file: plistFile)
        add(.iosURLSchemes, .error, good: plist("ios/Info-binary.plist"), broken: plist("ios/broken/no-url-types.plist"), file: plistFile)
        add(.iosQueriesSchemes, .error, good: plist("ios/Info.plist"), broken: plist("ios/broken/no-queries-schemes.plist"), file: plistFile)
        add(.iosQueriesSchemes, .error, good: plist("ios/Info.plist"), broken: plist("ios/broken/queries-over-50.plist"), file: plistFile,
            noDiff: "making room among the first 50 means dropping a scheme the developer chooses")
        let settingsPlist = input(returnURL: "com.fix.app://checkout-callback", posScheme: "com.fix.app.pos") {
            $0.infoPlist = fixture("ios/Info-build-settings.plist")
            $0.iosAppID = appID
            $0.buildSettings = ["POS_ANSWER_SCHEME": "com.fix.app.pos", "OIDC_REDIRECT_URI_SCHEME": "com.fix.app.oidc"]
        }
        var unresolvedSettings = settingsPlist
        unresolvedSettings.iosAppID = nil
        unresolvedSettings.buildSettings = [:]
        var otherSetting = settingsPlist
        otherSetting.buildSettings["POS_ANSWER_SCHEME"] = "com.fix.app.payments"
        add(.iosURLSchemes, .warning, good: settingsPlist, broken: unresolvedSettings, file: plistFile, noDiff: flagOnly)
        add(.iosURLSchemes, .error, good: settingsPlist, broken: otherSetting, file: plistFile)
        add(.iosAssociatedDomains, .error, good: web { $0.entitlements = fixture("ios/App.entitlements") },
            broken: web { $0.entitlements = fixture("ios/broken/www-only.entitlements") }, file: { $0.entitlements })
        add(.iosAssociatedDomains, .warning, good: web { $0.entitlements = fixture("ios/App.entitlements") },
            broken: web { $0.entitlements = fixture("ios/broken/developer-mode.entitlements") }, file: { $0.entitlements })
        add(.iosAssociatedDomains, .warning, good: web { $0.entitlements = fixture("ios/App-build-settings.entitlements"); $0.buildSettings = ["ASSOCIATED_DOMAIN": "fix.example.com"] },
            broken: web { $0.entitlements = fixture("ios/App-build-settings.entitlements") }, file: { $0.entitlements }, noDiff: flagOnly)
        let aasa: (Doctor.Input) -> String? = { $0.appleAppSiteAssociation }
        add(.iosAASA, .error, good: web { $0.appleAppSiteAssociation = fixture("association/apple-app-site-association-paths") },
            broken: web { $0.appleAppSiteAssociation = fixture("association/broken/aasa-paths-other-path.json") }, file: aasa)
        add(.iosAASA, .error, good: web { $0.appleAppSiteAssociation = fixture("association/apple-app-site-association-defaults") },
            broken: web { $0.appleAppSiteAssociation = fixture("association/broken/aasa-case-sensitive.json") }, file: aasa)
        for good in ["apple-app-site-association", "apple-app-site-association-paths"] {
            for broken in ["aasa-other-path.json", "aasa-excluded.json", "aasa-other-team.json"] {
                add(.iosAASA, .error, good: web { $0.appleAppSiteAssociation = fixture("association/" + good) },
                    broken: web { $0.appleAppSiteAssociation = fixture("association/broken/" + broken) }, file: aasa)
            }
        }

        add(.expoScheme, .error, good: expo("expo/app.json"), broken: expo("expo/broken/no-pos-scheme.json"), file: expoFile)
        add(.expoAndroidIntentFilters, .error, good: expo("expo/app.config.json"), broken: expo("expo/broken/no-intent-filters.json"), file: expoFile)
        add(.expoAndroidIntentFilters, .error, good: expo("expo/app.json"), broken: expo("expo/broken/intent-filter-no-autoverify.json"), file: expoFile)
        add(.expoIOSQueriesSchemes, .error, good: expo("expo/app.json"), broken: expo("expo/broken/no-queries-schemes.json"), file: expoFile)
        add(.expoIOSAssociatedDomains, .error, good: expo("expo/app.json"), broken: expo("expo/broken/no-associated-domains.json"), file: expoFile)
        // Issue 28: Expo per platform, as prebuild writes each.
        add(.expoScheme, .error, good: expo("expo/per-platform.json", returnURL: custom), broken: expo("expo/broken/ios-url-types-override.json", returnURL: custom), file: expoFile)
        add(.expoScheme, .error, good: expo("expo/per-platform.json", returnURL: custom), broken: expo("expo/broken/android-missing-scheme.json", returnURL: custom), file: expoFile)
        add(.expoScheme, .error, good: expo("expo/bundle-identifier-scheme.json", returnURL: reverseDNS), broken: expo("expo/app.json", returnURL: reverseDNS), file: expoFile)
        add(.expoAndroidIntentFilters, .error, good: expo("expo/per-platform.json"), broken: expo("expo/broken/intent-filter-prefixed-action.json"), file: expoFile)
        var expoAlone = expo("expo/per-platform.json")
        expoAlone.androidManifest = nil
        var expoAloneBroken = expo("expo/broken/no-manifest-queries.json")
        expoAloneBroken.androidManifest = nil
        // Without the generated manifest, its singleTask MainActivity is a warning (issue 38).
        let generatedSingleTask: [DoctorRule: DoctorSeverity] = [.androidLaunchMode: .warning]
        add(.androidQueries, .warning, good: expoAlone, broken: expoAloneBroken, file: expoFile,
            noDiff: "the plugin's options are in an array; the printed snippet says where, and another plugin may declare <queries>",
            goodOthers: generatedSingleTask, brokenOthers: generatedSingleTask)

        //    Expo without the generated manifest: expo-build-properties' android.manifestQueries.
        var expoPOSAlone = expoPOS("expo/pos-apps.json", iosPOSApps), expoPOSAloneBroken = expoPOS("expo/broken/pos-apps-no-square-query.json", iosPOSApps)
        expoPOSAlone.androidManifest = nil
        expoPOSAloneBroken.androidManifest = nil
        add(.androidQueries, .warning, good: expoPOSAlone, broken: expoPOSAloneBroken, file: expoFile,
            noDiff: "the plugin's options are in an array; the printed snippet says where, and another plugin may declare <queries>",
            goodOthers: generatedSingleTask, brokenOthers: generatedSingleTask)

        // Issue 37: public apps' own files, reduced (each fixture's header names the app, the
        // file and what it shows). A real file may fail other rules too: those are listed.
        func app(_ path: String, _ returnURL: String?, pos: String? = nil, _ configure: (inout Doctor.Input) -> Void = { _ in }) -> Doctor.Input {
            input(returnURL: returnURL, posScheme: pos) {
                $0.androidManifest = fixture("android/apps/" + path)
                configure(&$0)
            }
        }
        // Issue 38: a singleTask launcher activity is an error (Bitwarden's below API 30, Element X's).
        let launcherSingleTask: [DoctorRule: DoctorSeverity] = [.androidLaunchMode: .error]
        let bitwardenRes = { (input: inout Doctor.Input) in input.androidResources = [fixture("android/apps/bitwarden-res-values-only")] }
        let elementRes = { (input: inout Doctor.Input) in
            input.androidResources = [fixture("android/apps/element-x-res"), fixture("android/apps/element-x-resvalues")]
        }
        let bitwardenWeb = app("bitwarden.xml", "https://vault.bitwarden.com/redirect-connector/checkout", bitwardenRes)
        let elementWeb = app("element-x.xml", "https://app.element.io/checkout-callback", elementRes)
        // 1. autoVerify verifies concrete http(s) hosts only: "*" and no host verify nothing;
        //    *.bitwarden.com verifies vault.bitwarden.com.
        add(.androidAppLinksVerify, .error, good: bitwardenWeb,
            broken: app("nextcloud-any-host.xml", "https://cloud.example.org/app/checkout-callback"), file: androidFile, goodOthers: launcherSingleTask)
        add(.androidAppLinksVerify, .error, good: elementWeb, broken: app("appflowy-no-host.xml", "https://appflowy.com/checkout-callback"), file: androidFile,
            goodOthers: launcherSingleTask, brokenOthers: launcherSingleTask)
        // 2. The literal text around an unresolved value decides; an exact path never receives a
        //    callback; a "possibly" still names the filter that misses.
        let fluffy = { (returnURL: String) in input(returnURL: returnURL, posScheme: nil) { $0.infoPlist = fixture("ios/apps/fluffychat-Info.plist") } }
        add(.iosURLSchemes, .error, good: fluffy("im.fluffychat://checkout-callback"), broken: fluffy("im.fluffychat.auth://checkout-callback"), file: plistFile)
        add(.androidIntentFilter, .error, good: elementWeb, broken: app("element-x.xml", "https://mobile.element.io/element/", elementRes), file: androidFile,
            goodOthers: launcherSingleTask)
        add(.androidIntentFilter, .warning, good: elementWeb, broken: app("element-x.xml", "https://mobile.element.io/element/"), file: androidFile, noDiff: flagOnly,
            goodOthers: launcherSingleTask, brokenOthers: [.androidLaunchMode: .warning])
        add(.androidIntentFilter, .error,
            good: app("thunderbird-beta.xml", "net.thunderbird.android.beta://checkout-callback") { $0.androidPackage = "net.thunderbird.android.beta" },
            broken: app("thunderbird-beta.xml", "net.thunderbird.android://checkout-callback") { $0.androidPackage = "net.thunderbird.android.beta" },
            file: androidFile, goodOthers: [.androidLaunchMode: .warning])
        // 3. A browser's redirect reaches only BROWSABLE filters (Bitwarden's bitwarden:// filter
        //    without it does not count); 4. the fix for BlueWallet's shared filter is a new one.
        add(.androidViewBrowsable, .error, good: app("bitwarden.xml", "bitwarden://sso-callback"),
            broken: app("bluewallet.xml", "bluewallet://checkout-callback"), file: androidFile, brokenOthers: launcherSingleTask)
        // 5. @integer/ per API level (values-v30/ says standard), and unresolved without --android-res.
        let bitwardenSSO = app("bitwarden.xml", "bitwarden://sso-callback")
        add(.androidLaunchMode, .error, good: bitwardenSSO,
            broken: app("bitwarden.xml", "https://vault.bitwarden.com/redirect-connector/checkout") { $0.androidResources = [fixture("android/apps/bitwarden-res")] },
            file: androidFile, noDiff: "the value to change is in a values-v30/ resource file")
        add(.androidLaunchMode, .warning, good: bitwardenSSO, broken: app("bitwarden.xml", "https://vault.bitwarden.com/redirect-connector/checkout"),
            file: androidFile, noDiff: flagOnly)
        // 6. Expo "platforms" without android: prebuild still generates it, so a warning naming it.
        // A real app's config alone: the project's generated manifest would not match its links.
        func expoApp(_ path: String, _ returnURL: String) -> Doctor.Input {
            input(returnURL: returnURL, posScheme: nil) { $0.expoConfig = fixture(path) }
        }
        add(.expoScheme, .warning, good: expo("expo/per-platform.json", returnURL: custom),
            broken: expoApp("expo/apps/jellyfin-ios-only.json", "org.jellyfin.expo://checkout-callback"), file: expoFile, brokenOthers: generatedSingleTask)
        add(.expoScheme, .error, good: expo("expo/per-platform.json", returnURL: custom),
            broken: expoApp("expo/apps/jellyfin-ios-and-android.json", "org.jellyfin.expo://checkout-callback"), file: expoFile, brokenOthers: generatedSingleTask)
        // 7. Near misses explained for Expo's intent filters; fixes on the nearest miss's activity.
        add(.expoAndroidIntentFilters, .error, good: expo("expo/app.config.json"),
            broken: expoApp("expo/apps/rne-features.json", "https://johnchang.me/pros/checkout-callback"), file: expoFile,
            brokenOthers: [.androidDataPairings: .warning, .androidLaunchMode: .warning])
        add(.androidIntentFilter, .error, good: app("mastodon.xml", "mastodon-android-auth://callback"),
            broken: app("mastodon.xml", "mastodon-android-auth://checkout-callback", pos: "mastodonpos"), file: androidFile,
            brokenOthers: [.androidQueries: .error])

        // Issue 39: Square's Android sample sees Point of Sale only through its SDK's library
        // manifest (the merged manifest passes); Square's iOS example lists square-commerce-v1 only.
        let hellocharge = { (path: String) in
            using([.square], input(returnURL: nil, posScheme: nil) {
                $0.androidManifest = fixture("android/apps/" + path)
                $0.targetSDK = 33
            })
        }
        add(.androidQueries, .error, good: hellocharge("square-hellocharge-merged.xml"), broken: hellocharge("square-hellocharge.xml"), file: androidFile)
        let coffeeShop = { (apps: [POSApp]) in
            using(apps, input(returnURL: nil, posScheme: "coffeeshop") { $0.infoPlist = fixture("ios/apps/square-coffee-shop-Info.plist") })
        }
        add(.iosQueriesSchemes, .error, good: coffeeShop([.square]), broken: coffeeShop([.square, .sumup]), file: plistFile)

        // Issue 38, item 4: the return-routing traps, each on a public app's file (or, where
        // none was reachable here, the project's own: the fixture says so).
        // d. Element X's launcher MainActivity is singleTask: the app's icon mid-payment closes
        //    the tab; Bitwarden's AuthCallbackActivity (singleTop, not the launcher) passes.
        add(.androidLaunchMode, .error, good: bitwardenSSO, broken: elementWeb, file: androidFile)
        // a. ASWebAuthenticationSession's https callback: webcredentials:<host> (Bitwarden's iOS
        //    entitlements hold only *. wildcards: vault.bitwarden.com, not bitwarden.com) and the
        //    association file's webcredentials.apps.
        let entitlementsFile: (Doctor.Input) -> String? = { $0.entitlements }
        let session = { (returnURL: String) in
            input(returnURL: returnURL, posScheme: nil) {
                $0.entitlements = fixture("ios/apps/bitwarden.entitlements")
                $0.returnChannels = [.webAuthenticationSession]
            }
        }
        let noApplinks: [DoctorRule: DoctorSeverity] = [.iosAssociatedDomains: .error]
        add(.iosWebCredentials, .error, good: session("https://vault.bitwarden.com/checkout-callback"), broken: session("https://bitwarden.com/checkout-callback"),
            file: entitlementsFile, goodOthers: noApplinks, brokenOthers: noApplinks)
        var expoSession = expo("expo/app.json"), expoNoWebCredentials = expo("expo/app.config.json")
        expoSession.returnChannels = [.webAuthenticationSession]
        expoNoWebCredentials.returnChannels = [.webAuthenticationSession]
        add(.iosWebCredentials, .error, good: expoSession, broken: expoNoWebCredentials, file: expoFile)
        let aasaFile: (Doctor.Input) -> String? = { $0.appleAppSiteAssociation }
        add(.iosWebCredentials, .error,
            good: web { $0.appleAppSiteAssociation = fixture("association/apple-app-site-association"); $0.returnChannels = [.webAuthenticationSession] },
            broken: web { $0.appleAppSiteAssociation = fixture("association/broken/aasa-no-webcredentials.json"); $0.returnChannels = [.webAuthenticationSession] },
            file: aasaFile)
        //    Bluesky's association file: applinks for every path, no webcredentials.
        add(.iosWebCredentials, .error,
            good: web { $0.appleAppSiteAssociation = fixture("association/apple-app-site-association"); $0.returnChannels = [.webAuthenticationSession] },
            broken: input(returnURL: "https://bsky.app/checkout-callback", posScheme: nil) {
                $0.appleAppSiteAssociation = fixture("association/apps/bluesky-apple-app-site-association.json")
                $0.iosAppID = "B3LX46C5HS.xyz.blueskyweb.app"
                $0.returnChannels = [.webAuthenticationSession]
            },
            file: aasaFile)
        // b. Auth Tab's https return: Chrome checks handle_all_urls (a get_login_creds statement
        //    alone verifies nothing), which is android.assetlinks' own check.
        add(.androidAuthTab, .error,
            good: web { $0.assetLinks = fixture("association/assetlinks.json"); $0.returnChannels = [.authTab] },
            broken: web { $0.assetLinks = fixture("association/broken/assetlinks-login-only.json"); $0.returnChannels = [.authTab] },
            file: assetLinks, noDiff: "the fix is android.assetlinks' own (its statement, written with the package and fingerprint)",
            brokenOthers: [.androidAssetLinks: .error])
        //    Bluesky's assetlinks.json: the app signed with the listed key passes; signed with a
        //    key the host does not list (its second fingerprint, left out of the fixture), it fails.
        let bluesky = { (certificate: String) in
            input(returnURL: "https://bsky.app/checkout-callback", posScheme: nil) {
                $0.assetLinks = fixture("association/apps/bluesky-assetlinks.json")
                $0.androidPackage = "xyz.blueskyweb.app"
                $0.androidCertificateSHA256 = certificate
                $0.returnChannels = [.authTab]
            }
        }
        add(.androidAuthTab, .error,
            good: bluesky("C1:4D:3C:6B:B5:D6:D9:AE:CF:C5:0B:BC:C1:9B:29:6D:D4:E6:87:46:36:D5:4C:1A:64:1C:14:08:BF:7E:F9:62"),
            broken: bluesky("FA:C6:17:45:DC:09:03:78:6F:B9:ED:E6:2A:96:2B:39:9F:73:48:F0:BB:6F:89:9B:83:32:66:75:91:03:3B:9C"),
            file: assetLinks, noDiff: "the fix is android.assetlinks' own (its fingerprint added)", brokenOthers: [.androidAssetLinks: .error])
        // c. A checkout page on a host the app verifies: Element X's app.element.io (every path),
        //    Bitwarden's *.bitwarden.com (pathPattern /redirect-connector.*: a warning).
        let checkoutHostAdvice = "which paths the app's own links need, or where the checkout is hosted, is the developer's choice"
        var stripeCheckout = bitwardenSSO
        stripeCheckout.checkoutHosts = ["checkout.stripe.com"]
        var elementCheckout = elementWeb
        elementCheckout.checkoutHosts = ["app.element.io"]
        var bitwardenCheckout = bitwardenSSO
        bitwardenCheckout.checkoutHosts = ["vault.bitwarden.com"]
        add(.androidCheckoutHost, .error, good: stripeCheckout, broken: elementCheckout, file: androidFile, noDiff: checkoutHostAdvice, brokenOthers: launcherSingleTask)
        add(.androidCheckoutHost, .warning, good: stripeCheckout, broken: bitwardenCheckout, file: androidFile, noDiff: checkoutHostAdvice)
        //    Expo's android.intentFilters without the generated manifest: the same rule.
        var expoCheckout = expoAlone, expoOwnHost = expoAlone
        expoCheckout.checkoutHosts = ["checkout.stripe.com"]
        expoOwnHost.checkoutHosts = ["fix.example.com"]
        add(.androidCheckoutHost, .warning, good: expoCheckout, broken: expoOwnHost, file: expoFile, noDiff: checkoutHostAdvice,
            goodOthers: generatedSingleTask, brokenOthers: generatedSingleTask)
        //    d for Expo: prebuild's MainActivity is singleTask; with the generated manifest given, that decides.
        add(.androidLaunchMode, .warning, good: expo("expo/per-platform.json"), broken: expoAlone, file: { $0.androidManifest ?? $0.expoConfig }, noDiff: "the value is in the generated manifest (a config plugin sets it)")
        // e. Expo's default template (expo-router in plugins): no app/+native-intent.tsx.
        add(.expoRouterNativeIntent, .error,
            good: expoApp("expo/apps/expo-template-default-native-intent/app.json", "myapp://checkout-callback"),
            broken: expoApp("expo/apps/expo-template-default/app.json", "myapp://checkout-callback"),
            file: expoFile, noDiff: "the fix is a new file, app/+native-intent.tsx", goodOthers: generatedSingleTask, brokenOthers: generatedSingleTask)
        return cases
    }

    /// The findings about `file` (or about the links, for `nil`) that did not pass.
    func failing(_ report: DoctorReport, file: String?) -> [DoctorFinding] {
        report.findings.filter { $0.file == file && $0.severity != .ok }
    }

    func testEveryRuleHasAPassingAndAFailingFixture() {
        let covered = Set(Self.cases.map { $0.rule })
        XCTAssertEqual(covered, Set(DoctorRule.allCases), "rules without fixtures: \(Set(DoctorRule.allCases).subtracting(covered).map { $0.rawValue })")
    }

    /// Each failing rule and its worst severity.
    func worst(_ findings: [DoctorFinding]) -> [DoctorRule: DoctorSeverity] {
        var rules: [DoctorRule: DoctorSeverity] = [:]
        for finding in findings where rules[finding.rule] != .error { rules[finding.rule] = finding.severity }
        return rules
    }

    func testGoodFixturesPassTheirRule() {
        for c in Self.cases {
            let report = Doctor.check(c.good)
            let file = c.file(c.good)
            let failures = failing(report, file: file)
            XCTAssertEqual(worst(failures), c.goodOthers, "good fixture of \(c.rule.rawValue): " + failures.map { "\($0.rule.rawValue): \($0.message)" }.joined(separator: "\n"), line: c.line)
            XCTAssertTrue(report.findings.contains { $0.file == file && $0.rule == c.rule && $0.severity == .ok },
                          "the good fixture of \(c.rule.rawValue) reports it as ok", line: c.line)
        }
    }

    func testBrokenFixturesFailExactlyTheirRule() {
        for c in Self.cases {
            let report = Doctor.check(c.broken)
            let failures = failing(report, file: c.file(c.broken))
            XCTAssertFalse(failures.isEmpty, "the broken fixture of \(c.rule.rawValue) fails it", line: c.line)
            for finding in failures where c.brokenOthers[finding.rule] == nil {
                XCTAssertEqual(finding.rule, c.rule, "\(finding.rule.rawValue): \(finding.message)", line: c.line)
                XCTAssertEqual(finding.severity, c.severity, "\(finding.rule.rawValue): \(finding.message)", line: c.line)
            }
            XCTAssertEqual(worst(failures), c.brokenOthers.merging([c.rule: c.severity]) { $1 }, line: c.line)
            XCTAssertEqual(report.hasErrors, c.severity == .error || c.brokenOthers.values.contains(.error), line: c.line)
        }
    }

    /// A filter meant for the link but spelled in upper case is one error (the scheme's), and
    /// the receiver check says the filter will work once that is fixed.
    func testAnUpperCaseSchemeIsReportedOnce() {
        let report = Doctor.check(Self.manifest("android/broken/uppercase-scheme.xml"))
        XCTAssertEqual(report.findings.filter { $0.severity == .error }.map { $0.rule }, [.androidSchemeLowercase])
        let receiver = report.findings.first { $0.rule == .androidIntentFilter && $0.message.contains("checkout callback") }
        XCTAssertEqual(receiver?.severity, .ok)
        XCTAssertTrue(receiver?.message.hasSuffix("once its scheme is written in lower case (android.scheme-lowercase)") ?? false, receiver?.message ?? "")
    }

    func testEveryFailureSaysHowToFixIt() {
        for c in Self.cases {
            for finding in failing(Doctor.check(c.broken), file: c.file(c.broken)) where finding.rule != .inputReadable {
                XCTAssertNotNil(finding.fix, "\(finding.rule.rawValue): \(finding.message)", line: c.line)
            }
        }
    }
}
