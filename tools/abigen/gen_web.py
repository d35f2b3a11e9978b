"""The web glue: the module's exports as TypeScript sees them, and one typed forwarder per function."""
from gen_android import wrap_call
from table import GENERATED_NOTICE, camel, doc_comment

WASM_TYPES = {"json": "number", "url": "number", "handle": "number", "handle_out": "number", "time_ms": "bigint",
              "out": "number", "owned_string": "number"}


def _argument(p):
    name = camel(p["name"])
    return {"json": f"{{ name: '{p['name']}', text: {name} }}", "url": f"{{ name: '{p['name']}', text: {name} }}",
            "time_ms": f"{{ name: '{p['name']}', int64: {name} }}", "handle": f"{{ pointer: {name} }}",
            "handle_out": "'handle_out'"}[p["role"]]


def _param(p):
    name = camel(p["name"])
    if p["role"] in ("handle", "time_ms"):
        return f"{name}: number"
    return f"{name}: string{' | null' if p.get('nullable') else ''}"


def calls_ts(table):
    exports = []
    for f in table.functions:
        ret = {"abi_version": "number", "static_string": "number", "status": "number", None: "void"}[f.returns.get("role")]
        params = ", ".join(f"{p['name']}: {WASM_TYPES[p['role']]}" for p in f.params)
        exports += [doc_comment(f.summary, "  "), f"  {f.name}({params}): {ret};"]
    forwarders = []
    for f in table.exposed():
        if f.kind in ("stateless", "handle-creating", "handle"):
            params = ", ".join(["library: WasmLibrary"] + [_param(p) for p in f.inputs()])
            args = "[" + ", ".join(_argument(p) for p in f.params if p["role"] != "out") + "]"
            body = wrap_call("return library.call", [f"'{f.name}'", args], ";", "  ")
            forwarders.append(f"{doc_comment(f'{f.name}: {f.summary}')}\nexport function {f.method}({params}): CResult {{\n{body}\n}}")
        elif f.kind == "free":
            p = f.params[0]
            forwarders.append(f"{doc_comment(f'{f.name}: {f.summary}')}\nexport function {f.method}(library: WasmLibrary, "
                              f"{_param(p)}): void {{\n  library.release('{f.name}', {camel(p['name'])});\n}}")
    return "\n".join([
        f"// {GENERATED_NOTICE}.", "//",
        "// The C functions of include/payhandoff.h as the glue calls them (library.ts says how arguments",
        "// cross): the module's payhandoff_* exports as WebAssembly sees them (pointers are numbers, int64_t",
        "// a bigint), and one typed forwarder per function that writes a document or frees a handle.",
        "import type { CResult, WasmLibrary } from './library.js';", "",
        "/** The payhandoff_* exports of payhandoff.wasm (abi/payhandoff.json). */",
        "export interface CExports {"] + exports + ["}", "", "\n\n".join(forwarders)]) + "\n"
