import CHarness
import XCTest

/// Drives the C harness (Tests/CHarness/harness.c) in-process: every function of
/// include/payhandoff.h, the shared vectors, hostile calls, threads and fuzzing, through the C
/// ABI exactly as a C program calls it.
final class CHarnessTests: XCTestCase {
    func testCHarnessPasses() {
        let vectors = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Vectors").path
        var passed: Int32 = 0
        var failed: Int32 = 0
        let status = payhandoff_harness_run(vectors, &passed, &failed)
        XCTAssertGreaterThan(passed, 500, "the harness ran")
        XCTAssertEqual(failed, 0, "C harness failures are listed above as FAIL lines")
        XCTAssertEqual(status, 0)
    }
}
