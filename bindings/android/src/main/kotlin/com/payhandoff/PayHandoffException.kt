package com.payhandoff

import org.json.JSONObject

/**
 * Every error of PayHandoff: [code] is the C ABI's error code (`validation`, `invalid_json`,
 * `malformed_url`, `callback_mismatch`, …; see docs/abi.md), [field] the offending input (a dotted
 * path such as `sale.amount`, or the parameter such as `request_json`) or null.
 */
class PayHandoffException(val code: String, val field: String?, message: String) :
    RuntimeException(if (field == null) "$code: $message" else "$code ($field): $message") {

    /** The message without the code and field prefix. */
    val reason: String = message

    companion object {
        /** Reads an error document `{"code", "field", "message"}`. */
        internal fun from(document: JSONObject): PayHandoffException =
            PayHandoffException(
                document.optString("code", "unknown"),
                if (document.isNull("field")) null else document.optString("field"),
                document.optString("message", ""))
    }
}
