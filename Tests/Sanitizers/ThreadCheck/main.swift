// The thread-safety contract of include/payhandoff.h, exercised the way it allows: 8 threads each
// drive their own coordinator through whole POS and checkout flows while calling the stateless
// functions (and die and restore in between), and 8 threads share one coordinator handle, every
// call on it serialized by one mutex.
//
// An executable of its own (not an XCTest case) so that `make tsan` builds only the core, the C ABI
// and this file with ThreadSanitizer, not every test target; XCTest runs the same binary from the
// debug build (PayHandoffABITests.ThreadTests). Prints one line and exits 0 when every thread saw
// what it expected; PAYHANDOFF_TSAN_SELFTEST=1 drops the mutex around the shared handle, breaking
// the header's rule on purpose: ThreadSanitizer must then report races (checked by `make tsan`).
import Foundation
import PayHandoffABI

let t0: Int64 = 1_796_054_400_000

/// Calls one `payhandoff_*` function and returns its status and `*out` (freed here).
func call(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32) -> (status: Int32, text: String) {
    var out: UnsafeMutablePointer<CChar>? = nil
    let status = body(&out)
    defer { payhandoff_string_free(out) }
    return (status, out.map { String(cString: $0) } ?? "")
}

func send(_ handle: OpaquePointer?, _ event: String) -> String {
    let r = call { payhandoff_coordinator_send(handle, event, $0) }
    return r.status == 0 ? r.text : "status \(r.status): \(r.text)"
}

/// One POS sale and one checkout payment, start to end, with flow ids and identifiers unique to
/// `tag`. Returns a description of each step that went wrong.
func flows(_ tag: String, _ handle: OpaquePointer?, _ lock: NSLock?) -> [String] {
    var problems: [String] = []
    func locked<T>(_ body: () -> T) -> T { lock?.lock(); defer { lock?.unlock() }; return body() }
    func expect(_ answer: String, _ fragment: String) {
        if !answer.contains(fragment) { problems.append(tag + ": expected " + fragment + " in " + answer) }
    }
    let now = t0
    let nonce = String(repeating: "0", count: 32 - tag.utf8.count) + tag.replacingOccurrences(of: "-", with: "0")
    let token = "token-of-flow-" + tag
    expect(locked { send(handle, #"{"type":"pos.start","flow_id":"p\#(tag)","now":\#(now),"token":"\#(token)","request":{"transaction":"venta","usertoken":"tok","identifier":"ord\#(tag)","amount":"100.00","urlScheme":"myapp"}}"#) }, #""outcome":"accepted""#)
    expect(locked { send(handle, #"{"type":"checkout.start","flow_id":"c\#(tag)","kind":"payments","return_url":"fixapp://cb","nonce":"\#(nonce)","now":\#(now)}"#) }, #""outcome":"accepted""#)
    // Stateless calls in between, from every thread at once.
    let parsed = call { payhandoff_pos_parse_response("myapp://result=aprobada&identifier=ord\(tag)~\(token)&amount=100.00", #"{"urlScheme":"myapp","identifier":"ord\#(tag)","token":"\#(token)"}"#, $0) }
    if parsed.status != 0 { problems.append(tag + ": stateless parse failed " + parsed.text) }
    expect(locked { send(handle, #"{"type":"pos.launched","flow_id":"p\#(tag)","now":\#(now + 1000)}"#) }, #""outcome":"accepted""#)
    expect(locked { call { payhandoff_coordinator_handle_url(handle, "myapp://result=aprobada&identifier=ord\(tag)~\(token)&amount=100.00&transactionid=T\(tag)", now + 2000, $0) }.text }, #""state":"approved""#)
    expect(locked { send(handle, #"{"type":"checkout.session","flow_id":"c\#(tag)","session":{"kind":"payments","checkout_url":"https://pay.example.com/\#(tag)","payment_id":"pay_\#(tag)"},"now":\#(now + 3000)}"#) }, #""outcome":"accepted""#)
    expect(locked { call { payhandoff_coordinator_handle_url(handle, "fixapp://cb/ph_\(nonce)?status=completed&payment_id=pay_\(tag)", now + 4000, $0) }.text }, #""state":"awaiting_confirmation""#)
    expect(locked { send(handle, #"{"type":"checkout.confirmation","flow_id":"c\#(tag)","event":{"type":"payment.confirmed","data":{"payment_id":"pay_\#(tag)","amount":"100.00"}},"now":\#(now + 5000)}"#) }, #""state":"confirmed""#)
    let snapshot = locked { call { payhandoff_coordinator_snapshot(handle, $0) } }
    if snapshot.status != 0 { problems.append(tag + ": snapshot failed") }
    // Ended flows are removed, as a host does to keep its snapshot small; the ledger keeps the sale.
    for id in ["p" + tag, "c" + tag] {
        expect(locked { send(handle, #"{"type":"flow.remove","flow_id":"\#(id)","now":\#(now + 6000)}"#) }, #""outcome":"accepted""#)
    }
    return problems
}

final class Problems: @unchecked Sendable {
    let lock = NSLock()
    var list: [String] = []
    func add(_ more: [String]) { lock.lock(); list += more; lock.unlock() }
}

var shared: OpaquePointer? = nil
guard call({ payhandoff_coordinator_new(nil, &shared, $0) }).status == 0 else {
    print("thread-check: payhandoff_coordinator_new failed"); exit(1)
}
let sharedAddress = Int(bitPattern: shared)  // an Int crosses into the threads' closures
let sharedLock: NSLock? = ProcessInfo.processInfo.environment["PAYHANDOFF_TSAN_SELFTEST"] == "1" ? nil : NSLock()
let problems = Problems()
let group = DispatchGroup()
var threads: [Thread] = []
for i in 0..<16 {
    group.enter()
    let thread = Thread {
        var found: [String] = []
        for round in 0..<5 {
            let tag = "\(i)-\(round)"
            if i < 8 {
                var own: OpaquePointer? = nil
                _ = call { payhandoff_coordinator_new(nil, &own, $0) }
                found += flows(tag, own, nil)
                // Process death inside the thread: snapshot, free, restore.
                let snapshot = call { payhandoff_coordinator_snapshot(own, $0) }.text
                payhandoff_coordinator_free(own)
                var restored: OpaquePointer? = nil
                if call({ payhandoff_coordinator_restore(snapshot, &restored, $0) }).status != 0 { found.append(tag + ": restore failed") }
                payhandoff_coordinator_free(restored)
            } else {
                found += flows(tag, OpaquePointer(bitPattern: sharedAddress), sharedLock)
            }
        }
        problems.add(found)
        group.leave()
    }
    thread.stackSize = 4 << 20
    threads.append(thread)
}
threads.forEach { $0.start() }
if group.wait(timeout: .now() + 300) != .success { problems.add(["threads did not finish in 300 s"]) }
let snapshot = call { payhandoff_coordinator_snapshot(shared, $0) }.text
let document = try? JSONSerialization.jsonObject(with: Data(snapshot.utf8)) as? [String: Any]
if (document?["flows"] as? [Any])?.count != 0 { problems.add(["the shared coordinator still holds flows: every ended flow was removed"]) }
let sales = (document?["ledger"] as? [String: Any])?["sales"] as? [[Any]] ?? []
if sales.count != 40 || Set(sales.compactMap { $0.first as? String }).count != 40 {
    problems.add(["the shared ledger holds \(sales.count) sales, expected the 40 of the shared-handle threads, each once"])
}
payhandoff_coordinator_free(shared)
for problem in problems.list { print("thread-check: FAIL: " + problem) }
print("thread-check: 16 threads (8 with their own coordinators, 8 sharing one behind a mutex), 5 rounds each: \(problems.list.isEmpty ? "every answer as expected" : "\(problems.list.count) problems"); shared ledger: \(sales.count) sales")
exit(problems.list.isEmpty ? 0 : 1)
