/*
 * payhandoff.h — the stable C ABI of PayHandoff.
 *
 * PayHandoff builds the URLs and requests that hand a payment to a card-terminal app (Billpocket,
 * Square, SumUp, Clip) or to a hosted checkout in the system browser tab, and checks the deep links that come back. This
 * header is the whole contract of libpayhandoff; every JSON document it mentions is described,
 * with an example, in docs/abi.md.
 *
 * CALLING CONVENTION
 *   Every fallible function returns an int32_t status (PAYHANDOFF_OK or one of the pinned
 *   PAYHANDOFF_ERR_* codes below) and writes a NUL-terminated UTF-8 JSON string to *out:
 *     - on PAYHANDOFF_OK, the result document;
 *     - otherwise {"code": "validation", "field": "amount", "message": "..."}, where "code" is
 *       the lowercase name of the status ("field" is null when the error names no field).
 *   The caller owns *out and releases it with payhandoff_string_free(). *out is NULL only when
 *   memory ran out. If out itself is NULL, the function returns PAYHANDOFF_ERR_INVALID_ARGUMENT
 *   and writes nothing.
 *
 * INPUTS
 *   All strings are NUL-terminated UTF-8, owned by the caller and only read during the call.
 *   - A NULL input pointer: PAYHANDOFF_ERR_INVALID_ARGUMENT, "field" names the parameter.
 *   - JSON text over PAYHANDOFF_MAX_JSON_BYTES, URLs over PAYHANDOFF_MAX_URL_BYTES (not counting
 *     the NUL): PAYHANDOFF_ERR_LIMIT_EXCEEDED. Longer inputs are never read past the limit.
 *   - Invalid UTF-8: PAYHANDOFF_ERR_INVALID_JSON for JSON text, PAYHANDOFF_ERR_MALFORMED_URL
 *     for URLs.
 *   - JSON text must be exactly one value (whitespace around it is allowed). Objects with a
 *     duplicate key, numbers that are not integers within +-(2^53 - 1) (money is decimal text
 *     such as "100.00" or integer minor units, never a fraction) and more than
 *     PAYHANDOFF_MAX_JSON_DEPTH nested arrays/objects are PAYHANDOFF_ERR_INVALID_JSON.
 *     A \u0000 escape reaches PayHandoff as U+0000 (it is not cut off), and U+0000 in output
 *     strings is written as \u0000.
 *   No input makes a function crash, abort or leak.
 *
 * THREAD SAFETY
 *   The stateless functions (everything but payhandoff_coordinator_*) may be called from any
 *   number of threads at once. A coordinator handle must not be used by two threads at the same
 *   time: callers serialize the calls on one handle (for example with one mutex per handle).
 *   Distinct handles are independent and may be used concurrently. (libcjson 1.7 resets and sets
 *   a static "last parse error" variable on every parse; PayHandoff never reads it, so concurrent
 *   calls write it without effect on any result. Race detectors such as helgrind or TSan report
 *   those writes inside libcjson.)
 *
 * MEMORY
 *   Strings returned through char **out are allocated with malloc() and released with
 *   payhandoff_string_free() (which calls free(); NULL is a no-op). payhandoff_version() returns
 *   a static string that must not be freed.
 */
#ifndef PAYHANDOFF_H
#define PAYHANDOFF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && !defined(PAYHANDOFF_STATIC)
#  define PAYHANDOFF_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#  define PAYHANDOFF_API __attribute__((visibility("default")))
#else
#  define PAYHANDOFF_API
#endif

/* The ABI version of this header. It changes only when a function's signature or meaning
   changes incompatibly; bindings compare it with payhandoff_abi_version() at load time. */
#define PAYHANDOFF_ABI_VERSION 3

/* Input limits (bytes, without the terminating NUL) and the most arrays/objects that may be
   nested in one another in JSON input (the root counts). A coordinator snapshot is the one
   JSON input that may be longer: payhandoff_coordinator_snapshot() never writes, and
   payhandoff_coordinator_restore() reads, up to PAYHANDOFF_MAX_SNAPSHOT_BYTES (a day of
   thousands of sales with their refunds); every other JSON input stays within
   PAYHANDOFF_MAX_JSON_BYTES. */
#define PAYHANDOFF_MAX_JSON_BYTES 65536
#define PAYHANDOFF_MAX_URL_BYTES 8192
#define PAYHANDOFF_MAX_SNAPSHOT_BYTES 262144
#define PAYHANDOFF_MAX_JSON_DEPTH 64

/* Status codes. Pinned: a number is never renumbered or reused. The error document's "code"
   is the name after PAYHANDOFF_ERR_, in lowercase. */
#define PAYHANDOFF_OK 0
#define PAYHANDOFF_ERR_INVALID_ARGUMENT 1    /* NULL pointer, unusable argument */
#define PAYHANDOFF_ERR_INVALID_JSON 2        /* bad JSON text, or a value of the wrong JSON type */
#define PAYHANDOFF_ERR_VALIDATION 3          /* a value breaks a domain rule */
#define PAYHANDOFF_ERR_MALFORMED_URL 4       /* a URL cannot be parsed */
#define PAYHANDOFF_ERR_CALLBACK_MISMATCH 5   /* a well-formed URL for another hand-off */
#define PAYHANDOFF_ERR_UNKNOWN_FLOW 6        /* no flow has that id */
#define PAYHANDOFF_ERR_DUPLICATE 7           /* already processed */
#define PAYHANDOFF_ERR_INVALID_STATE 8       /* not allowed in the flow's current state */
#define PAYHANDOFF_ERR_UNSUPPORTED_VERSION 9 /* a document format newer than this library */
#define PAYHANDOFF_ERR_LIMIT_EXCEEDED 10     /* an input over the documented limit */
#define PAYHANDOFF_ERR_GATEWAY_ERROR 11      /* the payment gateway answered with an error */
#define PAYHANDOFF_ERR_CONFLICT 12           /* two answers about the same object disagree, or a new
                                                hand-off would share another's correlation key */
#define PAYHANDOFF_ERR_NOT_ELIGIBLE 13       /* a refund is not possible now */

/* ---- Library ------------------------------------------------------------------------------ */

/* Returns the library's ABI version (PAYHANDOFF_ABI_VERSION of the header it was built with). */
PAYHANDOFF_API int32_t payhandoff_abi_version(void);

/* Returns the library version, e.g. "0.4.0": a static string, valid for the life of the
   process; do not free it. */
PAYHANDOFF_API const char *payhandoff_version(void);

/* Frees a string written to a char **out by any payhandoff_* function. NULL is a no-op.
   Freeing anything else, or the same string twice, is undefined behaviour (as with free). */
PAYHANDOFF_API void payhandoff_string_free(char *text);

/* ---- POS terminal apps (stateless) ---------------------------------------------------------- */

/* Every document here may name its terminal app: "pos_app": "billpocket" (the default when
   absent) | "square" | "sumup" | "clip"; each app's members and rules are in docs/abi.md
   ("Square, SumUp and Clip") and docs/rules.md. Only Billpocket refunds app-to-app. */

/* Builds the hand-off of a sale ("venta") or a Billpocket refund ("devolucion"): the URL (for
   Billpocket, billpocket://...) and the Android intent.
   request_json: the request, keyed like Billpocket's table, plus an optional "token": a string
   of 16-128 unreserved characters without '~', or true for a fresh one from the system's random
   source; the identifier sent is then "<identifier>~<token>" (it splits at its last '~'), so
   that a forged answer cannot echo it.
   *out on success: {"version": 1, "pos_app": "billpocket", "url": "billpocket://...", "fields": [...],
   "intent": {"action": "com.billpocket.payments.START", "extras": [...]}} and, with a token,
   "identifier" (as sent) and "token" (holds the user token: the host needs it to open the POS
   app; do not log it). Other apps: no "fields"; "url" where the app has one (not Clip); the
   intent may have "data" and "component", and extras typed {"key", "type", "value"}.
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_pos_build_url(const char *request_json, char **out);

/* Parses the POS app's answer URL (myapp://result=aprobada&...; SumUp's and Square's callback URL
   with "pos_app" and "callback_url" in the options instead of "urlScheme").
   options_json: {"urlScheme": "myapp", "identifier": "ord-1", "token": "..."} ("identifier"
   optional: when given, an answer for another request is CALLBACK_MISMATCH, reported before any
   other problem with the answer's fields; "token" needs "identifier": the answer must then echo
   "<identifier>~<token>").
   *out on success: {"version": 1, "result": "approved" | "declined" | "error" | "cancelled" |
   "unrecognized", ...} ("cancelled" never from Billpocket; other apps' answers add "pos_app").
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, MALFORMED_URL, CALLBACK_MISMATCH,
   LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_pos_parse_response(const char *url, const char *options_json, char **out);

/* Parses the POS app's Android result extras (onActivityResult), already decoded text.
   extras_json: a JSON object of strings, e.g. {"result": "aprobada", "identifier": "...", ...}:
   read by the same rules as an answer URL (keys case-insensitive and not repeated in any case,
   an echoed user token dropped, unknown keys in "extra"), without percent-decoding.
   options_json: {"identifier": "ord-1", "token": "..."} (both optional, as parse_response), and
   for Clip and Square "pos_app"; an optional "result_code" (Android's resultCode) is checked only.
   *out on success: the same document as payhandoff_pos_parse_response.
   Errors: INVALID_ARGUMENT, INVALID_JSON (a value that is not a string), VALIDATION,
   MALFORMED_URL, CALLBACK_MISMATCH, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_pos_parse_result(const char *extras_json, const char *options_json, char **out);

/* Checks whether an approved sale can be refunded now.
   input_json: {"sale": {"transactionid", "amount", "approved_at", "bp_version", "pos_app"}, "amount",
   "now"}; a sale of another app than Billpocket is not eligible (<app>_server_refund).
   *out on success: {"version": 1, "eligible": true | false, "reasons": [...], "warnings": [...],
   ...}; a sale that cannot be refunded is a successful verdict with "eligible": false, not an
   error; "warnings" names what could not be checked (pos_app_version_unknown), not blocking.
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_pos_refund_check(const char *input_json, char **out);

/* ---- Hosted checkout (stateless) ------------------------------------------------------------ */

/* Builds the gateway request (POST /v1/cards or /v1/payments) and the return URL with a nonce.
   request_json: {"kind": "cards" | "payments", "api_key", "return_url", ...}; an optional
   "nonce" (16-128 unreserved characters) is used instead of a fresh one from the system's
   random source. The return URL sent carries the nonce as one more path segment
   (fixapp://checkout-callback/ph_<nonce>), which survives every way a gateway adds its query.
   *out on success: {"version": 1, "kind", "request": {"method", "url", "headers", "body"},
   "return_url", "nonce", "warnings"} (holds the API key; do not log it).
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_checkout_build_request(const char *request_json, char **out);

/* Reads a checkout session: the gateway's answer {"kind", "status", "body"} or the backend's
   {"kind", "checkout_url", "session_id", "card_id" | "payment_id"}.
   *out on success: {"version": 1, "kind", "checkout_url", ...}.
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, GATEWAY_ERROR, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_checkout_parse_session(const char *session_json, char **out);

/* Checks a checkout deep link (fixapp://checkout-callback/ph_<nonce>?status=completed&card_id=...).
   options_json: {"kind", "return_url", "nonce", "expected_id", "accept_unverified"}: "return_url"
   is the registered one (without the nonce); "nonce" is required unless "accept_unverified" is
   true, and then a callback without the nonce is returned with "verified": false (anyone can
   send one: never let it end anything); otherwise such a callback is CALLBACK_MISMATCH.
   *out on success: {"version": 1, "kind", "status", "verified", "card_id" | "payment_id", ...}.
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, MALFORMED_URL, CALLBACK_MISMATCH,
   LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_checkout_parse_callback(const char *url, const char *options_json, char **out);

/* Reads a relayed webhook event {"type": "card.registered" | "payment.confirmed", "data": {...}}.
   *out on success: {"version": 1, "type", "card_id" | "payment_id", "brand", "last_four", ...}.
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_checkout_parse_confirmation(const char *event_json, char **out);

/* ---- Coordinator (stateful) ----------------------------------------------------------------- */

/* An opaque coordinator: every pending hand-off of the app, one deep-link entry point, one
   snapshot. Handle scheme: an owned object. Create it with payhandoff_coordinator_new() or
   payhandoff_coordinator_restore() and release it exactly once with payhandoff_coordinator_free().
   Using a handle after freeing it is undefined behaviour, as with free(3). One handle must not
   be used by two threads at the same time (see THREAD SAFETY). */
typedef struct payhandoff_coordinator payhandoff_coordinator;

/* Creates an empty coordinator.
   config_json: {"single_pending_per_kind": false, "checkout_timeout_ms": 1800000,
   "pos_grace_ms": 3000, "accept_unverified_callbacks": false} (every member optional), or NULL
   for the defaults. accept_unverified_callbacks lets checkout callbacks without the nonce reach
   their flow as claims that never end it (for gateways that drop the nonce; see docs/security.md).
   *handle: receives the new coordinator on success, NULL on failure.
   *out on success: the coordinator's snapshot (see payhandoff_coordinator_snapshot).
   Errors: INVALID_ARGUMENT (handle NULL), INVALID_JSON, VALIDATION, LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_coordinator_new(const char *config_json, payhandoff_coordinator **handle,
                                                  char **out);

/* Restores a coordinator from a snapshot (after process death). Every snapshot
   payhandoff_coordinator_snapshot() wrote restores to an equal coordinator. All or nothing: a
   snapshot whose flows or ledger could not have been written by a coordinator is refused, naming
   the member. snapshot_json may have up to PAYHANDOFF_MAX_SNAPSHOT_BYTES; format 4, and PayHandoff
   0.3's format 3 and 0.2's format 2 (converted, never refused for what those versions allowed:
   docs/abi.md) are read.
   *handle: receives the restored coordinator on success, NULL on failure.
   *out on success: the restored coordinator's snapshot.
   Errors: INVALID_ARGUMENT, INVALID_JSON, VALIDATION, CONFLICT, UNSUPPORTED_VERSION (a format
   this library does not read), LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_coordinator_restore(const char *snapshot_json, payhandoff_coordinator **handle,
                                                      char **out);

/* Restores what is intact of a snapshot damaged outside the library (a hand edit, a file mixed
   from two versions): every flow and ledger entry that reads by the rules of
   payhandoff_coordinator_restore() is kept, every other one dropped and reported. It never
   widens what may be refunded: a dropped ledger record's sale is kept as "balance unknown" and
   its refunds are refused (not_eligible, ledger_pruned) until its window would have closed.
   Use it only when payhandoff_coordinator_restore() refused, and show or log what was dropped.
   *handle: receives the coordinator on success, NULL on failure.
   *out on success: {"version": 1, "snapshot": {...}, "dropped": [{"member": "flows[2]", "code",
   "field", "message"}]} ("dropped" is empty for an intact snapshot).
   Errors (nothing could be read): INVALID_ARGUMENT, INVALID_JSON (not JSON text: write snapshots
   to a temporary file and rename it into place, so that they cannot tear), UNSUPPORTED_VERSION,
   LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_coordinator_restore_salvage(const char *snapshot_json,
                                                              payhandoff_coordinator **handle, char **out);

/* Sends an event ({"type": "checkout.start" | "pos.start" | "pos.result" | "tick" | ..., "now":
   <epoch ms>, ...}; the table is in docs/abi.md).
   Returns PAYHANDOFF_OK with the answer {"version": 1, "outcome", "persist", "transitions",
   "forgotten", "error"} whenever the event was read, also when its outcome is "rejected" (the
   rule broken is in "error"; nothing changed) or "not_ours". A non-zero status means the event
   could not be read (NULL, invalid UTF-8, bad or oversized JSON, an event document that is not
   a valid event) and the coordinator did not change.
   Room in the snapshot is taken only by a start (checkout.start, pos.start): every flow reserves
   what it may still receive, so no later event is ever refused for space. A start that needs
   room first forgets ended flows, oldest first (listed in "forgotten"); only when the flows
   still waiting fill the snapshot is it refused with "limit_exceeded".
   Secrets: a transition's "details" carry no nonce or token (answers may be logged); the effects
   create_session (its return_url), send_request (the API key) and open_pos_app (the user token)
   carry secrets: perform them, do not log them.
   Errors: INVALID_ARGUMENT (coordinator or event NULL), INVALID_JSON, VALIDATION, LIMIT_EXCEEDED
   (and the codes of the documents an event embeds). */
PAYHANDOFF_API int32_t payhandoff_coordinator_send(payhandoff_coordinator *coordinator, const char *event_json,
                                                   char **out);

/* Routes a deep link the OS handed the app; now_ms is when it arrived (epoch milliseconds,
   1970 to 9999-12-31T23:59:59.999Z, the range of an event's "now"). Returns PAYHANDOFF_OK with the answer, as payhandoff_coordinator_send, whenever
   the URL was read ("not_ours" when no flow of this coordinator is addressed).
   Errors: INVALID_ARGUMENT, MALFORMED_URL (invalid UTF-8), VALIDATION (now_ms out of range),
   LIMIT_EXCEEDED. */
PAYHANDOFF_API int32_t payhandoff_coordinator_handle_url(payhandoff_coordinator *coordinator, const char *url,
                                                         int64_t now_ms, char **out);

/* Writes the coordinator's versioned snapshot {"version": 4, "config", "flows", "ledger"} to
   *out, to be saved (to a file, written atomically) and later passed to
   payhandoff_coordinator_restore(), which restores it to an equal coordinator. It holds no API
   key and no POS user token; it does hold the flows' nonces and tokens (secret-bearing: store it
   privately). It is never larger than PAYHANDOFF_MAX_SNAPSHOT_BYTES.
   Errors: INVALID_ARGUMENT. */
PAYHANDOFF_API int32_t payhandoff_coordinator_snapshot(payhandoff_coordinator *coordinator, char **out);

/* Releases a coordinator. NULL is a no-op. The handle must not be used afterwards. */
PAYHANDOFF_API void payhandoff_coordinator_free(payhandoff_coordinator *coordinator);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PAYHANDOFF_H */
