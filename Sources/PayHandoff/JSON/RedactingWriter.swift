/// A writer that passes a document on to another one without the secrets a gateway or the POS
/// app may have echoed into it: what a transition's `details` go through (a host may log them;
/// issue 35, item 7).
///
/// A flow keeps what came from outside as it came: a checkout session whose `checkout_url`
/// echoes the return URL (with `ph_<nonce>`), a callback whose parameter or reason repeats it, a
/// POS answer whose fields echo `<identifier>~<token>` or the whole request URL (with the user
/// token). The snapshot must keep those (they are the data); `details` must not. So:
///
/// - a string holding the flow's nonce or token — byte for byte in any ASCII case, or with its
///   `~` percent-encoded (`%7E`, `%257E`) — or a user token or PIN parameter (`usertoken`, or
///   `pin=` after `?`, `&`, `/`, `;` or a space, in any case) is written as ``Redaction/marker``;
/// - a member whose *key* holds one is left out, value and all;
/// - ``Redaction/url(_:)`` is applied by the flow itself to the checkout URL (its page is the
///   gateway's, and may echo the return URL in any encoding): only its origin is shown.
///
/// Every other token goes to the base writer unchanged, so `details` keep their shape.
final class RedactingWriter: JSONWriter {
    private let base: JSONWriter
    private let secrets: [String]
    /// While a member is being left out: how deep into its value (0: not leaving anything out).
    private var skipping = 0
    /// A member whose key held a secret: its value is left out next.
    private var skipNext = false

    /// A writer onto `base` that hides `secrets` (empty strings are ignored).
    init(_ base: JSONWriter, hiding secrets: [String]) {
        self.base = base
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    /// Whether `text` may show one of the secrets, or a user token or PIN parameter.
    func hides(_ text: String) -> Bool {
        Redaction.mayCarrySecret(text, secrets: secrets)
    }

    /// Whether the next value is left out (and, for a container, everything up to its end).
    private func skipsValue(opening: Bool) -> Bool {
        if skipping > 0 {
            if opening { skipping += 1 }
            return true
        }
        guard skipNext else { return false }
        skipNext = false
        if opening { skipping = 1 }
        return true
    }

    override func beginObject() { if !skipsValue(opening: true) { base.beginObject() } }
    override func beginArray() { if !skipsValue(opening: true) { base.beginArray() } }
    override func end() {
        if skipping > 0 {
            skipping -= 1
            return
        }
        base.end()
    }
    override func key(_ key: StaticString) {
        guard skipping == 0 else { return }
        base.key(key)
    }
    override func key(_ key: String) {
        guard skipping == 0 else { return }
        if hides(key) {
            skipNext = true
            return
        }
        base.key(key)
    }
    override func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .integer(let number): integer(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            end()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.key)
                self.value(member.value)
            }
            end()
        }
    }
    override func string(_ value: String) {
        if skipsValue(opening: false) { return }
        base.string(hides(value) ? Redaction.marker : value)
    }
    override func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        string(String(decoding: bytes, as: UTF8.self))
    }
    override func integer(_ value: Int64) { if !skipsValue(opening: false) { base.integer(value) } }
    override func bool(_ value: Bool) { if !skipsValue(opening: false) { base.bool(value) } }
    override func null() { if !skipsValue(opening: false) { base.null() } }
}

extension Redaction {
    /// Whether `text` may show one of `secrets` (a nonce or token: in any ASCII case, or with its
    /// `~` percent-encoded once or twice) or a user token or PIN parameter — what a gateway or
    /// the POS app may echo into a value PayHandoff keeps (``RedactingWriter``).
    static func mayCarrySecret(_ text: String, secrets: [String]) -> Bool {
        return text.withUTF8Buffer { haystack in
            for start in 0..<haystack.count {
                for secret in secrets where !secret.isEmpty && matches(secret, haystack, at: start) { return true }
                if matches("usertoken", haystack, at: start) { return true }
                if matches("pin=", haystack, at: start) {
                    if start == 0 { return true }
                    switch haystack[start - 1] {
                    case UInt8(ascii: "?"), UInt8(ascii: "&"), UInt8(ascii: "/"), UInt8(ascii: ";"), UInt8(ascii: " "): return true
                    default: break
                    }
                }
            }
            return false
        }
    }

    /// Whether `needle` occurs in `haystack` at `start`, ASCII letters compared ignoring case and
    /// each `~` also found percent-encoded once (`%7e`) or twice (`%257e`), in any case.
    private static func matches(_ needle: String, _ haystack: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        var at = start
        func next(_ byte: UInt8) -> Bool {
            guard at < haystack.count, ASCII.lowercased(haystack[at]) == ASCII.lowercased(byte) else { return false }
            at += 1
            return true
        }
        for byte in needle.utf8 {
            if next(byte) { continue }
            guard byte == UInt8(ascii: "~"), next(UInt8(ascii: "%")) else { return false }
            if next(UInt8(ascii: "2")) { guard next(UInt8(ascii: "5")) else { return false } }
            guard next(UInt8(ascii: "7")), next(UInt8(ascii: "e")) else { return false }
        }
        return true
    }
}
