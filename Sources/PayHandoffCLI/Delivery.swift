#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PayHandoff
import PayHandoffDoctor

/// `--deliver ios|android [--package ID] [--run]`: hands a composed answer to a running
/// simulator or emulator with the one command doctor prints too (``DeviceCommand``): printed,
/// and with `--run` executed as an argument vector — no local shell, the device-side quoting of
/// `adb shell` kept.
enum Delivery {
    /// The options that take a value.
    static let options: Set<String> = ["deliver", "package"]
    /// The switches.
    static let switches: Set<String> = ["run"]

    /// The command `args` ask for, or `nil` without `--deliver`.
    /// - Parameters:
    ///   - args: The command line.
    ///   - url: The link to deliver.
    /// - Returns: The command.
    /// - Throws: A usage error for `--deliver` with another word or with `--json`, or
    ///   `--package`/`--run` without `--deliver`; `validation` naming `package` for a package that is not an application id.
    static func command(_ args: Arguments, url: String) throws(PayHandoffError) -> DeviceCommand? {
        guard let word = args.value("deliver") else {
            if args.value("package") != nil || args.has("run") {
                throw Arguments.usageError("--package and --run go with --deliver ios|android")
            }
            return nil
        }
        guard !args.has("json") else {
            throw Arguments.usageError("--json prints the event for payhandoff send, --deliver a device command: choose one")
        }
        guard let platform = DeviceCommand.Platform(rawValue: word) else {
            throw Arguments.usageError("--deliver takes ios or android, not '\(word)'")
        }
        return try DeviceCommand(platform, url: url, package: args.value("package"))
    }

    /// Prints `command` as one shell line and, with `run`, executes it.
    /// - Parameters:
    ///   - command: The command.
    ///   - run: Whether to execute it.
    /// - Returns: The exit status: 0, or 1 when the tool failed.
    /// - Throws: `invalid_argument` naming `deliver` when the tool is not on `PATH` or cannot start.
    static func perform(_ command: DeviceCommand, run: Bool) throws(PayHandoffError) -> Int32 {
        print(command.commandLine)
        guard run else { return ExitStatus.ok }
        guard let path = executable(named: command.tool) else {
            throw PayHandoffError(.invalidArgument, field: "deliver",
                command.tool + " is not on PATH: run the command above where "
                + (command.platform == .ios ? "Xcode is installed (a booted simulator)" : "the Android SDK platform-tools are (a running emulator)"))
        }
        fflush(nil)  // the printed line comes before the tool's output
        let argv: [UnsafeMutablePointer<CChar>?] = command.arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else {
            throw PayHandoffError(.invalidArgument, field: "deliver", "cannot start " + path)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS (the macros are not imported).
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited && code == 0 else {
            printError("error: " + command.tool + (exited ? " exited with status " + String(code) : " was killed by signal " + String(status & 0x7F)))
            return ExitStatus.rejected
        }
        return ExitStatus.ok
    }

    /// The first executable file `name` in the folders of `PATH`.
    private static func executable(named name: String) -> String? {
        guard let path = getenv("PATH") else { return nil }
        for folder in String(cString: path).split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
