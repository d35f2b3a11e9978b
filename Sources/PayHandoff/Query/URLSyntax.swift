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
        let allowed = schemeBytes  // once, not a lazy-global check per byte
        for byte in scheme where !allowed.contains(byte) { return false }
        return true
    }

    private static let schemeBytes = ByteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")

    /// Checks size and characters of an incoming URL: at most ``maxURLLength`` bytes, no
    /// ASCII control characters, spaces or DEL (a URL the OS hands over never has them raw).
    /// - Parameters:
    ///   - url: The URL text.
    ///   - field: The field to name in errors.
    /// - Throws: `limit_exceeded` when too long, `malformed_url` for a forbidden character.
    static func checkIncoming(_ url: String, field: String? = nil) throws(PayHandoffError) {
        let outcome = url.withUTF8Buffer { bytes -> Result<Void, PayHandoffError> in
            do throws(PayHandoffError) {
                _ = try checkIncoming(bytes, field: field)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// ``checkIncoming(_:field:)`` over the URL's UTF-8.
    /// - Returns: Where the first `#` is, if any (found in the same pass).
    @discardableResult
    static func checkIncoming(_ bytes: UnsafeBufferPointer<UInt8>, field: String? = nil) throws(PayHandoffError) -> Int? {
        try checkLength(bytes, field: field)
        let (forbidden, hash) = ByteScan.firstControlOrSpace(in: bytes)
        if let forbidden {
            throw PayHandoffError(.malformedURL, field: field,
                forbidden == 0 ? "URL contains NUL" : "URL contains a space or control character")
        }
        return hash
    }

    /// The size part of ``checkIncoming(_:field:)``.
    static func checkLength(_ bytes: UnsafeBufferPointer<UInt8>, field: String? = nil) throws(PayHandoffError) {
        guard bytes.count <= maxURLLength else {
            throw PayHandoffError(.limitExceeded, field: field,
                "URL is longer than " + String(maxURLLength) + " bytes")
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
        let outcome = url.withUTF8Buffer { bytes -> Result<Int, PayHandoffError> in
            do throws(PayHandoffError) { return .success(try schemeEnd(bytes, field: field)) } catch { return .failure(error) }
        }
        let colon = url.utf8.index(url.utf8.startIndex, offsetBy: try outcome.get())
        return (url[..<colon], url[url.utf8.index(after: colon)...])  // by bytes: a mark after ':' is not skipped
    }
}

/// A hierarchical URL split per RFC 3986 §3 without any normalization beyond what the
/// comparison rules need: `scheme://host:port/path?query#fragment` or `scheme:/path?query`.
/// Used for return URLs and checkout callbacks (Billpocket answers are not hierarchical URLs).
/// Equality is byte equality of the parts.
///
/// Every part lives in one byte array (scheme and host lowercased, then path, query,
/// fragment): a return URL is copied with every checkout request and compared with every
/// callback, and one buffer is one reference to count instead of six.
struct HierarchicalURL: Equatable, Sendable {
    /// Scheme, host, path, query and fragment bytes one after the other.
    private var bytes: [UInt8]
    private var schemeCount: Int
    /// `-1` when the URL has no authority.
    private var hostCount: Int
    private var pathCount: Int
    /// `-1` when there is no `?`.
    private var queryCount: Int
    /// `-1` when there is no `#`.
    private var fragmentCount: Int
    /// The port, when written; http/https default ports are removed.
    private(set) var port: Int?
    /// Whether the scheme is http or https.
    private(set) var isWeb: Bool
    /// Where the path starts in the text this URL was split from (see ``spansOfText(count:)``).
    private(set) var textPathStart: Int
    /// Whether the path was empty as written (an http(s) one is held as `/`).
    private var writtenPathWasEmpty: Bool

    /// The scheme, lowercased (schemes are case-insensitive).
    var scheme: String { text(0, schemeCount)! }
    /// The query without `?`, if there is a `?`.
    var query: Substring? { text(pathStart + pathCount, queryCount).map { Substring($0) } }

    /// The host, lowercased, `nil` without an authority.
    var host: String? { text(schemeCount, hostCount) }
    /// The host's length in bytes, `nil` without an authority (no string made).
    var hostLength: Int? { hostCount < 0 ? nil : hostCount }
    /// The query's length in bytes, `nil` without a `?`.
    var queryLength: Int? { queryCount < 0 ? nil : queryCount }
    /// Whether there is a `#`.
    var hasFragment: Bool { fragmentCount >= 0 }
    /// Whether the path starts with `/`.
    var pathIsAbsolute: Bool { pathCount > 0 && bytes[pathStart] == UInt8(ascii: "/") }

    /// Whether the scheme is `name` (lowercase).
    /// - Parameter name: A lowercase scheme.
    /// - Returns: `true` when it is this URL's scheme.
    func hasScheme(_ name: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { ASCII.equalBytes(UnsafeBufferPointer(rebasing: $0[..<schemeCount]), name) }
    }

    private var pathStart: Int { schemeCount + max(hostCount, 0) }

    private func text(_ start: Int, _ count: Int) -> String? {
        count < 0 ? nil : String(decoding: bytes[start..<(start + count)], as: UTF8.self)
    }

    /// Where the parts of a URL are in its UTF-8, before any string is made: what
    /// ``split(_:field:)`` finds, compared in place for callbacks (``firstDifference(from:in:)``).
    struct Spans {
        var scheme: Range<Int>
        /// When the URL has an authority.
        var host: Range<Int>?
        /// Normalized as ``HierarchicalURL/port``.
        var port: Int?
        /// As written; may be empty (an http(s) URL's empty path reads as `/`).
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?
        var isWeb: Bool
        /// Set once the URL is known to be addressed to a return URL: where the nonce PayHandoff
        /// put into the path (``ReturnURL/adding(nonce:)``) is, when the URL carries one.
        var nonce: Range<Int>? = nil
    }

    /// Splits `text`.
    /// - Parameters:
    ///   - text: The URL (already checked by ``URLSyntax/checkIncoming(_:field:)`` or equivalent).
    ///   - field: The field to name in errors.
    /// - Throws: `malformed_url` for a bad scheme, userinfo, port or host character.
    init(_ text: String, field: String) throws(PayHandoffError) {
        var found: Spans? = nil
        var all: [UInt8] = []
        let failure = text.withUTF8Buffer { bytes -> PayHandoffError? in
            do throws(PayHandoffError) {
                let spans = try HierarchicalURL.split(bytes, field: field)
                all.reserveCapacity(bytes.count + 1)
                for index in spans.scheme { all.append(ASCII.lowercased(bytes[index])) }
                for index in spans.host ?? 0..<0 { all.append(ASCII.lowercased(bytes[index])) }
                if spans.path.isEmpty && spans.isWeb {
                    all.append(UInt8(ascii: "/"))
                } else {
                    all.append(contentsOf: bytes[spans.path])
                }
                if let query = spans.query { all.append(contentsOf: bytes[query]) }
                if let fragment = spans.fragment { all.append(contentsOf: bytes[fragment]) }
                found = spans
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        let spans = found!
        bytes = all
        schemeCount = spans.scheme.count
        hostCount = spans.host?.count ?? -1
        pathCount = spans.path.isEmpty && spans.isWeb ? 1 : spans.path.count
        queryCount = spans.query?.count ?? -1
        fragmentCount = spans.fragment?.count ?? -1
        port = spans.port
        isWeb = spans.isWeb
        textPathStart = spans.path.lowerBound
        writtenPathWasEmpty = spans.path.isEmpty
    }

    /// Where scheme, host, port and path are in the text this URL was split from, that text being
    /// `count` bytes with no query or fragment; query and fragment are left `nil`. (A return URL
    /// copied into every checkout request keeps one offset for this, not a whole ``Spans``.)
    func spansOfText(count: Int) -> Spans {
        Spans(scheme: 0..<schemeCount, host: hostCount < 0 ? nil : (schemeCount + 3)..<(schemeCount + 3 + hostCount),
              port: port, path: textPathStart..<count, query: nil, fragment: nil, isWeb: isWeb)
    }

    /// `body` over the parts of `text` as byte ranges, for checks that need no strings (an
    /// origin's or a base URL's shape).
    /// - Parameters:
    ///   - text: The URL.
    ///   - field: The field to name in errors.
    ///   - body: Reads the parts.
    /// - Returns: What `body` returns.
    /// - Throws: As ``init(_:field:)``.
    static func inspect<R>(_ text: String, field: String,
                           _ body: (Spans, UnsafeBufferPointer<UInt8>) -> R) throws(PayHandoffError) -> R {
        var result: R? = nil
        let failure = text.withUTF8Buffer { bytes -> PayHandoffError? in
            do throws(PayHandoffError) {
                result = body(try split(bytes, field: field), bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return result!
    }

    /// Byte equality of every part.
    static func == (a: HierarchicalURL, b: HierarchicalURL) -> Bool {
        a.schemeCount == b.schemeCount && a.hostCount == b.hostCount && a.pathCount == b.pathCount
            && a.writtenPathWasEmpty == b.writtenPathWasEmpty
            && a.queryCount == b.queryCount && a.fragmentCount == b.fragmentCount && a.port == b.port
            && a.bytes == b.bytes
    }

    /// The parts of the URL in `bytes`, the one splitting rule.
    /// - Parameters:
    ///   - bytes: The URL's UTF-8.
    ///   - firstHash: Where the first `#` is (`.some(nil)`: there is none), when a scan already
    ///     found it (``URLSyntax/checkIncoming(_:field:)`` does).
    ///   - field: The field to name in errors.
    /// - Returns: Where each part is.
    /// - Throws: `malformed_url` for a bad scheme, userinfo, port or host character.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, field: String) throws(PayHandoffError) -> Spans {
        let colon = try URLSyntax.schemeEnd(bytes, field: field)
        let scheme = 0..<colon
        let (restEnd, query, fragment) = tail(of: bytes, from: colon + 1)
        let isWeb = (colon == 4 && ASCII.equalFoldingCase(UnsafeBufferPointer(rebasing: bytes[..<4]), lowercase: "http"))
            || (colon == 5 && ASCII.equalFoldingCase(UnsafeBufferPointer(rebasing: bytes[..<5]), lowercase: "https"))
        var host: Range<Int>? = nil
        var port: Int? = nil
        var path = (colon + 1)..<restEnd
        if restEnd - (colon + 1) >= 2, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
            (host, port, path) = try splitAuthority(bytes, from: colon + 3, to: restEnd, field: field)
        }
        if isWeb, let written = port, (colon == 4 && written == 80) || (colon == 5 && written == 443) { port = nil }
        return Spans(scheme: scheme, host: host, port: port, path: path, query: query, fragment: fragment, isWeb: isWeb)
    }

    /// Query and fragment of `bytes` from the first `?` or `#` at or after `start` (the scheme
    /// has neither): a `#` first means no query (a later `?` is the fragment's); a `?` first
    /// starts the query, up to the next `#`.
    /// - Returns: Where the part before them ends, and where they are.
    @inline(__always)  // a tuple returned through memory stalled its reader (a store-forwarding miss)
    static func tail(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (restEnd: Int, query: Range<Int>?, fragment: Range<Int>?) {
        let end = bytes.count
        let mark = ByteScan.firstIndex(of: UInt8(ascii: "?"), or: UInt8(ascii: "#"), in: bytes, from: start, to: end)
        guard mark < end else { return (end, nil, nil) }
        var hash = mark
        var query: Range<Int>? = nil
        if bytes[mark] == UInt8(ascii: "?") {
            hash = ByteScan.firstIndex(of: UInt8(ascii: "#"), in: bytes, from: mark + 1, to: end)
            query = (mark + 1)..<hash
        }
        return (mark, query, hash < end ? (hash + 1)..<end : nil)
    }

    /// Host, port and path of `bytes[start..<end]`, the text after `//`: the authority runs to
    /// the first `/`. Separators are found a word at a time and one byte pass looks for a byte a
    /// host cannot have (an `@` ends it); the checks then run in their documented order
    /// (userinfo, IPv6 brackets, host characters, port).
    @inline(__always)  // one caller; its tuple returned through memory stalled split (a store-forwarding miss)
    private static func splitAuthority(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                       field: String) throws(PayHandoffError) -> (Range<Int>, Int?, Range<Int>) {
        let authorityEnd = ByteScan.firstIndex(of: UInt8(ascii: "/"), in: bytes, from: start, to: end)
        var at = false
        var firstBadHostByte: Int? = nil
        let hostSet = hostBytes  // once, not a lazy-global check per byte
        for index in start..<authorityEnd where !hostSet.contains(bytes[index]) {
            if bytes[index] == UInt8(ascii: "@") {
                at = true
                break
            }
            if firstBadHostByte == nil { firstBadHostByte = index }
        }
        let authority = start..<authorityEnd
        guard !at else {
            throw PayHandoffError(.malformedURL, field: field, "URL must not contain user information ('@' before the host)")
        }
        var host = authority
        var portPart: Range<Int>? = nil
        if !authority.isEmpty, bytes[authority.lowerBound] == UInt8(ascii: "[") {
            let close = ByteScan.firstIndex(of: UInt8(ascii: "]"), in: bytes, from: start, to: authorityEnd)
            guard close < authorityEnd else {
                throw PayHandoffError(.malformedURL, field: field, "URL has an unterminated IPv6 host")
            }
            host = authority.lowerBound..<(close + 1)
            if close + 1 != authority.upperBound {
                guard bytes[close + 1] == UInt8(ascii: ":") else {
                    throw PayHandoffError(.malformedURL, field: field, "URL has text after its IPv6 host")
                }
                portPart = (close + 2)..<authority.upperBound
            }
        } else if case let colon = ByteScan.firstIndex(of: UInt8(ascii: ":"), in: bytes, from: start, to: authorityEnd), colon < authorityEnd {
            host = authority.lowerBound..<colon
            portPart = (colon + 1)..<authority.upperBound
        }
        if let bad = firstBadHostByte, bad < host.upperBound {
            throw PayHandoffError(.malformedURL, field: field, "URL host has a character a host cannot have")
        }
        var port: Int? = nil
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ ASCII.isDigit(bytes[$0]) }) else {
                throw PayHandoffError(.malformedURL, field: field, "URL port must be a number from 0 to 65535")
            }
            let value = portPart.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) }
            guard value <= 65535 else {
                throw PayHandoffError(.malformedURL, field: field, "URL port must be a number from 0 to 65535")
            }
            port = value
        }
        return (host, port, authorityEnd..<end)
    }

    /// How a URL compares with a return URL (``compare(_:in:nonceSegment:)``).
    enum Comparison {
        /// It differs in this part (`scheme`, `host`, `port`, `path`).
        case differs(String)
        /// Scheme, host and port are the same, and the path is the same or is it followed by the
        /// nonce segment (then `nonce` is where the nonce is).
        case same(nonce: Range<Int>?)
    }

    /// Compares the URL whose UTF-8 is `bytes`, split as `spans`, with this one in place, no
    /// string made: scheme and host ignoring ASCII case (this URL's are lowercase), port
    /// normalized, path exactly — or this path followed by `nonceSegment` (`/ph_` or `ph_`) and
    /// a non-empty nonce without `/`.
    func compare(_ spans: Spans, in bytes: UnsafeBufferPointer<UInt8>, nonceSegment: StaticString) -> Comparison {
        if let part = firstDifference(from: spans, in: bytes, pathToo: false) { return .differs(part) }
        if firstDifference(from: spans, in: bytes, pathToo: true) == nil { return .same(nonce: nil) }
        // The path must be this one's, then the segment, then the nonce up to the path's end.
        let path = spans.path
        let prefix = pathCount + nonceSegment.utf8CodeUnitCount
        guard path.count > prefix else { return .differs("path") }
        let matches = self.bytes.withUnsafeBufferPointer { expected -> Bool in
            guard pathCount == 0 || memcmpBytes(bytes.baseAddress! + path.lowerBound, expected.baseAddress! + pathStart, pathCount) else {
                return false
            }
            return ASCII.equalBytes(UnsafeBufferPointer(rebasing: bytes[(path.lowerBound + pathCount)..<(path.lowerBound + prefix)]), nonceSegment)
        }
        let segment = (path.lowerBound + prefix)..<path.upperBound
        guard matches, ByteScan.firstIndex(of: UInt8(ascii: "/"), in: bytes, from: segment.lowerBound, to: segment.upperBound) == segment.upperBound else {
            return .differs("path")
        }
        return .same(nonce: spans.query == nil ? HierarchicalURL.nonce(in: segment, of: bytes).nonce : segment)
    }

    /// The nonce in the nonce segment `segment` of a URL without a query, and the query a
    /// gateway appended to it with `&`. A careful gateway adds `?status=…` to a return URL
    /// without a query; a blind one adds `&status=…` (`…/ph_<nonce>&status=completed`). A nonce
    /// is made of unreserved characters only, so the segment's first `&` ends it and what follows
    /// is the gateway's query: the verified callback is read, not refused.
    /// - Parameters:
    ///   - segment: The bytes after `ph_`, up to the end of the path.
    ///   - bytes: The URL's UTF-8.
    /// - Returns: The nonce, and the query after the `&` when there is one.
    static func nonce(in segment: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> (nonce: Range<Int>, query: Range<Int>?) {
        let ampersand = ByteScan.firstIndex(of: UInt8(ascii: "&"), in: bytes, from: segment.lowerBound, to: segment.upperBound)
        guard ampersand < segment.upperBound else { return (segment, nil) }
        return (segment.lowerBound..<ampersand, (ampersand + 1)..<segment.upperBound)
    }

    /// Whether this URL's path, as held (an http(s) empty path as `/`), ends with `/`.
    var pathEndsWithSlash: Bool { pathCount > 0 && bytes[pathStart + pathCount - 1] == UInt8(ascii: "/") }

    /// Whether the last segment of the path starts with `prefix`.
    func lastPathSegmentStarts(with prefix: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            let path = UnsafeBufferPointer(rebasing: all[pathStart..<(pathStart + pathCount)])
            var start = path.count
            while start > 0, path[start - 1] != UInt8(ascii: "/") { start -= 1 }
            let segment = UnsafeBufferPointer(rebasing: path[start...])
            return segment.count >= prefix.utf8CodeUnitCount
                && ASCII.equalBytes(UnsafeBufferPointer(rebasing: segment[..<prefix.utf8CodeUnitCount]), prefix)
        }
    }

    /// Whether the host holds one of `=` or `&`.
    var hostHasQuerySeparators: Bool {
        guard hostCount > 0 else { return false }
        return bytes[schemeCount..<(schemeCount + hostCount)].contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "&") }
    }

    /// Whether the path as written (not normalized) ends with `/`.
    var writtenPathEndsWithSlash: Bool { !writtenPathWasEmpty && pathEndsWithSlash }

    /// Where the path, as written, ends in the text this URL was split from.
    var textPathEnd: Int { textPathStart + (pathCount == 1 && isWeb && writtenPathWasEmpty ? 0 : pathCount) }

    /// The first part (`scheme`, `host`, `port`, and `path` when `pathToo`) in which the URL whose
    /// UTF-8 is `bytes`, split as `spans`, differs from this one, or `nil` — compared in place, no
    /// string made: scheme and host ignoring ASCII case (this URL's are lowercase), port normalized,
    /// path exactly.
    func firstDifference(from spans: Spans, in bytes: UnsafeBufferPointer<UInt8>, pathToo: Bool = true) -> String? {
        self.bytes.withUnsafeBufferPointer { expected -> String? in
            func same(_ range: Range<Int>, _ offset: Int, _ count: Int, foldingCase: Bool) -> Bool {
                guard range.count == count else { return false }
                let given = UnsafeBufferPointer(rebasing: bytes[range])
                let wanted = UnsafeBufferPointer(rebasing: expected[offset..<(offset + count)])
                return foldingCase ? ASCII.equalFoldingCase(given, wanted)
                    : count == 0 || memcmpBytes(given.baseAddress!, wanted.baseAddress!, count)
            }
            if !same(spans.scheme, 0, schemeCount, foldingCase: true) { return "scheme" }
            switch spans.host {
            case nil where hostCount < 0: break
            case let given? where hostCount >= 0 && same(given, schemeCount, hostCount, foldingCase: true): break
            default: return "host"
            }
            if spans.port != port { return "port" }
            if !pathToo { return nil }
            // An http(s) URL's empty path reads as "/", which this URL holds as written.
            let pathMatches = spans.path.isEmpty && spans.isWeb
                ? pathCount == 1 && expected[pathStart] == UInt8(ascii: "/")
                : same(spans.path, pathStart, pathCount, foldingCase: false)
            return pathMatches ? nil : "path"
        }
    }

    /// unreserved / pct-encoded / sub-delims (RFC 3986 reg-name), plus `[`, `]`, `:` for IPv6 literals.
    private static let hostBytes = ByteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=[]:")
}
