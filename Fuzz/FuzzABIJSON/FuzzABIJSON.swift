// libFuzzer target: the JSON entry points of the C ABI, through the @_cdecl functions, so cJSON
// and the text layer (UTF-8, depth, integer rule, duplicate keys, \u0000) are covered.
// Input: one selector byte, then the JSON text (seeds: every JSON document of the vectors).
// Properties, for every entry point: a known status; *out valid JSON; error documents
// {"code","field","message"} whose code names the status. Then per entry point:
// - coordinator_new / _restore: *handle set exactly on success; the returned snapshot equals
//   _snapshot of the handle; restoring that snapshot gives the same snapshot (stable);
// - coordinator_send (on an empty coordinator and on one with pending checkout and POS flows):
//   a non-zero status or a "rejected"/"not_ours" answer leaves the snapshot unchanged; a changed
//   snapshot is announced with "persist": true; the new snapshot restores to itself;
// - pos_build_url: the URL is billpocket://<fields>, and decoding it gives "fields" back;
// - checkout_build_request: the return URL sent carries the nonce as its `ph_<nonce>` segment;
// - the other documents (pos_parse_result's extras included): the Swift API agrees with the ABI.
import FuzzSupport
import PayHandoff
import PayHandoffABI

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    Fuzz.start("FuzzABIJSON", fuzzOne)
    return 0
}

/// A coordinator with a pending checkout flow and a pending POS sale (nonce and token given, so
/// the fixture is the same in every run).
let fixtureSnapshot: String = {
    var handle: OpaquePointer? = nil
    _ = Fuzz.abi("fixture") { payhandoff_coordinator_new(nil, &handle, $0) }
    for event in [
        #"{"type":"checkout.start","flow_id":"c1","kind":"cards","return_url":"fixapp://checkout-callback","nonce":"0123456789abcdef0123456789abcdef","now":1796054400000}"#,
        #"{"type":"checkout.session","flow_id":"c1","session":{"kind":"cards","checkout_url":"https://pay.example.com/c/1"},"now":1796054401000}"#,
        #"{"type":"pos.start","flow_id":"p1","request":{"transaction":"venta","usertoken":"tok_1","identifier":"ord-1","amount":"100.00","urlScheme":"myapp"},"token":"fedcba9876543210fedcba9876543210","now":1796054402000}"#,
    ] {
        let r = event.withCString { e in Fuzz.abi("fixture") { payhandoff_coordinator_send(handle, e, $0) } }
        Fuzz.require(r.isOK, "fixture event refused: \(r.text)")
    }
    let snap = Fuzz.abi("fixture") { payhandoff_coordinator_snapshot(handle, $0) }
    payhandoff_coordinator_free(handle)
    return snap.text
}()

func snapshot(_ handle: OpaquePointer?) -> Fuzz.ABIResult {
    let r = Fuzz.abi("coordinator_snapshot") { payhandoff_coordinator_snapshot(handle, $0) }
    Fuzz.require(r.isOK || r.code == "limit_exceeded", "snapshot failed: \(r.text)")
    return r
}

/// Restores `text` and checks restore(snapshot) is stable. Returns the handle (caller frees) or nil.
func restoreChecked(_ text: UnsafePointer<CChar>, _ what: String) -> OpaquePointer? {
    var handle: OpaquePointer? = OpaquePointer(bitPattern: 0x1)
    let r = Fuzz.abi(what) { payhandoff_coordinator_restore(text, &handle, $0) }
    guard r.isOK else {
        Fuzz.require(handle == nil, "\(what): failed but *handle is not NULL")
        return nil
    }
    Fuzz.require(handle != nil, "\(what): succeeded without a handle")
    let snap = snapshot(handle)
    if snap.isOK {
        Fuzz.require(snap.text == r.text, "\(what): returned snapshot differs from _snapshot")
        var again: OpaquePointer? = nil
        let r2 = snap.text.withCString { t in Fuzz.abi(what) { payhandoff_coordinator_restore(t, &again, $0) } }
        Fuzz.require(r2.isOK && r2.text == snap.text, "\(what): snapshot does not restore to itself:\n\(snap.text)\n\(r2.text)")
        payhandoff_coordinator_free(again)
    }
    return handle
}

func send(_ base: String, _ event: UnsafePointer<CChar>) {
    let handle = base.withCString { restoreChecked($0, "restore fixture") }
    Fuzz.require(handle != nil, "fixture does not restore")
    defer { payhandoff_coordinator_free(handle) }
    let before = snapshot(handle)
    let r = Fuzz.abi("coordinator_send") { payhandoff_coordinator_send(handle, event, $0) }
    let after = snapshot(handle)
    if !r.isOK {
        Fuzz.require(after.text == before.text, "send failed (\(r.text)) but the coordinator changed")
        return
    }
    Fuzz.require((try? r.document.integer(at: "version")) == 1, "answer without version 1: \(r.text)")
    let outcome = (try? r.document.string(at: "outcome")) ?? "?"
    Fuzz.require(["accepted", "duplicate", "ignored", "rejected", "not_ours"].contains(outcome), "outcome \(outcome)")
    if outcome == "rejected" || outcome == "not_ours" {
        Fuzz.require(after.text == before.text, "\(outcome) but the coordinator changed: \(r.text)")
    }
    if after.text != before.text {
        Fuzz.require((try? r.document.optionalBool(at: "persist")) == true, "state changed without persist: \(r.text)")
    }
    if after.isOK {
        let again = after.text.withCString { restoreChecked($0, "restore after send") }
        payhandoff_coordinator_free(again)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, size)
    guard let selector = bytes.first else { return 0 }
    let body = bytes.dropFirst()
    let text = Fuzz.text(body.prefix { $0 != 0 })  // what a C caller passes: the text up to the first NUL
    let document = text.flatMap { try? JSONText.parse($0, parameter: "x") }
    Fuzz.withCString(body) { json in
        switch selector % 11 {
        case 0:
            var handle: OpaquePointer? = OpaquePointer(bitPattern: 0x1)
            let r = Fuzz.abi("coordinator_new") { payhandoff_coordinator_new(json, &handle, $0) }
            Fuzz.require(r.isOK == (handle != nil), "coordinator_new: handle and status disagree")
            if r.isOK { Fuzz.require(snapshot(handle).text == r.text, "coordinator_new: snapshot differs") }
            payhandoff_coordinator_free(handle)
        case 1:
            payhandoff_coordinator_free(restoreChecked(json, "coordinator_restore"))
        case 2:
            send(#"{"version":2,"config":{"single_pending_per_kind":false,"checkout_timeout_ms":1800000,"pos_grace_ms":3000,"accept_unverified_callbacks":false},"flows":[],"ledger":[]}"#, json)
        case 3:
            send(fixtureSnapshot, json)
        case 4:
            let r = Fuzz.abi("pos_build_url") { payhandoff_pos_build_url(json, $0) }
            if let document {
                var generator = SystemRandomNumberGenerator()
                let core = Fuzz.capture { () throws(PayHandoffError) in try POSRequest.buildResultJSON(json: document, using: &generator, jsonText: JSONText.codec) }
                if document.value(at: "token") == .bool(true), case .success = core {
                    Fuzz.require(r.isOK, "pos_build_url: a fresh token: Swift API succeeded, C ABI failed with \(r.text)")  // tokens differ
                } else {
                    Fuzz.requireAgreement("pos_build_url", r, core)
                }
            }
            // Billpocket's URL is its fields; the other apps' answers carry no `fields` (their
            // request is a JSON document, an intent, or both: the vectors pin those).
            if r.isOK, ((try? r.document.optionalString(at: "pos_app")) ?? nil).map({ $0 == "billpocket" }) ?? true {
                let url = (try? r.document.string(at: "url")) ?? ""
                var expected: [String] = []
                for field in (try? r.document.optionalArray(at: "fields")) ?? [] {
                    expected.append(Fuzz.percentEncode((try? field.string(at: "key")) ?? "?") + "="
                                    + Fuzz.percentEncode((try? field.string(at: "value")) ?? "?"))
                }
                Fuzz.require(url == "billpocket://" + expected.joined(separator: "&"), "URL \(url) is not its fields")
            }
        case 5:
            let r = Fuzz.abi("pos_refund_check") { payhandoff_pos_refund_check(json, $0) }
            if let document {
                Fuzz.requireAgreement("pos_refund_check", r, Fuzz.capture { () throws(PayHandoffError) in
                    try RefundEligibility.check(json: document).json })
            }
        case 6:
            let r = Fuzz.abi("checkout_build_request") { payhandoff_checkout_build_request(json, $0) }
            if r.isOK, let nonce = try? r.document.string(at: "nonce") {
                let returnURL = (try? r.document.optionalString(at: "return_url")) ?? nil
                let registered = (try? document?.optionalString(at: "return_url")) ?? nil
                let expected = registered.flatMap { try? ReturnURL($0) }.map { $0.adding(nonce: nonce) }
                Fuzz.require(returnURL == expected, "return_url \(String(describing: returnURL)) is not the registered one with ph_\(nonce): \(r.text)")
            }
        case 7:
            let r = Fuzz.abi("checkout_parse_session") { payhandoff_checkout_parse_session(json, $0) }
            if let document {
                Fuzz.requireAgreement("checkout_parse_session", r, Fuzz.capture { () throws(PayHandoffError) in
                    try CheckoutSession(json: document).json })
            }
        case 8:
            let r = Fuzz.abi("checkout_parse_confirmation") { payhandoff_checkout_parse_confirmation(json, $0) }
            if let document {
                Fuzz.requireAgreement("checkout_parse_confirmation", r, Fuzz.capture { () throws(PayHandoffError) in
                    try CheckoutConfirmation(json: document).json })
            }
        case 10:
            let r = Fuzz.abi("pos_parse_result") { payhandoff_pos_parse_result(json, #"{"identifier":"ord-1","token":"fedcba9876543210fedcba9876543210"}"#, $0) }
            if let document {
                Fuzz.requireAgreement("pos_parse_result", r, Fuzz.capture { () throws(PayHandoffError) in
                    try POSResponse.parse(extras: document, options: ["identifier": "ord-1", "token": "fedcba9876543210fedcba9876543210"]).json })
            }
        default:
            // The body as a deep link into the fixture coordinator.
            let handle = fixtureSnapshot.withCString { restoreChecked($0, "restore fixture") }
            let before = snapshot(handle)
            let r = Fuzz.abi("coordinator_handle_url") { payhandoff_coordinator_handle_url(handle, json, 1796054403000, $0) }
            let after = snapshot(handle)
            if !r.isOK || (try? r.document.string(at: "outcome")) == "not_ours" || (try? r.document.string(at: "outcome")) == "rejected" {
                Fuzz.require(before.text == after.text, "handle_url changed the coordinator: \(r.text)")
            }
            payhandoff_coordinator_free(handle)
        }
    }
    return 0
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay("FuzzABIJSON", fuzzOne) }
}
#endif
