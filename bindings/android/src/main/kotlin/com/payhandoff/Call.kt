package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject

/** The Kotlin side of every call: text to UTF-8 bytes, and a returned document to a value or an exception. */
internal object Call {
    /**
     * [text] as UTF-8 for the C ABI: the one place a Kotlin string becomes C text. What UTF-8 or a
     * C string cannot carry is refused here as `invalid_argument` naming [parameter], before any
     * C call: U+0000 (a C string ends there) and a lone UTF-16 surrogate (it has no UTF-8 form;
     * `toByteArray` would send '?'). React Native and the web refuse both the same way.
     */
    fun utf8(text: String?, parameter: String): ByteArray? {
        if (text == null) return null
        if (text.indexOf('\u0000') >= 0) {
            throw PayHandoffException(ErrorCode.INVALID_ARGUMENT, parameter,
                "contains U+0000, which the C ABI cannot carry (a C string ends there)")
        }
        val lone = loneSurrogateAt(text)
        if (lone >= 0) {
            throw PayHandoffException(ErrorCode.INVALID_ARGUMENT, parameter,
                "holds a lone UTF-16 surrogate (U+${Integer.toHexString(text[lone].toInt()).toUpperCase()} at index $lone), " +
                    "which has no UTF-8 form")
        }
        return text.toByteArray(Charsets.UTF_8)
    }

    /** The index of the first surrogate of [text] that is not half of a pair, or -1. */
    fun loneSurrogateAt(text: String): Int {
        var i = 0
        while (i < text.length) {
            val c = text[i]
            if (Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1])) {
                i += 2
                continue
            }
            if (Character.isSurrogate(c)) return i
            i++
        }
        return -1
    }

    /** The document a call wrote: the result on status 0, otherwise thrown as [PayHandoffException]. */
    fun document(status: IntArray, bytes: ByteArray?): JSONObject {
        if (bytes == null) throw OutOfMemoryError("libpayhandoff wrote no document (out of memory)")
        val document = JSONObject(String(bytes, Charsets.UTF_8))
        if (status[0] != 0) throw PayHandoffException.from(document)
        return document
    }
}

/** What `toString()` shows instead of an API key, user token, nonce or per-flow token. */
internal const val REDACTED = "<redacted>"

/**
 * How `toString()` shows values that carry a secret (the same rules in Swift, Kotlin and
 * TypeScript, issue 36): a URL keeps its `https://host` origin (`<scheme>:` for any other scheme:
 * a return URL's nonce, a Billpocket URL's user token and token sit right after it), the rest is
 * [REDACTED]; an identifier sent to the POS app keeps the app's part before the last `~`.
 */
internal object Redact {
    fun url(url: String): String {
        val scheme = url.substringBefore(':', "")
        if (scheme.isEmpty() || !scheme.all { it.isLetterOrDigit() || it == '+' || it == '-' || it == '.' }) return REDACTED
        if (scheme.equals("https", ignoreCase = true) || scheme.equals("http", ignoreCase = true)) {
            val rest = url.substring(scheme.length + 1)
            if (rest.startsWith("//")) {
                val authority = rest.substring(2).takeWhile { it != '/' && it != '?' && it != '#' }
                if (!authority.contains('@')) return "$scheme://$authority/$REDACTED"
            }
        }
        return "$scheme:$REDACTED"
    }

    /** `/checkout-callback/ph_<redacted>` for an https return path with its nonce segment. */
    fun noncePath(path: String): String {
        val at = path.lastIndexOf("/ph_")
        return if (at < 0) path else path.substring(0, at + 4) + REDACTED
    }

    fun identifier(identifier: String): String =
        if (identifier.contains('~')) identifier.substringBeforeLast('~') + "~" + REDACTED else identifier

    /** Whether a POS field or extra named [key] carries a secret: the user token, the PIN or SumUp's affiliate key, in any case. */
    fun isSecretKey(key: String): Boolean = key.equals("usertoken", ignoreCase = true) || key.equals("pin", ignoreCase = true)
        || key.equals("affiliate_key", ignoreCase = true) || key.equals("affiliate-key", ignoreCase = true)
}

/** Wire words read from result documents: an unknown one is a typed error, never a crash. */
internal object Words {
    const val NEWER = "libpayhandoff.so is newer than com.payhandoff: ship both from the same PayHandoff release"

    /**
     * The constant [of] gives for the word at [key] of [json]. A word this binding does not know is
     * [ErrorCode.ABI_MISMATCH] naming [key].
     */
    inline fun <T : Any> read(json: JSONObject, key: String, of: (String) -> T?): T {
        val word = json.getString(key)
        return of(word) ?: throw PayHandoffException(ErrorCode.ABI_MISMATCH, key, "unknown word '$word' ($NEWER)")
    }

    /** [read] for an optional member: null when absent. */
    inline fun <T : Any> readOptional(json: JSONObject, key: String, of: (String) -> T?): T? =
        if (json.has(key) && !json.isNull(key)) read(json, key, of) else null
}

/** org.json helpers for reading result documents. */
internal fun JSONObject.stringOrNull(key: String): String? = if (has(key) && !isNull(key)) getString(key) else null

internal fun JSONObject.longOrNull(key: String): Long? = if (has(key) && !isNull(key)) getLong(key) else null

internal fun JSONObject.stringMap(key: String): Map<String, String> {
    val o = optJSONObject(key) ?: return emptyMap()
    val map = LinkedHashMap<String, String>()
    val keys = o.keys()
    while (keys.hasNext()) {
        val k = keys.next()
        map[k] = o.getString(k)
    }
    return map
}

/** The array at [key] (empty when absent), each element read by [read]. */
internal inline fun <T> JSONObject.listOf(key: String, read: (JSONArray, Int) -> T): List<T> {
    val a = optJSONArray(key) ?: return emptyList()
    return (0 until a.length()).map { read(a, it) }
}

/** The strings of the array at [key] (empty when absent). */
internal fun JSONObject.stringList(key: String): List<String> = listOf(key) { a, i -> a.getString(i) }

/** The objects of the array at [key] (empty when absent), each read by [read]. */
internal inline fun <T> JSONObject.objects(key: String, read: (JSONObject) -> T): List<T> =
    listOf(key) { a, i -> read(a.getJSONObject(i)) }

/** The object at [key] read by [read], or null when absent. */
internal inline fun <T> JSONObject.objectOrNull(key: String, read: (JSONObject) -> T): T? =
    if (has(key) && !isNull(key)) read(getJSONObject(key)) else null
