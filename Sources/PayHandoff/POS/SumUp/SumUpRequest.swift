/// A sale for the SumUp app, through its URL scheme on both platforms.
///
/// Sources (docs/rules.md, *SumUp*): sumup/sumup-ios-url-scheme README (iOS:
/// `sumupmerchant://pay/1.0?amount=…&currency=…&affiliate-key=…&foreign-tx-id=…&callbacksuccess=…&callbackfail=…`),
/// sumup/sumup-android-url-scheme and sumup/sumup-android-api READMEs (Android: the same URI with
/// `total` (app ≥ 1.88.0), `app-id` and one `callback`, opened with `ACTION_VIEW`).
///
/// The correlation value is `foreign-tx-id`: `<identifier>~<token>`, at most 128 bytes of
/// printable ASCII (0x21–0x7E), unique per merchant — a fresh token per `pos.start` makes every
/// retry a fresh `foreign-tx-id` (a timed-out one can never be used again: sumup-android-url-scheme #2).
///
/// The affiliate key is a secret (bound to the app's bundle id / package): it is in the URL
/// and the intent (the app needs it) and nowhere else — not in descriptions, `dump`, errors,
/// flow details or snapshots.
public struct SumUpRequest: Equatable, Sendable {
    /// The affiliate key (secret).
    public let affiliateKey: String
    /// The Android `app-id` the affiliate key is bound to.
    public let appID: String
    /// The ISO 4217 currency; must be the logged-in merchant's.
    public let currency: String
    /// Where SumUp sends its answer (iOS: both `callbacksuccess` and `callbackfail`; Android `callback`).
    public let callbackURL: String
    /// Optional title shown in SumUp.
    public let title: String?
    /// Optional receipt e-mail.
    public let receiptEmail: String?
    /// Optional receipt phone (sent percent-encoded: an unencoded `+` is read as a space on Android).
    public let receiptPhone: String?
    /// Optional: skip SumUp's success screen.
    public let skipSuccessScreen: Bool?

    /// The longest `foreign-tx-id`, in bytes.
    public static let maxForeignTransactionID = 128

    /// Equal when every field is (by UTF-8 bytes).
    public static func == (lhs: SumUpRequest, rhs: SumUpRequest) -> Bool {
        lhs.affiliateKey.hasSameBytes(as: rhs.affiliateKey) && lhs.appID.hasSameBytes(as: rhs.appID)
            && lhs.currency.hasSameBytes(as: rhs.currency) && lhs.callbackURL.hasSameBytes(as: rhs.callbackURL)
            && lhs.title.hasSameBytes(as: rhs.title) && lhs.receiptEmail.hasSameBytes(as: rhs.receiptEmail)
            && lhs.receiptPhone.hasSameBytes(as: rhs.receiptPhone) && lhs.skipSuccessScreen == rhs.skipSuccessScreen
    }

    /// The request document's keys (`token` last: a build document's).
    static let jsonKeys: StaticString = "pos_app transaction affiliate_key app_id identifier amount currency callback_url title receipt_email receipt_phone skip_success_screen token"

    /// The request document's members, in the order their rules are checked (docs/rules.md,
    /// *SumUp*; ``AppRequestMembers``: key, kind, limit, message; the affiliate key is never quoted).
    static let members: StaticString = """
        affiliate_key text 256
        app_id applicationID 256
        identifier foreignTransactionID
        amount saleAmount 9223372036854775807
        currency currency
        callback_url callbackURL
        title optionalText 256
        receipt_email optionalText 150
        receipt_phone optionalText 32
        skip_success_screen flag
        """

    /// A SumUp sale from its request document's members (read by ``members``).
    static func sale(_ json: AppRequestMembers) -> POSRequest {
        let request = SumUpRequest(affiliateKey: json.text("affiliate_key"), appID: json.text("app_id"), currency: json.text("currency"),
                                   callbackURL: json.text("callback_url"), title: json.optionalText("title"),
                                   receiptEmail: json.optionalText("receipt_email"), receiptPhone: json.optionalText("receipt_phone"),
                                   skipSuccessScreen: json.flag("skip_success_screen"))
        return POSRequest.sale(to: .sumup(request), identifier: json.text("identifier"), amount: json.amount("amount") ?? .zero,
                               answerScheme: json.answerScheme)
    }

    /// An Android application id: two or more `.`-separated segments, each a letter then letters,
    /// digits or `_` (the package the affiliate key is bound to).
    /// - Throws: `validation` naming `app_id`.
    static func checkApplicationID(_ id: String) throws(PayHandoffError) {
        let bytes = Array(id.utf8)
        var segments = 0
        var start = 0
        var valid = true
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ".") { end += 1 }
            let segment = bytes[start..<end]
            let letter: (UInt8) -> Bool = { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
            if let first = segment.first, letter(first), segment.allSatisfy({ letter($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "_") }) {
                segments += 1
            } else {
                valid = false
            }
            start = end + 1
        }
        guard valid, segments >= 2 else {
            throw PayHandoffError(.validation, field: "app_id", "must be an Android application id (com.example.shop)")
        }
    }

    /// SumUp's `foreign-tx-id` rule: 1–128 bytes of printable ASCII 0x21–0x7E.
    /// - Parameters:
    ///   - value: The value sent (`<identifier>~<token>`, or the app's part alone).
    ///   - appPart: The app's identifier (for the message).
    ///   - token: The token, when `value` carries one.
    /// - Throws: `validation` naming `identifier`.
    static func checkForeignTransactionID(_ value: String, appPart: String, token: String?) throws(PayHandoffError) {
        guard !value.isEmpty, value.firstByteOffset(where: { $0 < 0x21 || $0 > 0x7E }).isNone else {
            throw PayHandoffError(.validation, field: "identifier",
                "SumUp's foreign-tx-id is printable ASCII without spaces (0x21–0x7E), and not empty")
        }
        guard value.utf8.count <= maxForeignTransactionID else {
            let room = maxForeignTransactionID - (token.map { $0.utf8.count + 1 } ?? 0)
            throw PayHandoffError(.validation, field: "identifier",
                PayHandoffError.text(PayHandoffError.text("SumUp's foreign-tx-id is at most ", maxForeignTransactionID, " bytes: the app's part may have at most "), room))
        }
    }

    /// The iOS URL: `sumupmerchant://pay/1.0?amount=…&currency=…&affiliate-key=…&foreign-tx-id=…&callbacksuccess=…&callbackfail=…`
    /// (every value percent-encoded but the unreserved characters: `+` is always `%2B`).
    func iOSURL(identifier: String, amount: Amount) -> String { uri(identifier: identifier, amount: amount, android: false) }

    /// The Android URI: `total` (SumUp ≥ 1.88.0), `app-id` and one `callback`.
    func androidURI(identifier: String, amount: Amount) -> String { uri(identifier: identifier, amount: amount, android: true) }

    /// The URI of either platform; the optional fields follow in the README's order.
    private func uri(identifier: String, amount: Amount, android: Bool) -> String {
        var items: [QueryItem] = []
        items.add(android ? "total" : "amount", amount.decimalString)
        items.add("currency", currency)
        items.add("affiliate-key", affiliateKey)
        items.add("app-id", android ? appID : nil)
        items.add("foreign-tx-id", identifier)
        items.add(android ? "callback" : "callbacksuccess", callbackURL)
        items.add("callbackfail", android ? nil : callbackURL)
        items.add("title", title)
        items.add("receipt-email", receiptEmail)
        items.add("receipt-mobilephone", receiptPhone)
        items.add("skip-screen-success", skipSuccessScreen == true ? "true" : nil)
        return QueryEncoder.encode(items, after: "sumupmerchant://pay/1.0?")
    }

    /// `ACTION_VIEW` on the Android URI; no package (SumUp's app claims the scheme).
    func intent(identifier: String, amount: Amount) -> POSIntent {
        POSIntent(action: "android.intent.action.VIEW", package: nil, component: nil,
                  data: androidURI(identifier: identifier, amount: amount), extras: [])
    }
}
