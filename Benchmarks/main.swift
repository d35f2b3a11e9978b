// PayHandoff benchmarks (issue 10): `make bench` runs this release build.
//
// Every case is timed in this one process: warm-up, then samples of a calibrated batch of calls
// (a sample lasts ~50 µs, so the clock's cost is noise), median and spread per case. The
// Foundation baselines (URLComponents(string:) + queryItems) run on the same input in the same
// run, so the ratios compare like with like on whatever this machine is doing right now.
// Foundation is allowed here and only here: the library never imports it.
//
// Figures from a shared, busy machine are noisy; the ratios are steadier than the absolute
// times. For a stable figure, count instructions: `make bench-callgrind`.
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import PayHandoff
import PayHandoffABI

// MARK: - Inputs

/// A ~400-byte Billpocket answer as the POS app sends it: no `?`, `URLQueryAllowed` escaping,
/// so `( ) / @ : +` stay raw inside values. URLComponents reads the payload as an authority.
let posAnswer = "myapp://result=aprobada&statusinfo=&amount=1250.00&tip=187.50"
    + "&reference=Pedido%2012345%20mesa%207%20(terraza)%20/%20cliente@frecuente%20a%203%20MSI"
    + "&transactionid=720371234&msi=3&authorization=A1B2C3&creditcard=************4242&cardtype=visa"
    + "&email=juan.perez@example.com&phone=5512345678&arqc=9F26A1B2C3D4E5F6&aid=A0000000031010"
    + "&applabel=VISA%20CREDITO&url=https://bp.mx/v/8f7e6d&identifier=ord-000042&bank=BBVA"
    + "&accountType=credit&name=JUAN%20PEREZ&bp_version=4.3.24"
/// The same answer with `?` after `scheme://` (a form PayHandoff tolerates and URLComponents can read).
let posAnswerQ = posAnswer.replacingOccurrences(of: "myapp://", with: "myapp://?")
let callbackURL = "fixapp://checkout-callback/ph_4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99?status=completed&card_id=card_xyz789&order=A%2B1+2"
let nonce = "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"

let posRequestJSON = #"{"transaction":"venta","usertoken":"tok_live_123","identifier":"ord-000042","amount":"1250.00","urlScheme":"myapp","tip":"187.50","msi":3,"reference":"Pedido 12345 mesa 7 (terraza) / cliente@frecuente","email":"juan.perez@example.com"}"#
let posOptionsJSON = #"{"urlScheme":"myapp","identifier":"ord-000042"}"#
/// The same answer as Android result extras (the JVM and Node overhead runs use these too).
let posExtrasJSON = #"{"result":"aprobada","statusinfo":"","amount":"1250.00","tip":"187.50","reference":"Pedido 12345 mesa 7 (terraza) / cliente@frecuente a 3 MSI","transactionid":"720371234","msi":"3","authorization":"A1B2C3","creditcard":"************4242","cardtype":"visa","email":"juan.perez@example.com","phone":"5512345678","arqc":"9F26A1B2C3D4E5F6","aid":"A0000000031010","applabel":"VISA CREDITO","url":"https://bp.mx/v/8f7e6d","identifier":"ord-000042","bank":"BBVA","accountType":"credit","name":"JUAN PEREZ","bp_version":"4.3.24"}"#
let posResultOptionsJSON = #"{"identifier":"ord-000042"}"#
let refundJSON = #"{"sale":{"transactionid":"T-1","amount":"100.00","approved_at":1773174600,"bp_version":"4.3.24"},"now":1773178200,"amount":"40.00"}"#
let checkoutRequestJSON = #"{"kind":"cards","api_key":"sk_test_51Hx9abc","return_url":"fixapp://checkout-callback","nonce":"4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99","provider":"dinelco","customer_id":"cus_1","target_origin":["https://fix.example.com"],"customer":{"name":"Juan","lastname":"Pérez","email":"juan@example.com","phone":"+595981234567"}}"#
let sessionJSON = #"{"kind":"cards","status":201,"body":{"data":{"registration":{"checkout_url":"https://checkout.pay.ingalca.com/r/9f8e7d6c","id":"reg_01HX","card_id":"card_9f8e7d6c"}}}}"#
let callbackOptionsJSON = #"{"kind":"cards","return_url":"fixapp://checkout-callback","nonce":"4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"}"#
let confirmationJSON = #"{"type":"card.registered","data":{"card_id":"card_xyz","brand":"visa","last_four":"4242","token":"tok_1Nv0abc","created_at":"2026-11-30T16:00:00Z"}}"#
let nowMs: Int64 = 1_796_054_460_000

// MARK: - Timing

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func nanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

struct Stats {
    var name: String
    var group: String
    var samples: Int
    var callsPerSample: Int
    var median: Double  // ns per call
    var p10: Double
    var p90: Double
    var min: Double
    var note: String
    var baselineOf: String?  // for baselines: the case they are compared with
    var ratio: Double? = nil  // baseline median / this median (set on PayHandoff cases)
}

let quick = CommandLine.arguments.contains("--quick")
let budget: UInt64 = quick ? 60_000_000 : 400_000_000  // ns of samples per case
var results: [Stats] = []

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((Double(sorted.count - 1) * p).rounded())))]
}

/// `--profile NAME [N]`: no timing; runs N calls (default 10 000) of the case named NAME, each
/// through ``profiled(_:)``, for callgrind/perf (`make bench-callgrind`).
let profileFilter: String? = CommandLine.arguments.firstIndex(of: "--profile").flatMap {
    $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}
let profileCalls: Int = CommandLine.arguments.firstIndex(of: "--profile").flatMap {
    $0 + 2 < CommandLine.arguments.count ? Int(CommandLine.arguments[$0 + 2]) : nil
} ?? 10_000

/// Runs one profiled call. Never inlined, so `make bench-callgrind` counts exactly the calls
/// (callgrind's `--toggle-collect` on this function): no setup, no start-up, nothing to subtract.
@inline(never)
func profiled(_ body: () -> Void) {
    body()
}
/// `--only SUBSTRING`: times only the cases whose name contains SUBSTRING, and their Foundation
/// baselines (for a quick A/B while working on one case); no memory runs, no bench/results.json.
let onlyFilter: String? = CommandLine.arguments.firstIndex(of: "--only").flatMap {
    $0 + 1 < CommandLine.arguments.count ? CommandLine.arguments[$0 + 1] : nil
}

/// Times `body` (one call each); `setup` runs untimed before every sample (then a sample is one call).
@discardableResult
func measure(_ name: String, group: String, note: String = "", baselineOf: String? = nil,
             setup: (() -> Void)? = nil, _ body: () -> Void) -> Stats {
    if let profileFilter {
        if name == profileFilter {
            print("profile: \(profileCalls) calls of \(name)")
            for _ in 0..<profileCalls {
                setup?()
                profiled(body)
            }
        }
        return Stats(name: name, group: group, samples: 0, callsPerSample: 0, median: 1, p10: 1, p90: 1, min: 1, note: "", baselineOf: nil)
    }
    if let onlyFilter, !name.contains(onlyFilter), !(baselineOf?.contains(onlyFilter) ?? false) {
        return Stats(name: name, group: group, samples: 0, callsPerSample: 0, median: .nan, p10: .nan, p90: .nan, min: .nan, note: "", baselineOf: nil)
    }
    // Warm-up: caches, lazy globals, allocator pools.
    let warmStart = nanoseconds()
    var warmCalls = 0
    while nanoseconds() - warmStart < (quick ? 10_000_000 : 50_000_000) || warmCalls < 10 {
        setup?()
        body()
        warmCalls += 1
    }
    let perCall = Double(nanoseconds() - warmStart) / Double(warmCalls)
    let batch = setup == nil ? Swift.max(1, Int(50_000 / Swift.max(perCall, 1))) : 1
    var perCallSamples: [Double] = []
    let start = nanoseconds()
    while (nanoseconds() - start < budget || perCallSamples.count < 50) && perCallSamples.count < 200_000 {
        setup?()
        let t0 = nanoseconds()
        for _ in 0..<batch { body() }
        let t1 = nanoseconds()
        perCallSamples.append(Double(t1 - t0) / Double(batch))
    }
    perCallSamples.sort()
    let stats = Stats(name: name, group: group, samples: perCallSamples.count, callsPerSample: batch,
                      median: percentile(perCallSamples, 0.5), p10: percentile(perCallSamples, 0.1),
                      p90: percentile(perCallSamples, 0.9), min: perCallSamples[0], note: note, baselineOf: baselineOf)
    results.append(stats)
    return stats
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("bench: " + message + "\n").data(using: .utf8)!)
    exit(1)
}

// MARK: - The C ABI, linked in (PayHandoffABI, the code of dist/full) or loaded (dist/embedded)

typealias Out = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
struct ABI {
    var label: String
    var posBuildURL: @convention(c) (UnsafePointer<CChar>?, Out?) -> Int32
    var posParseResponse: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Out?) -> Int32
    var posParseResult: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Out?) -> Int32
    var posRefundCheck: @convention(c) (UnsafePointer<CChar>?, Out?) -> Int32
    var checkoutBuildRequest: @convention(c) (UnsafePointer<CChar>?, Out?) -> Int32
    var checkoutParseSession: @convention(c) (UnsafePointer<CChar>?, Out?) -> Int32
    var checkoutParseCallback: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Out?) -> Int32
    var checkoutParseConfirmation: @convention(c) (UnsafePointer<CChar>?, Out?) -> Int32
    var stringFree: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    var coordinatorNew: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Out?) -> Int32
    var coordinatorSend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Out?) -> Int32
    var coordinatorSnapshot: @convention(c) (OpaquePointer?, Out?) -> Int32
    var coordinatorRestore: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Out?) -> Int32
    var coordinatorHandleURL: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int64, Out?) -> Int32
    var coordinatorFree: @convention(c) (OpaquePointer?) -> Void
}

let linkedABI = ABI(
    label: "linked",
    posBuildURL: { payhandoff_pos_build_url($0, $1) },
    posParseResponse: { payhandoff_pos_parse_response($0, $1, $2) },
    posParseResult: { payhandoff_pos_parse_result($0, $1, $2) },
    posRefundCheck: { payhandoff_pos_refund_check($0, $1) },
    checkoutBuildRequest: { payhandoff_checkout_build_request($0, $1) },
    checkoutParseSession: { payhandoff_checkout_parse_session($0, $1) },
    checkoutParseCallback: { payhandoff_checkout_parse_callback($0, $1, $2) },
    checkoutParseConfirmation: { payhandoff_checkout_parse_confirmation($0, $1) },
    stringFree: { payhandoff_string_free($0) },
    coordinatorNew: { payhandoff_coordinator_new($0, $1, $2) },
    coordinatorSend: { payhandoff_coordinator_send($0, $1, $2) },
    coordinatorSnapshot: { payhandoff_coordinator_snapshot($0, $1) },
    coordinatorRestore: { payhandoff_coordinator_restore($0, $1, $2) },
    coordinatorHandleURL: { payhandoff_coordinator_handle_url($0, $1, $2, $3) },
    coordinatorFree: { payhandoff_coordinator_free($0) })

func loadABI(_ path: String, label: String) -> ABI? {
    guard FileManager.default.fileExists(atPath: path), let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return nil }
    func symbol<T>(_ name: String, _: T.Type) -> T {
        guard let pointer = dlsym(handle, name) else { fail("\(path) has no \(name)") }
        return unsafeBitCast(pointer, to: T.self)
    }
    return ABI(
        label: label,
        posBuildURL: symbol("payhandoff_pos_build_url", (@convention(c) (UnsafePointer<CChar>?, Out?) -> Int32).self),
        posParseResponse: symbol("payhandoff_pos_parse_response", (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Out?) -> Int32).self),
        posParseResult: symbol("payhandoff_pos_parse_result", (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Out?) -> Int32).self),
        posRefundCheck: symbol("payhandoff_pos_refund_check", (@convention(c) (UnsafePointer<CChar>?, Out?) -> Int32).self),
        checkoutBuildRequest: symbol("payhandoff_checkout_build_request", (@convention(c) (UnsafePointer<CChar>?, Out?) -> Int32).self),
        checkoutParseSession: symbol("payhandoff_checkout_parse_session", (@convention(c) (UnsafePointer<CChar>?, Out?) -> Int32).self),
        checkoutParseCallback: symbol("payhandoff_checkout_parse_callback", (@convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, Out?) -> Int32).self),
        checkoutParseConfirmation: symbol("payhandoff_checkout_parse_confirmation", (@convention(c) (UnsafePointer<CChar>?, Out?) -> Int32).self),
        stringFree: symbol("payhandoff_string_free", (@convention(c) (UnsafeMutablePointer<CChar>?) -> Void).self),
        coordinatorNew: symbol("payhandoff_coordinator_new", (@convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Out?) -> Int32).self),
        coordinatorSend: symbol("payhandoff_coordinator_send", (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Out?) -> Int32).self),
        coordinatorSnapshot: symbol("payhandoff_coordinator_snapshot", (@convention(c) (OpaquePointer?, Out?) -> Int32).self),
        coordinatorRestore: symbol("payhandoff_coordinator_restore", (@convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Out?) -> Int32).self),
        coordinatorHandleURL: symbol("payhandoff_coordinator_handle_url", (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int64, Out?) -> Int32).self),
        coordinatorFree: symbol("payhandoff_coordinator_free", (@convention(c) (OpaquePointer?) -> Void).self))
}

/// A C string that lives for the whole run.
func cString(_ text: String) -> UnsafePointer<CChar> { UnsafePointer(strdup(text)!) }

/// Calls `call`, checks the status, frees the output: one ABI round trip.
@inline(__always)
func roundTrip(_ abi: ABI, _ call: (Out) -> Int32) {
    var out: UnsafeMutablePointer<CChar>? = nil
    let status = call(&out)
    if status != 0 { fail("ABI status \(status): \(out.map { String(cString: $0) } ?? "nil")") }
    abi.stringFree(out)
}

// MARK: - Coordinator with 20 pending flows

/// Half checkouts in the browser, half POS hand-offs launched: about what fits in the snapshot
/// budget with room kept for every expected answer (an app rarely has more than a few).
let pendingFlows = 20

func startEvents(_ i: Int) -> [String] {
    if i % 2 == 0 {
        let n = String(format: "%032x", i)
        return [#"{"type":"checkout.start","now":\#(nowMs),"flow_id":"co-\#(i)","kind":"cards","return_url":"fixapp://checkout-callback","nonce":"\#(n)"}"#,
                #"{"type":"checkout.browser_opened","now":\#(nowMs),"flow_id":"co-\#(i)"}"#]
    }
    return [#"{"type":"pos.start","now":\#(nowMs),"flow_id":"pos-\#(i)","token":"\#(String(format: "%032x", i))","request":{"transaction":"venta","usertoken":"tok_1","identifier":"ord-\#(String(format: "%06d", i))","amount":"1250.00","urlScheme":"myapp"}}"#,
            #"{"type":"pos.launched","now":\#(nowMs),"flow_id":"pos-\#(i)"}"#]
}
func answerURL(_ i: Int) -> String {
    if i % 2 == 0 {
        return "fixapp://checkout-callback/ph_" + String(format: "%032x", i) + "?status=completed&card_id=card_xyz789"
    }
    return posAnswer.replacingOccurrences(of: "identifier=ord-000042", with: "identifier=ord-" + String(format: "%06d", i) + "~" + String(format: "%032x", i))
}

func swiftEvent(_ text: String) -> CoordinatorEvent {
    do { return try CoordinatorEvent(json: try JSONText.parse(text, parameter: "event")) } catch { fail("event \(text): \(error)") }
}

func benchCoordinatorSwift(target: Int, label: String) {
    var coordinator = Coordinator()
    var random = SystemRandomNumberGenerator()
    for i in 0..<pendingFlows { for e in startEvents(i) { _ = coordinator.send(swiftEvent(e), using: &random) } }
    if coordinator.flows.count != pendingFlows { fail("only \(coordinator.flows.count) flows started") }
    let url = answerURL(target)
    let pristine = coordinator.snapshot
    var probe = coordinator
    if probe.handle(url: url, now: nowMs).outcome != .accepted { fail("coordinator did not accept \(url)") }
    measure("coordinator.handle(url:) " + label, group: "swift",
            note: "20 pending flows (10 checkout, 10 POS); restored from its snapshot, untimed, before each sample",
            setup: {
                // A fresh coordinator each time: the answer is booked, and its own storage (no copy on write timed).
                do { coordinator = try Coordinator(snapshot: pristine) } catch { fail("restore: \(error)") }
            }) {
        blackHole(coordinator.handle(url: url, now: nowMs))
    }
}

func benchCoordinatorABI(_ abi: ABI, target: Int, label: String) {
    var handle: OpaquePointer? = nil
    var out: UnsafeMutablePointer<CChar>? = nil
    guard abi.coordinatorNew(nil, &handle, &out) == 0 else { fail("coordinator_new") }
    abi.stringFree(out)
    func send(_ text: String) {
        text.withCString { e in roundTrip(abi) { abi.coordinatorSend(handle, e, $0) } }
    }
    for i in 0..<pendingFlows { startEvents(i).forEach(send) }
    out = nil
    guard abi.coordinatorSnapshot(handle, &out) == 0, let snapshot = out else { fail("coordinator_snapshot") }
    let url = cString(answerURL(target))
    measure("payhandoff_coordinator_handle_url " + label + " [" + abi.label + "]", group: "abi",
            note: "20 pending flows, restored from the snapshot untimed before each sample; URL in, answer JSON out, freed",
            setup: {
                abi.coordinatorFree(handle)
                handle = nil
                var restored: UnsafeMutablePointer<CChar>? = nil
                guard abi.coordinatorRestore(snapshot, &handle, &restored) == 0 else { fail("coordinator_restore") }
                abi.stringFree(restored)
            }) {
        roundTrip(abi) { abi.coordinatorHandleURL(handle, url, nowMs, $0) }
    }
    abi.stringFree(snapshot)
    abi.coordinatorFree(handle)
}

// MARK: - Cases

// Sanity: every PayHandoff case takes its success path; show what URLComponents makes of the inputs.
do {
    let answer = try POSResponse.parse(posAnswer, urlScheme: "myapp", expectedIdentifier: "ord-000042")
    let answerQ = try POSResponse.parse(posAnswerQ, urlScheme: "myapp", expectedIdentifier: "ord-000042")
    guard answer == answerQ, answer.reference == "Pedido 12345 mesa 7 (terraza) / cliente@frecuente a 3 MSI" else { fail("POS answer misread") }
} catch { fail("POS answer: \(error)") }
let returnURL = try! ReturnURL("fixapp://checkout-callback")
let foundationOnBillpocket = URLComponents(string: posAnswer)
let foundationOnQ = URLComponents(string: posAnswerQ)
let foundationNote = "URLComponents on the Billpocket form: "
    + (foundationOnBillpocket == nil ? "nil (refuses the URL)"
       : "host=\(foundationOnBillpocket?.host.map { "\"\($0.prefix(24))…\"" } ?? "nil"), queryItems=\(foundationOnBillpocket?.queryItems?.count ?? 0) items — it cannot read the answer")
print("input sizes: POS answer \(posAnswer.utf8.count) bytes, ?-form \(posAnswerQ.utf8.count) bytes, checkout callback \(callbackURL.utf8.count) bytes")
print(foundationNote)
print("URLComponents on the ?-form: \(foundationOnQ?.queryItems?.count ?? 0) query items (reads it)")

let posParse = measure("POSResponse.parse (Billpocket form)", group: "swift", note: "\(posAnswer.utf8.count) B answer, no '?'") {
    blackHole(try? POSResponse.parse(posAnswer, urlScheme: "myapp", expectedIdentifier: "ord-000042"))
}
measure("URLComponents+queryItems (Billpocket form)", group: "foundation",
        note: "same input; misreads it (payload taken as authority)", baselineOf: posParse.name) {
    blackHole(URLComponents(string: posAnswer)?.queryItems)
}
let posParseQ = measure("POSResponse.parse (?-form)", group: "swift", note: "\(posAnswerQ.utf8.count) B, myapp://?result=…") {
    blackHole(try? POSResponse.parse(posAnswerQ, urlScheme: "myapp", expectedIdentifier: "ord-000042"))
}
measure("URLComponents+queryItems (?-form)", group: "foundation", note: "same input; reads it", baselineOf: posParseQ.name) {
    blackHole(URLComponents(string: posAnswerQ)?.queryItems)
}
// Parsing validates every field but makes no strings (fields are decoded when read): this is
// the cost for a host that then reads every text field, for comparison with the parse alone.
measure("POSResponse fields read after a parse (?-form)", group: "swift", note: "21 fields decoded as Strings") {
    guard let r = try? POSResponse.parse(posAnswerQ, urlScheme: "myapp", expectedIdentifier: "ord-000042") else { return }
    blackHole((r.identifier, r.statusInfo, r.reference, r.transactionId, r.authorization, r.cardLastFour, r.cardType,
               r.email, r.phone, r.arqc, r.aid, r.appLabel, r.voucherURL, r.bank, r.cardholderName, r.posAppVersion,
               r.amount, r.tip, r.msi, r.accountType, r.extra))
}
let callbackParse = measure("CheckoutCallback.parse", group: "swift", note: "\(callbackURL.utf8.count) B callback, nonce checked") {
    blackHole(try? CheckoutCallback.parse(callbackURL, kind: .cards, returnURL: returnURL, nonce: nonce))
}
measure("URLComponents+queryItems (callback)", group: "foundation", note: "same input; no checks at all", baselineOf: callbackParse.name) {
    blackHole(URLComponents(string: callbackURL)?.queryItems)
}
// Parsing checks the id and reason but makes no strings (decoded when read, as POS fields are):
// this is the cost for a host that then reads them and the unknown parameters.
measure("CheckoutCallback fields read after a parse", group: "swift", note: "card_id, reason and extra decoded when read") {
    guard let c = try? CheckoutCallback.parse(callbackURL, kind: .cards, returnURL: returnURL, nonce: nonce) else { return }
    blackHole((c.objectID, c.reason, c.extra))
}
let tip = try! Amount(parsing: "187.50"), amount = try! Amount(parsing: "1250.00")
let saleBuild = measure("POSRequest.sale(…).url", group: "swift", note: "validate + encode 8 fields") {
    blackHole((try? POSRequest.sale(userToken: "tok_live_123", identifier: "ord-000042", amount: amount, urlScheme: "myapp",
                                    tip: tip, msi: 3, reference: "Pedido 12345 mesa 7 (terraza) / cliente@frecuente",
                                    email: "juan.perez@example.com"))?.url)
}
measure("URLComponents queryItems→string (sale)", group: "foundation",
        note: "same fields, no validation; leaves + and / unescaped, adds '?'", baselineOf: saleBuild.name) {
    var c = URLComponents()
    c.scheme = "billpocket"
    c.host = ""
    c.queryItems = [URLQueryItem(name: "transaction", value: "venta"), URLQueryItem(name: "usertoken", value: "tok_live_123"),
                    URLQueryItem(name: "identifier", value: "ord-000042"), URLQueryItem(name: "amount", value: "1250.00"),
                    URLQueryItem(name: "urlScheme", value: "myapp"), URLQueryItem(name: "tip", value: "187.50"),
                    URLQueryItem(name: "msi", value: "3"),
                    URLQueryItem(name: "reference", value: "Pedido 12345 mesa 7 (terraza) / cliente@frecuente"),
                    URLQueryItem(name: "email", value: "juan.perez@example.com")]
    blackHole(c.string)
}
let customer = CheckoutRequest.Customer(name: "Juan", lastname: "Pérez", email: "juan@example.com", phone: "+595981234567")
measure("CheckoutRequest.cardRegistration(…).httpRequest", group: "swift", note: "validate, body, headers, return URL + nonce") {
    blackHole((try? CheckoutRequest.cardRegistration(apiKey: "sk_test_51Hx9abc", returnURL: "fixapp://checkout-callback",
                                                     provider: "dinelco", customerID: "cus_1", targetOrigins: ["https://fix.example.com"],
                                                     customer: customer))?.httpRequest(nonce: nonce))
}
benchCoordinatorSwift(target: 11, label: "POS answer")
benchCoordinatorSwift(target: 10, label: "checkout callback")

var abis = [linkedABI]
let embeddedPath = FileManager.default.currentDirectoryPath + "/dist/embedded/libpayhandoff.so"
// Cold start (issue 26): the library's first load in this process and its first call, with the
// resident size each adds. The file may be in the page cache (a phone's first launch reads it
// from flash), so this is the cost of mapping, relocating and first-touching the code.
let rssBeforeLoad = residentBytes()
let loadStart = nanoseconds()
let embeddedABI = loadABI(embeddedPath, label: "dist/embedded")
let loadTime = nanoseconds() - loadStart
let rssAfterLoad = residentBytes()
if let embedded = embeddedABI { abis.append(embedded) } else {
    print("note: \(embeddedPath) not found (make lib): ABI cases run on the linked-in PayHandoffABI only")
}
let cPOSAnswer = cString(posAnswer), cPOSOptions = cString(posOptionsJSON), cPOSRequest = cString(posRequestJSON)
var coldStart: [String: Any] = [:]
if let embedded = embeddedABI {
    let start = nanoseconds()
    roundTrip(embedded) { embedded.posParseResponse(cPOSAnswer, cPOSOptions, $0) }
    let firstCall = nanoseconds() - start
    let rssAfterCall = residentBytes()
    coldStart = ["dlopen_ns": loadTime, "first_call_ns": firstCall,
                 "rss_added_by_load": rssAfterLoad - rssBeforeLoad, "rss_added_by_first_call": rssAfterCall - rssAfterLoad]
}
let cRefund = cString(refundJSON), cCheckoutRequest = cString(checkoutRequestJSON), cSession = cString(sessionJSON)
let cCallback = cString(callbackURL), cCallbackOptions = cString(callbackOptionsJSON), cConfirmation = cString(confirmationJSON)
let cPOSExtras = cString(posExtrasJSON), cPOSResultOptions = cString(posResultOptionsJSON)
for abi in abis {
    let tag = " [" + abi.label + "]"
    let note = "input → JSON text → payhandoff_string_free"
    measure("payhandoff_pos_parse_response" + tag, group: "abi", note: note) { roundTrip(abi) { abi.posParseResponse(cPOSAnswer, cPOSOptions, $0) } }
    measure("payhandoff_pos_parse_result" + tag, group: "abi", note: note + " (Android result extras)") {
        roundTrip(abi) { abi.posParseResult(cPOSExtras, cPOSResultOptions, $0) }
    }
    measure("payhandoff_pos_build_url" + tag, group: "abi", note: note) { roundTrip(abi) { abi.posBuildURL(cPOSRequest, $0) } }
    measure("payhandoff_pos_refund_check" + tag, group: "abi", note: note) { roundTrip(abi) { abi.posRefundCheck(cRefund, $0) } }
    measure("payhandoff_checkout_parse_callback" + tag, group: "abi", note: note) { roundTrip(abi) { abi.checkoutParseCallback(cCallback, cCallbackOptions, $0) } }
    measure("payhandoff_checkout_build_request" + tag, group: "abi", note: note + " (nonce given)") { roundTrip(abi) { abi.checkoutBuildRequest(cCheckoutRequest, $0) } }
    measure("payhandoff_checkout_parse_session" + tag, group: "abi", note: note) { roundTrip(abi) { abi.checkoutParseSession(cSession, $0) } }
    measure("payhandoff_checkout_parse_confirmation" + tag, group: "abi", note: note) { roundTrip(abi) { abi.checkoutParseConfirmation(cConfirmation, $0) } }
    benchCoordinatorABI(abi, target: 11, label: "POS answer")
    benchCoordinatorABI(abi, target: 10, label: "checkout callback")
}

// MARK: - Worst shapes (issue 16): every entry point stays linear in its input

/// `count` pieces `make(i)` joined by `&`, as many as fit in `bytes` after `prefix`.
func filled(_ prefix: String, upTo bytes: Int, _ make: (Int) -> String) -> String {
    var text = prefix
    var i = 0
    while true {
        let piece = (i == 0 ? "" : "&") + make(i)
        if text.utf8.count + piece.utf8.count > bytes { return text }
        text += piece
        i += 1
    }
}
let worstToken = "0123456789abcdef0123456789abcdef"
let worstCallbackBase = "fixapp://checkout-callback/ph_" + nonce + "?status=failed&"
let worstAnswerBase = "myapp://result=rechazada&identifier=ord-000042~" + worstToken + "&"
let worstURLs: [(String, String)] = [
    ("callback, 8 KiB of distinct escaped keys (%61k…=)", filled(worstCallbackBase, upTo: 8192) { String(format: "%%61k%05d=", $0) }),
    ("callback, 8 KiB of distinct '+' keys (+a…=)", filled(worstCallbackBase, upTo: 8192) { String(format: "+a%05d=", $0) }),
    ("callback, 8 KiB of keys alike in length and ends (a…a=)", filled(worstCallbackBase, upTo: 8192) { String(format: "a%05da=", $0) }),
    ("POS answer, 8 KiB of distinct escaped keys (%61a…=)", filled(worstAnswerBase, upTo: 8192) { String(format: "%%61a%05d=", $0) }),
    ("POS answer, 8 KiB of keys differing only in case", filled(worstAnswerBase, upTo: 8192) { i in
        String(String(format: "k%012d", i).enumerated().map { $0.offset == 0 || (i >> ($0.offset - 1)) & 1 == 0 ? $0.element : Character($0.element.uppercased()) }) + "=" }),
    ("POS answer, one 8 KiB escaped value", worstAnswerBase + "statusinfo=" + String(repeating: "%C3%A9", count: (8192 - worstAnswerBase.utf8.count - 11) / 6)),
    ("POS answer, 8 KiB of empty pieces (&&&…)", worstAnswerBase + String(repeating: "&", count: 8192 - worstAnswerBase.utf8.count)),
]
var worstCases: [String] = []
for (label, url) in worstURLs {
    if url.utf8.count > 8192 { fail("worst shape over 8 KiB: \(label)") }
    let isCallback = url.hasPrefix("fixapp:")
    worstCases.append(measure("worst URL: " + label, group: "worst", note: "\(url.utf8.count) B, Swift parse") {
        if isCallback {
            blackHole(try? CheckoutCallback.parse(url, kind: .cards, returnURL: returnURL, nonce: nonce))
        } else {
            blackHole(try? POSResponse.parse(url, urlScheme: "myapp", expectedIdentifier: "ord-000042", token: worstToken))
        }
    }.name)
}
// Through a coordinator (20 pending flows), where the answer is also kept and booked.
do {
    var coordinator = Coordinator()
    var random = SystemRandomNumberGenerator()
    for i in 0..<pendingFlows { for e in startEvents(i) { _ = coordinator.send(swiftEvent(e), using: &random) } }
    let pristine = coordinator.snapshot
    let token11 = String(format: "%032x", 11)
    let answer = filled("myapp://result=aprobada&amount=1250.00&transactionid=720371234&identifier=ord-000011~" + token11 + "&", upTo: 8192) {
        String(format: "%%61a%05d=%%0A", $0)
    }
    let callback = filled("fixapp://checkout-callback/ph_" + String(format: "%032x", 10) + "?status=completed&card_id=card_1&", upTo: 8192) {
        String(format: "%%61k%05d=%%01", $0)
    }
    for (label, url) in [("POS answer", answer), ("checkout callback", callback)] {
        var probe = try! Coordinator(snapshot: pristine)
        if probe.handle(url: url, now: nowMs).outcome != .accepted { fail("worst \(label) not accepted") }
        worstCases.append(measure("worst URL: coordinator.handle(url:), 8 KiB " + label + " of escaped keys", group: "worst",
                                  note: "accepted, kept bounded; restored untimed before each sample",
                                  setup: { coordinator = try! Coordinator(snapshot: pristine) }) {
            blackHole(coordinator.handle(url: url, now: nowMs))
        }.name)
    }
}
// 64 KiB JSON through the C ABI (dist/embedded when built): the reader's duplicate-key rule,
// the extras' case-insensitive one, and a restore of the largest ledger the budget allows.
func jsonObject(upTo bytes: Int, _ member: (Int) -> String) -> String {
    var text = "{"
    var i = 0
    while true {
        let piece = (i == 0 ? "" : ",") + member(i)
        if text.utf8.count + piece.utf8.count + 1 > bytes { return text + "}" }
        text += piece
        i += 1
    }
}
let bigExtras = jsonObject(upTo: 65_536) { String(format: #""k%07d":"v""#, $0) }
let bigEvent = #"{"type":"pos.result","now":\#(nowMs),"flow_id":"pos-11","extras":"# + jsonObject(upTo: 65_536 - 80) { String(format: #""k%07d":"v""#, $0) } + "}"
/// A snapshot whose ledger holds `sales` sales of one day (10-digit ids, 23.45 each, a part
/// refunded) next to the flows of `flows` (a coordinator's snapshot text), as the coordinator
/// writes it (format 3).
func ledgerSnapshot(sales: Int, flows: String = "[]") -> String {
    var entries: [String] = []
    entries.reserveCapacity(sales)
    for n in 0..<sales { entries.append(String(format: #"["%010d",2345,%d,%lld]"#, 7_200_000_000 + n, n % 3 == 0 ? 345 : 0, nowMs - 3_600_000)) }
    return #"{"version":3,"config":{"single_pending_per_kind":false,"checkout_timeout_ms":1800000,"pos_grace_ms":3000,"accept_unverified_callbacks":false},"flows":"#
        + flows + #","ledger":{"pruned_through":0,"sales":["# + entries.joined(separator: ",") + #"],"refunds":[],"unknown":[]}}"#
}
/// The largest snapshot restore reads: a ledger up to PAYHANDOFF_MAX_SNAPSHOT_BYTES.
let bigSnapshot: String = {
    var sales = 6_000
    while ledgerSnapshot(sales: sales + 100).utf8.count <= Coordinator.maxSnapshotBytes { sales += 100 }
    return ledgerSnapshot(sales: sales)
}()
print("worst shapes: extras \(bigExtras.utf8.count) B, event \(bigEvent.utf8.count) B, snapshot \(bigSnapshot.utf8.count) B")
let cBigExtras = cString(bigExtras), cBigEvent = cString(bigEvent), cBigSnapshot = cString(bigSnapshot)
let cEmptyOptions = cString("{}")
for abi in abis {
    let tag = " [" + abi.label + "]"
    worstCases.append(measure("worst JSON: payhandoff_pos_parse_result, 64 KiB of distinct keys" + tag, group: "worst",
                              note: "refused: no result; every key read and checked") {
        var out: UnsafeMutablePointer<CChar>? = nil
        blackHole(abi.posParseResult(cBigExtras, cEmptyOptions, &out))
        abi.stringFree(out)
    }.name)
    var handle: OpaquePointer? = nil
    worstCases.append(measure("worst snapshot: payhandoff_coordinator_restore, 256 KiB ledger" + tag, group: "worst",
                              note: "the largest snapshot restore reads (PAYHANDOFF_MAX_SNAPSHOT_BYTES)") {
        var out: UnsafeMutablePointer<CChar>? = nil
        if abi.coordinatorRestore(cBigSnapshot, &handle, &out) != 0 { fail("restore: \(out.map { String(cString: $0) } ?? "")") }
        abi.stringFree(out)
        abi.coordinatorFree(handle)
    }.name)
    var coordinator: OpaquePointer? = nil
    var created: UnsafeMutablePointer<CChar>? = nil
    _ = abi.coordinatorNew(nil, &coordinator, &created)
    abi.stringFree(created)
    worstCases.append(measure("worst JSON: payhandoff_coordinator_send, 64 KiB pos.result event" + tag, group: "worst",
                              note: "read whole, then rejected (no such flow)") {
        var out: UnsafeMutablePointer<CChar>? = nil
        blackHole(abi.coordinatorSend(coordinator, cBigEvent, &out))
        abi.stringFree(out)
    }.name)
    abi.coordinatorFree(coordinator)
}

if profileFilter != nil { exit(0) }

// MARK: - A merchant's day (issue 24): 20 flows in flight and the day's sales in the ledger

/// Per ledger size: the snapshot's bytes, and the median time of payhandoff_coordinator_snapshot
/// and payhandoff_coordinator_restore on the library apps ship (dist/embedded when built).
var merchantDay: [(flows: Int, sales: Int, bytes: Int, snapshot: Double, restore: Double)] = []
if let abi = abis.last {
    var handle: OpaquePointer? = nil
    var out: UnsafeMutablePointer<CChar>? = nil
    guard abi.coordinatorNew(nil, &handle, &out) == 0 else { fail("coordinator_new") }
    abi.stringFree(out)
    for i in 0..<pendingFlows { for e in startEvents(i) { e.withCString { t in roundTrip(abi) { abi.coordinatorSend(handle, t, $0) } } } }
    out = nil
    guard abi.coordinatorSnapshot(handle, &out) == 0, let written = out else { fail("coordinator_snapshot") }
    let flows: String = {
        guard let document = try? JSONSerialization.jsonObject(with: Data(String(cString: written).utf8)) as? [String: Any],
              let list = document["flows"], let data = try? JSONSerialization.data(withJSONObject: list) else { fail("flows") }
        return String(decoding: data, as: UTF8.self)
    }()
    abi.stringFree(written)
    abi.coordinatorFree(handle)
    // 20 flows in flight reserve ~150 KB of the 256 KiB a snapshot may take, so 5,000 sales fit
    // only without them: the growth is shown on the ledger alone, the day with its flows.
    for (flowCount, sales) in [(pendingFlows, 500), (pendingFlows, 1_000), (pendingFlows, 2_000), (0, 500), (0, 2_000), (0, 5_000)] {
        let text = ledgerSnapshot(sales: sales, flows: flowCount == 0 ? "[]" : flows)
        let cText = cString(text)
        var restored: OpaquePointer? = nil
        var answer: UnsafeMutablePointer<CChar>? = nil
        guard abi.coordinatorRestore(cText, &restored, &answer) == 0 else { fail("restore of \(sales) sales: \(answer.map { String(cString: $0) } ?? "")") }
        abi.stringFree(answer)
        let snapshotTime = measure("merchant day: payhandoff_coordinator_snapshot, \(flowCount) flows + \(sales) sales [\(abi.label)]", group: "day",
                                   note: "\(text.utf8.count) bytes written") {
            roundTrip(abi) { abi.coordinatorSnapshot(restored, $0) }
        }
        let restoreTime = measure("merchant day: payhandoff_coordinator_restore, \(flowCount) flows + \(sales) sales [\(abi.label)]", group: "day",
                                  note: "\(text.utf8.count) bytes read, every member checked") {
            var h: OpaquePointer? = nil
            var o: UnsafeMutablePointer<CChar>? = nil
            if abi.coordinatorRestore(cText, &h, &o) != 0 { fail("restore") }
            abi.stringFree(o)
            abi.coordinatorFree(h)
        }
        abi.coordinatorFree(restored)
        merchantDay.append((flowCount, sales, text.utf8.count, snapshotTime.median, restoreTime.median))
    }
    print("")
    print("Merchant day (flows in flight + the day's sales, 10-digit ids; [\(abi.label)]):")
    print(pad("flows", 6, right: true) + pad("sales", 8, right: true) + pad("snapshot bytes", 16, right: true) + pad("bytes/sale", 12, right: true)
          + pad("snapshot", 12, right: true) + pad("restore", 12, right: true) + pad("restore/sale", 14, right: true))
    for row in merchantDay {
        // Bytes per sale against the first row with the same flows.
        let base = merchantDay.first { $0.flows == row.flows }!
        let perSale = (row.bytes - base.bytes) / Swift.max(row.sales - base.sales, 1)
        print(pad(String(row.flows), 6, right: true) + pad(String(row.sales), 8, right: true) + pad(String(row.bytes), 16, right: true)
              + pad(row.sales == base.sales ? "-" : String(perSale), 12, right: true)
              + pad(fmt(row.snapshot), 12, right: true) + pad(fmt(row.restore), 12, right: true) + pad(fmt(row.restore / Double(row.sales)), 14, right: true))
    }
}

// MARK: - Memory: resident size after 10 000 and after 1 000 000 parses

func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return -1 }
    return kb * 1024
}
struct MemoryResult { var name: String; var after10k: Int; var after1M: Int }
var memory: [MemoryResult] = []
func memoryRun(_ name: String, _ body: () -> Void) {
    guard onlyFilter == nil else { return }
    let total = quick ? 100_000 : 1_000_000
    for _ in 0..<10_000 { body() }
    let after10k = residentBytes()
    for _ in 10_000..<total { body() }
    memory.append(MemoryResult(name: name + (quick ? " (--quick: 100 000 calls)" : ""), after10k: after10k, after1M: residentBytes()))
}
memoryRun("POSResponse.parse") { blackHole(try? POSResponse.parse(posAnswer, urlScheme: "myapp", expectedIdentifier: "ord-000042")) }
for abi in abis {
    memoryRun("payhandoff_pos_parse_response [" + abi.label + "]") { roundTrip(abi) { abi.posParseResponse(cPOSAnswer, cPOSOptions, $0) } }
}

// MARK: - Report

for index in results.indices {
    guard let of = results[index].baselineOf, let target = results.firstIndex(where: { $0.name == of }) else { continue }
    results[target].ratio = results[index].median / results[target].median
}
func fmt(_ ns: Double) -> String {
    ns >= 10_000 ? String(format: "%.1f µs", ns / 1000) : ns >= 1000 ? String(format: "%.2f µs", ns / 1000) : String(format: "%.0f ns", ns)
}
func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
    let count = s.count
    return count >= n ? s : (right ? String(repeating: " ", count: n - count) + s : s + String(repeating: " ", count: n - count))
}
let machine = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
    .first(where: { $0.hasPrefix("model name") }).map { String($0.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
print("")
print("PayHandoff benchmarks — \(machine), \(ProcessInfo.processInfo.activeProcessorCount) cores, load \(String(format: "%.2f", (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).flatMap { Double($0.split(separator: " ")[0]) } ?? -1))")
print("Shared machine: absolute times are noisy; ratios come from the same run. Spread = (p90 − p10) / median.")
print("")
print(pad("case", 62) + pad("median", 10, right: true) + pad("p10", 10, right: true) + pad("p90", 10, right: true) + pad("spread", 8, right: true) + pad("vs Foundation", 15, right: true))
var lastGroup = ""
for r in results where !r.median.isNaN {
    if r.group != lastGroup { print("— " + ["swift": "Swift API", "foundation": "Foundation baselines (same inputs, same run)", "abi": "C ABI round trips",
                                                    "worst": "Worst shapes (issue 16: linear in the input)"][r.group, default: r.group]); lastGroup = r.group }
    let spread = String(format: "%.0f%%", (r.p90 - r.p10) / r.median * 100)
    let ratio = r.ratio.map { String(format: "%.1f× faster", $0) } ?? ""
    print(pad("  " + r.name, 62) + pad(fmt(r.median), 10, right: true) + pad(fmt(r.p10), 10, right: true) + pad(fmt(r.p90), 10, right: true)
          + pad(spread, 8, right: true) + pad(ratio, 15, right: true))
}
print("")
if let load = coldStart["dlopen_ns"] as? UInt64, let first = coldStart["first_call_ns"] as? UInt64,
   let rssLoad = coldStart["rss_added_by_load"] as? Int, let rssCall = coldStart["rss_added_by_first_call"] as? Int {
    print(String(format: "Cold start (dist/embedded, its first load in this process): dlopen + symbols %.0f µs, first payhandoff_pos_parse_response %.1f µs; RSS %+.0f KB after the load, %+.0f KB after the first call",
                 Double(load) / 1e3, Double(first) / 1e3, Double(rssLoad) / 1024, Double(rssCall) / 1024))
}
print("Memory (VmRSS):")
for m in memory {
    print("  " + pad(m.name, 60) + String(format: " after 10 000: %.2f MB, after all: %.2f MB, growth %+.3f MB", Double(m.after10k) / 1e6, Double(m.after1M) / 1e6, Double(m.after1M - m.after10k) / 1e6))
}
print("")
print("Notes: \(foundationNote). The ?-form is what URLComponents can read; the Billpocket form is what the POS app sends.")
print("Node and JVM per-call overhead: make bench runs Benchmarks/node-overhead.js and mk/bench-jvm.mk next (the bindings over dist/embedded).")

// Goals of issue 10.
// Judged on dist/embedded, the library apps ship; [linked] (the full Swift runtime, linked into
// this process) is listed for comparison.
// Issue 10's goal covers the stateless functions of that time; payhandoff_pos_parse_result (issue
// 15) reads a JSON object where parse_response reads a URL, and is reported on its own line.
let abiCases = results.filter { $0.group == "abi" && !$0.name.hasPrefix("payhandoff_coordinator")
    && !$0.name.hasPrefix("payhandoff_pos_parse_result") }
let shipped = abiCases.filter { $0.name.hasSuffix("[dist/embedded]") }
let abiMedians = (shipped.isEmpty ? abiCases : shipped).map(\.median)
let slowestABI = (shipped.isEmpty ? abiCases : shipped).max { $0.median < $1.median }
/// The slowest median among the worst-shape cases whose name starts with `prefix`.
func worstMax(_ prefix: String) -> Double {
    results.filter { $0.group == "worst" && $0.name.hasPrefix(prefix) && !$0.median.isNaN }.map(\.median).max() ?? .infinity
}
let goals: [(String, Bool, String)] = [
    ("POS answer parse ≥ 10× URLComponents+queryItems (?-form, the form both can read)", (results.first { $0.name == posParseQ.name }?.ratio ?? 0) >= 10,
     String(format: "%.1f×", results.first { $0.name == posParseQ.name }?.ratio ?? 0)),
    ("checkout callback parse ≥ 10× URLComponents+queryItems", (results.first { $0.name == callbackParse.name }?.ratio ?? 0) >= 10,
     String(format: "%.1f×", results.first { $0.name == callbackParse.name }?.ratio ?? 0)),
    ("ABI round trip median ≤ 5 µs (every stateless function, " + (shipped.isEmpty ? "linked" : "dist/embedded") + ")",
     (abiMedians.max() ?? .infinity) <= 5000,
     "slowest " + fmt(abiMedians.max() ?? 0) + " (" + (slowestABI?.name ?? "-") + "); "
        + String(abiMedians.filter { $0 <= 5000 }.count) + " of " + String(abiMedians.count) + " within"),
    ("any 8 KiB URL ≤ 1 ms (worst shapes)", worstMax("worst URL") <= 1_000_000, "slowest " + fmt(worstMax("worst URL"))),
    ("any 64 KiB JSON document ≤ 5 ms (worst shapes)", worstMax("worst JSON") <= 5_000_000, "slowest " + fmt(worstMax("worst JSON"))),
    ("merchant day: restore of 20 flows + 2,000 sales ≤ 10 ms (growth: 500 … 2,000 with the flows, 500 … 5,000 without)",
     (merchantDay.first { $0.flows > 0 && $0.sales == 2_000 }?.restore ?? .infinity) <= 10_000_000,
     merchantDay.map { "\($0.flows) flows + \($0.sales): " + fmt($0.restore) }.joined(separator: ", ")),
    ("RSS after 1 000 000 parses within 1 MB of RSS after 10 000", memory.allSatisfy { abs($0.after1M - $0.after10k) <= 1_000_000 },
     memory.map { String(format: "%+.3f MB", Double($0.after1M - $0.after10k) / 1e6) }.joined(separator: ", ")),
]
print("")
print("Goals:" + (onlyFilter == nil ? "" : " (--only: a partial run, goals of cases not run read as not met)"))
for g in goals { print("  [" + (g.1 ? "met" : "NOT met") + "] " + g.0 + ": " + g.2) }
if let extras = results.first(where: { $0.name.hasPrefix("payhandoff_pos_parse_result") && $0.name.hasSuffix(shipped.isEmpty ? "[linked]" : "[dist/embedded]") }),
   !extras.median.isNaN {
    print("  [info] payhandoff_pos_parse_result (Android result extras, a 740-byte JSON object): " + fmt(extras.median)
          + " — outside issue 10's goal, which predates it; the JSON reading dominates")
}
// The Billpocket form is no goal: URLComponents cannot read it (it takes the payload for the
// authority and finds no query), so there is no like-for-like ratio; its time is shown instead.
if let billpocket = results.first(where: { $0.name == posParse.name }), !billpocket.median.isNaN {
    print("  [info] POS answer as the POS app sends it (Billpocket form): " + fmt(billpocket.median)
          + "; URLComponents cannot read it (no query items) and is no baseline for it")
}

// bench/results.json (git-ignored)
let json: [String: Any] = [
    "machine": machine, "cores": ProcessInfo.processInfo.activeProcessorCount, "quick": quick,
    "date": ISO8601DateFormatter().string(from: Date()),
    "cases": results.map { r -> [String: Any] in
        var d: [String: Any] = ["name": r.name, "group": r.group, "median_ns": r.median, "p10_ns": r.p10, "p90_ns": r.p90,
                                "min_ns": r.min, "samples": r.samples, "calls_per_sample": r.callsPerSample, "note": r.note]
        if let ratio = r.ratio { d["foundation_ratio"] = ratio }
        if let of = r.baselineOf { d["baseline_of"] = of }
        return d
    },
    "memory": memory.map { ["name": $0.name, "rss_after_10k": $0.after10k, "rss_after_all": $0.after1M] },
    "cold_start": coldStart,
    "goals": goals.map { ["goal": $0.0, "met": $0.1, "value": $0.2] },
]
if onlyFilter == nil {
    try? FileManager.default.createDirectory(atPath: "bench", withIntermediateDirectories: true)
    let data = try! JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
    _ = FileManager.default.createFile(atPath: "bench/results.json", contents: data)
    print("")
    print("wrote bench/results.json")
}
