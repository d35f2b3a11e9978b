#!/usr/bin/env python3
"""Explains a library's bytes (issue 26): per artifact, the total and the top contributors by
component, from the symbol table of the unstripped ELF library (nm -S) or the name section of a
.wasm built with names (wasm-objdump -x), so that the next regression is found by reading one
table.

    scripts/size_report.py LABEL=UNSTRIPPED[:SHIPPED] ...

Each argument names an artifact: LABEL, the file whose symbols are read (an unstripped ELF or a
.wasm with its name section) and, after a colon, the file that ships (its size is the total; the
symbols' sizes are scaled to it, since stripping and wasm-opt change the whole, not the shares).

Components (a function goes to the first that matches):
  JSON doors       what turns documents into values and back: the readers (init(reading:),
                   init(json:), JSONMembers, snapshots), the writers (write(to:), .json),
                   JSONValue, JSONText (the C ABI's cJSON layer)
  coordinator      Flows/ (the coordinator, its budget, salvage, the two flows, events, ledger)
  POS              POS/ (Billpocket requests, answers, refunds)
  checkout         Checkout/ (requests, sessions, callbacks, confirmations, return URLs)
  query            Query/ (the URL and query rules)
  support          Support/ (amounts, Mexico City time, secrets, errors, byte scanning)
  C ABI            the payhandoff_* exports and their closures
  outlined copies  compiler-generated copies and destroys of large values
  standard library Swift's own code, specialized or not
  cJSON            cJSON (linked statically only in the .wasm)
  libc             wasi-libc and compiler-rt (the .wasm only; the ELF libraries take libc dynamically)
  other            anything else (named, so the table says what it is)
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"Flows": "coordinator", "POS": "POS", "Checkout": "checkout", "Query": "query", "Support": "support",
           "JSON": "JSON doors"}
# The readers (reading:, the reader interface, the snapshot's) and the writers (write…(to:), the
# writer classes) are JSON doors too, whatever type they read or write.
JSON_WORDS = re.compile(r"(json|JSON|snapshot|Snapshot|Salvage|salvaging|convertFormat2|JSONValue|JSONText|JSONObject|JSONWriter"
                        r"|reading|JSONMembers|JSONReader|JSONLengthCounter|SnapshotDocument|LedgerItem"
                        r"|\bwrite[A-Za-z]*\(|\bwrite[A-Za-z]*<|writeMembers|writeExtra|writeTruncated)")
CJSON_FILE = ROOT / "third_party/cjson/cJSON.c"


def type_folders() -> dict[str, str]:
    """Every type the core declares, with the component of its folder."""
    found: dict[str, str] = {}
    declaration = re.compile(r"^\s*(?:public |internal |private |fileprivate )*(?:final )?(?:indirect )?"
                             r"(?:struct|enum|class|protocol|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")
    for path in (ROOT / "Sources/PayHandoff").rglob("*.swift"):
        component = FOLDERS.get(path.parent.name, "support")
        for line in path.read_text(encoding="utf-8").splitlines():
            match = declaration.match(line)
            if match:
                name = match.group(1).split(".")[0]
                if path.name.startswith(name) or name not in found:
                    found[name] = component
    return found


def cjson_functions() -> set[str]:
    if not CJSON_FILE.exists():
        return set()
    text = CJSON_FILE.read_text(encoding="utf-8", errors="replace")
    return set(re.findall(r"^\s*(?:static\s+)?(?:CJSON_PUBLIC\([^)]*\)|[A-Za-z_][A-Za-z0-9_ \*]*?)\s*\*?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(",
                          text, re.M))


def demangle(names: list[str]) -> list[str]:
    if not names:
        return []
    result = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True,
                            text=True, check=False)
    out = result.stdout.splitlines()
    return out if len(out) == len(names) else names


def classify(raw: str, readable: str, types: dict[str, str], cjson: set[str]) -> str:
    if raw.startswith("payhandoff_") or "payhandoff_" in readable:
        return "C ABI"
    if raw in cjson or raw.startswith("cJSON"):
        return "cJSON"
    if readable.startswith("outlined ") or "outlined copy" in readable or "outlined destroy" in readable:
        return "outlined copies"
    swift = raw.startswith("$e") or raw.startswith("$s") or raw.startswith("_$s")
    if not swift:
        return "libc"
    if JSON_WORDS.search(readable):
        return "JSON doors"
    # The type the function belongs to: the first capitalized name of the simplified form.
    words = re.findall(r"\b([A-Z][A-Za-z0-9_]*)\b", readable.replace("static ", ""))
    for word in words:
        if word in types:
            return types[word]
    if raw.startswith("$e10PayHandoff") or "PayHandoff" in raw:
        return "other PayHandoff"
    return "standard library"


def elf_symbols(path: str) -> list[tuple[str, int]]:
    out = subprocess.run(["nm", "-S", "--size-sort", path], capture_output=True, text=True, check=True).stdout
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2].lower() in ("t", "r", "d", "b"):
            symbols.append((parts[3], int(parts[1], 16)))
    return symbols


def wasm_symbols(path: str) -> list[tuple[str, int]]:
    out = subprocess.run(["wasm-objdump", "-x", "-j", "Code", path], capture_output=True, text=True, check=True).stdout
    symbols = []
    for match in re.finditer(r"- func\[\d+\] size=(\d+)(?: <([^>]*)>)?", out):
        symbols.append((match.group(2) or "unnamed", int(match.group(1))))
    data = subprocess.run(["wasm-objdump", "-h", path], capture_output=True, text=True, check=True).stdout
    for match in re.finditer(r"^\s*Data start=\S+ end=\S+ \(size=(0x[0-9a-f]+)\)", data, re.M):
        symbols.append(("(data segments)", int(match.group(1), 16)))
    return symbols


def report(label: str, symbols_file: str, shipped: str) -> None:
    types, cjson = type_folders(), cjson_functions()
    symbols = wasm_symbols(symbols_file) if symbols_file.endswith(".wasm") else elf_symbols(symbols_file)
    readable = demangle([name for name, _ in symbols])
    by_component: dict[str, int] = defaultdict(int)
    top: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (name, size), text in zip(symbols, readable):
        component = "data" if name == "(data segments)" else classify(name, text, types, cjson)
        by_component[component] += size
        top[component].append((size, text))
    counted = sum(by_component.values()) or 1
    total = os.path.getsize(shipped)
    print(f"{label}: {total:,} bytes shipped ({shipped}); {counted:,} bytes of named code and data in {symbols_file}")
    print(f"  {'component':<20}{'bytes':>10}{'share':>8}  largest")
    for component, size in sorted(by_component.items(), key=lambda item: -item[1]):
        largest = max(top[component])[1] if top[component] else ""
        largest = largest if len(largest) <= 70 else largest[:67] + "..."
        print(f"  {component:<20}{size * total // counted:>10,}{100 * size / counted:>7.1f}%  {largest}")
    print()


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for argument in argv:
        label, _, files = argument.partition("=")
        symbols_file, _, shipped = files.partition(":")
        if not os.path.exists(symbols_file):
            print(f"{label}: {symbols_file} is not built (skipped)")
            continue
        report(label, symbols_file, shipped or symbols_file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
