// libFuzzer target: the amount parser (`Amount(parsing:)`), minor units, and amounts inside JSON.
// Input: the amount text. Properties: accepted exactly when integer arithmetic on the decimal
// text accepts — in process, by the reference below (written from the rule in docs/architecture.md), on every
// input, and by the Python oracle of the vectors (vectorlib.amount_from_text, unbounded
// integers), a long-lived child fed in batches — with the same minor units; every failure is
// `validation`; decimalString round-trips; JSON amounts: integers are minor units, strings
// parse like text, anything else is typed `invalid_json`/`validation`.
import FuzzSupport
import PayHandoff
import PayHandoffABI

nonisolated(unsafe) let oracle = Oracle(name: "the Python oracle of the vectors (vectorlib.amount_from_text)",
                    arguments: ["python3", Fuzz.repositoryPath("Fuzz/Oracles/pos_oracle.py")])

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    Fuzz.start("FuzzAmount", fuzzOne)
    return 0
}

/// DIGITS [. DIGIT [DIGIT]], at most 2^53 − 1 minor units.
func referenceMinorUnits(_ bytes: [UInt8]) -> Int64? {
    let digit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
    let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.allSatisfy(digit) else { return nil }
    var fraction: ArraySlice<UInt8> = []
    if parts.count == 2 {
        fraction = parts[1]
        guard (1...2).contains(fraction.count), fraction.allSatisfy(digit) else { return nil }
    }
    let significant = whole.drop { $0 == 0x30 }
    guard significant.count <= 16 else { return nil }  // 2^53 − 1 has 16 digits as units (14 whole digits + 2)
    var units: Int64 = 0
    for b in significant { units = units * 10 + Int64(b - 0x30) }
    var cents: Int64 = 0
    for (i, b) in fraction.enumerated() { cents += Int64(b - 0x30) * (i == 0 ? 10 : 1) }
    let (scaled, overflow) = units.multipliedReportingOverflow(by: 100)
    guard !overflow else { return nil }
    let total = scaled + cents
    return total <= Amount.max ? total : nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Fuzz.bytes(data, size)
    if let text = Fuzz.text(bytes) {
        let expected = referenceMinorUnits(bytes)
        if !Fuzz.isTiming && oracle.wantsInput() {
            oracle.submit(["suite": "amount", "text": .string(text)], input: bytes) { answer in
                let theirs: Int64? = { if case .integer(let n)? = answer.value(at: "ok") { return n }; return nil }()
                if theirs == nil, answer.value(at: "error") == nil { return "oracle answered \(JSONText.render(answer))" }
                return theirs == expected ? nil : "'\(text)': PayHandoff/reference \(String(describing: expected)), oracle \(JSONText.render(answer))"
            }
        }
        do throws(PayHandoffError) {
            let amount = try Amount(parsing: text, field: "amount")
            Fuzz.require(expected == amount.minorUnits, "'\(text)' parsed as \(amount.minorUnits), reference \(String(describing: expected))")
            let again = try Amount(parsing: amount.decimalString)
            Fuzz.require(again == amount, "'\(amount.decimalString)' does not parse back to itself")
            let shape = amount.decimalString.split(separator: ".", omittingEmptySubsequences: false)
            Fuzz.require(shape.count == 2 && shape[1].count == 2, "decimalString '\(amount.decimalString)' is not N.NN")
        } catch {
            Fuzz.require(expected == nil, "'\(text)' refused (\(error)) but the reference parses it as \(expected ?? -1)")
            Fuzz.require(error.code == .validation && error.field == "amount", "'\(text)': \(error) is not validation [amount]")
        }
    }
    // Minor units from the first 8 bytes.
    if bytes.count >= 8 {
        var raw: Int64 = 0
        for b in bytes.prefix(8) { raw = raw << 8 | Int64(b) }
        do throws(PayHandoffError) {
            let amount = try Amount(minorUnits: raw)
            Fuzz.require((0...Amount.max).contains(raw), "\(raw) minor units accepted")
            Fuzz.require((try? Amount(parsing: amount.decimalString)) == amount, "\(raw): decimalString does not round-trip")
        } catch {
            Fuzz.require(!(0...Amount.max).contains(raw) && error.code == .validation, "\(raw) refused: \(error)")
        }
    }
    // The same text as a JSON value (number, string, anything) where an amount is read, through
    // cJSON as the C ABI reads it.
    if let text = Fuzz.text(bytes) {
        let json = "{\"a\": " + text + "}"
        if let document = try? JSONText.parse(json, parameter: "x") {
            do throws(PayHandoffError) {
                let amount = try document.optionalAmount(at: "a")
                switch document.value(at: "a") {
                case .integer(let n)?: Fuzz.require(amount?.minorUnits == n, "integer \(n) read as \(String(describing: amount))")
                case .string(let s)?: Fuzz.require(amount?.minorUnits == referenceMinorUnits(Array(s.utf8)), "string '\(s)' read as \(String(describing: amount))")
                case .null?: Fuzz.require(amount == nil, "null read as an amount")
                default: Fuzz.require(false, "\(json) read as amount \(String(describing: amount))")
                }
            } catch {
                Fuzz.require(error.code == .validation || error.code == .invalidJSON, "\(json): \(error)")
                Fuzz.require(error.field == "a", "\(json): error names \(String(describing: error.field))")
            }
        }
    }
    return 0
}

#if !PAYHANDOFF_FUZZING
@main struct Main {
    static func main() { Fuzz.replay("FuzzAmount", fuzzOne) }
}
#endif
