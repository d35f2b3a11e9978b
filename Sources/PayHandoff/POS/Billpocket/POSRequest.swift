/// A request to the Billpocket POS app: a sale (`venta`) or a refund (`devolucion`), validated
/// field by field against the Billpocket request table, turned into the `billpocket://` URL
/// the host opens.
///
/// Build one with ``sale(userToken:identifier:amount:urlScheme:tip:msi:reference:email:phone:showPhotoButton:mandatoryPhoto:comesFromQR:)``
/// or ``refund(userToken:identifier:urlScheme:transactionId:amount:)`` (the Swift signatures
/// cannot even express a field the operation refuses), or from JSON with ``init(json:)`` (where
/// a refused or unknown field is an error, never dropped).
///
/// Lengths are counted in UTF-16 code units, as `NSString.length` and Java's `String.length()`
/// count them, because that is what the POS app sees; an emoji counts as two. Nothing is
/// truncated: a value over its limit is an error naming the field.
///
/// The user token is a secret: it is in ``url`` and ``fields(keyStyle:)`` (the POS app needs
/// it) and nowhere else — not in ``description``, not in `dump`, not in errors.
///
/// Two requests are equal when their strings have the same UTF-8 bytes (not under `String`'s
/// `==`, which is Unicode canonical equivalence).
public struct POSRequest: Equatable, Sendable, CustomStringConvertible {
    /// The operation; its raw value is Billpocket's `transaction` value.
    public enum Operation: String, Sendable, CaseIterable {
        /// `venta`.
        case sale = "venta"
        /// `devolucion`.
        case refund = "devolucion"

        /// The operation spelled `rawValue`, matched by UTF-8 bytes (not by `==`, which is Unicode
        /// canonical equivalence).
        public init?(rawValue: String) {
            guard let value = Operation.matching(rawValue, among: Operation.allCases) else { return nil }
            self = value
        }
    }

    /// Key spelling for ``fields(keyStyle:)``.
    public enum KeyStyle: Sendable {
        /// The custom-URL-scheme spelling (`usertoken`, lowercase): the only one the iOS POS
        /// app recognizes in a `billpocket://` URL.
        case urlScheme
        /// The Android intent / SDK spelling: identical except `userToken` in camelCase.
        case androidIntent

        /// The user token's key, the one key the two styles spell differently.
        var tokenKey: String { self == .urlScheme ? "usertoken" : "userToken" }
    }

    /// `venta` or `devolucion`.
    public let operation: Operation
    /// The merchant's POS user token (secret).
    public let userToken: String
    /// The correlation value echoed back in the answer (≤ 256).
    public let identifier: String
    /// Sale: the amount charged, tip excluded (> 0). Refund: the amount to refund, if not the whole sale.
    public let amount: Amount?
    /// Where the POS app sends its answer: `myapp` or `myapp://` (≤ 50), sent as given.
    public let urlScheme: String
    /// Refund only: the sale's `transactionid`.
    public let transactionId: String?
    /// Sale only: the tip (≥ 0).
    public let tip: Amount?
    /// Sale only: monthly installments, 0, 3, 6, 9 or 12.
    public let msi: Int?
    /// Sale only: a free-text reference (≤ 256).
    public let reference: String?
    /// Sale only: the customer's e-mail (≤ 150).
    public let email: String?
    /// Sale only: the customer's phone (≤ 14).
    public let phone: String?
    /// Sale only: allow attaching a photo.
    public let showPhotoButton: Bool?
    /// Sale only: require a photo; needs `showPhotoButton == true`.
    public let mandatoryPhoto: Bool?
    /// Sale only: the request came from a QR image.
    public let comesFromQR: Bool?
    /// The action of the Android intent that starts the POS app (not a field of the request:
    /// Android only). Default ``AndroidAction/billpocketPaymentsStart``.
    public internal(set) var androidAction: AndroidAction = .billpocketPaymentsStart
    /// The terminal app's own fields: ``AppFields/billpocket`` for a Billpocket request (whose
    /// fields are the ones above), or another app's request (`POS/SumUp`, `POS/Clip`). The
    /// other apps take sales only; ``userToken`` is empty and ``urlScheme`` is the scheme their
    /// answer URL arrives on (empty for Clip, which answers only through `onActivityResult`).
    public internal(set) var app: AppFields = .billpocket
    /// The terminal app this request goes to.
    public var posApp: POSApp { app.posApp }

    /// The action that starts the Billpocket POS app on Android. Both are in use (issue 30, read
    /// from public integrations' source; no Billpocket app was run): Billpocket's own Cordova
    /// plugin (`com.billpocket.cordova.billpocketplugin`) and another app's constants use
    /// `billpocket.payments.START`, which is the default; a third app uses
    /// `com.billpocket.payments.START` with the other commented out. A host whose
    /// `resolveActivity` finds nothing for one tries the other (bindings/android/README.md).
    public enum AndroidAction: String, Sendable, CaseIterable {
        /// `billpocket.payments.START`: Billpocket's own plugin's action (the default).
        case billpocketPaymentsStart = "billpocket.payments.START"
        /// `com.billpocket.payments.START`.
        case comBillpocketPaymentsStart = "com.billpocket.payments.START"

        /// The action spelled `rawValue`, matched by bytes.
        /// - Parameter rawValue: The action.
        public init?(rawValue: String) {
            guard let value = AndroidAction.matching(rawValue, among: AndroidAction.allCases) else { return nil }
            self = value
        }
    }

    /// The Android package of the Billpocket POS app (what both integrations name), for an
    /// explicit intent or to check the app is installed.
    public static let androidPackage = "com.billpocket.billpocket"

    /// This request, started on Android with `action`.
    /// - Parameter action: The intent's action.
    /// - Returns: The request.
    public func with(androidAction action: AndroidAction) -> POSRequest {
        var copy = self
        copy.androidAction = action
        return copy
    }

    /// The limits of the Billpocket request table, in UTF-16 code units.
    public enum Limit {
        /// `identifier` maximum length.
        public static let identifier = 256
        /// `urlScheme` maximum length.
        public static let urlScheme = 50
        /// `reference` maximum length.
        public static let reference = 256
        /// `email` maximum length.
        public static let email = 150
        /// `phone` maximum length.
        public static let phone = 14
    }

    /// The `msi` values Billpocket accepts.
    public static let allowedInstallments = [0, 3, 6, 9, 12]

    /// A sale request.
    /// - Parameters:
    ///   - userToken: The merchant's POS user token (required, secret).
    ///   - identifier: Correlation value, 1…256 UTF-16 units.
    ///   - amount: The amount, tip excluded; greater than zero.
    ///   - urlScheme: `myapp` or `myapp://`, at most 50 units, RFC 3986 scheme syntax.
    ///   - tip: Optional tip, zero or more.
    ///   - msi: Optional installments: 0, 3, 6, 9 or 12.
    ///   - reference: Optional text, at most 256 units.
    ///   - email: Optional e-mail, at most 150 units.
    ///   - phone: Optional phone, at most 14 units.
    ///   - showPhotoButton: Optional; allow attaching a photo.
    ///   - mandatoryPhoto: Optional; `true` requires `showPhotoButton == true`.
    ///   - comesFromQR: Optional; the request came from a QR image.
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the first field that breaks a rule.
    public static func sale(
        userToken: String, identifier: String, amount: Amount, urlScheme: String,
        tip: Amount? = nil, msi: Int? = nil, reference: String? = nil, email: String? = nil,
        phone: String? = nil, showPhotoButton: Bool? = nil, mandatoryPhoto: Bool? = nil,
        comesFromQR: Bool? = nil
    ) throws(PayHandoffError) -> POSRequest {
        let request = POSRequest(
            operation: .sale, userToken: userToken, identifier: identifier, amount: amount,
            urlScheme: urlScheme, transactionId: nil, tip: tip, msi: msi, reference: reference,
            email: email, phone: phone, showPhotoButton: showPhotoButton,
            mandatoryPhoto: mandatoryPhoto, comesFromQR: comesFromQR)
        try request.validate()
        return request
    }

    /// A refund request.
    /// - Parameters:
    ///   - userToken: The merchant's POS user token (required, secret).
    ///   - identifier: Correlation value, 1…256 UTF-16 units.
    ///   - urlScheme: `myapp` or `myapp://`, at most 50 units, RFC 3986 scheme syntax.
    ///   - transactionId: The sale's `transactionid` (required).
    ///   - amount: Optional amount to refund, greater than zero; check it against the sale
    ///     with ``RefundEligibility/check(sale:refundAmount:now:)``.
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the first field that breaks a rule.
    public static func refund(
        userToken: String, identifier: String, urlScheme: String, transactionId: String,
        amount: Amount? = nil
    ) throws(PayHandoffError) -> POSRequest {
        let request = POSRequest(
            operation: .refund, userToken: userToken, identifier: identifier, amount: amount,
            urlScheme: urlScheme, transactionId: transactionId, tip: nil, msi: nil, reference: nil,
            email: nil, phone: nil, showPhotoButton: nil, mandatoryPhoto: nil, comesFromQR: nil)
        try request.validate()
        return request
    }

    private init(
        operation: Operation, userToken: String, identifier: String, amount: Amount?,
        urlScheme: String, transactionId: String?, tip: Amount?, msi: Int?, reference: String?,
        email: String?, phone: String?, showPhotoButton: Bool?, mandatoryPhoto: Bool?,
        comesFromQR: Bool?
    ) {
        self.operation = operation
        self.userToken = userToken
        self.identifier = identifier
        self.amount = amount
        self.urlScheme = urlScheme
        self.transactionId = transactionId
        self.tip = tip
        self.msi = msi
        self.reference = reference
        self.email = email
        self.phone = phone
        self.showPhotoButton = showPhotoButton
        self.mandatoryPhoto = mandatoryPhoto
        self.comesFromQR = comesFromQR
    }

    /// Equal when every field is; strings compared by UTF-8 bytes.
    public static func == (lhs: POSRequest, rhs: POSRequest) -> Bool {
        lhs.operation == rhs.operation && lhs.userToken.hasSameBytes(as: rhs.userToken)
            && lhs.identifier.hasSameBytes(as: rhs.identifier) && lhs.amount == rhs.amount
            && lhs.urlScheme.hasSameBytes(as: rhs.urlScheme) && lhs.transactionId.hasSameBytes(as: rhs.transactionId)
            && lhs.tip == rhs.tip && lhs.msi == rhs.msi && lhs.reference.hasSameBytes(as: rhs.reference)
            && lhs.email.hasSameBytes(as: rhs.email) && lhs.phone.hasSameBytes(as: rhs.phone)
            && lhs.showPhotoButton == rhs.showPhotoButton && lhs.mandatoryPhoto == rhs.mandatoryPhoto
            && lhs.comesFromQR == rhs.comesFromQR && lhs.androidAction == rhs.androidAction && lhs.app == rhs.app
    }

    /// The byte between the app's identifier and the per-hand-off token: `order-42~<token>`.
    /// An unreserved character, so the POS app echoes it as is.
    public static let tokenSeparator = UInt8(ascii: "~")

    /// This request with `token` appended to its identifier (`<identifier>~<token>`), the form
    /// the coordinator sends: the POS app echoes the identifier, so its answer carries a secret
    /// no other app can guess, while the app's own reference stays readable in front.
    /// - Parameter token: The per-hand-off token (``CorrelationSecret``).
    /// - Returns: The request to send.
    /// - Throws: `validation` naming `token` when the token breaks the rule, or `identifier` when
    ///   identifier and token together pass the 256 UTF-16 units Billpocket accepts.
    public func withToken(_ token: String) throws(PayHandoffError) -> POSRequest {
        try CorrelationSecret.checkToken(token, field: "token")
        let sent = identifier + "~" + token
        if posApp != .billpocket {
            try app.checkSentIdentifier(sent, appPart: identifier, token: token)
            return with(identifier: sent, amount: amount)
        }
        guard sent.utf16.count <= Limit.identifier else {
            throw PayHandoffError(.validation, field: "identifier",
                "with the per-hand-off token the identifier would be longer than " + String(Limit.identifier)
                + " characters: the app's part may have at most " + String(Limit.identifier - 1 - token.utf16.count))
        }
        return with(identifier: sent, amount: amount)
    }

    /// This request with another identifier and amount, both already checked by the caller.
    func with(identifier: String, amount: Amount?) -> POSRequest {
        POSRequest(operation: operation, userToken: userToken, identifier: identifier, amount: amount, urlScheme: urlScheme,
                   transactionId: transactionId, tip: tip, msi: msi, reference: reference, email: email, phone: phone,
                   showPhotoButton: showPhotoButton, mandatoryPhoto: mandatoryPhoto, comesFromQR: comesFromQR)
            .with(androidAction: androidAction).with(app: app)
    }

    /// This request carrying `app`'s fields.
    func with(app: AppFields) -> POSRequest {
        var copy = self
        copy.app = app
        return copy
    }

    /// A sale to another terminal app than Billpocket, its fields already checked by `app`'s reader.
    /// - Parameters:
    ///   - app: The app's fields.
    ///   - identifier: The app's correlation value (checked by `app`'s rule).
    ///   - amount: The amount, above zero.
    ///   - answerScheme: The scheme its answer URL arrives on (empty for Clip).
    /// - Returns: The request.
    static func sale(to app: AppFields, identifier: String, amount: Amount, answerScheme: String) -> POSRequest {
        POSRequest(operation: .sale, userToken: "", identifier: identifier, amount: amount, urlScheme: answerScheme,
                   transactionId: nil, tip: nil, msi: nil, reference: nil, email: nil, phone: nil,
                   showPhotoButton: nil, mandatoryPhoto: nil, comesFromQR: nil).with(app: app)
    }

    /// The bare scheme answers arrive on: `urlScheme` without a trailing `://`.
    public var answerScheme: String { POSRequest.bareScheme(urlScheme) }

    /// The `billpocket://` URL to open: `billpocket://` directly followed by the fields (no
    /// `?`, as the POS app's own sender writes it), every key and value percent-encoded so
    /// that only RFC 3986 unreserved characters stay literal.
    /// For SumUp, its iOS URL (`sumupmerchant://pay/1.0?…`); for Clip, which has no URL, and for
    /// Square, whose URL holds JSON text (``handoffURL(jsonText:)`` prints it), empty.
    public var url: String {
        switch app {
        case .billpocket: return QueryEncoder.encode(billpocketFields(keyStyle: .urlScheme), after: "billpocket://")
        case .sumup(let sumUp): return sumUp.iOSURL(identifier: identifier, amount: amount ?? .zero)
        case .clip, .square: return ""
        }
    }

    /// The fields in their fixed order (the order of the Billpocket request table), values as
    /// the POS app reads them (amounts `"100.00"`, booleans `"true"`/`"false"`), not encoded.
    /// An Android host can put these into an intent's extras with `.androidIntent`, where the
    /// token key is `userToken` (camelCase); in a URL it must be lowercase `usertoken`.
    /// - Parameter keyStyle: The key spelling.
    /// - Returns: The fields in order, including the user token.
    public func fields(keyStyle: KeyStyle = .urlScheme) -> [QueryItem] {
        if posApp != .billpocket { return app.describedFields(identifier: identifier, amount: amount ?? .zero) }
        return billpocketFields(keyStyle: keyStyle)
    }

    /// Billpocket's fields (``fields(keyStyle:)`` of a Billpocket request): what its URL, intent
    /// and build result are made of. Apart from ``fields(keyStyle:)`` so that the other apps'
    /// described fields go only where descriptions do (the Embedded library has none).
    func billpocketFields(keyStyle: KeyStyle) -> [QueryItem] {
        var items: [QueryItem] = []
        items.reserveCapacity(14)  // every field below: one allocation, not a doubling chain
        // One outlined `add` per field (an inlined append each was 2.9 KB).
        items.add("transaction", operation.rawValue)
        if keyStyle == .urlScheme { items.add("usertoken", userToken) } else { items.add("userToken", userToken) }
        items.add("identifier", identifier)
        items.add("amount", amount?.decimalString)
        items.add("urlScheme", urlScheme)
        items.add("transactionId", transactionId)
        items.add("tip", tip?.decimalString)
        items.add("msi", msi.map { String($0) })
        items.add("reference", reference)
        items.add("email", email)
        items.add("phone", phone)
        items.add("showPhotoButton", showPhotoButton.map { $0 ? "true" : "false" })
        items.add("mandatoryPhoto", mandatoryPhoto.map { $0 ? "true" : "false" })
        items.add("comesFromQR", comesFromQR.map { $0 ? "true" : "false" })
        return items
    }

    /// A description without the user token or the identifier's token:
    /// `POSRequest(venta usertoken=<redacted> identifier=ord-1~<redacted> amount=100.00 urlScheme=myapp)`.
    public var description: String {
        var text = "POSRequest(" + (posApp == .billpocket ? operation.rawValue : posApp.rawValue)
        for item in fields() {
            if item.key.hasSameBytes(as: "transaction") { continue }
            text += " " + item.key + "=" + POSRequest.shown(item)
        }
        return text + ")"
    }

    /// A field's value as descriptions show it (``Redaction``).
    static func shown(_ item: QueryItem) -> String {
        if item.key.hasSameBytes(as: "usertoken") || item.key.hasSameBytes(as: "affiliate_key") { return Redaction.marker }
        if item.key.hasSameBytes(as: "identifier") { return Redaction.identifier(item.value) }
        return item.value
    }

    static func bareScheme(_ urlScheme: String) -> String {
        if urlScheme.utf8.count > 3, urlScheme.hasByteSuffix("://") {
            return String(decoding: urlScheme.utf8.dropLast(3), as: UTF8.self)
        }
        return urlScheme
    }

    private func validate() throws(PayHandoffError) {
        try POSRequest.checkText(userToken, field: "usertoken", max: nil)
        try POSRequest.checkText(identifier, field: "identifier", max: Limit.identifier)
        try POSRequest.checkURLScheme(urlScheme)
        switch operation {
        case .sale:
            guard let amount else { throw PayHandoffError(.validation, field: "amount", "is required for a sale") }
            guard amount > .zero else { throw PayHandoffError(.validation, field: "amount", "must be greater than 0") }
        case .refund:
            if let amount, amount == .zero {
                throw PayHandoffError(.validation, field: "amount", "must be greater than 0")
            }
            try POSRequest.checkText(transactionId ?? "", field: "transactionId", max: nil)
        }
        if let msi, !POSRequest.allowedInstallments.contains(msi) {
            throw PayHandoffError(.validation, field: "msi", "must be 0, 3, 6, 9 or 12")
        }
        if let reference { try POSRequest.checkLength(reference, field: "reference", max: Limit.reference) }
        if let email { try POSRequest.checkLength(email, field: "email", max: Limit.email) }
        if let phone { try POSRequest.checkLength(phone, field: "phone", max: Limit.phone) }
        if mandatoryPhoto == true, showPhotoButton != true {
            throw PayHandoffError(.validation, field: "mandatoryPhoto", "requires showPhotoButton=true")
        }
    }

    /// The identifier rule of a restored hand-off: what ``withToken(_:)`` accepts with `token`.
    /// - Throws: `validation` naming `identifier`.
    static func checkIdentifier(_ identifier: String, token: String, posApp: POSApp = .billpocket) throws(PayHandoffError) {
        try checkText(identifier, field: "identifier", max: Limit.identifier - 1 - token.utf16.count)
        if posApp == .sumup { try SumUpRequest.checkForeignTransactionID(identifier + "~" + token, appPart: identifier, token: token) }
    }

    /// The rule of an identifier or text value in every app's request: not empty, no U+0000,
    /// at most `max` UTF-16 code units.
    /// - Throws: `validation` naming `field`.
    static func checkAppText(_ value: String, field: String, max: Int?) throws(PayHandoffError) {
        try checkText(value, field: field, max: max)
    }

    /// The rule of a bare answer scheme (``answerScheme``) where one is read back.
    /// - Throws: `validation` naming `field`.
    static func checkAnswerScheme(_ scheme: String, field: String) throws(PayHandoffError) {
        guard !scheme.isEmpty, scheme.utf16.count <= Limit.urlScheme, URLSyntax.isValidScheme(Substring(scheme)) else {
            throw PayHandoffError(.validation, field: field, "is not a URL scheme of at most " + String(Limit.urlScheme) + " characters")
        }
    }

    private static func checkText(_ value: String, field: String, max: Int?) throws(PayHandoffError) {
        guard !value.isEmpty else { throw PayHandoffError(.validation, field: field, "is required and must not be empty") }
        try checkLength(value, field: field, max: max)
    }

    private static func checkLength(_ value: String, field: String, max: Int?) throws(PayHandoffError) {
        if let max, value.utf16.count > max {
            throw PayHandoffError(.validation, field: field, "is longer than " + String(max) + " characters (UTF-16 code units)")
        }
        // A NUL would travel as %00, and every answer parser (this one too) refuses %00: the
        // answer to such a request could never be read or matched.
        func hasNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { ByteScan.firstIndex(of: 0, in: bytes, from: 0, to: bytes.count) < bytes.count }
        guard !value.withUTF8Buffer(hasNUL) else {
            throw PayHandoffError(.validation, field: field, "must not contain U+0000 (NUL)")
        }
    }

    private static func checkURLScheme(_ value: String) throws(PayHandoffError) {
        try checkText(value, field: "urlScheme", max: Limit.urlScheme)
        guard URLSyntax.isValidScheme(Substring(bareScheme(value))) else {
            throw PayHandoffError(.validation, field: "urlScheme",
                "must be a URL scheme like 'myapp' or 'myapp://' (a letter, then letters, digits, '+', '-' or '.')")
        }
    }
}
