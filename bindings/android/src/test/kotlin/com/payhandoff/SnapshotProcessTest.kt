package com.payhandoff

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File

/** The OS kills the app while the POS app / browser is in front: snapshot → a new JVM → restore. */
class SnapshotProcessTest {
    private val t0 = 1796054400000L
    private val token = "9f86d081884c7d659a2feaa0c55ad015"

    @Test
    fun posFlowSurvivesProcessDeath() {
        val file = File.createTempFile("payhandoff-snapshot", ".json")
        try {
            Coordinator().use { c ->
                c.send(Event.PosStart("p1", PosRequest.sale("tok_1", "ord-\ud83d\udcb3", "100.00", "myapp"), token = token, nowMs = t0))
                c.send(Event.PosLaunched("p1", t0 + 500))
                c.send(Event.CheckoutStart("c1", Event.CheckoutStart.Start.Backend(CheckoutKind.PAYMENTS, "fixapp://cb"),
                    nonce = "0123456789abcdef0123456789abcdef", nowMs = t0))
                file.writeText(c.snapshot(), Charsets.UTF_8)
            }
            // The POS app echoes the identifier it was sent: the app's reference and the flow's token.
            val answer = "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-%F0%9F%92%B3~$token"
            val run = Jvm.run("com.payhandoff.RestoreChild", file.path, answer, (t0 + 60000).toString())
            assertEquals(run.output, 0, run.exit)
            assertTrue(run.output, run.output.contains("outcome=accepted states={p1=approved, c1=awaiting_session}"))
            // Back in this process: the second process's snapshot restores, and the answer is now a duplicate.
            Coordinator.restore(file.readText(Charsets.UTF_8)).use { c ->
                assertEquals(mapOf("p1" to "approved", "c1" to "awaiting_session"), c.flowStates())
                assertEquals(Outcome.Duplicate, c.handleUrl(answer, t0 + 70000).outcome)
            }
        } finally {
            file.delete()
        }
    }
}
