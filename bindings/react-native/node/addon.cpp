// addon.cpp — Node-API test addon: the TurboModule's methods (src/NativePayHandoff.ts) over the
// same C++ bridge (cpp/PayHandoffBridge.h), so `node --test` runs the TypeScript API against
// the real core exactly as React Native would through cpp/NativePayHandoffModule.h.
// Argument conversion only: a wrong JavaScript type is a TypeError, as codegen's JSI glue would
// throw; everything else is the bridge's answer. The conversions are here; the methods, one per
// TurboModule method, are generated from abi/payhandoff.json into addon_methods.inc.
#include "PayHandoffBridge.h"

#include <node_api.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>

namespace bridge = payhandoff::bridge;

namespace {

/// The first N arguments of a call (count: how many were passed, possibly more than N).
template <size_t N> struct Args {
    napi_value values[N];
    size_t count = N;
};

template <size_t N> bool getArgs(napi_env env, napi_callback_info info, Args<N> &args, size_t needed) {
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

/// Argument `index` as text, or std::nullopt when it is absent, null or undefined.
template <size_t N>
bool toOptionalString(napi_env env, const Args<N> &args, size_t index, std::optional<std::string> &out) {
    if (args.count <= index) return true;
    napi_valuetype type = napi_undefined;
    if (napi_typeof(env, args.values[index], &type) != napi_ok) return false;
    if (type == napi_null || type == napi_undefined) return true;
    std::string text;
    if (!toString(env, args.values[index], text)) return false;
    out = std::move(text);
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

napi_value fromInt32(napi_env env, int32_t value) {
    napi_value result = nullptr;
    napi_create_int32(env, value, &result);
    return result;
}

napi_value fromBool(napi_env env, bool value) {
    napi_value result = nullptr;
    napi_get_boolean(env, value, &result);
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

#include "addon_methods.inc"

/// Not part of the TurboModule: lets the tests check that every coordinator was disposed.
napi_value openCoordinators(napi_env env, napi_callback_info) {
    napi_value result = nullptr;
    napi_create_double(env, static_cast<double>(bridge::coordinatorCount()), &result);
    return result;
}

napi_value init(napi_env env, napi_value exports) {
    if (napi_define_properties(env, exports, sizeof kMethods / sizeof kMethods[0], kMethods) != napi_ok) return nullptr;
    const napi_property_descriptor testOnly[] = {
        {"openCoordinators", nullptr, openCoordinators, nullptr, nullptr, nullptr, napi_default, nullptr},
    };
    if (napi_define_properties(env, exports, 1, testOnly) != napi_ok) return nullptr;
    return exports;
}

} // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
