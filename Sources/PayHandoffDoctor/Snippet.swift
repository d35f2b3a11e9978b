import Foundation

/// The lines doctor prints as fixes: manifest XML, plist XML and JSON, ready to paste.
enum Snippet {
    /// An intent filter that receives `link` and nothing else (for the POS answer: the scheme
    /// alone, since the POS app writes its answer where a host would be).
    static func intentFilter(for link: LinkTarget) -> String {
        var data = "<data android:scheme=\"\(xml(link.scheme))\""
        var comment = ""
        if link.role == .callback, let host = link.host {
            data += " android:host=\"\(xml(host))\""
            if let port = link.port { data += " android:port=\"\(port)\"" }
            if link.isWeb || !link.registeredPath.isEmpty {
                // A prefix, not an exact path: the core may add to the return URL's path.
                data += " android:pathPrefix=\"\(xml(link.registeredPath.isEmpty ? "/" : link.registeredPath))\""
                comment = "    <!-- a path prefix: it must cover what the core adds to the return URL's path -->\n"
            }
        } else if link.role == .posAnswer {
            comment = "    <!-- scheme only: the POS app writes its answer where a host would be -->\n"
        }
        data += " />"
        let open = link.isWeb ? "<intent-filter android:autoVerify=\"true\">" : "<intent-filter>"
        return """
        \(open)
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
        \(comment)    \(data)
        </intent-filter>
        """
    }

    /// A plist `<key>` with an array of strings, or only the strings when the key exists.
    static func plistStrings(key: String, _ values: [String], keyExists: Bool) -> String {
        let strings = values.map { "<string>\(xml($0))</string>" }
        if keyExists { return "inside the existing \(key) <array>:\n" + strings.map { "    " + $0 }.joined(separator: "\n") }
        return "<key>\(key)</key>\n<array>\n" + strings.map { "    " + $0 }.joined(separator: "\n") + "\n</array>"
    }

    /// The CFBundleURLTypes entry that registers `schemes`.
    static func urlType(_ schemes: [String], keyExists: Bool) -> String {
        let entry = """
        <dict>
            <key>CFBundleURLSchemes</key>
            <array>
        \(schemes.map { "        <string>\(xml($0))</string>" }.joined(separator: "\n"))
            </array>
        </dict>
        """
        if keyExists { return "inside the existing CFBundleURLTypes <array>:\n" + entry }
        return "<key>CFBundleURLTypes</key>\n<array>\n" + entry.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n</array>"
    }

    /// `value` (arrays, dictionaries, strings, booleans) as pretty JSON text with sorted keys,
    /// printed by Foundation.
    static func json(_ value: Any) -> String {
        // Foundation traps (rather than throws) on a top-level string or number: those are
        // written as fragments.
        guard JSONSerialization.isValidJSONObject(value) else { return JSONSourceMap.fragment(value) }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return ""
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Text escaped for an XML attribute value or element.
    static func xml(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
