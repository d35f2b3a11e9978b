// The exhaustive small-scope check of the coordinator (issue 20): every sequence of letters of
// FlowAlphabet (Fuzz/FuzzSupport/FlowAlphabet.swift: two checkouts, two POS hand-offs, every
// event kind, every deep link genuine / forged / of the other flow, time steps around each
// deadline and grace period) up to a depth, run against the core, with FlowProperties checked
// after every step (no verified callback, answer or confirmation without its genuine link or
// event; no deep link moves two flows; an event not accepted changes nothing) and on every
// state reached (the snapshot fits the budget and restores to an equal coordinator). Issue 38:
// checkout.browser_result (a result moves only its flow; `ok` only with its nonce, and as its
// deep link does; once only across both doors; `canceled` is browser_dismissed; the others say
// `reconcile` and never end the flow).
//
// Issue 35 adds the properties of recovery (Fuzz/FuzzSupport/Recovery.swift): no answer that a
// flow was sent (a deep link or result extras carrying its key) moves another flow — a later
// flow given the same key after the first was forgotten by flow.remove or the 32-ended rule
// included — and no refund starts for more than its sale has left by everything the history
// booked, whatever the clock did (behind from the first event, corrected, either direction).
// `PAYHANDOFF_RECOVERY_PROPERTIES=0` checks the older properties alone.
//
// Breadth first, deduplicated by state (the snapshot's text, the clock and the history's ghost —
// keys ever used, sales booked and refunded —, hashed to 128 bits):
// a state's future does not depend on how it was reached, so each distinct (state, letter) is
// run once and covers every sequence through it. The number of sequences covered is counted
// exactly on the graph of states (paths from the empty coordinator, of every length up to the
// depth).
//
//     PayHandoffModelCheck [--world billpocket|square|sumup|clip|all] [--depth N]
//                          [--config default|unverified|both] [--nearly-full] [--emit-seeds DIR]
//
// Issue 39: `--world` picks the world (default billpocket: the one above, checkouts beside
// Billpocket's hand-offs). square, sumup and clip are a world each, POS only, with that app's
// letters and the properties of Fuzz/FuzzSupport/POSWorlds.swift (FlowAlphabet.checkWorld) on top
// of FlowProperties; `--config` and `--nearly-full` apply to Billpocket's world only.
//
// Prints, per configuration: letters, depth, distinct states per level, transitions checked,
// sequences covered, and every violation with the sequence that reaches it; exits 1 on any.
// `--emit-seeds DIR` writes, for about 300 states spread over the search, the shortest sequence
// that reaches each as a FuzzCoordinator input (one byte per letter) in DIR/FuzzCoordinator and
// its snapshot as a FuzzABIJSON input in DIR/FuzzABIJSON, to seed the fuzzers deep.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import PayHandoff
import PayHandoffABI

struct StateKey: Hashable {
    var a: Int
    var b: Int

    /// The key of `state`, whose snapshot's text is `text`.
    init(_ state: FlowAlphabet.State, text: String) {
        var text = text
        var h1 = Hasher(), h2 = Hasher()
        h1.combine(0x5AFE as UInt16)
        h2.combine(0xC0DE as UInt32)
        text.withUTF8 { bytes in
            h1.combine(bytes: UnsafeRawBufferPointer(bytes))
            h2.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        h1.combine(state.now)
        h2.combine(state.now)
        // Issue 35: the history's ghost (keys ever used, sales booked and refunded), or two
        // histories reaching one snapshot would merge and "no answer ever sent moves another
        // flow" would go unchecked.
        h1.combine(state.ghost)
        h2.combine(state.ghost)
        a = h1.finalize()
        b = h2.finalize()
    }
}

struct Options {
    var depth = 4
    var configs = [false]
    var nearlyFull = false
    var emitSeeds: String? = nil
    var worlds: [FlowAlphabet.World] = [.billpocket]

    init() {
        var arguments = CommandLine.arguments.dropFirst()[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--depth": depth = Int(arguments.popFirst() ?? "") ?? depth
            case "--config":
                switch arguments.popFirst() ?? "" {
                case "unverified": configs = [true]
                case "both": configs = [false, true]
                default: configs = [false]
                }
            case "--emit-seeds": emitSeeds = arguments.popFirst()
            case "--nearly-full": nearlyFull = true
            case "--world":
                let word = arguments.popFirst() ?? ""
                if word == "all" { worlds = FlowAlphabet.World.allCases; continue }
                guard let world = FlowAlphabet.World(rawValue: word) else {
                    print("model-check: --world must be billpocket, square, sumup, clip or all"); exit(2)
                }
                worlds = [world]
            default:
                print("usage: PayHandoffModelCheck [--world billpocket|square|sumup|clip|all] [--depth N] [--config default|unverified|both] [--nearly-full] [--emit-seeds DIR]")
                exit(2)
            }
        }
    }
}

func seconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Explores one configuration; returns the number of violations.
func explore(world: FlowAlphabet.World, acceptUnverified: Bool, nearlyFull: Bool, depth: Int, emitSeeds: String?) -> Int {
    let alphabet = FlowAlphabet(acceptUnverifiedCallbacks: acceptUnverified, nearlyFull: nearlyFull, world: world)
    let started = seconds()
    let initial = alphabet.initial
    var index: [StateKey: Int32] = [StateKey(initial, text: JSONText.render(initial.coordinator.snapshot)): 0]
    // Per state: how it was first reached (parent, letter byte for the fuzzer, label), and its
    // successors with multiplicity (for counting sequences).
    var parents: [(parent: Int32, byte: [UInt8], label: String)] = [(-1, [], "")]
    var edges: [[Int32: Int32]] = [[:]]
    var frontier: [(Int32, FlowAlphabet.State)] = [(0, initial)]
    var levels: [Int] = [1]
    var transitions = 0
    var violations: [String] = []

    func path(_ id: Int32) -> [String] {
        var labels: [String] = []
        var at = id
        while at > 0 { labels.append(parents[Int(at)].label); at = parents[Int(at)].parent }
        return labels.reversed()
    }
    // Every violation is counted; the first of each kind (its message without the letter and
    // with the flows' names left out) is printed with its sequence, the shortest there is
    // (breadth first), up to 20 kinds.
    var violationCount = 0
    var kinds: Set<String> = []
    func violate(_ problem: String, at id: Int32, then label: String?) {
        violationCount += 1
        var kind = problem
        if let label { kind = kind.replacingBytes(label, with: "…") }
        for name in ["c1", "c2", "p1", "p2", "p3"] { kind = kind.replacingBytes(name, with: "_") }
        guard violations.count < 20, kinds.insert(kind).inserted else { return }
        violations.append(problem + "\n    sequence: " + (path(id) + (label.map { [$0] } ?? [])).joined(separator: " ; "))
    }
    if let problem = FlowProperties.checkState(initial) { violate(problem, at: 0, then: nil) }

    for _ in 0..<depth {
        var next: [(Int32, FlowAlphabet.State)] = []
        for (id, state) in frontier {
            var successors: [Int32: Int32] = [:]
            let times = alphabet.timeLetters(state)
            for (position, letter) in (alphabet.letters + times).enumerated() {
                let (after, answer) = alphabet.apply(letter, to: state)
                transitions += 1
                if let problem = FlowProperties.checkStep(before: state, letter: letter, after: after, answer: answer,
                                                          acceptUnverified: acceptUnverified) {
                    violate(problem, at: id, then: letter.label)
                } else if let problem = alphabet.checkWorld(before: state, letter: letter, after: after, answer: answer) {
                    violate(problem, at: id, then: letter.label)
                }
                let target: Int32
                if after.now == state.now && after.coordinator == state.coordinator && after.ghost == state.ghost {
                    target = id
                } else {
                    let text = JSONText.render(after.coordinator.snapshot)
                    let key = StateKey(after, text: text)
                    if let known = index[key] {
                        target = known
                    } else {
                        target = Int32(parents.count)
                        index[key] = target
                        // The byte FuzzCoordinator reads for this letter (time steps: 200, then the index).
                        let byte: [UInt8] = position < alphabet.letters.count ? [UInt8(position)] : [200, UInt8(position - alphabet.letters.count)]
                        parents.append((id, byte, letter.label))
                        edges.append([:])
                        if let problem = FlowProperties.checkState(after, snapshot: text) { violate(problem, at: target, then: nil) }
                        next.append((target, after))
                    }
                }
                successors[target, default: 0] += 1
            }
            edges[Int(id)] = successors
        }
        levels.append(next.count)
        frontier = next
    }

    // Sequences covered: paths of every length 0...depth from the empty coordinator.
    var count = [Double](repeating: 0, count: parents.count)
    count[0] = 1
    var sequences = 1.0
    for _ in 0..<depth {
        var nextCount = [Double](repeating: 0, count: parents.count)
        for (state, paths) in count.enumerated() where paths > 0 {
            for (target, multiplicity) in edges[state] { nextCount[Int(target)] += paths * Double(multiplicity) }
        }
        sequences += nextCount.reduce(0, +)
        count = nextCount
    }

    let name = (world == .billpocket ? "" : world.rawValue + " world, ") + (acceptUnverified ? "accept_unverified_callbacks" : "default configuration")
        + (nearlyFull ? ", nearly full (limit \(FlowAlphabet.nearFullLimit), \(initial.coordinator.ledger.entries.count) ledger entries)" : "")
    let elapsed = seconds() - started
    print("model-check (\(name)): \(alphabet.letters.count) letters + time steps, depth \(depth): "
          + "\(parents.count) distinct states (per level: \(levels.map(String.init).joined(separator: ", "))), "
          + "\(transitions) transitions checked, \(formatCount(sequences)) sequences covered, "
          + "\(violationCount) violations (\(kinds.count) kinds), \(Int(elapsed)) s, peak memory \(peakMegabytes()) MB")
    for violation in violations { print("  VIOLATION: " + violation) }

    if let directory = emitSeeds {
        // About 300 states spread over the search: the letters that reach each, as a
        // FuzzCoordinator input, and its snapshot, as a FuzzABIJSON input (selector 1: restore).
        var written = 0
        for id in stride(from: 1, to: parents.count, by: Swift.max(1, parents.count / 300)) {
            // FuzzCoordinator's first byte: the configuration (bit 0) and the world (the rest).
            var bytes: [UInt8] = [UInt8(FlowAlphabet.World.allCases.firstIndex(of: world)! << 1) | (acceptUnverified ? 1 : 0)]
            var chain: [[UInt8]] = []
            var at = Int32(id)
            while at > 0 { chain.append(parents[Int(at)].byte); at = parents[Int(at)].parent }
            for piece in chain.reversed() { bytes += piece }
            let name = "model-" + (world == .billpocket ? "" : world.rawValue + "-") + "\(acceptUnverified ? "u" : "d")-\(id)"
            written += write(bytes, to: directory + "/FuzzCoordinator/" + name)
            // Replay the letters to get the state back (states are not kept past their level).
            var state = initial
            for piece in chain.reversed() {
                let letters = alphabet.letters + alphabet.timeLetters(state)
                let index = piece.count == 1 ? Int(piece[0]) : alphabet.letters.count + Int(piece[1])
                state = alphabet.apply(letters[index], to: state).0
            }
            written += write([1] + Array(JSONText.render(state.coordinator.snapshot).utf8), to: directory + "/FuzzABIJSON/" + name)
        }
        print("model-check: wrote \(written) seeds to \(directory)/FuzzCoordinator and \(directory)/FuzzABIJSON")
    }
    return violationCount
}

extension String {
    /// Every occurrence of `needle` replaced, by bytes.
    func replacingBytes(_ needle: String, with replacement: String) -> String {
        let n = Array(needle.utf8), bytes = Array(utf8)
        guard !n.isEmpty else { return self }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + n.count <= bytes.count && bytes[i..<(i + n.count)].elementsEqual(n) {
                out += replacement.utf8
                i += n.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The process's peak resident memory so far, MB (getrusage: what the 8 GB goal is about).
func peakMegabytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) / 1024
}

func write(_ bytes: [UInt8], to path: String) -> Int {
    guard let file = fopen(path, "wb") else { return 0 }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    return 1
}

func formatCount(_ value: Double) -> String {
    if value < 1e6 { return String(Int(value)) }
    var exponent = 0
    var mantissa = value
    while mantissa >= 10 { mantissa /= 10; exponent += 1 }
    let tenths = Int((mantissa * 10).rounded())
    return String(tenths / 10) + "." + String(tenths % 10) + "e" + String(exponent)
}

let options = Options()
var failures = 0
for world in options.worlds {
    // The other apps' worlds are POS only: accept_unverified_callbacks (a checkout setting) and
    // the nearly full ledger (nothing of theirs is booked) change nothing there.
    for accept in world == .billpocket ? options.configs : [false] {
        failures += explore(world: world, acceptUnverified: accept, nearlyFull: options.nearlyFull && world == .billpocket,
                            depth: options.depth, emitSeeds: options.emitSeeds)
    }
}
exit(failures == 0 ? 0 : 1)
