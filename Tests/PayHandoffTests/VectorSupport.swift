import Foundation
import PayHandoff
import XCTest

/// One shared vector (see Tests/Vectors/README.md).
struct Vector {
    var id: String
    var input: JSONValue
    var expect: JSONValue
}

/// Loads and runs the shared JSON vectors of `Tests/Vectors/<folder>/`.
enum Vectors {
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
            let document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
            guard try document.string(at: "suite") == suite else { continue }
            for entry in try document.optionalArray(at: "vectors") ?? [] {
                vectors.append(Vector(id: try entry.string(at: "id"),
                                      input: try entry.object(at: "input").asValue,
                                      expect: try entry.object(at: "expect").asValue))
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
        for vector in vectors {
            let outcome: Result<JSONValue, PayHandoffError>
            do throws(PayHandoffError) {
                outcome = .success(try call(vector.input))
            } catch {
                outcome = .failure(error)
            }
            check(vector, outcome, file: file, line: line)
        }
        return vectors.count
    }

    static func check(_ vector: Vector, _ outcome: Result<JSONValue, PayHandoffError>,
                      file: StaticString, line: UInt) {
        switch (vector.expect.value(at: "ok"), vector.expect.value(at: "error"), outcome) {
        case (let ok?, nil, .success(let actual)):
            XCTAssertEqual(actual, ok, "\(vector.id): result differs", file: file, line: line)
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
