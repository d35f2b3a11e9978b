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
    ///
    /// The POS app's words, in any case (issue 30): `aprobada`; `rechazada` and `declinada` (both
    /// seen in integrations: Billpocket's own Cordova plugin compares with `declinada`); `error`
    /// (also what a sale cancelled in the POS app answers). A word PayHandoff does not know is
    /// ``unrecognized``: never an approval, and an answer all the same — the hand-off ended and
    /// its outcome must be reconciled (``resultWord`` keeps the word as sent).
    public enum Result: String, Sendable, CaseIterable {
        /// `aprobada`.
        case approved
        /// `rechazada` or `declinada`.
        case declined
        /// `error`.
        case error
        /// The merchant or the customer cancelled the sale in the terminal app; nothing was
        /// charged (Square `ERROR_TRANSACTION_CANCELED` / `payment_canceled`, Clip `CANCELLED`).
        /// Billpocket never answers it: its cancelled sale is `error`.
        case cancelled
        /// Any other word: the outcome is unknown.
        case unrecognized

        /// The result spelled `rawValue` (`approved`, `declined`, `error`, `unrecognized`), matched by bytes.
        /// - Parameter rawValue: The spelling.
        public init?(rawValue: String) {
            guard let value = Result.matching(rawValue, among: Result.allCases) else { return nil }
            self = value
        }

        /// The Billpocket spelling (`unrecognized` has none: its word is ``POSResponse/resultWord``).
        public var billpocketValue: String {
            switch self {
            case .approved: return "aprobada"
            case .declined: return "rechazada"
            case .error: return "error"
            case .cancelled, .unrecognized: return ""
            }
        }

        /// The result a Billpocket word means, ignoring ASCII case.
        static func reading(_ word: UnsafeBufferPointer<UInt8>) -> Result {
            if ASCII.equalFoldingCase(word, lowercase: "aprobada") { return .approved }
            if ASCII.equalFoldingCase(word, lowercase: "rechazada") || ASCII.equalFoldingCase(word, lowercase: "declinada") { return .declined }
            if ASCII.equalFoldingCase(word, lowercase: "error") { return .error }
            return .unrecognized
        }
    }

    /// `accountType`.
    public enum AccountType: String, Sendable, CaseIterable {
        /// A credit card.
        case credit
        /// A debit card.
        case debit

        /// The account type spelled `rawValue`, matched by bytes.
        /// - Parameter rawValue: `credit` or `debit`.
        public init?(rawValue: String) {
            guard let value = AccountType.matching(rawValue, among: AccountType.allCases) else { return nil }
            self = value
        }
    }

    /// The text the answer was read from (the URL as received, or the canonical query text of a
    /// restored answer): the text fields below are views into it, decoded when read. Parsing
    /// validates every field but builds no string — the POS app sends ~20 of them and a host
    /// typically reads a few.
    private(set) var text: String
    /// Keys PayHandoff does not know, in their order, decoded.
    public var extra: [QueryItem]
    /// In the copy a flow keeps (``stored``): the members that were cut short or left out
    /// (`"statusinfo"`, `"extra"`, …); empty for a parsed answer.
    public internal(set) var truncated: [String] = []
    /// The longest `transactionid` accepted, in bytes.
    public static let maxTransactionIDLength = 128
    // The typed fields, packed (−1 for absent) so that the answer is 88 bytes, not 168: it is
    // copied a few times on its way out of a parse.
    private var amountUnits: Int64 = -1
    private var tipUnits: Int64 = -1
    /// Where each field of ``fields`` is in ``text``.
    private(set) var fields: FieldTable
    /// Approved, declined, error, cancelled (not Billpocket) or unrecognized.
    public internal(set) var result: Result
    /// The terminal app that answered (``POSApp/billpocket`` for an answer read by these rules).
    public internal(set) var posApp: POSApp = .billpocket
    /// Credit or debit.
    public private(set) var accountType: AccountType?
    private var installments: Int8 = -1

    /// The amount, tip excluded.
    public var amount: Amount? { amountUnits < 0 ? nil : Amount(unchecked: amountUnits) }
    /// The tip.
    public var tip: Amount? { tipUnits < 0 ? nil : Amount(unchecked: tipUnits) }
    /// Monthly installments.
    public var msi: Int? { installments < 0 ? nil : Int(installments) }

    /// The correlation value the request sent.
    public var identifier: String { field(Key.identifier) ?? "" }
    /// The `result` word as the POS app sent it (decoded), when PayHandoff does not know it
    /// (``Result/unrecognized``); `nil` for a known word.
    public var resultWord: String? {
        guard result == .unrecognized else { return nil }
        return posApp == .billpocket ? field(Key.result) : otherWord
    }
    /// Another app's status word when PayHandoff does not know it (Billpocket's is in ``text``).
    var otherWord: String? = nil
    /// Another app's error code or cancel code as it wrote it (`error_code` in the answer
    /// document): Square's `error_code` / `ERROR_CODE`, Clip's `PAYMENT_ERROR`.
    public internal(set) var errorCode: String? = nil
    /// Additional information, typically on error or decline.
    public var statusInfo: String? { field(Key.statusinfo) }
    /// The request's reference text.
    public var reference: String? { field(Key.reference) }
    /// Billpocket's transaction id (needed for a refund).
    public var transactionId: String? { field(Key.transactionid) }
    /// The issuer's authorization code.
    public var authorization: String? { field(Key.authorization) }
    /// The last four digits of the card.
    public var cardLastFour: String? { field(Key.creditcard).map { String(decoding: $0.utf8.suffix(4), as: UTF8.self) } }
    /// The card type.
    public var cardType: String? { field(Key.cardtype) }
    /// The customer's e-mail.
    public var email: String? { field(Key.email) }
    /// The customer's phone.
    public var phone: String? { field(Key.phone) }
    /// The chip cryptogram.
    public var arqc: String? { field(Key.arqc) }
    /// The chip application identifier.
    public var aid: String? { field(Key.aid) }
    /// The chip application label.
    public var appLabel: String? { field(Key.applabel) }
    /// Identifier for the digital voucher (`url`).
    public var voucherURL: String? { field(Key.url) }
    /// The card issuer.
    public var bank: String? { field(Key.bank) }
    /// The cardholder's name.
    public var cardholderName: String? { field(Key.name) }
    /// The POS app version (`bp_version`).
    public var posAppVersion: String? { field(Key.bpVersion) }

    /// Parses an answer URL.
    /// - Parameters:
    ///   - url: The URL the OS handed the app.
    ///   - urlScheme: The `urlScheme` the request sent (`myapp` or `myapp://`); the answer's
    ///     scheme must equal it, ignoring case.
    ///   - expectedIdentifier: When given, the answer's `identifier` must equal it exactly — or,
    ///     with `token`, equal `<expectedIdentifier>~<token>` (the token compared in constant time).
    ///   - token: The per-hand-off token the request's identifier carried (``POSRequest/withToken(_:)``).
    /// - Returns: The typed answer.
    /// - Throws: `validation` for a `token` that breaks ``CorrelationSecret``'s rule or comes
    ///   without `expectedIdentifier`; `limit_exceeded` for a URL over 8 KiB; `malformed_url` for
    ///   a bad shape, escape, encoding or duplicate key; then `validation` for a missing
    ///   `identifier` and `callback_mismatch` for another scheme or identifier (before any other
    ///   field is looked at: "not for this sale" comes first); then `validation` for a missing or
    ///   unknown `result`, a non-numeric amount, tip or msi, or a bad `transactionid`.
    public static func parse(_ url: String, urlScheme: String, expectedIdentifier: String? = nil,
                             token: String? = nil) throws(PayHandoffError) -> POSResponse {
        try parse(url, urlScheme: urlScheme, expecting: try IdentifierExpectation(expectedIdentifier, token: token))
    }

    /// Which identifiers an answer may carry.
    enum IdentifierExpectation {
        /// Any (the caller matches it itself).
        case any
        /// Exactly `<identifier>~<token>`, or `identifier` when `token` is `nil`.
        case one(identifier: String, token: String?)
        /// One of these hand-offs' (the coordinator's pending POS flows on the answer's scheme).
        case oneOf([POSFlow])

        init(_ identifier: String?, token: String?) throws(PayHandoffError) {
            if let token {
                try CorrelationSecret.checkToken(token, field: "token")
                guard let identifier else {
                    throw PayHandoffError(.validation, field: "token", "needs identifier: the token follows the request's identifier")
                }
                self = .one(identifier: identifier, token: token)
            } else {
                self = identifier.map { .one(identifier: $0, token: nil) } ?? .any
            }
        }

        /// Whether the echoed identifier `echoed` (decoded bytes) is expected.
        func accepts(_ echoed: UnsafeBufferPointer<UInt8>) -> Bool {
            switch self {
            case .any: return true
            case .one(let identifier, let token): return POSResponse.identifier(echoed, is: identifier, token: token)
            case .oneOf(let flows): return flows.contains { POSResponse.identifier(echoed, is: $0.identifier, token: $0.token) }
            }
        }
    }

    /// Whether `echoed` is `identifier`, or `<identifier>~<token>` with the token compared in
    /// constant time (the identifier part is no secret: it is the app's own order reference).
    static func identifier(_ echoed: UnsafeBufferPointer<UInt8>, is identifier: String, token: String?) -> Bool {
        guard let token else { return identifier.hasSameBytes(as: echoed) }
        let count = identifier.utf8.count
        guard echoed.count == count + 1 + token.utf8.count, echoed[count] == POSRequest.tokenSeparator,
              identifier.hasSameBytes(as: UnsafeBufferPointer(rebasing: echoed[..<count])) else { return false }
        return CorrelationSecret.constantTimeEqual(UnsafeBufferPointer(rebasing: echoed[(count + 1)...]), token)
    }

    /// ``parse(_:urlScheme:expectedIdentifier:token:)`` with the expectation already made.
    static func parse(_ url: String, urlScheme: String, expecting expectation: consuming IdentifierExpectation) throws(PayHandoffError) -> POSResponse {
        // `expectation` is consumed, so the closure below reads it where it is: a borrowed one was
        // copied into the closure (its strings or flows retained and released, twice per answer).
        // withUTF8Buffer, not withUTF8Bytes: the Optional<Result> that withContiguousStorageIfAvailable
        // returns is tested on bits of the enum's layout that memcheck sees as never written
        // (make c-harness's valgrind run).
        let outcome = url.withUTF8Buffer { bytes -> Swift.Result<POSResponse, PayHandoffError> in
            // The query scan also spots raw control characters and '#', so the answer is read in
            // one pass. When it spots one, or anything fails, the exact checks run and the error
            // reported is the one the documented order gives: size and characters first, then
            // scheme and '//', then '#', then the query and the fields.
            let start: Int
            do throws(PayHandoffError) {
                start = try payloadStart(of: bytes, urlScheme: urlScheme)
            } catch {
                return .failure(characterError(in: bytes, hashToo: false) ?? error)
            }
            var unusual = false
            let response: POSResponse
            do throws(PayHandoffError) {
                response = try POSResponse(text: url, bytes: bytes, from: start, expecting: expectation, unusualBytes: &unusual)
            } catch {
                return .failure(characterError(in: bytes, hashToo: true) ?? error)
            }
            // A false alarm (`!`, `"`) leaves no error.
            if unusual, let error = characterError(in: bytes, hashToo: true) { return .failure(error) }
            return .success(response)
        }
        return try outcome.get()
    }

    /// Where the text after `scheme://` (and an optional `?`) starts, after checking size and
    /// scheme. The bytes before it are the scheme's (letters, digits, `+-.`), `://` and `?`.
    static func payloadStart(of bytes: UnsafeBufferPointer<UInt8>, urlScheme: String) throws(PayHandoffError) -> Int {
        try URLSyntax.checkLength(bytes, field: "url")
        let colon = try URLSyntax.schemeEnd(bytes, field: "url")
        // `urlScheme` as the request sent it: `myapp` or `myapp://`.
        let sameScheme = urlScheme.withUTF8Buffer { expected in
            var count = expected.count
            if count > 3, expected[count - 3] == UInt8(ascii: ":"), expected[count - 2] == UInt8(ascii: "/"),
               expected[count - 1] == UInt8(ascii: "/") { count -= 3 }
            return count == colon && ASCII.equalFoldingCase(UnsafeBufferPointer(rebasing: bytes[..<colon]),
                                                            UnsafeBufferPointer(rebasing: expected[..<count]))
        }
        guard sameScheme else {
            throw PayHandoffError(.callbackMismatch, field: "scheme",
                "the URL's scheme is not the urlScheme the POS request was sent with")
        }
        guard bytes.count - colon > 2, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
            throw PayHandoffError(.malformedURL, field: "url", "a POS answer must start with 'scheme://'")
        }
        var start = colon + 3
        if start < bytes.count, bytes[start] == UInt8(ascii: "?") { start += 1 }
        return start
    }

    /// The error for a raw control character, space or DEL anywhere in the URL, or — when
    /// `hashToo` — for a raw `#` (the POS app escapes it as `%23`; a raw one would silently cut
    /// the answer short); `nil` when there is none.
    private static func characterError(in bytes: UnsafeBufferPointer<UInt8>, hashToo: Bool) -> PayHandoffError? {
        do throws(PayHandoffError) {
            let hash = try URLSyntax.checkIncoming(bytes, field: "url")
            guard hashToo, hash != nil else { return nil }
            return PayHandoffError(.malformedURL, field: "url", "a POS answer must not contain a raw '#'")
        } catch {
            return error
        }
    }

    /// Reads the answer in `bytes[start...]`, the UTF-8 of `text`; the answer's `identifier` must
    /// be one `expectation` accepts (checked right after the query: before any other field).
    /// `unusualBytes` is set when the query has a byte ``URLSyntax/checkIncoming(_:field:)``
    /// would refuse, or a `#` (see ``QueryDecoder/scan(_:plus:caseInsensitiveKeys:endsAtHash:knownKey:_:)``).
    init(text: String, bytes: UnsafeBufferPointer<UInt8>, from start: Int,
         expecting expectation: borrowing IdentifierExpectation = .any, unusualBytes: inout Bool) throws(PayHandoffError) {
        guard bytes.count <= FieldTable.maxTextLength else {
            throw PayHandoffError(.limitExceeded, field: "url", "answer text is longer than " + String(FieldTable.maxTextLength) + " bytes")
        }
        var fields = FieldTable()
        var ends = FieldTable()  // where each value ends, for the checks below (not kept)
        var extra: [QueryItem] = []
        var sawUserToken = false
        let query = UnsafeBufferPointer(rebasing: bytes[start...])
        unusualBytes = try QueryDecoder.scan(query, plus: .literal, caseInsensitiveKeys: true,
                              knownKey: POSResponse.keyIndex) { piece, index throws(PayHandoffError) in
            // Small enough to be inlined into the scan; the rare unknown key is handled out of line.
            guard let index else { return POSResponse.appendExtra(piece, in: query, to: &extra) }
            if index >= Key.usertoken {
                sawUserToken = true  // an echoed secret (the user token, the merchant's PIN) is never stored
            } else if !piece.value.isEmpty {  // a known key with an empty value counts as absent
                fields.set(index, start: start + piece.value.lowerBound, isEscaped: piece.valueIsEscaped)
                ends.set(index, start: start + piece.value.upperBound, isEscaped: false)
            }
        }.unusualBytes
        func value(_ index: Int) -> String? {
            fields.span(index, in: bytes).map { POSResponse.decode($0, in: bytes) }
        }
        /// `body` over field `index`'s decoded bytes (no string built unless it was escaped).
        /// Inlined, so each check below runs in place with no closure context or result box; an
        /// escaped value (rare) is decoded out of line.
        @inline(__always)
        func withValue<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(PayHandoffError) -> T) throws(PayHandoffError) -> T? {
            guard let span = fields.span(index, endingAt: ends) else { return nil }
            guard span.isEscaped else { return try body(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])) }
            return try POSResponse.withDecoded(span, in: bytes, body)
        }
        // "Not for this sale" is what the host must learn first: the identifier before any other
        // field. Read with no closure: one capturing `expectation` copied it.
        guard let identifierSpan = fields.span(Key.identifier, endingAt: ends) else {
            throw PayHandoffError(.validation, field: "identifier", "the answer has no identifier")
        }
        let matches = identifierSpan.isEscaped ? POSResponse.accepts(identifierSpan, in: bytes, expectation)
            : expectation.accepts(UnsafeBufferPointer(rebasing: bytes[identifierSpan.start..<identifierSpan.end]))
        guard matches else {

            throw PayHandoffError(.callbackMismatch, field: "identifier", "the answer's identifier does not match the pending request")
        }
        let parsedResult = try withValue(Key.result) { text throws(PayHandoffError) -> Result in Result.reading(text) }
        guard let parsedResult else {
            throw PayHandoffError(.validation, field: "result", "the answer has no result")
        }
        let amount = try withValue(Key.amount) { text throws(PayHandoffError) in try Amount.parse(text, field: "amount") }
        if parsedResult == .approved, amount == nil {
            throw PayHandoffError(.validation, field: "amount", "an approved answer must carry the amount")
        }
        let tip = try withValue(Key.tip) { text throws(PayHandoffError) in try Amount.parse(text, field: "tip") }
        let msi = try withValue(Key.msi) { text throws(PayHandoffError) -> Int in
            let value = text.count <= 2 && text.allSatisfy(ASCII.isDigit) ? text.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : -1
            guard POSRequest.allowedInstallments.contains(value) else {
                throw PayHandoffError(.validation, field: "msi", "must be 0, 3, 6, 9 or 12")
            }
            return value
        }
        _ = try withValue(Key.creditcard) { text throws(PayHandoffError) in
            guard text.count >= 4, text[(text.count - 4)...].allSatisfy(ASCII.isDigit) else {
                throw PayHandoffError(.validation, field: "creditcard", "must end with the card's last four digits")
            }
        }
        let accountType = try withValue(Key.accounttype) { text throws(PayHandoffError) -> AccountType in
            if ASCII.equalFoldingCase(text, lowercase: "credit") { return .credit }
            if ASCII.equalFoldingCase(text, lowercase: "debit") { return .debit }
            throw PayHandoffError(.validation, field: "accountType", "must be credit or debit")
        }
        _ = try withValue(Key.transactionid) { text throws(PayHandoffError) in
            // Kept in the refund ledger and matched by bytes: the ledger's one rule.
            guard RefundLedger.isValidTransactionID(text) else {
                throw PayHandoffError(.validation, field: "transactionid", "must be 1 to 128 printable ASCII characters without spaces")
            }
        }
        self.text = text
        self.extra = extra
        self.amountUnits = amount?.minorUnits ?? -1
        self.tipUnits = tip?.minorUnits ?? -1
        self.fields = fields
        self.result = parsedResult
        self.accountType = accountType
        self.installments = Int8(truncatingIfNeeded: msi ?? -1)
        if sawUserToken {
            // The raw text holds the token: keep the canonical text of the fields instead.
            var items: [QueryItem] = []
            for index in POSResponse.fields.indices {
                if let value = value(index) { items.append(QueryItem(key: POSResponse.fields[index].key, value: value)) }
            }
            self = try POSResponse(items: items + extra)
        }
    }

    /// `body` over an escaped value, decoded (out of line: values the parser checks are rarely escaped).
    @inline(never)
    private static func withDecoded<T>(_ span: FieldTable.Span, in bytes: UnsafeBufferPointer<UInt8>,
                                       _ body: (UnsafeBufferPointer<UInt8>) throws(PayHandoffError) -> T) throws(PayHandoffError) -> T {
        let decoded = Array(decode(span, in: bytes).utf8)
        let outcome = decoded.withUnsafeBufferPointer { buffer -> Swift.Result<T, PayHandoffError> in
            do throws(PayHandoffError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// Whether `expectation` accepts an escaped identifier, decoded.
    @inline(never)
    private static func accepts(_ span: FieldTable.Span, in bytes: UnsafeBufferPointer<UInt8>, _ expectation: IdentifierExpectation) -> Bool {
        Array(decode(span, in: bytes).utf8).withUnsafeBufferPointer { expectation.accepts($0) }
    }

    @inline(never)
    private static func appendExtra(_ piece: QueryDecoder.Piece, in query: UnsafeBufferPointer<UInt8>, to extra: inout [QueryItem]) {
        extra.append(QueryItem(key: piece.key(in: query, plus: .literal), value: piece.value(in: query, plus: .literal)))
    }

    /// An answer from decoded `key=value` pairs (a restored document): joined into query text
    /// and read by the same rules as a URL.
    init(items: [QueryItem]) throws(PayHandoffError) {
        let text = QueryEncoder.joinForReading(items)
        let outcome = text.withUTF8Buffer { bytes -> Swift.Result<POSResponse, PayHandoffError> in
            do throws(PayHandoffError) {
                var unusual = false  // canonical text escapes every such byte
                return .success(try POSResponse(text: text, bytes: bytes, from: 0, unusualBytes: &unusual))
            } catch {
                return .failure(error)
            }
        }
        self = try outcome.get()
    }

    /// Equal when every field reads the same, byte for byte (not the same raw text: `%41` and `A`
    /// are the same answer).
    /// - Parameters:
    ///   - lhs: An answer.
    ///   - rhs: Another answer.
    /// - Returns: Whether they are the same answer.
    public static func == (lhs: POSResponse, rhs: POSResponse) -> Bool {
        guard lhs.result == rhs.result, lhs.posApp == rhs.posApp, lhs.amount == rhs.amount, lhs.tip == rhs.tip, lhs.msi == rhs.msi,
              lhs.accountType == rhs.accountType, lhs.extra.count == rhs.extra.count,
              lhs.resultWord.hasSameBytes(as: rhs.resultWord), lhs.errorCode.hasSameBytes(as: rhs.errorCode) else { return false }
        switch (lhs.cardLastFour, rhs.cardLastFour) {
        case (nil, nil): break
        case let (a?, b?) where a.hasSameBytes(as: b): break
        default: return false
        }  // the rest of the number is masked anyway
        // The typed fields compare as values (`100` is `100.00`, `Debit` is `debit`), the rest as text.
        for index in fields.indices where !fields[index].typed {
            switch (lhs.field(index), rhs.field(index)) {
            case (nil, nil): continue
            case let (a?, b?) where a.hasSameBytes(as: b): continue
            default: return false
            }
        }
        for (a, b) in zip(lhs.extra, rhs.extra) where !a.key.hasSameBytes(as: b.key) || !a.value.hasSameBytes(as: b.value) {
            return false
        }
        return lhs.truncated.count == rhs.truncated.count && zip(lhs.truncated, rhs.truncated).allSatisfy { $0.hasSameBytes(as: $1) }
    }

    /// The decoded text of field `index` of ``fields``, if the answer has it.
    func field(_ index: Int) -> String? {
        guard fields.contains(index) else { return nil }
        return text.withUTF8Buffer { bytes in fields.span(index, in: bytes).map { POSResponse.decode($0, in: bytes) } }
    }

    private static func decode(_ span: FieldTable.Span, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        QueryDecoder.decoded(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end]), escaped: span.isEscaped, plus: .literal)
    }

    /// One key of the Billpocket response table.
    struct Field {
        /// The key, lowercase (keys are matched ignoring case).
        let key: String
        /// Its member name in the answer's JSON document.
        let json: StaticString
        /// The Swift property that reads it (debuggers' and `dump`'s label).
        let label: String
        /// Whether it is read as a typed value (amount, tip, msi, card digits, account type,
        /// result) rather than text: typed fields compare as values (`100` is `100.00`).
        let typed: Bool
    }

    /// The Billpocket response table, in its order: the one list of the 21 keys. Parsing
    /// (``keyIndex(_:)-(UnsafeBufferPointer<UInt8>)``, checked against it by the tests), the JSON
    /// document, reflection, equality and the stored copy all read it; ``Key`` names positions.
    static let fields: [Field] = [
        Field(key: "result", json: "result", label: "result", typed: true),
        Field(key: "statusinfo", json: "statusinfo", label: "statusInfo", typed: false),
        Field(key: "amount", json: "amount", label: "amount", typed: true),
        Field(key: "tip", json: "tip", label: "tip", typed: true),
        Field(key: "reference", json: "reference", label: "reference", typed: false),
        Field(key: "transactionid", json: "transactionid", label: "transactionId", typed: false),
        Field(key: "msi", json: "msi", label: "msi", typed: true),
        Field(key: "authorization", json: "authorization", label: "authorization", typed: false),
        Field(key: "creditcard", json: "creditcard", label: "cardLastFour", typed: true),
        Field(key: "cardtype", json: "cardtype", label: "cardType", typed: false),
        Field(key: "email", json: "email", label: "email", typed: false),
        Field(key: "phone", json: "phone", label: "phone", typed: false),
        Field(key: "arqc", json: "arqc", label: "arqc", typed: false),
        Field(key: "aid", json: "aid", label: "aid", typed: false),
        Field(key: "applabel", json: "applabel", label: "appLabel", typed: false),
        Field(key: "url", json: "url", label: "voucherURL", typed: false),
        Field(key: "identifier", json: "identifier", label: "identifier", typed: false),
        Field(key: "bank", json: "bank", label: "bank", typed: false),
        Field(key: "accounttype", json: "accountType", label: "accountType", typed: true),
        Field(key: "name", json: "name", label: "cardholderName", typed: false),
        Field(key: "bp_version", json: "bp_version", label: "posAppVersion", typed: false),
    ]

    /// The position of `key` in ``fields``, ignoring ASCII case.
    static func keyIndex(_ key: String) -> Int? {
        return key.withUTF8Buffer { keyIndex($0) }
    }

    /// The position of the key spelled by `key`'s bytes in ``fields`` (ASCII case ignored), or
    /// ``Key/usertoken`` or ``Key/pin`` for a secret the app may echo. Length and first letter single out the
    /// one candidate; it is compared as two lowercased words. Each case reads the key with its
    /// length known and compares with its own literal, so the compiler folds both into constants.
    static func keyIndex(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = key.baseAddress else { return nil }
        @inline(__always) func lowered(_ count: Int) -> (UInt64, UInt64) { ByteScan.words(base, count) }
        // Case ignored by setting bit 5 where the name has a letter: `c | 0x20` is the lowercase
        // letter exactly when c is that letter in either case; other bytes must be equal.
        @inline(__always) func match(_ words: (UInt64, UInt64), _ name: StaticString, _ index: Int) -> Int? {
            let expected = ByteScan.words(name.utf8Start, name.utf8CodeUnitCount)
            let caseBits = (ByteScan.lowercaseLetters(expected.0), ByteScan.lowercaseLetters(expected.1))
            return (words.0 | caseBits.0, words.1 | caseBits.1) == expected ? index : nil
        }
        @inline(__always) func first(_ words: (UInt64, UInt64)) -> UInt8 { UInt8(truncatingIfNeeded: words.0) | 0x20 }
        switch key.count {
        case 3:
            let w = lowered(3)
            switch first(w) {
            case UInt8(ascii: "p"): return match(w, "pin", Key.pin)
            case UInt8(ascii: "t"): return match(w, "tip", Key.tip)
            case UInt8(ascii: "m"): return match(w, "msi", Key.msi)
            case UInt8(ascii: "a"): return match(w, "aid", Key.aid)
            case UInt8(ascii: "u"): return match(w, "url", Key.url)
            default: return nil
            }
        case 4:
            let w = lowered(4)
            switch first(w) {
            case UInt8(ascii: "a"): return match(w, "arqc", Key.arqc)
            case UInt8(ascii: "b"): return match(w, "bank", Key.bank)
            case UInt8(ascii: "n"): return match(w, "name", Key.name)
            default: return nil
            }
        case 5:
            let w = lowered(5)
            switch first(w) {
            case UInt8(ascii: "e"): return match(w, "email", Key.email)
            case UInt8(ascii: "p"): return match(w, "phone", Key.phone)
            default: return nil
            }
        case 6:
            let w = lowered(6)
            switch first(w) {
            case UInt8(ascii: "r"): return match(w, "result", Key.result)
            case UInt8(ascii: "a"): return match(w, "amount", Key.amount)
            default: return nil
            }
        case 8:
            let w = lowered(8)
            switch first(w) {
            case UInt8(ascii: "c"): return match(w, "cardtype", Key.cardtype)
            case UInt8(ascii: "a"): return match(w, "applabel", Key.applabel)
            default: return nil
            }
        case 9:
            let w = lowered(9)
            switch first(w) {
            case UInt8(ascii: "r"): return match(w, "reference", Key.reference)
            case UInt8(ascii: "u"): return match(w, "usertoken", Key.usertoken)
            default: return nil
            }
        case 10:
            let w = lowered(10)
            switch first(w) {
            case UInt8(ascii: "s"): return match(w, "statusinfo", Key.statusinfo)
            case UInt8(ascii: "c"): return match(w, "creditcard", Key.creditcard)
            case UInt8(ascii: "i"): return match(w, "identifier", Key.identifier)
            case UInt8(ascii: "b"): return match(w, "bp_version", Key.bpVersion)
            default: return nil
            }
        case 11:
            return match(lowered(11), "accounttype", Key.accounttype)
        case 13:
            let w = lowered(13)
            switch first(w) {
            case UInt8(ascii: "t"): return match(w, "transactionid", Key.transactionid)
            case UInt8(ascii: "a"): return match(w, "authorization", Key.authorization)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Positions in ``fields``.
    enum Key {
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
        /// Not fields: secrets an answer may echo, recognised only to be dropped — the user token
        /// (iOS answers echo it) and the merchant's PIN (older Android integrations send it as an
        /// extra, and the POS app may echo it back).
        static let usertoken = 21
        static let pin = 22
    }

    /// Where each known field's value is in the text: 21 packed spans stored inline (no
    /// allocation per answer). URLs are at most 8 KiB, so offsets fit in 15 bits.
    struct FieldTable: Sendable {
        /// A value's bytes in the text, still escaped when `isEscaped`.
        struct Span {
            var start: Int
            var end: Int
            var isEscaped: Bool
        }

        /// The longest text whose offsets fit (URLs are refused beyond 8 KiB long before).
        static let maxTextLength = 0x7FFF

        /// Per field its start offset (15 bits) and whether it is escaped (bit 15); 0 for absent
        /// (a value follows `k=`, so it never starts at 0). A value ends at the next `&` or at
        /// the end of the text: a raw `&` cannot be inside one.
        private var starts: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

        /// Field `index`'s value in `bytes` (the text's UTF-8), or `nil` when the answer does not have it.
        func span(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Span? {
            let packed = self[index]
            guard packed != 0 else { return nil }
            let start = Int(packed & 0x7FFF)
            let end = ByteScan.firstIndex(of: UInt8(ascii: "&"), in: bytes, from: start, to: bytes.count)
            return Span(start: start, end: end, isEscaped: packed & 0x8000 != 0)
        }

        /// ``span(_:in:)`` with the end already known: `ends` holds each value's end offset (a
        /// table the parser fills next to this one, so its checks do not look for the `&` again).
        func span(_ index: Int, endingAt ends: FieldTable) -> Span? {
            let packed = self[index]
            guard packed != 0 else { return nil }
            return Span(start: Int(packed & 0x7FFF), end: Int(ends[index] & 0x7FFF), isEscaped: packed & 0x8000 != 0)
        }

        /// Whether the answer has field `index`.
        func contains(_ index: Int) -> Bool {
            self[index] != 0
        }

        /// Entry `index`, by shifts: `withUnsafeBytes(of:)` would copy the table first.
        private subscript(index: Int) -> UInt16 {
            let word: UInt64
            switch index >> 2 {
            case 0: word = starts.0
            case 1: word = starts.1
            case 2: word = starts.2
            case 3: word = starts.3
            case 4: word = starts.4
            default: word = starts.5
            }
            return UInt16(truncatingIfNeeded: word >> UInt64((index & 3) * 16))
        }

        /// Records field `index`'s value as starting at `start` (below ``maxTextLength``, above 0).
        mutating func set(_ index: Int, start: Int, isEscaped: Bool) {
            let packed = UInt16(truncatingIfNeeded: start) | (isEscaped ? 0x8000 : 0)
            withUnsafeMutableBytes(of: &starts) { $0.storeBytes(of: packed, toByteOffset: index * 2, as: UInt16.self) }
        }
    }
}
