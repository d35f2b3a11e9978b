/// What the POS flow shares across terminal apps: which app a request goes to, the currency
/// rule, the callback URL an answer comes back on, and the request document's dispatch.
extension POSRequest {
    /// A terminal app's own request fields.
    public indirect enum AppFields: Equatable, Sendable {
        /// Billpocket: the fields are ``POSRequest``'s own.
        case billpocket
        /// SumUp (`POS/SumUp`).
        case sumup(SumUpRequest)
        /// Clip (`POS/Clip`).
        case clip(ClipRequest)
        /// Square (`POS/Square`).
        case square(SquareRequest)

        /// The app.
        public var posApp: POSApp {
            switch self {
            case .billpocket: return .billpocket
            case .sumup: return .sumup
            case .clip: return .clip
            case .square: return .square
            }
        }

        /// The rule of the identifier sent (`<identifier>~<token>`) where the app's is stricter
        /// than Billpocket's 256 UTF-16 units.
        /// - Throws: `validation` naming `identifier`.
        func checkSentIdentifier(_ sent: String, appPart: String, token: String) throws(PayHandoffError) {
            switch self {
            case .sumup: try SumUpRequest.checkForeignTransactionID(sent, appPart: appPart, token: token)
            case .billpocket, .clip, .square:
                guard sent.utf16.count <= POSRequest.Limit.identifier else {
                    throw PayHandoffError(.validation, field: "identifier",
                        PayHandoffError.text("with the per-hand-off token the identifier would be longer than ", POSRequest.Limit.identifier, " characters"))
                }
            }
        }

        /// The request's fields as descriptions and `dump` show them (``POSRequest/shown(_:)``
        /// redacts the affiliate key and the identifier's token).
        func describedFields(identifier: String, amount: Amount) -> [QueryItem] {
            var items: [QueryItem] = []
            items.add("identifier", identifier)
            items.add("amount", amount.decimalString)
            switch self {
            case .billpocket: break
            case .sumup(let s):
                items.add("currency", s.currency)
                items.add("affiliate_key", s.affiliateKey)
                items.add("app_id", s.appID)
                items.add("callback_url", s.callbackURL)
            case .clip(let c):
                items.add("tip", c.tip?.decimalString)
                items.add("component", c.component)
            case .square(let q):
                items.add("currency", q.currency)
                items.add("client_id", q.clientID)
                items.add("callback_url", q.callbackURL)
            }
            return items
        }

        /// Equal when the same app's fields are.
        public static func == (lhs: AppFields, rhs: AppFields) -> Bool {
            switch (lhs, rhs) {
            case (.billpocket, .billpocket): return true
            case let (.sumup(a), .sumup(b)): return a == b
            case let (.clip(a), .clip(b)): return a == b
            case let (.square(a), .square(b)): return a == b
            default: return false
            }
        }
    }

    /// The Android intent that starts the terminal app with this request (already carrying its
    /// token), as `pos_build_url` and the `open_pos_app` effect give it.
    public var intent: POSIntent {
        switch app {
        case .billpocket:
            var extras: [POSIntent.Extra] = []
            for item in billpocketFields(keyStyle: .androidIntent) { extras.append(POSIntent.Extra(key: item.key, value: .string(item.value))) }
            return POSIntent(action: androidAction.rawValue, package: POSRequest.androidPackage, component: nil, data: nil, extras: extras)
        case .sumup(let sumUp): return sumUp.intent(identifier: identifier, amount: amount ?? .zero)
        case .clip(let clip): return clip.intent(reference: identifier, amount: amount ?? .zero)
        case .square(let square): return square.intent(requestMetadata: identifier, amount: amount ?? .zero)
        }
    }

    /// The URL the host opens on iOS (or to hand off by URL): ``url`` for Billpocket and SumUp;
    /// Square's, whose `data=` is JSON text printed by `jsonText`; `nil` for Clip (intent only).
    /// - Parameter jsonText: The codec that prints Square's JSON (the C ABI's is cJSON).
    /// - Returns: The URL, or `nil`.
    /// - Throws: What `jsonText` throws for Square (its base class has no JSON).
    public func handoffURL(jsonText: JSONTextCodec) throws(PayHandoffError) -> String? {
        switch app {
        case .billpocket, .sumup: return url
        case .clip: return nil
        case .square(let square): return try square.iOSURL(state: identifier, amount: amount ?? .zero, jsonText: jsonText)
        }
    }

    #if !PAYHANDOFF_CHECKOUT_ONLY
    /// The effect that opens the terminal app with this request (already carrying its token).
    /// Billpocket's is what it was in 0.3 (its intent is built from the URL's fields); the other
    /// apps' carries their intent, and a URL where they have one.
    /// - Parameter jsonText: The codec that prints Square's JSON.
    /// - Throws: What ``handoffURL(jsonText:)`` throws.
    @inline(never)
    func openEffect(jsonText: JSONTextCodec) throws(PayHandoffError) -> FlowEffect {
        if posApp == .billpocket { return .openPOSApp(url: url) }
        return .openPOSIntent(posApp: posApp, url: try handoffURL(jsonText: jsonText), intent: intent)
    }
    #endif

    /// The request of another app than Billpocket from its document (`pos_app` already read).
    /// - Parameters:
    ///   - app: The app (not Billpocket).
    ///   - json: The request document.
    ///   - allowingToken: Whether the document may hold `token` (a build document).
    /// - Throws: `validation` naming the member that breaks the app's rules.
    static func reading<R: JSONReader>(app: POSApp, _ json: JSONMembers<R>, allowingToken: Bool) throws(PayHandoffError) -> POSRequest {
        if let transaction = try json.optionalString("transaction"), !transaction.hasSameBytes(as: Operation.sale.rawValue) {
            throw PayHandoffError(.validation, field: "transaction",
                "only Billpocket refunds app-to-app: " + app.displayName + " refunds go through its server API (a sale is \"venta\")")
        }
        if app == .billpocket { return try POSRequest(reading: json) }
        let members = try AppRequestMembers(reading: json, app: app, allowingToken: allowingToken)
        switch app {
        case .square: return SquareRequest.sale(members)
        case .sumup: return SumUpRequest.sale(members)
        case .clip, .billpocket: return ClipRequest.sale(members)  // Billpocket returned above
        }
    }
}

/// ISO 4217 currencies as the POS apps take them. PayHandoff's amounts are two-decimal minor
/// units, so a currency with another minor unit is refused, never scaled.
enum Currency {
    /// The ISO 4217 codes whose minor unit is not 2 (ISO 4217 list one, the "Minor unit" column:
    /// 0 — BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF; 3 — BHD IQD JOD
    /// KWD LYD OMR TND; 4 — CLF UYW), and the codes with no minor unit (metals, funds, testing:
    /// XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX), which are not money a terminal charges.
    /// One text of 4-byte cells, searched by bytes (an array of strings cost a kilobyte).
    static let notTwoDecimals: StaticString = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF BHD IQD JOD KWD LYD OMR TND CLF UYW XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX "

    /// Checks a currency code: three uppercase ASCII letters whose minor unit is 2.
    /// - Throws: `validation` naming `currency`.
    static func check(_ code: String) throws(PayHandoffError) {
        let bytes = Array(code.utf8)
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
            throw PayHandoffError(.validation, field: "currency", "must be an ISO 4217 code: three uppercase letters (EUR, USD)")
        }
        let table = UnsafeBufferPointer(start: notTwoDecimals.utf8Start, count: notTwoDecimals.utf8CodeUnitCount)
        for cell in stride(from: 0, to: table.count, by: 4)
        where table[cell] == bytes[0] && table[cell + 1] == bytes[1] && table[cell + 2] == bytes[2] {
            throw PayHandoffError(.validation, field: "currency",
                "has no two-decimal minor unit (ISO 4217): PayHandoff's amounts are two-decimal minor units and are never scaled")
        }
    }

    /// The optional `currency` of an app that charges only Mexican pesos (Billpocket, Clip).
    /// - Throws: `validation` naming `currency` for anything but `MXN`.
    static func checkPesosOnly<R: JSONReader>(_ json: JSONMembers<R>, app: POSApp) throws(PayHandoffError) {
        if let currency = try json.optionalString("currency"), !currency.hasSameBytes(as: "MXN") {
            throw PayHandoffError(.validation, field: "currency", app.displayName + " charges Mexican pesos only: must be MXN")
        }
    }
}

/// The URL an app answers on (Square on iOS, SumUp): the host's callback URL with the app's
/// parameters in its query.
enum CallbackURL {
    /// The longest callback URL accepted, in bytes.
    static let maxLength = 1024

    /// Checks a callback URL: `scheme:…`, at most ``maxLength`` bytes, no space, control character
    /// or `#`; returns its scheme (what answers are routed by).
    /// - Throws: `validation` naming `callback_url`.
    static func scheme(of url: String) throws(PayHandoffError) -> String {
        guard !url.isEmpty, url.utf8.count <= maxLength,
              url.firstByteOffset(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") }).isNone else {
            throw PayHandoffError(.validation, field: "callback_url",
                PayHandoffError.text("must be a URL like myapp://pos-result of at most ", maxLength, " bytes, without spaces, '?' or '#' (the app adds its query)"))
        }
        guard let colonOffset = url.firstByteOffset(where: { $0 == UInt8(ascii: ":") }) else {
            throw PayHandoffError(.validation, field: "callback_url", "must start with a scheme (myapp://…)")
        }
        let scheme = url[..<url.utf8.index(url.utf8.startIndex, offsetBy: colonOffset)]
        guard URLSyntax.isValidScheme(scheme.utf8), scheme.utf8.count <= POSRequest.Limit.urlScheme,
              url.utf8.count > scheme.utf8.count + 1 else {
            throw PayHandoffError(.validation, field: "callback_url", PayHandoffError.text("must start with a URL scheme of at most ", POSRequest.Limit.urlScheme, " characters"))
        }
        return String(scheme)
    }

    /// The decoded query of an answer on a callback URL whose scheme is `scheme` (ignoring case).
    /// `+` stays a plus sign (what the app echoes of a value PayHandoff sent percent-encoded).
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - scheme: The callback URL's scheme.
    /// - Returns: The pairs, in order.
    /// - Throws: `limit_exceeded`, `malformed_url` (characters, escapes, a repeated key, a raw `#`),
    ///   `callback_mismatch` naming `scheme` for another scheme.
    static func query(of url: String, scheme: String) throws(PayHandoffError) -> [QueryItem] {
        let (given, _) = try URLSyntax.splitScheme(url, field: "url")
        try URLSyntax.checkIncoming(url, field: "url")
        guard ASCII.equalFoldingCase(String(given), scheme) else {
            throw PayHandoffError(.callbackMismatch, field: "scheme", "the URL's scheme is not the callback URL's")
        }
        // A raw '#' is refused as in Billpocket's answers: no app answers with a fragment, and the
        // bytes after one would be dropped unread (an escaped %23 inside a value is fine).
        // (The whole URL is scanned: its scheme has neither byte.)
        guard url.firstByteOffset(where: { $0 == UInt8(ascii: "#") }).isNone else {
            throw PayHandoffError(.malformedURL, field: "url", "contains a raw '#': an answer has no fragment")
        }
        guard let question = url.firstByteOffset(where: { $0 == UInt8(ascii: "?") }) else { return [] }
        let query = url[url.utf8.index(url.utf8.startIndex, offsetBy: question + 1)...]
        guard !query.utf8.isEmpty else { return [] }
        return try QueryDecoder.decode(query, plus: .literal, caseInsensitiveKeys: false)
    }
}

extension Optional where Wrapped == String {
    /// Whether this is a string with the bytes of `word` (never `==`, which links Unicode's
    /// normalization tables into the Embedded library: ASCII.swift).
    /// - Parameter word: The word.
    /// - Returns: `true` for the same UTF-8 bytes.
    @inline(never)  // one compare of the literal's bytes, not a String made at every call
    func isWord(_ word: StaticString) -> Bool {
        guard case .some(let text) = self else { return false }
        return text.isBytes(word.utf8Start, count: word.utf8CodeUnitCount)
    }
}

extension StaticString {
    /// Whether `text`'s UTF-8 is one of the literal's words (separated by single spaces): the
    /// apps' key and code lists are such texts, searched by bytes (an array of strings, or a
    /// `hasSameBytes` per key at each call, cost code per list).
    /// - Parameter text: The text to look for.
    /// - Returns: `true` when a word has the same bytes.
    @inline(never)
    func hasWord(_ text: String) -> Bool {
        let list = utf8Start, count = utf8CodeUnitCount
        var start = 0
        while start < count {
            var end = start
            while end < count, list[end] != UInt8(ascii: " ") { end += 1 }
            if end > start, text.isBytes(list + start, count: end - start) { return true }
            start = end + 1
        }
        return false
    }
}

extension [QueryItem] {
    /// The value of `key` (exact bytes), if present and not empty.
    @inline(never)
    func value(_ key: StaticString) -> String? {
        guard let item = first(where: { $0.key.isBytes(key.utf8Start, count: key.utf8CodeUnitCount) }), !item.value.isEmpty else { return nil }
        return item.value
    }

    /// The items whose key is none of `keys` (words separated by single spaces), in order.
    @inline(never)
    func removing(_ keys: StaticString) -> [QueryItem] {
        filter { !keys.hasWord($0.key) }
    }
}
