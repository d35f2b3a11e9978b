import Foundation

/// Where each element of a well-formed XML file sits in its bytes, which XMLParser does not
/// report, so that a fix can be written into the file as its own text (an attribute added to a
/// tag, lines inserted before a closing tag) and shown with `--fix-diff`.
///
/// The file is not parsed here: XMLParser has already parsed it. This only scans the markup for
/// tag boundaries (skipping comments, CDATA sections, processing instructions, the DOCTYPE and
/// quoted attribute values) and pairs the n-th start tag with the parser's n-th element
/// (``XMLTreeElement/index``). When the scan and the parser disagree on any element name the
/// map is not built and the file gets no diff (its fixes are still printed).
struct XMLSourceMap {
    struct Attribute {
        var name: String
        /// The attribute's first byte (its name).
        var start: Int
        /// The value, without its quotes.
        var value: Range<Int>
    }

    struct Tag {
        var name: String
        /// `<` of the start tag.
        var start: Int
        /// Just after the start tag's `>`.
        var end: Int
        var selfClosing: Bool
        var attributes: [Attribute]
        /// `<` of the end tag, and just after its `>` (the start tag's range when self-closing).
        var closeStart: Int
        var closeEnd: Int
    }

    let bytes: [UInt8]
    /// By element index.
    let tags: [Tag]
    /// `\r\n` when the file uses it, else `\n`.
    let newline: String
    /// One level of indentation as the file writes it (a tab, or 2 or 4 spaces).
    let indentUnit: String

    /// Maps `data`, whose parsed tree is `root`; `nil` when the scan disagrees with the parser.
    init?(_ data: Data, root: XMLTreeElement) {
        bytes = [UInt8](data)
        guard let scanned = XMLSourceMap.scan(bytes) else { return nil }
        var names: [String] = []
        func walk(_ element: XMLTreeElement) {
            if names.count <= element.index { names += Array(repeating: "", count: element.index - names.count + 1) }
            names[element.index] = element.name
            element.children.forEach(walk)
        }
        walk(root)
        guard scanned.map({ $0.name }) == names else { return nil }
        tags = scanned
        let text = SourceText(bytes: bytes)
        newline = text.newline
        indentUnit = text.indentUnit(before: [60], fallback: "    ")
    }

    // MARK: reading positions

    private var text: SourceText { SourceText(bytes: bytes) }
    func lineStart(_ offset: Int) -> Int { text.lineStart(offset) }
    func indentation(at offset: Int) -> String { text.indentation(at: offset) }
    func startsLine(_ offset: Int) -> Bool { text.startsLine(offset) }

    /// The indentation of the element `index`'s children: the first child's, else one level
    /// deeper than the element.
    func childIndentation(_ index: Int, children: [Int]) -> String {
        if let first = children.first, startsLine(tags[first].start) { return indentation(at: tags[first].start) }
        return indentation(at: tags[index].start) + indentUnit
    }

    // MARK: edits

    /// Adds `name="value"` to the start tag of element `index`: on a line of its own when the
    /// tag already puts its attributes on separate lines, else after the last attribute.
    func insertAttribute(_ name: String, _ value: String, in index: Int) -> TextEdit {
        let tag = tags[index]
        let text = "\(name)=\"\(Snippet.xml(value))\""
        guard let last = tag.attributes.last else {
            return TextEdit(range: (tag.start + 1 + tag.name.utf8.count)..<(tag.start + 1 + tag.name.utf8.count), replacement: " " + text)
        }
        let after = last.value.upperBound + 1  // past the closing quote
        if lineStart(last.start) != lineStart(tag.start), startsLine(last.start) {
            return TextEdit(range: after..<after, replacement: newline + indentation(at: last.start) + text)
        }
        return TextEdit(range: after..<after, replacement: " " + text)
    }

    /// Replaces the value of attribute `name` of element `index`.
    func replaceAttribute(_ name: String, in index: Int, with value: String) -> TextEdit? {
        guard let attribute = tags[index].attributes.first(where: { $0.name == name }) else { return nil }
        return TextEdit(range: attribute.value, replacement: Snippet.xml(value))
    }

    /// Removes attribute `name` (and the white space before it) from element `index`'s start tag.
    func removeAttribute(_ name: String, in index: Int) -> TextEdit? {
        guard let attribute = tags[index].attributes.first(where: { $0.name == name }) else { return nil }
        var start = attribute.start
        while start > tags[index].start && [32, 9, 10, 13].contains(bytes[start - 1]) { start -= 1 }
        return TextEdit(range: start..<(attribute.value.upperBound + 1), replacement: "")
    }

    /// Sets attribute `name` of element `index` to `value`: replaced when present, else added.
    func setAttribute(_ name: String, _ value: String, in index: Int) -> TextEdit {
        replaceAttribute(name, in: index, with: value) ?? insertAttribute(name, value, in: index)
    }

    /// Inserts `lines` (indented relative to each other with four spaces, as ``Snippet``
    /// writes them) as the last children of element `index`.
    func insertChildren(_ lines: [String], in index: Int, children: [Int]) -> TextEdit {
        let tag = tags[index]
        let indent = childIndentation(index, children: children)
        let body = lines.map { indent + reindent($0) }.joined(separator: newline)
        if tag.selfClosing {
            // `<activity … />` becomes `<activity …>` + children + `</activity>`.
            var slash = tag.end - 2
            while slash > tag.start && bytes[slash - 1] == 32 { slash -= 1 }
            return TextEdit(range: slash..<tag.end,
                            replacement: ">" + newline + body + newline + indentation(at: tag.start) + "</\(tag.name)>")
        }
        if startsLine(tag.closeStart) {
            let at = lineStart(tag.closeStart)
            return TextEdit(range: at..<at, replacement: body + newline)
        }
        return TextEdit(range: tag.closeStart..<tag.closeStart, replacement: newline + body + newline + indentation(at: tag.start))
    }

    /// Inserts `lines` as siblings just before element `index`, at its indentation.
    func insertBefore(_ lines: [String], element index: Int) -> TextEdit {
        let tag = tags[index]
        let indent = indentation(at: tag.start)
        let body = lines.map { indent + reindent($0) }.joined(separator: newline)
        if startsLine(tag.start) {
            let at = lineStart(tag.start)
            return TextEdit(range: at..<at, replacement: body + newline)
        }
        return TextEdit(range: tag.start..<tag.start, replacement: newline + body + newline + indent)
    }

    /// Inserts `lines` as siblings just after element `index`, at its indentation.
    func insertAfter(_ lines: [String], element index: Int) -> TextEdit {
        let tag = tags[index]
        let indent = startsLine(tag.start) ? indentation(at: tag.start) : ""
        let body = lines.map { indent + reindent($0) }.joined(separator: newline)
        // When the element ends its line, the new lines go after that line (whole lines in the diff).
        var end = tag.closeEnd
        while end < bytes.count && (bytes[end] == 32 || bytes[end] == 9 || bytes[end] == 13) { end += 1 }
        if end < bytes.count && bytes[end] == 10 {
            return TextEdit(range: (end + 1)..<(end + 1), replacement: body + newline)
        }
        return TextEdit(range: tag.closeEnd..<tag.closeEnd, replacement: newline + body)
    }

    /// A snippet line's leading groups of four spaces in the file's own indentation unit.
    private func reindent(_ line: String) -> String {
        var level = 0
        var rest = Substring(line)
        while rest.hasPrefix("    ") { level += 1; rest = rest.dropFirst(4) }
        return String(repeating: indentUnit, count: level) + rest
    }

    // MARK: scanning

    /// The tags in document order, each with the range of its end tag; `nil` on markup the
    /// scan does not follow (which XMLParser would have refused anyway).
    private static func scan(_ b: [UInt8]) -> [Tag]? {
        var tags: [Tag] = []
        var open: [Int] = []
        var i = 0
        func starts(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= b.count && Array(b[index..<index + pattern.count]) == pattern
        }
        func skip(past end: String, from index: Int) -> Int? {
            let pattern = Array(end.utf8)
            guard let found = b[index...].firstRange(of: pattern) else { return nil }
            return found.upperBound
        }
        func isNameByte(_ c: UInt8) -> Bool { !(c == 32 || c == 9 || c == 10 || c == 13 || c == 62 || c == 47 || c == 61) }
        while i < b.count {
            guard b[i] == 60 else { i += 1; continue }  // '<'
            if starts("<!--", at: i) {
                guard let next = skip(past: "-->", from: i + 4) else { return nil }
                i = next
            } else if starts("<![CDATA[", at: i) {
                guard let next = skip(past: "]]>", from: i + 9) else { return nil }
                i = next
            } else if starts("<?", at: i) {
                guard let next = skip(past: "?>", from: i + 2) else { return nil }
                i = next
            } else if starts("<!", at: i) {
                // DOCTYPE, with an internal subset in brackets and quoted literals.
                var j = i + 2, depth = 0
                var quote: UInt8? = nil
                while j < b.count {
                    let c = b[j]
                    if let q = quote { if c == q { quote = nil } }
                    else if c == 34 || c == 39 { quote = c }
                    else if c == 91 { depth += 1 }
                    else if c == 93 { depth -= 1 }
                    else if c == 62 && depth <= 0 { break }
                    j += 1
                }
                guard j < b.count else { return nil }
                i = j + 1
            } else if starts("</", at: i) {
                guard let close = b[i...].firstIndex(of: 62), let index = open.popLast() else { return nil }
                var j = i + 2
                while j < close && isNameByte(b[j]) { j += 1 }
                guard String(decoding: b[(i + 2)..<j], as: UTF8.self) == tags[index].name else { return nil }
                tags[index].closeStart = i
                tags[index].closeEnd = close + 1
                i = close + 1
            } else {
                var j = i + 1
                while j < b.count && isNameByte(b[j]) { j += 1 }
                let name = String(decoding: b[(i + 1)..<j], as: UTF8.self)
                var attributes: [Attribute] = []
                var selfClosing = false
                while j < b.count {
                    let c = b[j]
                    if c == 62 { break }
                    if c == 47 && j + 1 < b.count && b[j + 1] == 62 { selfClosing = true; j += 1; break }
                    if c == 32 || c == 9 || c == 10 || c == 13 { j += 1; continue }
                    let nameStart = j
                    while j < b.count && isNameByte(b[j]) { j += 1 }
                    let attributeName = String(decoding: b[nameStart..<j], as: UTF8.self)
                    while j < b.count && b[j] != 61 && b[j] != 62 { j += 1 }
                    guard j < b.count, b[j] == 61 else { return nil }
                    j += 1
                    while j < b.count && b[j] != 34 && b[j] != 39 { j += 1 }
                    guard j < b.count else { return nil }
                    let quote = b[j]
                    guard let end = b[(j + 1)...].firstIndex(of: quote) else { return nil }
                    attributes.append(Attribute(name: attributeName, start: nameStart, value: (j + 1)..<end))
                    j = end + 1
                }
                guard j < b.count, !name.isEmpty else { return nil }
                tags.append(Tag(name: name, start: i, end: j + 1, selfClosing: selfClosing, attributes: attributes,
                                closeStart: i, closeEnd: j + 1))
                if !selfClosing { open.append(tags.count - 1) }
                i = j + 1
            }
        }
        return open.isEmpty ? tags : nil
    }
}

/// A change to one file's text: the bytes in `range` (UTF-8 offsets of the file as doctor read
/// it) become `replacement`. An insertion has an empty range.
public struct TextEdit: Equatable, Sendable {
    /// The bytes replaced.
    public var range: Range<Int>
    /// What replaces them.
    public var replacement: String

    /// Creates an edit.
    /// - Parameters:
    ///   - range: The bytes replaced (empty for an insertion).
    ///   - replacement: The new text.
    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// `bytes` with `edits` applied (sorted by position; insertions at one offset keep their
    /// order); `nil` when two edits overlap.
    static func apply(_ edits: [TextEdit], to bytes: [UInt8]) -> [UInt8]? {
        let sorted = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }.map { $0.element }
        var output: [UInt8] = []
        var position = 0
        for edit in sorted {
            guard edit.range.lowerBound >= position, edit.range.upperBound <= bytes.count else { return nil }
            output += bytes[position..<edit.range.lowerBound]
            output += Array(edit.replacement.utf8)
            position = edit.range.upperBound
        }
        output += bytes[position...]
        return output
    }
}
