// libFuzzer target: the Billpocket POS answer, through both doors — the URL answer
// (payhandoff_pos_parse_response) and Android's result extras (payhandoff_pos_parse_result).
// Input: `options JSON` LF `answer URL` (seeds: Tests/Vectors/pos/parse_response.json and the
// hostile suite), or — when the first byte is below 0x20 — choices for URLGrammar's
// structure-aware answer (identifier genuine `<identifier>~<token>`, without or with another
// token, keys of the Billpocket table in any case, usertoken echoed, amounts, escapes), read as
// a URL and, from the same pairs, as result extras.
// Properties:
// - the C functions (raw bytes, through cJSON) keep the calling convention, and the Swift API
//   gives the same document or the same error code and field;
// - correlation: with an "identifier" option, a success echoes exactly `<identifier>~<token>`
//   (or the identifier when no token is given);
// - no user token in any answer; amounts are N.NN;
// - the stored (bounded) form stays within POSResponse.maxStoredLength and the snapshot form
//   reads back;
// - parse → build → parse: the answer rebuilt from the document parses to the same document;
// - the two doors agree: the URL's pairs, decoded, given as result extras, give the same
//   document or the same error (URL-level errors aside);
// - differential: the Python oracle of the vectors (Tests/Vectors/tools/pos_vectors.py, a
//   long-lived child fed in batches) gives the same document or error code and field, for the
//   URL answers and the extras.
import FuzzSupport
import PayHandoff
import PayHandoffABI

nonisolated(unsafe) let oracle = Oracle(name: "the Python oracle of the vectors (pos_vectors.py)",
                    arguments: ["python3", Fuzz.repositoryPath("Fuzz/Oracles/pos_oracle.py")])
let billpocketResult = ["approved": "aprobada", "declined": "rechazada", "error": "error"]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    Fuzz.start("FuzzPOSAnswer", fuzzOne)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, size)
    if let first = bytes.first, first < 0x20 {
        var cursor = FuzzCursor(Array(bytes.dropFirst()))
        let (urlOptions, extrasOptions, scheme, pairs) = URLGrammar.billpocketAnswer(&cursor)
        let url = URLGrammar.billpocketURL(&cursor, scheme: scheme, pairs: pairs)
        let byURL = answerURL(input: (Array(urlOptions.utf8)[...], Array(url.utf8)[...]), bytes: bytes)
        // The same answer as Android result extras: the URL's pairs decoded (no `urlScheme`).
        let payload = url.drop { $0 != ":" }.drop { $0 == ":" || $0 == "/" || $0 == "?" }
        guard let items = try? QueryDecoder.decode(payload, plus: .literal, caseInsensitiveKeys: false) else { return 0 }
        var extras = JSONObject()
        for item in items where extras[item.key] == nil { extras[item.key] = .string(item.value) }
        let byExtras = answerExtras(.object(extras), optionsText: extrasOptions, bytes: bytes)
        // URL-level problems (scheme, shape, fragment, query syntax, duplicate keys) have no
        // counterpart in extras; every field rule does.
        if case .success(let a)? = byURL, items.count == extras.count {
            Fuzz.require(Fuzz.same(byExtras, .success(a)), "URL answer \(url) gives \(JSONText.render(a)), as extras \(String(describing: byExtras))")
        } else if case .failure(let e)? = byURL, items.count == extras.count,
                  e.code == .validation && e.field != "urlScheme" || e.code == .callbackMismatch && e.field == "identifier" {
            guard case .failure(let x) = byExtras, x.code == e.code, x.field == e.field else {
                Fuzz.require(false, "URL answer \(url) fails with \(e), as extras \(String(describing: byExtras))"); return 0
            }
        }
        return 0
    }
    _ = answerURL(input: Fuzz.splitOptions(bytes), bytes: bytes)
    return 0
}

/// The URL door: agreement, properties, round trip, and the oracle.
func answerURL(input: (options: ArraySlice<UInt8>, url: ArraySlice<UInt8>), bytes: [UInt8]) -> Result<JSONValue, PayHandoffError>? {
    guard let (url, options, abi, core) = Fuzz.urlWithOptions(input, "pos_parse_response", abi: payhandoff_pos_parse_response,
                                                            core: { text, options throws(PayHandoffError) in try POSResponse.parse(text, options: options).json })
    else { return nil }
    // The oracle reads options documents that are objects (its callers' contract).
    if case .object = options, !Fuzz.isTiming && oracle.wantsInput() {
        oracle.submit(["suite": "pos.parse_response", "url": .string(url), "options": options], input: bytes) { answer in
            Fuzz.disagreement(core, answer)
        }
    }
    guard case .success(let document) = core else { return core }
    checkAnswer(document, options: options, what: abi.text)

    // Rebuild the answer URL and parse it again.
    let scheme = (try? options.string(at: "urlScheme")) ?? ""
    let bare = scheme.hasSuffix("://") ? String(scheme.dropLast(3)) : scheme
    var pieces: [String] = []
    guard case .object(let object) = document else { return core }
    for member in object.members where member.key != "version" && member.key != "extra" {
        var value: String
        switch member.value {
        case .string(let s): value = s
        case .integer(let n): value = String(n)
        default: Fuzz.require(false, "unexpected value type in \(abi.text)"); return core
        }
        if member.key == "result" { value = billpocketResult[value] ?? "?" }
        pieces.append(Fuzz.percentEncode(member.key) + "=" + Fuzz.percentEncode(value))
    }
    if case .object(let extra)? = document.value(at: "extra") {
        for member in extra.members {
            guard case .string(let s) = member.value else { Fuzz.require(false, "extra value not a string"); return core }
            pieces.append(Fuzz.percentEncode(member.key) + "=" + Fuzz.percentEncode(s))
        }
    }
    let rebuilt = bare + "://" + pieces.joined(separator: "&")
    if rebuilt.utf8.count <= 8192 {
        let again = Fuzz.capture { () throws(PayHandoffError) in try POSResponse.parse(rebuilt, options: options).json }
        Fuzz.require(Fuzz.same(again, .success(document)), "rebuilt answer \(rebuilt) parses to \(again), not \(abi.text)")
    }
    return core
}

/// The extras door: agreement, properties, and the oracle.
func answerExtras(_ extras: JSONValue, optionsText: String, bytes: [UInt8]) -> Result<JSONValue, PayHandoffError> {
    let extrasText = JSONText.render(extras)
    guard let options = Fuzz.parsedOptions(optionsText) else { Fuzz.require(false, "grammar options do not parse"); return .success(.null) }
    let abi = extrasText.withCString { e in optionsText.withCString { o in Fuzz.abi("pos_parse_result") { payhandoff_pos_parse_result(e, o, $0) } } }
    let core = Fuzz.capture { () throws(PayHandoffError) in try POSResponse.parse(extras: extras, options: options).json }
    Fuzz.requireAgreement("pos_parse_result", abi, core)
    if !Fuzz.isTiming && oracle.wantsInput() {
        oracle.submit(["suite": "pos.parse_result", "extras": extras, "options": options], input: bytes) { answer in
            Fuzz.disagreement(core, answer)
        }
    }
    if case .success(let document) = core { checkAnswer(document, options: options, what: abi.text) }
    return core
}

/// What every accepted answer must satisfy, whichever door it came through.
func checkAnswer(_ document: JSONValue, options: JSONValue, what: String) {
    if let expected = try? options.optionalString(at: "identifier") {
        let token = (try? options.optionalString(at: "token")) ?? nil
        let sent = token.map { expected + "~" + $0 } ?? expected
        Fuzz.require((try? document.string(at: "identifier"))?.sameBytes(sent) == true, "identifier \(sent) not echoed: \(what)")
    }
    guard case .object(let object) = document else { return }
    Fuzz.require(!object.keys.contains { $0.lowercased() == "usertoken" }, "user token in the answer")
    if case .object(let extra)? = document.value(at: "extra") {
        Fuzz.require(!extra.keys.contains { $0.lowercased() == "usertoken" }, "user token in extra")
    }
    for key in ["amount", "tip"] {
        if let value = try? document.optionalString(at: key) {
            Fuzz.require((try? Amount(parsing: value).decimalString) == value, "\(key) '\(value)' is not N.NN")
        }
    }
    // The form a flow keeps: bounded, and read back by the snapshot reader.
    guard let response = try? POSResponse(json: document) else { Fuzz.require(false, "POSResponse(json:) refuses \(what)"); return }
    Fuzz.require(Fuzz.same(response.json, document), "POSResponse(json:) does not read back \(what): \(JSONText.render(response.json))")
    let stored = response.stored.json
    let identifierLength = JSONText.render(.string(response.identifier)).utf8.count
    Fuzz.require(JSONText.render(stored).utf8.count - identifierLength <= POSResponse.maxStoredLength,
                 "stored answer longer than \(POSResponse.maxStoredLength) bytes besides its identifier: \(JSONText.render(stored))")
    let restored = Fuzz.capture { () throws(PayHandoffError) in try POSResponse(json: stored).json }
    Fuzz.require(Fuzz.same(restored, .success(stored)), "the stored answer does not read back: \(JSONText.render(stored))")
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay("FuzzPOSAnswer", fuzzOne) }
}
#endif
