import Foundation

/// Where each value of a JSON file sits in its bytes, so that a fix can be written into the
/// file as its own text (an element appended to an array, a member added to an object) rather
/// than as a reformatted document.
///
/// JSON is read by JSONSerialization; this only finds value boundaries (strings are skipped
/// escape by escape, brackets are counted) and decodes member names by handing each name token
/// to JSONSerialization. A scan that goes wrong cannot produce a wrong fix: every edited file
/// is read again with JSONSerialization before its diff is shown (``FixDiff``), and the tests
/// compare the edited document with the intended one.
struct JSONSourceMap {
    /// A value and its place in the file.
    final class Node {
        enum Kind { case object, array, scalar }
        let kind: Kind
        let range: Range<Int>
        var members: [(key: String, keyStart: Int, value: Node)] = []
        var elements: [Node] = []

        init(kind: Kind, range: Range<Int>) {
            self.kind = kind
            self.range = range
        }

        /// The member `key`'s value.
        subscript(key: String) -> Node? { members.first { $0.key == key }?.value }
    }

    let bytes: [UInt8]
    let root: Node
    let newline: String
    let indentUnit: String

    /// Maps `data`; `nil` when the scan does not reach the end of one value.
    init?(_ data: Data) {
        bytes = [UInt8](data)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let root = JSONSourceMap.value(bytes, &index) else { return nil }
        JSONSourceMap.skipSpace(bytes, &index)
        guard index == bytes.count else { return nil }
        self.root = root
        let text = SourceText(bytes: bytes)
        newline = text.newline
        indentUnit = text.indentUnit(before: [34, 123, 91, 125, 93], fallback: "  ")
    }

    /// The value at `path` (member names and array indexes) from the root.
    func node(_ path: [JSONPath]) -> Node? {
        var node: Node? = root
        for step in path {
            switch step {
            case .key(let key): node = node?[key]
            case .index(let index): node = node.flatMap { index < $0.elements.count ? $0.elements[index] : nil }
            }
        }
        return node
    }

    // MARK: edits

    /// Appends `value` (JSON-compatible: strings, numbers, booleans, arrays, dictionaries) to
    /// the array `array`, in the layout of its elements (one per line, or on one line).
    func append(_ value: Any, to array: Node) -> TextEdit? {
        guard array.kind == .array else { return nil }
        guard let last = array.elements.last else {
            let inner = (array.range.lowerBound + 1)..<(array.range.upperBound - 1)
            let indent = indentation(at: array.range.lowerBound)
            return TextEdit(range: inner, replacement: newline + indent + indentUnit + render(value, indent: indent + indentUnit) + newline + indent)
        }
        if startsLine(last.range.lowerBound) {
            let indent = indentation(at: last.range.lowerBound)
            return TextEdit(range: last.range.upperBound..<last.range.upperBound, replacement: "," + newline + indent + render(value, indent: indent))
        }
        return TextEdit(range: last.range.upperBound..<last.range.upperBound, replacement: ", " + render(value, indent: indentation(at: last.range.lowerBound), inline: true))
    }

    /// Inserts `value` into an array just before its element `element`.
    func insert(_ value: Any, before element: Node) -> TextEdit {
        let at = element.range.lowerBound
        if startsLine(at) {
            // Whole lines before the element's line, so the diff shows only additions.
            let indent = indentation(at: at)
            let start = SourceText(bytes: bytes).lineStart(at)
            return TextEdit(range: start..<start, replacement: indent + render(value, indent: indent) + "," + newline)
        }
        return TextEdit(range: at..<at, replacement: render(value, indent: indentation(at: at), inline: true) + ", ")
    }

    /// Adds the member `key: value` at the end of the object `object`.
    func insert(_ key: String, _ value: Any, into object: Node) -> TextEdit? {
        guard object.kind == .object else { return nil }
        let name = render(key, indent: "", inline: true)
        guard let last = object.members.last else {
            let inner = (object.range.lowerBound + 1)..<(object.range.upperBound - 1)
            let indent = indentation(at: object.range.lowerBound)
            return TextEdit(range: inner, replacement: newline + indent + indentUnit + name + ": " + render(value, indent: indent + indentUnit) + newline + indent)
        }
        if startsLine(last.keyStart) {
            let indent = indentation(at: last.keyStart)
            return TextEdit(range: last.value.range.upperBound..<last.value.range.upperBound,
                            replacement: "," + newline + indent + name + ": " + render(value, indent: indent))
        }
        return TextEdit(range: last.value.range.upperBound..<last.value.range.upperBound,
                        replacement: ", " + name + ": " + render(value, indent: "", inline: true))
    }

    /// Replaces the value `node` with `value`.
    func replace(_ node: Node, with value: Any) -> TextEdit {
        TextEdit(range: node.range, replacement: render(value, indent: indentation(at: node.range.lowerBound), inline: !startsLine(node.range.lowerBound) && !(value is [String: Any])))
    }

    /// `value` as JSON text written by JSONSerialization: pretty-printed in the file's
    /// indentation and continued at `indent`, or on one line when `inline` (arrays then as
    /// `["a", "b"]`).
    func render(_ value: Any, indent: String, inline: Bool = false) -> String {
        let nested = value is [Any] || value is [String: Any]
        if inline, let array = value as? [Any], !array.contains(where: { $0 is [Any] || $0 is [String: Any] }) {
            return "[" + array.map(JSONSourceMap.fragment).joined(separator: ", ") + "]"
        }
        guard nested && !inline else { return JSONSourceMap.fragment(value) }
        // Written inside an array (JSONSerialization wants a container), then unwrapped.
        let text = Snippet.json([value])
        var lines = text.components(separatedBy: "\n").dropFirst().dropLast().map { String($0.dropFirst(2)) }
        if let last = lines.indices.last, lines[last].hasSuffix(",") { lines[last].removeLast() }
        return lines.enumerated().map { offset, line in
            var level = 0
            var rest = Substring(line)
            while rest.hasPrefix("  ") { level += 1; rest = rest.dropFirst(2) }
            return (offset == 0 ? "" : indent) + String(repeating: indentUnit, count: level) + JSONSourceMap.tightenColon(rest)
        }.joined(separator: newline)
    }

    /// One value on one line, as JSONSerialization writes it.
    static func fragment(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]), let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .withoutEscapingSlashes]) else { return "null" }
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// `"name" : value` (Foundation's pretty printing) as `"name": value`, as app.json files
    /// write it; only the separator after a line's leading member name is touched.
    static func tightenColon(_ line: Substring) -> String {
        guard line.hasPrefix("\"") else { return String(line) }
        var index = line.index(after: line.startIndex)
        while index < line.endIndex {
            if line[index] == "\\" { index = line.index(index, offsetBy: 2, limitedBy: line.endIndex) ?? line.endIndex; continue }
            if line[index] == "\"" { break }
            index = line.index(after: index)
        }
        guard index < line.endIndex else { return String(line) }
        let afterName = line.index(after: index)
        if line[afterName...].hasPrefix(" : ") {
            return String(line[..<afterName]) + ": " + line[line.index(afterName, offsetBy: 3)...]
        }
        return String(line)
    }

    private func indentation(at offset: Int) -> String { SourceText(bytes: bytes).indentation(at: offset) }
    private func startsLine(_ offset: Int) -> Bool { SourceText(bytes: bytes).startsLine(offset) }

    // MARK: scanning

    private static func skipSpace(_ b: [UInt8], _ i: inout Int) {
        while i < b.count && (b[i] == 32 || b[i] == 9 || b[i] == 10 || b[i] == 13) { i += 1 }
    }

    /// Past the string token at `i` (which is `"`), escapes skipped.
    private static func skipString(_ b: [UInt8], _ i: inout Int) -> Bool {
        i += 1
        while i < b.count {
            if b[i] == 92 { i += 2; continue }  // backslash: the next byte is escaped
            if b[i] == 34 { i += 1; return true }
            i += 1
        }
        return false
    }

    private static func value(_ b: [UInt8], _ i: inout Int, depth: Int = 0) -> Node? {
        // JSONSerialization refuses documents nested deeper than this too.
        guard depth < 512 else { return nil }
        skipSpace(b, &i)
        guard i < b.count else { return nil }
        let start = i
        switch b[i] {
        case 123:  // {
            i += 1
            var members: [(key: String, keyStart: Int, value: Node)] = []
            skipSpace(b, &i)
            if i < b.count && b[i] == 125 { i += 1; return Node(kind: .object, range: start..<i) }
            while i < b.count {
                skipSpace(b, &i)
                guard i < b.count, b[i] == 34 else { return nil }
                let keyStart = i
                guard skipString(b, &i) else { return nil }
                // The name token is decoded by JSONSerialization, inside an array.
                guard let decoded = try? JSONSerialization.jsonObject(with: Data([91] + b[keyStart..<i] + [93])) as? [String],
                      let key = decoded.first else { return nil }
                skipSpace(b, &i)
                guard i < b.count, b[i] == 58 else { return nil }
                i += 1
                guard let member = value(b, &i, depth: depth + 1) else { return nil }
                members.append((key, keyStart, member))
                skipSpace(b, &i)
                guard i < b.count else { return nil }
                if b[i] == 44 { i += 1; continue }
                guard b[i] == 125 else { return nil }
                i += 1
                let node = Node(kind: .object, range: start..<i)
                node.members = members
                return node
            }
            return nil
        case 91:  // [
            i += 1
            var elements: [Node] = []
            skipSpace(b, &i)
            if i < b.count && b[i] == 93 { i += 1; return Node(kind: .array, range: start..<i) }
            while i < b.count {
                guard let element = value(b, &i, depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace(b, &i)
                guard i < b.count else { return nil }
                if b[i] == 44 { i += 1; continue }
                guard b[i] == 93 else { return nil }
                i += 1
                let node = Node(kind: .array, range: start..<i)
                node.elements = elements
                return node
            }
            return nil
        case 34:
            guard skipString(b, &i) else { return nil }
            return Node(kind: .scalar, range: start..<i)
        default:
            while i < b.count && !(b[i] == 44 || b[i] == 93 || b[i] == 125 || b[i] == 32 || b[i] == 9 || b[i] == 10 || b[i] == 13) { i += 1 }
            return i > start ? Node(kind: .scalar, range: start..<i) : nil
        }
    }
}

/// One step of a path into a JSON document.
enum JSONPath: Equatable {
    case key(String)
    case index(Int)
}
