"""React Native: the TurboModule spec, the C++ bridge's forwarding, the TurboModule class, the
codegen stand-in the tests compile it against, the Node addon's methods, and the TypeScript
vocabulary and versions (which bindings/web shares)."""
from gen_android import wrap_call
from table import GENERATED_NOTICE, camel, doc_comment

# The handle types the bridge's registry (PayHandoffBridge.cpp) can hold.
REGISTRY_HANDLES = {"payhandoff_coordinator"}


class TableUnsupported(Exception):
    pass


def _check(table):
    for f in table.exposed():
        if f.handle_type and f.handle_type not in REGISTRY_HANDLES:
            raise TableUnsupported(f"{f.name}: the React Native bridge's registry holds {', '.join(REGISTRY_HANDLES)} only "
                                   "(extend the registry in bindings/react-native/cpp/PayHandoffBridge.cpp)")


def _arg_name(p):
    return "id" if p["role"] == "handle" else camel(p["name"])


def _returns(f, ts=False, module=False):
    role = f.returns.get("role")
    if ts:
        return {"abi_version": "number", "static_string": "string", "status": "string", None: "boolean"}[role]
    if module:
        return {"abi_version": "double", "static_string": "std::string", "status": "std::string", None: "bool"}[role]
    return {"abi_version": "int32_t", "static_string": "std::string", "status": "std::string", None: "bool"}[role]


def _ts_param(p):
    if p["role"] in ("handle", "time_ms"):
        return f"{_arg_name(p)}: number"
    return f"{_arg_name(p)}: string{' | null' if p.get('nullable') else ''}"


def _cpp_param(p, module=False):
    if p["role"] in ("handle", "time_ms"):
        return f"double {_arg_name(p)}"
    text = "std::optional<std::string>" if p.get("nullable") else "std::string"
    return f"{text} {_arg_name(p)}" if module else f"const {text} &{_arg_name(p)}"


def turbo_module_spec(table):
    _check(table)
    lines = [f"// {GENERATED_NOTICE}.", "//",
             "// The TurboModule spec (React Native codegen reads this file: see codegenConfig in package.json):",
             "// one synchronous method per function of include/payhandoff.h, JSON text in, JSON text out. A",
             "// method whose C function returns a status answers the bridge's envelope {\"status\": <C ABI status>,",
             "// \"body\": <the C ABI's *out document>} (cpp/PayHandoffBridge.h); one that creates a handle adds",
             "// \"coordinator\": <id>. Handles are integer ids: JavaScript never holds a pointer. Use the typed",
             "// API in ./index instead.",
             "import type { TurboModule } from 'react-native';", "import { TurboModuleRegistry } from 'react-native';", "",
             "export interface Spec extends TurboModule {"]
    for f in table.exposed():
        lines.append(doc_comment(f"{f.name}: {f.summary}", "  "))
        lines.append(f"  {f.rn_method}({', '.join(_ts_param(p) for p in f.inputs())}): {_returns(f, ts=True)};")
    lines += ["}", "", "export default TurboModuleRegistry.getEnforcing<Spec>('PayHandoff');"]
    return "\n".join(lines) + "\n"


def bridge_calls_h(table):
    _check(table)
    lines = [f"// {GENERATED_NOTICE}.", "//",
             "// The bridge's functions, one per function of include/payhandoff.h, as PayHandoffBridge.h (which",
             "// includes this file) describes them. The forwarding ones are defined in PayHandoffBridgeCalls.inc;",
             "// those of static and free functions by hand in PayHandoffBridge.cpp.",
             "#pragma once", "", "#include <cstdint>", "#include <optional>", "#include <string>", "",
             "namespace payhandoff {", "namespace bridge {", ""]
    for f in table.exposed():
        lines.append(doc_comment(f"{f.name}: {f.summary}", style="line"))
        lines.append(f"{_returns(f)} {f.rn_method}({', '.join(_cpp_param(p) for p in f.inputs())});")
    lines += ["", "} // namespace bridge", "} // namespace payhandoff"]
    return "\n".join(lines) + "\n"


def handwritten_bridge_functions(table):
    """The bridge functions PayHandoffBridge.cpp defines by hand (static and free kinds)."""
    return [f.rn_method for f in table.exposed() if f.kind in ("static", "free")]


def _bridge_definition(f):
    body = []
    handle = next((p for p in f.params if p["role"] == "handle"), None)
    if handle:
        body += ["std::shared_ptr<Entry> entry = lookup(id);", "if (!entry) return notOpen(id);"]
    args = []
    for p in f.params:
        name, role = _arg_name(p), p["role"]
        if role in ("json", "url"):
            if p.get("nullable"):
                body.append(f'if ({name} && holdsNul(*{name})) return nulRefused("{p["name"]}");')
                args.append(f"{name} ? {name}->c_str() : nullptr")
            else:
                body.append(f'if (holdsNul({name})) return nulRefused("{p["name"]}");')
                args.append(f"{name}.c_str()")
        elif role == "time_ms":
            body += [f"int64_t {p['name']};", f'if (!toEpochMs({name}, {p["name"]})) return notEpochMs("{p["name"]}");']
            args.append(p["name"])
        elif role == "handle":
            args.append("entry->handle")
        elif role == "handle_out":
            body.append(f"{p['handle_type']} *created = nullptr;")
            args.append("&created")
        elif role == "out":
            args.append("&out.text")
    body.append("LibraryString out;")
    call = wrap_call(f.name, args, ";", "", width=108)
    if handle:
        body += ["int32_t status;", "{", "    std::lock_guard<std::mutex> lock(entry->mutex);",
                 "\n".join("    " + line for line in ("status = " + call).split("\n")), "}", "return envelope(status, out);"]
    elif f.kind == "handle-creating":
        body += ["int32_t status = " + call, "return adopt(status, created, out);"]
    else:
        body += ["int32_t status = " + call, "return envelope(status, out);"]
    params = ", ".join(_cpp_param(p) for p in f.inputs())
    return "\n".join([doc_comment(f"{f.name}: {f.summary}", style="line"), f"{_returns(f)} {f.rn_method}({params}) {{"]
                     + ["\n".join("    " + line for line in piece.split("\n")) for piece in body] + ["}"])


def bridge_calls_inc(table):
    _check(table)
    head = [f"// {GENERATED_NOTICE}.", "//",
            "// The bridge's forwarding functions (declared in PayHandoffBridgeCalls.h), included by",
            "// PayHandoffBridge.cpp inside namespace payhandoff::bridge after the helpers they use: LibraryString,",
            "// holdsNul/nulRefused, toEpochMs/notEpochMs, the registry (lookup, notOpen, adopt) and envelope.",
            "// Each checks its arguments in order, calls the C function (holding the coordinator's mutex for",
            "// a handle) and answers the envelope."]
    defs = [_bridge_definition(f) for f in table.exposed() if f.kind in ("stateless", "handle-creating", "handle")]
    return "\n".join(head) + "\n\n" + "\n\n".join(defs) + "\n"


def turbo_module_h(table):
    _check(table)
    methods = []
    for f in table.exposed():
        params = ", ".join(["jsi::Runtime &"] + [_cpp_param(p, module=True) for p in f.inputs()])
        call = f"return payhandoff::bridge::{f.rn_method}({', '.join(_arg_name(p) for p in f.inputs())});"
        one = f"  {_returns(f, module=True)} {f.rn_method}({params}) {{ {call} }}"
        methods.append(doc_comment(f"{f.name}: {f.summary}", "  ", "line"))
        if len(one) <= 120:
            methods.append(one)
        else:
            methods += [f"  {_returns(f, module=True)} {f.rn_method}({params}) {{", f"    {call}", "  }"]
    return "\n".join([
        f"// {GENERATED_NOTICE}.", "//",
        "// NativePayHandoffModule.h \u2014 the TurboModule 'PayHandoff' (a pure C++ TurboModule, RN >= 0.77).",
        "//",
        "// NOT COMPILED IN THIS REPOSITORY'S TESTS against React Native: it needs React Native's headers and",
        "// the codegen output (cpp/test/module_forwarding_test.cpp compiles it against a stand-in). It is",
        "// nothing but forwarding: each method of src/NativePayHandoff.ts calls the same-named function of",
        "// PayHandoffBridge.h, which the tests run through the Node-API addon (node/addon.cpp) against the",
        "// real core.",
        "//",
        "// RNPayHandoffSpecJSI.h and NativePayHandoffCxxSpec are generated by React Native's codegen from",
        "// src/NativePayHandoff.ts (codegenConfig.name \"RNPayHandoffSpec\" in package.json). Registered on iOS",
        "// by ios/PayHandoffModuleProvider.mm, on Android by autolinking (react-native.config.js:",
        "// cxxModuleHeaderName \"NativePayHandoffModule\").",
        "#pragma once", "", "#include <RNPayHandoffSpecJSI.h>", "", '#include "PayHandoffBridge.h"', "",
        "#include <memory>", "#include <optional>", "#include <string>", "#include <utility>", "",
        "namespace facebook::react {", "",
        "class NativePayHandoffModule : public NativePayHandoffCxxSpec<NativePayHandoffModule> {", " public:",
        "  explicit NativePayHandoffModule(std::shared_ptr<CallInvoker> jsInvoker)",
        "      : NativePayHandoffCxxSpec(std::move(jsInvoker)) {}", ""] + methods + [
        "};", "", "} // namespace facebook::react"]) + "\n"


def codegen_stand_in_h(table):
    _check(table)
    asserts = []
    for f in table.exposed():
        types = ["R"] + ["double" if p["role"] in ("handle", "time_ms") else
                         ("std::optional<S>" if p.get("nullable") else "S") for p in f.inputs()]
        ret = {"double": "double", "std::string": "S", "bool": "bool"}[_returns(f, module=True)]
        asserts.append(f"    static_assert(std::is_same_v<decltype(&T::{f.rn_method}), {ret} (T::*)({', '.join(types)})>);")
    return "\n".join([
        f"// {GENERATED_NOTICE}.", "//",
        "// STAND-IN for React Native's codegen output, for one purpose only: compiling",
        "// cpp/NativePayHandoffModule.h here, so that its forwarding matches PayHandoffBridge.h (names,",
        "// argument and return types). It is not React Native and proves nothing about the JSI glue.",
        "// The real header declares NativePayHandoffCxxSpec<T> from src/NativePayHandoff.ts; this one",
        "// only checks, like codegen's spec does, that T has each method with a matching signature.",
        "#pragma once", "", "#include <memory>", "#include <optional>", "#include <string>", "#include <type_traits>", "",
        "namespace facebook {", "namespace jsi {", "class Runtime {};", "} // namespace jsi", "namespace react {",
        "class CallInvoker {};", "", "template <typename T> class NativePayHandoffCxxSpec {", " public:",
        '  static constexpr const char *kModuleName = "PayHandoff";', "", " protected:",
        "  explicit NativePayHandoffCxxSpec(std::shared_ptr<CallInvoker> jsInvoker) : jsInvoker_(std::move(jsInvoker)) {",
        "    using R = jsi::Runtime &;", "    using S = std::string;"] + asserts + [
        "  }", "", "  std::shared_ptr<CallInvoker> jsInvoker_;", "};", "} // namespace react", "} // namespace facebook"]) + "\n"


def _addon_wrapper(f):
    inputs = f.inputs()
    required = len(inputs)
    while required and inputs[required - 1].get("nullable"):
        required -= 1
    decls, reads = [], []
    for i, p in enumerate(inputs):
        name = _arg_name(p)
        if p["role"] in ("handle", "time_ms"):
            decls.append(f"double {name};")
            reads.append(f"!toNumber(env, args.values[{i}], {name})")
        elif p.get("nullable"):
            decls.append(f"std::optional<std::string> {name};")
            reads.append(f"!toOptionalString(env, args, {i}, {name})")
        else:
            decls.append(f"std::string {name};")
            reads.append(f"!toString(env, args.values[{i}], {name})")
    result = {"abi_version": "fromInt32", "static_string": "fromString", "status": "fromString", None: "fromBool"}[
        f.returns.get("role")]
    call = f"return {result}(env, bridge::{f.rn_method}({', '.join(_arg_name(p) for p in inputs)}));"
    body = []
    if inputs:
        body += [f"Args<{len(inputs)}> args;"] + decls
        condition = " || ".join([f"!getArgs(env, info, args, {required})"] + reads)
        if len(condition) + 16 <= 110:
            body.append(f"if ({condition}) return nullptr;")
        else:
            body += ["if (" + "\n    || ".join(condition.split(" || ")) + ") {", "    return nullptr;", "}"]
    body.append(call)
    info = " info" if inputs else ""  # unnamed when unused (-Wunused-parameter)
    lines = [doc_comment(f"{f.name}: {f.summary}", style="line"),
             f"napi_value {f.rn_method}(napi_env env, napi_callback_info{info}) {{",
             "    return guarded(env, [&]() -> napi_value {"]
    lines += ["\n".join("        " + line for line in piece.split("\n")) for piece in body]
    lines += ["    });", "}"]
    return "\n".join(lines)


def addon_methods_inc(table):
    _check(table)
    wrappers = [_addon_wrapper(f) for f in table.exposed()]
    entries = [f'    {{"{f.rn_method}", nullptr, {f.rn_method}, nullptr, nullptr, nullptr, napi_enumerable, nullptr}},'
               for f in table.exposed()]
    return "\n".join([
        f"// {GENERATED_NOTICE}.", "//",
        "// The Node-API addon's methods, one per TurboModule method (src/NativePayHandoff.ts): each converts",
        "// its JavaScript arguments as codegen's JSI glue would (a wrong type is a TypeError) and calls the",
        "// same-named bridge function. Included by node/addon.cpp after its conversion helpers (Args,",
        "// getArgs, toString, toOptionalString, toNumber, from*, guarded).", ""]
        + ["\n\n".join(wrappers), "", "/// Every TurboModule method, for napi_define_properties.",
           "const napi_property_descriptor kMethods[] = {"] + entries + ["};"]) + "\n"


def vocabulary_ts(table):
    parts = [f"// {GENERATED_NOTICE}.\n//\n"
             "// The closed word lists of the C ABI's documents as unions (types.ts uses them; bindings/web shares\n"
             "// this file), and the pinned status numbers."]
    for v in table.vocabularies.values():
        doc = doc_comment(f"{v.doc} (in the core: {v.source})")
        if v.codes is not None:
            entries = "\n".join(f"  {w}: {n}," for w, n in v.codes.items())
            parts.append(f"{doc}\nexport const {v.typescript.upper()} = {{\n{entries}\n}} as const;\n\n"
                         f"/** A status number of the C ABI. */\nexport type {v.typescript} = "
                         f"(typeof {v.typescript.upper()})[keyof typeof {v.typescript.upper()}];")
        else:
            words = "\n".join(f"  | '{w}'" for w in v.words)
            parts.append(f"{doc}\nexport type {v.typescript} =\n{words};")
    return "\n\n".join(parts) + "\n"


def versions_ts(table):
    limits = "".join(f"\n{doc_comment(limit.comment)}\nexport const {limit.constant} = {limit.value};\n"
                     for limit in table.limits)
    return f"""// {GENERATED_NOTICE}.
//
// The versions and input limits of abi/payhandoff.json (bindings/web shares this file).

/** The C ABI version (PAYHANDOFF_ABI_VERSION) this package was written for. */
export const ABI_VERSION = {table.abi_version};

/** The PayHandoff release this package belongs to (payhandoff_version() of the library built with it). */
export const LIBRARY_VERSION = '{table.library_version}';
{limits}"""
