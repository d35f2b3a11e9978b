// JVM per-call overhead of the Android binding (issue 10): the Kotlin API over the JNI shim, on the
// host JVM against dist/embedded (as make android-test runs it), with the inputs of the C ABI cases
// of Benchmarks/main.swift and Benchmarks/node-overhead.js, minus the C ABI round trip of the last
// make bench (bench/results.json, dist/embedded), where a "jvm" section is appended.
//   make bench-jvm [BENCH_ARGS=--quick]     (mk/bench-jvm.mk; needs make android-test's JNI shim)
package com.payhandoff.bench

import com.payhandoff.Checkout
import com.payhandoff.PayHandoff
import com.payhandoff.Pos
import org.json.JSONArray
import org.json.JSONObject
import java.io.File
import java.lang.management.ManagementFactory

const val POS_ANSWER = "myapp://result=aprobada&statusinfo=&amount=1250.00&tip=187.50" +
    "&reference=Pedido%2012345%20mesa%207%20(terraza)%20/%20cliente@frecuente%20a%203%20MSI" +
    "&transactionid=720371234&msi=3&authorization=A1B2C3&creditcard=************4242&cardtype=visa" +
    "&email=juan.perez@example.com&phone=5512345678&arqc=9F26A1B2C3D4E5F6&aid=A0000000031010" +
    "&applabel=VISA%20CREDITO&url=https://bp.mx/v/8f7e6d&identifier=ord-000042&bank=BBVA" +
    "&accountType=credit&name=JUAN%20PEREZ&bp_version=4.3.24"
const val POS_OPTIONS = """{"urlScheme":"myapp","identifier":"ord-000042"}"""
// The same answer as Android result extras (decoded text).
const val POS_EXTRAS = """{"result":"aprobada","statusinfo":"","amount":"1250.00","tip":"187.50","reference":"Pedido 12345 mesa 7 (terraza) / cliente@frecuente a 3 MSI","transactionid":"720371234","msi":"3","authorization":"A1B2C3","creditcard":"************4242","cardtype":"visa","email":"juan.perez@example.com","phone":"5512345678","arqc":"9F26A1B2C3D4E5F6","aid":"A0000000031010","applabel":"VISA CREDITO","url":"https://bp.mx/v/8f7e6d","identifier":"ord-000042","bank":"BBVA","accountType":"credit","name":"JUAN PEREZ","bp_version":"4.3.24"}"""
const val POS_RESULT_OPTIONS = """{"identifier":"ord-000042"}"""
// The gateway's redirect to the return URL PayHandoff handed out (the nonce is its last path segment).
const val CALLBACK_URL = "fixapp://checkout-callback/ph_4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99?status=completed&card_id=card_xyz789&order=A%2B1+2"
const val CALLBACK_OPTIONS = """{"kind":"cards","return_url":"fixapp://checkout-callback","nonce":"4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99"}"""
const val REFUND = """{"sale":{"transactionid":"T-1","amount":"100.00","approved_at":1773174600,"bp_version":"4.3.24"},"now":1773178200,"amount":"40.00"}"""
const val CONFIRMATION = """{"type":"card.registered","data":{"card_id":"card_xyz","brand":"visa","last_four":"4242","token":"tok_1Nv0abc","created_at":"2026-11-30T16:00:00Z"}}"""

// The …Json forms take the same documents the C ABI cases pass, so the difference is the binding
// alone (the typed overloads would add building the options JSONObject on every call).
class Case(val method: String, val cName: String?, val call: () -> Int)

val cases = listOf(
    Case("posParseResponse", "payhandoff_pos_parse_response") { Pos.parseResponseJson(POS_ANSWER, POS_OPTIONS).json.length() },
    Case("posParseResult", "payhandoff_pos_parse_result") { Pos.parseResultJson(POS_EXTRAS, POS_RESULT_OPTIONS).json.length() },
    Case("checkoutParseCallback", "payhandoff_checkout_parse_callback") { Checkout.parseCallbackJson(CALLBACK_URL, CALLBACK_OPTIONS).json.length() },
    Case("posRefundCheck", "payhandoff_pos_refund_check") { Pos.refundCheckJson(REFUND).json.length() },
    Case("checkoutParseConfirmation", "payhandoff_checkout_parse_confirmation") { Checkout.parseConfirmationJson(CONFIRMATION).json.length() },
    Case("abiVersion", null) { PayHandoff.abiVersion }
)

// A field, not a local, so the JIT cannot prove the results unused and drop the calls.
@Volatile var sink = 0L

class Stats(val median: Double, val p10: Double, val p90: Double, val samples: Int, val batch: Int, val jitMs: Long)

val jit = ManagementFactory.getCompilationMXBean()

// Warm-up, calibration and samples all go through this one method, so the loop that is timed is
// already compiled when the samples start (a separate sampling loop would run interpreted, then
// OSR-compiled, during the first samples: that distorts the 8 ns floor case).
fun timeBatch(call: () -> Int, batch: Int): Long {
    var acc = 0L
    val t0 = System.nanoTime()
    for (i in 0 until batch) acc += call()
    val elapsed = System.nanoTime() - t0
    sink += acc
    return elapsed
}

fun measure(call: () -> Int, quick: Boolean): Stats {
    // C2 compiles after ~10k invocations; 200k calls (or 2 s for the slow cases) leaves the
    // whole path (Kotlin, org.json, the JNI transitions) compiled before anything is timed.
    val warmCalls = if (quick) 50_000 else 200_000
    val warmNs = if (quick) 500_000_000L else 2_000_000_000L
    var start = System.nanoTime()
    var n = 0
    while (n < warmCalls && System.nanoTime() - start < warmNs) { timeBatch(call, 1); n++ }

    // Doubling until a batch takes 1 ms, rather than timing single calls: the floor case costs
    // about as much as System.nanoTime() itself.
    var probe = 1
    var probeNs = timeBatch(call, probe)
    while (probeNs < 1_000_000L) { probe *= 2; probeNs = timeBatch(call, probe) }
    val batch = Math.max(1, Math.round(50_000.0 * probe / probeNs).toInt())

    val jitBefore = jit.totalCompilationTime
    val samples = ArrayList<Double>()
    val budget = if (quick) 200_000_000L else 1_000_000_000L
    start = System.nanoTime()
    while (System.nanoTime() - start < budget || samples.size < 50) {
        samples.add(timeBatch(call, batch).toDouble() / batch)
    }
    samples.sort()
    fun at(p: Double) = samples[Math.min(samples.size - 1, Math.round((samples.size - 1) * p).toInt())]
    return Stats(at(0.5), at(0.1), at(0.9), samples.size, batch, jit.totalCompilationTime - jitBefore)
}

fun fmt(ns: Double): String = if (ns >= 1000) String.format("%.2f µs", ns / 1000) else String.format("%.0f ns", ns)

fun main(args: Array<String>) {
    val quick = args.contains("--quick")
    val resultsFile = File("bench", "results.json")
    val results = if (resultsFile.exists()) JSONObject(resultsFile.readText()) else null
    val cMedians = HashMap<String, Double>()
    val cCases = results?.optJSONArray("cases") ?: JSONArray()
    for (i in 0 until cCases.length()) {
        val c = cCases.getJSONObject(i)
        cMedians[c.getString("name")] = c.getDouble("median_ns")
    }

    PayHandoff.load()
    val vm = "${System.getProperty("java.vm.name")} ${System.getProperty("java.runtime.version")}"
    println()
    println("JVM $vm: Android binding's Kotlin API over the JNI shim (dist/embedded)${if (quick) ", --quick" else ""}")
    println("method".padEnd(30) + "jvm median".padStart(12) + "p10".padStart(10) + "p90".padStart(10) +
        "C ABI".padStart(10) + "overhead".padStart(10))
    val out = JSONArray()
    var jitDuringSamplingMs = 0L
    var missing = false
    for (case in cases) {
        val m = measure(case.call, quick)
        jitDuringSamplingMs += m.jitMs
        val c: Double? = if (case.cName == null) 0.0 else cMedians["${case.cName} [dist/embedded]"]
        if (c == null) missing = true
        val overhead = if (c == null) null else m.median - c
        out.put(JSONObject()
            .put("method", case.method).put("median_ns", m.median).put("p10_ns", m.p10).put("p90_ns", m.p90)
            .put("samples", m.samples).put("calls_per_sample", m.batch)
            // put(key, null) would drop the key; node-overhead.js writes null, so the shapes match.
            .put("c_abi_median_ns", c ?: JSONObject.NULL).put("overhead_ns", overhead ?: JSONObject.NULL))
        println(case.method.padEnd(30) + fmt(m.median).padStart(12) + fmt(m.p10).padStart(10) + fmt(m.p90).padStart(10) +
            (if (c == null) "?" else fmt(c)).padStart(10) + (if (overhead == null) "?" else fmt(overhead)).padStart(10))
    }
    println("overhead = jvm median − C ABI round trip median of the same call in the Swift run (abiVersion: the bare call cost)")
    // Compiling while samples are taken means the warm-up was too short (or the machine too busy) for these figures.
    println("JIT compilation during the timed samples: $jitDuringSamplingMs ms (after the warm-up of each case)")
    if (results == null || missing) {
        println("C ABI round trips not found in bench/results.json: the overhead needs make bench first")
    }
    if (results != null) {
        results.put("jvm", JSONObject().put("version", vm).put("quick", quick).put("cases", out))
        // Android's org.json writes every '/' as "\/"; undone so the file stays as readable as the
        // Swift and Node writers leave it (every "\/" in its output is an escaped '/').
        resultsFile.writeText(results.toString(2).replace("\\/", "/"))
    }
}
