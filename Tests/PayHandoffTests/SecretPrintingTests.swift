import Foundation
@_spi(JSONText) import PayHandoff
import XCTest

/// Every value the shared vectors produce through the Swift API — requests, answers, callbacks,
/// sessions, confirmations, verdicts, events, coordinators after every step, their answers and a
/// salvage of their snapshots, and every error — printed every way Swift prints a value
/// (`description`, `debugDescription`, `String(describing:)`, `String(reflecting:)`, string
/// interpolation, `print`, `debugPrint`, `dump`, and each child of its `Mirror`, recursively), must
/// show none of the vector's secrets (issue 36): the user tokens, PINs, API keys, nonces and tokens
/// in its input (and SumUp's affiliate keys), the `ph_<nonce>` segments and `usertoken=`/`pin=`/`affiliate-key=` values of its URLs, and the
/// nonces and tokens the library made (read from the secret-bearing documents: build results,
/// snapshots). The documents themselves (`JSONValue`) carry their secrets by contract and are not
/// printed here.
final class SecretPrintingTests: XCTestCase {
    /// Members whose string value is a secret, compared ignoring ASCII case.
    static let secretKeys: Set<String> = ["usertoken", "pin", "token", "nonce", "api_key", "affiliate_key"]

    func testNoVectorSecretIsPrinted() throws {
        var values = 0, secretsChecked = 0
        for folder in ["pos", "checkout", "flows", "hostile"] {
            for suite in ["pos.build_url", "pos.parse_response", "pos.parse_result", "pos.refund_check", "checkout.build_request",
                          "checkout.parse_session", "checkout.parse_callback", "checkout.confirmation", "coordinator.script"] {
                for vector in try Vectors.load(folder: folder, suite: suite) where vector.skipReason == nil {
                    var secrets = Set<String>()
                    Self.collectSecrets(in: vector.input, into: &secrets)
                    let produced = Self.produce(suite: suite, input: vector.input, secrets: &secrets)
                    let shown = Self.meaningful(secrets)
                    secretsChecked += shown.count
                    for value in produced {
                        values += 1
                        let text = Self.printedEveryWay(value)
                        for secret in shown where text.contains(secret) {
                            XCTFail("\(vector.id): a \(type(of: value)) shows the secret '\(secret)':\n\(text.prefix(2000))")
                        }
                    }
                }
            }
        }
        print("secret-printing: \(values) values of the shared vectors printed every way, \(secretsChecked) secrets looked for, none shown")
        XCTAssertGreaterThan(values, 1000)
    }

    /// What the vector's call makes, typed; an error is a value too.
    static func produce(suite: String, input: JSONValue, secrets: inout Set<String>) -> [Any] {
        var made: [Any] = []
        var random = SplitMix64(seed: 7)
        do throws(PayHandoffError) {
            switch suite {
            case "pos.build_url":
                let (request, token) = try POSRequest.build(json: input.value(at: "request") ?? .null, using: &random)
                if let token { secrets.insert(token) }
                made += [request, request.fields()]
            case "pos.parse_response":
                made.append(try POSResponse.parse(input.string(at: "url"), options: input.value(at: "options") ?? .null, jsonText: Vectors.jsonText))
            case "pos.parse_result":
                made.append(try POSResponse.parse(extras: input.value(at: "extras") ?? .null, options: input.value(at: "options") ?? .null, jsonText: Vectors.jsonText))
            case "pos.refund_check":
                made.append(try RefundEligibility.check(json: input.value(at: "check") ?? .null))
            case "checkout.build_request":
                let (request, nonce) = try CheckoutRequest.build(json: input.value(at: "request") ?? .null, using: &random)
                secrets.insert(nonce)
                made += [request, request.httpRequest(nonce: nonce)]
            case "checkout.parse_session":
                made.append(try CheckoutSession(json: input.value(at: "session") ?? .null))
            case "checkout.parse_callback":
                made.append(try CheckoutCallback.parse(input.string(at: "url"), options: input.value(at: "options") ?? .null))
            case "checkout.confirmation":
                made.append(try CheckoutConfirmation(json: input.value(at: "event") ?? .null))
            case "coordinator.script":
                made += try script(input, secrets: &secrets)
            default:
                XCTFail("unknown suite \(suite)")
            }
        } catch {
            made.append(error)
        }
        return made
    }

    /// A `coordinator.script` as the runners drive it, keeping every event, answer and coordinator.
    static func script(_ input: JSONValue, secrets: inout Set<String>) throws(PayHandoffError) -> [Any] {
        var made: [Any] = []
        var coordinator = Coordinator(configuration: try Coordinator.Configuration(json: input.value(at: "config") ?? [:]))
        var generator = SplitMix64(seed: 0)
        for step in try input.optionalArray(at: "steps") ?? [] {
            if try step.optionalBool(at: "restore") == true {
                coordinator = try Coordinator(snapshot: coordinator.snapshot)
            } else if let url = try step.optionalString(at: "url") {
                made.append(coordinator.handle(url: url, now: try step.integer(at: "now")))
            } else if step.value(at: "text_layer_error") == nil {
                do throws(PayHandoffError) {
                    let event = try CoordinatorEvent(json: step.value(at: "event") ?? .null)
                    made += [event, coordinator.send(event, using: &generator)]
                } catch {
                    made.append(error)
                }
            }
            // The nonces and tokens the coordinator made (what its snapshot holds).
            for flow in coordinator.flows {
                switch flow {
                case .checkout(let checkout): if let nonce = checkout.nonce { secrets.insert(nonce) }
                case .pos(let pos): secrets.insert(pos.token)
                }
            }
        }
        // The coordinator as the script left it: every flow it kept, and a salvage of its snapshot.
        made += [coordinator, try Coordinator.Salvage(snapshot: coordinator.snapshot)]
        return made
    }

    /// The strings of `value` a vector or a result holds as secrets.
    static func collectSecrets(in value: JSONValue, into secrets: inout Set<String>) {
        switch value {
        case .object(let object):
            for member in object.members {
                if secretKeys.contains(member.key.lowercased()), case .string(let secret) = member.value { secrets.insert(secret) }
                collectSecrets(in: member.value, into: &secrets)
            }
        case .array(let items):
            for item in items { collectSecrets(in: item, into: &secrets) }
        case .string(let text):
            // In URLs: the nonce segment, and a user token or PIN the POS app may echo.
            for pattern in ["(?<![/:])/ph_([A-Za-z0-9._~-]+)", "(?i)[?&/]usertoken=([^&#]*)", "(?i)[?&/]pin=([^&#]*)",
                            "(?i)[?&]affiliate-key=([^&#]*)"] {
                let regex = try! NSRegularExpression(pattern: pattern)
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let range = Range(match.range(at: 1), in: text) else { continue }
                    let found = String(text[range])
                    secrets.insert(found)
                    if let decoded = found.removingPercentEncoding { secrets.insert(decoded) }
                }
            }
        default:
            break
        }
    }

    /// Secrets long enough to be told apart from ordinary text (vectors also use one-letter tokens
    /// to test validation; those cannot be looked for in printed text).
    static func meaningful(_ secrets: Set<String>) -> [String] {
        secrets.filter { $0.count >= 4 && $0 != "true" }.sorted()
    }

    /// `value` printed every way Swift prints a value: `String(describing:)` (what `print`, string
    /// interpolation and `description` give), `String(reflecting:)` (`debugPrint`,
    /// `debugDescription`) and `dump`, which walks its `Mirror` to every leaf, each shown by its
    /// `debugDescription` or its own mirror: what a debugger's `po` and a reflecting logger see.
    static func printedEveryWay(_ value: Any) -> String {
        var out = String(describing: value) + "\n" + String(reflecting: value) + "\n"
        dump(value, to: &out)
        return out
    }

    /// The rules the redaction follows, on values of their own.
    func testRedactionShowsWhatIsNotSecret() throws {
        var random = SplitMix64(seed: 3)
        let sale = try POSRequest.sale(userToken: "bp-user-secret", identifier: "order-42", amount: try Amount(parsing: "100.00"),
                                       urlScheme: "myapp").withToken("0123456789abcdef0123")
        XCTAssertEqual(sale.description,
                       "POSRequest(venta usertoken=<redacted> identifier=order-42~<redacted> amount=100.00 urlScheme=myapp)")
        var coordinator = Coordinator()
        let answer = coordinator.send(try CoordinatorEvent(.posStart(flowID: "sale-42", request: sale, refundOf: nil,
                                                                     graceMilliseconds: nil, token: nil), now: 1_796_054_400_000),
                                      using: &random)
        let printed = "\(answer)"
        XCTAssertTrue(printed.contains("openPOSApp(\"billpocket:<redacted>\")"), printed)
        XCTAssertFalse(printed.contains("bp-user-secret"), printed)
        let effect = FlowEffect.openBrowser(url: "https://pay.example.com/c/abc?return_url=fixapp%3A%2F%2Fcb%2Fph_0123456789abcdef",
                                            returnTo: .https(host: "tuapp.com", path: "/checkout-callback/ph_0123456789abcdef"))
        XCTAssertEqual("\(effect)", "openBrowser(url: \"https://pay.example.com/<redacted>\", returnTo: Optional(PayHandoff.ReturnURL.Target.https"
                       + "(host: \"tuapp.com\", path: \"/checkout-callback/ph_<redacted>\")))")
        XCTAssertEqual("\(FlowEffect.openBrowser(url: "https://pay.example.com/c/1", returnTo: .scheme("fixapp")))",
                       "openBrowser(url: \"https://pay.example.com/<redacted>\", returnTo: Optional(PayHandoff.ReturnURL.Target.scheme(\"fixapp\")))")
        XCTAssertEqual("\(FlowEffect.createSession(kind: .cards, returnURL: "fixapp://cb/ph_0123456789abcdef"))",
                       "createSession(kind: PayHandoff.CheckoutKind.cards, returnURL: \"fixapp:<redacted>\")")
        // The stored values stay whole: the app performs its effects with them.
        guard case .openPOSApp(let url) = answer.transitions[0].effects[0] else { return XCTFail("\(answer)") }
        XCTAssertTrue(url.contains("usertoken=bp-user-secret"))
    }
}
