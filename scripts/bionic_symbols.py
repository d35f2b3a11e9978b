#!/usr/bin/env python3
"""Derives abi/android/bionic-libc-api24.txt from Bionic's libc/libc.map.txt.

Usage: scripts/bionic_symbols.py LIBC_MAP_TXT SOURCE_NOTE > abi/android/bionic-libc-api24.txt

libc.map.txt (AOSP bionic repository, libc/libc.map.txt) lists every symbol libc.so exports, in
version blocks, with tags after `#` that the NDK's stub generator reads. The rules applied here
are that generator's, for API level 24 (Android 7.0, the AAR's minSdk):
  - blocks named *_PRIVATE, *_PLATFORM and *_DEPRECATED are not part of the NDK;
  - symbols tagged apex, llndk, systemapi or platform-only are not part of the NDK;
  - arch tags (arm, arm64, x86, x86_64) restrict a symbol (or a block) to those ABIs;
  - introduced=N / introduced-ARCH=N (on the symbol, else on its block) is the first API level
    that has it; codenames count as their levels (N=24, O=26, P=28, Q=29, R=30, ...);
  - versioned=N does not change whether a symbol exists, only its symbol version.
The CI machine has no network access to AOSP, so the derived list is committed; this script
documents how it was made and reproduces it from the same file.
"""
import re
import sys

API = 24
ABIS = {"arm": "armeabi-v7a", "arm64": "arm64-v8a", "x86": "x86", "x86_64": "x86_64"}
CODENAMES = {"N": 24, "O": 26, "P": 28, "Q": 29, "R": 30, "S": 31, "T": 33, "U": 34, "V": 35}
NOT_NDK = {"apex", "llndk", "systemapi", "platform-only", "future"}


def level(value):
    return CODENAMES[value] if value in CODENAMES else int(value)


def parse_tags(comment):
    tags = comment.split()
    arches = [t for t in tags if t in ABIS]
    introduced = {}
    for t in tags:
        if t.startswith("introduced="):
            for arch in ABIS:
                introduced.setdefault(arch, level(t.split("=", 1)[1]))
    # introduced-ARCH wins over introduced= for that arch, whatever the order.
    for t in tags:
        if t.startswith("introduced-"):
            arch, value = t[len("introduced-"):].split("=", 1)
            if arch in ABIS:
                introduced[arch] = level(value)
    return set(tags), arches, introduced


def derive(text):
    symbols = {}  # name -> (kind, set of ABI names)
    block = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        code, _, comment = line.partition("#")
        code = code.strip()
        opening = re.match(r"^([A-Za-z0-9_]+)\s*\{$", code)
        if opening:
            tags, arches, introduced = parse_tags(comment)
            name = opening.group(1)
            private = name.endswith(("_PRIVATE", "_PLATFORM", "_DEPRECATED"))
            block = (private, tags, arches, introduced)
            continue
        if code.startswith("}"):
            block = None
            continue
        if code in ("global:", "local:") or code == "*;" or block is None:
            continue
        name = code.rstrip(";").strip()
        private, block_tags, block_arches, block_introduced = block
        tags, arches, introduced = parse_tags(comment)
        if private or tags & NOT_NDK or block_tags & NOT_NDK:
            continue
        for arch, abi in ABIS.items():
            if arches and arch not in arches:
                continue
            if block_arches and arch not in block_arches:
                continue
            first = introduced.get(arch, block_introduced.get(arch, 0))
            if first <= API:
                kind = "var" if "var" in tags else "func"
                symbols.setdefault(name, (kind, set()))[1].add(abi)
    return symbols


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        symbols = derive(f.read())
    print("# Symbols Bionic's libc.so exports to apps at API level 24 (minSdk of the AAR), per Android ABI.")
    print("# Derived by scripts/bionic_symbols.py from libc/libc.map.txt of the AOSP bionic repository")
    print("# (" + sys.argv[2] + ").")
    print("# scripts/check_android_libs.py requires every undefined symbol of an Android libpayhandoff.so")
    print("# to be listed here for its ABI; scripts/build_android_libs.sh links against a stub libc.so")
    print("# made from the same list. Format: SYMBOL KIND ABI... (KIND: func or var)")
    for name in sorted(symbols, key=lambda s: (s.lower(), s)):
        kind, abis = symbols[name]
        order = [a for a in ABIS.values() if a in abis]
        print(name, kind, *order)


if __name__ == "__main__":
    main()
