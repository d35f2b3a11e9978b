import Foundation
import XCTest

/// Runs the built `payhandoff` binary as a user would: a process, its arguments, stdout,
/// stderr and exit status; each test gets a folder of its own.
class CLITestCase: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `payhandoff` next to the test bundle (.build/<triple>/<config>/), wherever the
    /// platform puts the bundle itself (a folder on Linux, a .xctest bundle on macOS).
    static var binary: URL {
        let bundle = Bundle(for: CLITestCase.self).bundleURL
        let candidates = [bundle.appendingPathComponent("payhandoff"),
                          bundle.deletingLastPathComponent().appendingPathComponent("payhandoff")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("payhandoff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `payhandoff` with `arguments`.
    /// - Parameter path: When given, the `PATH` of the process (the rest of the environment is
    ///   this one's); it runs in ``folder``.
    @discardableResult
    func run(_ arguments: [String], path: String? = nil) throws -> Run {
        try launch(Self.binary, arguments, path: path)
    }

    /// Runs `executable` with `arguments` in ``folder``, `PATH` replaced when `path` is given.
    func launch(_ executable: URL, _ arguments: [String], path: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if let path {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = path
            process.environment = environment
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}
