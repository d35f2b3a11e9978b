package com.payhandoff

/**
 * The entry point: loads `libpayhandoff.so` and checks that the library speaks the ABI this
 * binding was written for. Every other class of the package goes through here, so a mismatch
 * fails on first use with [IllegalStateException].
 *
 * The AAR's `libpayhandoff.so` holds the core, cJSON and the JNI functions. A `libpayhandoff.so`
 * built with the Swift SDK for Android (README.md, the alternative route) is the C ABI alone: then
 * the JNI functions are in `libpayhandoff_jni.so`, loaded second.
 */
object PayHandoff {
    /** `PAYHANDOFF_ABI_VERSION` of the include/payhandoff.h this binding was written against. */
    const val ABI_VERSION: Int = Versions.ABI

    /** The most bytes of JSON text a call reads (`PAYHANDOFF_MAX_JSON_BYTES`; a snapshot may have [MAX_SNAPSHOT_BYTES]). */
    const val MAX_JSON_BYTES: Int = Versions.MAX_JSON_BYTES

    /** The most bytes of a URL a call reads (`PAYHANDOFF_MAX_URL_BYTES`). */
    const val MAX_URL_BYTES: Int = Versions.MAX_URL_BYTES

    /**
     * The most bytes a coordinator snapshot takes (`PAYHANDOFF_MAX_SNAPSHOT_BYTES`, 256 KiB): what
     * [Coordinator.snapshot] may write and [Coordinator.restore] reads. Size files and buffers for it.
     */
    const val MAX_SNAPSHOT_BYTES: Int = Versions.MAX_SNAPSHOT_BYTES

    /** The name passed to System.loadLibrary: the AAR's one library. */
    const val LIBRARY: String = "payhandoff"

    /** The JNI shim's own library, for a `libpayhandoff.so` without the JNI functions. */
    const val JNI_LIBRARY: String = "payhandoff_jni"

    @Volatile private var loaded = false

    /** Loads the native libraries and checks the ABI version (idempotent; called on first use). */
    @JvmStatic
    fun load() {
        try {
            Native.abiVersion() // runs Native's initializer, which calls loadLibraries()
        } catch (e: ExceptionInInitializerError) {
            throw e.cause ?: e
        }
    }

    @Synchronized
    internal fun loadLibraries() {
        if (loaded) return
        // A JVM outside Android may name the absolute path of the library with the JNI functions
        // (tests do); Android uses loadLibrary.
        val path = System.getProperty("payhandoff.jni.path")
        if (path != null && path.isNotEmpty()) System.load(path) else System.loadLibrary(LIBRARY)
        val found = try {
            Native.abiVersion()
        } catch (e: UnsatisfiedLinkError) {
            if (path != null && path.isNotEmpty()) throw e
            System.loadLibrary(JNI_LIBRARY)
            Native.abiVersion()
        }
        checkAbi(found)
        loaded = true
    }

    /** Throws unless [found] is [ABI_VERSION]; the message says what to do. */
    @JvmStatic
    fun checkAbi(found: Int) {
        if (found != ABI_VERSION) {
            throw IllegalStateException(
                "libpayhandoff.so has ABI version $found but com.payhandoff was written for ABI version " +
                    "$ABI_VERSION: ship the libpayhandoff.so built from the same PayHandoff release as this binding")
        }
    }

    /** The library's ABI version (payhandoff_abi_version()). */
    @JvmStatic
    val abiVersion: Int
        get() = Native.abiVersion()

    /** The library's version, e.g. "0.4.0" (payhandoff_version()). */
    @JvmStatic
    val version: String
        get() = String(Native.version() ?: ByteArray(0), Charsets.UTF_8)
}
