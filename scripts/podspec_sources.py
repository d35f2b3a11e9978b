#!/usr/bin/env python3
"""Reads bindings/react-native/PayHandoff.podspec the way CocoaPods would for what make ios-check
needs: expands its source_files globs against an unpacked npm package and prints the Swift files
they name (one per line, sorted), after checking that the pod can compile them as one module:
the flags the Embedded guard passes to swiftc must be the ones the podspec gives Xcode.

    podspec_sources.py PACKAGE_DIR            # PACKAGE_DIR holds PayHandoff.podspec
    podspec_sources.py --headers PACKAGE_DIR  # "public PATH" / "private PATH" per header of the pod
Exits 1 naming what is missing. Ruby is not needed: the podspec keeps source_files as a literal
array of strings (a comment in the podspec says so)."""
import glob, os, re, sys

def braces(pattern):
    """CocoaPods globs use {a,b} alternatives (File.fnmatch with FNM_EXTGLOB)."""
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    return [x for alt in m.group(1).split(",") for x in braces(pattern[:m.start()] + alt + pattern[m.end():])]

def header_globs(spec, attribute):
    """The globs of s.<attribute> = "a", "b" (string literals; a line ending in a comma goes on)."""
    m = re.search(rf"s\.{attribute}\s*=\s*((?:[^\n]*,[ \t]*\n)*[^\n]*)", spec)
    return re.findall(r'"([^"]+)"', m.group(1)) if m else []

def headers(package, spec):
    """What CocoaPods makes of the header attributes: every .h of source_files is public unless
    public_header_files is given (then only those) or private_header_files names it."""
    m = re.search(r"s\.source_files\s*=\s*\[(.*?)\]", spec, re.S)
    expand = lambda patterns: {os.path.relpath(f, package) for p in patterns for b in braces(p)
                               for f in glob.glob(os.path.join(package, b), recursive=True) if os.path.isfile(f)}
    all_headers = {f for f in expand(re.findall(r'"([^"]+)"', m.group(1))) if f.endswith(".h")}
    public_globs = header_globs(spec, "public_header_files")
    public = expand(public_globs) & all_headers if public_globs else set(all_headers)
    private = expand(header_globs(spec, "private_header_files")) & all_headers
    public -= private
    for h in sorted(all_headers):
        print(("public " if h in public else "private ") + h)

def main():
    if sys.argv[1] == "--headers":
        package = sys.argv[2]
        headers(package, open(os.path.join(package, "PayHandoff.podspec")).read())
        return
    package = sys.argv[1]
    spec = open(os.path.join(package, "PayHandoff.podspec")).read()
    problems = []
    m = re.search(r"s\.source_files\s*=\s*\[(.*?)\]", spec, re.S)
    if not m:
        sys.exit("podspec_sources: s.source_files is not a literal array")
    patterns = re.findall(r'"([^"]+)"', m.group(1))
    files = set()
    for pattern in patterns:
        found = [f for p in braces(pattern) for f in glob.glob(os.path.join(package, p), recursive=True)]
        if not found:
            problems.append(f"source_files pattern {pattern!r} matches nothing in the package")
        files.update(os.path.relpath(f, package) for f in found if os.path.isfile(f))
    for needed in ("core/third_party/cjson/cJSON.c", "core/include/payhandoff.h",
                   "ios/CcJSON/module.modulemap", "ios/CcJSON/shim.h"):
        if not os.path.isfile(os.path.join(package, needed)):
            problems.append(f"the package has no {needed}")
        elif needed.endswith(".c") and needed not in files:
            problems.append(f"source_files does not compile {needed}")
    for flag, setting in (("PAYHANDOFF_SINGLE_MODULE", "SWIFT_ACTIVE_COMPILATION_CONDITIONS"),
                          ("ios/CcJSON", "SWIFT_INCLUDE_PATHS"),
                          ("core/third_party/cjson", "OTHER_SWIFT_FLAGS")):
        line = re.search(rf'"{setting}"\s*=>\s*"([^\n]*)', spec)
        if not line or flag not in line.group(1):
            problems.append(f"{setting} does not carry {flag} (make ios-check compiles with it)")
    swift = sorted(f for f in files if f.endswith(".swift"))
    for top in ("core/Sources/PayHandoff/", "core/Sources/PayHandoffABI/"):
        on_disk = {os.path.relpath(f, package) for f in glob.glob(os.path.join(package, top, "**", "*.swift"), recursive=True)}
        if on_disk - set(swift):
            problems.append(f"source_files misses {sorted(on_disk - set(swift))}")
    if problems:
        print("\n".join("podspec_sources: " + p for p in problems), file=sys.stderr)
        sys.exit(1)
    print("\n".join(swift))

main()
