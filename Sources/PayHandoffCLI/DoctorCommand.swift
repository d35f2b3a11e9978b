import PayHandoff
import PayHandoffABI
import PayHandoffDoctor

/// `payhandoff doctor`: the command line of ``Doctor``; the checks live in PayHandoffDoctor.
enum DoctorCommand {
    /// `--option` → the input member it sets (the last one given wins).
    static var options: [(name: String, member: WritableKeyPath<Doctor.Input, String?>)] { [
        ("android-manifest", \.androidManifest),
        ("info-plist", \.infoPlist),
        ("entitlements", \.entitlements),
        ("expo-config", \.expoConfig),
        ("assetlinks", \.assetLinks),
        ("aasa", \.appleAppSiteAssociation),
        ("return-url", \.returnURL),
        ("pos-scheme", \.posScheme),
        ("android-package", \.androidPackage),
        ("android-cert-sha256", \.androidCertificateSHA256),
        ("ios-app-id", \.iosAppID),
    ] }

    /// Options that may be repeated, each value kept.
    static var repeatable: [(name: String, member: WritableKeyPath<Doctor.Input, [String: String]>)] { [
        ("manifest-placeholder", \.manifestPlaceholders),
        ("build-setting", \.buildSettings),
    ] }

    static var optionNames: Set<String> {
        Set(options.map { $0.name } + repeatable.map { $0.name } + ["android-res", "target-sdk", "return-channel", "checkout-host", "pos-app", "pos-apps"])
    }

    /// Runs the checks and prints the report (or, with `--fix-diff`, the fixes as a diff).
    /// - Returns: 0 when no check failed (warnings allowed), 1 when one did (including a file
    ///   that cannot be read), 2 for a command line without a return URL, POS scheme or POS
    ///   app, or with a malformed `KEY=VALUE`, target SDK or POS app.
    static func run(_ args: Arguments) -> Int32 {
        if args.has("rules") {
            for rule in DoctorRule.allCases { print("\(rule.rawValue)\n    \(rule.summary)") }
            return ExitStatus.ok
        }
        let posApps = (args.options["pos-app"] ?? []) + (args.options["pos-apps"] ?? [])
        guard args.value("return-url") != nil || args.value("pos-scheme") != nil || !posApps.isEmpty else {
            return usage("doctor", "--return-url, --pos-scheme or --pos-app is required (the links the app must receive, or the POS apps it must see)")
        }
        var input = Doctor.Input()
        for (name, member) in options {
            if let value = args.value(name) { input[keyPath: member] = value }
        }
        for (name, member) in repeatable {
            for pair in args.options[name] ?? [] {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    return usage("doctor", "--\(name) takes KEY=VALUE, got '\(pair)'")
                }
                input[keyPath: member][String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
        }
        input.androidResources = args.options["android-res"] ?? []
        if let target = args.value("target-sdk") {
            guard let level = Int(target), level > 0, level < 1000 else {
                return usage("doctor", "--target-sdk takes an API level such as 34, got '\(target)'")
            }
            input.targetSDK = level
        }
        for channel in args.options["return-channel"] ?? [] {
            // Repeatable, or one comma-separated list: an app may use Auth Tab and ASWebAuthenticationSession.
            for name in channel.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = ReturnChannel(rawValue: String(name)) else {
                    return usage("doctor", "--return-channel takes \(ReturnChannel.allCases.map { $0.rawValue }.joined(separator: ", ")), got '\(name)'")
                }
                if !input.returnChannels.contains(value) { input.returnChannels.append(value) }
            }
        }
        // Repeatable, or one comma-separated list, as --return-channel; --pos-apps is the same option.
        for list in posApps {
            for name in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let app = POSApp(rawValue: String(name)) else {
                    return usage("doctor", "--pos-app takes \(POSApp.allCases.map { $0.rawValue }.joined(separator: ", ")), got '\(name)'")
                }
                if !input.posApps.contains(app) { input.posApps.append(app) }
            }
        }
        for host in args.options["checkout-host"] ?? [] {
            guard !host.isEmpty, !host.contains("/"), !host.contains(":"), !host.contains(" ") else {
                return usage("doctor", "--checkout-host takes the checkout page's host, such as checkout.example.com, got '\(host)'")
            }
            input.checkoutHosts.append(host)
        }
        let report = Doctor.check(input)
        if args.has("fix-diff") {
            let fixes = report.fixDiff
            for note in fixes.notes { printError("note: " + note) }
            print(fixes.diff, terminator: "")
        } else {
            print(args.has("json") ? JSONText.render(report.json) : report.text)
        }
        return report.hasErrors ? ExitStatus.rejected : ExitStatus.ok
    }
}
