package com.payhandoff

import org.junit.Assert.assertEquals
import org.junit.Test
import java.util.concurrent.Callable
import java.util.concurrent.Executors

/** 8 threads, each with its own coordinators, at the same time; and 8 threads sharing one (serialized by the binding). */
class ThreadsTest {
    private val t0 = 1796054400000L
    private val token = "0123456789abcdef0123456789abcdef"

    @Test
    fun eightThreadsOwnCoordinators() {
        val pool = Executors.newFixedThreadPool(8)
        try {
            val jobs = (0 until 8).map { thread ->
                pool.submit(Callable {
                    var approved = 0
                    for (round in 0 until 50) {
                        Coordinator().use { c ->
                            val id = "ord-$thread-$round"
                            c.send(Event.PosStart("p", PosRequest.sale("tok", id, Amount.ofMinorUnits(round * 100L + 50), "myapp"), token = token, nowMs = t0))
                            val answer = c.handleUrl("myapp://result=aprobada&amount=$round.50&transactionid=$thread$round&identifier=$id~$token", t0 + 1000)
                            if (answer.transitions.single().state == PosState.APPROVED) approved++
                            val restored = Coordinator.restore(c.snapshot())
                            restored.use { r -> if (r.flowStates()["p"] == "approved") approved++ }
                        }
                    }
                    approved
                })
            }
            assertEquals(List(8) { 100 }, jobs.map { it.get() })
        } finally {
            pool.shutdown()
        }
    }

    /**
     * 8 threads, 25 rounds each, on one coordinator: every round starts a sale, answers it with
     * result extras (declined), reads the snapshot and removes the ended flow, but the last round's.
     * At most 16 ended flows are kept at any time, under the 32 a start keeps (it forgets older
     * ended flows beyond those): no start forgets a flow another thread has yet to remove.
     */
    @Test
    fun eightThreadsShareOneCoordinator() {
        val pool = Executors.newFixedThreadPool(8)
        Coordinator().use { c ->
            try {
                val jobs = (0 until 8).map { thread ->
                    pool.submit(Callable {
                        val answers = ArrayList<String>()
                        for (round in 0 until 25) {
                            val id = "t$thread-$round"
                            val start = c.send(Event.PosStart(id, PosRequest.sale("tok", id, "1.00", "myapp"), token = token, nowMs = t0))
                            answers.add("${start.outcome}${if (start.forgotten.isEmpty()) "" else " forgot ${start.forgotten}"}")
                            val declined = c.send(Event.PosResult(id, mapOf("result" to "rechazada", "identifier" to "$id~$token"), t0 + 1000))
                            answers.add("${declined.outcome} ${declined.transitions.single().state}")
                            c.snapshot()
                            if (round < 24) answers.add(c.send(Event.FlowRemove(id, nowMs = t0 + 2000)).outcome.toString())
                        }
                        answers
                    })
                }
                for (job in jobs) {
                    val answers = job.get()
                    assertEquals(25 + 25 + 24, answers.size)
                    assertEquals(setOf("Accepted", "Accepted DECLINED"), answers.toSet())
                }
            } finally {
                pool.shutdown()
            }
            val states = c.snapshotDocument().flows.associate { it.id to it.state }
            assertEquals(setOf(PosState.DECLINED), states.values.toSet())
            assertEquals((0 until 8).map { t -> "t$t-24" }.toSet(), states.keys)
        }
    }
}
