/// The card-terminal app a POS hand-off goes to (`pos_app` in every request, answer, flow and
/// snapshot document; absent means ``billpocket``, so every 0.3 document means what it meant).
///
/// Each app has its own folder of rules (`POS/Billpocket`, `POS/SumUp`, `POS/Clip`,
/// `POS/Square`); the flow, the coordinator and the snapshot are the same for all of them.
/// Mercado Pago Point is left out on purpose (docs/rules.md says why).
public enum POSApp: String, Sendable, CaseIterable {
    /// Billpocket (Mexico): `billpocket://` on iOS, an intent on Android; refunds app-to-app.
    case billpocket
    /// Square Point of Sale: JSON in `square-commerce-v1://payment/create?data=` on iOS, an
    /// explicit `com.squareup.pos.action.CHARGE` intent on Android.
    case square
    /// SumUp: `sumupmerchant://pay/1.0?…` on both platforms.
    case sumup
    /// Clip (Mexico): an explicit intent on the Clip terminal itself (Android only).
    case clip

    /// The app spelled `rawValue`, matched by UTF-8 bytes.
    /// - Parameter rawValue: `billpocket`, `square`, `sumup` or `clip`.
    public init?(rawValue: String) {
        guard let value = POSApp.matching(rawValue, among: POSApp.allCases) else { return nil }
        self = value
    }

    /// The app's name as people write it, for messages (`Billpocket`, `Square`, `SumUp`, `Clip`).
    public var displayName: String {
        switch self {
        case .billpocket: return "Billpocket"
        case .square: return "Square"
        case .sumup: return "SumUp"
        case .clip: return "Clip"
        }
    }

    /// Whether the app refunds app-to-app (only Billpocket's `devolucion`); the others refund
    /// through their server APIs, from the merchant's backend.
    public var refundsAppToApp: Bool { self == .billpocket }

    /// The words of a `pos_app` member, for errors.
    static let words = "billpocket, square, sumup or clip"

    /// The optional `pos_app` member of a document (absent: ``billpocket``).
    /// - Throws: `validation` naming `pos_app` for another word; `invalid_json` for another type.
    static func reading<R: JSONReader>(_ json: JSONMembers<R>) throws(PayHandoffError) -> POSApp {
        guard let word = try json.optionalString("pos_app") else { return .billpocket }
        guard let app = POSApp(rawValue: word) else {
            throw PayHandoffError(.validation, field: json.field("pos_app"), "must be " + words)
        }
        return app
    }
}
