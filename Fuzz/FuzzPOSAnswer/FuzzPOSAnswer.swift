// libFuzzer target: the Billpocket POS answer, through both doors — the URL answer
// (payhandoff_pos_parse_response) and Android's result extras (payhandoff_pos_parse_result).
// Input: `options JSON` LF `answer URL` (seeds: Tests/Vectors/pos/parse_response.json and the
// hostile suite), or — when the first byte is below 0x20 — choices for URLGrammar's
// structure-aware answer (identifier genuine `<identifier>~<token>`, without or with another
// token, keys of the Billpocket table in any case, usertoken echoed, amounts, escapes), read as
// a URL and, from the same pairs, as result extras.
// Properties:
// - the C functions (raw bytes, through cJSON) keep the calling convention, and the Swift API
//   gives the same document or the same error code and field (input that is not text: the C
//   function only; text: one input in four while fuzzing, every one in a corpus replay);
// - correlation: with an "identifier" option, a success echoes exactly `<identifier>~<token>`
//   (or the identifier when no token is given);
// - no user token in any answer; amounts are N.NN;
// - on one accepted input in four while fuzzing, every one in a corpus replay: the stored
//   (bounded) form stays within POSResponse.maxStoredLength besides its identifier; round trips:
//   the document and the stored form read back through the snapshot reader, the answer rebuilt
//   from the document parses to the same document;
// - the two doors agree: the URL's pairs, decoded, given as result extras, give the same
//   document or the same error (URL-level errors aside);
// - differential: the Python oracle of the vectors (Tests/Vectors/tools/pos_apps_vectors.py, a
//   long-lived child fed without blocking) gives the same document or error code and field, for
//   the URL answers and the extras (a sample while fuzzing, every input in a corpus replay).
import FuzzSupport
import PayHandoff
import PayHandoffABI

nonisolated(unsafe) let oracle = Oracle(name: "the Python oracle of the vectors (pos_apps_vectors.py)",
                    arguments: ["python3", Fuzz.repositoryPath("Fuzz/Oracles/pos_oracle.py")], sample: 32)
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
        // On bytes, as the core reads it (a ':' or '?' that a combining mark follows is one Character).
        let payloadBytes = url.utf8.drop { $0 != UInt8(ascii: ":") }.drop { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
        let payload = Substring(String(decoding: payloadBytes, as: UTF8.self))
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
    guard let (url, options, parsed, core) = Fuzz.urlWithOptions(input, "pos_parse_response", abi: payhandoff_pos_parse_response,
                                                                parse: { url, options throws(PayHandoffError) in try POSResponse.parse(url, options: options, jsonText: JSONText.codec) },
                                                                json: \.json)
    else { return nil }
    // The oracle reads options documents that are objects (its callers' contract).
    if case .object = options, !Fuzz.isTiming && oracle.wantsInput() {
        oracle.submit(["suite": "pos.parse_response", "url": .string(url), "options": options], input: bytes) { answer in
            Fuzz.disagreement(core, answer)
        }
    }
    guard case .success(let document) = core, let parsed else { return core }
    var shown: String { JSONText.render(document) }  // for messages only
    guard checkAnswer(document, parsed, options: options, what: shown) else { return core }

    // Rebuild the answer URL and parse it again: Billpocket's answer is its query pairs; the other
    // apps' documents are not their URL's pairs (Square's is JSON text in data=), their vectors pin them.
    if let app = try? document.optionalString(at: "pos_app"), app != "billpocket" { return core }
    let scheme = (try? options.string(at: "urlScheme")) ?? ""
    let bare = scheme.hasSuffix("://") ? String(scheme.dropLast(3)) : scheme
    var pieces: [String] = []
    guard case .object(let object) = document else { return core }
    // result_word is not a key of the answer: it is the word an unrecognized result was sent as.
    for member in object.members where member.key != "version" && member.key != "extra" && member.key != "result_word" {
        var value: String
        switch member.value {
        case .string(let s): value = s
        case .integer(let n): value = String(n)
        default: Fuzz.require(false, "unexpected value type in \(shown)"); return core
        }
        if member.key == "result" {
            value = value == "unrecognized" ? ((try? document.string(at: "result_word")) ?? "?") : (billpocketResult[value] ?? "?")
        }
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
        let again = Fuzz.capture { () throws(PayHandoffError) in try POSResponse.parse(rebuilt, options: options, jsonText: JSONText.codec).json }
        Fuzz.require(Fuzz.same(again, .success(document)), "rebuilt answer \(rebuilt) parses to \(again), not \(shown)")
    }
    return core
}

/// The extras door: agreement, properties, and the oracle.
func answerExtras(_ extras: JSONValue, optionsText: String, bytes: [UInt8]) -> Result<JSONValue, PayHandoffError> {
    guard let options = Fuzz.parsedOptions(optionsText) else { Fuzz.require(false, "grammar options do not parse"); return .success(.null) }
    var parsed: POSResponse? = nil
    let core = Fuzz.capture { () throws(PayHandoffError) in
        let response = try POSResponse.parse(extras: extras, options: options, jsonText: JSONText.codec)
        parsed = response
        return response.json
    }
    if Fuzz.abiTurn % Fuzz.abiSample == 0 || Fuzz.checkAll {  // the C door on the inputs the URL's went through
        let extrasText = JSONText.render(extras)
        let abi = extrasText.withCString { e in optionsText.withCString { o in Fuzz.abi("pos_parse_result") { payhandoff_pos_parse_result(e, o, $0) } } }
        Fuzz.requireAgreement("pos_parse_result", abi, core)
    }
    if !Fuzz.isTiming && oracle.wantsInput() {
        oracle.submit(["suite": "pos.parse_result", "extras": extras, "options": options], input: bytes) { answer in
            Fuzz.disagreement(core, answer)
        }
    }
    if case .success(let document) = core, let parsed { _ = checkAnswer(document, parsed, options: options, what: JSONText.render(document)) }
    return core
}

/// What every accepted answer must satisfy, whichever door it came through; on a sample
/// (``Fuzz/roundTripTurn()``) also its stored form's bound and its round trips.
/// - Returns: Whether the round trips are this input's turn (the caller adds its own).
func checkAnswer(_ document: JSONValue, _ response: POSResponse, options: JSONValue, what: @autoclosure () -> String) -> Bool {
    if let expected = try? options.optionalString(at: "identifier") {
        let token = (try? options.optionalString(at: "token")) ?? nil
        let sent = token.map { expected + "~" + $0 } ?? expected
        Fuzz.require(response.identifier.sameBytes(sent), "identifier \(sent) not echoed: \(what())")
    }
    guard case .object(let object) = document else { return false }
    Fuzz.require(!object.keys.contains { $0.lowercased() == "usertoken" }, "user token in the answer")
    Fuzz.require(!response.extra.contains { $0.key.lowercased() == "usertoken" }, "user token in extra")
    for key in ["amount", "tip"] {
        if let value = try? document.optionalString(at: key) {
            Fuzz.require((try? Amount(parsing: value).decimalString) == value, "\(key) '\(value)' is not N.NN")
        }
    }
    guard Fuzz.roundTripTurn() else { return false }
    // The form a flow keeps: bounded (besides the identifier it echoes, bounded by its own rule).
    let stored = response.stored
    let storedText = JSONText.render(stored.json)
    let identifierLength = JSONText.render(.string(response.identifier)).utf8.count
    Fuzz.require(storedText.utf8.count - identifierLength <= POSResponse.maxStoredLength,
                 "stored answer longer than \(POSResponse.maxStoredLength) bytes besides its identifier: \(storedText)")
    // Read back by the snapshot reader: the document, and the stored form.
    let reread = Fuzz.capture { () throws(PayHandoffError) in try POSResponse(json: document).json }
    Fuzz.require(Fuzz.same(reread, .success(document)), "POSResponse(json:) does not read back \(what()): \(reread)")
    let restored = Fuzz.capture { () throws(PayHandoffError) in try POSResponse(json: stored.json).json }
    Fuzz.require(Fuzz.same(restored, .success(stored.json)), "the stored answer does not read back: \(storedText)")
    return true
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay("FuzzPOSAnswer", fuzzOne) }
}
#endif
