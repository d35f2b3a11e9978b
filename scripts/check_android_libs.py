#!/usr/bin/env python3
"""Checks Android libpayhandoff.so files against what Android's loader and Google Play require.

Usage: scripts/check_android_libs.py ABI=PATH...         (e.g. arm64-v8a=dist/android/jni/arm64-v8a/libpayhandoff.so)
       scripts/check_android_libs.py --expect-failures ABI=PATH...

For each library, and failing with the reason:
  - the ELF class and machine are the ABI's; section headers are present;
  - SONAME is libpayhandoff.so; NEEDED is libc.so (libm.so, libdl.so, liblog.so also allowed);
  - no text relocations (DT_TEXTREL or DF_TEXTREL): Android 6+ refuses them;
  - every PT_LOAD is aligned to 16 KB (Google Play: 16 KB page support); no PT_TLS (ELF TLS needs API 29);
  - exported: exactly the payhandoff_* functions of abi/symbols.txt and the Java_com_payhandoff_Native_*
    functions of the `external fun`s in bindings/android/src/main/kotlin/com/payhandoff/Native.kt;
  - every undefined symbol is exported by Bionic's libc.so at API 24 for the ABI
    (abi/android/bionic-libc-api24.txt), and none is a glibc-only redirection
    (__isoc99_*, __ctype_*_loc, __errno_location, fortify __*_chk);
  - nothing allocates except malloc/calloc/realloc/posix_memalign/free (the arm64 library routes
    those five through bindings/android/src/main/cpp/payhandoff_heap.c; strdup & co. would not be);
  - arm64: x18 is never used (Android reserves it for the shadow call stack).
Prints one summary line per library; with --expect-failures, succeeds only if every library
fails at least one check (the checker's own test, run on a deliberately wrong library).
"""
import os
import re
import shutil
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MACHINES = {"arm64-v8a": (64, 183), "armeabi-v7a": (32, 40), "x86_64": (64, 62), "x86": (32, 3)}
ALLOWED_NEEDED = {"libc.so", "libm.so", "libdl.so", "liblog.so"}
ALLOCATING = {"strdup", "strndup", "wcsdup", "asprintf", "vasprintf", "getline", "getdelim", "realpath",
              "open_memstream", "open_wmemstream", "memalign", "aligned_alloc", "valloc", "pvalloc",
              "reallocarray", "tempnam", "scandir"}
PAGE = 16384
PT_LOAD, PT_DYNAMIC, PT_TLS = 1, 2, 7
DT_NEEDED, DT_STRTAB, DT_SONAME, DT_TEXTREL, DT_FLAGS = 1, 5, 14, 22, 30
DF_TEXTREL = 0x4
SHT_DYNSYM = 11
SHN_UNDEF = 0


class Elf:
    """The parts of an ELF shared library the checks read (little-endian only: every Android ABI is)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF":
            raise ValueError("not an ELF file")
        self.bits = {1: 32, 2: 64}[d[4]]
        if d[5] != 1:
            raise ValueError("not little-endian")
        if self.bits == 64:
            (self.type, self.machine, _, _, self.phoff, self.shoff, _, _, self.phentsize, self.phnum,
             self.shentsize, self.shnum, _) = struct.unpack_from("<HHIQQQIHHHHHH", d, 16)
        else:
            (self.type, self.machine, _, _, self.phoff, self.shoff, _, _, self.phentsize, self.phnum,
             self.shentsize, self.shnum, _) = struct.unpack_from("<HHIIIIIHHHHHH", d, 16)
        self.segments = [self._segment(self.phoff + i * self.phentsize) for i in range(self.phnum)]
        self.sections = [self._section(self.shoff + i * self.shentsize) for i in range(self.shnum)] if self.shoff else []

    def _segment(self, at):
        if self.bits == 64:
            p_type, _, p_offset, p_vaddr, _, p_filesz, _, p_align = struct.unpack_from("<IIQQQQQQ", self.data, at)
        else:
            p_type, p_offset, p_vaddr, _, p_filesz, _, _, p_align = struct.unpack_from("<IIIIIIII", self.data, at)
        return {"type": p_type, "offset": p_offset, "vaddr": p_vaddr, "filesz": p_filesz, "align": p_align}

    def _section(self, at):
        if self.bits == 64:
            _, sh_type, _, _, sh_offset, sh_size, sh_link, _, _, sh_entsize = struct.unpack_from("<IIQQQQIIQQ", self.data, at)
        else:
            _, sh_type, _, _, sh_offset, sh_size, sh_link, _, _, sh_entsize = struct.unpack_from("<IIIIIIIIII", self.data, at)
        return {"type": sh_type, "offset": sh_offset, "size": sh_size, "link": sh_link, "entsize": sh_entsize}

    def vaddr_to_offset(self, vaddr):
        for s in self.segments:
            if s["type"] == PT_LOAD and s["vaddr"] <= vaddr < s["vaddr"] + s["filesz"]:
                return vaddr - s["vaddr"] + s["offset"]
        raise ValueError("address 0x%x is in no PT_LOAD" % vaddr)

    def string(self, at):
        return self.data[at:self.data.index(b"\0", at)].decode()

    def dynamic(self):
        entries = []
        for s in self.segments:
            if s["type"] != PT_DYNAMIC:
                continue
            size, fmt = (16, "<qQ") if self.bits == 64 else (8, "<iI")
            for at in range(s["offset"], s["offset"] + s["filesz"], size):
                tag, value = struct.unpack_from(fmt, self.data, at)
                if tag == 0:
                    break
                entries.append((tag, value))
        return entries

    def dynamic_symbols(self):
        """(name, defined, binding) of every .dynsym entry but the null one."""
        symbols = []
        for sec in self.sections:
            if sec["type"] != SHT_DYNSYM:
                continue
            strtab = self.sections[sec["link"]]["offset"]
            for at in range(sec["offset"] + sec["entsize"], sec["offset"] + sec["size"], sec["entsize"]):
                if self.bits == 64:
                    st_name, st_info, _, st_shndx, _, _ = struct.unpack_from("<IBBHQQ", self.data, at)
                else:
                    st_name, _, _, st_info, _, st_shndx = struct.unpack_from("<IIIBBH", self.data, at)
                symbols.append((self.string(strtab + st_name), st_shndx != SHN_UNDEF, st_info >> 4))
        return symbols


def bionic_symbols(abi):
    allowed = set()
    with open(os.path.join(ROOT, "abi/android/bionic-libc-api24.txt")) as f:
        for line in f:
            fields = line.split()
            if fields and not line.startswith("#") and abi in fields[2:]:
                allowed.add(fields[0])
    return allowed


def expected_exports():
    with open(os.path.join(ROOT, "abi/symbols.txt")) as f:
        c_abi = {line.strip() for line in f if line.strip()}
    with open(os.path.join(ROOT, "bindings/android/src/main/kotlin/com/payhandoff/Native.kt")) as f:
        jni = {"Java_com_payhandoff_Native_" + name.replace("_", "_1")
               for name in re.findall(r"\bexternal\s+fun\s+([A-Za-z0-9_]+)", f.read())}
    return c_abi, jni


def glibc_only(name):
    return (name.startswith("__isoc99_") or name.startswith("__isoc23_") or re.match(r"^__ctype_\w+_loc$", name)
            or name == "__errno_location" or (name.startswith("__") and name.endswith("_chk")))


def uses_x18(path):
    # The Swift toolchain's llvm-objdump (next to swiftc), else whichever is on PATH.
    swiftc = shutil.which("swiftc")
    tool = os.path.join(os.path.dirname(os.path.realpath(swiftc)), "llvm-objdump") if swiftc else "llvm-objdump"
    objdump = subprocess.run([tool if os.path.exists(tool) else "llvm-objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True)
    return [line.strip() for line in objdump.stdout.splitlines() if re.search(r"\b[xw]18\b", line)]


def check(abi, path):
    """Returns (problems, summary)."""
    problems = []
    elf = Elf(path)
    bits, machine = MACHINES[abi]
    if (elf.bits, elf.machine) != (bits, machine):
        problems.append("ELF%d machine %d, expected ELF%d machine %d for %s" % (elf.bits, elf.machine, bits, machine, abi))
    if elf.shnum == 0 or not elf.sections:
        problems.append("no section headers (Android's loader needs them)")
    dynamic = elf.dynamic()
    strtab = elf.vaddr_to_offset(next(v for t, v in dynamic if t == DT_STRTAB))
    names = {tag: [elf.string(strtab + v) for t, v in dynamic if t == tag] for tag in (DT_NEEDED, DT_SONAME)}
    if names[DT_SONAME] != ["libpayhandoff.so"]:
        problems.append("SONAME %s, expected libpayhandoff.so" % (names[DT_SONAME] or "missing"))
    needed = names[DT_NEEDED]
    if "libc.so" not in needed or set(needed) - ALLOWED_NEEDED:
        problems.append("NEEDED %s, expected libc.so (and at most libm.so, libdl.so, liblog.so)" % needed)
    if any(t == DT_TEXTREL for t, _ in dynamic) or any(t == DT_FLAGS and v & DF_TEXTREL for t, v in dynamic):
        problems.append("text relocations (DT_TEXTREL): Android refuses to load them")
    loads = [s for s in elf.segments if s["type"] == PT_LOAD]
    for s in loads:
        if s["align"] < PAGE or s["align"] % PAGE or (s["vaddr"] - s["offset"]) % PAGE:
            problems.append("PT_LOAD at 0x%x aligned to %d, expected a multiple of 16384" % (s["vaddr"], s["align"]))
    if any(s["type"] == PT_TLS for s in elf.segments):
        problems.append("PT_TLS segment: ELF TLS needs API 29, the AAR's minSdk is 24")
    symbols = elf.dynamic_symbols()
    exported = {n for n, defined, binding in symbols if defined and binding in (1, 2)}
    c_abi, jni = expected_exports()
    foreign = sorted(n for n in exported if not n.startswith(("payhandoff_", "Java_com_payhandoff_")))
    if foreign:
        problems.append("exports other than payhandoff_* and Java_com_payhandoff_*: %s" % " ".join(foreign))
    if exported - set(foreign) != c_abi | jni:
        missing, extra = sorted((c_abi | jni) - exported), sorted(exported - (c_abi | jni) - set(foreign))
        problems.append("exports differ from abi/symbols.txt + Native.kt: missing %s, unexpected %s" % (missing, extra))
    undefined = sorted({n for n, defined, _ in symbols if not defined})
    allowed = bionic_symbols(abi)
    redirections = [n for n in undefined if glibc_only(n)]
    if redirections:
        problems.append("glibc-only symbols (header redirections or fortify): %s" % " ".join(redirections))
    absent = [n for n in undefined if n not in allowed and n not in redirections]
    if absent:
        problems.append("undefined symbols Bionic's libc.so does not export at API 24 for %s: %s" % (abi, " ".join(absent)))
    allocating = [n for n in undefined if n in ALLOCATING]
    if allocating:
        problems.append("allocates outside malloc/calloc/realloc/posix_memalign/free: %s" % " ".join(allocating))
    if abi == "arm64-v8a":
        x18 = uses_x18(path)
        if x18:
            problems.append("uses x18 (reserved on Android for the shadow call stack), e.g. %s" % x18[0])
    summary = ("%s: %d bytes, SONAME %s, NEEDED %s, %d PT_LOAD aligned to %s, %d exported (%d payhandoff_*, %d JNI), "
               "%d undefined, all %d in Bionic's API-24 list" % (
                   abi, os.path.getsize(path), ",".join(names[DT_SONAME]) or "-", ",".join(needed) or "-", len(loads),
                   "/".join(sorted({str(s["align"]) for s in loads})), len(exported),
                   len([n for n in exported if n.startswith("payhandoff_")]),
                   len([n for n in exported if n.startswith("Java_")]), len(undefined),
                   len([n for n in undefined if n in allowed])))
    return problems, summary


def main():
    args = sys.argv[1:]
    expect_failures = "--expect-failures" in args
    args = [a for a in args if a != "--expect-failures"]
    if not args:
        sys.exit(__doc__)
    failed = 0
    for arg in args:
        abi, _, path = arg.partition("=")
        if abi not in MACHINES or not path:
            sys.exit("usage: ABI=PATH with ABI one of %s" % " ".join(MACHINES))
        try:
            problems, summary = check(abi, path)
        except (OSError, ValueError, StopIteration, KeyError, struct.error) as e:
            problems, summary = ["cannot read as an ELF shared library: %s" % e], abi
        if expect_failures:
            print("android-check: %s (deliberately wrong): %d problems found, as expected: %s" % (
                path, len(problems), "; ".join(p.split(":")[0] for p in problems)) if problems else
                "FAIL: android-check: %s was expected to fail the checks but passed" % path)
            failed += not problems
        else:
            for p in problems:
                print("FAIL: android-check: %s: %s" % (path, p))
            print("android-check: " + (summary if not problems else "%s: %d problems" % (abi, len(problems))))
            failed += bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
