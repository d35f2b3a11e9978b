// Shared by the libFuzzer targets in Fuzz/ (issue 9; built and run by mk/fuzz.mk).
//
// Each target defines `LLVMFuzzerTestOneInput`. Built with `--sanitize=fuzzer
// -Xswiftc -DPAYHANDOFF_FUZZING`, libFuzzer supplies `main`; in a normal build (`swift build`,
// `swift test`) the target has its own `main` that replays the files named on its command line
// through the same function, so a crash file can be reproduced without the fuzzer flags.
//
// A property violation prints what broke and aborts: libFuzzer reports it as a crash and writes
// the input to `crash-<sha1>`.
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

    /// Aborts with `message` unless `condition` holds.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition {
            let text = "property violated: " + message() + "\n"
            _ = text.withCString { write(2, $0, strlen($0)) }
            abort()
        }
    }

    /// The `main` of a normal build: runs every file named on the command line through `callback`.
    public static func replay(_ callback: FuzzCallback) {
        var count = 0
        for path in CommandLine.arguments.dropFirst() where !path.hasPrefix("-") {
            guard let file = fopen(path, "rb") else { continue }
            var data: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = fread(&buffer, 1, buffer.count, file)
                if n <= 0 { break }
                data.append(contentsOf: buffer[0..<n])
            }
            fclose(file)
            _ = data.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
            count += 1
        }
        print("replayed \(count) inputs without a property violation")
    }

    /// Valid UTF-8 without NUL, as a String; nil otherwise (what a C string caller could not pass
    /// unchanged to the Swift API).
    public static func text(_ bytes: some Collection<UInt8>) -> String? {
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

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

    /// What one C ABI call returned, after checking the calling convention.
    public struct ABIResult {
        public var status: Int32
        public var text: String
        public var document: JSONValue
        public var isOK: Bool { status == 0 }
        public var code: String? { try? document.string(at: "code") }
        public var field: String? { try? document.optionalString(at: "field") }
    }

    /// Calls a `payhandoff_*` function and checks the contract of its answer: a known status, an
    /// `*out` that is valid JSON text (an object), and on error exactly `{"code", "field",
    /// "message"}` with `code` the lowercase name of the status.
    public static func abi(_ what: String, _ body: (OutString) -> Int32) -> ABIResult {
        var out: UnsafeMutablePointer<CChar>? = nil
        let status = body(&out)
        require(status == 0 || statusNames[status] != nil, "\(what): unknown status \(status)")
        guard let out else {
            require(false, "\(what): *out is NULL (status \(status))")
            return ABIResult(status: status, text: "", document: .null)
        }
        let text = String(cString: out)
        payhandoff_string_free(out)
        let document: JSONValue
        do throws(PayHandoffError) {
            document = try JSONText.parse(text, parameter: "out")
        } catch {
            require(false, "\(what): *out is not valid JSON (\(error)): \(text.prefix(300))")
            return ABIResult(status: status, text: text, document: .null)
        }
        guard case .object(let object) = document else {
            require(false, "\(what): *out is not an object: \(text.prefix(300))")
            return ABIResult(status: status, text: text, document: document)
        }
        if status != 0 {
            require(object.keys == ["code", "field", "message"], "\(what): error document keys \(object.keys)")
            require((try? document.string(at: "code")) == statusNames[status],
                    "\(what): status \(status) but code \(String(describing: try? document.string(at: "code")))")
            require((try? document.optionalString(at: "field")) != nil || document.value(at: "field") == .null,
                    "\(what): field is neither a string nor null")
            require((try? document.string(at: "message")) != nil, "\(what): message is not a string")
        }
        return ABIResult(status: status, text: text, document: document)
    }

    /// The Swift API's outcome for the same input must be the ABI's: the same document on
    /// success, the same code and field on failure.
    public static func requireAgreement(_ what: String, _ abi: ABIResult, _ core: Result<JSONValue, PayHandoffError>) {
        switch core {
        case .success(let document):
            require(abi.isOK, "\(what): Swift API succeeded, C ABI failed with \(abi.text)")
            require(abi.document == document, "\(what): C ABI document \(abi.text) differs from the Swift API's \(JSONText.render(document))")
        case .failure(let error):
            require(abi.status == status(of: error.code), "\(what): Swift API failed with \(error), C ABI status \(abi.status) \(abi.text)")
            require(abi.field == error.field, "\(what): field \(String(describing: abi.field)) vs Swift API's \(error)")
        }
    }

    /// One fuzz input for a `(url, options_json)` entry point, split by ``splitOptions(_:)``,
    /// run through the C function and through the Swift API, whose outcomes must agree.
    /// - Returns: The URL, the options, the ABI's answer and the Swift API's outcome, or `nil`
    ///   when the input is not text within the limits (then only the ABI's answer was checked).
    public static func urlWithOptions(
        _ data: UnsafePointer<UInt8>?, _ size: Int, _ what: String,
        abi call: (UnsafePointer<CChar>, UnsafePointer<CChar>, OutString) -> Int32,
        core: (String, JSONValue) throws(PayHandoffError) -> JSONValue
    ) -> (url: String, options: JSONValue, abi: ABIResult, core: Result<JSONValue, PayHandoffError>)? {
        let (optionBytes, urlBytes) = splitOptions(bytes(data, size))
        let answer: ABIResult = withCString(urlBytes) { url in
            withCString(optionBytes) { options in Fuzz.abi(what) { call(url, options, $0) } }
        }
        guard let url = text(urlBytes), let optionsText = text(optionBytes),
              urlBytes.count <= 8192, optionBytes.count <= 65536 else { return nil }
        guard let options = try? JSONText.parse(optionsText, parameter: "options_json") else {
            require(answer.code == "invalid_json" || answer.code == "limit_exceeded", "options refused by JSONText but ABI said \(answer.text)")
            return nil
        }
        let outcome = capture { () throws(PayHandoffError) in try core(url, options) }
        requireAgreement(what, answer, outcome)
        return (url, options, answer, outcome)
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

    /// Percent-decodes (and with `plus`, `+` is a space) leniently: for substring checks only.
    public static func looseDecode(_ text: String, plus: Bool) -> String {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2,
               let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(value); bytes = bytes.dropFirst(2)
            } else if plus, byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
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
