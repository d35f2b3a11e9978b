// bridge_test.cpp — the C++ bridge's own test, against the real library: envelopes, the NUL
// and id guards, the registry's lifetime rules and concurrent use of many coordinators.
// Prints "N passed, M failed" and exits non-zero on any failure.
#include "PayHandoffBridge.h"

#include <atomic>
#include <limits>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace bridge = payhandoff::bridge;

static int passed = 0;
static int failed = 0;

static void check(bool ok, const char *what, const std::string &detail = std::string()) {
    if (ok) {
        passed++;
    } else {
        failed++;
        std::printf("FAIL: %s %s\n", what, detail.c_str());
    }
}

static bool startsWith(const std::string &text, const std::string &prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

static bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

/// The id in {"status":0,"body":...,"coordinator":N}, or -1.
static double idOf(const std::string &reply) {
    std::string key = "\"coordinator\":";
    std::size_t at = reply.rfind(key);
    return at == std::string::npos ? -1 : std::stod(reply.substr(at + key.size()));
}

static const char *const sale =
    R"({"transaction":"venta","usertoken":"tok_1","identifier":"ord-1","amount":"100.00","urlScheme":"myapp"})";

int main() {
    check(bridge::abiVersion() == bridge::headerAbiVersion(), "abi version agrees with the header");
    check(!bridge::version().empty(), "version is not empty");

    // Envelopes carry the C ABI's status and document verbatim.
    std::string r = bridge::posBuildUrl(sale);
    check(startsWith(r, "{\"status\":0,\"body\":{") && contains(r, "billpocket://transaction=venta"), "pos build ok", r);
    r = bridge::posBuildUrl(R"({"transaction":"venta","amount":"100.001"})");
    check(startsWith(r, "{\"status\":3,\"body\":{\"code\":\"validation\""), "pos build validation", r);
    r = bridge::checkoutParseSession("not json");
    check(startsWith(r, "{\"status\":2,") && contains(r, "invalid_json"), "invalid json", r);
    r = bridge::posParseResponse("myapp://result=aprobada&amount=100.00&transactionid=7&identifier=ord-1",
                                 R"({"urlScheme":"myapp","identifier":"ord-1"})");
    check(startsWith(r, "{\"status\":0,") && contains(r, "\"approved\""), "pos parse ok", r);
    r = bridge::posParseResult(R"({"result":"aprobada","amount":"100.00","transactionid":"7","identifier":"ord-1~0123456789abcdef"})",
                               R"({"identifier":"ord-1","token":"0123456789abcdef"})");
    check(startsWith(r, "{\"status\":0,") && contains(r, "\"approved\""), "pos result extras ok", r);
    r = bridge::posParseResult(R"({"result":"aprobada","amount":100})", "{}");
    check(startsWith(r, "{\"status\":2,") && contains(r, "\"field\":\"amount\""), "pos result extras: a number is not text", r);

    // U+0000 cannot cross a C string: refused with the parameter named, never truncated.
    std::string nulUrl("myapp://result=aprobada\0&x=1", 28);
    r = bridge::posParseResponse(nulUrl, R"({"urlScheme":"myapp"})");
    check(contains(r, "\"status\":1,") && contains(r, "\"field\":\"url\""), "NUL in url refused", r);
    r = bridge::posBuildUrl(std::string("{\"a\":\"\0\"}", 9));
    check(contains(r, "\"status\":1,") && contains(r, "\"field\":\"request_json\""), "NUL in json refused", r);
    r = bridge::posParseResult(std::string("{\"a\":\"\0\"}", 9), "{}");
    check(contains(r, "\"status\":1,") && contains(r, "\"field\":\"extras_json\""), "NUL in extras refused", r);
    r = bridge::posParseResult("{}", std::string("{\"a\":\"\0\"}", 9));
    check(contains(r, "\"status\":1,") && contains(r, "\"field\":\"options_json\""), "NUL in options refused", r);

    // Coordinator registry: ids, unknown ids, dispose, restore.
    std::size_t before = bridge::coordinatorCount();
    r = bridge::coordinatorCreate(std::nullopt);
    double id = idOf(r);
    check(startsWith(r, "{\"status\":0,") && id >= 1, "create with defaults", r);
    check(bridge::coordinatorCount() == before + 1, "create registers");
    r = bridge::coordinatorCreate(std::string(R"({"pos_grace_ms": -1})"));
    check(!startsWith(r, "{\"status\":0,") && !contains(r, "coordinator\":"), "bad config: no id", r);
    check(bridge::coordinatorCount() == before + 1, "bad config registers nothing");

    r = bridge::coordinatorSend(
        id, std::string(R"({"type":"pos.start","flow_id":"p1","now":1796054400000,"token":"0123456789abcdef","request":)") + sale + "}");
    check(startsWith(r, "{\"status\":0,") && contains(r, "\"accepted\""), "send pos.start", r);
    r = bridge::coordinatorSend(id, R"({"type":"tick"})");
    check(startsWith(r, "{\"status\":3,") && contains(r, "\"field\":\"now\""), "invalid event", r);
    // The POS app echoes the identifier it was sent: the app's reference and the flow's token.
    const std::string answer = "myapp://result=aprobada&amount=100.00&transactionid=7&identifier=ord-1~0123456789abcdef";
    r = bridge::coordinatorHandleUrl(id, answer, 1796054460000.0);
    check(contains(r, "\"outcome\":\"accepted\"") && contains(r, "\"approved\""), "answer accepted", r);
    r = bridge::coordinatorHandleUrl(id, answer, 1796054461000.0);
    check(contains(r, "\"outcome\":\"duplicate\""), "same answer is duplicate", r);
    r = bridge::coordinatorHandleUrl(id, answer, 1.5);
    check(contains(r, "\"status\":1,") && contains(r, "now_ms"), "fractional now refused", r);
    r = bridge::coordinatorHandleUrl(id, answer, 1e300);
    check(contains(r, "\"status\":3,") && contains(r, "now_ms"), "huge now: the library's own range error", r);

    r = bridge::coordinatorSnapshot(id);
    check(startsWith(r, "{\"status\":0,\"body\":{") && contains(r, "\"approved\""), "snapshot", r);
    std::string snapshot = r.substr(std::string("{\"status\":0,\"body\":").size());
    snapshot.pop_back();
    r = bridge::coordinatorRestore(snapshot);
    double restored = idOf(r);
    check(startsWith(r, "{\"status\":0,") && restored > id, "restore gets a new id", r);
    r = bridge::coordinatorHandleUrl(restored, answer, 1796054462000.0);
    check(contains(r, "\"outcome\":\"duplicate\""), "restored coordinator remembers the answer", r);

    check(bridge::coordinatorDispose(id), "dispose");
    check(!bridge::coordinatorDispose(id), "dispose twice is false");
    r = bridge::coordinatorSnapshot(id);
    check(contains(r, "\"status\":1,") && contains(r, "\"field\":\"coordinator\""), "disposed id refused", r);
    for (double bad : {0.0, -1.0, 2.5, 1e300, std::numeric_limits<double>::quiet_NaN()}) {
        r = bridge::coordinatorSend(bad, R"({"type":"tick","now":0})");
        check(contains(r, "\"status\":1,") && contains(r, "\"field\":\"coordinator\""), "bad id refused", r);
        check(!bridge::coordinatorDispose(bad), "bad id not disposed");
    }
    check(bridge::coordinatorDispose(restored), "dispose restored");
    r = bridge::coordinatorRestore(R"({"version": 99, "config": {}, "flows": [], "ledger": []})");
    check(contains(r, "\"status\":9,") && !contains(r, "coordinator\":"), "newer snapshot refused", r);
    check(bridge::coordinatorCount() == before, "everything disposed");

    // Threads: one shared coordinator (calls serialized by its mutex) and one own coordinator
    // per thread, while others are created and disposed.
    r = bridge::coordinatorCreate(std::nullopt);
    double shared = idOf(r);
    std::atomic<int> problems{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; t++) {
        threads.emplace_back([t, shared, &problems] {
            for (int i = 0; i < 200; i++) {
                std::string flow = "t" + std::to_string(t) + "-" + std::to_string(i);
                std::string event = R"({"type":"checkout.start","flow_id":")" + flow +
                                    R"(","now":1796054400000,"kind":"cards","return_url":"fixapp://checkout-callback"})";
                if (!contains(bridge::coordinatorSend(shared, event), "\"accepted\"")) problems++;
                std::string own = bridge::coordinatorCreate(std::nullopt);
                double ownId = idOf(own);
                if (!contains(bridge::coordinatorSend(ownId, event), "\"accepted\"")) problems++;
                if (!startsWith(bridge::coordinatorSnapshot(ownId), "{\"status\":0,")) problems++;
                if (!bridge::coordinatorDispose(ownId)) problems++;
                // The checkout still waits for its session: removing it means giving it up.
                std::string remove = R"({"type":"flow.remove","flow_id":")" + flow + R"(","now":1796054400001,"give_up":true})";
                if (!contains(bridge::coordinatorSend(shared, remove), "\"outcome\":\"accepted\"")) problems++;
            }
        });
    }
    for (auto &thread : threads) thread.join();
    check(problems.load() == 0, "threads: every call answered as expected", std::to_string(problems.load()));
    r = bridge::coordinatorSnapshot(shared);
    check(contains(r, "\"flows\":[]"), "threads: shared coordinator consistent", r.substr(0, 200));
    check(bridge::coordinatorDispose(shared), "dispose shared");
    check(bridge::coordinatorCount() == before, "threads: no coordinator left open");

    std::printf("bridge: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
