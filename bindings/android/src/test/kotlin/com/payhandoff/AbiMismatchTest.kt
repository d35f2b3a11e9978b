package com.payhandoff

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File

/**
 * A libpayhandoff.so of another ABI version (src/test/cpp/fake_abi.c, built by make android-test
 * into the directory named by -Dpayhandoff.fake.abi.dir) is found first by the loader in a
 * second JVM: PayHandoff.load() must refuse it with a message that says what to do.
 */
class AbiMismatchTest {
    @Test
    fun mismatchedLibraryIsRefusedAtLoad() {
        val dir = System.getProperty("payhandoff.fake.abi.dir")
        assertTrue("-Dpayhandoff.fake.abi.dir is not set", dir != null && File(dir, "libpayhandoff.so").exists())
        val run = Jvm.run("com.payhandoff.AbiChild", env = mapOf("LD_LIBRARY_PATH" to dir!!))
        assertEquals(run.output, 0, run.exit)
        val expected = "refused: libpayhandoff.so has ABI version ${PayHandoff.ABI_VERSION + 1} but com.payhandoff " +
            "was written for ABI version ${PayHandoff.ABI_VERSION}"
        assertTrue(run.output, run.output.contains(expected))
        // The same JVM setup without the stand-in loads the real library.
        val real = Jvm.run("com.payhandoff.AbiChild")
        assertTrue(real.output, real.output.contains("loaded: ABI ${PayHandoff.ABI_VERSION}"))
    }
}
