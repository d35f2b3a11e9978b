// libFuzzer target: recovery never widens what may be refunded nor reopens a spent answer (issue 35).
//
// Input: one configuration byte (bit 0: accept_unverified_callbacks), then up to 16 letters of
// FlowAlphabet, one byte each as FuzzCoordinator reads them (below 200: a letter; 200 to 253: a
// time step of the state, the next byte choosing which — the clock behind in 1970 or across
// midnight and its correction among them; 254: 33 other sales end and stay, more ended flows
// than a start keeps), ended by 255; then the damage (SnapshotDamage: one
// to three of byte flips, member renames, deletions, `null`s, type swaps, version swaps 2/3/4,
// truncation, a byte inserted, each drawn from the next bytes).
// Properties:
// - after every letter, FlowProperties.checkStep (shared with FuzzCoordinator and the model
//   check, the issue-35 ones included: no refund starts beyond what its sale has left by
//   everything the history booked, whatever the clock and whatever a start or flow.remove
//   forgot; no answer sent to a flow moves another, a later one with the same key included);
// - at the end, on the coordinator itself (any clock, both directions): refunds of one centavo
//   more than each sale has left, by sale document and by sale flow, at the times the history
//   and the alphabet's clocks give, never start; every answer of the alphabet keeps the step
//   properties;
// - salvage of the undamaged snapshot is restore: the same coordinator, nothing dropped, the
//   same snapshot text;
// - the damaged snapshot: strict restore, when it accepts, gives what salvage gives (nothing
//   dropped); salvage never crashes, and what it hands out restores; and whatever is recovered
//   (salvage, or restore of damage the issue says it must refuse) passes the same refund and
//   answer probes against the original history. Damage that reads as valid (a digit changed into
//   another; SnapshotDamage.scope) is out of scope unless PAYHANDOFF_FUZZ_INTEGRITY=1 (for a
//   snapshot with an integrity check).
// `PAYHANDOFF_RECOVERY_PROPERTIES=0` turns the issue-35 properties off (FlowProperties.recoveryChecks).
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import PayHandoff
import PayHandoffABI

/// Built in LLVMFuzzerInitialize (or the replay's main), not as a lazily initialized global: in the
/// release fuzzer build its first access from LLVMFuzzerTestOneInput hung in swift_once's wait
/// (the token read as in progress, the initializer never ran), depending on the core's layout.
nonisolated(unsafe) var alphabets: [FlowAlphabet] = []
func makeAlphabets() {
    alphabets = [FlowAlphabet(acceptUnverifiedCallbacks: false), FlowAlphabet(acceptUnverifiedCallbacks: true)]
}
/// Byte 254: more ended flows than a start keeps (FuzzSalvage's own letter: in the model check
/// its 33 flows would only slow the search).
let keptBatch = FlowAlphabet.Letter("33 other sales end and stay", .batch(count: 33, keep: true))
let integrity = Fuzz.environment("PAYHANDOFF_FUZZ_INTEGRITY") == "1"
/// Letters an input: every finding of issue 35 takes at most 8, the alphabet's world holds five
/// flows, and FuzzCoordinator drives longer histories (32) without the recovery.
let maxLetters = 16

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    makeAlphabets()
    Fuzz.start("FuzzSalvage", fuzzOne)
    return 0
}

func salvage(_ document: JSONValue, limit: Int) -> Coordinator.Salvage? {
    try? Coordinator.Salvage(snapshot: document, snapshotLimit: limit)
}

func restore(_ document: JSONValue, limit: Int) -> Coordinator? {
    try? Coordinator(snapshot: document, snapshotLimit: limit)
}

/// The refund and answer probes on `recovered`, against `state`'s history. A coordinator equal
/// to the original is probed once (`recovered` nil: the original itself); the original's answers
/// are probed only when its history has a key whose first flow is gone (the step properties
/// already hold every answer to the flows that hold their keys).
/// `PAYHANDOFF_SALVAGE_PROBES=0` leaves out the refund and answer probes after the salvage or the
/// restore of a damaged snapshot (the probes of undamaged recoveries, the step properties and "salvage of an undamaged
/// snapshot equals restore" stay), to look at the other properties alone. make fuzz-test, make fuzz
/// and make fuzz-long keep them (mk/fuzz.mk): damage that reads as valid is told apart by
/// ``SnapshotDamage/scope(of:coordinator:)``.
let salvageProbes = Fuzz.environment("PAYHANDOFF_SALVAGE_PROBES") != "0"
/// `PAYHANDOFF_SALVAGE_PROBE_SAMPLE=N`: while fuzzing, the refund and answer probes run on one input
/// in N (every one by default, and every one when the corpus is replayed with every check —
/// `PAYHANDOFF_FUZZ_CHECK_ALL=1`, which scripts/run_fuzzers.sh does after each run). The probes
/// take about 95% of an input's time (about 110 inputs a second with them, 2,000 without, on
/// this 2-core machine): `make fuzz-long` samples them so that its 10^7 inputs explore at the
/// fast rate, as the parsers' oracles are sampled, and every input the search keeps is then
/// probed whole.
let probeSample = max(1, Int(Fuzz.environment("PAYHANDOFF_SALVAGE_PROBE_SAMPLE") ?? "") ?? 1)
nonisolated(unsafe) var probeTurn = 0
/// Whether this input's probes run (``probeSample``).
var probing: Bool { probeSample == 1 || Fuzz.checkAll || probeTurn % probeSample == 0 }

func probe(_ alphabet: FlowAlphabet, _ state: FlowAlphabet.State, _ recovered: Coordinator?, salvaged: Bool = false,
           _ what: @autoclosure () -> String) {
    guard FlowProperties.recoveryChecks, !salvaged || salvageProbes, probing else { return }
    let coordinator = recovered ?? state.coordinator
    if recovered == state.coordinator { return }
    if let problem = Recovery.refundProbe(spec: state, coordinator: coordinator, now: state.now, what: what) { Fuzz.require(false, problem) }
    if recovered == nil && state.ghost.keys.allSatisfy({ $0.alive }) { return }
    if let problem = Recovery.answerProbe(alphabet, spec: state, coordinator: coordinator, now: state.now, what: what) { Fuzz.require(false, problem) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    probeTurn &+= 1
    var c = FuzzCursor(Fuzz.bytes(data, size))
    let alphabet = alphabets[Int(c.byte() & 1)]
    let accept = alphabet.configuration.acceptUnverifiedCallbacks
    var state = alphabet.initial
    var steps = 0
    var labels: [String] = []
    var batches = 0
    while !c.isAtEnd && steps < maxLetters {
        let choice = Int(c.byte())
        if choice == 255 { break }
        steps += 1
        let letter: FlowAlphabet.Letter
        if choice < 200 {
            letter = alphabet.letters[choice % alphabet.letters.count]
        } else if choice == 254 {
            letter = keptBatch
        } else {
            let times = alphabet.timeLetters(state)
            letter = times[c.below(times.count)]
        }
        if case .batch = letter.action {
            // One batch an input: its 33 starts cost as much as the rest of the history.
            if batches > 0 { continue }
            batches += 1
        }
        let (after, answer) = alphabet.apply(letter, to: state)
        labels.append(letter.label)
        if let problem = FlowProperties.checkStep(before: state, letter: letter, after: after, answer: answer, acceptUnverified: accept) {
            Fuzz.require(false, problem + "\n  letters: " + labels.joined(separator: " ; "))
        }
        state = after
    }
    func history() -> String { "after " + labels.joined(separator: " ; ") }
    let limit = state.coordinator.snapshotLimit
    let original = state.coordinator.snapshot

    // The coordinator itself, at every clock its history gives.
    probe(alphabet, state, nil, history())

    // Salvage of an undamaged snapshot is restore. (The snapshot's text reads back to the same
    // document: FuzzCoordinator checks that; here the document is used as it is.)
    let parsed = original
    guard FlowProperties.recoveryChecks else {
        // The older properties alone: salvage of a damaged copy never crashes and what it hands out restores.
        let (_, damaged) = SnapshotDamage(&c).apply(to: original)
        if let damaged, let salvaged = salvage(damaged, limit: limit) {
            let out = JSONText.render(salvaged.coordinator.snapshot)
            let again = (try? JSONText.parse(out, parameter: "snapshot", limit: JSONText.maxSnapshotBytes)).flatMap { restore($0, limit: limit) }
            Fuzz.require(again == salvaged.coordinator, "\(history()): what salvage hands out does not restore to it: \(out)")
        }
        return 0
    }
    guard let whole = salvage(parsed, limit: limit) else {
        Fuzz.require(false, "\(history()): salvage refuses an undamaged snapshot: \(JSONText.render(original))")
        return 0
    }
    Fuzz.require(whole.dropped.isEmpty, "\(history()): salvage of an undamaged snapshot drops \(whole.dropped.map { $0.member + ": " + $0.error.message })")
    Fuzz.require(whole.coordinator == state.coordinator,  // equal coordinators write the same text
                 "\(history()): salvage of an undamaged snapshot is not restore:\n\(JSONText.render(original))\n\(JSONText.render(whole.coordinator.snapshot))")

    // The damaged copy.
    let damage = SnapshotDamage(&c)
    let (damagedText, damaged) = damage.apply(to: original)
    guard let damaged else { return 0 }  // not JSON: restore and salvage refuse it (FuzzABIJSON checks that door)
    // The scope takes a salvage per damage step: judged only when a probe would use it.
    let scope = salvageProbes && probing ? damage.scope(of: original, coordinator: state.coordinator) : (inScope: false, structural: false)
    let inScope = integrity || scope.inScope
    func what() -> String { history() + ", then the snapshot damaged (\(damage.steps.map { "\($0.kind)" }.joined(separator: ", "))): \(damagedText)" }
    let strict = restore(damaged, limit: limit)
    let salvaged = salvage(damaged, limit: limit)
    if let strict {
        guard let salvaged else {
            Fuzz.require(false, "\(what())\n  restore accepts it, salvage refuses it")
            return 0
        }
        Fuzz.require(salvaged.dropped.isEmpty && salvaged.coordinator == strict,
                     "\(what())\n  salvage of what restore accepts is not restore: dropped \(salvaged.dropped.map { $0.member + ": " + $0.error.message })")
        if inScope && scope.structural {
            probe(alphabet, state, strict, salvaged: true, what() + "\n  restored")
        }
    }
    if let salvaged {
        // What salvage hands out fits its budget and restores, from its text, to the same coordinator.
        if let problem = FlowProperties.checkState(FlowAlphabet.State(coordinator: salvaged.coordinator, now: state.now)) {
            Fuzz.require(false, "\(what())\n  salvaged: \(problem)")
        }
        if inScope && strict == nil { probe(alphabet, state, salvaged.coordinator, salvaged: true, what() + "\n  salvaged (dropped \(salvaged.dropped.map { $0.member }))") }
    }
    return 0
}

/// `FuzzSalvage --encode FILE CONFIG 'label ; label ; …' ['KIND:NODE:CHOICE …']`: writes the input that
/// sends those letters (labels as the model check prints them) and then that damage — how the
/// committed counterexamples in Fuzz/Corpus/FuzzSalvage were written.
func encode(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 3, let config = Int(arguments[1]) else { print("usage: FuzzSalvage --encode FILE CONFIG LABELS [DAMAGE]"); return 2 }
    let alphabet = alphabets[config & 1]
    var state = alphabet.initial
    var bytes: [UInt8] = [UInt8(config & 1)]
    for label in arguments[2].split(separator: ";").map({ String($0).trimmingSpaces }) where !label.isEmpty {
        if label == keptBatch.label {
            bytes.append(254)
            state = alphabet.apply(keptBatch, to: state).0
        } else if let index = alphabet.letters.firstIndex(where: { $0.label == label }) {
            bytes.append(UInt8(index))
            state = alphabet.apply(alphabet.letters[index], to: state).0
        } else if let index = alphabet.timeLetters(state).firstIndex(where: { $0.label == label }) {
            bytes += [200, UInt8(index)]
            state = alphabet.apply(alphabet.timeLetters(state)[index], to: state).0
        } else {
            print("no letter \(label)")
            return 2
        }
    }
    bytes.append(255)
    if arguments.count > 3 {
        // Damage steps `KIND:NODE:CHOICE` separated by spaces: KIND one of SnapshotDamage.Kind's
        // names, NODE a member's name (`flows[1].operation`) or a number, CHOICE a number.
        let steps = arguments[3].split(separator: " ").map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
        let names = SnapshotDamage.nodeNames(state.coordinator.snapshot)
        bytes.append(UInt8(steps.count - 1))
        for step in steps {
            guard step.count == 3, let kind = SnapshotDamage.Kind.allCases.first(where: { "\($0)" == step[0] }),
                  let node = Int(step[1]) ?? names.firstIndex(of: step[1]), let choice = UInt8(step[2]) else {
                print("bad damage step \(step) (nodes: \(names))")
                return 2
            }
            bytes += [UInt8(kind.rawValue), UInt8(node >> 8), UInt8(node & 255), choice, 0, 0, 0, 0, 0, 0]
        }
    }
    return Fuzz.writeFile(arguments[0], bytes) ? 0 : 1
}

extension String {
    var trimmingSpaces: String {
        var bytes = Array(utf8)[...]
        while bytes.first == 32 { bytes = bytes.dropFirst() }
        while bytes.last == 32 { bytes = bytes.dropLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() {
        makeAlphabets()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--encode" { exit(encode(Array(arguments.dropFirst()))) }
        Fuzz.replay("FuzzSalvage", fuzzOne)
    }
}
#endif
