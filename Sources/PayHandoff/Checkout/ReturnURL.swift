/// The `return_url` a checkout session redirects to when the 3-D Secure flow ends, validated,
/// and the rule for recognising callbacks to it.
///
/// Accepted: `http`/`https` URLs with a host (universal links / App Links, PWAs) and custom
/// schemes with RFC 3986 syntax (`fixapp://checkout-callback`, `com.fix.app://return`,
/// `com.fix.app:/return`). Refused: `javascript:`, `data:`, `file:`, `about:`, `blob:`,
/// `vbscript:`, `filesystem:`, `content:`, `intent:`; an http(s) URL without a host; user
/// information (`user@host`); a fragment (the gateway appends a query, a fragment would swallow
/// it); whitespace or control characters; more than 2 KiB.
///
/// A callback belongs to the return URL when scheme, host (both compared ignoring ASCII case,
/// as RFC 3986 defines them), port (http/https default ports normalized) and path (exactly, as
/// written) are equal — the redirect-URI rule of AppAuth. All of these, and `==` on two return
/// URLs, compare UTF-8 bytes (not `String`'s `==`, which is Unicode canonical equivalence).
public struct ReturnURL: Equatable, Sendable, CustomStringConvertible {
    /// The longest return URL accepted, in UTF-8 bytes.
    public static let maxLength = 2048
    /// The query parameter PayHandoff adds to carry its correlation nonce.
    public static let nonceParameter = "ph_nonce"
    static let refusedSchemes: [StaticString] = ["javascript", "data", "file", "about", "blob", "vbscript", "filesystem", "content", "intent"]

    /// The URL as the host registered it (without PayHandoff's nonce).
    public let text: String
    let parts: HierarchicalURL

    /// Whether this is a custom scheme (not http/https).
    public var isCustomScheme: Bool { !parts.isWeb }

    /// Validates a return URL.
    /// - Parameter text: The URL the host registered in the app (Info.plist / intent filter / app links).
    /// - Throws: `validation` naming `return_url` for anything listed in the type's documentation.
    public init(_ text: String) throws(PayHandoffError) {
        guard !text.isEmpty else { throw PayHandoffError(.validation, field: "return_url", "is required and must not be empty") }
        guard text.utf8.count <= ReturnURL.maxLength else {
            throw PayHandoffError(.validation, field: "return_url", "is longer than " + String(ReturnURL.maxLength) + " bytes")
        }
        if ASCII.hasSpaceOrControl(text) {
            throw PayHandoffError(.validation, field: "return_url", "must not contain whitespace or control characters")
        }
        let parts: HierarchicalURL
        do throws(PayHandoffError) {
            parts = try HierarchicalURL(text, field: "return_url")
        } catch {
            throw PayHandoffError(.validation, field: "return_url", error.message)
        }
        guard !ReturnURL.refusedSchemes.contains(where: { parts.hasScheme($0) }) else {
            throw PayHandoffError(.validation, field: "return_url", "the " + parts.scheme + ": scheme cannot be a return URL")
        }
        guard !parts.hasFragment else {
            throw PayHandoffError(.validation, field: "return_url", "must not have a fragment ('#'): the gateway appends a query")
        }
        if parts.isWeb {
            guard let host = parts.hostLength, host > 0 else {
                throw PayHandoffError(.validation, field: "return_url", "an http(s) return URL needs a host")
            }
        } else {
            guard parts.hostLength != nil || parts.pathIsAbsolute else {
                throw PayHandoffError(.validation, field: "return_url",
                    "a custom-scheme return URL must look like 'scheme://host/path' or 'scheme:/path'")
            }
        }
        if let query = parts.query {
            let items: [QueryItem]
            do throws(PayHandoffError) {
                items = try QueryDecoder.decode(query, plus: .space, caseInsensitiveKeys: false)
            } catch {
                throw PayHandoffError(.validation, field: "return_url", "has a bad query: " + error.message)
            }
            guard !items.contains(where: { $0.key.hasSameBytes(as: ReturnURL.nonceParameter) }) else {
                throw PayHandoffError(.validation, field: "return_url",
                    "must not already contain '" + ReturnURL.nonceParameter + "': PayHandoff adds it")
            }
        }
        self.text = text
        self.parts = parts
    }

    /// The URL to send to the gateway: this one with `ph_nonce=<nonce>` appended to its query
    /// (the host's own query parameters are kept, before it).
    /// - Parameter nonce: The correlation nonce (see ``makeNonce(using:)``).
    /// - Returns: The URL text.
    public func adding(nonce: String) -> String {
        let separator = parts.queryLength == nil ? "?" : (parts.queryLength == 0 || text.utf8.last == UInt8(ascii: "&") ? "" : "&")
        let encoded = QueryEncoder.percentEncode(nonce)
        // One string sized once: chained `+` made four intermediate strings per request.
        var url = text
        url.reserveCapacity(text.utf8.count + 1 + ReturnURL.nonceParameter.utf8.count + 1 + encoded.utf8.count)
        url.append(separator)
        url.append(ReturnURL.nonceParameter)
        url.append("=")
        url.append(encoded)
        return url
    }

    /// A fresh correlation nonce: 128 bits from `generator` as 32 lowercase hex digits. The core
    /// reads no entropy itself; hosts pass `SystemRandomNumberGenerator`, tests a seeded one.
    /// - Parameter generator: The random source.
    /// - Returns: The nonce.
    public static func makeNonce(using generator: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let word = generator.next()
            for shift in stride(from: 60, through: 0, by: -4) {
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0x0F
                bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks that the URL whose UTF-8 is `bytes`, split as `spans`, is addressed to this return
    /// URL (scheme, host, port, path; see ``HierarchicalURL/firstDifference(from:in:)``).
    /// - Parameters:
    ///   - spans: The URL's parts.
    ///   - bytes: The URL's UTF-8.
    /// - Throws: `callback_mismatch` naming the first part that differs (`scheme`, `host`, `port`, `path`).
    func checkAddressed(_ spans: HierarchicalURL.Spans, in bytes: UnsafeBufferPointer<UInt8>) throws(PayHandoffError) {
        if let part = parts.firstDifference(from: spans, in: bytes) {
            throw PayHandoffError(.callbackMismatch, field: part, "the callback's " + part + " is not the return URL's")
        }
    }

    /// Where the parts of `bytes`, a URL the OS handed the app, are, once it is known to be
    /// addressed to this return URL (``checkAddressed(_:in:)``).
    ///
    /// A URL that is this one's exact text followed by `?`, `#` or nothing is addressed to it by
    /// construction — the text passed every check and its parts are this URL's — so it is not
    /// split and compared again. (Gateways echo the registered URL as it was sent; any other
    /// spelling, e.g. an uppercase scheme, takes the full way.) On that way the query runs to the
    /// end of the URL, fragment included: the caller's query scan stops at the first `#`
    /// (``QueryDecoder/scan(_:plus:caseInsensitiveKeys:endsAtHash:knownKey:_:)``).
    /// - Parameters:
    ///   - bytes: The URL's UTF-8.
    ///   - field: The field to name in errors.
    /// - Returns: Where its parts are.
    /// - Throws: `malformed_url` for a bad URL; `callback_mismatch` as ``checkAddressed(_:in:)``.
    func addressedSpans(in bytes: UnsafeBufferPointer<UInt8>, field: String) throws(PayHandoffError) -> HierarchicalURL.Spans {
        let length = text.utf8.count
        if parts.queryLength == nil, length <= bytes.count,
           length == bytes.count || bytes[length] == UInt8(ascii: "?") || bytes[length] == UInt8(ascii: "#"),
           text.hasSameBytes(as: UnsafeBufferPointer(rebasing: bytes[..<length])) {
            var spans = parts.spansOfText(count: length)
            if length < bytes.count {
                let rest = (length + 1)..<bytes.count
                if bytes[length] == UInt8(ascii: "?") { spans.query = rest } else { spans.fragment = rest }
            }
            return spans
        }
        let spans = try HierarchicalURL.split(bytes, field: field)
        try checkAddressed(spans, in: bytes)
        return spans
    }

    /// The URL text.
    public var description: String { text }

    /// Equal when the texts have the same UTF-8 bytes (the parts follow from the text).
    public static func == (lhs: ReturnURL, rhs: ReturnURL) -> Bool {
        lhs.text.hasSameBytes(as: rhs.text)
    }
}
