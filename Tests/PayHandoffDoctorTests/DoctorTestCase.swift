import Foundation
import XCTest

/// Where the fixtures are: next to the tests (Package.swift excludes them from the target).
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The path of the fixture at `path` under Fixtures/.
func fixture(_ path: String) -> String { fixtures.appendingPathComponent(path).path }

/// A test case with a temporary folder of its own, removed afterwards.
class DoctorTestCase: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("payhandoff-doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `payhandoff` next to the test bundle (.build/<triple>/<config>/).
    static var binary: URL {
        let bundle = Bundle(for: DoctorTestCase.self).bundleURL
        let candidates = [bundle.appendingPathComponent("payhandoff"),
                          bundle.deletingLastPathComponent().appendingPathComponent("payhandoff")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `executable` (payhandoff by default) with `arguments`, `input` on its standard input.
    func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
             executable: URL = DoctorTestCase.binary, input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                   stderr: String(decoding: stderr, as: UTF8.self))
    }
}
