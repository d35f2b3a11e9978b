import Foundation
import PayHandoff
import PayHandoffABI
import XCTest

/// One shared vector (see Tests/Vectors/README.md).
struct Vector {
    var id: String
    var input: JSONValue
    var expect: JSONValue
    /// Set when the input holds a number JSON text cannot carry exactly (beyond ±(2^53 − 1)):
    /// the text layer (Codable here, cJSON in the C ABI) refuses it before any call, naming the
    /// path inside the called document, so the runner reports that error as the outcome.
    var textLayerError: PayHandoffError?
    /// Why the Swift runner cannot express this vector (its `skip.swift`): then it is skipped,
    /// printed and counted, never passed.
    var skipReason: String?
}

/// JSON as the vector files spell it, with integers over the whole Int64 range, so that a
/// vector can hold a number the PayHandoff text layer must refuse.
private indirect enum VectorJSON: Decodable {
    case value(JSONValue)
    case array([VectorJSON])
    case object([(String, VectorJSON)])
    case tooLarge

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            self = .object(try keyed.allKeys.map { ($0.stringValue, try keyed.decode(VectorJSON.self, forKey: $0)) })
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [VectorJSON] = []
            while !list.isAtEnd { items.append(try list.decode(VectorJSON.self)) }
            self = .array(items)
        } else if let big = try? decoder.singleValueContainer().decode(Int64.self),
                  big > JSONValue.maxExactInteger || big < -JSONValue.maxExactInteger {
            self = .tooLarge
        } else {
            self = .value(try JSONValue(from: decoder))
        }
    }

    /// A `coordinator.script` input whose steps are resolved one by one: a step whose event holds
    /// a number JSON text cannot carry becomes `{"text_layer_error": {"code", "field"}}`, the error
    /// the text layer gives that event (the script runner reports it as that step's outcome).
    func resolvingStepsOneByOne() -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        var o = JSONObject()
        for (key, item) in members {
            guard key == "steps", case .array(let steps) = item else {
                guard case .success(let value) = item.resolve(path: [key]) else { return nil }
                o[key] = value
                continue
            }
            var resolved: [JSONValue] = []
            for step in steps {
                switch step.resolve(path: []) {
                case .success(let value): resolved.append(value)
                case .failure:
                    guard case .object(let stepMembers) = step, let event = stepMembers.first(where: { $0.0 == "event" })?.1,
                          case .failure(let error) = event.resolve(path: ["event"]) else { return nil }
                    resolved.append(["text_layer_error": ["code": .string(error.code.rawValue), "field": error.field.map { .string($0) } ?? .null]])
                }
            }
            o[key] = .array(resolved)
        }
        return .object(o)
    }

    /// The value, or the path (inside the document the call receives) of the first number that
    /// is too large.
    func resolve(path: [String]) -> Result<JSONValue, PayHandoffError> {
        switch self {
        case .value(let v): return .success(v)
        case .tooLarge:
            // path[0] is the input member naming the called document ("request", "event", …).
            let inside = path.dropFirst().joined(separator: ".")
            return .failure(PayHandoffError(.invalidJSON, field: inside.isEmpty ? nil : inside, "number out of range"))
        case .array(let items):
            var out: [JSONValue] = []
            for (i, item) in items.enumerated() {
                switch item.resolve(path: path.dropLast() + [(path.last ?? "") + "[\(i)]"]) {
                case .success(let v): out.append(v)
                case .failure(let e): return .failure(e)
                }
            }
            return .success(.array(out))
        case .object(let members):
            var o = JSONObject()
            for (key, item) in members {
                switch item.resolve(path: path + [key]) {
                case .success(let v): o[key] = v
                case .failure(let e): return .failure(e)
                }
            }
            return .success(.object(o))
        }
    }
}

/// Loads and runs the shared JSON vectors of `Tests/Vectors/<folder>/`.
enum Vectors {
    /// The codec for JSON text inside a hand-off (Square's `data=`, Clip's `PAYMENT_RESPONSE`): the
    /// C ABI's, over cJSON, so every runner reads that text by the same rules.
    static let jsonText: JSONTextCodec = JSONText.codec

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Vectors")

    /// All vectors of `suite` found in `folder`, in file order.
    static func load(folder: String, suite: String) throws -> [Vector] {
        let directory = root.appendingPathComponent(folder)
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var vectors: [Vector] = []
        for file in files {
            let data = readable(try Data(contentsOf: file))
            let document = try JSONDecoder().decode(VectorFileHeader.self, from: data).json
            guard try document.string(at: "suite") == suite else { continue }
            let inputs = try JSONDecoder().decode(VectorInputs.self, from: data).vectors
            for (entry, raw) in zip(try document.optionalArray(at: "vectors") ?? [], inputs) {
                var vector = Vector(id: try entry.string(at: "id"), input: [:],
                                    expect: try entry.object(at: "expect").asValue)
                vector.skipReason = try entry.optionalString(at: "skip.swift")
                switch raw.input.resolve(path: []) {
                case .success(let input): vector.input = input
                case .failure(let error):
                    // A script refuses such a number at its step only (the event's text is refused).
                    if suite == "coordinator.script", let steps = raw.input.resolvingStepsOneByOne() { vector.input = steps } else {
                        vector.textLayerError = error
                    }
                }
                vectors.append(vector)
            }
        }
        return vectors
    }

    /// Runs every vector through `call` and checks its result or error; returns how many ran.
    @discardableResult
    static func run(folder: String, suite: String,
                    file: StaticString = #filePath, line: UInt = #line,
                    _ call: (JSONValue) throws(PayHandoffError) -> JSONValue) throws -> Int {
        let vectors = try load(folder: folder, suite: suite)
        XCTAssertFalse(vectors.isEmpty, "no vectors for \(suite) in \(folder)", file: file, line: line)
        var skipped = 0
        for vector in vectors {
            if let reason = vector.skipReason {
                print("skip: \(vector.id): \(reason)")
                skipped += 1
                continue
            }
            let outcome: Result<JSONValue, PayHandoffError>
            if let error = vector.textLayerError {
                outcome = .failure(error)
            } else {
                do throws(PayHandoffError) {
                    outcome = .success(try call(vector.input))
                } catch {
                    outcome = .failure(error)
                }
            }
            check(vector, outcome, file: file, line: line)
        }
        if skipped > 0 {
            print("vectors: \(folder) \(suite): \(vectors.count - skipped) ran, \(skipped) skipped (not passed: reasons above)")
        }
        return vectors.count - skipped
    }

    /// `data` with every lone-surrogate escape (`\ud800` without its pair) turned into `\ufffd`
    /// (same length; pairs stay): Foundation's JSONDecoder refuses a whole file holding one, and
    /// the host-string vectors that hold them say `skip.swift` (a Swift String cannot hold one).
    static func readable(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        func hex4(_ at: Int) -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[at..<at + 4] {
                guard let digit = Int(String(UnicodeScalar(byte)), radix: 16) else { return nil }
                value = value * 16 + digit
            }
            return value
        }
        let backslash = UInt8(ascii: "\\"), u = UInt8(ascii: "u")
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == backslash else { i += 1; continue }
            guard bytes[i + 1] == u, let unit = hex4(i + 2) else { i += 2; continue }  // another escape
            if (0xD800...0xDBFF).contains(unit), i + 7 < bytes.count, bytes[i + 6] == backslash, bytes[i + 7] == u,
               let next = hex4(i + 8), (0xDC00...0xDFFF).contains(next) {
                i += 12  // a pair: both escapes stay
                continue
            }
            if (0xD800...0xDFFF).contains(unit) { bytes.replaceSubrange(i + 2..<i + 6, with: Array("fffd".utf8)) }
            i += 6
        }
        return Data(bytes)
    }

    static func check(_ vector: Vector, _ outcome: Result<JSONValue, PayHandoffError>,
                      file: StaticString, line: UInt) {
        switch (vector.expect.value(at: "ok"), vector.expect.value(at: "error"), outcome) {
        case (let ok?, nil, .success(let actual)):
            if difference(actual, ok, at: "") != nil {
                XCTFail("\(vector.id): result differs: " + (difference(actual, ok, at: "") ?? "?"), file: file, line: line)
            }
        case (nil, let error?, .failure(let actual)):
            XCTAssertEqual(actual.code.rawValue, try? error.string(at: "code"),
                           "\(vector.id): wrong error code (\(actual))", file: file, line: line)
            if let field = error.value(at: "field") {
                let expected: String? = if case .string(let s) = field { s } else { nil }
                XCTAssertEqual(actual.field, expected, "\(vector.id): wrong error field (\(actual))",
                               file: file, line: line)
            }
        case (_?, nil, .failure(let actual)):
            XCTFail("\(vector.id): expected success, got \(actual)", file: file, line: line)
        case (nil, _?, .success(let actual)):
            XCTFail("\(vector.id): expected an error, got \(actual)", file: file, line: line)
        default:
            XCTFail("\(vector.id): expect must hold exactly one of ok or error", file: file, line: line)
        }
    }
}

extension JSONObject {
    var asValue: JSONValue { .object(self) }
}

/// Where `actual` first differs from `expected`, readably (`steps[3].outcome: got … expected …`).
func difference(_ actual: JSONValue, _ expected: JSONValue, at path: String) -> String? {
    func show(_ v: JSONValue?) -> String {
        guard let v else { return "(absent)" }
        switch v {
        case .string(let s): return "\"" + s + "\""
        case .integer(let n): return String(n)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array(let a): return "[" + a.map { show($0) }.joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.members.map { $0.key + ": " + show($0.value) }.joined(separator: ", ") + "}"
        }
    }
    switch (actual, expected) {
    case let (.object(a), .object(e)):
        for key in Set(a.members.map(\.key)).union(e.members.map(\.key)).sorted() {
            let child = path.isEmpty ? key : path + "." + key
            guard let x = a[key], let y = e[key] else { return child + ": got " + show(a[key]) + " expected " + show(e[key]) }
            if let found = difference(x, y, at: child) { return found }
        }
        return nil
    case let (.array(a), .array(e)):
        for index in 0..<max(a.count, e.count) {
            let child = path + "[" + String(index) + "]"
            guard index < a.count, index < e.count else {
                return child + ": got " + show(index < a.count ? a[index] : nil) + " expected " + show(index < e.count ? e[index] : nil)
            }
            if let found = difference(a[index], e[index], at: child) { return found }
        }
        return nil
    case let (.string(a), .string(e)) where a != e && sameSquareData(a, e):
        return nil
    default:
        return actual == expected ? nil : path + ": got " + show(actual) + " expected " + show(expected)
    }
}

/// Square's iOS request carries its JSON in `data=`, in no fixed key order: two strings that both
/// start with `square-commerce-v1://payment/create?data=` are equal when the rest of each,
/// percent-decoded, is JSON and the two are deep-equal (Tests/Vectors/README.md, "Comparing results").
func sameSquareData(_ a: String, _ b: String) -> Bool {
    let prefix = "square-commerce-v1://payment/create?data="
    // Printed again with sorted keys: equal text is equal JSON (Foundation prints both alike).
    func decoded(_ s: String) -> Data? {
        guard s.hasPrefix(prefix), let text = String(s.dropFirst(prefix.count)).removingPercentEncoding,
              let data = text.data(using: .utf8),
              let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
    guard let x = decoded(a), let y = decoded(b) else { return false }
    return x == y
}

/// The per-vector inputs of a file, decoded with ``VectorJSON``.
private struct VectorInputs: Decodable {
    struct Entry: Decodable { var input: VectorJSON }
    var vectors: [Entry]
}

/// A vector file without its inputs (which may hold numbers JSONValue refuses).
private struct VectorFileHeader: Decodable {
    var json: JSONValue
    private enum Keys: String, CodingKey { case suite, vectors }
    private struct Entry: Decodable {
        var id: String
        var expect: JSONValue
        var skip: JSONValue?
    }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let entries = try c.decode([Entry].self, forKey: .vectors)
        json = ["suite": .string(try c.decode(String.self, forKey: .suite)),
                "vectors": .array(entries.map { ["id": .string($0.id), "expect": $0.expect, "skip": $0.skip ?? .null] })]
    }
}
