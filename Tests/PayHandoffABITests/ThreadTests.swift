import Foundation
import XCTest

/// The thread-safety contract of include/payhandoff.h: runs `PayHandoffThreadCheck`
/// (Tests/Sanitizers/ThreadCheck: 16 threads, own and shared coordinators, whole flows, restores)
/// from this build. `make tsan` runs the same program built with ThreadSanitizer; it lives in an
/// executable of its own so that the sanitizer build compiles only the core, the C ABI and it.
final class ThreadTests: XCTestCase {
    func testEightThreadsOwnCoordinatorsAndEightShareOneBehindAMutex() throws {
        let bundle = Bundle(for: ThreadTests.self).bundleURL
        let candidates = [bundle.appendingPathComponent("PayHandoffThreadCheck"),
                          bundle.deletingLastPathComponent().appendingPathComponent("PayHandoffThreadCheck")]
        let binary = try XCTUnwrap(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                                   "PayHandoffThreadCheck is built next to the tests (the test target depends on it)")
        let process = Process()
        process.executableURL = binary
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("every answer as expected; shared ledger: 40 sales"), text)
    }
}
