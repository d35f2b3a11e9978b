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
    /// The tender types, one text of space-separated triples: PayHandoff's word, Android's extra
    /// value, iOS's option value (searched by bytes: a table of tuples cost its own initializer
    /// and a String per compare).
    static let tenders: StaticString = "card com.squareup.pos.TENDER_CARD CREDIT_CARD cash com.squareup.pos.TENDER_CASH CASH other com.squareup.pos.TENDER_OTHER OTHER card_on_file com.squareup.pos.TENDER_CARD_ON_FILE CARD_ON_FILE"

    /// The value `word` (a tender type) is sent as: `column` 1 on Android, 2 on iOS; `nil` for a
    /// word that is not a tender type (column 0 gives the word back).
    @inline(never)
    static func tender(_ word: String, column: Int) -> String? {
        let list = tenders.utf8Start, count = tenders.utf8CodeUnitCount
        var cells: [Range<Int>] = []
        var start = 0
        while start < count {
            var end = start
            while end < count, list[end] != UInt8(ascii: " ") { end += 1 }
            cells.append(start..<end)
            start = end + 1
        }
        for row in stride(from: 0, to: cells.count - 2, by: 3) where word.isBytes(list + cells[row].lowerBound, count: cells[row].count) {
            let cell = cells[row + column]
            return String(decoding: UnsafeBufferPointer(start: list + cell.lowerBound, count: cell.count), as: UTF8.self)
        }
        return nil
    }

    /// Equal when every field is (by UTF-8 bytes).
    public static func == (lhs: SquareRequest, rhs: SquareRequest) -> Bool {
        lhs.clientID.hasSameBytes(as: rhs.clientID) && lhs.currency.hasSameBytes(as: rhs.currency)
            && lhs.callbackURL.hasSameBytes(as: rhs.callbackURL) && lhs.notes.hasSameBytes(as: rhs.notes)
            && lhs.locationID.hasSameBytes(as: rhs.locationID) && lhs.customerID.hasSameBytes(as: rhs.customerID)
            && (lhs.tenderTypes ?? []).count == (rhs.tenderTypes ?? []).count && lhs.tenderTypes.isNone == rhs.tenderTypes.isNone
            && zip(lhs.tenderTypes ?? [], rhs.tenderTypes ?? []).allSatisfy { $0.hasSameBytes(as: $1) }
            && lhs.autoReturnMilliseconds == rhs.autoReturnMilliseconds && lhs.skipReceipt == rhs.skipReceipt
    }

    /// The request document's keys (`token` last: a build document's).
    static let jsonKeys: StaticString = "pos_app transaction client_id identifier amount currency callback_url notes location_id customer_id tender_types auto_return_ms skip_receipt token"

    /// The request document's members, in the order their rules are checked (docs/rules.md, *Square*).
    /// The request document's members, in the order their rules are checked (docs/rules.md,
    /// *Square*; ``AppRequestMembers``: key, kind, limit, message). The amount's limit is
    /// ``maxMinorUnits``, the identifier's `POSRequest.Limit.identifier`.
    static let members: StaticString = """
        client_id text 256
        identifier text 256
        amount saleAmount 2147483647 Square's TOTAL_AMOUNT is an int: at most 21474836.47
        currency currency
        callback_url callbackURL
        notes optionalText 500
        location_id optionalText 256
        customer_id optionalText 256
        tender_types tenderTypes
        auto_return_ms autoReturn 10000 must be 0 (none) or 3200 to 10000 ms
        skip_receipt flag
        """

    /// A Square sale from its request document's members (read by ``members``).
    static func sale(_ json: AppRequestMembers) -> POSRequest {
        let request = SquareRequest(clientID: json.text("client_id"), currency: json.text("currency"), callbackURL: json.text("callback_url"),
                                    notes: json.optionalText("notes"), locationID: json.optionalText("location_id"),
                                    customerID: json.optionalText("customer_id"), tenderTypes: json.words("tender_types"),
                                    autoReturnMilliseconds: json.integer("auto_return_ms"), skipReceipt: json.flag("skip_receipt"))
        return POSRequest.sale(to: .square(request), identifier: json.text("identifier"), amount: json.amount("amount") ?? .zero,
                               answerScheme: json.answerScheme)
    }

    /// `tender_types`, when present: at least one of card, cash, other, card_on_file, each once.
    /// - Throws: `invalid_json` for anything but an array of strings; `validation` naming `tender_types`.
    static func tenderTypes<R: JSONReader>(_ json: JSONMembers<R>) throws(PayHandoffError) -> [String]? {
        guard let array = try json.optionalArray("tender_types") else { return nil }
        var words: [String] = []
        var failure: PayHandoffError? = nil
        try json.reader.forEach(in: array) { element throws(PayHandoffError) in
            guard json.reader.kind(of: element) == .string else {
                throw PayHandoffError(.invalidJSON, field: "tender_types", "must be an array of strings")
            }
            let word = json.reader.string(element)
            if SquareRequest.tender(word, column: 0).isNone || words.contains(where: { $0.hasSameBytes(as: word) }) {
                failure = failure ?? PayHandoffError(.validation, field: "tender_types", "must list card, cash, other or card_on_file, each once")
            }
            words.append(word)
        }
        if let failure { throw failure }
        guard !words.isEmpty else { throw PayHandoffError(.validation, field: "tender_types", "must list at least one tender type") }
        return words
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
                    writer.member("supported_tender_types", strings: tenderTypes.map { SquareRequest.tender($0, column: 2) ?? $0 })
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
        // In the order of Square's RealPosClient; absent ones left out.
        var extras: [POSIntent.Extra] = []
        extras.add("com.squareup.pos.CLIENT_ID", string: clientID)
        extras.add("com.squareup.pos.TOTAL_AMOUNT", .int(amount.minorUnits))
        extras.add("com.squareup.pos.NOTE", string: notes)
        extras.add("com.squareup.pos.API_VERSION", string: SquareRequest.androidAPIVersion)
        extras.add("com.squareup.pos.CURRENCY_CODE", string: currency)
        extras.add("com.squareup.pos.REQUEST_METADATA", string: requestMetadata)
        extras.add("com.squareup.pos.CUSTOMER_ID", string: customerID)
        extras.add("com.squareup.pos.TENDER_TYPES", tenderTypes.map { words in .stringArray(words.map { SquareRequest.tender($0, column: 1) ?? $0 }) })
        extras.add("com.squareup.pos.LOCATION_ID", string: locationID)
        extras.add("com.squareup.pos.AUTO_RETURN_TIMEOUT_MS", (autoReturnMilliseconds ?? 0) > 0 ? .long(autoReturnMilliseconds ?? 0) : nil)
        return POSIntent(action: SquareRequest.androidAction, package: SquareRequest.androidPackage, component: nil, data: nil, extras: extras)
    }
}
