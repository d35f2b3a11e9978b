@testable import PayHandoff
import XCTest

/// What `details` hide (issue 35, item 7): a flow's nonce or token in any ASCII case, its `~`
/// percent-encoded once or twice, and user token or PIN parameters — and what they keep.
final class RedactionTests: XCTestCase {
    func testSecretsInAnyCaseAndEncodingOfTheirTilde() {
        let secret = ["ord-1~abc123"]
        for text in ["x ord-1~abc123 y", "ORD-1~ABC123", "ord-1%7Eabc123", "ord-1%7eabc123", "ord-1%257Eabc123",
                     "q=ord-1%257eABC123&z", "ord-1~abc123"] {
            XCTAssertTrue(Redaction.mayCarrySecret(text, secrets: secret), text)
        }
        for text in ["ord-1abc123", "ord-1%25abc123", "ord-1%7abc123", "ord-1%257abc123", "ord-1~abc12", "rd-1~abc123", ""] {
            XCTAssertFalse(Redaction.mayCarrySecret(text, secrets: secret), text)
        }
        XCTAssertTrue(Redaction.mayCarrySecret("a/ph_NONCE", secrets: ["nonce"]))
        XCTAssertFalse(Redaction.mayCarrySecret("anything", secrets: [""]))
    }

    func testUserTokenAndPINParameters() {
        for text in ["usertoken=x", "a USERTOKEN b", "pin=1", "?pin=1", "&PIN=1", "x/pin=", ";pin=2", "a pin=3"] {
            XCTAssertTrue(Redaction.mayCarrySecret(text, secrets: []), text)
        }
        for text in ["spin=1", "pin", "pi n=", "user token", "a_pin=1"] {
            XCTAssertFalse(Redaction.mayCarrySecret(text, secrets: []), text)
        }
    }
}
