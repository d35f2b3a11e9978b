import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Why an input file could not be used; the message names the file.
struct InputError: Error {
    let message: String
}

/// One XML element of a parsed file: its name, attributes as written (`android:name`), the
/// line it starts on, its place in document order (what ``XMLSourceMap`` pairs it with to
/// edit the file), its text (string resources and plist keys are text) and its children.
struct XMLTreeElement {
    var name: String
    var attributes: [String: String]
    var line: Int
    /// 0 for the root, then 1, 2, … in the order the start tags appear in the file.
    var index: Int = 0
    /// The character data directly inside the element (entities decoded by the parser).
    var text: String = ""
    var children: [XMLTreeElement] = []

    /// The child elements named `name`.
    func children(_ name: String) -> [XMLTreeElement] { children.filter { $0.name == name } }
}

/// Reads the files `payhandoff doctor` is given, refusing anything it cannot read safely.
///
/// Every failure is an ``InputError`` naming the file: missing, not a regular file (a FIFO
/// would block a read forever), over ``maxBytes``, unreadable, not well-formed, an XML entity
/// bomb (libxml2 refuses runaway entity expansion; the error is reported like any other),
/// a truncated document (`XMLParser.parse()` can answer `true` for one while setting
/// `parserError`: both are checked), a corrupt binary property list.
enum InputFile {
    /// The largest file read: real manifests, plists and association files are a few KiB.
    static let maxBytes = 4 * 1024 * 1024
    /// The deepest XML nesting accepted (a merged AndroidManifest.xml nests under 10).
    static let maxDepth = 64
    /// The most XML elements accepted.
    static let maxElements = 200_000

    /// Reads the file at `path` with `read`; a failure becomes the `input.readable` error
    /// finding (appended to `findings`) and `nil`.
    static func read<Value>(_ path: String, into findings: inout [DoctorFinding],
                            _ read: (String) throws(InputError) -> Value) -> Value? {
        do throws(InputError) {
            return try read(path)
        } catch {
            findings.append(DoctorFinding(.inputReadable, .error, file: path, error.message))
            return nil
        }
    }

    /// The bytes of the file at `path`.
    static func data(at path: String) throws(InputError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(message: "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw InputError(message: "\(path): is a directory, not a file") }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw InputError(message: "\(path): cannot be read (\(error.localizedDescription))")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw InputError(message: "\(path): is not a regular file (a device, FIFO or socket); pass the file itself")
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maxBytes {
            throw InputError(message: "\(path): is \(size) bytes; doctor reads at most \(maxBytes) bytes (4 MiB): is this the right file?")
        }
        let contents: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            // One byte over the limit is enough to tell that the file grew past it.
            contents = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw InputError(message: "\(path): cannot be read (\(error.localizedDescription))")
        }
        guard contents.count <= maxBytes else {
            throw InputError(message: "\(path): is larger than \(maxBytes) bytes (4 MiB): is this the right file?")
        }
        return contents
    }

    /// The root element of the XML file at `path`, which must be named `root`.
    static func xml(at path: String, root: String) throws(InputError) -> XMLTreeElement {
        try xmlDocument(at: path, root: root).root
    }

    /// The root element of the XML file at `path` (named `root`) and the file's bytes, which
    /// the fixes are written against.
    static func xmlDocument(at path: String, root: String) throws(InputError) -> (root: XMLTreeElement, contents: Data) {
        let contents = try data(at: path)
        return (try xml(contents, path: path, root: root), contents)
    }

    /// The root element of `contents`, the XML file at `path`, which must be named `root`.
    static func xml(_ contents: Data, path: String, root: String) throws(InputError) -> XMLTreeElement {
        // aapt2 compiles AndroidManifest.xml into binary XML (chunk type 0x0003, header size 8).
        if contents.starts(with: [0x03, 0x00, 0x08, 0x00]) {
            throw InputError(message: "\(path): is a compiled binary manifest (from an APK), not XML; pass the source android/app/src/main/AndroidManifest.xml or the merged one under app/build/intermediates/merged_manifest*/")
        }
        let parser = XMLParser(data: contents)
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let finished = parser.parse()
        if let limit = builder.limitMessage {
            throw InputError(message: "\(path): \(limit)")
        }
        if !finished || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            var message = "\(path): is not well-formed XML (the parser stopped at line \(parser.lineNumber), column \(parser.columnNumber); libxml2 error \(code))"
            if code == 89 {  // libxml2's XML_ERR_ENTITY_LOOP: how it refuses a runaway expansion
                message += ": an entity expands into itself or explodes in size (an XML entity bomb); a manifest needs no entities"
            } else if finished {
                message += ": the document ends early (truncated?)"
            }
            throw InputError(message: message)
        }
        guard let element = builder.root else {
            throw InputError(message: "\(path): has no XML element (empty?)")
        }
        guard element.name == root else {
            throw InputError(message: "\(path): the root element is <\(element.name)>, not <\(root)>: is this the right file?")
        }
        return element
    }

    /// The top-level dictionary of the property list at `path` (XML or binary, as Xcode writes them).
    static func propertyList(at path: String) throws(InputError) -> [String: Any] {
        try propertyListDocument(at: path).dictionary
    }

    /// The top-level dictionary of the property list at `path` and the file's bytes.
    static func propertyListDocument(at path: String) throws(InputError) -> (dictionary: [String: Any], contents: Data) {
        let contents = try data(at: path)
        return (try propertyList(contents, path: path), contents)
    }

    /// The top-level dictionary of `contents`, the property list at `path`.
    static func propertyList(_ contents: Data, path: String) throws(InputError) -> [String: Any] {
        let value: Any
        do {
            var format = PropertyListSerialization.PropertyListFormat.xml
            value = try PropertyListSerialization.propertyList(from: contents, options: [], format: &format)
        } catch {
            // For a binary plist Foundation reports what its text parsers made of it last,
            // which says nothing useful; its own failure is the news.
            if contents.starts(with: Array("bplist".utf8)) {
                throw InputError(message: "\(path): is a corrupt or truncated binary property list")
            }
            throw InputError(message: "\(path): is not a property list (\(detail(of: error)))")
        }
        guard let dictionary = value as? [String: Any] else {
            throw InputError(message: "\(path): the property list's top level is not a dictionary (<dict>)")
        }
        return dictionary
    }

    /// The JSON document in the file at `path`.
    static func json(at path: String) throws(InputError) -> Any {
        try jsonDocument(at: path).value
    }

    /// The JSON document in the file at `path` and the file's bytes.
    static func jsonDocument(at path: String) throws(InputError) -> (value: Any, contents: Data) {
        let contents = try data(at: path)
        return (try json(contents, path: path), contents)
    }

    /// The JSON document `contents`, the file at `path`.
    static func json(_ contents: Data, path: String) throws(InputError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: contents, options: [])
        } catch {
            var message = "\(path): is not JSON (\(detail(of: error)))"
            if path.hasSuffix(".js") || path.hasSuffix(".ts") {
                message += "; for app.config.js/ts, run `npx expo config --type public --json > app.config.json` and pass that"
            }
            throw InputError(message: message)
        }
    }

    /// Foundation's own explanation, without its domain and code boilerplate.
    private static func detail(of error: Error) -> String {
        let error = error as NSError
        if let debug = error.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return error.localizedDescription
    }
}

/// Builds the element tree as XMLParser reports elements, within ``InputFile``'s limits.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLTreeElement?
    var limitMessage: String?
    private var open: [XMLTreeElement] = []
    private var count = 0

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        count += 1
        guard open.count < InputFile.maxDepth, count <= InputFile.maxElements else {
            limitMessage = open.count >= InputFile.maxDepth
                ? "nests elements deeper than \(InputFile.maxDepth) levels (line \(parser.lineNumber)): not a manifest"
                : "has more than \(InputFile.maxElements) elements: not a manifest"
            parser.abortParsing()
            return
        }
        open.append(XMLTreeElement(name: elementName, attributes: attributes, line: parser.lineNumber, index: count - 1))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !open.isEmpty else { return }
        open[open.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !open.isEmpty else { return }
        open[open.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            if root == nil { root = element }
        } else {
            open[open.count - 1].children.append(element)
        }
    }
}
