package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject
import java.io.ByteArrayOutputStream

/** The Kotlin side of every call: text to UTF-8 bytes, and a returned document to a value or an exception. */
internal object Call {
    /**
     * [text] as UTF-8 for the C ABI. U+0000 cannot cross (a C string ends there), so it is refused
     * here as `invalid_argument` naming [parameter] rather than silently cutting the text. An
     * unpaired surrogate has no UTF-8 form: it is written as its 3-byte generalized form (0xED
     * 0xA0..0xBF …), which is invalid UTF-8, so the core refuses it exactly as any invalid UTF-8
     * (`invalid_json`, `malformed_url`) instead of it turning into '?'.
     */
    fun utf8(text: String?, parameter: String): ByteArray? {
        if (text == null) return null
        if (text.indexOf('\u0000') >= 0) {
            throw PayHandoffException(ErrorCode.INVALID_ARGUMENT, parameter,
                "contains U+0000, which the C ABI cannot carry (a C string ends there)")
        }
        val out = ByteArrayOutputStream(text.length + 16)
        var start = 0
        var i = 0
        while (i < text.length) {
            val c = text[i]
            if (Character.isHighSurrogate(c) && i + 1 < text.length && Character.isLowSurrogate(text[i + 1])) {
                i += 2
                continue
            }
            if (Character.isSurrogate(c)) {
                val encoded = text.substring(start, i).toByteArray(Charsets.UTF_8)
                out.write(encoded, 0, encoded.size)
                val unit = Character.codePointAt(text, i)
                out.write(0xE0 or (unit shr 12))
                out.write(0x80 or ((unit shr 6) and 0x3F))
                out.write(0x80 or (unit and 0x3F))
                start = i + 1
            }
            i++
        }
        if (start == 0) return text.toByteArray(Charsets.UTF_8)
        val rest = text.substring(start).toByteArray(Charsets.UTF_8)
        out.write(rest, 0, rest.size)
        return out.toByteArray()
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
