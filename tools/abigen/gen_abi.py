"""The C side: abi/symbols.txt, the linker version scripts and the Swift version constants."""
from table import GENERATED_NOTICE


def symbols_txt(table):
    # A plain list, one name a line, no comment: harness.c, build-wasm.sh, check_android_libs.py,
    # the Makefile and the bindings' tests read it line by line.
    return "".join(name + "\n" for name in sorted(f.name for f in table.functions))


def _version_script(table, purpose, extra_names):
    names = sorted(f.name for f in table.functions) + extra_names
    lines = [f"/* {GENERATED_NOTICE}.", *("   " + line for line in purpose),
             f"   The node is named after the ABI version: a program linked against this library records",
             f"   PAYHANDOFF_{table.abi_version} with every symbol it uses, and a library of another ABI version cannot",
             f"   satisfy it. */",
             f"PAYHANDOFF_{table.abi_version} {{", "  global:"]
    lines += [f"    {name};" for name in names]
    lines += ["  local:", "    *;", "};"]
    return "\n".join(lines) + "\n"


def payhandoff_map(table):
    return _version_script(table, [
        "Linker version script of the Linux libraries (make lib): they export the C ABI of",
        "include/payhandoff.h and nothing else (no Swift runtime, no mangled Swift symbols), so",
        "bindings cannot come to depend on internals.",
    ], [])


def android_map(table, jni_names):
    return _version_script(table, [
        "Linker version script of the Android libraries (dist/android/jni/<ABI>/libpayhandoff.so): the",
        "C ABI of include/payhandoff.h and the JNI functions of com.payhandoff.Native, nothing else (no",
        "Swift symbols, no cJSON, no allocator shim).",
    ], sorted(jni_names))


def swift_versions(table):
    return f"""// {GENERATED_NOTICE}.

/// The versions of abi/payhandoff.json, the one place they are written: payhandoff_abi_version()
/// and payhandoff_version() answer these.
enum LibraryVersion {{
    /// `PAYHANDOFF_ABI_VERSION`: changes only when a function's signature or meaning changes incompatibly.
    static var abi: Int32 {{ {table.abi_version} }}
    /// The library version, stored NUL-terminated in the binary (payhandoff_version() hands out its address).
    static var text: StaticString {{ "{table.library_version}" }}
}}
"""
