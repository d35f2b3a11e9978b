// Differential testing against an independent implementation running as a long-lived child
// process (Node's WHATWG URLSearchParams, the Python oracle of Tests/Vectors/tools).
//
// The fuzz target asks `wantsInput()` and, when it does, hands the input to `submit` with the
// request (one JSON line) and a check of the answer; the child answers one JSON line per
// request, in order. The pipe is never waited on while fuzzing: requests are written in batches
// and answers read without blocking. While fuzzing, one input in `sample` is offered (an
// interpreted oracle costs far more than the parser: every input would slow the fuzzer to the
// oracle's pace, and the oracle takes the CPU the fuzzer needs) and only while fewer than
// `maxPending` are in flight (with PAYHANDOFF_FUZZ_DETERMINISTIC=1 it waits for room instead).
// `PAYHANDOFF_FUZZ_CHECK_ALL=1` compares every input (mk/fuzz.mk replays each target's whole
// corpus that way after fuzzing), and so does replay mode (a normal build run on files), which
// also waits for each answer. `finish` (run at exit) waits
// for the answers still in flight and prints how many inputs were compared.
//
// A disagreement is not the current input's fault (the answer arrives later): the input that
// disagreed is written to `$PAYHANDOFF_FUZZ_ARTIFACTS/diff-<target>-<n>` and the process ends
// with exit status 79 without libFuzzer's crash file (which would name the wrong input).
#if canImport(Glibc)
import Glibc
#endif
import PayHandoff
import PayHandoffABI

public final class Oracle {
    /// Checks the oracle's answer; returns a description of the disagreement, or nil.
    public typealias Check = (JSONValue) -> String?

    private struct Pending {
        var input: [UInt8]
        var check: Check
    }

    private let name: String
    private let maxPending: Int
    private let sample: Int
    private let compareAll: Bool
    private var unflushed = 0
    private var pid: pid_t = 0
    private var toChild: Int32 = -1
    private var fromChild: Int32 = -1
    private var outgoing: [UInt8] = []
    private var outgoingStart = 0
    private var incoming: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 65536)
    private var pending: [Pending] = []
    private var pendingStart = 0
    /// Inputs whose answers were compared.
    public private(set) var compared = 0
    /// Inputs offered to `submit` (compared or skipped because the oracle was busy).
    public private(set) var offered = 0

    /// Starts the child.
    /// - Parameters:
    ///   - name: What the report calls it (`WHATWG URLSearchParams (node)`).
    ///   - arguments: The command line (`["node", "Fuzz/Oracles/urlsearchparams_oracle.mjs"]`), found on PATH.
    ///   - maxPending: Inputs in flight at most while fuzzing.
    ///   - sample: While fuzzing, one input in `sample` is offered (`$PAYHANDOFF_FUZZ_ORACLE_SAMPLE` overrides).
    public init(name: String, arguments: [String], maxPending: Int = 1024, sample: Int = 16) {
        self.name = name
        self.maxPending = maxPending
        compareAll = Fuzz.checkAll
        self.sample = compareAll ? 1 : Swift.max(1, Fuzz.environment("PAYHANDOFF_FUZZ_ORACLE_SAMPLE").flatMap { Int($0) } ?? sample)
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { Oracle.die("oracle \(name): pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        for fd in [inPipe[0], inPipe[1], outPipe[0], outPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        for arg in argv { free(arg) }
        close(inPipe[0])
        close(outPipe[1])
        guard status == 0 else { Oracle.die("oracle \(name): cannot start \(arguments.joined(separator: " ")) (error \(status))") }
        toChild = inPipe[1]
        fromChild = outPipe[0]
        _ = fcntl(toChild, F_SETFL, fcntl(toChild, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fromChild, F_SETFL, fcntl(fromChild, F_GETFL) | O_NONBLOCK)
        _ = fcntl(toChild, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromChild, F_SETFD, FD_CLOEXEC)
        signal(SIGPIPE, SIG_IGN)
        Oracle.all.append(self)
        if Oracle.all.count == 1 { atexit { Oracle.finishAll() } }
    }

    /// Whether the oracle takes this input: every `sample`-th input while fuzzing, when the
    /// oracle is not behind; every input when comparing all (then it waits for room).
    public func wantsInput() -> Bool {
        offered += 1
        if compareAll {
            if pending.count - pendingStart >= maxPending { pump(until: maxPending / 2) }
            return true
        }
        guard offered % sample == 0 else { return false }
        if pending.count > pendingStart { pump(until: Oracle.waitForRoom ? maxPending - 1 : nil) }
        return pending.count - pendingStart < maxPending
    }

    /// Sends an input the oracle wants (``wantsInput()``): `request` (a JSON document, sent as one
    /// line) and the check of the answer. In replay mode the answer is waited for and checked
    /// before returning.
    public func submit(_ request: JSONValue, input: [UInt8], check: @escaping Check) {
        outgoing.append(contentsOf: JSONText.render(request).utf8)
        outgoing.append(0x0A)
        pending.append(Pending(input: input, check: check))
        unflushed += 1
        if Fuzz.isReplay {
            pump(until: 0)
        } else if unflushed >= 32 || compareAll {
            unflushed = 0
            pump(until: nil)
        }
    }

    /// Writes what it can, reads what has arrived and checks every complete answer; with
    /// `until`, waits until at most that many requests are unanswered.
    private func pump(until limit: Int?) {
        while true {
            if outgoingStart < outgoing.count {
                let n = outgoing.withUnsafeBufferPointer { write(toChild, $0.baseAddress! + outgoingStart, $0.count - outgoingStart) }
                if n > 0 { outgoingStart += n }
                else if n < 0 && errno != EAGAIN && errno != EINTR { Oracle.die("oracle \(name): write failed (errno \(errno)); did it crash?") }
                if outgoingStart == outgoing.count { outgoing.removeAll(keepingCapacity: true); outgoingStart = 0 }
            }
            let n = buffer.withUnsafeMutableBufferPointer { read(fromChild, $0.baseAddress!, $0.count) }
            if n > 0 {
                incoming.append(contentsOf: buffer[0..<n])
                consumeLines()
            } else if n == 0 {
                if pending.count > pendingStart { Oracle.die("oracle \(name): the child ended with \(pending.count - pendingStart) answers missing") }
            } else if errno != EAGAIN && errno != EINTR {
                Oracle.die("oracle \(name): read failed (errno \(errno))")
            }
            let waiting = pending.count - pendingStart
            guard let limit, waiting > limit else { return }
            if n <= 0 {
                var fds = [pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: toChild, events: Int16(outgoingStart < outgoing.count ? POLLOUT : 0), revents: 0)]
                _ = poll(&fds, 2, 1000)
            }
        }
    }

    private func consumeLines() {
        var start = 0
        while let newline = incoming[start...].firstIndex(of: 0x0A) {
            let line = String(decoding: incoming[start..<newline], as: UTF8.self)
            start = newline + 1
            guard pendingStart < pending.count else { Oracle.die("oracle \(name): an answer nobody asked for: \(line)") }
            let entry = pending[pendingStart]
            pendingStart += 1
            compared += 1
            let answer: JSONValue
            do throws(PayHandoffError) { answer = try JSONText.parse(line, parameter: "oracle") } catch {
                Oracle.die("oracle \(name): unreadable answer \(line.prefix(300))")
            }
            if case .object(let o) = answer, let problem = o["oracle_error"] {
                disagree(entry.input, "the oracle failed on this input: \(JSONText.render(problem))")
            }
            if let problem = entry.check(answer) { disagree(entry.input, problem) }
        }
        incoming.removeFirst(start)
        if pendingStart > 4096 { pending.removeFirst(pendingStart); pendingStart = 0 }
    }

    private func disagree(_ input: [UInt8], _ problem: String) -> Never {
        let directory = Fuzz.environment("PAYHANDOFF_FUZZ_ARTIFACTS") ?? "."
        let path = directory + "/diff-" + Fuzz.targetName + "-" + String(compared)
        if let file = fopen(path, "wb") {
            _ = input.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
        Oracle.report("differential mismatch with \(name): \(problem)\ndifferential mismatch: the input is in \(path) (replay it with the target's normal build)\n")
        _exit(79)
    }

    /// Waits for every answer, prints the tally and stops the child.
    public func finish() {
        guard pid != 0 else { return }
        pump(until: 0)
        close(toChild)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
        let how = compareAll ? "every input" : "a sample (1 in \(sample) while the oracle keeps up)"
        Oracle.report("differential: \(compared) of \(offered) inputs compared with \(name) (\(how)), 0 disagreements\n")
    }

    nonisolated(unsafe) private static var all: [Oracle] = []
    /// `PAYHANDOFF_FUZZ_DETERMINISTIC=1` (make test): a sampled input waits for room instead of
    /// being skipped, so which inputs are compared does not depend on the machine's speed.
    private static let waitForRoom = Fuzz.environment("PAYHANDOFF_FUZZ_DETERMINISTIC") == "1"

    private static func finishAll() {
        for oracle in all { oracle.finish() }
    }

    private static func report(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    private static func die(_ message: String) -> Never {
        report(message + "\n")
        _exit(78)
    }
}
