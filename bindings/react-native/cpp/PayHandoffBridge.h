// PayHandoffBridge.h — the React Native binding's C++17 bridge over include/payhandoff.h.
//
// No React Native, JSI or Node dependency: strings in, one JSON string out. The TurboModule
// (cpp/NativePayHandoffModule.h) and the Node-API test addon (node/addon.cpp) both forward
// every call here unchanged, so what the tests run is what the app runs. The functions, one per
// C function, are declared in PayHandoffBridgeCalls.h, generated from abi/payhandoff.json
// (tools/abigen) with the forwarding PayHandoffBridge.cpp includes.
//
// Every function except abiVersion/version/coordinatorDispose returns an envelope
//
//     {"status": <int>, "body": <document>}
//
// where status and body are exactly the C ABI's status and *out text (the result document on
// status 0, {"code", "field", "message"} otherwise). coordinatorCreate/coordinatorRestore add
// "coordinator": <id> on success. The bridge only adds what the C ABI cannot say itself:
//   - status 1 (invalid_argument) for a string holding U+0000, which a C string cannot carry
//     (field: the parameter), for a coordinator id that is not open (field "coordinator"), and
//     for a now_ms that is not an integer (field "now_ms");
//   - status -1 (out_of_memory) when the library could not allocate its answer (*out NULL).
//
// Coordinators live in a registry keyed by integer ids (1, 2, 3, ...; never reused), so
// JavaScript never holds a pointer: an unknown or disposed id is an error, not undefined
// behaviour. Ids are JavaScript numbers (doubles): only integers 1...2^53-1 can name one.
// coordinatorCreate takes std::nullopt for the defaults (the C ABI's NULL); coordinatorDispose
// releases a coordinator (after calls in flight on it finish) and answers false when the id is
// not open. The registry is thread-safe, and every call on one coordinator holds that
// coordinator's own mutex, as payhandoff.h requires; distinct coordinators run concurrently.
#pragma once

#include "PayHandoffBridgeCalls.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace payhandoff {
namespace bridge {

/// The bridge's own status for "the library could not allocate its answer".
constexpr int32_t kOutOfMemory = -1;

/// PAYHANDOFF_ABI_VERSION of the header the bridge was compiled with.
int32_t headerAbiVersion();

/// How many coordinators are open (for tests and leak checks).
std::size_t coordinatorCount();

} // namespace bridge
} // namespace payhandoff
