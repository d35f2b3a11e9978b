/// The Billpocket POS app's answer, parsed from the URL it opens:
/// `myapp://result=aprobada&statusinfo=&amount=100.00&tip=15.00&reference=…&transactionid=…`.
///
/// The answer is not a valid URL (the payload sits where a URL parser expects the authority, so
/// `@`, `:` and `/` in a value break `URLComponents`, `java.net.URI` and WHATWG URL). The parser
/// takes the raw text after `scheme://` (a leading `?` is tolerated) and decodes it with
/// ``QueryDecoder`` keeping `+` literal, as the POS app escapes like `URLQueryAllowed`.
///
/// Rules: keys are matched case-insensitively and may not repeat; a known key with an empty
/// value counts as absent (the POS app sends `statusinfo=` when it has nothing to say); an
/// echoed `usertoken` is dropped and never stored; unknown keys are kept in ``extra``.
/// `result` and `identifier` are required; an approved answer must carry an `amount`.
public struct POSResponse: Equatable, Sendable {
    /// The `result` of the operation.
    public enum Result: String, Sendable {
        /// `aprobada`.
        case approved
        /// `rechazada`.
        case declined
        /// `error`.
        case error

        /// The Billpocket spelling.
        public var billpocketValue: String {
            switch self {
            case .approved: return "aprobada"
            case .declined: return "rechazada"
            case .error: return "error"
            }
        }
    }

    /// `accountType`.
    public enum AccountType: String, Sendable {
        /// A credit card.
        case credit
        /// A debit card.
        case debit
    }

    /// Approved, declined or error.
    public var result: Result
    /// The correlation value the request sent.
    public var identifier: String
    /// Additional information, typically on error or decline.
    public var statusInfo: String?
    /// The amount, tip excluded.
    public var amount: Amount?
    /// The tip.
    public var tip: Amount?
    /// The request's reference text.
    public var reference: String?
    /// Billpocket's transaction id (needed for a refund).
    public var transactionId: String?
    /// Monthly installments.
    public var msi: Int?
    /// The issuer's authorization code.
    public var authorization: String?
    /// The last four digits of the card.
    public var cardLastFour: String?
    /// The card type.
    public var cardType: String?
    /// The customer's e-mail.
    public var email: String?
    /// The customer's phone.
    public var phone: String?
    /// The chip cryptogram.
    public var arqc: String?
    /// The chip application identifier.
    public var aid: String?
    /// The chip application label.
    public var appLabel: String?
    /// Identifier for the digital voucher (`url`).
    public var voucherURL: String?
    /// The card issuer.
    public var bank: String?
    /// Credit or debit.
    public var accountType: AccountType?
    /// The cardholder's name.
    public var cardholderName: String?
    /// The POS app version (`bp_version`).
    public var posAppVersion: String?
    /// Keys PayHandoff does not know, in their order, decoded.
    public var extra: [QueryItem]

    /// Parses an answer URL.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - urlScheme: The `urlScheme` the request sent (`myapp` or `myapp://`); the answer's
    ///     scheme must equal it, ignoring case.
    ///   - expectedIdentifier: When given, the answer's `identifier` must equal it exactly.
    /// - Returns: The typed answer.
    /// - Throws: `limit_exceeded` for a URL over 8 KiB; `malformed_url` for a bad shape, escape,
    ///   encoding or duplicate key; `callback_mismatch` for another scheme or identifier;
    ///   `validation` for a missing `result`/`identifier`, an unknown `result`, or a
    ///   non-numeric amount, tip or msi.
    public static func parse(_ url: String, urlScheme: String,
                             expectedIdentifier: String? = nil) throws(PayHandoffError) -> POSResponse {
        let payload = try payload(of: url, urlScheme: urlScheme)
        let items = try QueryDecoder.decode(payload, plus: .literal, caseInsensitiveKeys: true)
        let response = try POSResponse(items: items)
        if let expectedIdentifier, response.identifier != expectedIdentifier {
            throw PayHandoffError(.callbackMismatch, field: "identifier",
                "the answer's identifier does not match the pending request")
        }
        return response
    }

    /// The text after `scheme://` (and an optional `?`), after checking size, characters and scheme.
    static func payload(of url: String, urlScheme: String) throws(PayHandoffError) -> Substring {
        try URLSyntax.checkIncoming(url, field: "url")
        let (scheme, rest) = try URLSyntax.splitScheme(url, field: "url")
        guard ASCII.equalFoldingCase(String(scheme), POSRequest.bareScheme(urlScheme)) else {
            throw PayHandoffError(.callbackMismatch, field: "scheme",
                "the URL's scheme is not the urlScheme the POS request was sent with")
        }
        guard rest.utf8.starts(with: "//".utf8) else {
            throw PayHandoffError(.malformedURL, field: "url", "a POS answer must start with 'scheme://'")
        }
        // By bytes, not Characters: a combining mark after '//' or '?' stays in the payload.
        var payload = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
        if payload.utf8.first == UInt8(ascii: "?") { payload = payload[payload.utf8.index(after: payload.startIndex)...] }
        guard !ASCII.contains(payload, UInt8(ascii: "#")) else {
            // The POS app escapes '#' (%23); a raw one would silently cut the answer short.
            throw PayHandoffError(.malformedURL, field: "url", "a POS answer must not contain a raw '#'")
        }
        return payload
    }

    init(items: [QueryItem]) throws(PayHandoffError) {
        // Values by position in `keyList` (ASCII case-insensitive byte match): no hashing, no
        // lowercased copies of keys.
        var fields = [String?](repeating: nil, count: POSResponse.keyList.count)
        var extra: [QueryItem] = []
        for item in items {
            if ASCII.equalFoldingCase(item.key, "usertoken") { continue }
            if let index = POSResponse.keyIndex(item.key) {
                if !item.value.isEmpty { fields[index] = item.value }
            } else {
                extra.append(item)
            }
        }
        guard let rawResult = fields[Key.result] else {
            throw PayHandoffError(.validation, field: "result", "the answer has no result")
        }
        switch ASCII.lowercased(rawResult) {
        case "aprobada": result = .approved
        case "rechazada": result = .declined
        case "error": result = .error
        default: throw PayHandoffError(.validation, field: "result", "must be aprobada, rechazada or error")
        }
        guard let identifier = fields[Key.identifier] else {
            throw PayHandoffError(.validation, field: "identifier", "the answer has no identifier")
        }
        self.identifier = identifier
        amount = try fields[Key.amount].map { text throws(PayHandoffError) in try Amount(parsing: text, field: "amount") }
        if result == .approved, amount == nil {
            throw PayHandoffError(.validation, field: "amount", "an approved answer must carry the amount")
        }
        tip = try fields[Key.tip].map { text throws(PayHandoffError) in try Amount(parsing: text, field: "tip") }
        if let text = fields[Key.msi] {
            guard ASCII.isAllDigits(text), text.utf8.count <= 2, let value = Int(text),
                  POSRequest.allowedInstallments.contains(value) else {
                throw PayHandoffError(.validation, field: "msi", "must be 0, 3, 6, 9 or 12")
            }
            msi = value
        }
        if let text = fields[Key.creditcard] {
            let lastFour = text.utf8.suffix(4)
            guard lastFour.count == 4, lastFour.allSatisfy(ASCII.isDigit) else {
                throw PayHandoffError(.validation, field: "creditcard", "must end with the card's last four digits")
            }
            cardLastFour = String(decoding: lastFour, as: UTF8.self)
        }
        if let text = fields[Key.accounttype] {
            switch ASCII.lowercased(text) {
            case "credit": accountType = .credit
            case "debit": accountType = .debit
            default: throw PayHandoffError(.validation, field: "accountType", "must be credit or debit")
            }
        }
        statusInfo = fields[Key.statusinfo]
        reference = fields[Key.reference]
        transactionId = fields[Key.transactionid]
        authorization = fields[Key.authorization]
        cardType = fields[Key.cardtype]
        email = fields[Key.email]
        phone = fields[Key.phone]
        arqc = fields[Key.arqc]
        aid = fields[Key.aid]
        appLabel = fields[Key.applabel]
        voucherURL = fields[Key.url]
        bank = fields[Key.bank]
        cardholderName = fields[Key.name]
        posAppVersion = fields[Key.bpVersion]
        self.extra = extra
    }

    /// The response keys of the Billpocket table, lowercased (keys are matched ignoring case),
    /// in the order of ``Key``.
    static let keyList: [String] = [
        "result", "statusinfo", "amount", "tip", "reference", "transactionid", "msi",
        "authorization", "creditcard", "cardtype", "email", "phone", "arqc", "aid", "applabel",
        "url", "identifier", "bank", "accounttype", "name", "bp_version",
    ]

    /// The position of `key` in ``keyList``, ignoring ASCII case.
    static func keyIndex(_ key: String) -> Int? {
        let count = key.utf8.count
        for (index, known) in keyList.enumerated() where known.utf8.count == count && ASCII.equalFoldingCase(known, key) {
            return index
        }
        return nil
    }

    /// Positions in ``keyList``.
    private enum Key {
        static let result = 0
        static let statusinfo = 1
        static let amount = 2
        static let tip = 3
        static let reference = 4
        static let transactionid = 5
        static let msi = 6
        static let authorization = 7
        static let creditcard = 8
        static let cardtype = 9
        static let email = 10
        static let phone = 11
        static let arqc = 12
        static let aid = 13
        static let applabel = 14
        static let url = 15
        static let identifier = 16
        static let bank = 17
        static let accounttype = 18
        static let name = 19
        static let bpVersion = 20
    }
}
