#if !hasFeature(Embedded)
/// `Codable` for Swift-package users on Apple platforms, who can then use
/// `JSONEncoder`/`JSONDecoder` without libcjson. Not available in Embedded Swift builds (no
/// Codable there); the C ABI and the CLI use cJSON instead.
///
/// Decoding refuses numbers whose value is not an integer within ±(2^53 − 1) (money is never
/// floating point, and larger integers do not survive a double).
///
/// Known limit: `JSONDecoder` does not show the number's text, and it decodes `100.00` and `1e2`
/// as the integer 100 — which as an amount means 1.00 (minor units). The C ABI's cJSON layer
/// refuses such numbers; through `Codable` they cannot be told apart. Write amounts as decimal
/// text (`"100.00"`) in JSON you decode with `JSONDecoder`.
/// `JSONDecoder` does not report key order, so a decoded object's member order is unspecified;
/// equality of `JSONObject` ignores order.
extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    /// Decodes any JSON value except non-integer numbers.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` for numbers with a fraction or out of `Int64` range.
    public init(from decoder: Decoder) throws {
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var result = JSONObject()
            for key in object.allKeys {
                result[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            self = .object(result)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var result: [JSONValue] = []
            while !array.isAtEnd { result.append(try array.decode(JSONValue.self)) }
            self = .array(result)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? single.decode(Int64.self), n >= -JSONValue.maxExactInteger, n <= JSONValue.maxExactInteger {
            self = .integer(n)
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.dataCorruptedError(in: single,
                debugDescription: "JSONValue holds only integers within ±(2^53 − 1): a number with a fraction or beyond is refused")
        }
    }

    /// Encodes the value; object members are written in their order.
    /// - Parameter encoder: The encoder.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .integer(let n):
            var c = encoder.singleValueContainer(); try c.encode(n)
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let values):
            var c = encoder.unkeyedContainer()
            for v in values { try c.encode(v) }
        case .object(let object):
            var c = encoder.container(keyedBy: MemberKey.self)
            for m in object.members { try c.encode(m.value, forKey: MemberKey(stringValue: m.key)) }
        }
    }
}
#endif
