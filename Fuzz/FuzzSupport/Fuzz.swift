// Shared by the libFuzzer targets in Fuzz/ (issues 9 and 20; built and run by mk/fuzz.mk).
//
// Each target defines `LLVMFuzzerTestOneInput` and `LLVMFuzzerInitialize` (which calls
// ``Fuzz/start(_:_:)``). Built with `--sanitize=fuzzer -Xswiftc -DPAYHANDOFF_FUZZING`, libFuzzer
// supplies `main`; in a normal build (`swift build`, `swift test`) the target has its own `main`
// that replays the files named on its command line through the same function, so a crash file
// can be reproduced without the fuzzer flags.
//
// A property violation prints what broke and aborts: libFuzzer reports it as a crash and writes
// the input to `crash-<sha1>`. A disagreement with a differential oracle is reported by
// ``Oracle`` (exit status 77, the input in `diff-<target>-<n>`).
//
// `PAYHANDOFF_FUZZ_TIME=1` makes a target time each input named on its command line (files or
// directories) instead of fuzzing, and print the slowest ones in microseconds: libFuzzer's own
// `slowest_unit_time_sec` has whole seconds only.
#if canImport(Glibc)
import Glibc
#endif
import PayHandoff
import PayHandoffABI

public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

public enum Fuzz {
    /// The input as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Aborts with `message` unless `condition` holds. With `PAYHANDOFF_FUZZ_CONTINUE=1` it
    /// counts instead, printing the first violation of each kind (its first 60 bytes), so that a
    /// run on a build known to break a property measures speed and lists what it finds (never
    /// in make test: libFuzzer then writes no crash file).
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition {
            let text = "property violated: " + message() + "\n"
            if continueAfterViolation {
                violations += 1
                let kind = String(decoding: text.utf8.prefix(60), as: UTF8.self)
                guard !violationKinds.contains(kind), violationKinds.count < 50 else { return }
                violationKinds.insert(kind)
            }
            _ = text.withCString { write(2, $0, strlen($0)) }
            if !continueAfterViolation { abort() }
        }
    }

    static let continueAfterViolation = environment("PAYHANDOFF_FUZZ_CONTINUE") == "1"
    /// Violations counted with `PAYHANDOFF_FUZZ_CONTINUE=1`.
    nonisolated(unsafe) public private(set) static var violations = 0
    nonisolated(unsafe) static var violationKinds: Set<String> = []

    /// The target's name (for artifacts and reports), set by ``start(_:_:)``.
    nonisolated(unsafe) public private(set) static var targetName = "fuzz"
    /// Whether the inputs are files replayed by a normal build (then oracles answer each input
    /// before the next one runs).
    nonisolated(unsafe) public private(set) static var isReplay = false
    /// Whether the inputs are being timed (then nothing but the target's own work runs).
    nonisolated(unsafe) public private(set) static var isTiming = false

    /// An environment variable.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Called first by every target (from `LLVMFuzzerInitialize` or its replay `main`): names
    /// it, and in timing mode times the inputs on the command line and exits.
    public static func start(_ name: String, _ callback: FuzzCallback) {
        targetName = name
        guard environment("PAYHANDOFF_FUZZ_TIME") == "1" else { return }
        isTiming = true
        timeInputs(callback)
        exit(0)
    }

    /// The `main` of a normal build: runs every file named on the command line (or in a
    /// directory named there) through `callback`.
    public static func replay(_ name: String, _ callback: FuzzCallback) {
        isReplay = true
        start(name, callback)
        var count = 0
        for path in inputPaths() {
            guard let data = readFile(path) else { continue }
            _ = data.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
            count += 1
        }
        print("\(name): replayed \(count) inputs without a property violation")
    }

    /// The files named on the command line, directories expanded (one level), flags skipped.
    static func inputPaths() -> [String] {
        var paths: [String] = []
        for argument in CommandLine.arguments.dropFirst() where !argument.hasPrefix("-") {
            if let directory = opendir(argument) {
                var names: [String] = []
                let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
                while let entry = readdir(directory) {
                    // Up to the NUL only: the record may be shorter than d_name's declared 256 bytes.
                    let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
                    if !name.hasPrefix(".") { names.append(argument + "/" + name) }
                }
                closedir(directory)
                paths.append(contentsOf: names.sorted())
            } else {
                paths.append(argument)
            }
        }
        return paths
    }

    /// A file's bytes.
    public static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return data
    }

    /// Writes `bytes` to `path`; whether it could.
    public static func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        guard let file = fopen(path, "wb") else { return false }
        defer { fclose(file) }
        return bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
    }

    static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Times every input once, then the 20 slowest again, each as the best of five rounds of
    /// enough runs to last two milliseconds (a shared machine's noise only ever adds time); prints
    /// the five slowest and the median.
    static func timeInputs(_ callback: FuzzCallback) {
        func time(_ input: [UInt8], repeats: Int) -> Double {
            input.withUnsafeBufferPointer { buffer in
                let start = seconds()
                for _ in 0..<repeats { _ = callback(buffer.baseAddress, buffer.count) }
                return (seconds() - start) / Double(repeats)
            }
        }
        var times: [(seconds: Double, path: String, input: [UInt8])] = []
        for path in inputPaths() {
            guard let data = readFile(path) else { continue }
            _ = time(data, repeats: 1)  // first run: caches, lazy globals
            times.append((time(data, repeats: 1), path, data))
        }
        times.sort { $0.seconds > $1.seconds }
        for index in times.indices.prefix(20) {
            let once = Swift.max(times[index].seconds, 1e-7)
            let repeats = Swift.max(1, Swift.min(10_000, Int(0.002 / once)))
            var best = Double.infinity
            for _ in 0..<5 { best = Swift.min(best, time(times[index].input, repeats: repeats)) }
            times[index].seconds = best
        }
        times.sort { $0.seconds > $1.seconds }
        func micro(_ s: Double) -> String {
            let tenths = Int((s * 1e7).rounded())
            return String(tenths / 10) + "." + String(tenths % 10) + " µs"
        }
        let median = times.isEmpty ? 0 : times[times.count / 2].seconds
        print("\(targetName): timed \(times.count) inputs, median \(micro(median)) (one run), slowest (best of 5):")
        for entry in times.prefix(5) {
            print("  \(micro(entry.seconds))  \(entry.input.count) bytes  \(entry.path)")
        }
    }

    /// Valid UTF-8 without NUL, as a String; nil otherwise (what a C string caller could not pass
    /// unchanged to the Swift API).
    public static func text(_ bytes: some Collection<UInt8>) -> String? {
        let fast = bytes.withContiguousStorageIfAvailable { buffer -> String?? in
            guard let base = buffer.baseAddress else { return .some("") }
            guard memchr(base, 0, buffer.count) == nil else { return .some(nil) }
            return .some(String(validating: buffer, as: UTF8.self))
        }
        if let fast { return fast ?? nil }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The options document of an input, parsed once: the same options text recurs in most
    /// inputs (seeds, grammar), and reading it again is not what is being fuzzed.
    /// (Keyed by bytes: `String` keys would merge canonically equivalent texts.)
    public static func parsedOptions(_ text: String) -> JSONValue? {
        let key = Array(text.utf8)
        if let cached = optionsCache[key] { return cached }
        let parsed = try? JSONText.parse(text, parameter: "options_json")
        if optionsCache.count >= 4096 { optionsCache.removeAll(keepingCapacity: true) }
        optionsCache[key] = .some(parsed)
        return parsed
    }
    nonisolated(unsafe) private static var optionsCache: [[UInt8]: JSONValue?] = [:]

    /// Calls `body` with a NUL-terminated copy of `bytes` (a C caller's view: it ends at the first NUL).
    public static func withCString<R>(_ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) -> R) -> R {
        var copy = Array(bytes)
        copy.append(0)
        return copy.withUnsafeBufferPointer { buffer in
            UnsafeRawPointer(buffer.baseAddress!).withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0) }
        }
    }

    /// The pinned status numbers of include/payhandoff.h, written out again here (not taken from
    /// the library) so that a renumbering is caught.
    public static let statusNames: [Int32: String] = [
        1: "invalid_argument", 2: "invalid_json", 3: "validation", 4: "malformed_url",
        5: "callback_mismatch", 6: "unknown_flow", 7: "duplicate", 8: "invalid_state",
        9: "unsupported_version", 10: "limit_exceeded", 11: "gateway_error", 12: "conflict",
        13: "not_eligible",
    ]

    public static func status(of code: PayHandoffError.Code) -> Int32 {
        for (status, name) in statusNames where name == code.rawValue { return status }
        require(false, "error code \(code.rawValue) has no pinned status")
        return -1
    }

    /// What one C ABI call returned. The status and `*out` are checked at once; the text is
    /// read as JSON (and checked to be an object, an error document being exactly `{"code",
    /// "field", "message"}` with `code` the lowercase name of the status) when ``document`` is
    /// first asked for — ``requireAgreement(_:_:_:)`` does not need to, when the text is the one
    /// the Swift API's outcome prints to.
    public final class ABIResult {
        public let what: String
        public let status: Int32
        public let text: String
        public var isOK: Bool { status == 0 }
        public lazy var document: JSONValue = Fuzz.checkedDocument(what, status, text)
        public var code: String? { try? document.string(at: "code") }
        public var field: String? { try? document.optionalString(at: "field") }

        init(what: String, status: Int32, text: String) {
            self.what = what
            self.status = status
            self.text = text
        }
    }

    /// Calls a `payhandoff_*` function and checks the calling convention of its answer: a known
    /// status and an `*out` that is set (freed here).
    public static func abi(_ what: String, _ body: (OutString) -> Int32) -> ABIResult {
        var out: UnsafeMutablePointer<CChar>? = nil
        let status = body(&out)
        require(status == 0 || statusNames[status] != nil, "\(what): unknown status \(status)")
        guard let out else {
            require(false, "\(what): *out is NULL (status \(status))")
            return ABIResult(what: what, status: status, text: "")
        }
        let text = String(cString: out)
        payhandoff_string_free(out)
        return ABIResult(what: what, status: status, text: text)
    }

    static func checkedDocument(_ what: String, _ status: Int32, _ text: String) -> JSONValue {
        let document: JSONValue
        do throws(PayHandoffError) {
            document = try JSONText.parse(text, parameter: "out")
        } catch {
            require(false, "\(what): *out is not valid JSON (\(error)): \(text.prefix(300))")
            return .null
        }
        guard case .object(let object) = document else {
            require(false, "\(what): *out is not an object: \(text.prefix(300))")
            return document
        }
        if status != 0 {
            require(object.keys == ["code", "field", "message"], "\(what): error document keys \(object.keys)")
            require((try? document.string(at: "code")) == statusNames[status],
                    "\(what): status \(status) but code \(String(describing: try? document.string(at: "code")))")
            require((try? document.optionalString(at: "field")) != nil || document.value(at: "field") == .null,
                    "\(what): field is neither a string nor null")
            require((try? document.string(at: "message")) != nil, "\(what): message is not a string")
        }
        return document
    }

    /// The Swift API's outcome for the same input must be the ABI's: the same document on
    /// success, the same code and field on failure. Cheap when the ABI printed exactly what the
    /// outcome prints to (the usual case: one printer); otherwise the ABI's text is read and
    /// compared member by member.
    public static func requireAgreement(_ what: String, _ abi: ABIResult, _ core: Result<JSONValue, PayHandoffError>) {
        switch core {
        case .success(let document):
            if abi.isOK && abi.text.utf8.elementsEqual(JSONText.render(document).utf8) { return }
            require(abi.isOK, "\(what): Swift API succeeded, C ABI failed with \(abi.text)")
            require(same(abi.document, document), "\(what): C ABI document \(abi.text) differs from the Swift API's \(JSONText.render(document))")
        case .failure(let error):
            if abi.status == status(of: error.code) && abi.text.utf8.elementsEqual(JSONText.render(error.json).utf8) { return }
            require(abi.status == status(of: error.code), "\(what): Swift API failed with \(error), C ABI status \(abi.status) \(abi.text)")
            require(abi.field == error.field, "\(what): field \(String(describing: abi.field)) vs Swift API's \(error)")
        }
    }

    /// One fuzz input for a `(url, options_json)` entry point: through the Swift API, and through
    /// the C function (raw bytes, a C caller's view) whose answer must agree with it. Input that
    /// is not text (a NUL, invalid UTF-8) or over the limits reaches only the C function. Text
    /// goes through both doors on one input in ``abiSample`` (every input with
    /// `PAYHANDOFF_FUZZ_CHECK_ALL=1` and in replay mode): parsing twice halved the speed, and the
    /// fuzzer's mutations reach the C door's own code (the C string, cJSON) either way.
    /// - Parameters:
    ///   - parse: The Swift API's parser; `json` its value's document.
    /// - Returns: The URL, the options, the parsed value and the Swift API's outcome as a
    ///   document, or `nil` when the input is not text within the limits (then only the ABI's
    ///   answer was checked).
    public static func urlWithOptions<Value>(
        _ input: (options: ArraySlice<UInt8>, url: ArraySlice<UInt8>), _ what: String,
        abi call: (UnsafePointer<CChar>, UnsafePointer<CChar>, OutString) -> Int32,
        parse: (String, JSONValue) throws(PayHandoffError) -> Value, json: (Value) -> JSONValue
    ) -> (url: String, options: JSONValue, value: Value?, core: Result<JSONValue, PayHandoffError>)? {
        let (optionBytes, urlBytes) = input
        func callABI() -> ABIResult {
            withCString(urlBytes) { url in withCString(optionBytes) { options in Fuzz.abi(what) { call(url, options, $0) } } }
        }
        guard let url = text(urlBytes), let optionsText = text(optionBytes),
              urlBytes.count <= 8192, optionBytes.count <= 65536 else {
            _ = callABI().document  // no Swift call to compare with: check the document itself
            return nil
        }
        abiTurn += 1
        let answer = checkAll || abiTurn % abiSample == 0 ? callABI() : nil
        guard let options = parsedOptions(optionsText) else {
            if let answer {
                require(answer.code == "invalid_json" || answer.code == "limit_exceeded", "options refused by JSONText but ABI said \(answer.text)")
            }
            return nil
        }
        var value: Value? = nil
        let outcome = capture { () throws(PayHandoffError) in
            let parsed = try parse(url, options)
            value = parsed
            return json(parsed)
        }
        if let answer { requireAgreement(what, answer, outcome) }
        return (url, options, value, outcome)
    }

    /// Whether this accepted input gets the round trips too (read back from its JSON, rebuilt and
    /// parsed again): one in ``roundTripSample`` (every one with ``checkAll``). On the thousand-key
    /// answers the fuzzer grows they cost several times the parse itself.
    public static func roundTripTurn() -> Bool {
        roundTrips += 1
        return checkAll || roundTrips % roundTripSample == 0
    }
    public static let roundTripSample = 4
    nonisolated(unsafe) static var roundTrips = 0

    /// One text input in this many goes through the C door too (``urlWithOptions(_:_:abi:core:)``).
    public static let abiSample = 4
    nonisolated(unsafe) public private(set) static var abiTurn = 0
    /// Every input through every door and oracle (replay mode, or `PAYHANDOFF_FUZZ_CHECK_ALL=1`:
    /// mk/fuzz.mk's pass over each corpus after fuzzing).
    public static var checkAll: Bool { isReplay || checkAllFromEnvironment }
    nonisolated(unsafe) static var checkAllFromEnvironment = environment("PAYHANDOFF_FUZZ_CHECK_ALL") == "1"

    /// A file of this repository (the oracles' scripts): `$PAYHANDOFF_ROOT/<path>`, or found
    /// from where this source file was compiled.
    public static func repositoryPath(_ path: String) -> String {
        if let root = environment("PAYHANDOFF_ROOT") { return root + "/" + path }
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        return root + "/" + path
    }

    /// Deep equality of two documents, objects in any key order, strings by bytes: what
    /// `JSONValue.==` says, in n log n (that one looks each key up in turn, which takes seconds on
    /// the thousand-key answers the fuzzer builds).
    public static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            if zip(x.members, y.members).allSatisfy({ $0.key.utf8.elementsEqual($1.key.utf8) }) {
                return zip(x.members, y.members).allSatisfy { same($0.value, $1.value) }
            }
            let byKey = { (m: [JSONObject.Member]) in m.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } }
            return zip(byKey(x.members), byKey(y.members)).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && same($0.value, $1.value) }
        default:
            return a == b
        }
    }

    /// ``same(_:_:)`` for two outcomes: equal documents, or errors with the same code and field.
    public static func same(_ a: Result<JSONValue, PayHandoffError>, _ b: Result<JSONValue, PayHandoffError>) -> Bool {
        switch (a, b) {
        case let (.success(x), .success(y)): return same(x, y)
        case let (.failure(x), .failure(y)): return x.code == y.code && x.field == y.field
        default: return false
        }
    }

    /// Compares the core's outcome with an oracle's answer (`{"ok": document}` or `{"error":
    /// {"code", "field"}}`): the same document, or the same code and field.
    /// - Returns: The disagreement, or nil.
    public static func disagreement(_ core: Result<JSONValue, PayHandoffError>, _ answer: JSONValue) -> String? {
        let ours: String
        switch core {
        case .success(let document):
            if let theirs = answer.value(at: "ok"), same(theirs, document) { return nil }
            ours = JSONText.render(document)
        case .failure(let error):
            if case .object(let e)? = answer.value(at: "error"), e["code"] == .string(error.code.rawValue),
               e["field"] == (error.field.map { JSONValue.string($0) } ?? .null) { return nil }
            ours = "\(error.code.rawValue) [\(error.field ?? "null")]: \(error.message)"
        }
        return "PayHandoff: \(ours); oracle: \(JSONText.render(answer))"
    }

    /// Runs a throwing call and captures its typed outcome.
    public static func capture(_ body: () throws(PayHandoffError) -> JSONValue) -> Result<JSONValue, PayHandoffError> {
        do throws(PayHandoffError) { return .success(try body()) } catch { return .failure(error) }
    }

    /// RFC 3986 outgoing encoding (everything but unreserved characters), written here
    /// independently of the library's encoder.
    public static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%")); out.append(hex[Int(byte >> 4)]); out.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits `options JSON \n rest` (the input format of the URL parser targets).
    public static func splitOptions(_ bytes: [UInt8]) -> (options: ArraySlice<UInt8>, url: ArraySlice<UInt8>) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return (bytes[...], []) }
        return (bytes[..<newline], bytes[(newline + 1)...])
    }
}

/// Reads choices out of the fuzzer's bytes (structure-aware targets); zeros once exhausted.
public struct FuzzCursor {
    var bytes: ArraySlice<UInt8>
    public init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
    public var isAtEnd: Bool { bytes.isEmpty }
    public mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    public mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(byte()) % n }
    public mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
    public mutating func bool() -> Bool { byte() & 1 == 1 }
    /// Up to `max` raw bytes, length from the next byte.
    public mutating func chunk(max: Int) -> [UInt8] {
        let n = min(Int(byte()) % (max + 1), bytes.count)
        let out = Array(bytes.prefix(n))
        bytes = bytes.dropFirst(n)
        return out
    }
}
