/* A stand-in libpayhandoff.so that reports another ABI version, for AbiMismatchTest: the binding
   must refuse it at load with a clear message. Every function of the header exists (so the shim
   links and loads); none but payhandoff_abi_version is ever reached. */
#include "payhandoff.h"

#include <stddef.h>

int32_t payhandoff_abi_version(void) { return PAYHANDOFF_ABI_VERSION + 1; }
const char *payhandoff_version(void) { return "0.0.0-fake"; }
void payhandoff_string_free(char *text) { (void)text; }

static int32_t refuse(char **out) {
    if (out) *out = NULL;
    return PAYHANDOFF_ERR_INVALID_ARGUMENT;
}

int32_t payhandoff_pos_build_url(const char *a, char **out) { (void)a; return refuse(out); }
int32_t payhandoff_pos_parse_response(const char *a, const char *b, char **out) { (void)a; (void)b; return refuse(out); }
int32_t payhandoff_pos_parse_result(const char *a, const char *b, char **out) { (void)a; (void)b; return refuse(out); }
int32_t payhandoff_pos_refund_check(const char *a, char **out) { (void)a; return refuse(out); }
int32_t payhandoff_checkout_build_request(const char *a, char **out) { (void)a; return refuse(out); }
int32_t payhandoff_checkout_parse_session(const char *a, char **out) { (void)a; return refuse(out); }
int32_t payhandoff_checkout_parse_callback(const char *a, const char *b, char **out) { (void)a; (void)b; return refuse(out); }
int32_t payhandoff_checkout_parse_confirmation(const char *a, char **out) { (void)a; return refuse(out); }
int32_t payhandoff_coordinator_new(const char *a, payhandoff_coordinator **h, char **out) {
    (void)a;
    if (h) *h = NULL;
    return refuse(out);
}
int32_t payhandoff_coordinator_restore(const char *a, payhandoff_coordinator **h, char **out) {
    (void)a;
    if (h) *h = NULL;
    return refuse(out);
}
int32_t payhandoff_coordinator_send(payhandoff_coordinator *c, const char *a, char **out) { (void)c; (void)a; return refuse(out); }
int32_t payhandoff_coordinator_handle_url(payhandoff_coordinator *c, const char *a, int64_t now, char **out) {
    (void)c; (void)a; (void)now;
    return refuse(out);
}
int32_t payhandoff_coordinator_snapshot(payhandoff_coordinator *c, char **out) { (void)c; return refuse(out); }
void payhandoff_coordinator_free(payhandoff_coordinator *c) { (void)c; }
