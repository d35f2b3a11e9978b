/// How PayHandoff's values show what carries a secret when they are printed — `description`,
/// `debugDescription`, `dump`, `Mirror`, string interpolation (the mirrors are in the
/// `+Reflection.swift` files; Embedded Swift has no reflection). The same rules in Kotlin's
/// `toString()` and TypeScript's `console.log` (issue 36):
///
/// - a URL that may carry a secret (a return URL with its nonce, a Billpocket URL with the user
///   token and the flow's token, the checkout URL, whose page may echo the return URL) keeps its
///   `https://host` origin — or only its `scheme:` for any other scheme, where the secrets sit
///   right after it — and the rest is ``marker``;
/// - an identifier sent to the POS app, `<identifier>~<token>`, keeps the app's part;
/// - an https return path (`open_browser`'s `return_to`) keeps all but the nonce: `/cb/ph_<redacted>`;
/// - a user token, a PIN, an API key, a nonce or a token is ``marker``.
///
/// The stored properties are untouched: the app reads them to perform its effects. JSON documents
/// (`.json`, snapshots, build results) are the data itself and carry their secrets.
enum Redaction {
    /// What is shown instead of a secret.
    static let marker = "<redacted>"

    /// `https://pay.example.com/<redacted>`, `fixapp:<redacted>`, `billpocket:<redacted>`, or
    /// ``marker`` for text without a scheme.
    static func url(_ url: String) -> String {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              bytes[..<colon].allSatisfy({ ASCII.isAlpha($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "+")
                  || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else { return marker }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        let rest = bytes[(colon + 1)...]
        if ASCII.equalFoldingCase(scheme, "https") || ASCII.equalFoldingCase(scheme, "http"),
           rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let authority = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            if !authority.contains(UInt8(ascii: "@")) {
                return scheme + "://" + String(decoding: authority, as: UTF8.self) + "/" + marker
            }
        }
        return scheme + ":" + marker
    }

    /// `/checkout-callback/ph_<redacted>` for an https return path with its nonce segment
    /// (``ReturnURL/Target``); a path without one as it is.
    static func noncePath(_ path: String) -> String {
        let bytes = Array(path.utf8)
        let segment = Array("/ph_".utf8)
        guard bytes.count >= segment.count,
              let start = (0...(bytes.count - segment.count)).last(where: { bytes[$0..<($0 + segment.count)].elementsEqual(segment) })
        else { return path }
        return String(decoding: bytes[..<(start + segment.count)], as: UTF8.self) + marker
    }

    /// `order-42~<redacted>` for `order-42~<token>`; an identifier without `~` as it is.
    static func identifier(_ identifier: String) -> String {
        guard let tilde = identifier.utf8.lastIndex(of: UInt8(ascii: "~")) else { return identifier }
        return String(decoding: identifier.utf8[..<tilde], as: UTF8.self) + "~" + marker
    }

    /// Whether a POS field or result extra named `key` carries a secret: the user token, the
    /// PIN or SumUp's affiliate key, in any ASCII case.
    static func isSecretKey(_ key: String) -> Bool {
        ASCII.equalFoldingCase(key, "usertoken") || ASCII.equalFoldingCase(key, "pin")
            || ASCII.equalFoldingCase(key, "affiliate-key") || ASCII.equalFoldingCase(key, "affiliate_key")
    }
}
