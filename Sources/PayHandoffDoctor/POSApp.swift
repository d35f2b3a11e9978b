import PayHandoff
/// A card-terminal (POS) app the merchant app hands sales to (`--pos-app`, issue 39), and what
/// each OS needs the merchant app to declare before it can see that app. The words are the
/// core's `pos_app` words.
///
/// Why a declaration is needed at all:
/// - Android 11 (API 30) filters other apps out of `resolveActivity`, `queryIntentActivities`,
///   `getPackageInfo` and React Native's `Linking.canOpenURL` unless the manifest's `<queries>`
///   names them by package or by an intent they handle
///   (developer.android.com/training/package-visibility and …/package-visibility/declaring).
///   Starting an activity is not filtered ("You can start another app's activity using either
///   an implicit or explicit intent regardless of whether that app is visible to your app",
///   developer.android.com/training/package-visibility/automatic), so what breaks is the check
///   an app makes before it opens the terminal app: it answers "not installed".
/// - iOS answers `canOpenURL` only for schemes listed in `LSApplicationQueriesSchemes`
///   (developer.apple.com/documentation/uikit/uiapplication/canopenurl(_:)).
///
/// Each provider's entries, and where they are stated:
/// - Billpocket (issue 30): package `com.billpocket.billpocket`, the actions
///   `com.billpocket.payments.START` and `billpocket.payments.START`, `VIEW billpocket://`;
///   iOS scheme `billpocket`.
/// - Square Point of Sale: Android starts it with the action `com.squareup.pos.action.CHARGE`
///   (square/point-of-sale-android-sdk `point-of-sale-sdk/src/main/java/com/squareup/sdk/pos/PosApi.java`,
///   commit bd10641), and the SDK's own library manifest declares exactly
///   `<queries><intent><action android:name="com.squareup.pos.action.CHARGE"/></intent></queries>`
///   (`point-of-sale-sdk/src/main/AndroidManifest.xml`, commit 3351d6f) — the manifest merger
///   adds it to an app that uses the SDK, so only the merged manifest shows it. The app's
///   package `com.squareup` is accepted too (the SDK picks the installed `com.squareup*`
///   package at run time: the action covers every one of them, so doctor writes the action).
///   iOS: `square-commerce-v1` ("You'll need to make two quick changes to your app Info.plist
///   file, one to declare that you'll be looking for Square": square/SquarePointOfSaleSDK-iOS
///   README.md, commit 075d58b).
/// - SumUp: Android opens `sumupmerchant://pay/1.0?…` with `new Intent(Intent.ACTION_VIEW, checkoutUri)`
///   (sumup/sumup-android-api README.md, "URI Call", commit 0279a88), so an `<intent>` with VIEW and
///   `<data android:scheme="sumupmerchant"/>` makes it visible; the app's package
///   `com.kaching.merchant` (the SumUp merchant app's Google Play id, as integrations name it; SumUp's
///   READMEs do not state it, so doctor accepts it but writes the intent) is accepted too. iOS: "Add `sumupmerchant` to
///   `LSApplicationQueriesSchemes` so `canOpenURL("sumupmerchant://")` works"
///   (sumup/sumup-ios-url-scheme README.md, "Getting Started" step 4, commit 068bb4e).
/// - Clip: started by explicit component in the package `com.payclip.blaze.pinpad`
///   (ClipMX/mobile.android.blaze.pinpad.sdk `…/ui/intent/system/SystemClipIntentProvider.kt`,
///   commit 036ed4f), so `<package android:name="com.payclip.blaze.pinpad"/>`. The SDK declares
///   no `<queries>` and launches without checking (`…/ui/launcher/activity/ActivityClipLauncher.kt`,
///   commit 0a29533, maps a failed launch to `ApplicationNotFoundException`). Clip runs only on
///   Clip's own terminals (Total, Total 2, Pro 2) with the merchant app installed on the terminal
///   itself; it has no iOS app, so an iOS app that lists it gets a warning.
extension POSApp {
    // The core's list of terminal apps (Sources/PayHandoff/POS/POSApp.swift, the `pos_app` words);
    // what each needs declared in an app's manifest, plist or Expo config is doctor's.

    /// The name people know it by.
    var name: String {
        switch self {
        case .billpocket: return "Billpocket"
        case .square: return "Square Point of Sale"
        case .sumup: return "SumUp"
        case .clip: return "Clip"
        }
    }

    /// Android packages whose `<package>` entry makes the app visible.
    var androidPackages: [String] {
        switch self {
        case .billpocket: return ["com.billpocket.billpocket"]
        case .square: return ["com.squareup"]
        case .sumup: return ["com.kaching.merchant"]
        case .clip: return ["com.payclip.blaze.pinpad"]
        }
    }

    /// Intent actions (other than VIEW) whose `<intent>` entry makes it visible.
    var androidActions: [String] {
        switch self {
        case .billpocket: return ["com.billpocket.payments.START", "billpocket.payments.START"]
        case .square: return ["com.squareup.pos.action.CHARGE"]
        case .sumup, .clip: return []
        }
    }

    /// The scheme of a `VIEW` `<intent>` entry that makes it visible.
    var androidViewScheme: String? {
        switch self {
        case .billpocket: return "billpocket"
        case .sumup: return "sumupmerchant"
        case .square, .clip: return nil
        }
    }

    /// The `<queries>` children doctor writes: the form that covers how PayHandoff starts the app.
    var androidQueryLines: [String] {
        func intent(_ lines: [String]) -> [String] { ["<intent>"] + lines.map { "    " + $0 } + ["</intent>"] }
        let view = "<action android:name=\"android.intent.action.VIEW\" />"
        switch self {
        case .billpocket:
            // The package covers both actions and the URL; the VIEW intent the documented scheme.
            return ["<package android:name=\"com.billpocket.billpocket\" />"]
                + intent([view, "<data android:scheme=\"billpocket\" />"])
        case .square:
            return intent(["<action android:name=\"com.squareup.pos.action.CHARGE\" />"])
        case .sumup:
            return intent([view, "<data android:scheme=\"sumupmerchant\" />"])
        case .clip:
            return ["<package android:name=\"com.payclip.blaze.pinpad\" />"]
        }
    }

    /// What `expo-build-properties`' `android.manifestQueries` takes for it: its intents' actions
    /// are always prefixed with `android.intent.action.`, so an app's own action (Billpocket's,
    /// Square's) cannot be written there and the package is.
    var expoManifestQuery: (package: String?, intent: [String: Any]?) {
        switch self {
        case .sumup: return (nil, ["action": "VIEW", "data": ["scheme": "sumupmerchant"]])
        default: return (androidPackages[0], nil)
        }
    }

    /// The `LSApplicationQueriesSchemes` entry `canOpenURL` needs; `nil`: no iOS app (Clip).
    var iosQueryScheme: String? {
        switch self {
        case .billpocket: return "billpocket"
        case .square: return "square-commerce-v1"
        case .sumup: return "sumupmerchant"
        case .clip: return nil
        }
    }

    /// What the Android entries are, for messages: "its package …, the action … or VIEW …://".
    var androidEntriesDescribed: String {
        var entries = androidPackages.map { "its package \($0)" }
        if !androidActions.isEmpty { entries.append("the action " + androidActions.joined(separator: " or ")) }
        if let scheme = androidViewScheme { entries.append("VIEW \(scheme)://") }
        if entries.count < 3 { return entries.joined(separator: " or ") }
        return entries.dropLast().joined(separator: ", ") + ", or " + entries[entries.count - 1]
    }

    /// Where an app may get its `<queries>` entry from without writing it: a library's manifest.
    var libraryNote: String {
        switch self {
        case .square: return "; Square's point-of-sale-sdk library declares the CHARGE intent in its own manifest, which only the merged manifest (app/build/intermediates/merged_manifest*/) shows"
        default: return ""
        }
    }
}
