/// Clip's answer: always `RESULT_OK`; the extra `PAYMENT_RESPONSE` holds the JSON text of
/// `PaymentResult` (`reference`, `status`, `amount` (text), `tipAmount`, `receiptNumber`,
/// `wasSessionReplaced`), and on error the extra `PAYMENT_ERROR` a code (default `UNKNOWN_ERROR`).
/// Source: ClipMX/mobile.android.blaze.pinpad.sdk `…/ui/activity/result/ActivityClipResultManager.kt`
/// (commit 0dc7cef10acc1b399c7ea8391ef9d95a03dcc864) and `…/domain/models/payment/PaymentResult.kt`.
///
/// Mapping (docs/rules.md, *Clip*): status exactly `approved` (Clip's SDK compares lowercase;
/// its README's `APPROVED` is not success) with an amount read exactly is approved — the flow
/// compares it with the amount sent (another amount is `approved_amount_mismatch`, reconcile);
/// `receiptNumber` is the `transactionid`. `approved` with an amount that cannot be read exactly
/// (`0.30000000000000004`), or together with a `PAYMENT_ERROR`, is `unrecognized`. `error` +
/// `CANCELLED` is cancelled; `error` + `UNKNOWN_ERROR` or no code is `unrecognized` (reconcile);
/// `error` + any other code (`NO_CONNECTION`, `TERMINAL_ERROR`, …) is error; any other status is
/// `unrecognized`. No reference (a `PAYMENT_ERROR` alone, or a response without `reference`):
/// nothing can tie the answer to the sale — refused, never approved.
extension POSResponse {
    /// Reads Clip's result extras.
    /// - Parameters:
    ///   - extras: The result extras (strings).
    ///   - expectation: Which references it may echo.
    ///   - jsonText: The codec that reads `PAYMENT_RESPONSE`'s JSON text.
    /// - Returns: The answer (``posApp`` `clip`).
    /// - Throws: `invalid_json` naming `PAYMENT_RESPONSE` (or a member) for text that is not a
    ///   `PaymentResult`; `validation` naming `identifier` when there is no reference;
    ///   `callback_mismatch` naming `identifier` for another reference.
    static func parseClip(extras: [QueryItem], expecting expectation: IdentifierExpectation,
                          jsonText: JSONTextCodec) throws(PayHandoffError) -> POSResponse {
        try POSResponse.checkEachExtra(extras)
        let errorCode = extras.value("PAYMENT_ERROR")
        guard let text = extras.value("PAYMENT_RESPONSE") else {
            throw PayHandoffError(.validation, field: "PAYMENT_RESPONSE",
                "the answer has no PAYMENT_RESPONSE, so no reference: it cannot be tied to this sale" + (errorCode.isNone ? "" : " (PAYMENT_ERROR)"))
        }
        guard case .object(let object) = try jsonText.parse(text, field: "PAYMENT_RESPONSE") else {
            throw PayHandoffError(.invalidJSON, field: "PAYMENT_RESPONSE", "must be a JSON object (Clip's PaymentResult)")
        }
        let json = AnswerDocument(object: object, path: "PAYMENT_RESPONSE")
        guard let reference = try json.string("reference"), !reference.isEmpty else {
            throw PayHandoffError(.validation, field: "PAYMENT_RESPONSE.reference", "the answer's PAYMENT_RESPONSE has no reference: it cannot be tied to this sale")
        }
        try POSResponse.check(reference, against: expectation)
        let status = try json.string("status")
        guard !status.isNone else { throw PayHandoffError(.validation, field: "PAYMENT_RESPONSE.status", "the answer has no status") }
        let amountText = try json.string("amount")
        let amount = amountText.flatMap { ClipAmount.minorUnits($0) }
        let receipt = try json.string("receiptNumber")
        let result = decide("approved - a error CANCELLED c error - u error UNKNOWN_ERROR u error * e",
                            status: status, code: errorCode, proven: amount != nil)
        // The amounts Clip wrote, read exactly (absent when they are not whole cents).
        let tip = try json.string("tipAmount").flatMap { ClipAmount.minorUnits($0) }
        // The result's other extras (PaymentResult's members are Clip's, not kept).
        return try appAnswer(.clip, result, word: status, echo: reference, amount: amount, tip: tip, transactionID: receipt,
                             idKey: "PAYMENT_RESPONSE.receiptNumber", extra: extras.removing("PAYMENT_RESPONSE PAYMENT_ERROR"), errorCode: errorCode)
    }
}

/// Clip's amount text: what Java's `Double.toString()` writes (`100.0`, `1.0E7`, `1.2345E-4`),
/// read exactly — never through a floating-point number.
enum ClipAmount {
    /// The amount in minor units, or `nil` when the text is not a decimal number, is negative,
    /// is not a whole number of cents (`0.30000000000000004`), or is beyond ``Amount/max``.
    static func minorUnits(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, ASCII.isDigit(first) else { return nil }
        var digits: [UInt8] = []  // significant digits, leading zeros dropped
        var fractionDigits = 0
        var seenPoint = false
        var index = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "E"), bytes[index] != UInt8(ascii: "e") {
            let byte = bytes[index]
            if ASCII.isDigit(byte) {
                if !digits.isEmpty || byte != UInt8(ascii: "0") || seenPoint { digits.append(byte - UInt8(ascii: "0")) }
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            index += 1
        }
        var exponent = 0
        if index < bytes.count {
            var position = index + 1
            let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            guard position < bytes.count, bytes.count - position <= 3 else { return nil }
            var magnitude = 0
            while position < bytes.count {
                guard ASCII.isDigit(bytes[position]) else { return nil }
                magnitude = magnitude * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            exponent = negative ? -magnitude : magnitude
        }
        // value = digits × 10^(exponent − fractionDigits); minor units = value × 100.
        var shift = exponent - fractionDigits + 2
        while shift < 0 {
            guard let last = digits.last else { return 0 }
            guard last == 0 else { return nil }
            digits.removeLast()
            shift += 1
        }
        guard digits.count + shift <= 16 else { return nil }
        var value: Int64 = 0
        for digit in digits { value = value * 10 + Int64(digit) }
        for _ in 0..<shift { value *= 10 }
        return value <= Amount.max ? value : nil
    }
}
