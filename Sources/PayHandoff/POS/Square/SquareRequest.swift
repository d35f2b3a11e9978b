/// A sale for Square Point of Sale, through its Point of Sale API.
///
/// Sources (docs/rules.md, *Square*): square/point-of-sale-android-sdk
/// `point-of-sale-sdk/src/main/java/com/squareup/sdk/pos/PosApi.java` (commit
/// bd10641ea5934960fcde9f7b806e53b72beeeac1): action `com.squareup.pos.action.CHARGE`, extras
/// `com.squareup.pos.*` (`TOTAL_AMOUNT` an int, `TENDER_TYPES` a string list,
/// `AUTO_RETURN_TIMEOUT_MS` a long); square/SquarePointOfSaleSDK-iOS `Sources/SCCAPIRequest.m`:
/// `square-commerce-v1://payment/create?data=<percent-encoded JSON>` with `amount_money`,
/// `callback_url`, `client_id`, `version` 1.3, `sdk_version`, `state`, `notes`, `location_id`,
/// `customer_id`, `options`.
///
/// The correlation value is `state` (iOS) / `REQUEST_METADATA` (Android): `<identifier>~<token>`.
/// Amounts are integer minor units (Android's `int` extra: at most 2,147,483,647). The `client_id`
/// is Square's application id, public (it ships inside every app), so it is not redacted.
/// The Android package is `com.squareup`: Square's SDK picks the highest-version installed
/// `com.squareup*` package at run time, which a host may substitute in the intent.
public struct SquareRequest: Equatable, Sendable {
    /// Square's application id (public).
    public let clientID: String
    /// The ISO 4217 currency (`currency_code`).
    public let currency: String
    /// Where Square's iOS app sends its answer (`callback_url`).
    public let callbackURL: String
    /// `notes` / `NOTE` (≤ 500 UTF-16 units).
    public let notes: String?
    /// `location_id` / `LOCATION_ID`.
    public let locationID: String?
    /// `customer_id` / `CUSTOMER_ID`.
    public let customerID: String?
    /// The tender types offered, as given (`card`, `cash`, `other`, `card_on_file`).
    public let tenderTypes: [String]?
    /// `AUTO_RETURN_TIMEOUT_MS`: 0 (none) or 3,200…10,000 ms; iOS sends `auto_return: true` when above 0.
    public let autoReturnMilliseconds: Int64?
    /// `skip_receipt` (iOS only).
    public let skipReceipt: Bool?

    /// The Android package named in the intent.
    public static let androidPackage = "com.squareup"
    /// The Android action.
    public static let androidAction = "com.squareup.pos.action.CHARGE"
    /// The Point of Sale API version sent on Android.
    public static let androidAPIVersion = "v2.0"
    /// The API version sent on iOS (`version`).
    public static let iOSAPIVersion = "1.3"
    /// The `sdk_version` sent on iOS: what Square's iOS SDK 3.5.4 sends (research, B4).
    public static let iOSSDKVersion = "3.5.0"
    /// The largest amount Android's `int` extra carries, in minor units.
    public static let maxMinorUnits: Int64 = 2_147_483_647
    /// The tender types: PayHandoff's word, Android's extra value, iOS's option value.
    static let tenders: [(word: StaticString, android: StaticString, iOS: StaticString)] = [
        ("card", "com.squareup.pos.TENDER_CARD", "CREDIT_CARD"),
        ("cash", "com.squareup.pos.TENDER_CASH", "CASH"),
        ("other", "com.squareup.pos.TENDER_OTHER", "OTHER"),
        ("card_on_file", "com.squareup.pos.TENDER_CARD_ON_FILE", "CARD_ON_FILE"),
    ]

    /// Equal when every field is (by UTF-8 bytes).
    public static func == (lhs: SquareRequest, rhs: SquareRequest) -> Bool {
        lhs.clientID.hasSameBytes(as: rhs.clientID) && lhs.currency.hasSameBytes(as: rhs.currency)
            && lhs.callbackURL.hasSameBytes(as: rhs.callbackURL) && lhs.notes.hasSameBytes(as: rhs.notes)
            && lhs.locationID.hasSameBytes(as: rhs.locationID) && lhs.customerID.hasSameBytes(as: rhs.customerID)
            && (lhs.tenderTypes ?? []).count == (rhs.tenderTypes ?? []).count && lhs.tenderTypes.isNone == rhs.tenderTypes.isNone
            && zip(lhs.tenderTypes ?? [], rhs.tenderTypes ?? []).allSatisfy { $0.hasSameBytes(as: $1) }
            && lhs.autoReturnMilliseconds == rhs.autoReturnMilliseconds && lhs.skipReceipt == rhs.skipReceipt
    }

    static let jsonKeys: StaticString = "pos_app transaction client_id identifier amount currency callback_url notes location_id customer_id tender_types auto_return_ms skip_receipt"
    static let buildJSONKeys: StaticString = "pos_app transaction client_id identifier amount currency callback_url notes location_id customer_id tender_types auto_return_ms skip_receipt token"

    /// A Square sale from its request document.
    /// - Throws: `validation` naming the member that breaks a rule.
    static func reading<R: JSONReader>(_ json: JSONMembers<R>, allowingToken: Bool) throws(PayHandoffError) -> POSRequest {
        try json.rejectUnknownKeys(allowingToken ? buildJSONKeys : jsonKeys)
        let clientID = try json.string("client_id")
        try POSRequest.checkAppText(clientID, field: "client_id", max: 256)
        let identifier = try json.string("identifier")
        try POSRequest.checkAppText(identifier, field: "identifier", max: POSRequest.Limit.identifier)
        let amount = try POSRequest.appAmount(json)
        guard amount.minorUnits <= maxMinorUnits else {
            throw PayHandoffError(.validation, field: "amount", "Square's TOTAL_AMOUNT is an int: at most 21474836.47")
        }
        let currency = try json.string("currency")
        try Currency.check(currency)
        let callback = try json.string("callback_url")
        let scheme = try CallbackURL.scheme(of: callback)
        let notes = try json.optionalString("notes")
        if let notes { try POSRequest.checkAppText(notes, field: "notes", max: 500) }
        let location = try json.optionalString("location_id")
        if let location { try POSRequest.checkAppText(location, field: "location_id", max: 256) }
        let customer = try json.optionalString("customer_id")
        if let customer { try POSRequest.checkAppText(customer, field: "customer_id", max: 256) }
        var chosen: [String]? = nil
        if let array = try json.optionalArray("tender_types") {
            var words: [String] = []
            var failure: PayHandoffError? = nil
            try json.reader.forEach(in: array) { element throws(PayHandoffError) in
                guard json.reader.kind(of: element) == .string else {
                    throw PayHandoffError(.invalidJSON, field: "tender_types", "must be an array of strings")
                }
                let word = json.reader.string(element)
                if !SquareRequest.tenders.contains(where: { word.hasSameBytes(as: $0.word.text) }) || words.contains(where: { $0.hasSameBytes(as: word) }) {
                    failure = failure ?? PayHandoffError(.validation, field: "tender_types", "must list card, cash, other or card_on_file, each once")
                }
                words.append(word)
            }
            if let failure { throw failure }
            guard !words.isEmpty else { throw PayHandoffError(.validation, field: "tender_types", "must list at least one tender type") }
            chosen = words
        }
        let autoReturn = try json.optionalInteger("auto_return_ms")
        if let autoReturn, autoReturn != 0, !(3_200...10_000).contains(autoReturn) {
            throw PayHandoffError(.validation, field: "auto_return_ms", "must be 0 (none) or 3200 to 10000 ms")
        }
        let request = SquareRequest(clientID: clientID, currency: currency, callbackURL: callback, notes: notes, locationID: location,
                                    customerID: customer, tenderTypes: chosen, autoReturnMilliseconds: autoReturn,
                                    skipReceipt: try json.optionalBool("skip_receipt"))
        return POSRequest.sale(to: .square(request), identifier: identifier, amount: amount, answerScheme: scheme)
    }

    /// The iOS request's JSON document (`data=`): printed by the host's codec, never by hand.
    func iOSDocument(state: String, amount: Amount) -> JSONValue {
        JSONValueWriter.document { writer in
            writer.beginObject()
            writer.beginObject("amount_money")
            writer.member("amount", integer: amount.minorUnits)
            writer.member("currency_code", string: currency)
            writer.end()
            writer.member("callback_url", string: callbackURL)
            writer.member("client_id", string: clientID)
            writer.member("version", string: SquareRequest.iOSAPIVersion)
            writer.member("sdk_version", string: SquareRequest.iOSSDKVersion)
            writer.member("state", string: state)
            writer.optionalMember("notes", string: notes)
            writer.optionalMember("location_id", string: locationID)
            writer.optionalMember("customer_id", string: customerID)
            // `options` only when it says something: the tender types given, auto-return on, a receipt choice.
            let autoReturn = (autoReturnMilliseconds ?? 0) > 0
            if !tenderTypes.isNone || autoReturn || !skipReceipt.isNone {
                writer.beginObject("options")
                if let tenderTypes {
                    writer.member("supported_tender_types", strings: tenderTypes.map { word in
                        SquareRequest.tenders.first { word.hasSameBytes(as: $0.word.text) }.map { $0.iOS.text } ?? word
                    })
                }
                if autoReturn { writer.member("auto_return", bool: true) }
                if let skipReceipt { writer.member("skip_receipt", bool: skipReceipt) }
                writer.end()
            }
            writer.end()
        }
    }

    /// `square-commerce-v1://payment/create?data=` + the percent-encoded JSON text.
    /// - Throws: What `jsonText` throws (its base class has no JSON).
    func iOSURL(state: String, amount: Amount, jsonText: JSONTextCodec) throws(PayHandoffError) -> String {
        // The one encoder of every request URL: everything but the unreserved characters escaped.
        QueryEncoder.encode([QueryItem(key: "data", value: try jsonText.render(iOSDocument(state: state, amount: amount)))],
                            after: "square-commerce-v1://payment/create?")
    }

    /// The explicit CHARGE intent with typed extras.
    func intent(requestMetadata: String, amount: Amount) -> POSIntent {
        func key(_ name: String) -> String { "com.squareup.pos." + name }
        // In the order of Square's RealPosClient; absent ones left out.
        var extras = [POSIntent.Extra(key: key("CLIENT_ID"), value: .string(clientID)),
                      POSIntent.Extra(key: key("TOTAL_AMOUNT"), value: .int(amount.minorUnits))]
        if let notes { extras.append(POSIntent.Extra(key: key("NOTE"), value: .string(notes))) }
        extras += [POSIntent.Extra(key: key("API_VERSION"), value: .string(SquareRequest.androidAPIVersion)),
                   POSIntent.Extra(key: key("CURRENCY_CODE"), value: .string(currency)),
                   POSIntent.Extra(key: key("REQUEST_METADATA"), value: .string(requestMetadata))]
        if let customerID { extras.append(POSIntent.Extra(key: key("CUSTOMER_ID"), value: .string(customerID))) }
        if let tenderTypes {
            extras.append(POSIntent.Extra(key: key("TENDER_TYPES"), value: .stringArray(tenderTypes.map { word in
                SquareRequest.tenders.first { word.hasSameBytes(as: $0.word.text) }.map { $0.android.text } ?? word
            })))
        }
        if let locationID { extras.append(POSIntent.Extra(key: key("LOCATION_ID"), value: .string(locationID))) }
        if let autoReturnMilliseconds, autoReturnMilliseconds > 0 {
            extras.append(POSIntent.Extra(key: key("AUTO_RETURN_TIMEOUT_MS"), value: .long(autoReturnMilliseconds)))
        }
        return POSIntent(action: SquareRequest.androidAction, package: SquareRequest.androidPackage, component: nil, data: nil, extras: extras)
    }
}
