/// The `return_url` a checkout session redirects to when the 3-D Secure flow ends, validated,
/// and the rule for recognising callbacks to it.
///
/// Accepted: `http`/`https` URLs with a host (universal links / App Links, PWAs) and custom
/// schemes with RFC 3986 syntax (`fixapp://checkout-callback`, `com.fix.app://return`,
/// `com.fix.app:/return`). Refused: `javascript:`, `data:`, `file:`, `about:`, `blob:`,
/// `vbscript:`, `filesystem:`, `content:`, `intent:`; an http(s) URL without a host; user
/// information (`user@host`); a fragment (the gateway appends a query, a fragment would swallow
/// it); whitespace or control characters; more than 2 KiB; a custom scheme with an empty host
/// (`myapp://`) or a host holding `=` or `&` — such a URL would also address the Billpocket
/// answers the app receives on that scheme (`myapp://result=…`); a last path segment starting
/// with `ph_` (that is the URL PayHandoff sent, not the registered one).
///
/// **Where the nonce rides.** PayHandoff sends the gateway this URL with one more path segment,
/// `ph_<nonce>` (``adding(nonce:)``): `fixapp://checkout-callback/ph_…`, query kept after it. A
/// path segment survives every way a gateway adds its parameters — appending `?status=…` or
/// `&status=…` (even to a URL without a query: `…/ph_<nonce>&status=…`, read because a nonce has
/// no `&`), appending `?` blindly to a URL that already has a query, or replacing the query —
/// where a query parameter is lost or mangled by two of them. Custom-scheme intent filters and
/// Info.plist schemes match it unchanged; https App Links / Universal Links must cover the
/// return path's sub-paths (`pathPrefix="/checkout-callback/"`, AASA `"/checkout-callback/*"`).
///
/// A callback belongs to the return URL when scheme, host (both compared ignoring ASCII case,
/// as RFC 3986 defines them), port (http/https default ports normalized) and path (exactly, as
/// written — the redirect-URI rule of AppAuth — or followed by the nonce segment) are equal.
/// All of these, and `==` on two return URLs, compare UTF-8 bytes (not `String`'s `==`, which
/// is Unicode canonical equivalence).
public struct ReturnURL: Equatable, Sendable, CustomStringConvertible {
    /// The longest return URL accepted, in UTF-8 bytes.
    public static let maxLength = 2048
    /// What the path segment carrying the nonce starts with.
    public static let nonceSegmentPrefix = "ph_"
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
            guard (parts.hostLength ?? 0) > 0 || (parts.hostLength == nil && parts.pathIsAbsolute) else {
                throw PayHandoffError(.validation, field: "return_url",
                    "a custom-scheme return URL must look like 'scheme://host/path' or 'scheme:/path' (with an empty host it would also address Billpocket answers sent to 'scheme://')")
            }
            guard !parts.hostHasQuerySeparators else {
                throw PayHandoffError(.validation, field: "return_url",
                    "a custom-scheme host must not contain '=' or '&': it would read like a Billpocket answer ('scheme://result=…')")
            }
        }
        guard !parts.lastPathSegmentStarts(with: "ph_") else {
            throw PayHandoffError(.validation, field: "return_url",
                "must be the registered URL: a last path segment starting with 'ph_' is the nonce PayHandoff adds")
        }
        if let query = parts.query {
            do throws(PayHandoffError) {
                _ = try QueryDecoder.decode(query, plus: .space, caseInsensitiveKeys: false)
            } catch {
                throw PayHandoffError(.validation, field: "return_url", "has a bad query: " + error.message)
            }
        }
        self.text = text
        self.parts = parts
    }

    /// The URL to send to the gateway: this one with the path segment `ph_<nonce>` appended to
    /// its path (after a `/` unless the path already ends with one), the host's own query kept
    /// after it: `fixapp://checkout-callback/ph_<nonce>`, `https://shop.example/ph_<nonce>?src=app`.
    /// - Parameter nonce: The correlation nonce (``CorrelationSecret/make(using:)``; it is made of
    ///   unreserved characters, so it needs no escaping).
    /// - Returns: The URL text.
    public func adding(nonce: String) -> String {
        let pathEnd = parts.textPathEnd
        // One string sized once: chained `+` made intermediate strings per request.
        return text.withUTF8Buffer { bytes in
            var url = String()
            url.reserveCapacity(bytes.count + 4 + nonce.utf8.count)
            url.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<pathEnd]), as: UTF8.self))
            url.append(parts.writtenPathEndsWithSlash ? "ph_" : "/ph_")
            url.append(nonce)
            url.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[pathEnd...]), as: UTF8.self))
            return url
        }
    }

    /// Whether the URL whose UTF-8 is `bytes`, split as `spans`, is addressed to this return URL
    /// (scheme, host, port, path — or path and nonce segment); returns where its nonce is, if it
    /// carries one.
    /// - Parameters:
    ///   - spans: The URL's parts.
    ///   - bytes: The URL's UTF-8.
    /// - Returns: The nonce's bytes in `bytes`, or `nil` when the path is exactly the return URL's.
    /// - Throws: `callback_mismatch` naming the first part that differs (`scheme`, `host`, `port`, `path`).
    func checkAddressed(_ spans: HierarchicalURL.Spans, in bytes: UnsafeBufferPointer<UInt8>) throws(PayHandoffError) -> Range<Int>? {
        switch compare(spans, in: bytes) {
        case .differs(let part):
            throw PayHandoffError(.callbackMismatch, field: part, "the callback's " + part + " is not the return URL's")
        case .same(let nonce):
            return nonce
        }
    }

    /// ``checkAddressed(_:in:)`` as a value: how the URL compares with this return URL.
    func compare(_ spans: HierarchicalURL.Spans, in bytes: UnsafeBufferPointer<UInt8>) -> HierarchicalURL.Comparison {
        parts.compare(spans, in: bytes, nonceSegment: parts.pathEndsWithSlash ? "ph_" : "/ph_")
    }

    /// Where the parts of `bytes`, a URL the OS handed the app, are, once it is known to be
    /// addressed to this return URL (``checkAddressed(_:in:)``), the nonce segment included.
    ///
    /// A URL that is this one's exact text (no query of its own) followed by `?`, `#` or nothing,
    /// or by `/ph_` + nonce and then one of those, is addressed to it by construction — the text
    /// passed every check and its parts are this URL's — so it is not split and compared again.
    /// (Gateways echo the registered URL as it was sent; any other spelling, e.g. an uppercase
    /// scheme, takes the full way.) On that way the query runs to the end of the URL, fragment
    /// included: the caller's query scan stops at the first `#`
    /// (``QueryDecoder/scan(_:plus:caseInsensitiveKeys:endsAtHash:knownKey:_:)``).
    /// - Parameters:
    ///   - bytes: The URL's UTF-8.
    ///   - field: The field to name in errors.
    /// - Returns: Where its parts are.
    /// - Throws: `malformed_url` for a bad URL; `callback_mismatch` as ``checkAddressed(_:in:)``.
    func addressedSpans(in bytes: UnsafeBufferPointer<UInt8>, field: String) throws(PayHandoffError) -> HierarchicalURL.Spans {
        let length = text.utf8.count
        if parts.queryLength == nil, length <= bytes.count, text.hasSameBytes(as: UnsafeBufferPointer(rebasing: bytes[..<length])) {
            // Where the path ends: right here, or after the nonce segment.
            var pathEnd = length
            var nonce: Range<Int>? = nil
            let segment: StaticString = parts.writtenPathEndsWithSlash ? "ph_" : "/ph_"
            let segmentLength = segment.utf8CodeUnitCount
            var appended: Range<Int>? = nil  // a query a gateway appended with `&`
            if length + segmentLength < bytes.count,
               ASCII.equalBytes(UnsafeBufferPointer(rebasing: bytes[length..<(length + segmentLength)]), segment) {
                let start = length + segmentLength
                let end = ByteScan.firstIndex(of: UInt8(ascii: "?"), or: UInt8(ascii: "#"), in: bytes, from: start, to: bytes.count)
                if end > start, ByteScan.firstIndex(of: UInt8(ascii: "/"), in: bytes, from: start, to: end) == end {
                    pathEnd = end
                    nonce = start..<end
                    if end == bytes.count || bytes[end] == UInt8(ascii: "#") {
                        (nonce, appended) = HierarchicalURL.nonce(in: start..<end, of: bytes)
                    }
                }
            }
            if pathEnd == bytes.count || bytes[pathEnd] == UInt8(ascii: "?") || bytes[pathEnd] == UInt8(ascii: "#") {
                var spans = parts.spansOfText(count: nonce?.upperBound ?? pathEnd)
                spans.nonce = nonce
                spans.query = appended
                if pathEnd < bytes.count {
                    let rest = (pathEnd + 1)..<bytes.count
                    if bytes[pathEnd] == UInt8(ascii: "?") { spans.query = rest } else { spans.fragment = rest }
                }
                return spans
            }
        }
        var spans = try HierarchicalURL.split(bytes, field: field)
        spans.nonce = try checkAddressed(spans, in: bytes)
        if spans.query == nil, let nonce = spans.nonce, nonce.upperBound < spans.path.upperBound {
            // The nonce segment ended at a `&`: the rest of the path is the gateway's query.
            spans.query = (nonce.upperBound + 1)..<spans.path.upperBound
            spans.path = spans.path.lowerBound..<nonce.upperBound
        }
        return spans
    }

    /// The URL text.
    public var description: String { text }

    /// Equal when the texts have the same UTF-8 bytes (the parts follow from the text).
    public static func == (lhs: ReturnURL, rhs: ReturnURL) -> Bool {
        lhs.text.hasSameBytes(as: rhs.text)
    }
}
