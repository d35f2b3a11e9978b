/// A file's bytes as lines, for writing fixes into it in its own layout: where a line starts,
/// its indentation, its line ending. Shared by ``XMLSourceMap`` and ``JSONSourceMap``.
struct SourceText {
    let bytes: [UInt8]

    /// `\r\n` when the file uses it, else `\n`.
    var newline: String { bytes.firstRange(of: [13, 10]) != nil ? "\r\n" : "\n" }

    /// The offset of the first byte of the line holding `offset`.
    func lineStart(_ offset: Int) -> Int {
        var index = offset
        while index > 0 && bytes[index - 1] != 10 { index -= 1 }
        return index
    }

    /// The white space that starts the line holding `offset`.
    func indentation(at offset: Int) -> String {
        var index = lineStart(offset)
        var text: [UInt8] = []
        while index < bytes.count && (bytes[index] == 32 || bytes[index] == 9) { text.append(bytes[index]); index += 1 }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether only white space precedes `offset` on its line.
    func startsLine(_ offset: Int) -> Bool {
        bytes[lineStart(offset)..<offset].allSatisfy { $0 == 32 || $0 == 9 }
    }

    /// One level of indentation as the file writes it: a tab when lines start with tabs more
    /// often than with spaces, else the smallest run of spaces before `first` (a `<`, a `"`),
    /// else `fallback`.
    func indentUnit(before first: Set<UInt8>, fallback: String) -> String {
        var smallest = Int.max
        var tabs = 0, spaces = 0
        var index = 0
        while index < bytes.count {
            if index == 0 || bytes[index - 1] == 10 {
                if bytes[index] == 9 { tabs += 1 }
                var count = 0
                while index + count < bytes.count && bytes[index + count] == 32 { count += 1 }
                if count > 0 && index + count < bytes.count && first.contains(bytes[index + count]) {
                    spaces += 1
                    smallest = min(smallest, count)
                }
            }
            index += 1
        }
        if tabs > spaces { return "\t" }
        return smallest == Int.max || smallest > 8 ? fallback : String(repeating: " ", count: smallest)
    }
}
