// libFuzzer target: the hosted-checkout callback parser.
// Input: `options JSON` LF `callback URL` (seeds: Tests/Vectors/checkout/parse_callback.json).
// Properties:
// - payhandoff_checkout_parse_callback (raw bytes, through cJSON) keeps the calling convention,
//   and the Swift API gives the same document or the same error code and field;
// - correlation: "verified" only when the options hold a nonce, and then the same URL checked
//   against another nonce is callback_mismatch [ph_nonce]; without a nonce option never verified;
// - the id fits the kind (card_id only for cards, payment_id only for payments) and equals
//   expected_id when one is given;
// - parse → build → parse: the callback rebuilt from the document on the registered return
//   URL parses to the same document; the snapshot form reads back to the same document.
import FuzzSupport
import PayHandoff
import PayHandoffABI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let (url, options, abi, core) = Fuzz.urlWithOptions(data, size, "checkout_parse_callback", abi: payhandoff_checkout_parse_callback,
                                                    core: { text, options throws(PayHandoffError) in try CheckoutCallback.parse(text, options: options).json })
    else { return 0 }
    guard case .success(let document) = core, case .object(let object) = document else { return 0 }

    let kind = (try? document.string(at: "kind")) ?? ""
    let nonce = try? options.optionalString(at: "nonce")
    let verified = (try? document.optionalBool(at: "verified")) == true
    if verified {
        Fuzz.require(nonce != nil, "verified without a nonce option: \(abi.text)")
        var other = options
        if case .object(var o) = other { o["nonce"] = .string(String((nonce ?? "").reversed()) + "Z"); other = .object(o) }
        let forged = Fuzz.capture { () throws(PayHandoffError) in try CheckoutCallback.parse(url, options: other).json }
        if case .failure(let e) = forged {
            Fuzz.require(e.code == .callbackMismatch && e.field == "ph_nonce" || e.code == .validation && e.field == "nonce",
                         "another nonce: \(e)")
        } else {
            Fuzz.require(false, "the URL verifies against another nonce too: \(url)")
        }
    }
    Fuzz.require(!(kind == "cards" && object.keys.contains("payment_id")), "payment_id in a cards callback")
    Fuzz.require(!(kind == "payments" && object.keys.contains("card_id")), "card_id in a payments callback")
    if let expected = try? options.optionalString(at: "expected_id"),
       let id = (try? document.optionalString(at: "card_id")) ?? (try? document.optionalString(at: "payment_id")) {
        Fuzz.require(id == expected, "id \(id) is not expected_id \(expected)")
    }

    let restored = Fuzz.capture { () throws(PayHandoffError) in try CheckoutCallback(json: document).json }
    Fuzz.require(restored == .success(document), "CheckoutCallback(json:) does not read back \(abi.text): \(restored)")

    // Rebuild on the registered return URL (when it has no query or fragment of its own).
    guard let returnURL = try? options.string(at: "return_url"),
          !returnURL.contains("?"), !returnURL.contains("#") else { return 0 }
    var pieces: [String] = []
    for key in ["status", "card_id", "payment_id", "reason"] {
        if let value = try? document.optionalString(at: key) { pieces.append(key + "=" + Fuzz.percentEncode(value)) }
    }
    if case .object(let extra)? = document.value(at: "extra") {
        for member in extra.members {
            guard case .string(let s) = member.value else { Fuzz.require(false, "extra value not a string"); return 0 }
            pieces.append(Fuzz.percentEncode(member.key) + "=" + Fuzz.percentEncode(s))
        }
    }
    if verified, let nonce { pieces.append("ph_nonce=" + Fuzz.percentEncode(nonce)) }
    let rebuilt = returnURL + "?" + pieces.joined(separator: "&")
    if rebuilt.utf8.count <= 8192 {
        let again = Fuzz.capture { () throws(PayHandoffError) in try CheckoutCallback.parse(rebuilt, options: options).json }
        Fuzz.require(again == .success(document), "rebuilt callback \(rebuilt) parses to \(again), not \(abi.text)")
    }
    return 0
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay(fuzzOne) }
}
#endif
