import PayHandoff
import XCTest

/// The shared checkout vectors (Tests/Vectors/checkout) through the Swift API's JSON entry
/// points — the same documents the C ABI, Kotlin and JS runners pass.
///
/// Agreement with WHATWG `URLSearchParams`: every `checkout.parse_callback` vector this suite
/// accepts is also decoded by Node's `URLSearchParams` in
/// `Tests/Vectors/tools/urlsearchparams_check.mjs` (run by `make test`), which checks that
/// `status`, the id, `reason` and every `extra` value equal what `URLSearchParams.get` returns,
/// and that `verified` is true exactly when `ph_nonce` is present. Since this suite checks
/// PayHandoff against the same expected documents, the two decoders agree on all of them.
final class CheckoutVectorTests: XCTestCase {
    static let suites = ["checkout.build_request", "checkout.parse_session", "checkout.parse_callback",
                         "checkout.confirmation"]

    func testBuildRequestVectors() throws {
        try Vectors.run(folder: "checkout", suite: "checkout.build_request") { input throws(PayHandoffError) in
            // Vectors with an expected result pass their nonce; the generator is never used then.
            var generator = SplitMix64(seed: 1)
            return try CheckoutRequest.buildResultJSON(json: input.value(at: "request") ?? .null, using: &generator)
        }
    }

    func testParseSessionVectors() throws {
        try Vectors.run(folder: "checkout", suite: "checkout.parse_session") { input throws(PayHandoffError) in
            try CheckoutSession(json: input.value(at: "session") ?? .null).json
        }
    }

    func testParseCallbackVectors() throws {
        try Vectors.run(folder: "checkout", suite: "checkout.parse_callback") { input throws(PayHandoffError) in
            try CheckoutCallback.parse(input.string(at: "url"), options: input.value(at: "options") ?? .null).json
        }
    }

    func testConfirmationVectors() throws {
        try Vectors.run(folder: "checkout", suite: "checkout.confirmation") { input throws(PayHandoffError) in
            try CheckoutConfirmation(json: input.value(at: "event") ?? .null).json
        }
    }

    /// The hostile-input corpus (Tests/Vectors/hostile, issue 9) through the same calls.
    func testHostileVectors() throws {
        try Vectors.run(folder: "hostile", suite: "checkout.build_request") { input throws(PayHandoffError) in
            var generator = SplitMix64(seed: 1)
            return try CheckoutRequest.buildResultJSON(json: input.value(at: "request") ?? .null, using: &generator)
        }
        try Vectors.run(folder: "hostile", suite: "checkout.parse_session") { input throws(PayHandoffError) in
            try CheckoutSession(json: input.value(at: "session") ?? .null).json
        }
        try Vectors.run(folder: "hostile", suite: "checkout.parse_callback") { input throws(PayHandoffError) in
            try CheckoutCallback.parse(input.string(at: "url"), options: input.value(at: "options") ?? .null).json
        }
        try Vectors.run(folder: "hostile", suite: "checkout.confirmation") { input throws(PayHandoffError) in
            try CheckoutConfirmation(json: input.value(at: "event") ?? .null).json
        }
    }

    func testThereAreEnoughVectorsAndAThirdAreHostile() throws {
        let vectors = try Self.suites.flatMap { try Vectors.load(folder: "checkout", suite: $0) }
        let bad = vectors.filter { $0.expect.value(at: "error") != nil }
        XCTAssertGreaterThanOrEqual(vectors.count, 80)
        XCTAssertGreaterThanOrEqual(bad.count * 3, vectors.count)
        XCTAssertEqual(Set(vectors.map(\.id)).count, vectors.count, "vector ids must be unique")
    }
}
