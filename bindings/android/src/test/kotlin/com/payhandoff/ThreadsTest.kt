package com.payhandoff

import org.junit.Assert.assertEquals
import org.junit.Test
import java.util.concurrent.Callable
import java.util.concurrent.Executors

/** 8 threads, each with its own coordinators, at the same time; and 8 threads sharing one (serialized by the binding). */
class ThreadsTest {
    private val t0 = 1796054400000L

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
                            c.send("""{"type": "pos.start", "flow_id": "p", "now": $t0, "request": {"transaction": "venta",
                                "usertoken": "tok", "identifier": "$id", "amount": "$round.50", "urlScheme": "myapp"}}""")
                            val answer = c.handleUrl("myapp://result=aprobada&amount=$round.50&transactionid=$thread$round&identifier=$id", t0 + 1000)
                            if (answer.transitions.single().state == "approved") approved++
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

    @Test
    fun eightThreadsShareOneCoordinator() {
        val pool = Executors.newFixedThreadPool(8)
        Coordinator().use { c ->
            try {
                val jobs = (0 until 8).map { thread ->
                    pool.submit(Callable {
                        for (round in 0 until 25) {
                            val id = "t$thread-$round"
                            c.send("""{"type": "pos.start", "flow_id": "$id", "now": $t0, "request": {"transaction": "venta",
                                "usertoken": "tok", "identifier": "$id", "amount": "1.00", "urlScheme": "myapp"}}""")
                            c.handleUrl("myapp://result=rechazada&identifier=$id", t0 + 1000)
                            c.snapshot()
                        }
                    })
                }
                jobs.forEach { it.get() }
            } finally {
                pool.shutdown()
            }
            val states = c.flowStates()
            assertEquals(200, states.size)
            assertEquals(setOf("declined"), states.values.toSet())
        }
    }
}
