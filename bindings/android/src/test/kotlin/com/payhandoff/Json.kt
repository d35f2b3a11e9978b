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
        return a == b
    }

    val vectorsDir: File
        get() = File(System.getProperty("payhandoff.vectors") ?: "Tests/Vectors")
}
