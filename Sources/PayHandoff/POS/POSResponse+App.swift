/// The answers of the terminal apps other than Billpocket, in the one answer type every flow,
/// snapshot and binding already knows: each app's reader (`POS/Square`, `POS/SumUp`, `POS/Clip`)
/// maps what its app sends onto Billpocket's keys — the echoed correlation value is `identifier`,
/// the app's transaction id `transactionid` (its error or cancel code is ``POSResponse/errorCode``), an
/// amount it echoes `amount` — decides the ``POSResponse/Result`` by its own documented rules,
/// and keeps every other key in ``POSResponse/extra``. Validation is the same (a `transactionid`
/// is 1–128 printable ASCII characters, amounts are exact).
extension POSResponse {
    /// The word a non-Billpocket answer's text holds under `result` (never shown: the answer's
    /// ``result`` is the app reader's decision, and ``resultWord`` its own status word).
    static let placeholderWord = "error"

    /// An answer of `posApp` (not Billpocket).
    /// - Parameters:
    ///   - posApp: The app that answered.
    ///   - result: What its answer means (its reader's rules).
    ///   - word: Its status word, kept when `result` is ``Result/unrecognized``.
    ///   - items: Its values under Billpocket's keys (`identifier` required).
    ///   - extra: Its other keys, in order.
    /// - Throws: `validation` for a value the answer rules refuse (naming the Billpocket key).
    init(posApp: POSApp, result: Result, word: String?, items: [QueryItem], extra: [QueryItem],
         errorCode: String? = nil) throws(PayHandoffError) {
        self = try POSResponse(items: items + [QueryItem(key: "result", value: POSResponse.placeholderWord)])
        self.posApp = posApp
        self.result = result
        self.otherWord = result == .unrecognized ? word : nil
        // An echoed secret (user token, PIN, affiliate key) is never kept, whichever app echoed it.
        self.extra = extra.filter { !Redaction.isSecretKey($0.key) }
        self.errorCode = errorCode
    }

    /// `make()`, its `transactionid` error named by the app's own key (`smp-tx-code`, …): the
    /// app's answer has no `transactionid` member.
    static func naming(_ idKey: String, _ make: () throws(PayHandoffError) -> POSResponse) throws(PayHandoffError) -> POSResponse {
        do throws(PayHandoffError) {
            return try make()
        } catch where error.field.hasSameBytes(as: "transactionid") {
            var renamed = error
            renamed.field = idKey
            throw renamed
        }
    }
}
