import PayHandoffABI
import PayHandoffDoctor

/// `payhandoff doctor`: the command line of ``Doctor``; the checks live in PayHandoffDoctor.
enum DoctorCommand {
    /// `--option` → the input member it sets.
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

    static var optionNames: Set<String> { Set(options.map { $0.name }) }

    /// Runs the checks and prints the report.
    /// - Returns: 0 when no check failed (warnings allowed), 1 when one did (including a file
    ///   that cannot be read), 2 for a command line without a return URL or POS scheme.
    static func run(_ args: Arguments) -> Int32 {
        if args.has("rules") {
            for rule in DoctorRule.allCases { print("\(rule.rawValue)\n    \(rule.summary)") }
            return ExitStatus.ok
        }
        guard args.value("return-url") != nil || args.value("pos-scheme") != nil else {
            return usage("doctor", "--return-url or --pos-scheme is required (the links the app must receive)")
        }
        var input = Doctor.Input()
        for (name, member) in options {
            if let value = args.value(name) { input[keyPath: member] = value }
        }
        let report = Doctor.check(input)
        print(args.has("json") ? JSONText.render(report.json) : report.text)
        return report.hasErrors ? ExitStatus.rejected : ExitStatus.ok
    }
}
