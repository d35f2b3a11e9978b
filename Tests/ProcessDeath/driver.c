/*
 * Process-death driver (issue 9): runs one flow through the C ABI the way an app does, saving the
 * coordinator's snapshot after every transition, and can kill itself with SIGKILL at any point.
 *
 *   driver pos|checkout STATE_FILE [KILL_POINT]
 *
 * STATE_FILE holds {"next": step, "snapshot": {...}, "journal": [...], "handed_out": {...}}: the
 * step to perform next, the snapshot after the last completed step, per completed step its outcome
 * and effects ("flow_id:type"), and what the effects handed to the outside world (the return URL
 * of create_session, the identifier of open_pos_app's URL). It is replaced atomically (write
 * STATE_FILE.tmp, fsync, rename) after every step, as an app would persist on the "persist"
 * effect. When STATE_FILE exists the driver restores the coordinator from it
 * (payhandoff_coordinator_restore) and continues with "next"; otherwise it starts with
 * payhandoff_coordinator_new.
 *
 * Kill points, numbered from the start of the flow: for step k, 4k+0 before the event is sent,
 * 4k+1 after it was handled but before anything is written, 4k+2 after STATE_FILE.tmp is written
 * but before the rename, 4k+3 after the rename. With KILL_POINT p the driver raises SIGKILL when
 * it reaches point p (points of steps already completed are never reached again).
 *
 * At the end it prints the journal, the final state of every flow and the refund ledger, one per
 * line; the test (Tests/ProcessDeath/kill_test.py) compares that with an uninterrupted run.
 *
 * The starts carry fixed correlation secrets (checkout.start "nonce", pos.start "token"), so every
 * run hands out the same URLs and the outputs compare. The outside world answers only what the
 * effects handed it: the gateway redirects to the create_session return URL (the nonce rides in
 * it) with its own query appended, and the POS app echoes the identifier of the URL that opened
 * it (identifier~token), so a flow is answered only once its start was performed.
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

/* What the effects handed out, by flow id: {"c1": return URL, "p1": identifier as sent}. */
static cJSON *handed_out;

/* Records what an answer's effects hand to the gateway (create_session's return URL) and to the
   POS app (the identifier parameter of open_pos_app's URL, as sent). */
static void record_handed_out(const cJSON *answer) {
    const cJSON *transition, *effect;
    cJSON_ArrayForEach(transition, cJSON_GetObjectItemCaseSensitive(answer, "transitions")) {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(transition, "flow_id"));
        cJSON_ArrayForEach(effect, cJSON_GetObjectItemCaseSensitive(transition, "effects")) {
            const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(effect, "type"));
            char value[512] = "";
            if (type && strcmp(type, "create_session") == 0) {
                snprintf(value, sizeof value, "%s", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(effect, "return_url")));
            } else if (type && strcmp(type, "open_pos_app") == 0) {
                const char *url = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(effect, "url"));
                const char *at = url ? strstr(url, "&identifier=") : NULL;
                if (at) snprintf(value, sizeof value, "%.*s", (int)strcspn(at + 12, "&"), at + 12);
            }
            if (!id || !*value) continue;
            cJSON_DeleteItemFromObjectCaseSensitive(handed_out, id);
            cJSON_AddStringToObject(handed_out, id, value);
        }
    }
}

static const char *handed_out_to(const char *flow_id) {
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(handed_out, flow_id));
    if (!value) die("nothing was handed out for", flow_id);
    return value;
}

/* Performs step `k` of `flow`; returns the answer text (caller frees), or NULL past the end. */
static char *perform(const char *flow, long k, payhandoff_coordinator *h) {
    char event[1024], url[1024];
    const char *ev = NULL;
    const char *link = NULL;
    long long now = T0 + k * 61000;
    if (strcmp(flow, "pos") == 0) {
        switch (k) {
        case 0: ev = "{\"type\":\"pos.start\",\"flow_id\":\"p1\",\"token\":\"9f86d081884c7d659a2feaa0c55ad015\",\"request\":"
                     "{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"ord-1\",\"amount\":\"100.00\","
                     "\"urlScheme\":\"myapp\"},\"now\":%lld}"; break;
        case 1: ev = "{\"type\":\"pos.launched\",\"flow_id\":\"p1\",\"now\":%lld}"; break;
        case 2: case 3: /* the POS app's answer, delivered twice */
            snprintf(url, sizeof url, "myapp://result=aprobada&identifier=%s&amount=100.00&transactionid=720371&authorization=A1",
                     handed_out_to("p1"));
            link = url;
            break;
        case 4: ev = "{\"type\":\"pos.start\",\"flow_id\":\"p2\",\"sale_flow_id\":\"p1\",\"token\":\"60303ae22b998861bce3b28f33eec1be\","
                     "\"request\":{\"transaction\":\"devolucion\",\"usertoken\":\"tok_1\",\"identifier\":\"ref-1\","
                     "\"urlScheme\":\"myapp\",\"transactionId\":\"720371\",\"amount\":\"40.00\"},\"now\":%lld}"; break;
        case 5: ev = "{\"type\":\"pos.launched\",\"flow_id\":\"p2\",\"now\":%lld}"; break;
        case 6: /* Android: the refund's answer as result extras */
            snprintf(event, sizeof event, "{\"type\":\"pos.result\",\"flow_id\":\"p2\",\"extras\":{\"result\":\"aprobada\","
                     "\"identifier\":\"%s\",\"amount\":\"40.00\",\"transactionid\":\"990001\"},\"now\":%%lld}",
                     handed_out_to("p2"));
            ev = event;
            break;
        case 7: ev = "{\"type\":\"tick\",\"now\":%lld}"; break;
        default: return NULL;
        }
    } else {
        switch (k) {
        case 0: ev = "{\"type\":\"checkout.start\",\"flow_id\":\"c1\",\"kind\":\"payments\",\"return_url\":\"fixapp://checkout-callback\","
                     "\"nonce\":\"e3b0c44298fc1c149afbf4c8996fb924\",\"now\":%lld}"; break;
        case 1: ev = "{\"type\":\"checkout.session\",\"flow_id\":\"c1\",\"session\":{\"kind\":\"payments\","
                     "\"checkout_url\":\"https://pay.example.com/p/1\",\"payment_id\":\"pay_123\"},\"now\":%lld}"; break;
        case 2: ev = "{\"type\":\"checkout.browser_opened\",\"flow_id\":\"c1\",\"now\":%lld}"; break;
        case 3: case 4: /* the gateway's redirect to the return URL it was given, delivered twice */
            snprintf(url, sizeof url, "%s?status=completed&payment_id=pay_123", handed_out_to("c1"));
            link = url;
            break;
        case 5: ev = "{\"type\":\"checkout.confirmation\",\"flow_id\":\"c1\",\"event\":{\"type\":\"payment.confirmed\","
                     "\"data\":{\"payment_id\":\"pay_123\",\"amount\":\"100.00\"}},\"now\":%lld}"; break;
        case 6: ev = "{\"type\":\"tick\",\"now\":%lld}"; break;
        default: return NULL;
        }
    }
    char *out = NULL;
    int32_t status;
    if (ev) {
        char format[1024];
        snprintf(format, sizeof format, "%s", ev); /* ev may be event itself */
        snprintf(event, sizeof event, format, now);
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
        handed_out = cJSON_DetachItemFromObjectCaseSensitive(state, "handed_out");
        cJSON_Delete(state);
    } else {
        if (payhandoff_coordinator_new(NULL, &h, &out) != 0) die("new", out);
        journal = cJSON_CreateArray();
    }
    if (!handed_out) handed_out = cJSON_CreateObject();
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
        record_handed_out(doc);
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
        cJSON_AddItemReferenceToObject(state, "handed_out", handed_out);
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
    /* The refund ledger must survive too: a sale refunded twice, or not at all, would show here. */
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(snap, "ledger")) {
        const char *refunded = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "refunded"));
        printf("ledger %s: %s %s of %s%s%s\n", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "transactionid")),
               cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "operation")),
               cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "amount")),
               cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "flow_id")), refunded ? ", refunded " : "",
               refunded ? refunded : "");
    }
    cJSON_Delete(snap);
    cJSON_Delete(journal);
    cJSON_Delete(handed_out);
    payhandoff_coordinator_free(h);
    return 0;
}
