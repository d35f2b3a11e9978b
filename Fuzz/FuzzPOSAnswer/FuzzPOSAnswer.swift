// libFuzzer target: the Billpocket POS answer parser.
// Input: `options JSON` LF `answer URL` (seeds: Tests/Vectors/pos/parse_response.json).
// Properties:
// - payhandoff_pos_parse_response (raw bytes, through cJSON) keeps the calling convention;
// - the Swift API gives the same document or the same error code and field;
// - correlation: with an "identifier" option, a success echoes exactly that identifier;
// - no user token in any answer; amounts are N.NN;
// - parse → build → parse: the answer rebuilt from the document (keys of the Billpocket table,
//   values percent-encoded) parses to the same document, and the snapshot form
//   (`POSResponse(json:)`) reads back to the same document.
import FuzzSupport
import PayHandoff
import PayHandoffABI

let billpocketResult = ["approved": "aprobada", "declined": "rechazada", "error": "error"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let (url, options, abi, core) = Fuzz.urlWithOptions(data, size, "pos_parse_response", abi: payhandoff_pos_parse_response,
                                                    core: { text, options throws(PayHandoffError) in try POSResponse.parse(text, options: options).json })
    else { return 0 }
    guard case .success(let document) = core else { return 0 }

    if let expected = try? options.optionalString(at: "identifier") {
        Fuzz.require((try? document.string(at: "identifier")) == expected, "identifier not echoed: \(abi.text)")
    }
    guard case .object(let object) = document else { return 0 }
    Fuzz.require(!object.keys.contains { $0.lowercased() == "usertoken" }, "user token in the answer")
    if case .object(let extra)? = document.value(at: "extra") {
        Fuzz.require(!extra.keys.contains { $0.lowercased() == "usertoken" }, "user token in extra")
    }
    for key in ["amount", "tip"] {
        if let value = try? document.optionalString(at: key) {
            Fuzz.require((try? Amount(parsing: value).decimalString) == value, "\(key) '\(value)' is not N.NN")
        }
    }

    // Snapshot form.
    let restored = Fuzz.capture { () throws(PayHandoffError) in try POSResponse(json: document).json }
    Fuzz.require(restored == .success(document), "POSResponse(json:) does not read back \(abi.text): \(restored)")

    // Rebuild the answer URL and parse it again.
    let scheme = (try? options.string(at: "urlScheme")) ?? ""
    let bare = scheme.hasSuffix("://") ? String(scheme.dropLast(3)) : scheme
    var pieces: [String] = []
    for member in object.members where member.key != "version" && member.key != "extra" {
        var value: String
        switch member.value {
        case .string(let s): value = s
        case .integer(let n): value = String(n)
        default: Fuzz.require(false, "unexpected value type in \(abi.text)"); return 0
        }
        if member.key == "result" { value = billpocketResult[value] ?? "?" }
        pieces.append(Fuzz.percentEncode(member.key) + "=" + Fuzz.percentEncode(value))
    }
    if case .object(let extra)? = document.value(at: "extra") {
        for member in extra.members {
            guard case .string(let s) = member.value else { Fuzz.require(false, "extra value not a string"); return 0 }
            pieces.append(Fuzz.percentEncode(member.key) + "=" + Fuzz.percentEncode(s))
        }
    }
    let rebuilt = bare + "://" + pieces.joined(separator: "&")
    if rebuilt.utf8.count <= 8192 {
        let again = Fuzz.capture { () throws(PayHandoffError) in try POSResponse.parse(rebuilt, options: options).json }
        Fuzz.require(again == .success(document), "rebuilt answer \(rebuilt) parses to \(again), not \(abi.text)")
    }
    return 0
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay(fuzzOne) }
}
#endif
