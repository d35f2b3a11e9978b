"""The Android binding: Native.kt, the JNI functions, Vocabulary.kt, Versions.kt, the fake ABI."""
from table import GENERATED_NOTICE, camel, constant_name, doc_comment

JNI_PREFIX = "Java_com_payhandoff_Native_"
KOTLIN_TYPES = {"json": "ByteArray?", "url": "ByteArray?", "handle": "Long", "handle_out": "LongArray", "time_ms": "Long",
                "out": "IntArray"}
JNI_TYPES = {"json": "jbyteArray", "url": "jbyteArray", "handle": "jlong", "handle_out": "jlongArray", "time_ms": "jlong",
             "out": "jintArray"}


def wrap_call(head, args, tail, indent, width=120):
    """`head(args...)tail` on one line, or with the arguments wrapped under it."""
    one = f"{head}({', '.join(args)}){tail}"
    if len(indent) + len(one) <= width:
        return indent + one
    lines, line = [], indent + head + "("
    for i, arg in enumerate(args):
        piece = arg + (", " if i < len(args) - 1 else ")" + tail)
        if len(line) + len(piece.rstrip()) > width and line.strip():
            lines.append(line.rstrip())
            line = indent + " " * 8
        line += piece
    lines.append(line)
    return "\n".join(lines)


def kotlin_param(p):
    name = "status" if p["role"] == "out" else camel(p["name"])
    return f"{name}: {KOTLIN_TYPES[p['role']]}"


def kotlin_return(f):
    role = f.returns.get("role")
    return {"abi_version": ": Int", "static_string": ": ByteArray?", "status": ": ByteArray?", None: ""}[role]


def jni_names(table):
    return [JNI_PREFIX + f.method for f in table.exposed()]


def native_kt(table):
    lines = [f"// {GENERATED_NOTICE}.", "package com.payhandoff", "", "/**",
             " * The JNI functions (src/main/cpp/payhandoff_jni_calls.c): one per function of include/payhandoff.h.",
             " * Strings cross as UTF-8 byte arrays; a call that writes a document stores its status in `status[0]`",
             " * and returns the document's bytes. Handles are `Long`s. Use [PayHandoff], not this.",
             " */", "internal object Native {", "    init {", "        PayHandoff.loadLibraries()", "    }", ""]
    for f in table.exposed():
        lines.append(doc_comment(f"{f.name}: {f.summary}", "    "))
        lines.append(wrap_call(f"@JvmStatic external fun {f.method}", [kotlin_param(p) for p in f.params],
                               kotlin_return(f), "    "))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _jni_function(f, handles):
    role = f.returns.get("role")
    ret = {"abi_version": "jint", "static_string": "jbyteArray", "status": "jbyteArray", None: "void"}[role]
    params = ["JNIEnv *env", "jclass cls"] + [f"{JNI_TYPES[p['role']]} {'status' if p['role'] == 'out' else p['name']}"
                                              for p in f.params]
    out = [doc_comment(f"{f.name}: {f.summary}", style="c"),
           wrap_call(f"JNIEXPORT {ret} JNICALL {JNI_PREFIX}{f.method}", params, " {", "")]
    body = []
    if role == "abi_version":
        body += ["(void)env;", "(void)cls;", f"return {f.name}();"]
    elif role == "static_string":
        body += ["(void)cls;", f"return jni_static_string(env, {f.name}());"]
    elif role is None:
        p = f.params[0]
        body += ["(void)env;", "(void)cls;", f"{f.name}(({p['handle_type']} *)(intptr_t){p['name']});"]
    else:
        texts = [p for p in f.params if p["role"] in ("json", "url")]
        body += ["(void)cls;", "int failed = 0;"]
        for i, p in enumerate(texts):
            copy = f"jni_copy_bytes(env, {p['name']}, &failed)"
            body.append(f"char *{p['name']}_text = {copy if i == 0 else 'failed ? NULL : ' + copy};")
        creating = next((p for p in f.params if p["role"] == "handle_out"), None)
        if creating:
            body.append(f"{creating['handle_type']} *created = NULL;")
        body.append("char *out = NULL;")
        args = []
        for p in f.params:
            args.append({"json": f"{p['name']}_text", "url": f"{p['name']}_text", "out": "&out", "handle_out": "&created",
                         "time_ms": f"(int64_t){p['name']}",
                         "handle": f"({p.get('handle_type')} *)(intptr_t){p['name']}"}[p["role"]])
        body.append(wrap_call(f"int32_t result = failed ? 0 : {f.name}", args, ";", "", width=116))
        body += [f"free({p['name']}_text);" for p in texts]
        body.append("if (failed) return NULL;")
        if creating:
            free = f"{handles[creating['handle_type']]['free']}(created);"
            body += [f"if (!jni_set_handle(env, {creating['name']}, created)) {{", f"    {free}",
                     "    payhandoff_string_free(out);", "    return NULL;", "}"]
        body.append("return jni_finish(env, result, out, status);")
    out += ["\n".join("    " + line if line else "" for piece in body for line in piece.split("\n")), "}"]
    return "\n".join(out)


def jni_calls_c(table):
    head = f"""/*
 * {GENERATED_NOTICE}.
 *
 * The JNI functions of com.payhandoff.Native (Native.kt, generated from the same table), one per
 * function of include/payhandoff.h: each copies its byte arrays into C strings, calls the function
 * and hands the document back. How strings, statuses and handles cross is written once, in the
 * helpers of payhandoff_jni.c.
 */
#include "payhandoff_jni.h"

#include <stdint.h>
#include <stdlib.h>
"""
    return head + "".join("\n" + _jni_function(f, table.handles) + "\n" for f in table.exposed())


def fake_abi_c(table):
    lines = [f"/* {GENERATED_NOTICE}.",
             "   A stand-in libpayhandoff.so that reports another ABI version, for AbiMismatchTest: the binding",
             "   must refuse it at load with a clear message. Every function of the header exists (so the shim",
             "   links and loads); none but payhandoff_abi_version is ever reached. */",
             '#include "payhandoff.h"', "", "#include <stddef.h>", "",
             "static int32_t refuse(char **out) {", "    if (out) *out = NULL;",
             "    return PAYHANDOFF_ERR_INVALID_ARGUMENT;", "}", ""]
    for f in table.functions:
        params = [f"{p['type']}{'' if p['type'].endswith('*') else ' '}{p['name']}" for p in f.params] or ["void"]
        lines.append(wrap_call(f"{f.returns['type']}{'' if f.returns['type'].endswith('*') else ' '}{f.name}", params, " {", ""))
        for p in f.params:
            if p["role"] == "handle_out":
                lines.append(f"    if ({p['name']}) *{p['name']} = NULL;")
            elif p["role"] != "out":
                lines.append(f"    (void){p['name']};")
        role = f.returns.get("role")
        if role == "abi_version":
            lines.append("    return PAYHANDOFF_ABI_VERSION + 1;")
        elif role == "static_string":
            lines.append('    return "0.0.0-fake";')
        elif role == "status":
            lines.append("    return refuse(out);")
        lines.append("}")
    return "\n".join(lines) + "\n"


def vocabulary_kt(table):
    parts = [f"// {GENERATED_NOTICE}.", "package com.payhandoff"]
    for v in table.vocabularies.values():
        doc = doc_comment(f"{v.doc} (abi/payhandoff.json; in the core: {v.source})")
        if v.codes is not None:
            entries = [f"    {constant_name(w)}({n})" for w, n in v.codes.items()]
            head, field = f"enum class {v.name}(val code: Int) {{", "code"
            finder = ["        /** The constant whose number is [code], or null for a status this binding does not know. */",
                      f"        @JvmStatic fun of(code: Int): {v.name}? = values().firstOrNull {{ it.code == code }}"]
        else:
            entries = []
            for w in v.words:
                if w in v.binding_only:
                    entries.append("    /** The bindings' own: never in a document of the C ABI. */")
                entries.append(f'    {constant_name(w)}("{w}")')
            head = f"enum class {v.name}(val wire: String) {{"
            finder = ["        /** The constant whose wire word is [wire], or null for a word this binding does not know. */",
                      f"        @JvmStatic fun of(wire: String): {v.name}? = values().firstOrNull {{ it.wire == wire }}"]
        body = []
        constants = [e for e in entries if not e.lstrip().startswith("/**")]
        for e in entries:
            if e is constants[-1]:
                body.append(e + ";")
            elif e.lstrip().startswith("/**"):
                body.append(e)
            else:
                body.append(e + ",")
        parts.append("\n".join([doc, head] + body + ["", "    companion object {"] + finder + ["    }", "}"]))
    return "\n\n".join(parts) + "\n"


def versions_kt(table):
    limits = "".join(f"\n{doc_comment(limit.comment, '    ')}\n    const val {limit.constant}: Int = {limit.value}\n"
                     for limit in table.limits)
    return f"""// {GENERATED_NOTICE}.
package com.payhandoff

/**
 * The versions and input limits of abi/payhandoff.json this binding was generated with
 * (PayHandoff.ABI_VERSION reads [ABI], PayHandoff.MAX_SNAPSHOT_BYTES [MAX_SNAPSHOT_BYTES], ...).
 */
internal object Versions {{
    /** `PAYHANDOFF_ABI_VERSION` of the include/payhandoff.h this binding was written against. */
    const val ABI: Int = {table.abi_version}

    /** The PayHandoff release this binding belongs to (the AAR's version; payhandoff_version() of its library). */
    const val LIBRARY: String = "{table.library_version}"
{limits}}}
"""
