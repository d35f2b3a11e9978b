/// The authoritative result of a checkout: the gateway's webhook (`card.registered` or
/// `payment.confirmed`), received by the merchant backend and relayed by the host app.
///
/// The deep link only says what the user saw; this says what happened. The host relays the
/// webhook's event as it came:
/// `{"type": "card.registered", "data": {"card_id": "card_xyz", "brand": "visa",
/// "last_four": "4242", "token": "tok_…", "created_at": "2026-11-30T16:00:00Z"}}` or
/// `{"type": "payment.confirmed", "data": {"payment_id": "pay_123", "amount": "100.00",
/// "confirmed_at": "…"}}`. The id may also be `data.id`. Of the `data.*_at` members (text or
/// integer) whose name and text are printable ASCII of at most ``maxTimestampLength`` bytes, the
/// ``maxTimestamps`` whose names sort first are kept as timestamps; other members of `data` are not
/// needed and not kept. `brand` and `token` have at most 1 KiB as JSON text, without control characters:
/// a flow keeps the confirmation, and the snapshot keeps room for it (``maxStoredLength``).
///
/// Several webhooks for the same object are idempotent when they agree (``checkConsistent(with:)``);
/// webhooks that disagree, or a webhook for another id than the callback named, are a
/// `conflict`, reported and never merged. Ids, brands, digits and tokens are compared by UTF-8
/// bytes, here and in `==` (not under `String`'s `==`, which is Unicode canonical equivalence).
public struct CheckoutConfirmation: Equatable, Sendable {
    /// Card registration or payment.
    public let kind: CheckoutKind
    /// `card_…` or `pay_…`.
    public let objectID: String
    /// The card brand.
    public let brand: String?
    /// The card's last four digits.
    public let lastFour: String?
    /// The reference of the card token the gateway stored.
    public let tokenReference: String?
    /// The confirmed amount, when the event carries one.
    public let amount: Amount?
    /// The event's timestamps (`created_at`, `confirmed_at`, …) as they came.
    public let timestamps: JSONObject

    /// A confirmation from the relayed webhook event.
    /// - Parameter json: The event document.
    /// - Throws: `validation` for an unknown `type`, a missing or mis-prefixed id, `last_four`
    ///   that is not four digits or a bad amount; `invalid_json` for wrong types.
    public init(json: JSONValue) throws(PayHandoffError) {
        try self.init(reading: JSONMembers(json))
    }

    /// ``init(json:)`` from any ``JSONReader``'s tree (the C ABI reads cJSON's).
    /// - Parameter json: The event document's members.
    /// - Throws: As ``init(json:)``.
    @_spi(JSONText)
    public init<R: JSONReader>(reading json: JSONMembers<R>) throws(PayHandoffError) {
        let type = try json.string("type")
        guard let kind = CheckoutKind.allCases.first(where: { $0.confirmationType.hasSameBytes(as: type) }) else {
            throw PayHandoffError(.validation, field: "type", "must be card.registered or payment.confirmed")
        }
        let data = try json.object("data")
        var id = try data.optionalString(kind.idMember)
        if id == nil { id = try data.optionalString("id") }
        guard let id else { throw JSONValue.missing(data.field(kind.idMember)) }
        guard kind.isValidID(id) else {
            throw PayHandoffError(.validation, field: data.field(kind.idMember), kind.idRule)
        }
        let lastFour = try data.optionalString("last_four")
        if let lastFour, lastFour.utf8.count != 4 || !ASCII.isAllDigits(lastFour) {
            throw PayHandoffError(.validation, field: "data.last_four", "must be four digits")
        }
        let timestamps = try CheckoutConfirmation.timestamps(in: data)
        let brand = try CheckoutConfirmation.text(data, "brand", limit: CheckoutConfirmation.maxBrandLength)
        let token = try CheckoutConfirmation.text(data, "token", limit: CheckoutConfirmation.maxTokenLength)
        self.kind = kind
        self.objectID = id
        self.brand = brand
        self.lastFour = lastFour
        self.tokenReference = token
        self.amount = try data.optionalAmount("amount")
        self.timestamps = timestamps
    }

    /// The optional text member `key` of `data`: at most `limit` bytes as JSON text, without
    /// control characters (``JSONValue/isKeptWhole(_:printedAtMost:)``).
    @inline(never)
    private static func text<R: JSONReader>(_ data: JSONMembers<R>, _ key: StaticString, limit: Int) throws(PayHandoffError) -> String? {
        let text = try data.optionalString(key)
        if let text, !JSONValue.isKeptWhole(text, printedAtMost: limit) {
            throw PayHandoffError(.validation, field: data.field(key),
                "must be at most 1024 bytes as JSON text (a '\"' or '\\' counts twice) without control characters")
        }
        return text
    }

    /// The timestamps of `data` a confirmation keeps: of the `*_at` members whose name and text
    /// may be kept, the ``maxTimestamps`` whose names sort first (by bytes), in that order —
    /// which are kept must not depend on the order a JSON loader hands the members over.
    /// - Throws: `invalid_json` for a `*_at` member that is neither text nor an integer.
    @inline(never)
    private static func timestamps<R: JSONReader>(in data: JSONMembers<R>) throws(PayHandoffError) -> JSONObject {
        var candidates: [JSONObject.Member] = []
        if let node = data.node {
            let reader = data.reader
            try reader.forEach(in: node) { member throws(PayHandoffError) in
                let key = reader.key(of: member)
                guard key.utf8.count > 3, key.hasByteSuffix("_at") else { return }
                let value: JSONValue, text: String
                switch reader.kind(of: member) {
                case .string:
                    text = reader.string(member)
                    value = .string(text)
                case .integer:
                    text = ""
                    value = .integer(reader.integer(member))
                case .null: return
                case let other: throw JSONMembers<R>.wrongType(JSONValue.join(data.path, key), expected: "a string or an integer", found: other)
                }
                if keepsTimestamp(key, text: text) { candidates.append(JSONObject.Member(key: key, value: value)) }
            }
        }
        let order = IndexSort.sorted(count: candidates.count) { a, b in
            candidates[a].key.precedesByBytes(candidates[b].key) ? -1 : candidates[b].key.precedesByBytes(candidates[a].key) ? 1 : 0
        }
        var timestamps = JSONObject()
        for index in order.prefix(maxTimestamps) { timestamps.appendNewMember(candidates[index].key, candidates[index].value) }
        return timestamps
    }

    /// The most timestamps kept.
    public static let maxTimestamps = 6
    /// The longest timestamp name or text kept, in bytes.
    public static let maxTimestampLength = 40
    /// The longest `brand` accepted: 1 KiB as JSON text (a `"` or `\` counts twice). Gateways
    /// send a network name (Stripe's `brand` is one of a dozen words such as `amex`, `visa`,
    /// `unionpay`); none documents a length, so the bound is generous. (0.3: 64 bytes.)
    public static let maxBrandLength = 1024
    /// The longest `token` reference accepted: 1 KiB as JSON text. Card tokens and payment
    /// method ids are short (Stripe's `tok_…`/`pm_…` about 28 characters); no gateway
    /// documentation found states a bound (Square's staff give 255 for its ids). (0.3: 256 bytes.)
    public static let maxTokenLength = 1024
    /// The most a confirmation takes in a snapshot as JSON text (``eventJSON``), in bytes: what
    /// a checkout keeps room for until it is confirmed, so that `checkout.confirmation` is never
    /// refused for space. (Ids print as at most 2 bytes a byte, brand and token as at most their
    /// limit, timestamps as themselves.)
    public static let maxStoredLength = 96 + (2 * CheckoutKind.maxIDLength + 16) + (maxBrandLength + 2 + 12)
        + 20 + (maxTokenLength + 2 + 12) + 40 + maxTimestamps * (2 * (maxTimestampLength + 2) + 2)

    /// Whether the timestamp `key` (with `text`, empty for an integer) may be kept.
    private static func keepsTimestamp(_ key: String, text: String) -> Bool {
        key.utf8.count <= maxTimestampLength && text.utf8.count <= maxTimestampLength
            && ASCII.printsAsItself(key) && ASCII.printsAsItself(text)
    }

    /// Equal when every field is; strings compared by UTF-8 bytes.
    public static func == (lhs: CheckoutConfirmation, rhs: CheckoutConfirmation) -> Bool {
        lhs.kind == rhs.kind && lhs.objectID.hasSameBytes(as: rhs.objectID) && lhs.brand.hasSameBytes(as: rhs.brand)
            && lhs.lastFour.hasSameBytes(as: rhs.lastFour) && lhs.tokenReference.hasSameBytes(as: rhs.tokenReference)
            && lhs.amount == rhs.amount && lhs.timestamps == rhs.timestamps
    }

    /// Checks that this confirmation answers `callback`'s session.
    /// - Parameter callback: The deep link of the same flow.
    /// - Throws: `conflict` when the kinds differ or the callback named another id.
    public func checkMatches(_ callback: CheckoutCallback) throws(PayHandoffError) {
        guard callback.kind == kind else {
            throw PayHandoffError(.conflict, field: "type", "the confirmation is for another kind of session")
        }
        if let id = callback.objectID, !id.hasSameBytes(as: objectID) {
            throw PayHandoffError(.conflict, field: kind.idKey, "the confirmation's id is not the one the callback named")
        }
    }

    /// Compares a later webhook for the same flow with this one. Agreeing webhooks are
    /// idempotent (timestamps may differ: retries are re-sent later); the first is kept.
    /// - Parameter other: The later confirmation.
    /// - Throws: `conflict` naming the first field on which they disagree.
    public func checkConsistent(with other: CheckoutConfirmation) throws(PayHandoffError) {
        if other.kind != kind { throw PayHandoffError(.conflict, field: "type", "confirmations of different kinds") }
        if !other.objectID.hasSameBytes(as: objectID) { throw PayHandoffError(.conflict, field: kind.idKey, "confirmations for different ids") }
        if !other.brand.hasSameBytes(as: brand) { throw PayHandoffError(.conflict, field: "brand", "confirmations disagree on the brand") }
        if !other.lastFour.hasSameBytes(as: lastFour) { throw PayHandoffError(.conflict, field: "last_four", "confirmations disagree on the last four digits") }
        if !other.tokenReference.hasSameBytes(as: tokenReference) { throw PayHandoffError(.conflict, field: "token", "confirmations disagree on the token") }
        if other.amount != amount { throw PayHandoffError(.conflict, field: "amount", "confirmations disagree on the amount") }
    }

    /// The confirmation as a document: `{"version": 1, "type": "card.registered", "card_id": "card_xyz",
    /// "brand": "visa", "last_four": "4242", "token": "tok_…", "amount": "100.00", "timestamps": {…}}`
    /// (optional members only when present). The same shape, wrapped as an event
    /// (``eventJSON``), is accepted by ``init(json:)``.
    public var json: JSONValue {
        JSONValueWriter.document { write(to: $0) }
    }

    /// Writes ``json`` to `writer` (the C ABI writes into cJSON's tree).
    /// - Parameter writer: Where the document goes.
    @_spi(JSONText)
    public func write(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("version", integer: 1)
        writer.member("type", string: kind.confirmationType)
        writer.member(kind.idMember, string: objectID)
        writer.optionalMember("brand", string: brand)
        writer.optionalMember("last_four", string: lastFour)
        writer.optionalMember("token", string: tokenReference)
        writer.optionalMember("amount", string: amount?.decimalString)
        writer.member("timestamps", JSONValue.object(timestamps))
        writer.end()
    }

    /// The confirmation as the webhook-style event ``init(json:)`` reads (used in snapshots).
    public var eventJSON: JSONValue {
        JSONValueWriter.document { writeEvent(to: $0) }
    }

    /// Writes ``eventJSON`` to `writer`.
    func writeEvent(to writer: JSONWriter) {
        writer.beginObject()
        writer.member("type", string: kind.confirmationType)
        writer.beginObject("data")
        writer.member(kind.idMember, string: objectID)
        writer.optionalMember("brand", string: brand)
        writer.optionalMember("last_four", string: lastFour)
        writer.optionalMember("token", string: tokenReference)
        writer.optionalMember("amount", string: amount?.decimalString)
        // Timestamp names end in `_at`: none is one of the members above.
        for member in timestamps.members {
            writer.key(member.key)
            writer.value(member.value)
        }
        writer.end()
        writer.end()
    }
}
