/*
 * payhandoff_jni.h — the helpers the JNI functions of com.payhandoff.Native share. The functions
 * themselves are generated from abi/payhandoff.json (payhandoff_jni_calls.c); how a string, a
 * status and a handle cross JNI is written once, here and in payhandoff_jni.c.
 *
 * - Strings cross as UTF-8 byte arrays (never JNI's modified UTF-8), so emoji and other non-BMP
 *   text arrive as the bytes Kotlin encoded. Kotlin refuses U+0000 before the call (a C string
 *   would end there); the shim copies the bytes and appends the terminating NUL.
 * - A call that writes a status and a document stores the status in status[0] and returns the
 *   document's bytes (NULL only when memory ran out; then a Java exception may be pending).
 *   Handles cross as jlong.
 * - The only local reference a function creates is the byte array it returns. Nothing here reads
 *   the JSON: parsing, validation and errors are the core's; Kotlin turns the documents into
 *   typed values.
 *
 * Hidden: the libraries export only payhandoff_* and Java_com_payhandoff_Native_* (abi/android.map).
 */
#ifndef PAYHANDOFF_JNI_H
#define PAYHANDOFF_JNI_H

#include "payhandoff.h"

#include <jni.h>
#include <stdint.h>

#define PAYHANDOFF_JNI_HIDDEN __attribute__((visibility("hidden")))

/* A NUL-terminated malloc'd copy of a Java byte array, or NULL for a null array. *failed is set
   when the copy could not be made (out of memory, or a Java exception is pending). */
PAYHANDOFF_JNI_HIDDEN char *jni_copy_bytes(JNIEnv *env, jbyteArray bytes, int *failed);

/* Hands a document written by the library to Java: stores the status, copies the text into a new
   byte array and frees the library's string. */
PAYHANDOFF_JNI_HIDDEN jbyteArray jni_finish(JNIEnv *env, int32_t status, char *out, jintArray status_out);

/* A static string of the library (payhandoff_version()) as a new byte array; never freed. */
PAYHANDOFF_JNI_HIDDEN jbyteArray jni_static_string(JNIEnv *env, const char *text);

/* Stores a handle a create/restore call wrote into handle_out[0]. Returns 0 when a Java exception
   is pending: the caller then frees the handle and the document, and returns NULL. */
PAYHANDOFF_JNI_HIDDEN int jni_set_handle(JNIEnv *env, jlongArray handle_out, void *handle);

#endif /* PAYHANDOFF_JNI_H */
