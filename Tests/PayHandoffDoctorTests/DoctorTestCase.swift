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
}
