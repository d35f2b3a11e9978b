/// The URL syntax rules shared by both hand-offs: size and character limits for any URL the
/// OS hands the app, RFC 3986 schemes, and the split of `scheme:` from the rest.
///
/// The core does not use a general URL parser: Billpocket answers are not valid URLs
/// (`myapp://result=aprobada&reference=a/b@c` puts the payload where the authority goes), and
/// the checkout callback rules need exact, documented behaviour on every platform.
public enum URLSyntax {
    /// The longest URL the core accepts, in UTF-8 bytes (8 KiB). Real callbacks and POS answers
    /// are well under 2 KiB; anything longer is refused before it is parsed.
    public static let maxURLLength = 8192

    /// Whether `scheme` is an RFC 3986 scheme: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    /// - Parameter scheme: The scheme without `:`.
    /// - Returns: `true` when valid.
    public static func isValidScheme(_ scheme: Substring) -> Bool {
        isValidScheme(scheme.utf8)
    }

    static func isValidScheme<Bytes: Collection<UInt8>>(_ scheme: Bytes) -> Bool {
        guard let first = scheme.first, ASCII.isAlpha(first) else { return false }
        return scheme.allSatisfy { byte in
            ASCII.isAlpha(byte) || ASCII.isDigit(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// Checks size and characters of an incoming URL: at most ``maxURLLength`` bytes, no
    /// ASCII control characters, spaces or DEL (a URL the OS hands over never has them raw).
    /// - Parameters:
    ///   - url: The URL text.
    ///   - field: The field to name in errors.
    /// - Throws: `limit_exceeded` when too long, `malformed_url` for a forbidden character.
    static func checkIncoming(_ url: String, field: String? = nil) throws(PayHandoffError) {
        var url = url
        let outcome = url.withUTF8 { bytes -> Result<Void, PayHandoffError> in
            do throws(PayHandoffError) {
                return .success(try checkIncoming(bytes, field: field))
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// ``checkIncoming(_:field:)`` over the URL's UTF-8.
    static func checkIncoming(_ bytes: UnsafeBufferPointer<UInt8>, field: String? = nil) throws(PayHandoffError) {
        guard bytes.count <= maxURLLength else {
            throw PayHandoffError(.limitExceeded, field: field,
                "URL is longer than " + String(maxURLLength) + " bytes")
        }
        if let byte = ByteScan.firstControlOrSpace(in: bytes) {
            throw PayHandoffError(.malformedURL, field: field,
                byte == 0 ? "URL contains NUL" : "URL contains a space or control character")
        }
    }

    /// The offset of the `:` that ends a URL's scheme.
    /// - Parameters:
    ///   - bytes: The URL's UTF-8.
    ///   - field: The field to name in errors.
    /// - Returns: The offset of the first `:` (the scheme is everything before it).
    /// - Throws: `malformed_url` when there is no valid scheme.
    static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>, field: String? = nil) throws(PayHandoffError) -> Int {
        let colon = ByteScan.firstIndex(of: UInt8(ascii: ":"), in: bytes, from: 0, to: bytes.count)
        guard colon < bytes.count else {
            throw PayHandoffError(.malformedURL, field: field, "URL has no scheme")
        }
        guard isValidScheme(UnsafeBufferPointer(rebasing: bytes[..<colon])) else {
            throw PayHandoffError(.malformedURL, field: field, "URL scheme is not a valid RFC 3986 scheme")
        }
        return colon
    }

    /// Splits `scheme:rest` at the first `:`.
    /// - Parameters:
    ///   - url: The URL text.
    ///   - field: The field to name in errors.
    /// - Returns: The scheme as written (case kept) and everything after the `:`.
    /// - Throws: `malformed_url` when there is no valid scheme.
    static func splitScheme(_ url: String, field: String? = nil) throws(PayHandoffError) -> (scheme: Substring, rest: Substring) {
        guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            throw PayHandoffError(.malformedURL, field: field, "URL has no scheme")
        }
        let scheme = url[url.startIndex..<colon]
        guard isValidScheme(scheme) else {
            throw PayHandoffError(.malformedURL, field: field, "URL scheme is not a valid RFC 3986 scheme")
        }
        return (scheme, url[url.utf8.index(after: colon)...])  // by bytes: a mark after ':' is not skipped
    }
}

/// A hierarchical URL split per RFC 3986 §3 without any normalization beyond what the
/// comparison rules need: `scheme://host:port/path?query#fragment` or `scheme:/path?query`.
/// Used for return URLs and checkout callbacks (Billpocket answers are not hierarchical URLs).
struct HierarchicalURL: Equatable, Sendable {
    /// The scheme, lowercased (schemes are case-insensitive).
    var scheme: String
    /// The host, lowercased (hosts are case-insensitive), when the URL has an authority.
    var host: String?
    /// The port, when written; http/https default ports are removed.
    var port: Int?
    /// The path as written (not percent-decoded); `/` for an http(s) URL with an empty path.
    var path: String
    /// The query without `?`, if there is a `?`.
    var query: Substring?
    /// The fragment without `#`, if there is a `#`.
    var fragment: Substring?

    /// Whether the scheme is http or https.
    var isWeb: Bool { scheme == "http" || scheme == "https" }

    /// Splits `text`.
    /// - Parameters:
    ///   - text: The URL (already checked by ``URLSyntax/checkIncoming(_:field:)`` or equivalent).
    ///   - field: The field to name in errors.
    /// - Throws: `malformed_url` for a bad scheme, userinfo, port or host character.
    init(_ text: String, field: String) throws(PayHandoffError) {
        let (rawScheme, afterScheme) = try URLSyntax.splitScheme(text, field: field)
        scheme = ASCII.lowercased(String(rawScheme))
        var rest = afterScheme
        if let hash = ASCII.firstIndex(of: UInt8(ascii: "#"), in: rest) {
            fragment = rest[rest.utf8.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = ASCII.firstIndex(of: UInt8(ascii: "?"), in: rest) {
            query = rest[rest.utf8.index(after: question)...]
            rest = rest[..<question]
        }
        if rest.utf8.starts(with: "//".utf8) {
            let afterSlashes = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
            let authorityEnd = ASCII.firstIndex(of: UInt8(ascii: "/"), in: afterSlashes) ?? afterSlashes.endIndex
            let authority = afterSlashes[..<authorityEnd]
            path = String(afterSlashes[authorityEnd...])
            (host, port) = try HierarchicalURL.splitAuthority(authority, field: field)
        } else {
            path = String(rest)
        }
        if isWeb {
            if path.isEmpty { path = "/" }
            if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { port = nil }
        }
    }

    private static func splitAuthority(_ authority: Substring, field: String) throws(PayHandoffError) -> (String, Int?) {
        guard !ASCII.contains(authority, UInt8(ascii: "@")) else {
            throw PayHandoffError(.malformedURL, field: field, "URL must not contain user information ('@' before the host)")
        }
        var hostPart = authority
        var portPart: Substring? = nil
        if authority.utf8.first == UInt8(ascii: "[") {
            guard let close = authority.utf8.firstIndex(of: UInt8(ascii: "]")) else {
                throw PayHandoffError(.malformedURL, field: field, "URL has an unterminated IPv6 host")
            }
            let afterClose = authority.utf8.index(after: close)
            hostPart = authority[..<afterClose]
            if afterClose != authority.endIndex {
                guard authority.utf8[afterClose] == UInt8(ascii: ":") else {
                    throw PayHandoffError(.malformedURL, field: field, "URL has text after its IPv6 host")
                }
                portPart = authority[authority.utf8.index(after: afterClose)...]
            }
        } else if let colon = authority.utf8.firstIndex(of: UInt8(ascii: ":")) {
            hostPart = authority[..<colon]
            portPart = authority[authority.utf8.index(after: colon)...]
        }
        for byte in hostPart.utf8 where !isHostByte(byte) {
            throw PayHandoffError(.malformedURL, field: field, "URL host has a character a host cannot have")
        }
        var port: Int? = nil
        if let portPart {
            guard !portPart.isEmpty, portPart.utf8.count <= 5, ASCII.isAllDigits(String(portPart)),
                  let value = Int(portPart), value <= 65535 else {
                throw PayHandoffError(.malformedURL, field: field, "URL port must be a number from 0 to 65535")
            }
            port = value
        }
        return (ASCII.lowercased(String(hostPart)), port)
    }

    /// unreserved / pct-encoded / sub-delims (RFC 3986 reg-name), plus `[`, `]`, `:` for IPv6 literals.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        if QueryEncoder.isUnreserved(byte) { return true }
        switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
             UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }
}
