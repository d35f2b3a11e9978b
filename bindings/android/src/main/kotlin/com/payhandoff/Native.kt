package com.payhandoff

/**
 * The JNI shim (src/main/cpp/payhandoff_jni.c): one function per C ABI function. Strings cross
 * as UTF-8 byte arrays; a call that writes a document stores its status in `status[0]` and
 * returns the document's bytes. Coordinator handles are `Long`s. Use [PayHandoff], not this.
 */
internal object Native {
    init {
        PayHandoff.loadLibraries()
    }

    @JvmStatic external fun abiVersion(): Int
    @JvmStatic external fun version(): ByteArray?

    @JvmStatic external fun posBuildUrl(request: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun posParseResponse(url: ByteArray?, options: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun posParseResult(extras: ByteArray?, options: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun posRefundCheck(input: ByteArray?, status: IntArray): ByteArray?

    @JvmStatic external fun checkoutBuildRequest(request: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun checkoutParseSession(session: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun checkoutParseCallback(url: ByteArray?, options: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun checkoutParseConfirmation(event: ByteArray?, status: IntArray): ByteArray?

    @JvmStatic external fun coordinatorNew(config: ByteArray?, handle: LongArray, status: IntArray): ByteArray?
    @JvmStatic external fun coordinatorRestore(snapshot: ByteArray?, handle: LongArray, status: IntArray): ByteArray?
    @JvmStatic external fun coordinatorSend(handle: Long, event: ByteArray?, status: IntArray): ByteArray?
    @JvmStatic external fun coordinatorHandleUrl(handle: Long, url: ByteArray?, nowMs: Long, status: IntArray): ByteArray?
    @JvmStatic external fun coordinatorSnapshot(handle: Long, status: IntArray): ByteArray?
    @JvmStatic external fun coordinatorFree(handle: Long)
}
