// libFuzzer target: structure-aware coordinator event sequences (issues 9, 15, 16, 20).
// The bytes are read as a sequence of letters of FlowAlphabet (the event table for two checkouts
// and two POS hand-offs: starts, sessions, browser events, confirmations genuine and for another
// card, callbacks genuine / without nonce / with a forged or another flow's nonce, POS answers
// by URL and as result extras with the right, another or no token, reused transactionids,
// refunds, removals with and without give_up, foreground, tick, time steps to each deadline,
// checkout.browser_result of every code — its `ok` URL genuine, of the other flow, forged —),
// plus what only a fuzzer does: any of the alphabet's links mangled byte by byte or with
// grammar pieces, raw bytes as a URL, long time jumps, process death through the C ABI (the
// snapshot text restored by payhandoff_coordinator_restore), and steps sent through the C ABI's
// JSON door next to the Swift door.
// Issue 39: the input's first byte picks the world too (bit 0 the configuration, the rest modulo
// four: billpocket — the world above —, square, sumup, clip: each other terminal app's POS-only
// world of Fuzz/FuzzSupport/POSWorlds.swift, its properties checked by FlowAlphabet.checkWorld).
// Properties after every step (FlowProperties, shared with the exhaustive check):
// - no flow holds a verified callback, an answer or a confirmation its genuine link or event did
//   not bring; no deep link moves two flows; an event not accepted changes nothing;
// - at process death: the snapshot fits the budget and restores, from its text, through the C
//   ABI to the same snapshot; at the end (of one input in four while fuzzing: it costs as much
//   as the whole sequence): the snapshot restores through the Swift API to an equal coordinator;
// - the C ABI door answers what the Swift door answers and leaves the same snapshot.
import FuzzSupport
import PayHandoff
import PayHandoffABI

/// Built in LLVMFuzzerInitialize (or the replay's main), not as lazily initialized globals: in the
/// release fuzzer build their first access from LLVMFuzzerTestOneInput hung in swift_once's wait
/// (the token read as in progress, the initializer never ran), depending on the core's layout.
/// Per world (FlowAlphabet.World.allCases order: billpocket, square, sumup, clip), the alphabet of
/// each configuration (the other apps' worlds are POS only: one alphabet serves both) and its links.
nonisolated(unsafe) var alphabets: [[FlowAlphabet]] = []
nonisolated(unsafe) var urlLetters: [[FlowAlphabet.Letter]] = []
func makeAlphabets() {
    alphabets = FlowAlphabet.World.allCases.map { world in
        let first = FlowAlphabet(acceptUnverifiedCallbacks: false, world: world)
        return [first, world == .billpocket ? FlowAlphabet(acceptUnverifiedCallbacks: true) : first]
    }
    urlLetters = alphabets.map { $0[0].letters.filter { if case .url = $0.action { return true }; return false } }
}
let mangles = ["%", "%2", "%7E", "%41", "/", "//", "?", "&", "=", "#", "+", " ", "%00", "~", ";", "..", "ph_", "%70h_", "é", "%C0%AF"]

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    makeAlphabets()
    Fuzz.start("FuzzCoordinator", fuzzOne)
    return 0
}

/// Process death through the C ABI: the snapshot, within the budget, restores there to the same
/// text.
func restart(_ state: FlowAlphabet.State) {
    let text = JSONText.render(state.coordinator.snapshot)
    Fuzz.require(text.utf8.count <= Coordinator.maxSnapshotBytes, "snapshot of \(text.utf8.count) bytes")
    var handle: OpaquePointer? = nil
    let r = text.withCString { t in Fuzz.abi("coordinator_restore") { payhandoff_coordinator_restore(t, &handle, $0) } }
    Fuzz.require(r.isOK && handle != nil, "the C ABI does not restore the snapshot: \(r.text)\n\(text)")
    Fuzz.require(r.text == text, "the C ABI restores another snapshot:\n\(text)\n\(r.text)")
    payhandoff_coordinator_free(handle)
}

/// The letter sent through the C ABI's door too: same answer, same snapshot.
func throughABI(_ letter: FlowAlphabet.Letter, before: FlowAlphabet.State, after: FlowAlphabet.State, answer: CoordinatorAnswer?) {
    guard let answer else { return }
    var handle: OpaquePointer? = nil
    let snapshot = JSONText.render(before.coordinator.snapshot)
    let restored = snapshot.withCString { t in Fuzz.abi("coordinator_restore") { payhandoff_coordinator_restore(t, &handle, $0) } }
    Fuzz.require(restored.isOK, "the C ABI does not restore the snapshot: \(restored.text)")
    defer { payhandoff_coordinator_free(handle) }
    let r: Fuzz.ABIResult
    switch letter.action {
    case .url(let url):
        r = url.withCString { u in Fuzz.abi("coordinator_handle_url") { payhandoff_coordinator_handle_url(handle, u, before.now, $0) } }
    case .event(_, let json):
        guard case .object(var o) = json else { return }
        o["now"] = .integer(before.now)
        r = JSONText.render(.object(o)).withCString { e in Fuzz.abi("coordinator_send") { payhandoff_coordinator_send(handle, e, $0) } }
    case .advance, .batch, .restart:
        return
    }
    Fuzz.require(r.isOK && Fuzz.same(r.document, answer.json), "\(letter.label): C ABI answered \(r.text), Swift \(JSONText.render(answer.json))")
    let snapshotAfter = Fuzz.abi("coordinator_snapshot") { payhandoff_coordinator_snapshot(handle, $0) }
    Fuzz.require(snapshotAfter.text == JSONText.render(after.coordinator.snapshot),
                 "\(letter.label): the C ABI's snapshot differs from the Swift door's:\n\(snapshotAfter.text)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var c = FuzzCursor(Fuzz.bytes(data, size))
    // The first byte: the configuration (bit 0) and the world (issue 39: the rest, modulo the four
    // worlds; the exhaustive check's seeds are written so).
    let selector = Int(c.byte())
    let world = (selector >> 1) % alphabets.count
    let alphabet = alphabets[world][selector & 1]
    let links = urlLetters[world]
    let accept = alphabet.configuration.acceptUnverifiedCallbacks
    var state = alphabet.initial
    var steps = 0, restarts = 0, usedABI = false
    while !c.isAtEnd && steps < 32 {
        steps += 1
        let choice = Int(c.byte())
        let letter: FlowAlphabet.Letter
        if choice < 200 {
            letter = alphabet.letters[choice % alphabet.letters.count]
            // Issue 35's 33 other sales: their starts cost as much as a whole input here, where
            // the speed goal is 5,000 inputs a second; FuzzSalvage and the model check drive them.
            if case .batch = letter.action { continue }
        } else if choice < 220 {
            let times = alphabet.timeLetters(state)
            guard !times.isEmpty else { continue }
            letter = times[c.below(times.count)]
        } else if choice < 236 {
            // An alphabet link mangled: a piece inserted, bytes dropped, or grammar pieces appended.
            guard !links.isEmpty, case .url(let url) = links[c.below(links.count)].action else { continue }
            var bytes = Array(url.utf8)
            let at = c.below(bytes.count + 1)
            switch c.below(4) {
            case 0: bytes.insert(contentsOf: Array(c.pick(mangles).utf8), at: at)
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + c.below(8)))
            case 2: bytes.replaceSubrange(at..<min(bytes.count, at + 1), with: Array(c.pick(mangles).utf8))
            default: bytes.append(contentsOf: Array(("&" + URLGrammar.pieces(&c, known: ["status", "card_id", "reason", "result", "identifier", "amount", "transactionid",
                                                                                        "data", "smp-status", "smp-tx-code", "foreign-tx-id", "smp-failure-cause"])).utf8))
            }
            guard let text = Fuzz.text(bytes) else { continue }
            letter = FlowAlphabet.Letter("mangled url \(text)", .url(text))
        } else if choice < 244 {
            guard let text = Fuzz.text(c.chunk(max: 160)) else { continue }
            letter = FlowAlphabet.Letter("raw url \(text)", .url(text))
        } else if choice < 248 {
            letter = FlowAlphabet.Letter("long time jump", .advance(to: state.now + c.pick([3_600_000, 13 * 3_600_000, 86_400_000])))
        } else if choice < 252 || usedABI {
            // Process death (at most twice an input: a restore costs as much as ten events).
            if restarts < 2 { restart(state) }
            restarts += 1
            continue
        } else {
            usedABI = true  // once an input, for the same reason
            // The next alphabet letter through both doors.
            let next = alphabet.letters[Int(c.byte()) % alphabet.letters.count]
            let (after, answer) = alphabet.apply(next, to: state)
            throughABI(next, before: state, after: after, answer: answer)
            if let problem = FlowProperties.checkStep(before: state, letter: next, after: after, answer: answer, acceptUnverified: accept)
                ?? alphabet.checkWorld(before: state, letter: next, after: after, answer: answer) {
                Fuzz.require(false, problem)
            }
            state = after
            continue
        }
        let (after, answer) = alphabet.apply(letter, to: state)
        if let problem = FlowProperties.checkStep(before: state, letter: letter, after: after, answer: answer, acceptUnverified: accept)
            ?? alphabet.checkWorld(before: state, letter: letter, after: after, answer: answer) {
            Fuzz.require(false, problem)
        }
        state = after
    }
    // The full round trip (text, restore, equality) of the final state, on one input in four:
    // it costs as much as the whole sequence, and process-death steps check the snapshot anyway.
    finalChecks += 1
    if Fuzz.isReplay || finalChecks % 4 == 0, let problem = FlowProperties.checkState(state) { Fuzz.require(false, problem) }
    return 0
}

nonisolated(unsafe) var finalChecks = 0

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() {
        makeAlphabets()
        Fuzz.replay("FuzzCoordinator", fuzzOne)
    }
}
#endif
