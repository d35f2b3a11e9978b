/*
 * payhandoff_jni.c — the JNI shim of the Android binding: one thin JNI function per function of
 * include/payhandoff.h (payhandoff_string_free is called by every shim that receives a string),
 * for the static `external` methods of com.payhandoff.Native.
 *
 * - Strings cross as UTF-8 byte arrays (never JNI's modified UTF-8), so emoji and other non-BMP
 *   text arrive as the bytes Kotlin encoded. Kotlin refuses U+0000 before the call (a C string
 *   would end there); the shim copies the bytes and appends the terminating NUL.
 * - A call that writes a status and a document stores the status in status[0] and returns the
 *   document's bytes (NULL only when memory ran out; then a Java exception may be pending).
 *   Coordinator handles cross as jlong.
 * - The only local reference a shim creates is the byte array it returns. Nothing here reads
 *   the JSON: parsing, validation and errors are the core's; Kotlin turns the documents into
 *   typed values.
 */
#include "payhandoff.h"

#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated malloc'd copy of a Java byte array, or NULL for a null array. *failed is set
   when the copy could not be made (out of memory, or a Java exception is pending). */
static char *copy_bytes(JNIEnv *env, jbyteArray bytes, int *failed) {
    if (bytes == NULL) return NULL;
    jsize length = (*env)->GetArrayLength(env, bytes);
    char *text = malloc((size_t)length + 1);
    if (text == NULL) {
        *failed = 1;
        return NULL;
    }
    (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte *)text);
    if ((*env)->ExceptionCheck(env)) {
        free(text);
        *failed = 1;
        return NULL;
    }
    text[length] = '\0';
    return text;
}

/* Hands a document written by the library to Java: stores the status, copies the text into a new
   byte array and frees the library's string. */
static jbyteArray finish(JNIEnv *env, int32_t status, char *out, jintArray status_out) {
    jint value = status;
    (*env)->SetIntArrayRegion(env, status_out, 0, 1, &value);
    if ((*env)->ExceptionCheck(env) || out == NULL) {
        payhandoff_string_free(out);
        return NULL;
    }
    jsize length = (jsize)strlen(out);
    jbyteArray result = (*env)->NewByteArray(env, length);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, length, (const jbyte *)out);
        if ((*env)->ExceptionCheck(env)) {
            (*env)->DeleteLocalRef(env, result);
            result = NULL;
        }
    }
    payhandoff_string_free(out);
    return result;
}

static void set_handle(JNIEnv *env, jlongArray handle_out, payhandoff_coordinator *handle) {
    jlong value = (jlong)(intptr_t)handle;
    (*env)->SetLongArrayRegion(env, handle_out, 0, 1, &value);
}

static payhandoff_coordinator *handle_of(jlong handle) {
    return (payhandoff_coordinator *)(intptr_t)handle;
}

typedef int32_t (*OneText)(const char *, char **);
typedef int32_t (*TwoTexts)(const char *, const char *, char **);

static jbyteArray call_one(JNIEnv *env, OneText fn, jbyteArray input, jintArray status_out) {
    int failed = 0;
    char *text = copy_bytes(env, input, &failed);
    if (failed) return NULL;
    char *out = NULL;
    int32_t status = fn(text, &out);
    free(text);
    return finish(env, status, out, status_out);
}

static jbyteArray call_two(JNIEnv *env, TwoTexts fn, jbyteArray first, jbyteArray second, jintArray status_out) {
    int failed = 0;
    char *a = copy_bytes(env, first, &failed);
    if (failed) return NULL;
    char *b = copy_bytes(env, second, &failed);
    if (failed) {
        free(a);
        return NULL;
    }
    char *out = NULL;
    int32_t status = fn(a, b, &out);
    free(a);
    free(b);
    return finish(env, status, out, status_out);
}

/* ---- Library ---------------------------------------------------------------------------------- */

JNIEXPORT jint JNICALL Java_com_payhandoff_Native_abiVersion(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return payhandoff_abi_version();
}

/* payhandoff_version() is a static string: copied, never freed. */
JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_version(JNIEnv *env, jclass cls) {
    (void)cls;
    const char *version = payhandoff_version();
    jsize length = (jsize)strlen(version);
    jbyteArray result = (*env)->NewByteArray(env, length);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, length, (const jbyte *)version);
        if ((*env)->ExceptionCheck(env)) {
            (*env)->DeleteLocalRef(env, result);
            result = NULL;
        }
    }
    return result;
}

/* ---- Billpocket POS ---------------------------------------------------------------------------- */

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_posBuildUrl(JNIEnv *env, jclass cls, jbyteArray request,
                                                                     jintArray status) {
    (void)cls;
    return call_one(env, payhandoff_pos_build_url, request, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_posParseResponse(JNIEnv *env, jclass cls, jbyteArray url,
                                                                          jbyteArray options, jintArray status) {
    (void)cls;
    return call_two(env, payhandoff_pos_parse_response, url, options, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_posParseResult(JNIEnv *env, jclass cls, jbyteArray extras,
                                                                        jbyteArray options, jintArray status) {
    (void)cls;
    return call_two(env, payhandoff_pos_parse_result, extras, options, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_posRefundCheck(JNIEnv *env, jclass cls, jbyteArray input,
                                                                        jintArray status) {
    (void)cls;
    return call_one(env, payhandoff_pos_refund_check, input, status);
}

/* ---- Hosted checkout --------------------------------------------------------------------------- */

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_checkoutBuildRequest(JNIEnv *env, jclass cls,
                                                                              jbyteArray request, jintArray status) {
    (void)cls;
    return call_one(env, payhandoff_checkout_build_request, request, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_checkoutParseSession(JNIEnv *env, jclass cls,
                                                                              jbyteArray session, jintArray status) {
    (void)cls;
    return call_one(env, payhandoff_checkout_parse_session, session, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_checkoutParseCallback(JNIEnv *env, jclass cls, jbyteArray url,
                                                                               jbyteArray options, jintArray status) {
    (void)cls;
    return call_two(env, payhandoff_checkout_parse_callback, url, options, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_checkoutParseConfirmation(JNIEnv *env, jclass cls,
                                                                                   jbyteArray event, jintArray status) {
    (void)cls;
    return call_one(env, payhandoff_checkout_parse_confirmation, event, status);
}

/* ---- Coordinator ------------------------------------------------------------------------------- */

/* _new and _restore: the same shape, a document in and a handle out. */
typedef int32_t (*create_fn)(const char *, payhandoff_coordinator **, char **);

static jbyteArray create(JNIEnv *env, create_fn fn, jbyteArray document, jlongArray handle_out, jintArray status) {
    int failed = 0;
    char *text = copy_bytes(env, document, &failed);
    if (failed) return NULL;
    payhandoff_coordinator *handle = NULL;
    char *out = NULL;
    int32_t result = fn(text, &handle, &out);
    free(text);
    set_handle(env, handle_out, handle);
    if ((*env)->ExceptionCheck(env)) {
        payhandoff_coordinator_free(handle);
        payhandoff_string_free(out);
        return NULL;
    }
    return finish(env, result, out, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_coordinatorNew(JNIEnv *env, jclass cls, jbyteArray config,
                                                                        jlongArray handle_out, jintArray status) {
    (void)cls;
    return create(env, payhandoff_coordinator_new, config, handle_out, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_coordinatorRestore(JNIEnv *env, jclass cls,
                                                                            jbyteArray snapshot, jlongArray handle_out,
                                                                            jintArray status) {
    (void)cls;
    return create(env, payhandoff_coordinator_restore, snapshot, handle_out, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_coordinatorSend(JNIEnv *env, jclass cls, jlong handle,
                                                                         jbyteArray event, jintArray status) {
    (void)cls;
    int failed = 0;
    char *text = copy_bytes(env, event, &failed);
    if (failed) return NULL;
    char *out = NULL;
    int32_t result = payhandoff_coordinator_send(handle_of(handle), text, &out);
    free(text);
    return finish(env, result, out, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_coordinatorHandleUrl(JNIEnv *env, jclass cls, jlong handle,
                                                                              jbyteArray url, jlong now_ms,
                                                                              jintArray status) {
    (void)cls;
    int failed = 0;
    char *text = copy_bytes(env, url, &failed);
    if (failed) return NULL;
    char *out = NULL;
    int32_t result = payhandoff_coordinator_handle_url(handle_of(handle), text, (int64_t)now_ms, &out);
    free(text);
    return finish(env, result, out, status);
}

JNIEXPORT jbyteArray JNICALL Java_com_payhandoff_Native_coordinatorSnapshot(JNIEnv *env, jclass cls, jlong handle,
                                                                             jintArray status) {
    (void)cls;
    char *out = NULL;
    int32_t result = payhandoff_coordinator_snapshot(handle_of(handle), &out);
    return finish(env, result, out, status);
}

JNIEXPORT void JNICALL Java_com_payhandoff_Native_coordinatorFree(JNIEnv *env, jclass cls, jlong handle) {
    (void)env;
    (void)cls;
    payhandoff_coordinator_free(handle_of(handle));
}
