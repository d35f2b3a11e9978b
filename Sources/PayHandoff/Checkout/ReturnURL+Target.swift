extension ReturnURL {
    /// What an OS-captured return channel's launch call needs to hand the return straight back to
    /// the app that opened the browser (issue 38): the `return_to` of an `open_browser` effect.
    ///
    /// - Android Auth Tab: `AuthTabIntent.launch(launcher, url, scheme)` or
    ///   `launch(launcher, url, httpsHost, httpsPath)`;
    /// - iOS 17.4+: `ASWebAuthenticationSession(url:callback:completionHandler:)` with
    ///   `.customScheme(scheme)` or `.https(host:path:)` (before 17.4: `callbackURLScheme:`,
    ///   custom schemes only).
    ///
    /// The https path is the return URL's path with the nonce segment, `/checkout-callback/ph_<nonce>`:
    /// the gateway sends the user exactly there (the query after it is the gateway's). Whether
    /// Chrome and iOS match that path exactly or as a prefix is for a device test to confirm; a
    /// gateway that appends `&status=…` to the path itself (no `?`) defeats an exact match.
    /// It carries the nonce: printed values show the path without it (``Redaction``).
    public enum Target: Equatable, Sendable {
        /// A custom-scheme return URL: the scheme, lowercased (`fixapp`).
        case scheme(String)
        /// An https return URL: the host (lowercased) and the path with `ph_<nonce>`.
        case https(host: String, path: String)

        /// Equal when both are the same case with the same UTF-8 bytes.
        public static func == (lhs: Target, rhs: Target) -> Bool {
            switch (lhs, rhs) {
            case let (.scheme(a), .scheme(b)): return a.hasSameBytes(as: b)
            case let (.https(h, p), .https(i, q)): return h.hasSameBytes(as: i) && p.hasSameBytes(as: q)
            default: return false
            }
        }

        /// Writes `{"scheme": …}` or `{"https_host": …, "https_path": …}`.
        func write(to writer: JSONWriter) {
            writer.beginObject()
            switch self {
            case .scheme(let scheme):
                writer.member("scheme", string: scheme)
            case .https(let host, let path):
                writer.member("https_host", string: host)
                writer.member("https_path", string: path)
            }
            writer.end()
        }
    }

    /// The launch data for a flow with `nonce`, or `nil` when no OS channel can capture this
    /// return URL: plain `http`, or an https URL with a port other than 443 (neither API takes
    /// a port). Such a flow's return comes only as a deep link.
    /// - Parameter nonce: The flow's nonce (`nil`: the session was created without one, the
    ///   path is the return URL's own).
    /// - Returns: The target, or `nil`.
    public func target(nonce: String?) -> Target? {
        guard parts.isWeb else { return .scheme(parts.scheme) }
        guard parts.hasScheme("https"), parts.port == nil, let host = parts.host else { return nil }
        // The path of the URL the gateway is sent, as sent (nonce segment included): from where
        // the path starts to the query (a return URL has no fragment, a nonce no `?`).
        let sent = nonce.map { adding(nonce: $0) } ?? text
        let path = sent.withUTF8Buffer { bytes -> String in
            let start = parts.textPathStart
            let end = ByteScan.firstIndex(of: UInt8(ascii: "?"), in: bytes, from: start, to: bytes.count)
            return end == start ? "/" : String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return .https(host: host, path: path)
    }
}
