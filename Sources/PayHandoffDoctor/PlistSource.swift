import Foundation

/// An XML property list's top-level `<dict>` in the file's text, to write fixes into it: a
/// `<string>` appended to an array, a `<dict>` appended to CFBundleURLTypes, a new key. Binary
/// property lists (Xcode can write them) have no text to edit: their fixes are printed only.
struct PlistSource {
    let map: XMLSourceMap
    let dict: XMLTreeElement

    /// Maps the plist `contents`; `nil` for a binary plist or markup the map cannot follow.
    init?(_ contents: Data, path: String) {
        guard !contents.starts(with: Array("bplist".utf8)),
              let root = try? InputFile.xml(contents, path: path, root: "plist"),
              let dict = root.children.first(where: { $0.name == "dict" }),
              let map = XMLSourceMap(contents, root: root) else { return nil }
        self.map = map
        self.dict = dict
    }

    /// The value element that follows `<key>key</key>` in the top-level dictionary.
    func value(forKey key: String) -> XMLTreeElement? {
        let children = dict.children
        for (offset, child) in children.enumerated() where child.name == "key" && child.text == key && offset + 1 < children.count {
            return children[offset + 1]
        }
        return nil
    }

    /// Appends `lines` (a `<string>`, a `<dict>`, as ``Snippet`` writes them) to the array of `key`.
    func append(_ lines: [String], toArrayOf key: String) -> TextEdit? {
        guard let array = value(forKey: key), array.name == "array" else { return nil }
        return map.insertChildren(lines, in: array.index, children: array.children.map { $0.index })
    }

    /// Adds `<key>key</key>` and `valueLines` at the end of the top-level dictionary.
    func insert(key: String, _ valueLines: [String]) -> TextEdit {
        map.insertChildren(["<key>\(Snippet.xml(key))</key>"] + valueLines, in: dict.index, children: dict.children.map { $0.index })
    }

    /// Appends `<string>value</string>` to the array of `key`, or adds the key with an array
    /// holding it.
    func appendString(_ value: String, to key: String) -> TextEdit? { appendStrings([value], to: key) }

    /// Appends a `<string>` for each of `values` to the array of `key`, or adds the key with
    /// an array holding them.
    func appendStrings(_ values: [String], to key: String) -> TextEdit? {
        let lines = values.map { "<string>\(Snippet.xml($0))</string>" }
        if self.value(forKey: key) != nil { return append(lines, toArrayOf: key) }
        return insert(key: key, ["<array>"] + lines.map { "    " + $0 } + ["</array>"])
    }
}
