/// An HTTP request as a value, for the host to send (the core does no I/O).
///
/// The `Authorization` header holds the API key; ``description`` and
/// ``json(revealingSecrets:)`` with `false` show it as `Bearer sk_…`.
///
/// Two requests are equal when their strings have the same UTF-8 bytes (not under `String`'s
/// `==`, which is Unicode canonical equivalence).
public struct HTTPRequest: Equatable, Sendable, CustomStringConvertible {
    /// One header.
    public struct Header: Equatable, Sendable {
        /// The header name.
        public var name: String
        /// The header value.
        public var value: String

        /// Equal when name and value have the same UTF-8 bytes.
        public static func == (lhs: Header, rhs: Header) -> Bool {
            lhs.name.hasSameBytes(as: rhs.name) && lhs.value.hasSameBytes(as: rhs.value)
        }
    }

    /// `POST`.
    public var method: String
    /// The full URL.
    public var url: String
    /// The headers in order.
    public var headers: [Header]
    /// The JSON body.
    public var body: JSONValue

    /// Equal when method, URL, headers and body are; strings compared by UTF-8 bytes.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method.hasSameBytes(as: rhs.method) && lhs.url.hasSameBytes(as: rhs.url) && lhs.headers == rhs.headers
            && lhs.body == rhs.body
    }

    /// `POST https://… {Authorization: Bearer sk_…, Content-Type: application/json}`, key redacted.
    public var description: String {
        var text = method + " " + url + " {"
        for (index, header) in redactedHeaders.enumerated() {
            text += (index == 0 ? "" : ", ") + header.name + ": " + header.value
        }
        return text + "}"
    }

    /// The request as a document: `{"method": "POST", "url": "…", "headers": [{"name": …, "value": …}], "body": {…}}`.
    /// - Parameter revealingSecrets: `true` to include the API key (to send the request);
    ///   `false` for anything shown or logged.
    /// - Returns: The document.
    public func json(revealingSecrets: Bool) -> JSONValue {
        let writer = JSONValueWriter()
        write(revealingSecrets: revealingSecrets, to: writer)
        return writer.document
    }

    /// Writes ``json(revealingSecrets:)`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameters:
    ///   - revealingSecrets: `true` to include the API key.
    ///   - writer: Where the document goes.
    @_spi(JSONText)
    public func write(revealingSecrets: Bool, to writer: JSONWriter) {
        let shown = revealingSecrets ? headers : redactedHeaders
        writer.beginObject()
        writer.member("method", string: method)
        writer.member("url", string: url)
        writer.beginArray("headers")
        for header in shown {
            writer.beginObject()
            writer.member("name", string: header.name)
            writer.member("value", string: header.value)
            writer.end()
        }
        writer.end()
        writer.member("body", body)
        writer.end()
    }

    var redactedHeaders: [Header] {
        headers.map { header in
            guard ASCII.equalFoldingCase(header.name, "Authorization") else { return header }
            return Header(name: header.name, value: HTTPRequest.redactBearer(header.value))
        }
    }

    /// `Bearer sk_test_abc` → `Bearer sk_…`: the key's type prefix up to its first `_`, at most
    /// 8 characters of it, never the key.
    static func redactBearer(_ value: String) -> String {
        let key = value.hasBytePrefix("Bearer ") ? value.utf8.dropFirst(7) : value.utf8[...]
        var prefix: [UInt8] = []
        for byte in key.prefix(8) {
            guard ASCII.isAlpha(byte) else {
                if byte == UInt8(ascii: "_") { prefix.append(byte) } else { prefix = [] }
                break
            }
            prefix.append(byte)
        }
        if prefix.last != UInt8(ascii: "_") { prefix = [] }
        return "Bearer " + String(decoding: prefix, as: UTF8.self) + "…"
    }
}
