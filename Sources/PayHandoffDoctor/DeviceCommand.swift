import PayHandoff

/// The one command that hands a link to a running iOS simulator or Android emulator, as
/// `payhandoff doctor` prints it to try the links and `payhandoff … answer --deliver` prints
/// (or runs) it: `xcrun simctl openurl booted '…'`, `adb shell am start -W -a
/// android.intent.action.VIEW -d '…' PACKAGE`.
///
/// `adb shell` joins its arguments with spaces and hands them to the device's shell, which
/// parses them again: the URL is quoted for that shell in ``arguments`` (the argument vector run
/// without a local shell) and for both shells in ``commandLine`` (the text to paste into one).
public struct DeviceCommand: Sendable {
    /// Where the link goes.
    public enum Platform: String, Sendable, CaseIterable {
        /// A booted iOS simulator (`xcrun simctl openurl`).
        case ios
        /// A running Android emulator or device (`adb shell am start`).
        case android
    }

    /// The platform.
    public let platform: Platform
    /// The link, exactly as the app must receive it.
    public let url: String
    /// Android only: the app the intent goes to (no chooser), an application id.
    public let package: String?

    /// A command.
    /// - Parameters:
    ///   - platform: iOS simulator or Android.
    ///   - url: The link.
    ///   - package: Android only: the application id the intent is for, if any.
    /// - Throws: `validation` naming `package` for one that is not an application id (a
    ///   character the device's shell would read, among others), or for a package on iOS.
    public init(_ platform: Platform, url: String, package: String? = nil) throws(PayHandoffError) {
        if let package {
            guard platform == .android else {
                throw PayHandoffError(.validation, field: "package", "names an Android application: simctl opens a link in whichever app claims it")
            }
            guard DeviceCommand.isAndroidPackage(package) else {
                throw PayHandoffError(.validation, field: "package",
                    "must be an Android application id such as com.fix.app (dot-separated parts of letters, digits and '_', each starting with a letter): adb hands it to the device's shell, which would read anything else")
            }
        }
        self.platform = platform
        self.url = url
        self.package = package
    }

    /// Whether `text` is an Android application id (`com.fix.app`): two or more parts separated by
    /// `.`, each an ASCII letter followed by letters, digits or `_` — no character any shell reads.
    /// - Parameter text: The candidate.
    /// - Returns: Whether it is one.
    public static func isAndroidPackage(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
        }
    }

    /// The tool the command runs (`xcrun`, `adb`).
    public var tool: String { arguments[0] }

    /// The argument vector to run without a local shell; for `adb`, the URL keeps the quoting
    /// the device's shell removes.
    public var arguments: [String] {
        switch platform {
        case .ios:
            return ["xcrun", "simctl", "openurl", "booted", url]
        case .android:
            return ["adb", "shell", "am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", ShellQuoting.quoted(url)]
                + (package.map { [$0] } ?? [])
        }
    }

    /// The command as one line for a POSIX shell: what that shell parses is ``arguments``.
    public var commandLine: String {
        switch platform {
        case .ios:
            return "xcrun simctl openurl booted " + ShellQuoting.quoted(url)
        case .android:
            return "adb shell am start -W -a android.intent.action.VIEW -d " + ShellQuoting.throughADBShell(url)
                + (package.map { " " + $0 } ?? "")
        }
    }
}
