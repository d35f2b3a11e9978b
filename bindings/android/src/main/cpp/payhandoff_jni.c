/*
 * payhandoff_jni.c — the helpers of the JNI shim (payhandoff_jni.h says how values cross). The
 * JNI functions themselves, one per function of include/payhandoff.h, are generated from
 * abi/payhandoff.json into payhandoff_jni_calls.c.
 */
#include "payhandoff_jni.h"

#include <stdlib.h>
#include <string.h>

char *jni_copy_bytes(JNIEnv *env, jbyteArray bytes, int *failed) {
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

/* A new byte array holding text (NULL, with an exception pending, when it could not be made). */
static jbyteArray bytes_of(JNIEnv *env, const char *text) {
    jsize length = (jsize)strlen(text);
    jbyteArray result = (*env)->NewByteArray(env, length);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, length, (const jbyte *)text);
        if ((*env)->ExceptionCheck(env)) {
            (*env)->DeleteLocalRef(env, result);
            result = NULL;
        }
    }
    return result;
}

jbyteArray jni_finish(JNIEnv *env, int32_t status, char *out, jintArray status_out) {
    jint value = status;
    (*env)->SetIntArrayRegion(env, status_out, 0, 1, &value);
    if ((*env)->ExceptionCheck(env) || out == NULL) {
        payhandoff_string_free(out);
        return NULL;
    }
    jbyteArray result = bytes_of(env, out);
    payhandoff_string_free(out);
    return result;
}

jbyteArray jni_static_string(JNIEnv *env, const char *text) {
    return bytes_of(env, text);
}

int jni_set_handle(JNIEnv *env, jlongArray handle_out, void *handle) {
    jlong value = (jlong)(intptr_t)handle;
    (*env)->SetLongArrayRegion(env, handle_out, 0, 1, &value);
    return !(*env)->ExceptionCheck(env);
}
