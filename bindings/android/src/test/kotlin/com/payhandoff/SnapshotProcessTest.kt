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
                c.send("""{"type": "pos.start", "flow_id": "p1", "now": $t0, "token": "$token", "request": {"transaction": "venta",
                    "usertoken": "tok_1", "identifier": "ord-\ud83d\udcb3", "amount": "100.00", "urlScheme": "myapp"}}""")
                c.send("""{"type": "pos.launched", "flow_id": "p1", "now": ${t0 + 500}}""")
                c.send("""{"type": "checkout.start", "flow_id": "c1", "kind": "payments", "return_url": "fixapp://cb",
                    "nonce": "0123456789abcdef0123456789abcdef", "now": $t0}""")
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
