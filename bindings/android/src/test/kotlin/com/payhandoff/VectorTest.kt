package com.payhandoff

import org.json.JSONArray
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Assume.assumeTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized

/**
 * The shared vectors (Tests/Vectors/{pos,checkout,flows,hostile}) through the Kotlin API and the JNI
 * shim, one JUnit test per vector, with the results Swift and C get. A vector the binding cannot
 * express is an assumption failure (reported as skipped, with the reason), never a silent pass.
 */
@RunWith(Parameterized::class)
class VectorTest(private val folder: String, private val suite: String, private val id: String, private val vector: JSONObject) {

    companion object {
        val folders = listOf("pos", "checkout", "flows", "hostile")

        @JvmStatic
        @Parameterized.Parameters(name = "{0}/{1} {2}")
        fun vectors(): List<Array<Any>> {
            val all = ArrayList<Array<Any>>()
            for (folder in folders) {
                val files = java.io.File(TestJson.vectorsDir, folder).listFiles { f -> f.name.endsWith(".json") }
                    ?: throw IllegalStateException("missing ${TestJson.vectorsDir}/$folder")
                for (file in files.sortedBy { it.name }) {
                    val document = JSONObject(file.readText(Charsets.UTF_8))
                    val vectors = document.getJSONArray("vectors")
                    if (vectors.length() == 0) throw IllegalStateException("$file has no vectors")
                    for (i in 0 until vectors.length()) {
                        val v = vectors.getJSONObject(i)
                        all.add(arrayOf<Any>(folder, document.getString("suite"), v.getString("id"), v))
                    }
                }
            }
            return all
        }
    }

    @Test
    fun vector() {
        // The vector says why this runner cannot express it (Tests/Vectors/README.md, "Skips").
        val skip = vector.optJSONObject("skip")?.optString("kotlin", "") ?: ""
        if (skip.isNotEmpty()) {
            println("skip: $folder/$suite $id: $skip")
            assumeTrue(skip, false)
        }
        val input = vector.getJSONObject("input")
        val url = input.opt("url")
        if (url is String && url.indexOf('\u0000') >= 0) {
            // The C ABI takes NUL-terminated strings: the binding refuses such a URL itself.
            try {
                run(input)
                fail("$id: a URL holding U+0000 was accepted")
            } catch (e: PayHandoffException) {
                assertEquals(ErrorCode.INVALID_ARGUMENT, e.code)
                assertEquals("url", e.field)
            }
            val reason = "a URL holding U+0000 cannot cross the C ABI (NUL-terminated); the binding answers invalid_argument (url) instead of the core's ${vector.getJSONObject("expect").opt("error")}"
            println("skip: $folder/$suite $id: $reason")
            assumeTrue(reason, false)
        }
        val expect = vector.getJSONObject("expect")
        val ok = expect.opt("ok")
        val error = expect.optJSONObject("error")
        assertTrue("$id: expect must hold exactly one of ok or error", (ok == null) != (error == null))
        val actual: JSONObject = try {
            run(input)
        } catch (e: PayHandoffException) {
            if (error == null) fail("$id: expected success, got ${e.code} [${e.field}]: ${e.reason}")
            assertEquals("$id: code", error!!.getString("code"), e.code.wire)
            if (error.has("field")) {
                val field = if (error.isNull("field")) null else error.getString("field")
                assertEquals("$id: field", field, e.field)
            }
            return
        }
        if (error != null) fail("$id: expected error ${error.getString("code")}, got success: $actual")
        assertTrue("$id: result differs:\n  got      $actual\n  expected $ok", TestJson.same(actual, ok))
    }

    /**
     * The result document of the vector's call through the JSON-string entry points; the typed
     * result's properties must rebuild that document exactly ([Typed]).
     */
    private fun run(input: JSONObject): JSONObject {
        fun text(key: String) = TestJson.text(input.opt(key))
        val result: Any = when (suite) {
            "pos.build_url" -> Pos.buildUrlJson(text("request"))
            "pos.parse_response" -> Pos.parseResponseJson(input.getString("url"), text("options"))
            "pos.parse_result" -> Pos.parseResultJson(text("extras"), text("options"))
            "pos.refund_check" -> Pos.refundCheckJson(text("check"))
            "checkout.build_request" -> Checkout.buildRequestJson(text("request"))
            "checkout.parse_session" -> Checkout.parseSessionJson(text("session"))
            "checkout.parse_callback" -> Checkout.parseCallbackJson(input.getString("url"), text("options"))
            "checkout.confirmation" -> Checkout.parseConfirmationJson(text("event"))
            "coordinator.script" -> return Script.run(input)
            else -> throw AssertionError("unknown suite $suite")
        }
        val document = result.javaClass.getMethod("getJson").invoke(result) as JSONObject
        Typed.check("$id (typed)", Typed.rebuild(result), document)
        return document
    }
}

/** A `coordinator.script` vector, summarised as Tests/Vectors/README.md says (and as Swift and C do). */
object Script {
    fun run(input: JSONObject): JSONObject {
        // Created from `config`, or restored (`salvage`: salvaged) from the `snapshot` given.
        var dropped: JSONArray? = null
        var coordinator = when {
            !input.has("snapshot") -> Coordinator(if (input.has("config")) TestJson.text(input.get("config")) else null)
            !input.optBoolean("salvage", false) -> Coordinator.restore(TestJson.text(input.get("snapshot")))
            else -> Coordinator.restoreSalvage(TestJson.text(input.get("snapshot"))).let { salvage ->
                dropped = JSONArray().also { list -> salvage.dropped.forEach { list.put(it.member) } }
                salvage.coordinator
            }
        }
        try {
            val steps = JSONArray()
            val list = input.optJSONArray("steps") ?: JSONArray()
            for (i in 0 until list.length()) {
                val step = list.getJSONObject(i)
                if (step.optBoolean("restore", false)) {
                    // Process death: only the snapshot survives.
                    val snapshot = coordinator.snapshot()
                    coordinator.close()
                    coordinator = Coordinator.restore(snapshot)
                    steps.put(summary("restored", coordinator, null, null))
                    continue
                }
                val answer: Answer = try {
                    if (step.opt("url") is String) {
                        coordinator.handleUrl(step.getString("url"), if (step.has("now")) step.getLong("now") else -1L)
                    } else {
                        coordinator.send(TestJson.text(step.opt("event")))
                    }
                } catch (e: PayHandoffException) {
                    steps.put(summary("invalid_event", coordinator, null, e))
                    continue
                }
                Typed.check("step $i (typed)", Typed.answer(answer), answer.json)
                val outcome = answer.outcome
                steps.put(summary(outcome.type.wire, coordinator, answer, if (outcome is Outcome.Rejected) outcome.error else null))
            }
            val snapshot = coordinator.snapshotDocument()
            Typed.check("the final snapshot (typed)", Typed.snapshot(snapshot), snapshot.json)
            return JSONObject().put("steps", steps).also { result -> dropped?.let { result.put("dropped", it) } }
        } finally {
            coordinator.close()
        }
    }

    private fun summary(outcome: String, coordinator: Coordinator, answer: Answer?, error: PayHandoffException?): JSONObject {
        val flows = JSONObject()
        for ((id, state) in coordinator.flowStates()) flows.put(id, state)
        val effects = JSONArray()
        for (t in answer?.transitions ?: emptyList()) for (e in t.effects) effects.put("${t.flowId}:${e.type.wire}")
        val s = JSONObject().put("outcome", outcome).put("flows", flows).put("effects", effects)
        if (error != null) s.put("error", JSONObject().put("code", error.code.wire).put("field", error.field ?: JSONObject.NULL))
        return s
    }
}
