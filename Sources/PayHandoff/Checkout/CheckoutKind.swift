/// The two hosted-checkout sessions of the gateway, and everything that differs between them.
public enum CheckoutKind: String, Sendable, CaseIterable {
    /// Card registration ("catastro"): `POST /v1/cards`, answered by `card.registered`.
    case cards
    /// Payment: `POST /v1/payments`, answered by `payment.confirmed`.
    case payments

    /// The kind spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
    /// canonical equivalence).
    public init?(rawValue: String) {
        guard let value = CheckoutKind.matching(rawValue, among: CheckoutKind.allCases) else { return nil }
        self = value
    }

    /// The endpoint path.
    public var path: String { self == .cards ? "/v1/cards" : "/v1/payments" }

    /// The callback query key and confirmation field carrying the object's id.
    public var idKey: String { self == .cards ? "card_id" : "payment_id" }

    /// ``idKey`` as a literal, for looking the member up in a document.
    var idMember: StaticString { self == .cards ? "card_id" : "payment_id" }

    /// The prefix every id of this kind has (`card_…`, `pay_…`).
    public var idPrefix: String { self == .cards ? "card_" : "pay_" }

    /// The webhook event that confirms this kind of session.
    public var confirmationType: String { self == .cards ? "card.registered" : "payment.confirmed" }

    /// The other kind.
    var other: CheckoutKind { self == .cards ? .payments : .cards }

    /// Parses `"cards"` or `"payments"`.
    /// - Parameters:
    ///   - text: The kind's raw value.
    ///   - field: The field to name in the error.
    /// - Throws: `validation` for anything else.
    @usableFromInline
    init(parsing text: String, field: String) throws(PayHandoffError) {
        guard let kind = CheckoutKind(rawValue: text) else {
            throw PayHandoffError(.validation, field: field, "must be \"cards\" or \"payments\"")
        }
        self = kind
    }

    /// Whether `id` is a non-empty id of this kind (`card_x`, not `card_`).
    func isValidID(_ id: String) -> Bool {
        return id.withUTF8Buffer { isValidID($0) }
    }

    /// ``isValidID(_:)`` of an id's UTF-8, still in the URL it came in.
    func isValidID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = self == .cards ? "card_" : "pay_"
        return bytes.count > prefix.utf8CodeUnitCount && bytes.count <= CheckoutKind.maxIDLength
            && ASCII.equalBytes(UnsafeBufferPointer(rebasing: bytes[..<prefix.utf8CodeUnitCount]), prefix)
            && !ByteScan.containsControl(bytes)
    }

    /// The longest id accepted, in bytes: ids are kept in flows and compared whole.
    static let maxIDLength = 128

    /// What ``isValidID(_:)`` requires, for error messages.
    var idRule: String { "must start with '" + idPrefix + "' and be at most 128 bytes without control characters" }
}
