/*
 * C harness for include/payhandoff.h: calls every function of the header as a plain C program
 * would, runs the shared JSON vectors (Tests/Vectors/README.md) through the C ABI, and makes
 * hostile calls (NULL, invalid UTF-8, truncated, deeply nested, wrong types, 1 MB inputs,
 * threads). Results are checked with cJSON. The last line is "N passed, N failed"; the exit
 * status is non-zero when anything failed.
 *
 * Usage: harness [VECTORS_DIR]   (default Tests/Vectors). XCTest runs the same code in-process
 * through payhandoff_harness_run() (Tests/CHarnessTests).
 */
/* POSIX for opendir/strdup; the harness is otherwise plain C11. */
#define _POSIX_C_SOURCE 200809L

#include "payhandoff.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

static int passed;
static int failed;
/* Vectors this runner cannot express (their reasons are printed as "skip:" lines): never passed. */
static int skipped;

static void check(int ok, const char *fmt, ...) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    va_list args;
    va_start(args, fmt);
    fputs("FAIL: ", stdout);
    vprintf(fmt, args);
    fputc('\n', stdout);
    va_end(args);
}

/* ---- Calls ------------------------------------------------------------------------------- */

/* A call's outcome: its status and its parsed output document (NULL if out was NULL or not JSON). */
typedef struct {
    int32_t status;
    cJSON *doc;
} Result;

static const char *const code_names[] = {
    "ok", "invalid_argument", "invalid_json", "validation", "malformed_url", "callback_mismatch",
    "unknown_flow", "duplicate", "invalid_state", "unsupported_version", "limit_exceeded",
    "gateway_error", "conflict", "not_eligible",
};

/* Takes ownership of *out_ptr (read here, after the call that wrote it, never as an argument
   evaluated alongside that call); checks the contract every call shares: the output is JSON,
   and an error document has a code matching the status, a field (string or null) and a message. */
static Result finish(const char *what, int32_t status, char **out_ptr) {
    Result r = {status, NULL};
    char *out = *out_ptr;
    *out_ptr = NULL;
    if (out == NULL) {
        check(0, "%s: status %d but *out is NULL", what, (int)status);
        return r;
    }
    r.doc = cJSON_Parse(out);
    payhandoff_string_free(out);
    if (r.doc == NULL) {
        check(0, "%s: *out is not JSON", what);
        return r;
    }
    if (status != 0) {
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(r.doc, "code");
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(r.doc, "field");
        const cJSON *message = cJSON_GetObjectItemCaseSensitive(r.doc, "message");
        int ok = status > 0 && status < (int32_t)(sizeof code_names / sizeof code_names[0]) &&
                 cJSON_IsString(code) && strcmp(code->valuestring, code_names[status]) == 0 &&
                 (cJSON_IsString(field) || cJSON_IsNull(field)) && cJSON_IsString(message);
        if (!ok) check(0, "%s: status %d with a malformed error document", what, (int)status);
    }
    return r;
}

static const char *error_code(const Result *r) {
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(r->doc, "code");
    return cJSON_IsString(code) ? code->valuestring : "";
}

static const char *error_field(const Result *r) {
    const cJSON *field = cJSON_GetObjectItemCaseSensitive(r->doc, "field");
    return cJSON_IsString(field) ? field->valuestring : "(null)";
}

/* Integral numbers become raw decimal text: cJSON would print 9007199254740991 as
   9.00719925474099e+15 (15 significant digits), changing the input the vector gives. */
static void exact_integers(cJSON *item) {
    for (; item; item = item->next) {
        if (cJSON_IsNumber(item) && item->valuedouble == (double)(long long)item->valuedouble &&
            item->valuedouble > -1e18 && item->valuedouble < 1e18) {
            char text[32];
            snprintf(text, sizeof text, "%.0f", item->valuedouble);
            item->valuestring = strdup(text);
            if (item->valuestring) item->type = cJSON_Raw;
        }
        exact_integers(item->child);
    }
}

/* cJSON cuts a string at a decoded \u0000, so vector files are read with every \u0000 escape
   turned into \uFFFF (same length; files that already contain U+FFFF are left alone), and the
   UTF-8 of U+FFFF is turned back into \u0000 when a document is printed for the library. */
#define NUL_STANDIN "\xEF\xBF\xBF"

static void protect_nul(char *text) {
    if (strstr(text, NUL_STANDIN) || strstr(text, "\\uffff") || strstr(text, "\\uFFFF")) return;
    for (char *p = text; *p; p++) {
        if (*p != '\\') continue;
        if (strncmp(p, "\\u0000", 6) == 0) memcpy(p, "\\uFFFF", 6);
        if (p[1]) p++; /* skip the escaped character: in \\u0000 the backslash is escaped */
    }
}

/* The value of the 4 hex digits at p, or -1 (stops at the first non-hex character, so never
   reads past the terminating NUL). */
static long hex4(const char *p) {
    long value = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (digit < 0) return -1;
        value = value * 16 + digit;
    }
    return value;
}

/* cJSON refuses a whole document holding a lone-surrogate escape (\ud800 without its pair), so
   the host-string vectors (Tests/Vectors/hostile/host_strings_*.json, which C skips: a C string
   cannot hold one) are read with each such escape turned into \ufffd (same length); pairs stay. */
static void protect_lone_surrogates(char *text) {
    for (char *p = text; *p; p++) {
        if (*p != '\\') continue;
        long unit = p[1] == 'u' ? hex4(p + 2) : -1;
        if (unit < 0) {
            if (p[1]) p++; /* skip the escaped character */
            continue;
        }
        if (unit >= 0xD800 && unit <= 0xDBFF && p[6] == '\\' && p[7] == 'u') {
            long next = hex4(p + 8);
            if (next >= 0xDC00 && next <= 0xDFFF) {
                p += 11; /* a pair: both escapes stay */
                continue;
            }
        }
        if (unit >= 0xD800 && unit <= 0xDFFF) memcpy(p + 2, "fffd", 4);
        p += 5;
    }
}

static char *restore_nul(char *printed) {
    if (!printed || !strstr(printed, NUL_STANDIN)) return printed;
    char *result = malloc(2 * strlen(printed) + 1);
    if (!result) return printed;
    char *w = result;
    for (const char *r = printed; *r;) {
        if (strncmp(r, NUL_STANDIN, 3) == 0) {
            memcpy(w, "\\u0000", 6);
            w += 6;
            r += 3;
        } else {
            *w++ = *r++;
        }
    }
    *w = '\0';
    cJSON_free(printed);
    return result;
}

/* The JSON text of input[key] with integers and NULs exact, or NULL when absent; free with free(). */
static char *member_text(const cJSON *input, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(input, key);
    if (!item) return NULL;
    cJSON *copy = cJSON_Duplicate(item, 1);
    if (!copy) return NULL;
    exact_integers(copy->child);
    char *text = cJSON_IsNumber(copy) ? cJSON_PrintUnformatted(item) : cJSON_PrintUnformatted(copy);
    cJSON_Delete(copy);
    return restore_nul(text);
}

static const char *member_string(const cJSON *input, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(input, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

typedef int32_t (*OneArg)(const char *, char **);
/* Two text parameters: a URL (or the result extras' JSON) and an options document. */
typedef int32_t (*TwoArg)(const char *, const char *, char **);

static Result call_one(OneArg fn, const cJSON *input, const char *key) {
    char *text = member_text(input, key);
    char *out = NULL;
    int32_t status = fn(text ? text : "null", &out);
    free(text);
    return finish(key, status, &out);
}

static Result call_url(TwoArg fn, const cJSON *input) {
    char *options = member_text(input, "options");
    char *out = NULL;
    int32_t status = fn(member_string(input, "url"), options ? options : "null", &out);
    free(options);
    return finish("url", status, &out);
}

/* input[key] as JSON text (whatever its type, "null" when absent) and input.options. */
static Result call_two_json(TwoArg fn, const cJSON *input, const char *key) {
    char *first = member_text(input, key);
    char *options = member_text(input, "options");
    char *out = NULL;
    int32_t status = fn(first ? first : "null", options ? options : "null", &out);
    free(first);
    free(options);
    return finish(key, status, &out);
}

/* ---- coordinator.script ------------------------------------------------------------------- */

/* {"outcome", "flows": {id: state}, "effects": ["id:type", ...], "error": {"code", "field"}},
   summarised exactly as Tests/PayHandoffTests/FlowVectorTests.swift does. */
static cJSON *summary(const char *outcome, payhandoff_coordinator *h, const cJSON *answer, const cJSON *error) {
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "outcome", outcome);
    cJSON *flows = cJSON_AddObjectToObject(s, "flows");
    char *out = NULL;
    Result snap = finish("snapshot", payhandoff_coordinator_snapshot(h, &out), &out);
    const cJSON *flow;
    cJSON_ArrayForEach(flow, cJSON_GetObjectItemCaseSensitive(snap.doc, "flows")) {
        const char *id = member_string(flow, "id");
        const char *state = member_string(flow, "state");
        if (id && state) cJSON_AddStringToObject(flows, id, state);
    }
    cJSON_Delete(snap.doc);
    cJSON *effects = cJSON_AddArrayToObject(s, "effects");
    const cJSON *transition;
    cJSON_ArrayForEach(transition, cJSON_GetObjectItemCaseSensitive(answer, "transitions")) {
        const char *id = member_string(transition, "flow_id");
        const cJSON *effect;
        cJSON_ArrayForEach(effect, cJSON_GetObjectItemCaseSensitive(transition, "effects")) {
            const char *type = member_string(effect, "type");
            char buffer[512];
            snprintf(buffer, sizeof buffer, "%s:%s", id ? id : "?", type ? type : "?");
            cJSON_AddItemToArray(effects, cJSON_CreateString(buffer));
        }
    }
    if (error) {
        cJSON *e = cJSON_AddObjectToObject(s, "error");
        cJSON_AddItemToObject(e, "code", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(error, "code"), 1));
        cJSON_AddItemToObject(e, "field", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(error, "field"), 1));
    }
    return s;
}

static Result run_script(const cJSON *input) {
    payhandoff_coordinator *h = NULL;
    char *out = NULL;
    cJSON *dropped = NULL;
    Result created;
    if (cJSON_GetObjectItemCaseSensitive(input, "snapshot")) {
        /* Restored (or salvaged) from the snapshot given, instead of created from config. */
        char *snapshot = member_text(input, "snapshot");
        int salvage = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(input, "salvage"));
        created = salvage ? finish("restore_salvage", payhandoff_coordinator_restore_salvage(snapshot, &h, &out), &out)
                          : finish("restore", payhandoff_coordinator_restore(snapshot, &h, &out), &out);
        free(snapshot);
        if (created.status == 0 && salvage) {
            dropped = cJSON_CreateArray();
            const cJSON *item;
            cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(created.doc, "dropped")) {
                cJSON_AddItemToArray(dropped, cJSON_CreateString(member_string(item, "member")));
            }
        }
    } else {
        char *config = member_text(input, "config");
        created = finish("coordinator_new", payhandoff_coordinator_new(config, &h, &out), &out);
        free(config);
    }
    if (created.status != 0) return created;
    cJSON_Delete(created.doc);

    Result result = {0, cJSON_CreateObject()};
    cJSON *steps = cJSON_AddArrayToObject(result.doc, "steps");
    if (dropped) cJSON_AddItemToObject(result.doc, "dropped", dropped);
    const cJSON *step;
    cJSON_ArrayForEach(step, cJSON_GetObjectItemCaseSensitive(input, "steps")) {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(step, "restore"))) {
            /* Process death: only the snapshot survives. */
            char *snapshot = NULL;
            int32_t saved = payhandoff_coordinator_snapshot(h, &snapshot);
            if (saved != 0) {
                payhandoff_coordinator_free(h);
                cJSON_Delete(result.doc);
                return finish("snapshot", saved, &snapshot);
            }
            payhandoff_coordinator_free(h);
            h = NULL;
            out = NULL;
            Result restored = finish("restore", payhandoff_coordinator_restore(snapshot, &h, &out), &out);
            payhandoff_string_free(snapshot);
            if (restored.status != 0) {
                cJSON_Delete(result.doc);
                return restored;
            }
            cJSON_Delete(restored.doc);
            cJSON_AddItemToArray(steps, summary("restored", h, NULL, NULL));
            continue;
        }
        Result answer;
        out = NULL;
        const char *url = member_string(step, "url");
        if (url) {
            const cJSON *now = cJSON_GetObjectItemCaseSensitive(step, "now");
            int64_t now_ms = cJSON_IsNumber(now) ? (int64_t)now->valuedouble : -1;
            answer = finish("handle_url", payhandoff_coordinator_handle_url(h, url, now_ms, &out), &out);
        } else {
            char *event = member_text(step, "event");
            answer = finish("send", payhandoff_coordinator_send(h, event ? event : "null", &out), &out);
            free(event);
        }
        if (answer.status != 0) {
            /* The event document itself was refused: nothing was sent. */
            cJSON_AddItemToArray(steps, summary("invalid_event", h, NULL, answer.doc));
        } else {
            const char *outcome = member_string(answer.doc, "outcome");
            cJSON_AddItemToArray(steps, summary(outcome ? outcome : "?", h, answer.doc,
                                                cJSON_GetObjectItemCaseSensitive(answer.doc, "error")));
        }
        cJSON_Delete(answer.doc);
    }
    payhandoff_coordinator_free(h);
    return result;
}

/* ---- Vectors ------------------------------------------------------------------------------ */

/* 1: ran; 0: unknown suite; 2: not expressible in C (a URL parameter holding U+0000). */
static Result run_suite(const char *suite, const cJSON *input, int *known) {
    *known = 1;
    const char *url = member_string(input, "url");
    if (url && strstr(url, NUL_STANDIN)) {
        *known = 2;
        Result none = {0, NULL};
        return none;
    }
    if (strcmp(suite, "pos.build_url") == 0) return call_one(payhandoff_pos_build_url, input, "request");
    if (strcmp(suite, "pos.parse_response") == 0) return call_url(payhandoff_pos_parse_response, input);
    if (strcmp(suite, "pos.parse_result") == 0) return call_two_json(payhandoff_pos_parse_result, input, "extras");
    if (strcmp(suite, "pos.refund_check") == 0) return call_one(payhandoff_pos_refund_check, input, "check");
    if (strcmp(suite, "checkout.build_request") == 0) return call_one(payhandoff_checkout_build_request, input, "request");
    if (strcmp(suite, "checkout.parse_session") == 0) return call_one(payhandoff_checkout_parse_session, input, "session");
    if (strcmp(suite, "checkout.parse_callback") == 0) return call_url(payhandoff_checkout_parse_callback, input);
    if (strcmp(suite, "checkout.confirmation") == 0) return call_one(payhandoff_checkout_parse_confirmation, input, "event");
    if (strcmp(suite, "coordinator.script") == 0) return run_script(input);
    *known = 0;
    Result none = {0, NULL};
    return none;
}

/* Square's iOS request carries its JSON in `data=`, in no fixed key order: a string starting with
   SQUARE_DATA is compared by its decoded JSON (Tests/Vectors/README.md, "Comparing results"). Both
   documents get such strings rewritten to SQUARE_DATA + that JSON printed with object members
   sorted by key, before cJSON_Compare. A string whose rest does not decode stays as it is. */
static const char SQUARE_DATA[] = "square-commerce-v1://payment/create?data=";

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void sort_members(cJSON *node) {
    for (cJSON *c = node->child; c; c = c->next) sort_members(c);
    if (!cJSON_IsObject(node) || !node->child) return;
    cJSON *sorted = NULL;
    for (cJSON *c = node->child, *next; c; c = next) {
        next = c->next;
        c->prev = c->next = NULL;
        if (!sorted || strcmp(c->string, sorted->string) < 0) {
            c->next = sorted;
            sorted = c;
        } else {
            cJSON *p = sorted;
            while (p->next && strcmp(p->next->string, c->string) <= 0) p = p->next;
            c->next = p->next;
            p->next = c;
        }
    }
    cJSON *last = NULL;
    for (cJSON *p = sorted; p; p = p->next) {
        p->prev = last;
        last = p;
    }
    sorted->prev = last; /* cJSON's lists: the first element's prev is the last one */
    node->child = sorted;
}

static void canonical_square_data(cJSON *node) {
    for (cJSON *c = node->child; c; c = c->next) canonical_square_data(c);
    size_t prefix = sizeof SQUARE_DATA - 1;
    if (!cJSON_IsString(node) || strncmp(node->valuestring, SQUARE_DATA, prefix) != 0) return;
    const char *rest = node->valuestring + prefix;
    char *text = malloc(strlen(rest) + 1);
    size_t j = 0;
    for (size_t i = 0; rest[i]; i++) {
        int high = rest[i] == '%' ? hex_digit(rest[i + 1]) : -1;
        int low = high >= 0 ? hex_digit(rest[i + 2]) : -1;
        if (low >= 0) {
            text[j++] = (char)(high * 16 + low);
            i += 2;
        } else {
            text[j++] = rest[i];
        }
    }
    text[j] = '\0';
    cJSON *data = cJSON_Parse(text);
    free(text);
    if (!data) return;
    sort_members(data);
    char *printed = cJSON_PrintUnformatted(data);
    cJSON_Delete(data);
    size_t size = prefix + strlen(printed) + 1;
    char *whole = malloc(size);
    snprintf(whole, size, "%s%s", SQUARE_DATA, printed);
    cJSON_free(printed);
    cJSON *replacement = cJSON_CreateString(whole);
    free(whole);
    /* swap the value in place (cJSON_SetValuestring cannot grow a string in every cJSON version) */
    char *old = node->valuestring;
    node->valuestring = replacement->valuestring;
    replacement->valuestring = old;
    cJSON_Delete(replacement);
}

/* Whether a result equals a vector's `ok` document (cJSON_Compare: object member order ignored,
   arrays in order), with Square's data= URLs compared decoded. */
static int same_document(const cJSON *actual, const cJSON *expected) {
    cJSON *a = cJSON_Duplicate(actual, 1), *e = cJSON_Duplicate(expected, 1);
    int same = 0;
    if (a && e) {
        canonical_square_data(a);
        canonical_square_data(e);
        same = cJSON_Compare(a, e, 1);
    }
    cJSON_Delete(a);
    cJSON_Delete(e);
    return same;
}

static void check_vector(const char *id, const cJSON *expect, const Result *r) {
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(expect, "ok");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(expect, "error");
    if (ok && !error) {
        if (r->status != 0) {
            check(0, "%s: expected success, got %s [%s]", id, error_code(r), error_field(r));
        } else {
            int same = r->doc && same_document(r->doc, ok);
            if (!same) {
                char *actual = r->doc ? cJSON_PrintUnformatted(r->doc) : NULL;
                check(0, "%s: result differs: %s", id, actual ? actual : "(none)");
                cJSON_free(actual);
            } else {
                check(1, "");
            }
        }
    } else if (error && !ok) {
        const char *code = member_string(error, "code");
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(error, "field");
        if (r->status == 0) {
            check(0, "%s: expected error %s, got success", id, code ? code : "?");
        } else if (!code || strcmp(code, error_code(r)) != 0) {
            check(0, "%s: expected error %s, got %s [%s]", id, code ? code : "?", error_code(r), error_field(r));
        } else if (field && !cJSON_IsNull(field) &&
                   !(cJSON_IsString(field) && strcmp(field->valuestring, error_field(r)) == 0)) {
            check(0, "%s: expected field %s, got %s", id, cJSON_IsString(field) ? field->valuestring : "?", error_field(r));
        } else if (field && cJSON_IsNull(field) && strcmp(error_field(r), "(null)") != 0) {
            check(0, "%s: expected no field, got %s", id, error_field(r));
        } else {
            check(1, "");
        }
    } else {
        check(0, "%s: expect must hold exactly one of ok or error", id);
    }
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *data = NULL;
    size_t size = 0;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        char *grown = realloc(data, size + n + 1);
        if (!grown) break;
        data = grown;
        memcpy(data + size, chunk, n);
        size += n;
    }
    fclose(f);
    if (data) data[size] = '\0';
    return data;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_folder(const char *root, const char *folder) {
    char dir_path[4096];
    snprintf(dir_path, sizeof dir_path, "%s/%s", root, folder);
    DIR *dir = opendir(dir_path);
    if (!dir) {
        printf("note: %s is missing; its vectors are skipped\n", dir_path);
        return;
    }
    char *names[256];
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL && count < 256) {
        size_t len = strlen(entry->d_name);
        if (len > 5 && strcmp(entry->d_name + len - 5, ".json") == 0) names[count++] = strdup(entry->d_name);
    }
    closedir(dir);
    qsort(names, count, sizeof names[0], compare_names);
    for (size_t i = 0; i < count; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir_path, names[i]);
        char *text = read_file(path);
        if (text) {
            protect_nul(text);
            protect_lone_surrogates(text);
        }
        cJSON *document = text ? cJSON_Parse(text) : NULL;
        free(text);
        const char *suite = member_string(document, "suite");
        int ran = 0;
        int skipped_here = 0;
        const cJSON *vector;
        cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(document, "vectors")) {
            const char *id = member_string(vector, "id");
            /* The vector says why C cannot express it (Tests/Vectors/README.md, "Skips"). */
            const char *reason = member_string(cJSON_GetObjectItemCaseSensitive(vector, "skip"), "c");
            if (reason) {
                printf("skip: %s: %s\n", id ? id : "?", reason);
                skipped_here++;
                continue;
            }
            int known = 0;
            Result r = run_suite(suite ? suite : "", cJSON_GetObjectItemCaseSensitive(vector, "input"), &known);
            if (!known) break;
            if (known == 2) {
                printf("skip: %s: a C string cannot carry U+0000 (the URL would end there)\n", id ? id : "?");
                skipped_here++;
                continue;
            }
            check_vector(id ? id : "?", cJSON_GetObjectItemCaseSensitive(vector, "expect"), &r);
            cJSON_Delete(r.doc);
            ran++;
        }
        check(document && suite && ran + skipped_here > 0, "%s: not a vector file of a known suite, or empty", path);
        skipped += skipped_here;
        if (skipped_here > 0) {
            printf("vectors: %s (%s): %d, %d skipped\n", path, suite ? suite : "?", ran, skipped_here);
        } else {
            printf("vectors: %s (%s): %d\n", path, suite ? suite : "?", ran);
        }
        cJSON_Delete(document);
        free(names[i]);
    }
}

/* ---- Hostile and contract calls ----------------------------------------------------------- */

static const char *const sale_json =
    "{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"ord-1\",\"amount\":\"100.00\",\"urlScheme\":\"myapp\"}";

/* Expects status `want` (ANY_ERROR: any non-zero status) and, when given, error field `field`. */
#define ANY_ERROR (-1)
#define STATUS_OK(status, want) ((want) == ANY_ERROR ? (status) != 0 : (status) == (want))

static void expect_one(const char *what, OneArg fn, const char *input, int32_t want, const char *field) {
    char *out = NULL;
    Result r = finish(what, fn(input, &out), &out);
    check(STATUS_OK(r.status, want) && (!field || strcmp(field, error_field(&r)) == 0),
          "%s: expected status %d [%s], got %d %s [%s]", what, (int)want, field ? field : "", (int)r.status,
          error_code(&r), error_field(&r));
    cJSON_Delete(r.doc);
}

static void expect_url(const char *what, TwoArg fn, const char *url, const char *options, int32_t want, const char *field) {
    char *out = NULL;
    Result r = finish(what, fn(url, options, &out), &out);
    check(STATUS_OK(r.status, want) && (!field || strcmp(field, error_field(&r)) == 0),
          "%s: expected status %d [%s], got %d %s [%s]", what, (int)want, field ? field : "", (int)r.status,
          error_code(&r), error_field(&r));
    cJSON_Delete(r.doc);
}

static char *repeated(const char *head, char fill, size_t count, const char *tail) {
    size_t h = strlen(head), t = strlen(tail);
    char *s = malloc(h + count + t + 1);
    if (!s) return NULL;
    memcpy(s, head, h);
    memset(s + h, fill, count);
    memcpy(s + h + count, tail, t + 1);
    return s;
}

/* Issue 9: hostile inputs the shared vector files cannot carry (Tests/Vectors/hostile lists them;
   the same cases run in Tests/PayHandoffABITests/HostileABITests.swift). */
static void hostile_direct(void) {
    /* Integral numbers written with a fraction or an exponent: once read as 100 minor units. */
    const char *const fractions[] = {"100.00", "1e2", "1E+2", "-0.0", "100.5", "0.0"};
    for (size_t i = 0; i < sizeof fractions / sizeof fractions[0]; i++) {
        char request[256];
        snprintf(request, sizeof request,
                 "{\"transaction\":\"venta\",\"usertoken\":\"t\",\"identifier\":\"o\",\"amount\":%s,\"urlScheme\":\"m\"}",
                 fractions[i]);
        char what[64];
        snprintf(what, sizeof what, "amount %s as a JSON number", fractions[i]);
        expect_one(what, payhandoff_pos_build_url, request, PAYHANDOFF_ERR_INVALID_JSON, "amount");
    }
    expect_one("fractions inside strings are text", payhandoff_pos_build_url,
               "{\"transaction\":\"venta\",\"usertoken\":\"t.1e2\",\"identifier\":\"1.5\",\"amount\":\"100.00\",\"urlScheme\":\"m\"}", 0, NULL);
    expect_one("lone high surrogate escape", payhandoff_pos_build_url,
               "{\"transaction\":\"venta\",\"usertoken\":\"t\",\"identifier\":\"o\\ud800\",\"amount\":\"1.00\",\"urlScheme\":\"m\"}",
               PAYHANDOFF_ERR_INVALID_JSON, NULL);
    expect_one("lone low surrogate escape", payhandoff_pos_build_url,
               "{\"transaction\":\"venta\",\"usertoken\":\"t\",\"identifier\":\"o\\udc00\",\"amount\":\"1.00\",\"urlScheme\":\"m\"}",
               PAYHANDOFF_ERR_INVALID_JSON, NULL);
    /* Raw invalid UTF-8 in a URL: overlong '/', CESU surrogate, 0xFF, truncated, above U+10FFFF. */
    const char *const raw[] = {"\xc0\xaf", "\xed\xa0\x80", "\xff", "\xe2\x82", "\xf4\x90\x80\x80"};
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
        char url[128];
        snprintf(url, sizeof url, "myapp://result=aprobada&identifier=ord-1&amount=1.00&reference=%s", raw[i]);
        expect_url("raw invalid UTF-8 in a POS answer", payhandoff_pos_parse_response, url, "{\"urlScheme\":\"myapp\"}",
                   PAYHANDOFF_ERR_MALFORMED_URL, "url");
        snprintf(url, sizeof url, "fixapp://cb/ph_0123456789abcdef0123?status=cancelled&reason=%s", raw[i]);
        expect_url("raw invalid UTF-8 in a callback", payhandoff_checkout_parse_callback, url,
                   "{\"kind\":\"cards\",\"return_url\":\"fixapp://cb\",\"nonce\":\"0123456789abcdef0123\"}",
                   PAYHANDOFF_ERR_MALFORMED_URL, "url");
        snprintf(url, sizeof url, "{\"result\":\"aprobada\",\"identifier\":\"ord-1\",\"reference\":\"%s\"}", raw[i]);
        expect_url("raw invalid UTF-8 in result extras", payhandoff_pos_parse_result, url, "{}", PAYHANDOFF_ERR_INVALID_JSON, NULL);
    }
    /* 10 000 members: more than 64 KiB of JSON text. */
    size_t size = 10000 * 12 + 8;
    char *wide = malloc(size);
    if (wide) {
        size_t n = 0;
        wide[n++] = '{';
        for (int i = 0; i < 10000; i++) n += (size_t)snprintf(wide + n, size - n, "%s\"k%d\":0", i ? "," : "", i);
        wide[n++] = '}';
        wide[n] = 0;
        expect_one("10000 members", payhandoff_pos_build_url, wide, PAYHANDOFF_ERR_LIMIT_EXCEEDED, "request_json");
        free(wide);
    }
}

/* Valid result extras and options of payhandoff_pos_parse_result, for calls that vary the other one. */
static const char *const result_extras =
    "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"100.00\",\"transactionid\":\"720371\"}";
static const char *const result_options = "{\"identifier\":\"ord-1\",\"token\":\"0123456789abcdef\"}";

/* payhandoff_pos_parse_result with its extras_json varied: a one-document call for the JSON batteries. */
static int32_t parse_result_extras(const char *extras_json, char **out) {
    return payhandoff_pos_parse_result(extras_json, result_options, out);
}

static void hostile_parse_result(void);

static void hostile_stateless(void) {
    /* Every JSON document parameter, with what a 63-deep {"x":[[...]]} (inside the depth limit)
       answers: the members are then checked, and "x" is unknown or, in result extras, not a string. */
    static const struct {
        OneArg fn;
        const char *param;
        int32_t deep_status;
        const char *deep_field;
    } one[] = {
        {payhandoff_pos_build_url, "request_json", PAYHANDOFF_ERR_VALIDATION, NULL},
        {payhandoff_pos_refund_check, "input_json", PAYHANDOFF_ERR_VALIDATION, NULL},
        {payhandoff_checkout_build_request, "request_json", PAYHANDOFF_ERR_VALIDATION, NULL},
        {payhandoff_checkout_parse_session, "session_json", PAYHANDOFF_ERR_VALIDATION, NULL},
        {payhandoff_checkout_parse_confirmation, "event_json", PAYHANDOFF_ERR_VALIDATION, NULL},
        {parse_result_extras, "extras_json", PAYHANDOFF_ERR_INVALID_JSON, "x"},
    };
    static const TwoArg two[] = {payhandoff_pos_parse_response, payhandoff_checkout_parse_callback};

    check(payhandoff_abi_version() == PAYHANDOFF_ABI_VERSION, "abi version differs from the header");
    check(payhandoff_version() != NULL && strlen(payhandoff_version()) > 0, "version string");
    payhandoff_string_free(NULL);

    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        check(one[i].fn("{}", NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "out NULL: %s", one[i].param);
        expect_one("NULL input", one[i].fn, NULL, PAYHANDOFF_ERR_INVALID_ARGUMENT, one[i].param);
        expect_one("invalid UTF-8 JSON", one[i].fn, "{\"a\":\"\xff\xfe\"}", PAYHANDOFF_ERR_INVALID_JSON, NULL);
        expect_one("overlong UTF-8", one[i].fn, "{\"a\":\"\xc0\xaf\"}", PAYHANDOFF_ERR_INVALID_JSON, NULL);
        expect_one("truncated JSON", one[i].fn, "{\"a\":", PAYHANDOFF_ERR_INVALID_JSON, NULL);
        expect_one("trailing text", one[i].fn, "{} x", PAYHANDOFF_ERR_INVALID_JSON, NULL);
        expect_one("empty text", one[i].fn, "", PAYHANDOFF_ERR_INVALID_JSON, NULL);
        expect_one("fraction", one[i].fn, "{\"amount\":100.5}", PAYHANDOFF_ERR_INVALID_JSON, "amount");
        expect_one("2^53", one[i].fn, "{\"now\":9007199254740992}", PAYHANDOFF_ERR_INVALID_JSON, "now");
        expect_one("huge exponent", one[i].fn, "{\"now\":1e400}", PAYHANDOFF_ERR_INVALID_JSON, "now");
        expect_one("duplicate key", one[i].fn, "{\"a\":1,\"a\":2}", PAYHANDOFF_ERR_INVALID_JSON, "a");
        expect_one("nested duplicate key", one[i].fn, "{\"x\":[{\"a\":1,\"a\":1}]}", PAYHANDOFF_ERR_INVALID_JSON, "x[0].a");
        expect_one("array root", one[i].fn, "[1,2]", ANY_ERROR, NULL);
        expect_one("number root", one[i].fn, "42", ANY_ERROR, NULL);
        expect_one("null root", one[i].fn, "null", ANY_ERROR, NULL);
        /* Over the limit: invalid_json (naming the deep path); inside it, the document is read. */
        static const struct { int depth; int inside; } nests[] = {
            {10000, 0}, {2000, 0}, {70, 0}, {64, 0}, /* 65 with the root */
            {PAYHANDOFF_MAX_JSON_DEPTH - 1, 1}, {50, 1},
        };
        for (size_t n = 0; n < sizeof nests / sizeof nests[0]; n++) {
            /* {"x":[[[...]]]}: deep but otherwise harmless, so only the depth decides. */
            size_t depth = (size_t)nests[n].depth;
            char *nested = malloc(2 * depth + 8);
            if (!nested) continue;
            memcpy(nested, "{\"x\":", 5);
            memset(nested + 5, '[', depth);
            memset(nested + 5 + depth, ']', depth);
            memcpy(nested + 5 + 2 * depth, "}", 2);
            char what[64];
            snprintf(what, sizeof what, "%d-deep JSON (%s)", nests[n].depth, one[i].param);
            if (nests[n].inside) expect_one(what, one[i].fn, nested, one[i].deep_status, one[i].deep_field);
            else expect_one(what, one[i].fn, nested, PAYHANDOFF_ERR_INVALID_JSON, NULL);
            free(nested);
        }
        /* A truncated 10000-deep document. */
        char *open_only = repeated("", '[', 10000, "");
        expect_one("truncated 10000-deep JSON", one[i].fn, open_only, PAYHANDOFF_ERR_INVALID_JSON, NULL);
        free(open_only);
        char *mega = repeated("{", ' ', 1 << 20, "}");
        expect_one("1 MB JSON", one[i].fn, mega, PAYHANDOFF_ERR_LIMIT_EXCEEDED, one[i].param);
        free(mega);
        char *at_limit = repeated("{", ' ', PAYHANDOFF_MAX_JSON_BYTES - 2, "}");
        char *over_limit = repeated("{", ' ', PAYHANDOFF_MAX_JSON_BYTES - 1, "}");
        char out_at[64], out_over[64];
        char *out = NULL;
        Result r = finish("at limit", one[i].fn(at_limit, &out), &out);
        snprintf(out_at, sizeof out_at, "%s", error_code(&r));
        check(r.status != PAYHANDOFF_ERR_LIMIT_EXCEEDED, "65536 bytes of JSON must be read, got %s", out_at);
        cJSON_Delete(r.doc);
        out = NULL;
        r = finish("over limit", one[i].fn(over_limit, &out), &out);
        snprintf(out_over, sizeof out_over, "%s", error_code(&r));
        check(r.status == PAYHANDOFF_ERR_LIMIT_EXCEEDED, "65537 bytes of JSON must be refused, got %s", out_over);
        cJSON_Delete(r.doc);
        free(at_limit);
        free(over_limit);
    }

    /* Wrong types inside a valid document name the member. */
    expect_one("amount as boolean", payhandoff_pos_build_url,
               "{\"transaction\":\"venta\",\"usertoken\":\"t\",\"identifier\":\"i\",\"amount\":true,\"urlScheme\":\"m\"}",
               PAYHANDOFF_ERR_INVALID_JSON, "amount");
    expect_one("transaction as number", payhandoff_pos_build_url, "{\"transaction\":5}", PAYHANDOFF_ERR_INVALID_JSON,
               "transaction");
    expect_one("string root", payhandoff_pos_build_url, "\"venta\"", PAYHANDOFF_ERR_INVALID_JSON, NULL);
    expect_one("valid sale", payhandoff_pos_build_url, sale_json, 0, NULL);
    expect_one("whitespace around JSON", payhandoff_pos_build_url, " \n\t{\"transaction\":\"venta\",\"usertoken\":\"t\","
               "\"identifier\":\"i\",\"amount\":100,\"urlScheme\":\"m\"} \n", 0, NULL);

    /* \u0000 reaches the core as U+0000 (cJSON alone would cut the string to "i" and the request
       would be built): a POS identifier refuses it by name (an answer could never echo %00), and a
       pass-through body field carries it. */
    char *nul = NULL;
    int32_t nul_status = payhandoff_pos_build_url("{\"transaction\":\"venta\",\"usertoken\":\"t\","
                                                  "\"identifier\":\"i\\u0000x\",\"amount\":100,\"urlScheme\":\"m\"}", &nul);
    check(nul_status == PAYHANDOFF_ERR_VALIDATION && nul && strstr(nul, "\"field\":\"identifier\"") && strstr(nul, "U+0000"),
          "U+0000 reaches the core: %s", nul ? nul : "(null)");
    payhandoff_string_free(nul);
    expect_one("escaped backslash before u0000", payhandoff_pos_build_url, "{\"transaction\":\"venta\",\"usertoken\":\"t\","
               "\"identifier\":\"i\\\\u0000x\",\"amount\":100,\"urlScheme\":\"m\"}", 0, NULL);
    nul = NULL;
    nul_status = payhandoff_checkout_build_request(
        "{\"kind\":\"payments\",\"api_key\":\"sk_test_1\",\"return_url\":\"fixapp://cb\","
        "\"nonce\":\"0123456789abcdef0123\",\"fields\":{\"d\":\"a\\u0000b\",\"k\\u0000\":\"\\u0000\"}}", &nul);
    check(nul_status == 0 && nul && strstr(nul, "\"d\":\"a\\u0000b\"") && strstr(nul, "\"k\\u0000\":\"\\u0000\""),
          "U+0000 in strings and keys round-trips as \\u0000: %s", nul ? nul : "(null)");
    payhandoff_string_free(nul);

    /* Integers up to 2^53 - 1 come back exactly (cJSON alone would print 15 significant digits). */
    char *big = NULL;
    int32_t big_status = payhandoff_checkout_build_request(
        "{\"kind\":\"payments\",\"api_key\":\"sk_test_1\",\"return_url\":\"fixapp://cb\","
        "\"nonce\":\"0123456789abcdef0123\",\"fields\":{\"n\":9007199254740991,\"m\":-9007199254740991}}", &big);
    check(big_status == 0 && big && strstr(big, "\"n\":9007199254740991") && strstr(big, "\"m\":-9007199254740991"),
          "integers up to 2^53 - 1 are printed exactly: %s", big ? big : "(null)");
    payhandoff_string_free(big);

    /* Every strict prefix of a valid document is refused, none crashes. */
    size_t len = strlen(sale_json);
    int prefixes_ok = 1;
    for (size_t cut = 0; cut < len; cut++) {
        char buffer[256];
        memcpy(buffer, sale_json, cut);
        buffer[cut] = '\0';
        char *out = NULL;
        int32_t status = payhandoff_pos_build_url(buffer, &out);
        if (status != PAYHANDOFF_ERR_INVALID_JSON || out == NULL) prefixes_ok = 0;
        payhandoff_string_free(out);
    }
    check(prefixes_ok, "every truncation of a request is invalid_json");

    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
        /* Valid options, so that only the URL decides. */
        const char *options = i == 0 ? "{\"urlScheme\":\"myapp\"}"
                                     : "{\"kind\":\"cards\",\"return_url\":\"fixapp://cb\",\"nonce\":\"0123456789abcdef0123\"}";
        check(two[i]("myapp://x", options, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "url call with out NULL");
        expect_url("NULL url", two[i], NULL, options, PAYHANDOFF_ERR_INVALID_ARGUMENT, "url");
        expect_url("NULL options", two[i], "myapp://result=aprobada", NULL, PAYHANDOFF_ERR_INVALID_ARGUMENT, "options_json");
        expect_url("invalid UTF-8 URL", two[i], "myapp://result=\xff", options, PAYHANDOFF_ERR_MALFORMED_URL, "url");
        expect_url("bad options JSON", two[i], "myapp://result=aprobada", "{", PAYHANDOFF_ERR_INVALID_JSON, "options_json");
        expect_url("options of the wrong type", two[i], "myapp://result=aprobada", "[]", PAYHANDOFF_ERR_INVALID_JSON, NULL);
        char *mega = repeated("myapp://result=", 'a', 1 << 20, "");
        expect_url("1 MB URL", two[i], mega, options, PAYHANDOFF_ERR_LIMIT_EXCEEDED, "url");
        free(mega);
        char *at_limit = repeated("myapp://x=", 'a', PAYHANDOFF_MAX_URL_BYTES - 10, "");
        char *out = NULL;
        Result r = finish("URL at limit", two[i](at_limit, options, &out), &out);
        check(r.status != PAYHANDOFF_ERR_LIMIT_EXCEEDED, "an 8192-byte URL must be read");
        cJSON_Delete(r.doc);
        free(at_limit);
    }

    /* A fresh nonce per call when the request has none. */
    const char *payment = "{\"kind\":\"payments\",\"api_key\":\"sk_test_1\",\"return_url\":\"fixapp://checkout-callback\"}";
    char *a = NULL, *b = NULL;
    Result ra = finish("build 1", payhandoff_checkout_build_request(payment, &a), &a);
    Result rb = finish("build 2", payhandoff_checkout_build_request(payment, &b), &b);
    const char *na = member_string(ra.doc, "nonce"), *nb = member_string(rb.doc, "nonce");
    check(ra.status == 0 && rb.status == 0 && na && nb && strlen(na) >= 16 && strcmp(na, nb) != 0,
          "checkout_build_request makes a fresh nonce per call");
    /* The gateway redirects to the return URL the core handed out, plus its query: that callback
       is verified with the nonce; the registered URL without it is refused, or only a claim. */
    const char *sent = member_string(ra.doc, "return_url");
    check(sent && na && strstr(sent, na) != NULL, "the return URL sent carries the nonce: %s", sent ? sent : "(none)");
    if (sent && na && strlen(sent) < 1024) {
        char callback[1100], options[256];
        snprintf(callback, sizeof callback, "%s?status=completed&payment_id=pay_1", sent);
        snprintf(options, sizeof options, "{\"kind\":\"payments\",\"return_url\":\"fixapp://checkout-callback\",\"nonce\":\"%s\"}", na);
        char *out = NULL;
        Result r = finish("callback to the URL sent", payhandoff_checkout_parse_callback(callback, options, &out), &out);
        check(r.status == 0 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r.doc, "verified")),
              "a callback to the return URL sent is verified");
        cJSON_Delete(r.doc);
        char other[256];
        snprintf(other, sizeof other, "{\"kind\":\"payments\",\"return_url\":\"fixapp://checkout-callback\",\"nonce\":\"%s\"}",
                 nb ? nb : "");
        expect_url("the other call's nonce", payhandoff_checkout_parse_callback, callback, other,
                   PAYHANDOFF_ERR_CALLBACK_MISMATCH, "nonce");
        expect_url("no nonce in the callback", payhandoff_checkout_parse_callback,
                   "fixapp://checkout-callback?status=completed&payment_id=pay_1", options, PAYHANDOFF_ERR_CALLBACK_MISMATCH, "nonce");
        out = NULL;
        r = finish("unverified claim", payhandoff_checkout_parse_callback("fixapp://checkout-callback?status=completed&payment_id=pay_1",
                   "{\"kind\":\"payments\",\"return_url\":\"fixapp://checkout-callback\",\"accept_unverified\":true}", &out), &out);
        check(r.status == 0 && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r.doc, "verified")),
              "accept_unverified: a callback without the nonce is a claim (verified false)");
        cJSON_Delete(r.doc);
        expect_url("nonce required", payhandoff_checkout_parse_callback, callback,
                   "{\"kind\":\"payments\",\"return_url\":\"fixapp://checkout-callback\"}", PAYHANDOFF_ERR_VALIDATION, "nonce");
    }
    cJSON_Delete(ra.doc);
    cJSON_Delete(rb.doc);

    /* "token": true asks for a fresh per-call token; the POS app must echo the identifier sent. */
    const char *tokened = "{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"ord-1\",\"amount\":\"100.00\","
                          "\"urlScheme\":\"myapp\",\"token\":true}";
    a = NULL;
    b = NULL;
    ra = finish("build url 1", payhandoff_pos_build_url(tokened, &a), &a);
    rb = finish("build url 2", payhandoff_pos_build_url(tokened, &b), &b);
    const char *ta = member_string(ra.doc, "token"), *tb = member_string(rb.doc, "token");
    const char *ida = member_string(ra.doc, "identifier");
    check(ra.status == 0 && rb.status == 0 && ta && tb && strlen(ta) >= 16 && strcmp(ta, tb) != 0,
          "pos_build_url makes a fresh token per call with \"token\": true");
    check(ida && ta && strncmp(ida, "ord-1", 5) == 0 && strstr(ida, ta) != NULL && strstr(member_string(ra.doc, "url"), ta),
          "the identifier sent carries the token: %s", ida ? ida : "(none)");
    const cJSON *intent = cJSON_GetObjectItemCaseSensitive(ra.doc, "intent");
    check(cJSON_IsObject(intent) && member_string(intent, "action") &&
              strcmp(member_string(intent, "action"), "billpocket.payments.START") == 0 &&
              member_string(intent, "package") && strcmp(member_string(intent, "package"), "com.billpocket.billpocket") == 0 &&
              cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(intent, "extras")),
          "pos_build_url answers the Android intent (action and extras)");
    if (ida && ta && strlen(ida) < 300) {
        char answer[512], options[256], extras[512];
        snprintf(answer, sizeof answer, "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=%s", ida);
        snprintf(options, sizeof options, "{\"urlScheme\":\"myapp\",\"identifier\":\"ord-1\",\"token\":\"%s\"}", ta);
        expect_url("answer echoing the identifier sent", payhandoff_pos_parse_response, answer, options, 0, NULL);
        expect_url("answer without the token", payhandoff_pos_parse_response,
                   "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1", options,
                   PAYHANDOFF_ERR_CALLBACK_MISMATCH, "identifier");
        snprintf(extras, sizeof extras, "{\"result\":\"aprobada\",\"amount\":\"100.00\",\"transactionid\":\"720371\",\"identifier\":\"%s\"}", ida);
        snprintf(options, sizeof options, "{\"identifier\":\"ord-1\",\"token\":\"%s\"}", tb ? tb : "");
        expect_url("result extras with another call's token", payhandoff_pos_parse_result, extras, options,
                   PAYHANDOFF_ERR_CALLBACK_MISMATCH, "identifier");
        snprintf(options, sizeof options, "{\"identifier\":\"ord-1\",\"token\":\"%s\"}", ta);
        expect_url("result extras echoing the identifier sent", payhandoff_pos_parse_result, extras, options, 0, NULL);
    }
    cJSON_Delete(ra.doc);
    cJSON_Delete(rb.doc);
    hostile_parse_result();
}

/* payhandoff_pos_parse_result: its own hostile calls (the JSON battery above covers extras_json). */
static void hostile_parse_result(void) {
    check(payhandoff_pos_parse_result(result_extras, result_options, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT,
          "parse_result: out NULL");
    expect_url("parse_result: genuine extras", payhandoff_pos_parse_result, result_extras, result_options, 0, NULL);
    expect_url("parse_result: NULL options", payhandoff_pos_parse_result, result_extras, NULL,
               PAYHANDOFF_ERR_INVALID_ARGUMENT, "options_json");
    expect_url("parse_result: NULL extras", payhandoff_pos_parse_result, NULL, result_options,
               PAYHANDOFF_ERR_INVALID_ARGUMENT, "extras_json");
    expect_url("parse_result: options not JSON", payhandoff_pos_parse_result, result_extras, "{", PAYHANDOFF_ERR_INVALID_JSON,
               "options_json");
    expect_url("parse_result: options invalid UTF-8", payhandoff_pos_parse_result, result_extras,
               "{\"identifier\":\"ord-1\xff\"}", PAYHANDOFF_ERR_INVALID_JSON, NULL);
    expect_url("parse_result: options an array", payhandoff_pos_parse_result, result_extras, "[]", PAYHANDOFF_ERR_INVALID_JSON, NULL);
    expect_url("parse_result: unknown option", payhandoff_pos_parse_result, result_extras, "{\"urlScheme\":\"myapp\"}",
               PAYHANDOFF_ERR_VALIDATION, "urlScheme");
    expect_url("parse_result: token without identifier", payhandoff_pos_parse_result, result_extras,
               "{\"token\":\"0123456789abcdef\"}", PAYHANDOFF_ERR_VALIDATION, "token");
    char *mega = repeated("{\"identifier\":\"", 'a', 1 << 20, "\"}");
    expect_url("parse_result: 1 MB options", payhandoff_pos_parse_result, result_extras, mega, PAYHANDOFF_ERR_LIMIT_EXCEEDED,
               "options_json");
    free(mega);
    mega = repeated("{\"reference\":\"", 'a', 1 << 20, "\"}");
    expect_url("parse_result: 1 MB extras", payhandoff_pos_parse_result, mega, result_options, PAYHANDOFF_ERR_LIMIT_EXCEEDED,
               "extras_json");
    free(mega);

    /* Extras that are not an object, and values that are not strings, are not read as text. */
    static const char *const roots[] = {"[]", "[{\"result\":\"aprobada\"}]", "\"result=aprobada\"", "42", "true"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        expect_url("parse_result: extras not an object", payhandoff_pos_parse_result, roots[i], result_options,
                   PAYHANDOFF_ERR_INVALID_JSON, NULL);
    }
    expect_url("parse_result: extras null", payhandoff_pos_parse_result, "null", result_options, ANY_ERROR, NULL);
    static const char *const values[] = {"100", "100.5", "true", "null", "{}", "[\"100.00\"]", "{\"amount\":\"100.00\"}"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char extras[256];
        snprintf(extras, sizeof extras, "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":%s}",
                 values[i]);
        expect_url("parse_result: a value that is not a string", payhandoff_pos_parse_result, extras, result_options,
                   PAYHANDOFF_ERR_INVALID_JSON, "amount");
    }
    expect_url("parse_result: an unknown key's value that is not a string", payhandoff_pos_parse_result,
               "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"1.00\",\"promo\":7}",
               result_options, PAYHANDOFF_ERR_INVALID_JSON, "promo");
    expect_url("parse_result: U+0000 in a value", payhandoff_pos_parse_result,
               "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"1.00\",\"reference\":\"a\\u0000b\"}",
               result_options, PAYHANDOFF_ERR_VALIDATION, "reference");
    expect_url("parse_result: a key twice, differing in case", payhandoff_pos_parse_result,
               "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"1.00\",\"AMOUNT\":\"900.00\"}",
               result_options, PAYHANDOFF_ERR_VALIDATION, "AMOUNT");
    expect_url("parse_result: the identifier without the token", payhandoff_pos_parse_result,
               "{\"result\":\"aprobada\",\"identifier\":\"ord-1\",\"amount\":\"1.00\"}", result_options,
               PAYHANDOFF_ERR_CALLBACK_MISMATCH, "identifier");

    /* Values are text as given: no percent-decoding, and an echoed user token is dropped. */
    char *out = NULL;
    Result r = finish("parse_result text", payhandoff_pos_parse_result(
        "{\"RESULT\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"1.00\",\"reference\":\"a%26b+c\","
        "\"UserToken\":\"tok_secret\",\"promo\":\"%41\"}", result_options, &out), &out);
    char *printed = r.doc ? cJSON_PrintUnformatted(r.doc) : NULL;
    check(r.status == 0 && printed && strstr(printed, "\"reference\":\"a%26b+c\"") && strstr(printed, "\"promo\":\"%41\"") &&
              !strstr(printed, "tok_secret"),
          "parse_result keeps values as given and drops the user token: %s", printed ? printed : "(none)");
    cJSON_free(printed);
    cJSON_Delete(r.doc);

    /* Many unknown keys, under the JSON limit: read, and kept in "extra". */
    size_t size = 3000 * 16 + 128;
    char *wide = malloc(size);
    if (wide) {
        size_t n = (size_t)snprintf(wide, size, "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"1.00\"");
        for (int i = 0; i < 3000; i++) n += (size_t)snprintf(wide + n, size - n, ",\"k%d\":\"v\"", i);
        snprintf(wide + n, size - n, "}");
        out = NULL;
        r = finish("parse_result 3000 keys", payhandoff_pos_parse_result(wide, result_options, &out), &out);
        check(r.status == 0 && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r.doc, "extra")) == 3000,
              "parse_result: 3000 unknown keys are kept in extra");
        cJSON_Delete(r.doc);
        free(wide);
    }
}

/* A snapshot of `sales` ledger entries (about 45 bytes each), written into `text` (`size` bytes). */
static void ledger_snapshot(char *text, size_t size, int sales) {
    size_t used = (size_t)snprintf(text, size, "{\"version\":3,\"config\":{},\"flows\":[],\"ledger\":{\"pruned_through\":0,\"sales\":[");
    for (int i = 0; i < sales && used + 64 < size; i++) {
        used += (size_t)snprintf(text + used, size - used, "%s[\"%010d\",10000,0,1796054460000]", i ? "," : "", i);
    }
    snprintf(text + used, size - used, "],\"refunds\":[],\"unknown\":[]}}");
}

/* Issue 24: restore reads snapshots up to PAYHANDOFF_MAX_SNAPSHOT_BYTES (other JSON inputs stay
   at PAYHANDOFF_MAX_JSON_BYTES); salvage keeps what is intact of a damaged one; handle_url takes
   every now_ms an event's "now" takes. */
static void check_restore_limits_and_salvage(void) {
    static char text[PAYHANDOFF_MAX_SNAPSHOT_BYTES + 4096];
    payhandoff_coordinator *h = NULL;
    char *out = NULL;
    ledger_snapshot(text, sizeof text, 4000);
    check(strlen(text) > PAYHANDOFF_MAX_JSON_BYTES && strlen(text) <= PAYHANDOFF_MAX_SNAPSHOT_BYTES,
          "restore: the large snapshot is %zu bytes", strlen(text));
    Result r = finish("restore large", payhandoff_coordinator_restore(text, &h, &out), &out);
    check(r.status == 0 && h != NULL, "restore: a snapshot over PAYHANDOFF_MAX_JSON_BYTES is read (status %d)", (int)r.status);
    cJSON_Delete(r.doc);
    /* What it writes it reads back, the same. */
    char *again = NULL, *third = NULL;
    payhandoff_coordinator *second = NULL;
    out = NULL;
    check(h && payhandoff_coordinator_snapshot(h, &again) == 0 && again && strstr(again, "\"0000003999\"") != NULL
          && payhandoff_coordinator_restore(again, &second, &out) == 0 && payhandoff_coordinator_snapshot(second, &third) == 0
          && third && strcmp(again, third) == 0, "restore: the large snapshot is written back and read again, the same");
    payhandoff_string_free(out);
    payhandoff_string_free(again);
    payhandoff_string_free(third);
    payhandoff_coordinator_free(second);
    out = NULL;
    r = finish("send large", payhandoff_coordinator_send(h, text, &out), &out);
    check(r.status == PAYHANDOFF_ERR_LIMIT_EXCEEDED, "send: an event over PAYHANDOFF_MAX_JSON_BYTES is refused");
    cJSON_Delete(r.doc);
    payhandoff_coordinator_free(h);
    h = NULL;
    ledger_snapshot(text, sizeof text, 8000);
    check(strlen(text) > PAYHANDOFF_MAX_SNAPSHOT_BYTES, "restore: the oversized snapshot is %zu bytes", strlen(text));
    out = NULL;
    r = finish("restore oversized", payhandoff_coordinator_restore(text, &h, &out), &out);
    check(r.status == PAYHANDOFF_ERR_LIMIT_EXCEEDED && h == NULL, "restore: over PAYHANDOFF_MAX_SNAPSHOT_BYTES is refused");
    cJSON_Delete(r.doc);

    check(payhandoff_coordinator_restore_salvage("{}", &h, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "salvage: out NULL");
    out = NULL;
    r = finish("salvage handle NULL", payhandoff_coordinator_restore_salvage("{\"version\":3}", NULL, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT, "salvage: handle NULL");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("salvage not JSON", payhandoff_coordinator_restore_salvage("{\"version\":3,", &h, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_JSON && h == NULL, "salvage: text that is not JSON salvages nothing");
    cJSON_Delete(r.doc);
    /* A damaged flow, a sale whose amount was edited, a record whose id cannot be read: the edited sale
       stays as balance unknown, the unreadable one moves the watermark, and the intact one is kept as
       balance unknown too — nothing of the dropped flow (its "venta" included) proves it was not a
       refund of it still waiting (issue 35, B1). */
    static const char damaged[] =
        "{\"version\":3,\"config\":{},\"flows\":[{\"id\":\"x\",\"operation\":\"venta\"}],\"ledger\":{\"pruned_through\":0,\"sales\":["
        "[\"T1\",10000,0,1796054460000],[\"T2\",-5,0,1796054460000],[\"T 3\",100,0,1796054460000]],\"refunds\":[],\"unknown\":[]}}";
    out = NULL;
    r = finish("salvage damaged", payhandoff_coordinator_restore_salvage(damaged, &h, &out), &out);
    const cJSON *dropped = cJSON_GetObjectItemCaseSensitive(r.doc, "dropped");
    const cJSON *snapshot = cJSON_GetObjectItemCaseSensitive(r.doc, "snapshot");
    const cJSON *ledger = cJSON_GetObjectItemCaseSensitive(snapshot, "ledger");
    check(r.status == 0 && h != NULL && cJSON_GetArraySize(dropped) == 3, "salvage: three members dropped");
    check(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ledger, "sales")) == 0
          && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(ledger, "unknown")) == 2
          && cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(ledger, "pruned_through")) > 0,
          "salvage: T1 and T2 balance unknown (the dropped flow may have refunded either), the watermark moved for the unreadable record");
    const cJSON *first = cJSON_GetArrayItem(dropped, 0);
    check(first && strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(first, "member")), "ledger.sales[1]") == 0,
          "salvage: the first dropped member is named");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("refund of a balance-unknown sale", payhandoff_coordinator_send(h,
        "{\"type\":\"pos.start\",\"now\":1796054520000,\"flow_id\":\"r1\",\"sale\":{\"transactionid\":\"T2\","
        "\"amount\":\"100.00\",\"approved_at\":1796054460},\"request\":{\"transaction\":\"devolucion\",\"usertoken\":\"t\","
        "\"identifier\":\"r1\",\"urlScheme\":\"myapp\",\"transactionId\":\"T2\"}}", &out), &out);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(r.doc, "error");
    check(r.status == 0 && error && strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(error, "code")), "not_eligible") == 0
          && strstr(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(error, "message")), "ledger_pruned") != NULL,
          "salvage: a sale whose balance is unknown is not refunded (ledger_pruned)");
    cJSON_Delete(r.doc);

    /* The last millisecond of 9999 is a time like any other; the next one is not. */
    out = NULL;
    r = finish("handle_url last ms", payhandoff_coordinator_handle_url(h, "otherapp://x", 253402300799999LL, &out), &out);
    check(r.status == 0, "handle_url: now_ms 253402300799999 is read (status %d)", (int)r.status);
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("handle_url after 9999", payhandoff_coordinator_handle_url(h, "otherapp://x", 253402300800000LL, &out), &out);
    check(r.status == PAYHANDOFF_ERR_VALIDATION && strcmp(error_field(&r), "now_ms") == 0, "handle_url: now_ms after 9999");
    cJSON_Delete(r.doc);
    payhandoff_coordinator_free(h);
}

static void hostile_coordinator(void) {
    char *out = NULL;
    payhandoff_coordinator *h = (payhandoff_coordinator *)&out; /* must be overwritten */

    payhandoff_coordinator_free(NULL);
    check(payhandoff_coordinator_new(NULL, &h, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "new: out NULL");
    Result r = finish("new: handle NULL", payhandoff_coordinator_new(NULL, NULL, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT && strcmp(error_field(&r), "handle") == 0, "new: handle NULL");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("new: bad config", payhandoff_coordinator_new("{\"pos_grace_ms\":-1}", &h, &out), &out);
    check(r.status == PAYHANDOFF_ERR_VALIDATION && h == NULL, "new: bad config sets *handle to NULL");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("new: config not JSON", payhandoff_coordinator_new("{\xff}", &h, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_JSON && h == NULL, "new: config not JSON");
    cJSON_Delete(r.doc);

    check(payhandoff_coordinator_restore("{}", &h, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "restore: out NULL");
    out = NULL;
    r = finish("restore NULL", payhandoff_coordinator_restore(NULL, &h, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT && h == NULL && strcmp(error_field(&r), "snapshot_json") == 0,
          "restore: NULL snapshot");
    cJSON_Delete(r.doc);
    out = NULL;
    /* Formats other than the library's: a newer one, and version 1 (before the refund ledger). */
    static const char *const other_formats[] = {"{\"version\":5}", "{\"version\":1,\"config\":{},\"flows\":[],\"refunded\":{}}"};
    for (size_t i = 0; i < sizeof other_formats / sizeof other_formats[0]; i++) {
        out = NULL;
        r = finish("restore other format", payhandoff_coordinator_restore(other_formats[i], &h, &out), &out);
        check(r.status == PAYHANDOFF_ERR_UNSUPPORTED_VERSION && h == NULL, "restore: snapshot format %s", other_formats[i]);
        cJSON_Delete(r.doc);
        if (h) payhandoff_coordinator_free(h);
        h = NULL;
    }
    out = NULL;
    r = finish("restore damaged", payhandoff_coordinator_restore("{\"version\":2,\"flows\":[{\"id\":\"x\"}]}", &h, &out), &out);
    check(r.status != 0 && h == NULL, "restore: damaged snapshot");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("restore handle NULL", payhandoff_coordinator_restore("{\"version\":2}", NULL, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT, "restore: handle NULL");
    cJSON_Delete(r.doc);

    check_restore_limits_and_salvage();

    /* NULL handle everywhere. */
    check(payhandoff_coordinator_send(NULL, "{}", NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "send: out NULL");
    out = NULL;
    r = finish("send NULL handle", payhandoff_coordinator_send(NULL, "{\"type\":\"tick\",\"now\":1}", &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT && strcmp(error_field(&r), "coordinator") == 0, "send: NULL handle");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("handle_url NULL handle", payhandoff_coordinator_handle_url(NULL, "myapp://x", 1, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT, "handle_url: NULL handle");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("snapshot NULL handle", payhandoff_coordinator_snapshot(NULL, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT, "snapshot: NULL handle");
    cJSON_Delete(r.doc);

    out = NULL;
    r = finish("new", payhandoff_coordinator_new(NULL, &h, &out), &out);
    check(r.status == 0 && h != NULL && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r.doc, "version")),
          "new with defaults answers its snapshot");
    cJSON_Delete(r.doc);
    if (h == NULL) return;

    char *before = NULL;
    payhandoff_coordinator_snapshot(h, &before);
    static const char *const unreadable[] = {
        NULL, "", "{", "{\"type\":\"tick\",\"now\":1.5}", "{\"type\":\"tick\"}", "{\"type\":\"nope\",\"now\":1}",
        "{\"type\":\"tick\",\"now\":1,\"now\":2}", "[]", "{\"type\":\"tick\",\"now\":\"\xff\"}",
        /* pos.result: extras that are not an object of strings (missing extras is a result without data) */
        "{\"type\":\"pos.result\",\"flow_id\":\"p1\",\"now\":1,\"extras\":[]}",
        "{\"type\":\"pos.result\",\"flow_id\":\"p1\",\"now\":1,\"extras\":\"result=aprobada\"}",
        "{\"type\":\"pos.result\",\"flow_id\":\"p1\",\"now\":1,\"extras\":{\"amount\":100}}",
        "{\"type\":\"pos.result\",\"flow_id\":\"p1\",\"now\":1,\"extras\":{\"result\":\"\xff\"}}",
        "{\"type\":\"flow.remove\",\"flow_id\":\"p1\",\"now\":1,\"give_up\":\"yes\"}",
    };
    for (size_t i = 0; i < sizeof unreadable / sizeof unreadable[0]; i++) {
        out = NULL;
        r = finish("unreadable event", payhandoff_coordinator_send(h, unreadable[i], &out), &out);
        check(r.status != 0, "send: unreadable event %zu must fail", i);
        cJSON_Delete(r.doc);
    }
    char *mega = repeated("{\"type\":\"tick\",\"now\":1,\"x\":\"", 'a', 1 << 20, "\"}");
    out = NULL;
    r = finish("1 MB event", payhandoff_coordinator_send(h, mega, &out), &out);
    check(r.status == PAYHANDOFF_ERR_LIMIT_EXCEEDED, "send: 1 MB event");
    cJSON_Delete(r.doc);
    free(mega);
    mega = repeated("{\"type\":\"pos.result\",\"flow_id\":\"p1\",\"now\":1,\"extras\":{\"reference\":\"", 'a', 1 << 20, "\"}}");
    out = NULL;
    r = finish("1 MB pos.result", payhandoff_coordinator_send(h, mega, &out), &out);
    check(r.status == PAYHANDOFF_ERR_LIMIT_EXCEEDED, "send: 1 MB pos.result");
    cJSON_Delete(r.doc);
    free(mega);
    char *after = NULL;
    payhandoff_coordinator_snapshot(h, &after);
    check(before && after && strcmp(before, after) == 0, "unreadable events change nothing");
    payhandoff_string_free(before);
    payhandoff_string_free(after);

    /* Read but rejected / not ours: status 0 with the answer. */
    out = NULL;
    r = finish("rejected event", payhandoff_coordinator_send(h, "{\"type\":\"pos.launched\",\"flow_id\":\"nope\",\"now\":1}", &out), &out);
    check(r.status == 0 && strcmp(member_string(r.doc, "outcome") ? member_string(r.doc, "outcome") : "", "rejected") == 0,
          "send: a rejected event answers 0 with outcome rejected");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("pos.result for no flow", payhandoff_coordinator_send(h,
               "{\"type\":\"pos.result\",\"flow_id\":\"nope\",\"now\":1,\"extras\":{\"result\":\"aprobada\"}}", &out), &out);
    check(r.status == 0 && strcmp(member_string(r.doc, "outcome") ? member_string(r.doc, "outcome") : "", "rejected") == 0,
          "send: pos.result for no flow is rejected");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("not ours", payhandoff_coordinator_handle_url(h, "otherapp://result=aprobada", 1000, &out), &out);
    check(r.status == 0 && strcmp(member_string(r.doc, "outcome") ? member_string(r.doc, "outcome") : "", "not_ours") == 0,
          "handle_url: not_ours answers 0");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("url invalid UTF-8", payhandoff_coordinator_handle_url(h, "myapp://\xc3", 1000, &out), &out);
    check(r.status == PAYHANDOFF_ERR_MALFORMED_URL, "handle_url: invalid UTF-8");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("url NULL", payhandoff_coordinator_handle_url(h, NULL, 1000, &out), &out);
    check(r.status == PAYHANDOFF_ERR_INVALID_ARGUMENT && strcmp(error_field(&r), "url") == 0, "handle_url: NULL url");
    cJSON_Delete(r.doc);
    out = NULL;
    r = finish("url bad now", payhandoff_coordinator_handle_url(h, "myapp://x", -1, &out), &out);
    check(r.status == PAYHANDOFF_ERR_VALIDATION && strcmp(error_field(&r), "now_ms") == 0, "handle_url: negative now");
    cJSON_Delete(r.doc);
    mega = repeated("myapp://result=", 'a', 1 << 20, "");
    out = NULL;
    r = finish("url 1 MB", payhandoff_coordinator_handle_url(h, mega, 1000, &out), &out);
    check(r.status == PAYHANDOFF_ERR_LIMIT_EXCEEDED, "handle_url: 1 MB URL");
    cJSON_Delete(r.doc);
    free(mega);
    check(payhandoff_coordinator_handle_url(h, "myapp://x", 1, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "handle_url: out NULL");
    check(payhandoff_coordinator_snapshot(h, NULL) == PAYHANDOFF_ERR_INVALID_ARGUMENT, "snapshot: out NULL");
    payhandoff_coordinator_free(h);
}

/* ---- Threads: the documented contract ----------------------------------------------------- */

/* One stateless call with fixed input (a fixed nonce and token: the answers are deterministic). */
typedef struct {
    const char *name;
    OneArg one;
    TwoArg two;
    const char *a;
    const char *b;
} StatelessCall;

static const StatelessCall stateless_calls[] = {
    {"payhandoff_pos_build_url", payhandoff_pos_build_url, NULL,
     "{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"ord-1\",\"amount\":\"100.00\",\"urlScheme\":\"myapp\","
     "\"token\":\"0123456789abcdef\"}", NULL},
    {"payhandoff_pos_build_url", payhandoff_pos_build_url, NULL, "{bad", NULL},
    {"payhandoff_pos_parse_response", NULL, payhandoff_pos_parse_response,
     "myapp://result=aprobada&amount=100.00&transactionid=720371&identifier=ord-1~0123456789abcdef",
     "{\"urlScheme\":\"myapp\",\"identifier\":\"ord-1\",\"token\":\"0123456789abcdef\"}"},
    {"payhandoff_pos_parse_result", NULL, payhandoff_pos_parse_result,
     "{\"result\":\"aprobada\",\"amount\":\"100.00\",\"transactionid\":\"720371\",\"identifier\":\"ord-1~0123456789abcdef\"}",
     "{\"identifier\":\"ord-1\",\"token\":\"0123456789abcdef\"}"},
    {"payhandoff_pos_parse_result", NULL, payhandoff_pos_parse_result, "{\"result\":7}", "{}"},
    {"payhandoff_pos_refund_check", payhandoff_pos_refund_check, NULL,
     "{\"sale\":{\"transactionid\":\"T\",\"amount\":10000,\"approved_at\":1764518400},\"amount\":\"40.00\",\"now\":1764518500}", NULL},
    {"payhandoff_checkout_build_request", payhandoff_checkout_build_request, NULL,
     "{\"kind\":\"payments\",\"api_key\":\"sk\",\"return_url\":\"fixapp://cb\",\"nonce\":\"0123456789abcdef0123\"}", NULL},
    {"payhandoff_checkout_parse_session", payhandoff_checkout_parse_session, NULL,
     "{\"kind\":\"cards\",\"checkout_url\":\"https://c.example.com/r/1\"}", NULL},
    {"payhandoff_checkout_parse_callback", NULL, payhandoff_checkout_parse_callback,
     "fixapp://cb/ph_0123456789abcdef0123?status=completed&card_id=card_x",
     "{\"kind\":\"cards\",\"return_url\":\"fixapp://cb\",\"nonce\":\"0123456789abcdef0123\"}"},
    {"payhandoff_checkout_parse_confirmation", payhandoff_checkout_parse_confirmation, NULL,
     "{\"type\":\"payment.confirmed\",\"data\":{\"payment_id\":\"pay_1\",\"amount\":\"100.00\"}}", NULL},
};
#define STATELESS_CALLS (sizeof stateless_calls / sizeof stateless_calls[0])

/* The functions the workers call besides the stateless table. */
static const char *const thread_functions[] = {
    "payhandoff_abi_version", "payhandoff_version", "payhandoff_string_free", "payhandoff_coordinator_new",
    "payhandoff_coordinator_restore", "payhandoff_coordinator_restore_salvage", "payhandoff_coordinator_send",
    "payhandoff_coordinator_handle_url",
    "payhandoff_coordinator_snapshot", "payhandoff_coordinator_free",
};

/* "status:document" of a stateless call, malloc'd (NULL when out of memory). */
static char *stateless_answer(const StatelessCall *call) {
    char *out = NULL;
    int32_t status = call->one ? call->one(call->a, &out) : call->two(call->a, call->b, &out);
    size_t size = (out ? strlen(out) : 0) + 16;
    char *answer = malloc(size);
    if (answer) snprintf(answer, size, "%d:%s", (int)status, out ? out : "(null)");
    payhandoff_string_free(out);
    return answer;
}

static char *expected_answers[STATELESS_CALLS];

/* The outcome of an event or URL answer, or "" (status non-zero or unreadable); *state gets the
   first transition's state when there is one. Thread-safe: no check() here. */
static int answered(int32_t status, char *out, const char *outcome, const char *state) {
    cJSON *doc = status == 0 && out ? cJSON_Parse(out) : NULL;
    payhandoff_string_free(out);
    const char *got = member_string(doc, "outcome");
    int ok = got && strcmp(got, outcome) == 0;
    if (ok && state) {
        const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "transitions"), 0);
        const char *got_state = member_string(first, "state");
        ok = got_state && strcmp(got_state, state) == 0;
    }
    cJSON_Delete(doc);
    return ok;
}

static int sent(payhandoff_coordinator *h, const char *event, const char *outcome, const char *state) {
    char *out = NULL;
    int32_t status = payhandoff_coordinator_send(h, event, &out);
    return answered(status, out, outcome, state);
}

typedef struct {
    int index;
    payhandoff_coordinator *handle; /* shared by two threads, serialized by lock */
    mtx_t *lock;
    int own_handle_ok;
    int shared_ok;
    int stateless_ok;
} ThreadWork;

static int worker(void *arg) {
    ThreadWork *w = arg;
    payhandoff_coordinator *own = NULL;
    char *out = NULL;
    w->own_handle_ok = payhandoff_coordinator_new(NULL, &own, &out) == 0;
    payhandoff_string_free(out);
    w->shared_ok = 1;
    w->stateless_ok = payhandoff_abi_version() == PAYHANDOFF_ABI_VERSION && payhandoff_version() != NULL;
    const char *token = "0123456789abcdef";
    for (int i = 0; i < 100 && own; i++) {
        /* A sale answered by URL and one answered by result extras, each echoing the identifier
           sent (identifier~token); both removed once ended. A checkout given up while waiting. */
        char event[512], url[256];
        int ok = 1;
        snprintf(event, sizeof event, "{\"type\":\"pos.start\",\"flow_id\":\"p%d\",\"now\":%lld,\"token\":\"%s\",\"request\":"
                 "{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"ord-%d\",\"amount\":\"100.00\",\"urlScheme\":\"myapp\"}}",
                 i, 1796054400000LL + i, token, i);
        ok &= sent(own, event, "accepted", "ready");
        snprintf(url, sizeof url, "myapp://result=aprobada&amount=100.00&transactionid=T%d-%d&identifier=ord-%d~%s", w->index, i, i, token);
        out = NULL;
        int32_t status = payhandoff_coordinator_handle_url(own, url, 1796054460000LL + i, &out);
        ok &= answered(status, out, "accepted", "approved");
        out = NULL;
        status = payhandoff_coordinator_handle_url(own, url, 1796054461000LL + i, &out);
        ok &= answered(status, out, "duplicate", NULL);
        snprintf(event, sizeof event, "{\"type\":\"pos.start\",\"flow_id\":\"q%d\",\"now\":%lld,\"token\":\"%s\",\"request\":"
                 "{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"res-%d\",\"amount\":\"5.00\",\"urlScheme\":\"myapp\"}}",
                 i, 1796054400000LL + i, token, i);
        ok &= sent(own, event, "accepted", "ready");
        snprintf(event, sizeof event, "{\"type\":\"pos.result\",\"flow_id\":\"q%d\",\"now\":%lld,\"extras\":"
                 "{\"result\":\"rechazada\",\"identifier\":\"res-%d~%s\"}}", i, 1796054470000LL + i, i, token);
        ok &= sent(own, event, "accepted", "declined");
        snprintf(event, sizeof event, "{\"type\":\"checkout.start\",\"flow_id\":\"c%d\",\"now\":%lld,\"kind\":\"cards\","
                 "\"return_url\":\"fixapp://cb\",\"nonce\":\"%s%04d\"}", i, 1796054400000LL + i, token, i);
        ok &= sent(own, event, "accepted", "awaiting_session");
        snprintf(event, sizeof event, "{\"type\":\"flow.remove\",\"flow_id\":\"c%d\",\"now\":%lld}", i, 1796054480000LL + i);
        ok &= sent(own, event, "rejected", NULL); /* still waiting: needs give_up */
        snprintf(event, sizeof event, "{\"type\":\"flow.remove\",\"flow_id\":\"c%d\",\"now\":%lld,\"give_up\":true}", i, 1796054480000LL + i);
        ok &= sent(own, event, "accepted", NULL);
        static const char *const ended[] = {"p", "q"};
        for (size_t e = 0; e < 2; e++) {
            snprintf(event, sizeof event, "{\"type\":\"flow.remove\",\"flow_id\":\"%s%d\",\"now\":%lld}", ended[e], i,
                     1796054480000LL + i);
            ok &= sent(own, event, "accepted", NULL);
        }
        if (i % 10 == 9) {
            /* Process death and back: the restored coordinator writes the same snapshot. */
            char *before = NULL, *after = NULL;
            payhandoff_coordinator *restored = NULL;
            ok &= payhandoff_coordinator_snapshot(own, &before) == 0;
            out = NULL;
            ok &= payhandoff_coordinator_restore(before, &restored, &out) == 0;
            payhandoff_string_free(out);
            ok &= restored && payhandoff_coordinator_snapshot(restored, &after) == 0 && before && after && strcmp(before, after) == 0;
            /* Salvaging an intact snapshot drops nothing. */
            payhandoff_coordinator *salvaged = NULL;
            out = NULL;
            ok &= payhandoff_coordinator_restore_salvage(before, &salvaged, &out) == 0 && out && strstr(out, "\"dropped\":[]") != NULL;
            payhandoff_string_free(out);
            payhandoff_coordinator_free(salvaged);
            payhandoff_string_free(before);
            payhandoff_string_free(after);
            payhandoff_coordinator_free(own);
            own = restored;
        }
        if (!ok) w->own_handle_ok = 0;

        mtx_lock(w->lock);
        if (!sent(w->handle, "{\"type\":\"tick\",\"now\":1796054400000}", "accepted", NULL)) w->shared_ok = 0;
        out = NULL;
        status = payhandoff_coordinator_handle_url(w->handle, "myapp://result=aprobada&identifier=x", 1796054400000LL, &out);
        if (!answered(status, out, "not_ours", NULL)) w->shared_ok = 0;
        mtx_unlock(w->lock);

        for (size_t c = 0; c < STATELESS_CALLS; c++) {
            char *answer = stateless_answer(&stateless_calls[c]);
            if (!answer || !expected_answers[c] || strcmp(answer, expected_answers[c]) != 0) w->stateless_ok = 0;
            free(answer);
        }
    }
    char *final = NULL;
    if (!own || payhandoff_coordinator_snapshot(own, &final) != 0 || !final || !strstr(final, "\"flows\":[]")) w->own_handle_ok = 0;
    payhandoff_string_free(final);
    payhandoff_coordinator_free(own);
    return 0;
}

/* Every exported function (abi/symbols.txt, next to the vectors' Tests/) must be called by the
   workers: a new function fails here until the thread test exercises it. */
static void check_threads_cover_symbols(const char *vectors_root) {
    char path[4096];
    snprintf(path, sizeof path, "%s/../../abi/symbols.txt", vectors_root);
    char *symbols = read_file(path);
    check(symbols != NULL, "threads: cannot read %s", path);
    if (!symbols) return;
    int count = 0;
    for (char *line = strtok(symbols, "\n"); line; line = strtok(NULL, "\n")) {
        if (*line == '\0') continue;
        int covered = 0;
        for (size_t i = 0; i < STATELESS_CALLS && !covered; i++) covered = strcmp(line, stateless_calls[i].name) == 0;
        for (size_t i = 0; i < sizeof thread_functions / sizeof thread_functions[0] && !covered; i++)
            covered = strcmp(line, thread_functions[i]) == 0;
        check(covered, "threads: %s (abi/symbols.txt) is not called by the thread test", line);
        count++;
    }
    check(count > 0, "threads: %s lists no symbol", path);
    free(symbols);
}

static void threads(const char *vectors_root) {
    check_threads_cover_symbols(vectors_root);
    for (size_t c = 0; c < STATELESS_CALLS; c++) expected_answers[c] = stateless_answer(&stateless_calls[c]);
    mtx_t lock;
    payhandoff_coordinator *shared = NULL;
    char *out = NULL;
    if (mtx_init(&lock, mtx_plain) != thrd_success || payhandoff_coordinator_new(NULL, &shared, &out) != 0) {
        check(0, "threads: setup");
        payhandoff_string_free(out);
        return;
    }
    payhandoff_string_free(out);
    ThreadWork work[2] = {{0, shared, &lock, 0, 0, 0}, {1, shared, &lock, 0, 0, 0}};
    thrd_t t[2];
    int started = 0;
    for (int i = 0; i < 2; i++)
        if (thrd_create(&t[i], worker, &work[i]) == thrd_success) started++;
    for (int i = 0; i < started; i++) thrd_join(t[i], NULL);
    check(started == 2, "threads: two threads started");
    for (int i = 0; i < 2; i++) {
        check(work[i].own_handle_ok, "threads: own handle in thread %d (POS answers by URL and extras, checkouts, restores)", i);
        check(work[i].shared_ok, "threads: shared handle under a mutex in thread %d", i);
        check(work[i].stateless_ok, "threads: stateless calls in thread %d answer as on the main thread", i);
    }
    for (size_t c = 0; c < STATELESS_CALLS; c++) {
        free(expected_answers[c]);
        expected_answers[c] = NULL;
    }
    payhandoff_coordinator_free(shared);
    mtx_destroy(&lock);
}

/* ---- Mutation fuzzing: no input may crash, leak or break the output contract --------------- */

static uint64_t fuzz_state = 0x9E3779B97F4A7C15u;

static uint32_t fuzz_next(void) {
    /* xorshift64*: deterministic, so a failure reproduces. */
    fuzz_state ^= fuzz_state >> 12;
    fuzz_state ^= fuzz_state << 25;
    fuzz_state ^= fuzz_state >> 27;
    return (uint32_t)((fuzz_state * 2685821657736338717u) >> 32);
}

/* A copy of seed with 1 to 4 random edits: overwrite, insert, delete, truncate. */
static char *mutate(const char *seed) {
    static const char tokens[] = "{}[]\",:\\0123456789.eE+-tfnul aA%&=?/#\x80\xc3\xbf\xff\x01";
    size_t len = strlen(seed);
    char *buffer = malloc(len + 32);
    if (!buffer) return NULL;
    memcpy(buffer, seed, len + 1);
    int edits = 1 + (int)(fuzz_next() % 4);
    for (int e = 0; e < edits && len > 0; e++) {
        size_t at = fuzz_next() % len;
        char c = tokens[fuzz_next() % (sizeof tokens - 1)];
        switch (fuzz_next() % 5) {
        case 0: buffer[at] = c; break;
        case 4: /* an escaped NUL, the one escape cJSON cannot keep in a C string */
            memmove(buffer + at + 6, buffer + at, len - at + 1);
            memcpy(buffer + at, "\\u0000", 6);
            len += 6;
            break;
        case 1:
            memmove(buffer + at + 1, buffer + at, len - at + 1);
            buffer[at] = c;
            len++;
            break;
        case 2:
            memmove(buffer + at, buffer + at + 1, len - at);
            len--;
            break;
        default:
            buffer[at] = '\0';
            len = at;
            break;
        }
        if (len + 8 >= strlen(seed) + 32) break;
    }
    return buffer;
}

static void fuzz(int rounds) {
    static const struct { OneArg fn; const char *seed; } one[] = {
        {payhandoff_pos_build_url, "{\"transaction\":\"devolucion\",\"usertoken\":\"t\",\"identifier\":\"i\",\"amount\":\"10.50\","
                                   "\"urlScheme\":\"myapp://\",\"transactionId\":\"720371\"}"},
        {payhandoff_pos_refund_check, "{\"sale\":{\"transactionid\":\"T\",\"amount\":10000,\"approved_at\":1764518400,"
                                      "\"bp_version\":\"4.3.24\"},\"amount\":\"40.00\",\"now\":1764518500}"},
        {payhandoff_checkout_build_request, "{\"kind\":\"payments\",\"api_key\":\"sk\",\"return_url\":\"fixapp://cb\","
                                            "\"nonce\":\"0123456789abcdef0123\",\"fields\":{\"amount\":100,\"x\":[1,{\"y\":null}]}}"},
        {payhandoff_checkout_parse_session, "{\"kind\":\"cards\",\"status\":201,\"body\":{\"data\":{\"registration\":"
                                            "{\"checkout_url\":\"https://c.example.com/r/1\"}}}}"},
        {payhandoff_checkout_parse_confirmation, "{\"type\":\"payment.confirmed\",\"data\":{\"payment_id\":\"pay_1\","
                                                 "\"amount\":\"100.00\",\"confirmed_at\":1764518400}}"},
        {parse_result_extras, "{\"result\":\"aprobada\",\"identifier\":\"ord-1~0123456789abcdef\",\"amount\":\"100.00\","
                              "\"transactionid\":\"7\",\"UserToken\":\"t\",\"reference\":\"a%26b\"}"},
    };
    enum { ONE = sizeof one / sizeof one[0] };
    int ok[ONE];
    for (size_t i = 0; i < ONE; i++) ok[i] = 1;
    for (int round = 0; round < rounds; round++) {
        for (size_t i = 0; i < ONE; i++) {
            char *input = mutate(one[i].seed);
            char *out = NULL;
            int before = failed;
            Result r = finish("fuzz", one[i].fn(input, &out), &out);
            if (failed != before || r.doc == NULL) ok[i] = 0;
            cJSON_Delete(r.doc);
            free(input);
        }
    }
    for (size_t i = 0; i < ONE; i++) check(ok[i], "fuzz: function %zu broke the contract on a mutated input", i);

    int url_ok = 1;
    for (int round = 0; round < rounds; round++) {
        char *url = mutate("myapp://result=aprobada&amount=100.00&identifier=ord-1~0123456789abcdef&reference=a%26b+c&transactionid=7");
        char *callback = mutate("fixapp://checkout-callback/ph_0123456789abcdef0123?status=completed&card_id=card_x");
        char *out = NULL;
        int before = failed;
        Result a = finish("fuzz url", payhandoff_pos_parse_response(url,
            "{\"urlScheme\":\"myapp\",\"identifier\":\"ord-1\",\"token\":\"0123456789abcdef\"}", &out), &out);
        Result b = finish("fuzz callback", payhandoff_checkout_parse_callback(callback,
            "{\"kind\":\"cards\",\"return_url\":\"fixapp://checkout-callback\",\"nonce\":\"0123456789abcdef0123\"}", &out), &out);
        if (failed != before || !a.doc || !b.doc) url_ok = 0;
        cJSON_Delete(a.doc);
        cJSON_Delete(b.doc);
        free(url);
        free(callback);
    }
    check(url_ok, "fuzz: URL parsers broke the contract on a mutated URL");

    /* A coordinator fed mutated events and URLs, snapshotted and restored along the way. */
    payhandoff_coordinator *h = NULL;
    char *out = NULL;
    if (payhandoff_coordinator_new(NULL, &h, &out) != 0) {
        check(0, "fuzz: coordinator_new");
        payhandoff_string_free(out);
        return;
    }
    payhandoff_string_free(out);
    static const char *const events[] = {
        "{\"type\":\"checkout.start\",\"flow_id\":\"c1\",\"kind\":\"cards\",\"return_url\":\"fixapp://cb\","
        "\"nonce\":\"0123456789abcdef0123\",\"now\":1796054400000}",
        "{\"type\":\"checkout.session\",\"flow_id\":\"c1\",\"session\":{\"kind\":\"cards\",\"checkout_url\":\"https://c.example.com/r\"},\"now\":1796054401000}",
        "{\"type\":\"checkout.browser_opened\",\"flow_id\":\"c1\",\"now\":1796054402000}",
        "{\"type\":\"pos.start\",\"flow_id\":\"p1\",\"now\":1796054400000,\"token\":\"0123456789abcdef\",\"request\":"
        "{\"transaction\":\"venta\",\"usertoken\":\"t\",\"identifier\":\"o1\",\"amount\":\"1.00\",\"urlScheme\":\"myapp\"}}",
        "{\"type\":\"pos.result\",\"flow_id\":\"p1\",\"now\":1796054405000,\"extras\":{\"result\":\"aprobada\","
        "\"identifier\":\"o1~0123456789abcdef\",\"amount\":\"1.00\",\"transactionid\":\"8\"}}",
        "{\"type\":\"pos.launched\",\"flow_id\":\"p1\",\"now\":1796054401000}",
        "{\"type\":\"app.foregrounded\",\"now\":1796054402000}",
        "{\"type\":\"tick\",\"now\":1796054409000}",
        "{\"type\":\"flow.remove\",\"flow_id\":\"p1\",\"now\":1796054409000}",
        "{\"type\":\"flow.remove\",\"flow_id\":\"c1\",\"now\":1796054409000,\"give_up\":true}",
    };
    int coordinator_ok = 1;
    for (int round = 0; round < rounds; round++) {
        const char *seed = events[fuzz_next() % (sizeof events / sizeof events[0])];
        char *event = round % 3 == 0 ? NULL : mutate(seed);
        int before = failed;
        out = NULL;
        Result r = finish("fuzz send", payhandoff_coordinator_send(h, event ? event : seed, &out), &out);
        cJSON_Delete(r.doc);
        free(event);
        char *url = mutate(round % 2 ? "fixapp://cb/ph_0123456789abcdef0123?status=completed&card_id=card_1"
                                     : "myapp://result=aprobada&identifier=o1~0123456789abcdef&amount=1.00&transactionid=9");
        out = NULL;
        r = finish("fuzz url", payhandoff_coordinator_handle_url(h, url, 1796054403000 + round, &out), &out);
        cJSON_Delete(r.doc);
        free(url);
        if (round % 50 == 49) {
            char *snapshot = NULL;
            if (payhandoff_coordinator_snapshot(h, &snapshot) == 0) {
                char *damaged = mutate(snapshot);
                payhandoff_coordinator *other = NULL;
                out = NULL;
                r = finish("fuzz restore", payhandoff_coordinator_restore(damaged, &other, &out), &out);
                if ((r.status == 0) != (other != NULL)) coordinator_ok = 0;
                cJSON_Delete(r.doc);
                payhandoff_coordinator_free(other);
                free(damaged);
                payhandoff_coordinator *restored = NULL;
                out = NULL;
                r = finish("fuzz restore exact", payhandoff_coordinator_restore(snapshot, &restored, &out), &out);
                if (r.status != 0 || restored == NULL) coordinator_ok = 0;
                cJSON_Delete(r.doc);
                if (restored) {
                    payhandoff_coordinator_free(h);
                    h = restored;
                }
            }
            payhandoff_string_free(snapshot);
        }
        if (failed != before) coordinator_ok = 0;
    }
    payhandoff_coordinator_free(h);
    check(coordinator_ok, "fuzz: the coordinator broke the contract on mutated events, URLs or snapshots");
}

/* Declared for Swift in include/payhandoff_harness.h (not included here: the harness includes
   only payhandoff.h, cJSON and libc). */
int32_t payhandoff_harness_run(const char *vectors_root, int32_t *passed_count, int32_t *failed_count);

int32_t payhandoff_harness_run(const char *vectors_root, int32_t *passed_count, int32_t *failed_count) {
    passed = 0;
    failed = 0;
    skipped = 0;
    printf("payhandoff %s, ABI %d\n", payhandoff_version(), (int)payhandoff_abi_version());
    run_folder(vectors_root, "pos");
    run_folder(vectors_root, "checkout");
    run_folder(vectors_root, "flows");
    run_folder(vectors_root, "hostile");
    hostile_stateless();
    hostile_direct();
    hostile_coordinator();
    if (!getenv("PAYHANDOFF_HARNESS_NO_THREADS")) threads(vectors_root); /* scripts/valgrind_harness_loop.sh */
    fuzz(5000);
    printf("vectors skipped: %d (not passed: each is listed above as a skip: line with its reason)\n", skipped);
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    if (passed_count) *passed_count = passed;
    if (failed_count) *failed_count = failed;
    return failed == 0 ? 0 : 1;
}

#ifndef PAYHANDOFF_HARNESS_NO_MAIN
int main(int argc, char **argv) {
    return (int)payhandoff_harness_run(argc > 1 ? argv[1] : "Tests/Vectors", NULL, NULL);
}
#endif
