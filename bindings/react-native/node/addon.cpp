// addon.cpp — Node-API test addon: the TurboModule's methods (src/NativePayHandoff.ts) over the
// same C++ bridge (cpp/PayHandoffBridge.h), so `node --test` runs the TypeScript API against
// the real core exactly as React Native would through cpp/NativePayHandoffModule.h.
// Argument conversion only: a wrong JavaScript type is a TypeError, as codegen's JSI glue would
// throw; everything else is the bridge's answer.
#include "PayHandoffBridge.h"

#include <node_api.h>

#include <exception>
#include <optional>
#include <string>

namespace bridge = payhandoff::bridge;

namespace {

struct Args {
    napi_value values[3];
    size_t count = 3;
};

bool getArgs(napi_env env, napi_callback_info info, Args &args, size_t needed) {
    if (napi_get_cb_info(env, info, &args.count, args.values, nullptr, nullptr) != napi_ok) return false;
    if (args.count < needed) {
        napi_throw_type_error(env, nullptr, "PayHandoff: missing argument");
        return false;
    }
    return true;
}

bool toString(napi_env env, napi_value value, std::string &out) {
    size_t length = 0;
    if (napi_get_value_string_utf8(env, value, nullptr, 0, &length) != napi_ok) {
        napi_throw_type_error(env, nullptr, "PayHandoff: expected a string");
        return false;
    }
    out.assign(length + 1, '\0');
    if (napi_get_value_string_utf8(env, value, &out[0], out.size(), &length) != napi_ok) return false;
    out.resize(length); // NULs inside the JavaScript string are kept: the bridge refuses them
    return true;
}

bool toNumber(napi_env env, napi_value value, double &out) {
    if (napi_get_value_double(env, value, &out) != napi_ok) {
        napi_throw_type_error(env, nullptr, "PayHandoff: expected a number");
        return false;
    }
    return true;
}

napi_value fromString(napi_env env, const std::string &text) {
    napi_value result = nullptr;
    napi_create_string_utf8(env, text.data(), text.size(), &result);
    return result;
}

/// Runs `body`, turning a C++ exception (out of memory) into a JavaScript error.
template <typename Body> napi_value guarded(napi_env env, Body body) {
    try {
        return body();
    } catch (const std::exception &e) {
        napi_throw_error(env, nullptr, e.what());
    } catch (...) {
        napi_throw_error(env, nullptr, "PayHandoff: unexpected C++ exception");
    }
    return nullptr;
}

using OneString = std::string (*)(const std::string &);
using TwoStrings = std::string (*)(const std::string &, const std::string &);

template <OneString fn> napi_value oneString(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        std::string a;
        if (!getArgs(env, info, args, 1) || !toString(env, args.values[0], a)) return nullptr;
        return fromString(env, fn(a));
    });
}

template <TwoStrings fn> napi_value twoStrings(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        std::string a, b;
        if (!getArgs(env, info, args, 2) || !toString(env, args.values[0], a) || !toString(env, args.values[1], b)) {
            return nullptr;
        }
        return fromString(env, fn(a, b));
    });
}

napi_value abiVersion(napi_env env, napi_callback_info) {
    napi_value result = nullptr;
    napi_create_int32(env, bridge::abiVersion(), &result);
    return result;
}

napi_value version(napi_env env, napi_callback_info) {
    return guarded(env, [&]() -> napi_value { return fromString(env, bridge::version()); });
}

napi_value coordinatorCreate(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        if (!getArgs(env, info, args, 0)) return nullptr;
        std::optional<std::string> config;
        napi_valuetype type = napi_undefined;
        if (args.count > 0 && napi_typeof(env, args.values[0], &type) != napi_ok) return nullptr;
        if (args.count > 0 && type != napi_null && type != napi_undefined) {
            std::string text;
            if (!toString(env, args.values[0], text)) return nullptr;
            config = text;
        }
        return fromString(env, bridge::coordinatorCreate(config));
    });
}

napi_value coordinatorSend(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        double id;
        std::string event;
        if (!getArgs(env, info, args, 2) || !toNumber(env, args.values[0], id) || !toString(env, args.values[1], event)) {
            return nullptr;
        }
        return fromString(env, bridge::coordinatorSend(id, event));
    });
}

napi_value coordinatorHandleUrl(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        double id, now;
        std::string url;
        if (!getArgs(env, info, args, 3) || !toNumber(env, args.values[0], id) || !toString(env, args.values[1], url) ||
            !toNumber(env, args.values[2], now)) {
            return nullptr;
        }
        return fromString(env, bridge::coordinatorHandleUrl(id, url, now));
    });
}

napi_value coordinatorSnapshot(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        double id;
        if (!getArgs(env, info, args, 1) || !toNumber(env, args.values[0], id)) return nullptr;
        return fromString(env, bridge::coordinatorSnapshot(id));
    });
}

napi_value coordinatorDispose(napi_env env, napi_callback_info info) {
    return guarded(env, [&]() -> napi_value {
        Args args;
        double id;
        if (!getArgs(env, info, args, 1) || !toNumber(env, args.values[0], id)) return nullptr;
        napi_value result = nullptr;
        napi_get_boolean(env, bridge::coordinatorDispose(id), &result);
        return result;
    });
}

/// Not part of the TurboModule: lets the tests check that every coordinator was disposed.
napi_value openCoordinators(napi_env env, napi_callback_info) {
    napi_value result = nullptr;
    napi_create_double(env, static_cast<double>(bridge::coordinatorCount()), &result);
    return result;
}

napi_value init(napi_env env, napi_value exports) {
    const napi_property_descriptor methods[] = {
        {"abiVersion", nullptr, abiVersion, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"version", nullptr, version, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"posBuildUrl", nullptr, oneString<bridge::posBuildUrl>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"posParseResponse", nullptr, twoStrings<bridge::posParseResponse>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"posParseResult", nullptr, twoStrings<bridge::posParseResult>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"posRefundCheck", nullptr, oneString<bridge::posRefundCheck>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"checkoutBuildRequest", nullptr, oneString<bridge::checkoutBuildRequest>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"checkoutParseSession", nullptr, oneString<bridge::checkoutParseSession>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"checkoutParseCallback", nullptr, twoStrings<bridge::checkoutParseCallback>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"checkoutParseConfirmation", nullptr, oneString<bridge::checkoutParseConfirmation>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"coordinatorCreate", nullptr, coordinatorCreate, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"coordinatorRestore", nullptr, oneString<bridge::coordinatorRestore>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"coordinatorSend", nullptr, coordinatorSend, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"coordinatorHandleUrl", nullptr, coordinatorHandleUrl, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"coordinatorSnapshot", nullptr, coordinatorSnapshot, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"coordinatorDispose", nullptr, coordinatorDispose, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
        {"openCoordinators", nullptr, openCoordinators, nullptr, nullptr, nullptr, napi_default, nullptr},
    };
    if (napi_define_properties(env, exports, sizeof methods / sizeof methods[0], methods) != napi_ok) return nullptr;
    return exports;
}

} // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
