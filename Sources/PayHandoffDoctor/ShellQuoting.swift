import Foundation

/// Quoting for the commands PayHandoff prints (`payhandoff doctor`'s "try the links",
/// `payhandoff pos answer`/`checkout answer --deliver`): POSIX `sh` rules, so a URL full of `&`,
/// `'`, `;` or `$(…)` reaches the device as one word, exactly.
public enum ShellQuoting {
    /// `text` as one word for `sh`: single quotes, a `'` inside written `'\''`.
    /// - Parameter text: Any text (newlines included).
    /// - Returns: The quoted word.
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `text` as one word after two shells: the local one and the device's, which
    /// `adb shell` hands its joined arguments to (where `&` would end the command).
    /// - Parameter text: Any text.
    /// - Returns: A word the local shell turns into ``quoted(_:)`` of `text`, which the device's
    ///   shell turns into `text`.
    public static func throughADBShell(_ text: String) -> String {
        // Readable form for the usual URL: double quotes here, single quotes on the device.
        if !text.contains(where: { "'\"$`\\!".contains($0) }) { return "\"'" + text + "'\"" }
        return quoted(quoted(text))
    }
}
