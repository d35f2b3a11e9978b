// Compiles cpp/NativePayHandoffModule.h against the codegen stand-in (stub-rn/) and calls each
// method once through the real bridge: the TurboModule's forwarding is what the Node-API addon
// runs. The JSI integration itself is not, and cannot be, tested here.
#include "NativePayHandoffModule.h"

#include <cstdio>

int main() {
    using facebook::react::NativePayHandoffModule;
    facebook::jsi::Runtime rt;
    NativePayHandoffModule module(std::make_shared<facebook::react::CallInvoker>());
    int failed = 0;
    int checked = 0;
    auto check = [&failed, &checked](bool ok, const char *what) {
        checked++;
        if (!ok) {
            failed++;
            std::printf("FAIL: %s\n", what);
        }
    };
    check(module.abiVersion(rt) == payhandoff::bridge::headerAbiVersion(), "abiVersion");
    check(module.version(rt) == payhandoff::bridge::version(), "version");
    check(module.posBuildUrl(rt, "{}").rfind("{\"status\":3,", 0) == 0, "posBuildUrl");
    check(module.posParseResponse(rt, "myapp://result=aprobada", "{\"urlScheme\":\"myapp\"}").rfind("{\"status\":", 0) == 0, "posParseResponse");
    check(module.posParseResult(rt, "{\"result\":7}", "{}").rfind("{\"status\":2,", 0) == 0, "posParseResult");
    check(module.posRefundCheck(rt, "null").rfind("{\"status\":", 0) == 0, "posRefundCheck");
    check(module.checkoutBuildRequest(rt, "null").rfind("{\"status\":", 0) == 0, "checkoutBuildRequest");
    check(module.checkoutParseSession(rt, "null").rfind("{\"status\":", 0) == 0, "checkoutParseSession");
    check(module.checkoutParseCallback(rt, "fixapp://x", "null").rfind("{\"status\":", 0) == 0, "checkoutParseCallback");
    check(module.checkoutParseConfirmation(rt, "null").rfind("{\"status\":", 0) == 0, "checkoutParseConfirmation");
    std::string created = module.coordinatorCreate(rt, std::nullopt);
    double id = std::stod(created.substr(created.rfind(':') + 1));
    check(created.rfind("{\"status\":0,", 0) == 0 && id >= 1, "coordinatorCreate");
    check(module.coordinatorSend(rt, id, "{\"type\":\"tick\",\"now\":0}").find("\"accepted\"") != std::string::npos, "coordinatorSend");
    check(module.coordinatorHandleUrl(rt, id, "x://y", 0).find("\"not_ours\"") != std::string::npos, "coordinatorHandleUrl");
    std::string snapshot = module.coordinatorSnapshot(rt, id);
    check(snapshot.rfind("{\"status\":0,", 0) == 0, "coordinatorSnapshot");
    std::string restored = module.coordinatorRestore(rt, snapshot.substr(19, snapshot.size() - 20));
    check(restored.rfind("{\"status\":0,", 0) == 0, "coordinatorRestore");
    check(module.coordinatorDispose(rt, id) && !module.coordinatorDispose(rt, id), "coordinatorDispose");
    check(module.coordinatorDispose(rt, std::stod(restored.substr(restored.rfind(':') + 1))), "dispose restored");
    check(std::string(NativePayHandoffModule::kModuleName) == "PayHandoff", "module name");
    std::printf("module forwarding: %d passed, %d failed\n", checked - failed, failed);
    return failed == 0 ? 0 : 1;
}
