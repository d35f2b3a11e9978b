import PayHandoff
import XCTest

/// The shared POS vectors (Tests/Vectors/pos) through the Swift API's JSON entry points —
/// the same documents the C ABI, Kotlin and JS runners pass.
final class POSVectorTests: XCTestCase {
    func testBuildURLVectors() throws {
        try Vectors.run(folder: "pos", suite: "pos.build_url") { input throws(PayHandoffError) in
            var random = SystemRandomNumberGenerator()
            return try POSRequest.buildResultJSON(json: input.value(at: "request") ?? .null, using: &random, jsonText: Vectors.jsonText)
        }
    }

    func testParseResponseVectors() throws {
        try Vectors.run(folder: "pos", suite: "pos.parse_response") { input throws(PayHandoffError) in
            try POSResponse.parse(input.string(at: "url"), options: input.value(at: "options") ?? .null, jsonText: Vectors.jsonText).json
        }
    }

    func testParseResultVectors() throws {
        try Vectors.run(folder: "pos", suite: "pos.parse_result") { input throws(PayHandoffError) in
            try POSResponse.parse(extras: input.value(at: "extras") ?? .null, options: input.value(at: "options") ?? .null, jsonText: Vectors.jsonText).json
        }
    }

    func testRefundCheckVectors() throws {
        try Vectors.run(folder: "pos", suite: "pos.refund_check") { input throws(PayHandoffError) in
            try RefundEligibility.check(json: input.value(at: "check") ?? .null).json
        }
    }

    /// The hostile-input corpus (Tests/Vectors/hostile, issue 9) through the same calls.
    func testHostileVectors() throws {
        try Vectors.run(folder: "hostile", suite: "pos.build_url") { input throws(PayHandoffError) in
            var random = SystemRandomNumberGenerator()
            return try POSRequest.buildResultJSON(json: input.value(at: "request") ?? .null, using: &random, jsonText: Vectors.jsonText)
        }
        try Vectors.run(folder: "hostile", suite: "pos.parse_response") { input throws(PayHandoffError) in
            try POSResponse.parse(input.string(at: "url"), options: input.value(at: "options") ?? .null, jsonText: Vectors.jsonText).json
        }
        try Vectors.run(folder: "hostile", suite: "pos.parse_result") { input throws(PayHandoffError) in
            try POSResponse.parse(extras: input.value(at: "extras") ?? .null, options: input.value(at: "options") ?? .null, jsonText: Vectors.jsonText).json
        }
    }

    func testThereAreEnoughVectorsAndAThirdAreBadInput() throws {
        var total = 0, bad = 0
        for suite in ["pos.build_url", "pos.parse_response", "pos.parse_result", "pos.refund_check"] {
            for vector in try Vectors.load(folder: "pos", suite: suite) {
                total += 1
                if vector.expect.value(at: "error") != nil { bad += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(total, 80)
        XCTAssertGreaterThanOrEqual(bad * 3, total)
        let ids = try ["pos.build_url", "pos.parse_response", "pos.parse_result", "pos.refund_check"]
            .flatMap { try Vectors.load(folder: "pos", suite: $0) }.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "vector ids must be unique")
    }
}
