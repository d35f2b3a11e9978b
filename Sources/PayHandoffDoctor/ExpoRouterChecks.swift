import Foundation

/// Issue 38 (e): an Expo app with expo-router. The router treats every URL the app is opened
/// with as a route: the checkout's return (`…/checkout-callback/ph_<nonce>`) or the POS answer
/// navigates to a screen that does not exist (`+not-found`), over the screen waiting for the
/// payment (research C1: stripe-react-native #1813, expo/expo #35558, #27179). The router's
/// own hook is `app/+native-intent.tsx`: expo-router calls its `redirectSystemPath({ path,
/// initial })` with every URL (`initial` for the one that started the app) and navigates to
/// what it returns (docs.expo.dev/router/advanced/native-intent; expo-router's
/// `getLinkingConfig` and `link/linking` pass the value on, and a `null` reaches React
/// Navigation as no URL, so nothing is navigated — the fix the trackers use, which the docs
/// do not state). Doctor reads the file as text; it cannot run it.
enum ExpoRouterChecks {
    /// The names expo-router looks for in the app directory (`/^\.\/\+native-intent\.[tj]sx?$/`).
    static let nativeIntentNames = ["+native-intent.tsx", "+native-intent.ts", "+native-intent.jsx", "+native-intent.js"]

    /// The file doctor prints: every URL goes to the coordinator first, which answers
    /// `not_ours` for the app's own links (one place decides what is PayHandoff's: the core).
    static let nativeIntentFile = """
        // app/+native-intent.tsx: expo-router asks here where every incoming URL goes.
        // PayHandoff's return and POS answer go to the coordinator and to no screen.
        import { payments, run } from '../payments'; // where the app keeps its coordinator and its effects loop

        export function redirectSystemPath({ path, initial }: { path: string; initial: boolean }) {
          // initial: the URL that started the app (after process death the coordinator must be
          // restored from its snapshot before this runs).
          try {
            const answer = payments.handleUrl(path);
            if (answer.outcome === 'not_ours') return path; // the app's own links: the router navigates
            void run(answer); // listenForDeepLinks may see it too: the core answers that one 'duplicate'
            return null; // PayHandoff's URL: the router navigates nowhere, the payment screen stays
          } catch {
            return path; // not a URL the core reads
          }
        }
        """

    /// Checks an Expo config's app for the router's link hook.
    /// - Parameters:
    ///   - expo: The config's `expo` object.
    ///   - path: The config file; the app's folders are looked for beside it.
    ///   - links: The links the app must receive.
    /// - Returns: Nothing when the app does not use expo-router; else the `expo.router-native-intent` finding.
    static func check(_ expo: [String: Any], configAt path: String, links: DoctorLinks) -> [DoctorFinding] {
        guard links.returnURLText != nil || links.posSchemeText != nil else { return [] }
        var usesRouter = false
        var options: [String: Any] = [:]
        for plugin in expo["plugins"] as? [Any] ?? [] {
            if plugin as? String == "expo-router" { usesRouter = true }
            if let pair = plugin as? [Any], pair.first as? String == "expo-router" {
                usesRouter = true
                options = pair.dropFirst().first as? [String: Any] ?? [:]
            }
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var detected = "plugins lists expo-router"
        if !usesRouter, let package = (try? InputFile.json(at: folder.appendingPathComponent("package.json").path)) as? [String: Any],
           let kind = ["dependencies", "devDependencies"].first(where: { (package[$0] as? [String: Any])?["expo-router"] != nil }) {
            usesRouter = true
            detected = "package.json's \(kind) list expo-router"
        }
        guard usesRouter else { return [] }
        // The app directory: the plugin's `root` option, else app/ (src/app/ when app/ is absent).
        let roots = (options["root"] as? String).map { [$0] } ?? ["app", "src/app"]
        let root = roots.first { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) } ?? roots[0]
        let names = nativeIntentNames.map { (root as NSString).appendingPathComponent($0) }
        let file = names.first { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        let what = [links.returnURLText.map { "the checkout's return (\($0)…)" }, links.posSchemeText.map { "the POS answer (\($0)://…)" }].compactMap { $0 }.joined(separator: " and ")
        let fix = "create \((root as NSString).appendingPathComponent("+native-intent.tsx")) beside \(URL(fileURLWithPath: path).lastPathComponent) (no diff: a new file):\n" + nativeIntentFile
        guard let file else {
            return [DoctorFinding(.expoRouterNativeIntent, .error, file: path,
                "\(detected) and there is no \(names[0]) (nor .ts/.js): expo-router navigates to every URL the app is opened with, so \(what) opens a screen that does not exist (+not-found) over the payment screen (stripe-react-native #1813)",
                fix: fix)]
        }
        let text = (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
        guard text.contains("redirectSystemPath") else {
            return [DoctorFinding(.expoRouterNativeIntent, .error, file: path,
                "\(detected) and \(file) exports no redirectSystemPath: expo-router navigates to \(what) as a route (+not-found)",
                fix: "in \(file):\n" + nativeIntentFile)]
        }
        guard text.contains("handleUrl") else {
            return [DoctorFinding(.expoRouterNativeIntent, .warning, file: path,
                "\(detected) and \(file)'s redirectSystemPath hands no URL to the coordinator (no handleUrl in it; doctor reads it, it does not run it): unless it returns null for \(what), expo-router navigates to it as a route (+not-found)",
                fix: "in \(file):\n" + nativeIntentFile)]
        }
        return [DoctorFinding(.expoRouterNativeIntent, .ok, file: path,
            "\(detected); \(file)'s redirectSystemPath hands URLs to the coordinator (handleUrl): it must return null for \(what) (doctor reads the file, it does not run it)")]
    }
}
