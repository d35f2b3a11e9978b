package com.payhandoff

import org.json.JSONObject

/**
 * Every error of PayHandoff: [code] is the C ABI's error code ([ErrorCode.VALIDATION],
 * [ErrorCode.INVALID_JSON], [ErrorCode.MALFORMED_URL], [ErrorCode.CALLBACK_MISMATCH], …; see
 * docs/abi.md), [field] the offending input (a dotted path such as `sale.amount`, or the parameter
 * such as `request_json`) or null.
 *
 * [ErrorCode.ABI_MISMATCH] is the binding's own: a document held a word this binding does not know
 * (an effect, state or error code of a newer library), so the library and the binding are not
 * from the same release.
 */
class PayHandoffException(val code: ErrorCode, val field: String?, message: String) :
    RuntimeException(if (field == null) "${code.wire}: $message" else "${code.wire} ($field): $message") {

    /** The message without the code and field prefix. */
    val reason: String = message

    companion object {
        /** Reads an error document `{"code", "field", "message"}`. */
        internal fun from(document: JSONObject): PayHandoffException {
            val field = if (document.isNull("field")) null else document.optString("field")
            val message = document.optString("message", "")
            val word = document.optString("code", "")
            val code = ErrorCode.of(word)
                ?: return PayHandoffException(ErrorCode.ABI_MISMATCH, field,
                    "unknown error code '$word' (${Words.NEWER}): $message")
            return PayHandoffException(code, field, message)
        }
    }
}
