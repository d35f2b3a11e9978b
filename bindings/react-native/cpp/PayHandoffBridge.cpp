// PayHandoffBridge.cpp — see PayHandoffBridge.h. Forwards to the C ABI; parses and validates
// nothing the library parses and validates itself. The helpers and the registry are here; the
// forwarding functions are generated from abi/payhandoff.json into PayHandoffBridgeCalls.inc,
// included below.
#include "PayHandoffBridge.h"

#include "payhandoff.h"

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace payhandoff {
namespace bridge {
namespace {

/// Takes ownership of a string the library wrote to *out.
struct LibraryString {
    char *text = nullptr;
    LibraryString() = default;
    LibraryString(const LibraryString &) = delete;
    LibraryString &operator=(const LibraryString &) = delete;
    ~LibraryString() { payhandoff_string_free(text); }
};

std::string errorDocument(const char *code, const char *field, const std::string &message) {
    // code, field and message are the bridge's own ASCII text without quotes or backslashes.
    std::string doc = "{\"code\":\"";
    doc += code;
    doc += "\",\"field\":";
    if (field) {
        doc += '"';
        doc += field;
        doc += '"';
    } else {
        doc += "null";
    }
    doc += ",\"message\":\"";
    doc += message;
    doc += "\"}";
    return doc;
}

std::string envelope(int32_t status, const std::string &body, const std::string &extra = std::string()) {
    std::string text = "{\"status\":" + std::to_string(status) + ",\"body\":" + body;
    text += extra;
    text += '}';
    return text;
}

/// The envelope of a C ABI call: its status and *out, verbatim.
std::string envelope(int32_t status, LibraryString &out, const std::string &extra = std::string()) {
    if (!out.text) {
        return envelope(kOutOfMemory, errorDocument("out_of_memory", nullptr, "the library could not allocate its answer"));
    }
    return envelope(status, std::string(out.text), extra);
}

std::string invalidArgument(const char *field, const std::string &message) {
    return envelope(PAYHANDOFF_ERR_INVALID_ARGUMENT, errorDocument("invalid_argument", field, message));
}

/// A C string ends at the first NUL byte: a parameter holding U+0000 cannot be passed whole.
bool holdsNul(const std::string &text) { return text.find('\0') != std::string::npos; }

std::string nulRefused(const char *field) {
    return invalidArgument(field, "contains U+0000, which a C string cannot carry");
}

/// Epoch milliseconds from a JavaScript number: false when it is not an integer. Integers beyond
/// int64_t are as far out of the library's range (1970...9999) as its extremes: those are passed,
/// and the library answers its own validation error.
bool toEpochMs(double value, int64_t &ms) {
    if (!std::isfinite(value) || std::floor(value) != value) return false;
    if (value >= 9223372036854775808.0) {
        ms = std::numeric_limits<int64_t>::max();
    } else if (value < -9223372036854775808.0) {
        ms = std::numeric_limits<int64_t>::min();
    } else {
        ms = static_cast<int64_t>(value);
    }
    return true;
}

std::string notEpochMs(const char *field) {
    return invalidArgument(field, "must be an integer number of epoch milliseconds");
}

// ---- Coordinator registry --------------------------------------------------------------------

/// One open coordinator. Calls lock `mutex`; the handle is freed when the last holder (the
/// registry or a call in flight) lets go.
struct Entry {
    std::mutex mutex;
    payhandoff_coordinator *handle;
    explicit Entry(payhandoff_coordinator *h) : handle(h) {}
    Entry(const Entry &) = delete;
    Entry &operator=(const Entry &) = delete;
    ~Entry() { payhandoff_coordinator_free(handle); }
};

struct Registry {
    std::mutex mutex;
    std::unordered_map<int64_t, std::shared_ptr<Entry>> entries;
    int64_t nextId = 1;
};

Registry &registry() {
    static Registry *shared = new Registry(); // never destroyed: safe to use during exit
    return *shared;
}

constexpr double kMaxId = 9007199254740991.0; // 2^53 - 1, the largest exact JavaScript integer

std::shared_ptr<Entry> lookup(double id) {
    if (!(id >= 1 && id <= kMaxId) || std::floor(id) != id) return nullptr;
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto found = r.entries.find(static_cast<int64_t>(id));
    return found == r.entries.end() ? nullptr : found->second;
}

std::string notOpen(double id) {
    std::string shown = std::isfinite(id) && std::floor(id) == id && std::fabs(id) <= kMaxId
                            ? std::to_string(static_cast<int64_t>(id))
                            : std::string("that is not an integer");
    return invalidArgument("coordinator", "no open coordinator has id " + shown + " (disposed, or never created)");
}

/// Registers a handle the library created and answers the envelope with its id.
std::string adopt(int32_t status, payhandoff_coordinator *handle, LibraryString &out) {
    if (status != PAYHANDOFF_OK || !handle) {
        payhandoff_coordinator_free(handle);
        return envelope(status, out);
    }
    std::shared_ptr<Entry> entry;
    try {
        entry = std::make_shared<Entry>(handle);
    } catch (...) {
        payhandoff_coordinator_free(handle);
        throw;
    }
    int64_t id;
    {
        Registry &r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        id = r.nextId++;
        r.entries.emplace(id, std::move(entry));
    }
    return envelope(status, out, ",\"coordinator\":" + std::to_string(id));
}

} // namespace

// The functions of static and free C functions, by hand (they answer no envelope); the
// forwarding of every other one is generated from abi/payhandoff.json.

int32_t abiVersion() { return payhandoff_abi_version(); }

int32_t headerAbiVersion() { return PAYHANDOFF_ABI_VERSION; }

std::string version() {
    const char *text = payhandoff_version();
    return text ? std::string(text) : std::string();
}

bool coordinatorDispose(double id) {
    if (!(id >= 1 && id <= kMaxId) || std::floor(id) != id) return false;
    std::shared_ptr<Entry> released;
    {
        Registry &r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        auto found = r.entries.find(static_cast<int64_t>(id));
        if (found == r.entries.end()) return false;
        released = std::move(found->second);
        r.entries.erase(found);
    }
    // `released` goes out of scope here, outside the registry lock: the handle is freed now, or
    // by the call still running on it when that call finishes.
    return true;
}

#include "PayHandoffBridgeCalls.inc"

std::size_t coordinatorCount() {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.entries.size();
}

} // namespace bridge
} // namespace payhandoff
