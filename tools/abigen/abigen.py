#!/usr/bin/env python3
"""abigen: writes every binding's mechanical forwarding code from abi/payhandoff.json, the one
table of the C ABI, and checks what stays hand-written against it.

    tools/abigen/abigen.py --write        rewrite the generated files (make abi-generate)
    tools/abigen/abigen.py --check        fail, naming each file, when a generated file differs from
                                          what this writes now, or the header, the @_cdecl exports or a
                                          version mention disagrees with the table (make abigen-check)
    tools/abigen/abigen.py --get KEY      print library_version or abi_version (for scripts)

Python 3 standard library only. The table's fields and what is generated or checked, and why,
are in tools/abigen/README.md.
"""
import argparse
import difflib
import os
import re
import sys

import checks
import gen_abi
import gen_android
import gen_react_native
import gen_web
from table import Table, TableError

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TABLE = "abi/payhandoff.json"
ANDROID = "bindings/android/src"
RN = "bindings/react-native"
PACKAGE_JSONS = [f"{RN}/package.json", "bindings/web/package.json"]


def with_version(root, path, version):
    """package.json with its "version" member set (JSON has no comments: only that member is generated)."""
    text = checks.read(root, path)
    updated, count = re.subn(r'^(\s*"version"\s*:\s*")[^"]*(")', rf"\g<1>{version}\g<2>", text, count=1, flags=re.M)
    if count != 1:
        raise TableError(f"{path}: no \"version\" member to write")
    return updated


def outputs(table, root):
    """{path: text} of every file this tool writes."""
    files = {
        "abi/symbols.txt": gen_abi.symbols_txt(table),
        "abi/payhandoff.map": gen_abi.payhandoff_map(table),
        "abi/android.map": gen_abi.android_map(table, gen_android.jni_names(table)),
        "Sources/PayHandoffABI/LibraryVersion.swift": gen_abi.swift_versions(table),
        f"{ANDROID}/main/kotlin/com/payhandoff/Native.kt": gen_android.native_kt(table),
        f"{ANDROID}/main/kotlin/com/payhandoff/Vocabulary.kt": gen_android.vocabulary_kt(table),
        f"{ANDROID}/main/kotlin/com/payhandoff/Versions.kt": gen_android.versions_kt(table),
        f"{ANDROID}/main/cpp/payhandoff_jni_calls.c": gen_android.jni_calls_c(table),
        f"{ANDROID}/test/cpp/fake_abi.c": gen_android.fake_abi_c(table),
        f"{RN}/src/NativePayHandoff.ts": gen_react_native.turbo_module_spec(table),
        f"{RN}/src/vocabulary.ts": gen_react_native.vocabulary_ts(table),
        f"{RN}/src/versions.ts": gen_react_native.versions_ts(table),
        f"{RN}/cpp/PayHandoffBridgeCalls.h": gen_react_native.bridge_calls_h(table),
        f"{RN}/cpp/PayHandoffBridgeCalls.inc": gen_react_native.bridge_calls_inc(table),
        f"{RN}/cpp/NativePayHandoffModule.h": gen_react_native.turbo_module_h(table),
        f"{RN}/cpp/test/stub-rn/RNPayHandoffSpecJSI.h": gen_react_native.codegen_stand_in_h(table),
        f"{RN}/node/addon_methods.inc": gen_react_native.addon_methods_inc(table),
        "bindings/web/src/calls.ts": gen_web.calls_ts(table),
    }
    for path in PACKAGE_JSONS:
        files[path] = with_version(root, path, table.library_version)
    return files


def problems_of(table, root, generated):
    return (checks.check_header(table, root) + checks.check_swift(table, root, set(generated))
            + checks.check_versions(table, root, set(generated)))


def drift(root, generated):
    """One report per generated file that differs from what is on disk: its name and a short diff."""
    reports = []
    for path, text in generated.items():
        full = os.path.join(root, path)
        if not os.path.exists(full):
            reports.append(f"{path}: missing (make abi-generate writes it)")
            continue
        with open(full, encoding="utf-8") as f:
            current = f.read()
        if current != text:
            diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(), f"{path} (on disk)",
                                             f"{path} (from {TABLE})", n=1, lineterm=""))
            shown = diff[:24] + ([f"... {len(diff) - 24} more diff lines"] if len(diff) > 24 else [])
            reports.append(f"{path}: differs from what tools/abigen writes now (make abi-generate rewrites it)\n"
                           + "\n".join("    " + line for line in shown))
    return reports


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the generated files")
    mode.add_argument("--check", action="store_true", help="fail when a generated or checked file disagrees")
    mode.add_argument("--get", choices=["library_version", "abi_version"], help="print a value of the table")
    mode.add_argument("--list", action="store_true", help="print the files this tool writes")
    mode.add_argument("--list-read", action="store_true", help="print the files this tool only reads and checks")
    parser.add_argument("--root", default=ROOT, help="the repository (default: the one holding this tool)")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    try:
        table = Table(os.path.join(root, TABLE))
        if args.get:
            print(getattr(table, args.get))
            return 0
        generated = outputs(table, root)
    except (TableError, gen_react_native.TableUnsupported) as e:
        print(f"abigen: {TABLE}: {e}", file=sys.stderr)
        return 1
    if args.list:
        print("\n".join(generated))
        return 0
    if args.list_read:
        print("\n".join(sorted({TABLE, checks.HEADER, checks.PODSPEC} | {m[0] for m in checks.VERSION_MENTIONS})))
        return 0
    if args.write:
        for path, text in generated.items():
            full = os.path.join(root, path)
            current = open(full, encoding="utf-8").read() if os.path.exists(full) else None
            if current != text:
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as f:
                    f.write(text)
                print(f"abigen: wrote {path}")
        reports = []
    else:
        reports = drift(root, generated)
    reports += problems_of(table, root, generated)
    for report in reports:
        print(f"abigen: {report}", file=sys.stderr)
    if reports:
        print(f"abigen: {len(reports)} problem(s); the table is {TABLE}", file=sys.stderr)
        return 1
    print(f"abigen: {len(generated)} generated files match {TABLE} (ABI {table.abi_version}, library "
          f"{table.library_version}, {len(table.functions)} functions, {len(table.vocabularies)} vocabularies); "
          "the header, the @_cdecl exports and the version mentions agree with it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
