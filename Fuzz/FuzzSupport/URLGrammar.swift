// Structure-aware inputs for the deep-link parsers: the fuzzer's bytes choose, one production at
// a time, a checkout callback or a Billpocket answer from a grammar of what reaches an app
// (schemes, `://`, the return URL and its nonce segment — genuine, forged, truncated, escaped —,
// keys from the real key sets in any case or escaped, values built from percent escapes that are
// valid, truncated, overlong or surrogate UTF-8, `+`, `&`, `=`, `#`, `?`), so that mutations
// stay close to URLs the parsers accept instead of dying at the first byte. The genuine URLs are
// the core's own (`ReturnURL.adding(nonce:)`), mangled as gateways and attackers mangle them.
import PayHandoff
import PayHandoffABI

public enum URLGrammar {
    /// The nonce and token the grammar's options use (valid per the nonce rule).
    public static let nonce = "n0nceN0nce-._~0123456789abcdef"
    public static let token = "0123456789abcdef0123456789abcdef"

    /// Text atoms a value is built from.
    static let valueAtoms: [String] = [
        "completed", "failed", "cancelled", "COMPLETED", "card_abc", "card_", "pay_abc", "pay_", "a", "Z9",
        "%41", "%4", "%", "%zz", "%g0", "%C3%A9", "é", "€", "😀", "%C0%AF", "%E0%80%AF", "%F0%82%82%AC", "%ED%A0%80",
        "%F0%9F%98%80", "%F4%90%80%80", "%C3", "%E2%82", "%FF", "%80", "+", "%2B", "%20", "%26", "%3D", "%23",
        "%3F", "%00", "%0A", "%7E", "~", "?", "=", "/", "@", ":", ";", ",", "!", "*", "'", "(", ")", "$", "[", "]",
        "ph_", "%25", "%2525", "100.00", "100", "100.5", "0.01", "90071992547409.91", "90071992547409.92", "1e3",
        "-1", " ", "\t", "\u{7F}", "ord-1", "ord 3", nonce, token, "720371", "aprobada", "rechazada", "error",
        "APROBADA", "credit", "debit", "************4242", "4242", "3", "06", "12", "18", "24", "4.3.24",
    ]

    /// A value: one to four atoms.
    static func value(_ c: inout FuzzCursor) -> String {
        var text = ""
        for _ in 0...c.below(4) { text += c.pick(valueAtoms) }
        return text
    }

    /// A key: from `known`, as written, in other case, escaped, or unknown.
    static func key(_ c: inout FuzzCursor, known: [String]) -> String {
        let base = c.pick(known + ["ph_nonce", "src", "foo", "usertoken", "UserToken", "", "a+b", "k%3Dv", "k%26", "%"])
        switch c.below(6) {
        case 0: return base.uppercased()
        case 1:  // one character escaped
            guard let first = base.utf8.first else { return base }
            let hex = Array("0123456789ABCDEF".utf8)
            return "%" + String(decoding: [hex[Int(first >> 4)], hex[Int(first & 15)]], as: UTF8.self) + String(base.dropFirst())
        case 2: return base + c.pick(["", "_", " ", "%20", "+"])
        default: return base
        }
    }

    /// One to four `key=value` pieces of keys from `known` (or not) and grammar values.
    public static func pieces(_ c: inout FuzzCursor, known: [String]) -> String {
        query(&c, known: known, chosen: [(key(&c, known: known), value(&c))])
    }

    /// `key=value` pieces joined by `&` (sometimes `&&`, a trailing `&`, no `=`, two `=`).
    static func query(_ c: inout FuzzCursor, known: [String], chosen: [(String, String)]) -> String {
        var pieces: [String] = []
        var planned = chosen
        let extra = c.below(4)
        for _ in 0..<extra { planned.insert((key(&c, known: known), value(&c)), at: c.below(planned.count + 1)) }
        for (key, value) in planned {
            switch c.below(12) {
            case 0: pieces.append(key)
            case 1: pieces.append(key + "==" + value)
            case 2: pieces.append("")
            default: pieces.append(key + "=" + value)
            }
        }
        return pieces.joined(separator: c.below(8) == 0 ? c.pick(["&&", ";", "&amp;"]) : "&") + (c.below(8) == 0 ? "&" : "")
    }

    static func fragment(_ c: inout FuzzCursor) -> String {
        c.pick(["", "", "", "#", "#frag", "#a=b&c=d", "#?status=completed", "#%zz"])
    }

    nonisolated(unsafe) static var optionTexts: [[Int]: String] = [:]
    nonisolated(unsafe) static var answerOptionTexts: [[Int]: (String, String)] = [:]
    static let returnURLObjects = returnURLs.map { try? ReturnURL($0) }

    /// Return URLs the grammar registers (all valid under the return URL rules).
    static let returnURLs = [
        "fixapp://checkout-callback", "fixapp://checkout-callback?src=app", "https://shop.example/pay/return",
        "https://shop.example/pay/return/", "https://shop.example", "com.fix.app:/return", "HTTPS://Shop.Example:443/pay/return",
        "fixapp://checkout-callback/deep/path?src=app&lang=es",
    ]

    /// A checkout callback and the options of `payhandoff_checkout_parse_callback` it is parsed
    /// with (as JSON text: the few combinations are printed once).
    public static func checkoutCallback(_ c: inout FuzzCursor) -> (options: String, url: String) {
        let kindIndex = c.below(2), returnIndex = c.below(returnURLs.count), nonceChoice = c.below(8)
        let acceptChoice = c.below(4), expectedChoice = c.below(4), misspelt = c.below(16) == 0
        let kind = ["cards", "payments"][kindIndex]
        let returnText = returnURLs[returnIndex]
        let combination = [kindIndex, returnIndex, nonceChoice, acceptChoice, expectedChoice, misspelt ? 1 : 0]
        let options: String
        if let cached = optionTexts[combination] {
            options = cached
        } else {
            var o = JSONObject()
            o["kind"] = .string(misspelt ? "card" : kind)
            o["return_url"] = .string(returnText)
            if nonceChoice < 6 { o["nonce"] = .string(nonce) } else if nonceChoice == 6 { o["nonce"] = .string("short") }
            switch acceptChoice {
            case 0: o["accept_unverified"] = .bool(true)
            case 1: o["accept_unverified"] = .bool(false)
            default: break
            }
            if expectedChoice == 0 { o["expected_id"] = .string(kind == "cards" ? "card_abc" : "pay_abc") }
            options = JSONText.render(.object(o))
            optionTexts[combination] = options
        }
        guard let returnURL = returnURLObjects[returnIndex] else { return (options, returnText) }
        let sent = returnURL.adding(nonce: nonce)  // the URL the core hands the gateway
        var base: String
        switch c.below(12) {
        case 0, 1, 2, 3: base = sent
        case 4: base = returnText                                                 // no nonce
        case 5: base = returnURL.adding(nonce: String(nonce.dropLast()) + "X")   // forged
        case 6: base = returnURL.adding(nonce: String(nonce.prefix(c.below(nonce.count))))  // truncated
        case 7: base = sent.replacingFirst("ph_", with: c.pick(["PH_", "ph%5F", "ph_ph_", "ph_" + nonce + "/ph_"]))
        case 8: base = sent.replacingFirst(nonce, with: nonce + c.pick(["/", "/x", "%20", ";x", "."]))
        case 9: base = sent.replacingFirst(":", with: c.pick(["X:", ":/", "s:", ""])) // other scheme or shape
        case 10: base = sent.uppercasedScheme()
        default: base = sent.replacingFirst("shop.example", with: c.pick(["shop.example:8443", "evil.example", "SHOP.example"]))
        }
        // Parameters the gateway adds, and how: appended with `?` or `&`, appended blindly with
        // `?`, or the registered query replaced.
        var chosen: [(String, String)] = [("status", c.pick(["completed", "failed", "cancelled", "COMPLETED", "complet%65d", ""]))]
        let idKey = c.below(6) == 0 ? (kind == "cards" ? "payment_id" : "card_id") : (kind == "cards" ? "card_id" : "payment_id")
        if c.below(4) != 0 { chosen.append((idKey, c.pick(["card_abc", "pay_abc", "card_", "card_x%2By", "pay_%C3%A9", "", "card_abd"]))) }
        if c.below(3) == 0 { chosen.append(("reason", value(&c))) }
        let params = query(&c, known: ["status", "card_id", "payment_id", "reason"], chosen: chosen)
        let hasQuery = base.contains("?")
        switch c.below(6) {
        case 0: base += "?" + params                                             // blind `?`
        case 1: if let q = base.firstIndex(of: "?") { base = String(base[..<q]) }; base += "?" + params  // query replaced
        case 2: break                                                            // no parameters at all
        default: base += (hasQuery ? "&" : "?") + params
        }
        return (options, base + fragment(&c))
    }

    /// The keys of a Billpocket answer (the POS contract's table).
    public static let answerKeys = [
        "result", "statusinfo", "amount", "tip", "reference", "transactionid", "msi", "authorization", "creditcard",
        "cardtype", "email", "phone", "arqc", "aid", "applabel", "url", "identifier", "bank", "accountType", "name", "bp_version",
    ]

    /// A Billpocket answer as its key/value pairs (escaped text, as in a URL) and the options it
    /// is parsed with, as JSON text: `payhandoff_pos_parse_response`'s, and the same without
    /// `urlScheme` for `payhandoff_pos_parse_result` (the few combinations are printed once).
    public static func billpocketAnswer(_ c: inout FuzzCursor) -> (urlOptions: String, extrasOptions: String, scheme: String,
                                                                   pairs: [(String, String)]) {
        let schemes = ["myapp", "MyApp", "myapp://", "other"]
        let identifiers = ["ord-1", "ord 3&x=y", "pedido-é", "~"]
        let schemeIndex = c.below(schemes.count), identifierIndex = c.below(identifiers.count)
        let optionChoice = c.below(6), badToken = c.below(16) == 0
        let scheme = schemes[schemeIndex], identifier = identifiers[identifierIndex]
        let combination = [schemeIndex, identifierIndex, optionChoice, badToken ? 1 : 0]
        let texts: (String, String)
        if let cached = answerOptionTexts[combination] {
            texts = cached
        } else {
            var options = JSONObject()
            switch optionChoice {
            case 0: break
            case 1: options["identifier"] = .string(identifier)
            case 2: options["token"] = .string(token)  // without identifier: refused
            default: options["identifier"] = .string(identifier); options["token"] = .string(badToken ? "tok" : token)
            }
            let extrasText = JSONText.render(.object(options))
            options["urlScheme"] = .string(scheme)
            texts = (JSONText.render(JSONValue.object(options)), extrasText)
            answerOptionTexts[combination] = texts
        }
        let sentIdentifier: String
        switch c.below(10) {
        case 0: sentIdentifier = identifier                                  // the app's part only
        case 1: sentIdentifier = identifier + "~" + String(token.reversed())  // another token
        case 2: sentIdentifier = identifier + "~" + token.uppercased()
        case 3: sentIdentifier = identifier + "~" + token + "~"
        case 4: sentIdentifier = value(&c)
        default: sentIdentifier = identifier + "~" + token
        }
        var pairs: [(String, String)] = []
        if c.below(8) != 0 { pairs.append(("identifier", percentEncode(sentIdentifier, leaving: c.below(4) == 0 ? "~ &" : ""))) }
        if c.below(8) != 0 { pairs.append(("result", c.pick(["aprobada", "rechazada", "error", "APROBADA", "approved", "%61probada", ""]))) }
        if c.below(3) != 0 { pairs.append(("amount", c.pick(["100.00", "100", "100.5", "0", "1e3", "-1", "100.001", "90071992547409.91", "90071992547409.92", "１00", ""]))) }
        for _ in 0..<c.below(6) {
            let key = c.pick(answerKeys + ["usertoken", "userToken", "extra_key"])
            let value: String
            switch key {
            case "msi": value = c.pick(["3", "6", "9", "12", "18", "24", "0", "03", "5", "x"])
            case "creditcard": value = c.pick(["************4242", "4242", "42", "abcd", "4242%20"])
            case "accountType": value = c.pick(["credit", "debit", "CREDIT", "x"])
            case "transactionid": value = c.pick(["720371", "tx 1", String(repeating: "9", count: 129), "%7F", "é"])
            case "tip": value = c.pick(["10.00", "0", "x"])
            default: value = URLGrammar.value(&c)
            }
            pairs.append((c.below(6) == 0 ? key.uppercased() : key, value))
        }
        if c.below(16) == 0, let first = pairs.first { pairs.append((first.0.uppercased(), first.1)) }  // twice, ignoring case
        var shuffled: [(String, String)] = []
        for pair in pairs { shuffled.insert(pair, at: c.below(shuffled.count + 1)) }
        return (texts.0, texts.1, scheme, shuffled)
    }

    /// A Billpocket answer URL from ``billpocketAnswer(_:)``'s pairs: `scheme://` (sometimes
    /// `scheme:`, `?` after `//`), the pairs joined with `&`, maybe a fragment.
    public static func billpocketURL(_ c: inout FuzzCursor, scheme: String, pairs: [(String, String)]) -> String {
        let bare = scheme.hasSuffix("://") ? String(scheme.dropLast(3)) : scheme
        let urlScheme = c.below(8) == 0 ? c.pick(["MYAPP", "other", "my app", "billpocket"]) : bare
        let separator = c.pick(["://", "://", "://", "://?", ":", ":/"])
        var text = urlScheme + separator
        var pieces: [String] = []
        for (key, value) in pairs {
            pieces.append(c.below(24) == 0 ? key : key + "=" + value)
        }
        text += pieces.joined(separator: c.below(16) == 0 ? "&&" : "&")
        return text + (c.below(12) == 0 ? fragment(&c) : "")
    }

    /// Escapes every byte but unreserved characters and `leaving`.
    static func percentEncode(_ text: String, leaving: String) -> String {
        var out = ""
        for character in text {
            if leaving.contains(character) { out.append(character) } else { out += Fuzz.percentEncode(String(character)) }
        }
        return out
    }
}

extension String {
    /// Equal UTF-8 bytes (`==` on String is Unicode canonical equivalence).
    public func sameBytes(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }

    /// Whether `needle`'s UTF-8 bytes occur in this text's.
    public func containsBytes(_ needle: String) -> Bool { byteOffset(of: needle) != nil }

    /// This text with the first occurrence of `target`'s bytes replaced (unchanged when absent).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let offset = byteOffset(of: target) else { return self }
        let bytes = Array(utf8)
        return String(decoding: bytes[..<offset], as: UTF8.self) + replacement
            + String(decoding: bytes[(offset + target.utf8.count)...], as: UTF8.self)
    }

    /// Where `needle`'s UTF-8 bytes first occur in this text's, in bytes; nil for an empty needle.
    /// The one substring search of the harness, on bytes because the core reads URLs as bytes:
    /// `String.contains`, `firstIndex(of:)` and `hasPrefix` match whole grapheme clusters and miss
    /// a `#` or `?` that a combining mark follows (FuzzCheckoutCallback's oracle was handed a
    /// fragment that way: Fuzz/Corpus/FuzzCheckoutCallback/finding-fragment-combining-mark).
    /// A match of valid UTF-8 in valid UTF-8 starts and ends on scalar boundaries.
    func byteOffset(of needle: String) -> Int? {
        let haystack = Array(utf8), target = Array(needle.utf8)
        guard !target.isEmpty, target.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - target.count) where haystack[start] == target[0] {
            if haystack[start..<(start + target.count)].elementsEqual(target) { return start }
        }
        return nil
    }

    func uppercasedScheme() -> String {
        guard let colon = firstIndex(of: ":") else { return self }
        return self[..<colon].uppercased() + self[colon...]
    }
}
