#!/usr/bin/env python3
"""Explains a library's bytes (issue 26): per artifact, the total and the top contributors by
component, from the symbol table of the unstripped ELF library (nm -S) or the name section of a
.wasm built with names (wasm-objdump -x), so that the next regression is found by reading one
table.

    scripts/size_report.py LABEL=UNSTRIPPED[:SHIPPED][@GOAL[/GZIP_GOAL]] ...
    scripts/size_report.py --gzip FILE     # FILE's gzip -9 size, as every report here measures it

Each argument names an artifact: LABEL, the file whose symbols are read (an unstripped ELF or a
.wasm with its name section) and, after a colon, the file that ships (its size is the total; the
symbols' sizes are scaled to it, since stripping and wasm-opt change the whole, not the shares);
after an @, its goal in bytes (and for a .wasm, after a /, the goal for its gzip -9 size). The
summary table comes first (every artifact, its goal, met or missed by how many bytes), then one
component table per artifact.

"gzip -9" is one method wherever the project quotes it (make size, make size-web, make web, the
docs): zlib's deflate at level 9 in a gzip member without a file name (Python's
gzip.compress(data, compresslevel=9)), what a server compressing with zlib sends. GNU gzip -9c on
the file is a few bytes off (its own deflate, and the file name in the header).

Components (a function goes to the first that matches):
  JSON doors       what turns documents into values and back: the readers (init(reading:),
                   init(json:), JSONMembers, snapshots), the writers (write(to:), .json),
                   JSONValue, JSONText (the C ABI's cJSON layer)
  coordinator      Flows/ (the coordinator, its budget, salvage, the two flows, events, ledger)
  POS              POS/ (the POS flow's shared types: which app, intents, the answer document)
  POS Billpocket   POS/Billpocket/ (requests, answers, refunds); POS Square, POS SumUp, POS Clip:
                   each app's folder of rules (issue 39: at most 25 KB per native library together)
  checkout         Checkout/ (requests, sessions, callbacks, confirmations, return URLs)
  query            Query/ (the URL and query rules)
  support          Support/ (amounts, Mexico City time, secrets, errors, byte scanning)
  C ABI            the payhandoff_* exports and their closures
  outlined copies  compiler-generated copies and destroys of large values
  machine outliner instruction sequences LLVM's outliner shares between functions (-Osize on ARM)
  standard library Swift's own code, specialized or not, and the Embedded runtime (swift_*)
  cJSON            cJSON (linked statically in the .wasm and the Android libraries), with the number
                   functions the .wasm gives it (bindings/web/wasm/payhandoff_wasm_cjson.c)
  JNI shim         the Android libraries' C bridge (bindings/android/src/main/cpp)
  libc             wasi-libc, compiler-rt and the .wasm's allocator (bindings/web/wasm), in the
                   .wasm only; the ELF libraries take libc dynamically, so there it is their few
                   static helpers
  other            anything else (named, so the table says what it is)
"""
from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"Flows": "coordinator", "POS": "POS", "Billpocket": "POS Billpocket", "Square": "POS Square",
           "SumUp": "POS SumUp", "Clip": "POS Clip", "Checkout": "checkout", "Query": "query", "Support": "support",
           "JSON": "JSON doors"}
# The readers (reading:, the reader interface, the snapshot's) and the writers (write…(to:), the
# writer classes) are JSON doors too, whatever type they read or write.
JSON_WORDS = re.compile(r"(json|JSON|snapshot|Snapshot|Salvage|salvaging|convertFormat2|JSONValue|JSONText|JSONObject|JSONWriter"
                        r"|reading|JSONMembers|JSONReader|JSONLengthCounter|SnapshotDocument|LedgerItem"
                        r"|\bwrite[A-Za-z]*\(|\bwrite[A-Za-z]*<|writeMembers|writeExtra|writeTruncated)")
APP_READER = re.compile(r"\b(?:parse|is)(Square|SumUp|Clip)|\b(Square|SumUp|Clip)(?:Amount|Request)\b")
CJSON_FILES = [ROOT / "third_party/cjson/cJSON.c", ROOT / "bindings/web/wasm/payhandoff_wasm_cjson.c"]
JNI_FOLDER = ROOT / "bindings/android/src/main/cpp"
C_FUNCTION = re.compile(r"^\s*(?:static\s+)?(?:CJSON_PUBLIC\([^)]*\)|[A-Za-z_][A-Za-z0-9_ \*]*?)\s*\*?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(",
                        re.M)


def type_folders() -> dict[str, str]:
    """Every type the core declares, with the component of its folder."""
    found: dict[str, str] = {}
    rank: dict[str, int] = {}  # a type belongs to the folder of `Name.swift`, else of `Name+….swift`
    declaration = re.compile(r"^\s*(?:public |internal |private |fileprivate )*(?:final )?(?:indirect )?"
                             r"(?:struct|enum|class|protocol|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")
    for path in sorted((ROOT / "Sources/PayHandoff").rglob("*.swift")):
        component = FOLDERS.get(path.parent.name, "support")
        for line in path.read_text(encoding="utf-8").splitlines():
            match = declaration.match(line)
            if match:
                name = match.group(1).split(".")[0]
                level = 2 if path.stem == name else 1 if path.name.startswith(name) else 0
                if name not in found or level > rank[name]:
                    found[name], rank[name] = component, level
    return found


# libc functions cJSON calls at the start of a line (`return realloc(...)`), which the pattern
# would otherwise take for cJSON's own.
LIBC_CALLED_BY_CJSON = {"malloc", "realloc", "free", "tolower", "printf", "sprintf", "sscanf", "strtod",
                        "memcpy", "memset", "strlen", "strcpy", "strcmp", "strncmp"}


def c_functions(paths: list[Path]) -> set[str]:
    """The functions the C files at `paths` define (a declaration's name at the start of a line)."""
    names: set[str] = set()
    for path in paths:
        names |= set(C_FUNCTION.findall(path.read_text(encoding="utf-8", errors="replace")))
    return names


def demangle(names: list[str]) -> list[str]:
    if not names:
        return []
    result = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names), capture_output=True,
                            text=True, check=False)
    out = result.stdout.splitlines()
    return out if len(out) == len(names) else names


def classify(raw: str, readable: str, types: dict[str, str], cjson: set[str], jni: set[str]) -> str:
    if raw.startswith("Java_") or raw.startswith("JNI_") or raw in jni:
        return "JNI shim"
    if raw in cjson or raw.startswith("cJSON"):
        return "cJSON"
    if raw.startswith("payhandoff_") or "payhandoff_" in readable:
        return "C ABI"
    if readable.startswith("outlined ") or "outlined copy" in readable or "outlined destroy" in readable:
        return "outlined copies"
    swift = raw.startswith("$e") or raw.startswith("$s") or raw.startswith("_$s")
    if raw.startswith("OUTLINED_FUNCTION_"):
        return "machine outliner"  # instruction sequences LLVM shares between functions (-Osize)
    if raw.startswith("swift_") or raw.startswith("_swift"):
        return "standard library"  # the Embedded runtime (retain/release, allocation)
    if not swift:
        return "libc"
    # Another terminal app's answer reader is an extension of the one answer type (POSResponse,
    # Billpocket's folder): counted with its app, as its request types are.
    app_reader = APP_READER.search(readable)
    if app_reader:
        return "POS " + (app_reader.group(1) or app_reader.group(2))
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
    types = type_folders()
    cjson = c_functions([path for path in CJSON_FILES if path.exists()]) - LIBC_CALLED_BY_CJSON
    # The JNI shim is in the Android libraries only: in a .wasm a C name it shares (allocate) is
    # the module's own allocator, libc's part.
    jni = set() if symbols_file.endswith(".wasm") else c_functions(sorted(JNI_FOLDER.glob("*.c")))
    symbols = wasm_symbols(symbols_file) if symbols_file.endswith(".wasm") else elf_symbols(symbols_file)
    readable = demangle([name for name, _ in symbols])
    by_component: dict[str, int] = defaultdict(int)
    top: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (name, size), text in zip(symbols, readable):
        component = "data" if name == "(data segments)" else classify(name, text, types, cjson, jni)
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


def gzip_size(path: str) -> int:
    """The one gzip -9 measure (the module docstring says which)."""
    with open(path, "rb") as file:
        return len(gzip.compress(file.read(), compresslevel=9))


def verdict(size: int, goal: int | None) -> str:
    if goal is None:
        return "(no goal)"
    return "met" if size <= goal else f"MISSED by {size - goal:,}"


def summary(artifacts: list[tuple[str, str, str, int | None, int | None]]) -> None:
    print(f"{'artifact':<28}{'bytes':>10}  {'goal':>9}  {'':<20}{'gzip -9':>9}  {'goal':>9}")
    for label, _, shipped, goal, gzip_goal in artifacts:
        if not os.path.exists(shipped):
            print(f"{label:<28}{'not built':>10}")
            continue
        size = os.path.getsize(shipped)
        line = f"{label:<28}{size:>10,}  {goal or 0:>9,}  {verdict(size, goal):<20}"
        if shipped.endswith(".wasm"):
            packed = gzip_size(shipped)
            line += f"{packed:>9,}  {gzip_goal or 0:>9,}  {verdict(packed, gzip_goal)}"
        print(line.replace("          0  (no goal)", "          -  (no goal)"))
    print()


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    if len(argv) == 2 and argv[0] == "--gzip":
        print(gzip_size(argv[1]))
        return 0
    artifacts = []
    for argument in argv:
        label, _, rest = argument.partition("=")
        files, _, goals = rest.partition("@")
        symbols_file, _, shipped = files.partition(":")
        goal, _, gzip_goal = goals.partition("/")
        artifacts.append((label, symbols_file, shipped or symbols_file, int(goal) if goal else None,
                          int(gzip_goal) if gzip_goal else None))
    summary(artifacts)
    for label, symbols_file, shipped, _, _ in artifacts:
        if not os.path.exists(symbols_file) or not os.path.exists(shipped):
            print(f"{label}: {symbols_file} is not built (skipped)")
            continue
        report(label, symbols_file, shipped)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
