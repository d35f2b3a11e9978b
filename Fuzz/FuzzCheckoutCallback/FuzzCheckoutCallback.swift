// libFuzzer target: the hosted-checkout callback parser.
// Input: `options JSON` LF `callback URL` (seeds: Tests/Vectors/checkout/parse_callback.json and
// the hostile suite), or — when the first byte is below 0x20 — choices for URLGrammar's
// structure-aware callback (the rest of the bytes pick the return URL, the nonce segment
// genuine/forged/mangled, the gateway's way of adding its query, keys, escapes, fragment).
// Properties:
// - payhandoff_checkout_parse_callback (raw bytes, through cJSON) keeps the calling convention,
//   and the Swift API gives the same document or the same error code and field (input that is
//   not text: the C function only; text: one input in four while fuzzing, every one in a corpus
//   replay);
// - correlation: "verified": true only when the URL's path carries the options' nonce (the same
//   URL against another nonce is callback_mismatch [nonce]); "verified": false only with
//   accept_unverified (and then the same URL without it is callback_mismatch [nonce]);
// - the id fits the kind (card_id only for cards, payment_id only for payments) and equals
//   expected_id when one is given;
// - the stored (bounded) form stays within CheckoutCallback.maxStoredLength; on a sample of the
//   accepted inputs (one in four while fuzzing, every one when a corpus is replayed), the round
//   trips: the stored form reads back to the same document, and the callback rebuilt from the
//   document on the URL the core hands the gateway parses to the same document;
// - differential: WHATWG URLSearchParams (Node, a long-lived child fed without blocking) decodes
//   the query of accepted callbacks to the same pairs (a sample while fuzzing, every accepted
//   callback in a corpus replay).
import FuzzSupport
import PayHandoff
import PayHandoffABI

nonisolated(unsafe) let urlSearchParams = Oracle(name: "WHATWG URLSearchParams (node)",
                             arguments: ["node", Fuzz.repositoryPath("Fuzz/Oracles/urlsearchparams_oracle.mjs")], sample: 4)
let ownKeys = ["status", "card_id", "payment_id", "reason"]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    Fuzz.start("FuzzCheckoutCallback", fuzzOne)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, size)
    let input: (options: ArraySlice<UInt8>, url: ArraySlice<UInt8>)
    if let first = bytes.first, first < 0x20 {
        var cursor = FuzzCursor(Array(bytes.dropFirst()))
        let (options, url) = URLGrammar.checkoutCallback(&cursor)
        input = (Array(options.utf8)[...], Array(url.utf8)[...])
    } else {
        input = Fuzz.splitOptions(bytes)
    }
    guard let (url, options, parsed, core) = Fuzz.urlWithOptions(input, "checkout_parse_callback", abi: payhandoff_checkout_parse_callback,
                                                                parse: CheckoutCallback.parse(_:options:), json: \.json)
    else { return 0 }
    guard case .success(let document) = core, case .object(let object) = document else { return 0 }
    var shown: String { JSONText.render(document) }  // for messages only

    let kind = (try? document.string(at: "kind")) ?? ""
    let nonce = try? options.optionalString(at: "nonce")
    let verified = (try? document.optionalBool(at: "verified")) == true
    func parse(_ url: String, with change: (inout JSONObject) -> Void) -> Result<JSONValue, PayHandoffError> {
        guard case .object(var o) = options else { return .failure(PayHandoffError(.invalidJSON, field: nil, "options")) }
        change(&o)
        return Fuzz.capture { () throws(PayHandoffError) in try CheckoutCallback.parse(url, options: .object(o)).json }
    }
    if verified {
        Fuzz.require(nonce != nil, "verified without a nonce option: \(shown)")
        let other = nonce.map { ($0.first == "A" ? "B" : "A") + $0.dropFirst() } ?? URLGrammar.nonce
        let forged = parse(url) { $0["nonce"] = .string(other) }
        guard case .failure(let e) = forged, e.code == .callbackMismatch, e.field == "nonce" else {
            Fuzz.require(false, "the URL verifies against another nonce too: \(url) -> \(forged)"); return 0
        }
    } else {
        Fuzz.require((try? options.optionalBool(at: "accept_unverified")) == true, "unverified without accept_unverified: \(shown)")
        let strict = parse(url) { $0["accept_unverified"] = .bool(false); $0["nonce"] = .string(URLGrammar.nonce + "x") }
        guard case .failure(let e) = strict, e.code == .callbackMismatch, e.field == "nonce" else {
            Fuzz.require(false, "an unverified callback is accepted without accept_unverified: \(url) -> \(strict)"); return 0
        }
    }
    Fuzz.require(!(kind == "cards" && object.keys.contains("payment_id")), "payment_id in a cards callback")
    Fuzz.require(!(kind == "payments" && object.keys.contains("card_id")), "card_id in a payments callback")
    if let expected = try? options.optionalString(at: "expected_id"),
       let id = (try? document.optionalString(at: "card_id")) ?? (try? document.optionalString(at: "payment_id")) {
        Fuzz.require(id == expected, "id \(id) is not expected_id \(expected)")
    }

    // The form a flow keeps: bounded; with nothing cut, the same callback.
    guard let parsed else { return 0 }
    let stored = parsed.stored
    let storedText = JSONText.render(stored.json)
    Fuzz.require(storedText.utf8.count <= CheckoutCallback.maxStoredLength,
                 "stored callback longer than \(CheckoutCallback.maxStoredLength): \(storedText)")
    if stored.truncated.isEmpty { Fuzz.require(stored == parsed, "a stored callback with nothing cut differs from the parsed one") }

    guard let returnText = try? options.string(at: "return_url"), let returnURL = try? ReturnURL(returnText) else { return 0 }
    if !Fuzz.isTiming && urlSearchParams.wantsInput() {
        let query = callbackQuery(url, returnURL: returnText)
        urlSearchParams.submit(["query": .string(query)], input: bytes) { answer in compare(answer, with: document, kind: kind) }
    }

    // Round trips, on a sample: the stored form read back by the snapshot reader; the callback
    // rebuilt on the URL the core hands the gateway (when the return URL has no query of its
    // own) parses to the same document.
    guard Fuzz.roundTripTurn() else { return 0 }
    let restored = Fuzz.capture { () throws(PayHandoffError) in try CheckoutCallback(json: stored.json).json }
    Fuzz.require(Fuzz.same(restored, .success(stored.json)), "CheckoutCallback(json:) does not read back \(storedText): \(restored)")
    guard !returnText.utf8.contains(UInt8(ascii: "?")) else { return 0 }
    var pieces: [String] = []
    for key in ownKeys {
        if let value = try? document.optionalString(at: key) { pieces.append(key + "=" + Fuzz.percentEncode(value)) }
    }
    if case .object(let extra)? = document.value(at: "extra") {
        for member in extra.members {
            guard case .string(let s) = member.value else { Fuzz.require(false, "extra value not a string"); return 0 }
            pieces.append(Fuzz.percentEncode(member.key) + "=" + Fuzz.percentEncode(s))
        }
    }
    let sent = verified ? returnURL.adding(nonce: nonce ?? "") : returnText
    let rebuilt = sent + "?" + pieces.joined(separator: "&")
    if rebuilt.utf8.count <= 8192 {
        let again = Fuzz.capture { () throws(PayHandoffError) in try CheckoutCallback.parse(rebuilt, options: options).json }
        Fuzz.require(Fuzz.same(again, .success(document)), "rebuilt callback \(rebuilt) parses to \(again), not \(shown)")
    }
    return 0
}

/// The raw query a callback's parameters are read from: after the first `?`, up to the first
/// `#`; when the return URL has its own query Q and a gateway appended `?…` blindly (the query
/// begins with Q + `?`), the text after that `?`; when a gateway appended `&…` to a URL without
/// a query (issue 24), the text after the first `&` of the nonce segment `ph_…`. Split on bytes,
/// as the core and WHATWG URL do (a `#` followed by a combining mark is one Character, but it
/// still starts the fragment).
func callbackQuery(_ url: String, returnURL: String) -> String {
    func rawQuery(_ text: String) -> ArraySlice<UInt8> {
        let bytes = Array(text.utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        guard let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) else {
            // `…/ph_<nonce>&status=…`: the gateway's query, appended with `&`.
            let segment = (bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 }) ?? bytes.startIndex
            guard bytes[segment..<end].starts(with: Array("ph_".utf8)),
                  let ampersand = bytes[segment..<end].firstIndex(of: UInt8(ascii: "&")) else { return [] }
            return bytes[(ampersand + 1)..<end]
        }
        return bytes[(question + 1)..<end]
    }
    let query = rawQuery(url)
    let own = rawQuery(returnURL)
    if !own.isEmpty, query.starts(with: own + [UInt8(ascii: "?")]) {
        return String(decoding: query.dropFirst(own.count + 1), as: UTF8.self)
    }
    return String(decoding: query, as: UTF8.self)
}

/// Compares URLSearchParams' pairs with the callback document: the same keys once each; status,
/// id and reason equal (an empty id or reason is absent from the document); every other key in
/// `extra` with the same value, and nothing else there.
func compare(_ answer: JSONValue, with document: JSONValue, kind: String) -> String? {
    guard case .array(let pairs) = answer else { return "URLSearchParams answered \(JSONText.render(answer))" }
    var seen: [String] = []
    var extraSeen = 0
    let extra = document.value(at: "extra")
    for pair in pairs {
        guard case .array(let kv) = pair, kv.count == 2, case .string(let key) = kv[0], case .string(let value) = kv[1] else {
            return "bad pair \(JSONText.render(pair))"
        }
        if seen.contains(where: { $0.sameBytes(key) }) { return "URLSearchParams sees \(key) twice; PayHandoff accepted the query" }
        seen.append(key)
        let ours: JSONValue?
        if ownKeys.contains(key) {
            if (kind == "cards" && key == "payment_id") || (kind == "payments" && key == "card_id") {
                return "\(key) in a \(kind) callback PayHandoff accepted"
            }
            ours = document.value(at: key)
            if value.isEmpty && key != "status" {
                if ours != nil { return "\(key) is empty for URLSearchParams, PayHandoff has \(JSONText.render(ours!))" }
                continue
            }
        } else {
            extraSeen += 1
            if case .object(let o)? = extra { ours = o[key] } else { ours = nil }
        }
        if ours != .string(value) {
            return "\(key): URLSearchParams \(JSONText.render(.string(value))), PayHandoff \(ours.map { JSONText.render($0) } ?? "absent")"
        }
    }
    if case .object(let o)? = extra, o.count != extraSeen { return "PayHandoff's extra has keys URLSearchParams does not see" }
    for key in ownKeys where document.value(at: key) != nil && !seen.contains(key) {
        return "PayHandoff has \(key), URLSearchParams does not"
    }
    return nil
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay("FuzzCheckoutCallback", fuzzOne) }
}
#endif
