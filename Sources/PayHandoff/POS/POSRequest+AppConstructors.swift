/// The Swift API's typed requests for the terminal apps other than Billpocket. Each builds the
/// request document and reads it with the app's one reader (``init(json:)``), so a typed request
/// and a JSON one are checked by the same rules, in the same order, with the same errors.
extension POSRequest {
    /// A SumUp sale (`POS/SumUp`).
    /// - Parameters:
    ///   - affiliateKey: SumUp's affiliate key (secret: redacted wherever the user token is).
    ///   - appID: The Android `app-id` the key is bound to.
    ///   - identifier: The app's order reference; with the token, `foreign-tx-id` (≤ 128 bytes of 0x21–0x7E).
    ///   - amount: Above zero.
    ///   - currency: ISO 4217 with two decimals; the logged-in merchant's.
    ///   - callbackURL: Where SumUp answers (`myapp://sumup-result`).
    ///   - title: Optional title.
    ///   - receiptEmail: Optional receipt e-mail.
    ///   - receiptPhone: Optional receipt phone.
    ///   - skipSuccessScreen: Optional: skip SumUp's success screen.
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the first member that breaks a rule.
    public static func sumUp(affiliateKey: String, appID: String, identifier: String, amount: Amount, currency: String,
                             callbackURL: String, title: String? = nil, receiptEmail: String? = nil, receiptPhone: String? = nil,
                             skipSuccessScreen: Bool? = nil) throws(PayHandoffError) -> POSRequest {
        var document: JSONObject = ["pos_app": "sumup", "affiliate_key": .string(affiliateKey), "app_id": .string(appID),
                                    "identifier": .string(identifier), "amount": .string(amount.decimalString),
                                    "currency": .string(currency), "callback_url": .string(callbackURL)]
        document.setIfPresent("title", title.map { .string($0) })
        document.setIfPresent("receipt_email", receiptEmail.map { .string($0) })
        document.setIfPresent("receipt_phone", receiptPhone.map { .string($0) })
        document.setIfPresent("skip_success_screen", skipSuccessScreen.map { .bool($0) })
        return try POSRequest(json: .object(document))
    }

    /// A Clip sale (`POS/Clip`), on the Clip terminal.
    /// - Parameters:
    ///   - identifier: The app's order reference (`PAYMENT_REFERENCE` with the token).
    ///   - amount: Above zero, at most 15 significant digits.
    ///   - tip: Optional tip.
    ///   - autoReturn: Optional `PAYMENT_AUTO_RETURN`.
    ///   - retry: Optional `PAYMENT_RETRY`.
    ///   - share: Optional `PAYMENT_SHARE`.
    ///   - component: Optional `"package/class"` (default ``ClipRequest/defaultComponent``).
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the first member that breaks a rule.
    public static func clip(identifier: String, amount: Amount, tip: Amount? = nil, autoReturn: Bool? = nil, retry: Bool? = nil,
                            share: Bool? = nil, component: String? = nil) throws(PayHandoffError) -> POSRequest {
        var document: JSONObject = ["pos_app": "clip", "identifier": .string(identifier), "amount": .string(amount.decimalString)]
        document.setIfPresent("tip", tip.map { .string($0.decimalString) })
        document.setIfPresent("auto_return", autoReturn.map { .bool($0) })
        document.setIfPresent("retry", retry.map { .bool($0) })
        document.setIfPresent("share", share.map { .bool($0) })
        document.setIfPresent("component", component.map { .string($0) })
        return try POSRequest(json: .object(document))
    }

    /// A Square Point of Sale sale (`POS/Square`).
    /// - Parameters:
    ///   - clientID: Square's application id (public).
    ///   - identifier: The app's order reference (`state` / `REQUEST_METADATA` with the token).
    ///   - amount: Above zero, at most 21474836.47 (Android's `int` of minor units).
    ///   - currency: ISO 4217 with two decimals.
    ///   - callbackURL: Where Square's iOS app answers.
    ///   - notes: Optional note (≤ 500).
    ///   - locationID: Optional location.
    ///   - customerID: Optional customer.
    ///   - tenderTypes: Optional `card`, `cash`, `other`, `card_on_file`.
    ///   - autoReturnMilliseconds: Optional: 0, or 3200…10000.
    ///   - skipReceipt: Optional (iOS).
    /// - Returns: The validated request.
    /// - Throws: `validation` naming the first member that breaks a rule.
    public static func square(clientID: String, identifier: String, amount: Amount, currency: String, callbackURL: String,
                              notes: String? = nil, locationID: String? = nil, customerID: String? = nil, tenderTypes: [String]? = nil,
                              autoReturnMilliseconds: Int64? = nil, skipReceipt: Bool? = nil) throws(PayHandoffError) -> POSRequest {
        var document: JSONObject = ["pos_app": "square", "client_id": .string(clientID), "identifier": .string(identifier),
                                    "amount": .string(amount.decimalString), "currency": .string(currency),
                                    "callback_url": .string(callbackURL)]
        document.setIfPresent("notes", notes.map { .string($0) })
        document.setIfPresent("location_id", locationID.map { .string($0) })
        document.setIfPresent("customer_id", customerID.map { .string($0) })
        document.setIfPresent("tender_types", tenderTypes.map { .array($0.map { .string($0) }) })
        document.setIfPresent("auto_return_ms", autoReturnMilliseconds.map { .integer($0) })
        document.setIfPresent("skip_receipt", skipReceipt.map { .bool($0) })
        return try POSRequest(json: .object(document))
    }
}
