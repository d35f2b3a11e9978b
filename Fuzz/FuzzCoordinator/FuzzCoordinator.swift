// libFuzzer target: structure-aware coordinator event sequences, through the C ABI
// (payhandoff_coordinator_new/_send/_handle_url/_snapshot/_restore/_free).
// The bytes are read as a sequence of operations (start a checkout or POS flow, session,
// browser opened/dismissed, webhook confirmation, callbacks built with the right, a wrong or no
// nonce and id, POS answers with the right, another or no identifier, tick, foreground, remove,
// process death = snapshot/free/restore, and raw fuzzed URLs), with a clock that only moves forward.
// Properties after every step:
// - the calling convention of every call (known status, JSON *out, error documents);
// - a refused event (non-zero status), "rejected" or "not_ours" leaves the snapshot unchanged;
//   a changed snapshot comes with "persist": true;
// - no success without correlation: a checkout flow holds a verified callback only after a URL
//   carrying its nonce arrived; it is "confirmed" only after a confirmation was sent for it; a
//   POS flow is "approved" only after an answer carrying its identifier arrived;
// - process death: the snapshot restores to an identical snapshot.
import FuzzSupport
import PayHandoff
import PayHandoffABI

let checkoutIDs = ["c0", "c1"]
let posIDs = ["p0", "p1"]
let nonces = ["c0": "0123456789abcdef0123456789abcdef", "c1": "fedcba9876543210fedcba9876543210"]
let returnURLs = ["fixapp://checkout-callback", "https://shop.example.com/return", "com.fix.app://cb/path"]
let identifiers = ["ord-1", "ord-2", "ord 3&x=y"]

func quote(_ s: String) -> String { JSONText.render(.string(s)) }

final class Session {
    var handle: OpaquePointer?
    var now: Int64 = 1_796_054_400_000
    /// Flows that received a URL carrying their nonce / a confirmation; identifiers answered.
    var nonceEchoed: Set<String> = []
    var confirmed: Set<String> = []
    var answered: Set<String> = []

    init() {
        var h: OpaquePointer? = nil
        let r = Fuzz.abi("coordinator_new") { payhandoff_coordinator_new(#"{"checkout_timeout_ms": 600000}"#, &h, $0) }
        Fuzz.require(r.isOK && h != nil, "coordinator_new: \(r.text)")
        handle = h
    }
    deinit { payhandoff_coordinator_free(handle) }

    func snapshot() -> Fuzz.ABIResult {
        let r = Fuzz.abi("coordinator_snapshot") { payhandoff_coordinator_snapshot(handle, $0) }
        Fuzz.require(r.isOK || r.code == "limit_exceeded", "snapshot: \(r.text)")
        return r
    }

    func flows() -> [JSONValue] { (try? snapshot().document.optionalArray(at: "flows")) ?? [] ?? [] }

    func flow(_ id: String) -> JSONValue? { flows().first { (try? $0.string(at: "id")) == id } }

    /// Runs one call and checks the change rules.
    func step(_ what: String, _ call: (OutString) -> Int32) {
        let before = snapshot()
        let r = Fuzz.abi(what, call)
        let after = snapshot()
        if !r.isOK {
            Fuzz.require(before.text == after.text, "\(what) failed (\(r.text)) but the coordinator changed")
        } else {
            let outcome = (try? r.document.string(at: "outcome")) ?? "?"
            Fuzz.require(["accepted", "duplicate", "ignored", "rejected", "not_ours"].contains(outcome), "outcome \(outcome)")
            if outcome == "rejected" || outcome == "not_ours" {
                Fuzz.require(before.text == after.text, "\(what): \(outcome) but the coordinator changed")
            }
            if before.text != after.text {
                Fuzz.require((try? r.document.optionalBool(at: "persist")) == true, "\(what): changed without persist: \(r.text)")
            }
        }
        checkCorrelation()
    }

    func send(_ event: String) {
        step("coordinator_send " + event) { out in event.withCString { payhandoff_coordinator_send(handle, $0, out) } }
    }

    func handleURL(_ url: [UInt8]) {
        if let text = Fuzz.text(url) {
            // What a URL could prove: the nonces and identifiers it carries, however escaped.
            let loose = Fuzz.looseDecode(text, plus: true) + " " + Fuzz.looseDecode(text, plus: false)
            for flow in flows() {
                if let id = try? flow.string(at: "id"), let nonce = try? flow.string(at: "nonce"), loose.contains(nonce) { nonceEchoed.insert(id) }
                if let identifier = try? flow.string(at: "identifier"), loose.contains(identifier) { answered.insert(identifier) }
            }
        }
        step("coordinator_handle_url") { out in Fuzz.withCString(url) { payhandoff_coordinator_handle_url(handle, $0, now, out) } }
    }

    func checkCorrelation() {
        for flow in flows() {
            let id = (try? flow.string(at: "id")) ?? "?"
            let state = (try? flow.string(at: "state")) ?? "?"
            if (try? flow.string(at: "type")) == "checkout" {
                if (try? flow.optionalBool(at: "callback.verified")) == true {
                    Fuzz.require(nonceEchoed.contains(id), "\(id) holds a verified callback no URL with its nonce produced")
                }
                if state == "confirmed" { Fuzz.require(confirmed.contains(id), "\(id) confirmed without a confirmation") }
            } else if state == "approved" {
                let identifier = (try? flow.string(at: "identifier")) ?? "?"
                Fuzz.require(answered.contains(identifier), "\(id) approved without an answer carrying \(identifier)")
            }
        }
    }

    func restart() {
        let snap = snapshot()
        guard snap.isOK else { return }
        payhandoff_coordinator_free(handle)
        handle = nil
        var h: OpaquePointer? = nil
        let r = snap.text.withCString { t in Fuzz.abi("coordinator_restore") { payhandoff_coordinator_restore(t, &h, $0) } }
        Fuzz.require(r.isOK && h != nil, "a snapshot does not restore: \(r.text)\n\(snap.text)")
        Fuzz.require(r.text == snap.text, "restored snapshot differs:\n\(snap.text)\n\(r.text)")
        handle = h
    }
}

func run(_ bytes: [UInt8]) {
    var c = FuzzCursor(bytes)
    let s = Session()
    var steps = 0
    while !c.isAtEnd && steps < 64 {
        steps += 1
        s.now += c.pick([0, 1_000, 61_000, 600_001, 40_000_000])
        let now = s.now
        let op = c.below(13)
        switch op {
        case 0:
            let id = c.pick(checkoutIDs)
            var fields = [#""type":"checkout.start""#, #""flow_id":"\#(id)""#, #""now":\#(now)"#,
                          #""kind":"\#(c.pick(["cards", "payments"]))""#, #""return_url":\#(quote(c.pick(returnURLs)))"#]
            if c.byte() % 4 != 0 { fields.append(#""nonce":"\#(nonces[id]!)""#) }
            s.send("{" + fields.joined(separator: ",") + "}")
        case 1:
            let id = c.pick(checkoutIDs)
            let kind = c.pick(["cards", "payments"])
            let objectID = c.pick(["", kind == "cards" ? #","card_id":"card_a""# : #","payment_id":"pay_a""#])
            s.send(#"{"type":"checkout.session","flow_id":"\#(id)","session":{"kind":"\#(kind)","checkout_url":"https://pay.example.com/c/1"\#(objectID)},"now":\#(now)}"#)
        case 2:
            s.send(#"{"type":"checkout.browser_opened","flow_id":"\#(c.pick(checkoutIDs))","now":\#(now)}"#)
        case 3:
            s.send(#"{"type":"checkout.browser_dismissed","flow_id":"\#(c.pick(checkoutIDs))","now":\#(now)}"#)
        case 4:
            let id = c.pick(checkoutIDs)
            let event = c.pick([
                #"{"type":"card.registered","data":{"card_id":"card_a","brand":"visa","last_four":"4242","token":"tok_1","created_at":"2026-11-30T16:01:00Z"}}"#,
                #"{"type":"card.registered","data":{"card_id":"card_b","brand":"visa","last_four":"4242","token":"tok_2","created_at":"2026-11-30T16:01:00Z"}}"#,
                #"{"type":"payment.confirmed","data":{"payment_id":"pay_a","amount":"100.00","confirmed_at":"2026-11-30T16:05:00Z"}}"#,
            ])
            s.confirmed.insert(id)
            s.send(#"{"type":"checkout.confirmation","flow_id":"\#(id)","event":\#(event),"now":\#(now)}"#)
        case 5:
            let id = c.pick(checkoutIDs)
            let flow = s.flow(id)
            let base = (try? flow?.string(at: "return_url")) ?? c.pick(returnURLs)
            var query = ["status=" + c.pick(["completed", "failed", "cancelled", "COMPLETED"])]
            query.append(c.pick(["card_id=card_a", "card_id=card_b", "payment_id=pay_a", "", "card_id="]))
            switch c.below(3) {
            case 0:
                if let nonce = try? flow?.string(at: "nonce") { query.append("ph_nonce=" + nonce) }
            case 1: query.append("ph_nonce=" + nonces["c0"]!.uppercased())
            default: break
            }
            if c.bool() { query.append("reason=insufficient+funds") }
            let url = base + (base.contains("?") ? "&" : "?") + query.filter { !$0.isEmpty }.joined(separator: "&")
            if c.bool() {
                s.handleURL(Array(url.utf8))
            } else {
                let flows = s.flows()
                if let nonce = try? flow?.string(at: "nonce"), url.contains(nonce) { s.nonceEchoed.insert(id) }
                _ = flows
                s.send(#"{"type":"url","url":\#(quote(url)),"now":\#(now)}"#)
            }
        case 6:
            let id = c.pick(posIDs)
            let identifier = c.pick(identifiers)
            if c.below(3) == 0 {
                let sale = c.pick(posIDs)
                s.send(#"{"type":"pos.start","flow_id":"\#(id)","sale_flow_id":"\#(sale)","request":{"transaction":"devolucion","usertoken":"tok_1","identifier":\#(quote(identifier)),"urlScheme":"myapp","transactionId":"720371"},"now":\#(now)}"#)
            } else {
                s.send(#"{"type":"pos.start","flow_id":"\#(id)","request":{"transaction":"venta","usertoken":"tok_1","identifier":\#(quote(identifier)),"amount":"\#(c.pick(["100.00", "50.00"]))","urlScheme":"myapp"},"now":\#(now)}"#)
            }
        case 7:
            let id = c.pick(posIDs)
            s.send(c.bool() ? #"{"type":"pos.launched","flow_id":"\#(id)","now":\#(now)}"#
                            : #"{"type":"pos.launch_failed","flow_id":"\#(id)","reason":"not installed","now":\#(now)}"#)
        case 8:
            var query = ["result=" + c.pick(["aprobada", "rechazada", "error", "APROBADA"])]
            let identifier = c.pick(identifiers + ["ord-x", ""])
            if !identifier.isEmpty {
                query.append("identifier=" + Fuzz.percentEncode(identifier))
                s.answered.insert(identifier)
            }
            query.append("amount=" + c.pick(["100.00", "50.00", "100"]))
            query.append("transactionid=720371")
            s.handleURL(Array(("myapp://" + query.joined(separator: "&")).utf8))
        case 9:
            s.send(c.bool() ? #"{"type":"tick","now":\#(now)}"# : #"{"type":"app.foregrounded","now":\#(now)}"#)
        case 10:
            s.restart()
        case 11:
            let id = c.pick(checkoutIDs + posIDs)
            let removable = s.flow(id) != nil
            s.send(#"{"type":"flow.remove","flow_id":"\#(id)","now":\#(now)}"#)
            if removable && s.flow(id) == nil {
                s.nonceEchoed.remove(id); s.confirmed.remove(id)
            }
        default:
            s.handleURL(c.chunk(max: 200))
        }
    }
    s.restart()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    run(Fuzz.bytes(data, size))
    return 0
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay(fuzzOne) }
}
#endif
