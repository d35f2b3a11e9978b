package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject
import java.io.File

/** Test helpers: JSON text of a vector member, deep comparison with key order ignored. */
object TestJson {
    /** The JSON text of a member value as the C harness prints it ("null" when absent). */
    fun text(value: Any?): String = when (value) {
        null, JSONObject.NULL -> "null"
        is JSONObject, is JSONArray -> value.toString()
        is String -> JSONObject.quote(value)
        else -> value.toString()
    }

    /** Deep equality; objects ignore key order, arrays keep it, integers compare by value. */
    fun same(a: Any?, b: Any?): Boolean {
        if (a is JSONObject && b is JSONObject) {
            if (a.length() != b.length()) return false
            val keys = a.keys()
            while (keys.hasNext()) {
                val k = keys.next()
                if (!b.has(k) || !same(a.get(k), b.get(k))) return false
            }
            return true
        }
        if (a is JSONArray && b is JSONArray) {
            if (a.length() != b.length()) return false
            return (0 until a.length()).all { same(a.get(it), b.get(it)) }
        }
        if (a is Number && b is Number) {
            val integral = { n: Number -> n is Int || n is Long || n is Short || n is Byte }
            return if (integral(a) && integral(b)) a.toLong() == b.toLong() else a.toDouble() == b.toDouble()
        }
        if (a is String && b is String && a != b) {
            val x = squareData(a)
            val y = squareData(b)
            if (x != null && y != null) return same(x, y)
        }
        return a == b
    }

    private const val SQUARE_DATA = "square-commerce-v1://payment/create?data="

    /**
     * Square's iOS request carries its JSON in `data=`, in no fixed key order: such a string is
     * compared by that JSON, percent-decoded (Tests/Vectors/README.md, "Comparing results"); null
     * for any other string, or one whose rest does not decode.
     */
    private fun squareData(s: String): Any? {
        if (!s.startsWith(SQUARE_DATA)) return null
        val rest = s.substring(SQUARE_DATA.length)
        val bytes = java.io.ByteArrayOutputStream()
        var i = 0
        while (i < rest.length) {
            val high = if (rest[i] == '%' && i + 2 < rest.length) Character.digit(rest[i + 1], 16) else -1
            val low = if (high >= 0) Character.digit(rest[i + 2], 16) else -1
            if (low >= 0) {
                bytes.write(high * 16 + low)
                i += 3
            } else {
                val codePoint = rest.codePointAt(i)
                bytes.write(String(Character.toChars(codePoint)).toByteArray(Charsets.UTF_8))
                i += Character.charCount(codePoint)
            }
        }
        return try {
            org.json.JSONTokener(String(bytes.toByteArray(), Charsets.UTF_8)).nextValue()
        } catch (e: org.json.JSONException) {
            null
        }
    }

    val vectorsDir: File
        get() = File(System.getProperty("payhandoff.vectors") ?: "Tests/Vectors")
}
