package com.payhandoff

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test

/** Every other test class again in a JVM run with -Xcheck:jni: it must pass and print no JNI warning. */
class CheckJniTest {
    @Test
    fun noJniWarnings() {
        val run = Jvm.run("com.payhandoff.TestMain", "--check-jni-child", jvmOptions = listOf("-Xcheck:jni"))
        val warnings = run.output.lines().filter {
            it.contains("WARNING") || it.contains("FATAL ERROR") || it.contains("JNI") && !it.startsWith("skip:")
        }
        val summary = run.output.lines().lastOrNull { it.matches(Regex("[0-9]+ passed, [0-9]+ failed")) }
        println("-Xcheck:jni run: ${summary ?: "no summary"}, ${warnings.size} JNI warning lines")
        assertTrue("JNI warnings under -Xcheck:jni:\n" + warnings.take(20).joinToString("\n"), warnings.isEmpty())
        assertEquals(run.output.takeLast(4000), 0, run.exit)
        assertTrue(run.output.takeLast(4000), summary != null && summary.endsWith(" 0 failed"))
    }
}
