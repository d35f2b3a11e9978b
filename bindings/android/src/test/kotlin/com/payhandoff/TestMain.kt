package com.payhandoff

import org.junit.runner.Description
import org.junit.runner.JUnitCore
import org.junit.runner.notification.Failure
import org.junit.runner.notification.RunListener
import kotlin.system.exitProcess

/**
 * Runs the JUnit 4 tests and ends with "N passed, N failed" (skipped vectors are listed with their
 * reason and counted on the line before); exits non-zero on any failure.
 * With --check-jni-child (the -Xcheck:jni JVM CheckJniTest starts) it runs everything but CheckJniTest;
 * with --in-process-only, only the suites that need no second JVM and no stand-in library
 * (vectors, scenarios, the typed API, Billpocket's and the other terminal apps' answers, threads): the run against the AAR's own libpayhandoff.so, loaded by
 * System.loadLibrary as on Android, which has no stand-in to find first.
 */
object TestMain {
    @JvmStatic
    fun main(args: Array<String>) {
        val child = args.contains("--check-jni-child")
        val inProcessOnly = args.contains("--in-process-only")
        val classes = ArrayList<Class<*>>(listOf(VectorTest::class.java, ScenarioTest::class.java, TypedApiTest::class.java, BillpocketTest::class.java, PosAppsTest::class.java, ThreadsTest::class.java,
            SecretPrintingTest::class.java, JavaInteropTest::class.java))
        if (!inProcessOnly) classes.addAll(listOf(SnapshotProcessTest::class.java, AbiMismatchTest::class.java))
        if (!child && !inProcessOnly) classes.add(CheckJniTest::class.java)
        var passed = 0
        var failed = 0
        var skipped = 0
        val perClass = LinkedHashMap<String, IntArray>()
        val core = JUnitCore()
        core.addListener(object : RunListener() {
            private var outcome = 0 // 0 passed, 1 failed, 2 skipped
            override fun testStarted(description: Description) {
                outcome = 0
            }
            override fun testFailure(failure: Failure) {
                outcome = 1
                println("FAIL: ${failure.description.displayName}: ${failure.message}")
            }
            override fun testAssumptionFailure(failure: Failure) {
                outcome = 2
            }
            override fun testFinished(description: Description) {
                val key = if (description.className.endsWith("VectorTest")) "vectors " + description.methodName.substringAfter("[").substringBefore(" ") else description.className.substringAfterLast('.')
                val counts = perClass.getOrPut(key) { IntArray(3) }
                counts[outcome]++
                when (outcome) {
                    0 -> passed++
                    1 -> failed++
                    else -> skipped++
                }
            }
        })
        val started = System.nanoTime()
        val result = core.run(*classes.toTypedArray())
        // Failures outside a test (class setup) do not reach testFinished.
        val unfinished = result.failureCount - failed
        if (unfinished > 0) failed += unfinished
        for ((key, c) in perClass) println("android-test: $key: ${c[0]} passed, ${c[1]} failed, ${c[2]} skipped")
        println("android-test: ${skipped} skipped (reasons above), ${(System.nanoTime() - started) / 1000000} ms${if (child) " under -Xcheck:jni" else ""}")
        println("$passed passed, $failed failed")
        System.out.flush()
        exitProcess(if (failed == 0) 0 else 1)
    }
}
