package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject
import org.junit.Assert.assertTrue
import org.junit.Test
import java.lang.reflect.Modifier

/**
 * No `toString()` shows a secret (issue 36): every value the shared vectors produce through the
 * Kotlin API — each result, each error, and for a script every answer, its transitions, effects
 * and details, the snapshot document and a salvage of it — and every object reachable from it
 * through its public getters is printed with `toString()` (what `"$x"`, `println`, `Log.d` and
 * `String.valueOf` print), and none may show the vector's secrets: the user tokens, PINs, API keys,
 * nonces and tokens of its input (also inside its URLs: the `ph_<nonce>` segment, `usertoken=`,
 * `pin=`) and those the library made (read from the result documents, which carry them as data:
 * `json` and `toJson()` are not printed here).
 */
class SecretPrintingTest {
    @Test
    fun noVectorSecretIsPrinted() {
        var values = 0
        var looked = 0
        val shown = ArrayList<String>()
        for (row in VectorTest.vectors()) {
            val suite = row[1] as String
            val id = row[2] as String
            val vector = row[3] as JSONObject
            if ((vector.optJSONObject("skip")?.optString("kotlin", "") ?: "").isNotEmpty()) continue
            val input = vector.getJSONObject("input")
            if ((input.opt("url") as? String)?.contains('\u0000') == true) continue
            val secrets = HashSet<String>()
            collect(input, secrets)
            val made = produce(suite, input)
            for (value in made) documentOf(value)?.let { collect(it, secrets) }
            val wanted = secrets.filter { it.length >= 4 && it != "true" }
            looked += wanted.size
            for (value in made) {
                for (text in printed(value)) {
                    values++
                    for (secret in wanted) if (text.contains(secret)) shown.add("$id: '$secret' in ${text.take(400)}")
                }
            }
        }
        println("android-test: secret-printing: $values toString() results of the vectors' values, $looked secrets looked for, ${shown.size} shown")
        assertTrue(shown.take(5).joinToString("\n"), shown.isEmpty())
        assertTrue("only $values values", values > 1000)
    }

    /** What the vector's call hands the app, typed; an error is a value too. */
    private fun produce(suite: String, input: JSONObject): List<Any> {
        fun text(key: String) = TestJson.text(input.opt(key))
        return try {
            when (suite) {
                "pos.build_url" -> listOf(Pos.buildUrlJson(text("request")))
                "pos.parse_response" -> listOf(Pos.parseResponseJson(input.getString("url"), text("options")))
                "pos.parse_result" -> listOf(Pos.parseResultJson(text("extras"), text("options")))
                "pos.refund_check" -> listOf(Pos.refundCheckJson(text("check")))
                "checkout.build_request" -> listOf(Checkout.buildRequestJson(text("request")))
                "checkout.parse_session" -> listOf(Checkout.parseSessionJson(text("session")))
                "checkout.parse_callback" -> listOf(Checkout.parseCallbackJson(input.getString("url"), text("options")))
                "checkout.confirmation" -> listOf(Checkout.parseConfirmationJson(text("event")))
                "coordinator.script" -> script(input)
                else -> throw AssertionError("unknown suite $suite")
            }
        } catch (e: PayHandoffException) {
            listOf(e)
        }
    }

    private fun script(input: JSONObject): List<Any> {
        val made = ArrayList<Any>()
        var coordinator = Coordinator(if (input.has("config")) TestJson.text(input.get("config")) else null)
        try {
            val steps = input.optJSONArray("steps") ?: JSONArray()
            for (i in 0 until steps.length()) {
                val step = steps.getJSONObject(i)
                try {
                    if (step.optBoolean("restore", false)) {
                        made.add(coordinator.snapshotDocument())
                        val saved = coordinator.snapshot()
                        coordinator.close()
                        coordinator = Coordinator.restore(saved)
                    } else if (step.opt("url") is String) {
                        if (step.getString("url").contains('\u0000')) continue
                        made.add(coordinator.handleUrl(step.getString("url"), if (step.has("now")) step.getLong("now") else -1L))
                    } else {
                        made.add(coordinator.send(TestJson.text(step.opt("event"))))
                    }
                } catch (e: PayHandoffException) {
                    made.add(e)
                }
            }
            made.add(coordinator.snapshotDocument())
            try {
                Coordinator.restoreSalvage(coordinator.snapshot()).let { made.add(it); it.coordinator.close() }
            } catch (e: PayHandoffException) {
                made.add(e)
            }
        } finally {
            coordinator.close()
        }
        return made
    }

    /** The value's result document (secret-bearing data), if it has one. */
    private fun documentOf(value: Any): JSONObject? = try {
        value.javaClass.getMethod("getJson").invoke(value) as? JSONObject
    } catch (e: NoSuchMethodException) {
        null
    }

    /** `toString()` of `value` and of everything reachable from it through public getters (but the
     *  documents: `json`, `toJson()`), lists and maps included. */
    private fun printed(value: Any): List<String> {
        val out = ArrayList<String>()
        val seen = java.util.IdentityHashMap<Any, Boolean>()
        fun visit(v: Any?, depth: Int) {
            if (v == null || depth > 12 || seen.put(v, true) != null) return
            when (v) {
                is String, is Number, is Boolean, is Enum<*>, is JSONObject, is JSONArray -> return
                // A list of the binding's values prints them (toString of each); a list or map of
                // strings is the data itself, as a String property is (a callback's `extra`).
                is Collection<*> -> {
                    if (v.any { it != null && it.javaClass.name.startsWith("com.payhandoff.") }) out.add(v.toString())
                    v.forEach { visit(it, depth + 1) }
                    return
                }
                is Map<*, *> -> { v.values.forEach { visit(it, depth + 1) }; return }
            }
            out.add(v.toString())
            if (!v.javaClass.name.startsWith("com.payhandoff.")) return
            for (method in v.javaClass.methods) {
                if (method.parameterCount != 0 || Modifier.isStatic(method.modifiers) || method.declaringClass == Any::class.java) continue
                if (!(method.name.startsWith("get") || method.name.startsWith("is")) || method.name in SKIPPED) continue
                val child = try { method.invoke(v) } catch (e: Exception) { null }
                visit(child, depth + 1)
            }
        }
        visit(value, 0)
        return out
    }

    private companion object {
        /** Getters that are the documents (data, secrets included) or throw by contract. */
        val SKIPPED = setOf("getJson", "getClass", "getBrowserReturnUrl", "getStackTrace", "getSuppressed", "getCause", "getLocalizedMessage")

        /** Members whose string value is a secret, compared ignoring case. */
        val KEYS = setOf("usertoken", "pin", "token", "nonce", "api_key", "affiliate_key")
        val URL_SECRETS = listOf(Regex("(?<![/:])/ph_([A-Za-z0-9._~-]+)"), Regex("(?i)[?&/]usertoken=([^&#]*)"), Regex("(?i)[?&/]pin=([^&#]*)"),
            Regex("(?i)[?&]affiliate-key=([^&#]*)"))

        fun collect(value: Any?, into: MutableSet<String>) {
            when (value) {
                is JSONObject -> for (key in value.keys()) {
                    val member = value.opt(key)
                    if (key.toLowerCase() in KEYS && member is String) into.add(member)
                    collect(member, into)
                }
                is JSONArray -> for (i in 0 until value.length()) collect(value.opt(i), into)
                is String -> for (pattern in URL_SECRETS) for (match in pattern.findAll(value)) {
                    val found = match.groupValues[1]
                    into.add(found)
                    try { into.add(java.net.URLDecoder.decode(found, "UTF-8")) } catch (e: IllegalArgumentException) {}
                }
            }
        }
    }
}
