import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `--fix-diff`: every fix that can be written into its file, as one unified diff that
/// `patch -p0` applies from the directory doctor ran in.
///
/// The hunks come straight from the edits (each edit's lines, with three lines of context), so
/// no diff algorithm guesses at what changed. Before a file's hunks are printed the edited text
/// is read again with the file's own parser (XMLParser, PropertyListSerialization,
/// JSONSerialization); a file whose edits overlap or do not read back gets a note instead.
enum FixDiff {
    /// How a file is read back after editing.
    enum Kind: Sendable {
        case xml(root: String)
        case propertyList
        case json
    }

    /// A file doctor read, with what it needs to be edited.
    struct Source: Sendable {
        var bytes: [UInt8]
        var kind: Kind
    }

    /// The diff of every non-ok finding's edits, file by file in the order they were checked.
    /// - Returns: The diff text (empty when nothing can be written) and notes about files left out.
    static func make(findings: [DoctorFinding], sources: [String: Source]) -> (diff: String, notes: [String]) {
        var order: [String] = []
        var edits: [String: [TextEdit]] = [:]
        for finding in findings where finding.severity != .ok && !finding.edits.isEmpty {
            guard let file = finding.file else { continue }
            if edits[file] == nil { order.append(file) }
            for edit in finding.edits where !(edits[file] ?? []).contains(edit) { edits[file, default: []].append(edit) }
        }
        var diff = ""
        var notes: [String] = []
        for file in order {
            guard let source = sources[file], let fileEdits = edits[file] else { continue }
            guard let edited = TextEdit.apply(fileEdits, to: source.bytes) else {
                notes.append("\(file): two fixes touch the same text; apply them by hand")
                continue
            }
            guard readsBack(edited, source.kind) else {
                notes.append("\(file): the edited file would not read back as \(source.kind); apply the fixes by hand")
                continue
            }
            guard String(validatingUTF8Bytes: source.bytes) != nil else {
                notes.append("\(file): not UTF-8 text; apply the fixes by hand")
                continue
            }
            diff += unified(old: source.bytes, edits: fileEdits, path: file)
        }
        return (diff, notes)
    }

    private static func readsBack(_ bytes: [UInt8], _ kind: Kind) -> Bool {
        let data = Data(bytes)
        switch kind {
        case .xml(let root):
            return (try? InputFile.xml(data, path: "", root: root)) != nil
        case .propertyList:
            return (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) != nil
        case .json:
            return (try? JSONSerialization.jsonObject(with: data)) != nil
        }
    }

    /// One changed region: old bytes `old` (whole lines) become `new`.
    private struct Region {
        var old: Range<Int>
        var new: [UInt8]
    }

    /// The unified diff of `edits` applied to `old`, headed `--- path` / `+++ path`.
    static func unified(old: [UInt8], edits: [TextEdit], path: String) -> String {
        let sorted = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }.map { $0.element }
        func lineStart(_ offset: Int) -> Int {
            var index = offset
            while index > 0 && old[index - 1] != 10 { index -= 1 }
            return index
        }
        func lineEnd(_ offset: Int) -> Int {
            var index = offset
            while index < old.count && old[index] != 10 { index += 1 }
            return min(index + 1, old.count)
        }
        // Each edit widened to whole lines; regions that overlap or touch are merged, and a
        // region is widened until its new text ends a line too (or the next line would join it).
        func editsWithin(_ range: Range<Int>) -> [TextEdit] { sorted.filter { range.lowerBound <= $0.range.lowerBound && $0.range.lowerBound <= range.upperBound } }
        var spans: [Range<Int>] = sorted.map { edit in
            let start = lineStart(edit.range.lowerBound)
            let upper = edit.range.upperBound
            let end = upper == lineStart(upper) ? upper : lineEnd(upper)
            return start..<max(start, end)
        }
        var changed = true
        while changed {
            changed = false
            var merged: [Range<Int>] = []
            for span in spans {
                if let last = merged.last, last.upperBound >= span.lowerBound {
                    merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
                } else {
                    merged.append(span)
                }
            }
            spans = merged.map { span in
                let new = rewrite(old, span, editsWithin(span))
                guard let last = new.last, last != 10, span.upperBound < old.count else { return span }
                changed = true
                return span.lowerBound..<lineEnd(span.upperBound)
            }
        }
        let regions = spans.map { Region(old: $0, new: rewrite(old, $0, editsWithin($0))) }
        let oldLines = lines(old[...])
        // The line number (0-based) at each region's start.
        var lineAt: [Int: Int] = [:]
        var offset = 0
        for (number, line) in oldLines.enumerated() {
            lineAt[offset] = number
            offset += line.count
        }
        lineAt[old.count] = oldLines.count
        let context = 3
        var hunks: [[(oldStart: Int, oldLines: [[UInt8]], newLines: [[UInt8]])]] = []
        for region in regions {
            let first = lineAt[region.old.lowerBound] ?? 0
            let change = (oldStart: first, oldLines: lines(old[region.old]), newLines: lines(region.new[...]))
            if var hunk = hunks.last, let last = hunk.last, first - (last.oldStart + last.oldLines.count) <= 2 * context {
                hunk.append(change)
                hunks[hunks.count - 1] = hunk
            } else {
                hunks.append([change])
            }
        }
        var output = "--- \(path)\n+++ \(path)\n"
        var delta = 0
        for hunk in hunks {
            let firstChange = hunk[0], lastChange = hunk[hunk.count - 1]
            let start = max(0, firstChange.oldStart - context)
            let end = min(oldLines.count, lastChange.oldStart + lastChange.oldLines.count + context)
            var body = ""
            var oldCount = 0, newCount = 0
            var line = start
            for change in hunk {
                while line < change.oldStart { body += text(" ", oldLines[line]); line += 1; oldCount += 1; newCount += 1 }
                for removed in change.oldLines { body += text("-", removed); oldCount += 1 }
                for added in change.newLines { body += text("+", added); newCount += 1 }
                line += change.oldLines.count
            }
            while line < end { body += text(" ", oldLines[line]); line += 1; oldCount += 1; newCount += 1 }
            let newStart = start + delta
            output += "@@ -\(range(start, oldCount)) +\(range(newStart, newCount)) @@\n" + body
            delta += newCount - oldCount
        }
        return output
    }

    private static func rewrite(_ old: [UInt8], _ range: Range<Int>, _ edits: [TextEdit]) -> [UInt8] {
        let local = edits.map { TextEdit(range: ($0.range.lowerBound - range.lowerBound)..<($0.range.upperBound - range.lowerBound), replacement: $0.replacement) }
        return TextEdit.apply(local, to: Array(old[range])) ?? Array(old[range])
    }

    /// `bytes` split after each line feed (the last line may have none).
    private static func lines(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            current.append(byte)
            if byte == 10 { lines.append(current); current = [] }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    private static func text(_ mark: String, _ line: [UInt8]) -> String {
        let body = String(decoding: line, as: UTF8.self)
        return line.last == 10 ? mark + body : mark + body + "\n\\ No newline at end of file\n"
    }

    /// `start,count` in 1-based line numbers (`start` is the line before when count is 0).
    private static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start),0" : "\(start + 1),\(count)"
    }
}

private extension String {
    /// `bytes` as UTF-8 text, or `nil` when they are not valid UTF-8.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var text = ""
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = text
    }
}
