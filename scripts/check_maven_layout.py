#!/usr/bin/env python3
"""Checks what make android publishes: dist/maven (scripts/maven_layout.py) and
dist/android/native-debug-symbols.zip.

Usage: check_maven_layout.py DIST                       (DIST: the dist/ folder)
       check_maven_layout.py --expect-failures DIST     (the checker's own test: on corrupted copies)

  - the POM: coordinates com.payhandoff:payhandoff:<library_version>, packaging aar, name,
    description, url, the Apache-2.0 licence, scm, developers, the kotlin-stdlib dependency, and the
    marker that makes Gradle read the module metadata;
  - the Gradle module metadata (.module, format 1.1): the component's coordinates; api and runtime
    variants of the .aar with the POM's dependencies; sources and javadoc variants; every file's
    size, sha512, sha256, sha1 and md5 equal to the file's;
  - every file of the layout (and maven-metadata.xml) has .md5, .sha1 and .sha256 files that match it;
  - the .aar is dist/android's; the sources jar holds every Kotlin source; the javadoc jar an index.html
    naming the API's classes;
  - native-debug-symbols.zip holds exactly <ABI>/libpayhandoff.so for each ABI of the AAR, each
    unstripped (a symbol table) with the GNU build-id of the AAR's stripped jni/<ABI>/libpayhandoff.so,
    and with line tables: llvm-symbolizer maps an exported Swift function (payhandoff_abi_version) and a
    JNI function of the C shim to a source file and a line (issue 36: names alone before).
Prints one line per check group; exits 1 naming every problem.
"""
import hashlib
import json
import re
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NS = {"m": "http://maven.apache.org/POM/4.0.0"}
DIGESTS = ("md5", "sha1", "sha256")


def elf_sections(data):
    """{name: (type, offset, size)} of an ELF file (32 or 64-bit, little-endian)."""
    bits = {1: 32, 2: 64}[data[4]]
    if bits == 64:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        fmt = "<IIQQQQIIQQ"
    else:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
        fmt = "<IIIIIIIIII"
    headers = [struct.unpack_from(fmt, data, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx][4]
    out = {}
    for h in headers:
        name = data[strtab + h[0]:data.index(b"\0", strtab + h[0])].decode()
        out[name] = (h[1], h[4], h[5])
    return out


def build_id(data):
    sections = elf_sections(data)
    if ".note.gnu.build-id" not in sections:
        return None
    _, off, size = sections[".note.gnu.build-id"]
    namesz, descsz, ntype = struct.unpack_from("<III", data, off)
    desc = off + 12 + ((namesz + 3) & ~3)
    return data[desc:desc + descsz].hex() if ntype == 3 else None


def toolchain_tool(name):
    """The Swift toolchain's copy of an LLVM tool (it reads every ABI's ELF and DWARF), else the system's."""
    swiftc = shutil.which("swiftc")
    here = os.path.join(os.path.dirname(swiftc), name) if swiftc else None
    return here if here and os.path.exists(here) else shutil.which(name)


# Functions whose source line the debug libraries must give, by symbol: the Swift function behind
# the payhandoff_coordinator_send export (the exported symbol itself is a compiler-made @_cdecl
# thunk of a few bytes, line 0) and a JNI function of the C shim.
LINE_PROBES = {r"\$e10PayHandoff\d+payhandoff_coordinator_send.*": ".swift", r"Java_com_payhandoff_Native_abiVersion": ".c"}
# x86's Swift code is built without line tables (scripts/build_android_libs.sh: they would add
# 50 KB of unwind records to the shipped library): its C code is probed only.
NO_SWIFT_LINES = {"x86"}


def line_problems(abi, data):
    """What is missing for a crash report's frame to get file and line from this library."""
    sections = elf_sections(data)
    if ".debug_line" not in sections:
        return ["native-debug-symbols.zip: %s/libpayhandoff.so has no line table (.debug_line)" % abi]
    problems = []
    with tempfile.NamedTemporaryFile(suffix=".so") as f:
        f.write(data)
        f.flush()
        nm = subprocess.run([toolchain_tool("llvm-nm"), "--defined-only", "-S", f.name], capture_output=True, text=True)
        ranges = {}
        for line in nm.stdout.splitlines():
            parts = line.split()
            for probe in LINE_PROBES:
                if len(parts) == 4 and probe not in ranges and re.fullmatch(probe, parts[3]):
                    ranges[probe] = (int(parts[0], 16) & ~1, int(parts[1], 16))  # Thumb functions have bit 0 set
        for name, suffix in LINE_PROBES.items():
            if suffix == ".swift" and abi in NO_SWIFT_LINES:
                continue
            if name not in ranges:
                problems.append("native-debug-symbols.zip: %s/libpayhandoff.so has no symbol matching %s" % (abi, name))
                continue
            # Its first instructions may be the compiler's (a @_cdecl thunk, a prologue): some
            # instruction of the function must map to a line of a source file.
            start, size = ranges[name]
            addresses = "\n".join(hex(a) for a in range(start, start + max(size, 1), 2)[:256])
            out = subprocess.run([toolchain_tool("llvm-symbolizer"), "--obj=" + f.name], input=addresses,
                                 capture_output=True, text=True).stdout
            lines = [l for l in out.splitlines() if l.endswith(":0") is False and ":" in l]
            found = [l for l in lines if l.split(":")[0].endswith(suffix) and l.split(":")[1].isdigit() and int(l.split(":")[1]) > 0]
            if not found:
                problems.append("native-debug-symbols.zip: %s/libpayhandoff.so: no instruction of %s maps to a %s line" % (abi, name, suffix))
    return problems


def check(dist):
    problems, lines = [], []
    version = subprocess.run([sys.executable, os.path.join(ROOT, "tools/abigen/abigen.py"), "--get", "library_version"],
                             capture_output=True, text=True, check=True).stdout.strip()
    adir = os.path.join(dist, "maven/com/payhandoff/payhandoff")
    vdir = os.path.join(adir, version)
    base = os.path.join(vdir, "payhandoff-%s" % version)
    if not os.path.isdir(vdir):
        return ["no %s" % vdir], lines

    # The POM.
    text = open(base + ".pom").read()
    pom = ET.fromstring(text)
    get = lambda path: (pom.findtext(path, namespaces=NS) or "").strip()
    expect = {"m:groupId": "com.payhandoff", "m:artifactId": "payhandoff", "m:version": version, "m:packaging": "aar",
              "m:name": "PayHandoff"}
    for path, value in expect.items():
        if get(path) != value:
            problems.append("POM %s is %r, expected %r" % (path[2:], get(path), value))
    for path in ("m:description", "m:url", "m:scm/m:connection", "m:scm/m:developerConnection", "m:scm/m:url",
                 "m:developers/m:developer/m:name"):
        if not get(path):
            problems.append("POM has no %s" % path.replace("m:", ""))
    licences = [(l.findtext("m:name", namespaces=NS), l.findtext("m:url", namespaces=NS)) for l in pom.findall("m:licenses/m:license", NS)]
    if ("Apache-2.0", "https://www.apache.org/licenses/LICENSE-2.0.txt") not in licences:
        problems.append("POM does not name the Apache-2.0 licence: %s" % licences)
    deps = [(d.findtext("m:groupId", namespaces=NS), d.findtext("m:artifactId", namespaces=NS), d.findtext("m:version", namespaces=NS),
             d.findtext("m:scope", namespaces=NS)) for d in pom.findall("m:dependencies/m:dependency", NS)]
    if len(deps) != 1 or deps[0][:2] != ("org.jetbrains.kotlin", "kotlin-stdlib") or deps[0][3] != "compile":
        problems.append("POM dependencies %s, expected kotlin-stdlib (compile)" % deps)
    if "do_not_remove: published-with-gradle-metadata" not in text:
        problems.append("POM lacks the published-with-gradle-metadata marker (Gradle would ignore the .module)")
    lines.append("POM com.payhandoff:payhandoff:%s (aar): name, description, url, licences %s, scm, developers, %s"
                 % (version, "+".join(n for n, _ in licences), ":".join(deps[0][:3]) if deps else "-"))

    # The Gradle module metadata.
    meta = json.load(open(base + ".module"))
    if meta.get("formatVersion") != "1.1":
        problems.append(".module formatVersion %r" % meta.get("formatVersion"))
    component = meta.get("component", {})
    if (component.get("group"), component.get("module"), component.get("version")) != ("com.payhandoff", "payhandoff", version):
        problems.append(".module component %s" % component)
    variants = {v["name"]: v for v in meta.get("variants", [])}
    wanted = {("library", "java-api", None, "payhandoff-%s.aar" % version),
              ("library", "java-runtime", None, "payhandoff-%s.aar" % version),
              ("documentation", "java-runtime", "sources", "payhandoff-%s-sources.jar" % version),
              ("documentation", "java-runtime", "javadoc", "payhandoff-%s-javadoc.jar" % version)}
    found = set()
    for v in variants.values():
        a = v.get("attributes", {})
        for f in v.get("files", []):
            found.add((a.get("org.gradle.category"), a.get("org.gradle.usage"), a.get("org.gradle.docstype"), f.get("url")))
            path = os.path.join(vdir, f.get("url", ""))
            if not os.path.isfile(path):
                problems.append(".module variant %s names a missing file %s" % (v["name"], f.get("url")))
                continue
            data = open(path, "rb").read()
            if f.get("size") != len(data):
                problems.append(".module size of %s is %s, the file has %d bytes" % (f["url"], f.get("size"), len(data)))
            for d in ("sha512", "sha256", "sha1", "md5"):
                if f.get(d) != hashlib.new(d, data).hexdigest():
                    problems.append(".module %s of %s does not match the file" % (d, f["url"]))
        if a.get("org.gradle.category") == "library":
            mdeps = [(d["group"], d["module"], d["version"].get("requires")) for d in v.get("dependencies", [])]
            if [(g, m, ver) for g, m, ver, _ in deps] != mdeps:
                problems.append(".module variant %s dependencies %s differ from the POM's %s" % (v["name"], mdeps, deps))
    if found != wanted:
        problems.append(".module variants %s, expected %s" % (sorted(map(str, found)), sorted(map(str, wanted))))
    lines.append(".module 1.1: %d variants (%s), every file's size and sha512/sha256/sha1/md5 match"
                 % (len(variants), ", ".join(sorted(variants))))

    # Checksums of every file.
    files = [os.path.join(vdir, f) for f in sorted(os.listdir(vdir)) if not f.rsplit(".", 1)[-1] in DIGESTS + ("sha512",)]
    files.append(os.path.join(adir, "maven-metadata.xml"))
    for path in files:
        data = open(path, "rb").read()
        for d in DIGESTS:
            sum_path = "%s.%s" % (path, d)
            if not os.path.isfile(sum_path):
                problems.append("no %s" % os.path.relpath(sum_path, dist))
            elif open(sum_path).read().split()[0] != hashlib.new(d, data).hexdigest():
                problems.append("%s does not match %s" % (os.path.relpath(sum_path, dist), os.path.basename(path)))
    lines.append("checksums: %d files, each with matching .md5/.sha1/.sha256" % len(files))
    metadata = ET.parse(os.path.join(adir, "maven-metadata.xml")).getroot()
    if version not in [v.text for v in metadata.findall("versioning/versions/version")]:
        problems.append("maven-metadata.xml does not list %s" % version)

    # The artifacts themselves.
    aar = open(base + ".aar", "rb").read()
    if aar != open(os.path.join(dist, "android/payhandoff-%s.aar" % version), "rb").read():
        problems.append("the Maven .aar differs from dist/android's")
    sources = set(zipfile.ZipFile(base + "-sources.jar").namelist())
    kotlin_root = os.path.join(ROOT, "bindings/android/src/main/kotlin")
    kotlin = {os.path.relpath(os.path.join(d, f), kotlin_root) for d, _, fs in os.walk(kotlin_root) for f in fs if f.endswith(".kt")}
    if kotlin - sources:
        problems.append("-sources.jar misses %s" % sorted(kotlin - sources))
    page = zipfile.ZipFile(base + "-javadoc.jar").read("index.html").decode()
    for cls in ("com.payhandoff.PayHandoff", "com.payhandoff.Coordinator", "com.payhandoff.Outcome"):
        if 'id="%s"' % cls not in page:
            problems.append("-javadoc.jar's index.html has no %s" % cls)
    lines.append("-sources.jar: %d Kotlin files; -javadoc.jar: index.html (%d bytes)" % (len(sources & kotlin), len(page)))

    # Native debug symbols.
    zaar = zipfile.ZipFile(os.path.join(dist, "android/payhandoff-%s.aar" % version))
    abis = sorted(n.split("/")[1] for n in zaar.namelist() if n.startswith("jni/") and n.endswith("/libpayhandoff.so"))
    symbols = zipfile.ZipFile(os.path.join(dist, "android/native-debug-symbols.zip"))
    names = sorted(symbols.namelist())
    if names != ["%s/libpayhandoff.so" % abi for abi in abis]:
        problems.append("native-debug-symbols.zip holds %s, expected <ABI>/libpayhandoff.so for %s" % (names, abis))
    ids = []
    for abi in abis:
        stripped = zaar.read("jni/%s/libpayhandoff.so" % abi)
        try:
            full = symbols.read("%s/libpayhandoff.so" % abi)
        except KeyError:
            continue
        if ".symtab" not in elf_sections(full):
            problems.append("native-debug-symbols.zip: %s/libpayhandoff.so has no symbol table (stripped)" % abi)
        if ".symtab" in elf_sections(stripped):
            problems.append("the AAR's jni/%s/libpayhandoff.so is not stripped" % abi)
        a, b = build_id(stripped), build_id(full)
        if not a or a != b:
            problems.append("build-id of %s: AAR %s, native-debug-symbols.zip %s" % (abi, a, b))
        problems += line_problems(abi, full)
        ids.append("%s %s" % (abi, (b or "-")[:12]))
    lines.append("native-debug-symbols.zip: %s unstripped with line tables (the Swift function behind an export and a JNI function map to "
                 "file:line; x86: the JNI function), build-ids equal to the AAR's stripped libraries (%s)" % (", ".join(abis), ", ".join(ids)))
    return problems, lines


def corrupt(dist):
    """Copies of dist/maven and the symbols zip with faults the checker must find."""
    tmp = tempfile.mkdtemp(prefix="payhandoff-publish-check-")
    shutil.copytree(os.path.join(dist, "maven"), os.path.join(tmp, "maven"))
    os.makedirs(os.path.join(tmp, "android"))
    for f in os.listdir(os.path.join(dist, "android")):
        if f.endswith(".aar") or f.endswith(".zip"):
            shutil.copy(os.path.join(dist, "android", f), os.path.join(tmp, "android", f))
    # 1. one byte of the Maven AAR (checksums, .module hashes and the dist/android comparison).
    for d, _, fs in os.walk(os.path.join(tmp, "maven")):
        for f in fs:
            if f.endswith(".aar"):
                data = bytearray(open(os.path.join(d, f), "rb").read())
                data[len(data) // 2] ^= 1
                open(os.path.join(d, f), "wb").write(bytes(data))
    # 2. the symbols zip with the ABIs' unstripped libraries swapped (build-ids differ).
    path = os.path.join(tmp, "android/native-debug-symbols.zip")
    z = zipfile.ZipFile(path)
    entries = sorted(z.namelist())
    contents = [z.read(n) for n in entries]
    z.close()
    # 3. the first of them without its line tables (llvm-objcopy --strip-debug keeps the symbols).
    nodebug = os.path.join(tmp, "nodebug.so")
    open(nodebug, "wb").write(contents[1])
    subprocess.run([toolchain_tool("llvm-objcopy"), "--strip-debug", nodebug], check=True)
    contents[1] = open(nodebug, "rb").read()
    os.remove(nodebug)
    with zipfile.ZipFile(path, "w") as out:
        for name, data in zip(entries, contents[1:] + contents[:1]):
            out.writestr(name, data)
    return tmp


def main():
    args = sys.argv[1:]
    expect_failures = "--expect-failures" in args
    args = [a for a in args if a != "--expect-failures"]
    if len(args) != 1:
        sys.exit(__doc__)
    dist = args[0]
    if expect_failures:
        tmp = corrupt(dist)
        try:
            problems, _ = check(tmp)
        finally:
            shutil.rmtree(tmp)
        kinds = [k for k in ("does not match", "build-id", "no line table") if any(k in p for p in problems)]
        if len(kinds) == 3:
            print("android-publish-check: corrupted copies (one AAR byte, swapped debug libraries, one without line tables): %d problems found, as expected (checksums, build-ids, line tables)" % len(problems))
            return
        print("FAIL: android-publish-check: the corrupted copies passed (found: %s)" % problems)
        sys.exit(1)
    problems, lines = check(dist)
    for line in lines:
        print("android-publish-check: " + line)
    for p in problems:
        print("FAIL: android-publish-check: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
