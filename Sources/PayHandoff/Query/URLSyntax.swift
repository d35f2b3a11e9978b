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
        guard let first = scheme.utf8.first, ASCII.isAlpha(first) else { return false }
        return scheme.utf8.allSatisfy { byte in
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
        guard url.utf8.count <= maxURLLength else {
            throw PayHandoffError(.limitExceeded, field: field,
                "URL is longer than " + String(maxURLLength) + " bytes")
        }
        for byte in url.utf8 where byte <= 0x20 || byte == 0x7F {
            throw PayHandoffError(.malformedURL, field: field,
                byte == 0 ? "URL contains NUL" : "URL contains a space or control character")
        }
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
        return (scheme, url[url.index(after: colon)...])
    }
}
