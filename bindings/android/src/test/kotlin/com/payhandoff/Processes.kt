package com.payhandoff

import java.io.File

/** Starts another JVM with this test classpath and the same library settings. */
object Jvm {
    class Run(val exit: Int, val output: String)

    fun run(vararg args: String, jvmOptions: List<String> = emptyList(), env: Map<String, String> = emptyMap()): Run {
        val command = ArrayList<String>()
        command.add(File(System.getProperty("java.home"), "bin/java").path)
        command.addAll(jvmOptions)
        command.add("-cp")
        command.add(System.getProperty("java.class.path"))
        for (property in listOf("payhandoff.jni.path", "payhandoff.vectors", "payhandoff.fake.abi.dir", "java.library.path")) {
            val value = System.getProperty(property)
            if (value != null) command.add("-D$property=$value")
        }
        command.addAll(args)
        val builder = ProcessBuilder(command).redirectErrorStream(true)
        builder.environment().putAll(env)
        val process = builder.start()
        val output = process.inputStream.bufferedReader(Charsets.UTF_8).readText()
        return Run(process.waitFor(), output)
    }
}

/** The second process of SnapshotProcessTest: restores the snapshot file, handles a URL, writes the new snapshot back. */
object RestoreChild {
    @JvmStatic
    fun main(args: Array<String>) {
        val file = File(args[0])
        Coordinator.restore(file.readText(Charsets.UTF_8)).use { c ->
            val answer = c.handleUrl(args[1], args[2].toLong())
            println("outcome=${answer.outcome.type.wire} states=${c.flowStates()}")
            file.writeText(c.snapshot(), Charsets.UTF_8)
        }
    }
}

/** The child of AbiMismatchTest: loads the binding and prints what happened. */
object AbiChild {
    @JvmStatic
    fun main(args: Array<String>) {
        try {
            PayHandoff.load()
            println("loaded: ABI ${PayHandoff.abiVersion}")
        } catch (e: IllegalStateException) {
            println("refused: ${e.message}")
        }
    }
}
