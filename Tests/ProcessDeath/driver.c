/*
 * Process-death driver (issue 9): runs one flow through the C ABI the way an app does, saving the
 * coordinator's snapshot after every transition, and can kill itself with SIGKILL at any point.
 *
 *   driver pos|checkout STATE_FILE [KILL_POINT]
 *
 * STATE_FILE holds {"next": step, "snapshot": {...}, "journal": [...]}: the step to perform next,
 * the snapshot after the last completed step and, per completed step, its outcome and effects
 * ("flow_id:type"). It is replaced atomically (write STATE_FILE.tmp, fsync, rename) after every
 * step, as an app would persist on the "persist" effect. When STATE_FILE exists the driver
 * restores the coordinator from it (payhandoff_coordinator_restore) and continues with "next";
 * otherwise it starts with payhandoff_coordinator_new.
 *
 * Kill points, numbered from the start of the flow: for step k, 4k+0 before the event is sent,
 * 4k+1 after it was handled but before anything is written, 4k+2 after STATE_FILE.tmp is written
 * but before the rename, 4k+3 after the rename. With KILL_POINT p the driver raises SIGKILL when
 * it reaches point p (points of steps already completed are never reached again).
 *
 * At the end it prints the journal and the final state of every flow, one per line; the test
 * (Tests/ProcessDeath/kill_test.py) compares that with an uninterrupted run.
 *
 * The checkout flow lets the library generate its nonce (checkout.start without "nonce"); the
 * deep link carries the nonce of the *saved* flow, as the browser returns the return_url that
 * was registered. So a kill between start and its save makes a new nonce, and the flow must
 * still complete the same way.
 */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "payhandoff.h"

#define T0 1796054400000LL

static long kill_point = -1;

static void point(long p) {
    if (p == kill_point) {
        fflush(stdout);
        raise(SIGKILL);
    }
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "driver: %s: %s\n", what, detail ? detail : "");
    exit(2);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) die("read", path);
    text[n] = 0;
    fclose(f);
    return text;
}

static void write_atomically(const char *path, const char *text, long step) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) die("open", tmp);
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len || fsync(fd) != 0) die("write", tmp);
    close(fd);
    point(4 * step + 2);
    if (rename(tmp, path) != 0) die("rename", tmp);
}

/* The nonce of flow c1 in the coordinator's snapshot (the registered return_url's). */
static char *saved_nonce(payhandoff_coordinator *h) {
    char *out = NULL;
    if (payhandoff_coordinator_snapshot(h, &out) != 0) die("snapshot", out);
    cJSON *snap = cJSON_Parse(out);
    payhandoff_string_free(out);
    char *nonce = NULL;
    const cJSON *flow;
    cJSON_ArrayForEach(flow, cJSON_GetObjectItemCaseSensitive(snap, "flows")) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(flow, "id");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(flow, "nonce");
        if (cJSON_IsString(id) && strcmp(id->valuestring, "c1") == 0 && cJSON_IsString(n)) nonce = strdup(n->valuestring);
    }
    cJSON_Delete(snap);
    if (!nonce) die("no nonce for c1", NULL);
    return nonce;
}

/* Performs step `k` of `flow`; returns the answer text (caller frees), or NULL past the end. */
static char *perform(const char *flow, long k, payhandoff_coordinator *h) {
    char event[1024], url[512];
    const char *ev = NULL;
    const char *link = NULL;
    long long now = T0 + k * 61000;
    if (strcmp(flow, "pos") == 0) {
        switch (k) {
        case 0: ev = "{\"type\":\"pos.start\",\"flow_id\":\"p1\",\"request\":{\"transaction\":\"venta\",\"usertoken\":\"tok_1\","
                     "\"identifier\":\"ord-1\",\"amount\":\"100.00\",\"urlScheme\":\"myapp\"},\"now\":%lld}"; break;
        case 1: ev = "{\"type\":\"pos.launched\",\"flow_id\":\"p1\",\"now\":%lld}"; break;
        case 2: link = "myapp://result=aprobada&identifier=ord-1&amount=100.00&transactionid=720371&authorization=A1"; break;
        case 3: link = "myapp://result=aprobada&identifier=ord-1&amount=100.00&transactionid=720371&authorization=A1"; break;
        case 4: ev = "{\"type\":\"pos.start\",\"flow_id\":\"p2\",\"sale_flow_id\":\"p1\",\"request\":{\"transaction\":\"devolucion\","
                     "\"usertoken\":\"tok_1\",\"identifier\":\"ref-1\",\"urlScheme\":\"myapp\",\"transactionId\":\"720371\","
                     "\"amount\":\"40.00\"},\"now\":%lld}"; break;
        case 5: ev = "{\"type\":\"pos.launched\",\"flow_id\":\"p2\",\"now\":%lld}"; break;
        case 6: link = "myapp://result=aprobada&identifier=ref-1&amount=40.00&transactionid=990001"; break;
        case 7: ev = "{\"type\":\"tick\",\"now\":%lld}"; break;
        default: return NULL;
        }
    } else {
        switch (k) {
        case 0: ev = "{\"type\":\"checkout.start\",\"flow_id\":\"c1\",\"kind\":\"payments\",\"return_url\":\"fixapp://checkout-callback\","
                     "\"now\":%lld}"; break;
        case 1: ev = "{\"type\":\"checkout.session\",\"flow_id\":\"c1\",\"session\":{\"kind\":\"payments\","
                     "\"checkout_url\":\"https://pay.example.com/p/1\",\"payment_id\":\"pay_123\"},\"now\":%lld}"; break;
        case 2: ev = "{\"type\":\"checkout.browser_opened\",\"flow_id\":\"c1\",\"now\":%lld}"; break;
        case 3: case 4: {
            char *nonce = saved_nonce(h);
            snprintf(url, sizeof url, "fixapp://checkout-callback?status=completed&payment_id=pay_123&ph_nonce=%s", nonce);
            free(nonce);
            link = url;
            break;
        }
        case 5: ev = "{\"type\":\"checkout.confirmation\",\"flow_id\":\"c1\",\"event\":{\"type\":\"payment.confirmed\","
                     "\"data\":{\"payment_id\":\"pay_123\",\"amount\":\"100.00\"}},\"now\":%lld}"; break;
        case 6: ev = "{\"type\":\"tick\",\"now\":%lld}"; break;
        default: return NULL;
        }
    }
    char *out = NULL;
    int32_t status;
    if (ev) {
        snprintf(event, sizeof event, ev, now);
        status = payhandoff_coordinator_send(h, event, &out);
    } else {
        status = payhandoff_coordinator_handle_url(h, link, now, &out);
    }
    if (status != 0) die("step refused", out);
    return out;
}

int main(int argc, char **argv) {
    if (argc < 3) die("usage", "driver pos|checkout STATE_FILE [KILL_POINT]");
    const char *flow = argv[1], *path = argv[2];
    if (argc > 3) kill_point = strtol(argv[3], NULL, 10);

    payhandoff_coordinator *h = NULL;
    char *out = NULL;
    long next = 0;
    cJSON *journal = NULL;
    char *saved = read_all(path);
    if (saved) {
        cJSON *state = cJSON_Parse(saved);
        free(saved);
        if (!state) die("state file is not JSON", path);
        next = (long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(state, "next"));
        char *snapshot = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(state, "snapshot"));
        if (payhandoff_coordinator_restore(snapshot, &h, &out) != 0) die("restore", out);
        free(snapshot);
        journal = cJSON_DetachItemFromObjectCaseSensitive(state, "journal");
        cJSON_Delete(state);
    } else {
        if (payhandoff_coordinator_new(NULL, &h, &out) != 0) die("new", out);
        journal = cJSON_CreateArray();
    }
    payhandoff_string_free(out);
    out = NULL;

    for (long k = next;; k++) {
        point(4 * k + 0);
        char *answer = perform(flow, k, h);
        if (!answer) break;
        point(4 * k + 1);
        /* The journal entry: outcome and "flow_id:type" of every effect. */
        cJSON *doc = cJSON_Parse(answer);
        payhandoff_string_free(answer);
        char line[2048];
        const cJSON *outcome = cJSON_GetObjectItemCaseSensitive(doc, "outcome");
        snprintf(line, sizeof line, "step %ld: %s", k, cJSON_IsString(outcome) ? outcome->valuestring : "?");
        const cJSON *transition, *effect;
        cJSON_ArrayForEach(transition, cJSON_GetObjectItemCaseSensitive(doc, "transitions")) {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(transition, "flow_id");
            cJSON_ArrayForEach(effect, cJSON_GetObjectItemCaseSensitive(transition, "effects")) {
                const cJSON *type = cJSON_GetObjectItemCaseSensitive(effect, "type");
                size_t used = strlen(line);
                snprintf(line + used, sizeof line - used, " %s:%s", cJSON_IsString(id) ? id->valuestring : "?",
                         cJSON_IsString(type) ? type->valuestring : "?");
            }
        }
        cJSON_Delete(doc);
        cJSON_AddItemToArray(journal, cJSON_CreateString(line));

        if (payhandoff_coordinator_snapshot(h, &out) != 0) die("snapshot", out);
        cJSON *state = cJSON_CreateObject();
        cJSON_AddNumberToObject(state, "next", (double)(k + 1));
        cJSON_AddItemToObject(state, "snapshot", cJSON_Parse(out));
        cJSON_AddItemReferenceToObject(state, "journal", journal);
        payhandoff_string_free(out);
        out = NULL;
        char *text = cJSON_PrintUnformatted(state);
        cJSON_Delete(state);
        write_atomically(path, text, k);
        free(text);
        point(4 * k + 3);
    }

    const cJSON *entry;
    cJSON_ArrayForEach(entry, journal) printf("%s\n", entry->valuestring);
    if (payhandoff_coordinator_snapshot(h, &out) != 0) die("snapshot", out);
    cJSON *snap = cJSON_Parse(out);
    payhandoff_string_free(out);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(snap, "flows")) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(f, "id");
        const cJSON *state = cJSON_GetObjectItemCaseSensitive(f, "state");
        printf("final %s: %s\n", id->valuestring, state->valuestring);
    }
    cJSON_Delete(snap);
    cJSON_Delete(journal);
    payhandoff_coordinator_free(h);
    return 0;
}
