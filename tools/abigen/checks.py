"""What the generator checks instead of writing: the hand-written header, the @_cdecl exports,
and every place a version is mentioned in prose or must be read from the generated constants.
Each problem names its file."""
import glob
import os
import re

from table import GENERATED_NOTICE, constant_name

HEADER = "include/payhandoff.h"
ABI_SWIFT_DIR = "Sources/PayHandoffABI"
PODSPEC = "bindings/react-native/PayHandoff.podspec"

# (file, pattern whose group 1 must equal the table's value, which value, must the pattern occur)
VERSION_MENTIONS = [
    (HEADER, r"library version, e\.g\. \"([^\"]+)\"", "library_version", True),
    ("docs/abi.md", r"ABI version (\d+) \(`PAYHANDOFF_ABI_VERSION`", "abi_version", True),
    ("docs/abi.md", r"`payhandoff_abi_version\(\)`\), library (\d+\.\d+\.\d+)", "library_version", True),
    ("bindings/android/README.md", r"payhandoff-(\d+\.\d+\.\d+)\.aar", "library_version", False),
    ("bindings/android/README.md", r"com\.payhandoff:payhandoff:(\d+\.\d+\.\d+)", "library_version", False),
    ("README.md", r"com\.payhandoff:payhandoff:(\d+\.\d+\.\d+)", "library_version", False),
    ("README.md", r"\.package\(url: \"[^\"]+\", from: \"(\d+\.\d+\.\d+)\"", "library_version", False),
    ("docs/swift.md", r"\.package\(url: \"[^\"]+\", from: \"(\d+\.\d+\.\d+)\"", "library_version", False),
    ("bindings/android/src/main/kotlin/com/payhandoff/PayHandoff.kt", r"e\.g\. \"(\d+\.\d+\.\d+)\"", "library_version", False),
    ("bindings/react-native/src/PayHandoff.ts", r"e\.g\. \"(\d+\.\d+\.\d+)\"", "library_version", False),
    ("bindings/web/src/PayHandoff.ts", r"e\.g\. \"(\d+\.\d+\.\d+)\"", "library_version", False),
]

# Hand-written binding sources must take the ABI version from the generated constants.
ABI_LITERAL = re.compile(r"\bABI_VERSION\b[^=\n]*=\s*\d")
BINDING_SOURCES = ["bindings/android/src/main/kotlin/**/*.kt", "bindings/react-native/src/**/*.ts", "bindings/web/src/**/*.ts"]


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def normal_type(text):
    """'const char *' from 'const  char*': one space between words, stars after one space."""
    text = " ".join(text.split())
    stars = text.count("*")
    base = text.replace("*", "").strip()
    return base + (" " + "*" * stars if stars else "")


def strip_c_comments(text):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", " ", text, flags=re.S))


def header_prototypes(text):
    """{name: (return type, [(param type, param name)])} of every PAYHANDOFF_API declaration."""
    prototypes = {}
    declarations = re.sub(r"^\s*#[^\n]*", "", strip_c_comments(text), flags=re.M)  # no macro lines
    for ret, name, params in re.findall(r"PAYHANDOFF_API\s+([^;()]*?)\b(payhandoff_\w+)\s*\(([^)]*)\)\s*;",
                                        declarations):
        parsed = []
        for param in params.split(","):
            param = param.strip()
            if param in ("", "void"):
                continue
            m = re.fullmatch(r"(.*?)(\w+)", param, re.S)
            parsed.append((normal_type(m.group(1)), m.group(2)))
        prototypes[name] = (normal_type(ret), parsed)
    return prototypes


def check_header(table, root):
    problems = []
    text = read(root, HEADER)
    found = header_prototypes(text)
    for f in table.functions:
        if f.name not in found:
            problems.append(f"{HEADER}: {f.name} is in abi/payhandoff.json but has no PAYHANDOFF_API prototype")
            continue
        ret, params = found[f.name]
        want = [(p["type"], p["name"]) for p in f.params]
        if ret != f.returns["type"] or params != want:
            shown = lambda r, ps: f"{r} {f.name}(" + (", ".join(f"{t} {n}" for t, n in ps) or "void") + ")"
            problems.append(f"{HEADER}: {shown(ret, params)} differs from the table's {shown(f.returns['type'], want)}")
    for name in sorted(set(found) - {f.name for f in table.functions}):
        problems.append(f"{HEADER}: {name} is declared but not in abi/payhandoff.json (add its row)")
    bare = strip_c_comments(text)
    m = re.search(r"#define\s+PAYHANDOFF_ABI_VERSION\s+(\d+)", bare)
    if not m or int(m.group(1)) != table.abi_version:
        problems.append(f"{HEADER}: PAYHANDOFF_ABI_VERSION is {m.group(1) if m else 'missing'}, "
                        f"the table's abi_version is {table.abi_version}")
    defined = {name: int(n) for name, n in re.findall(r"#define\s+(PAYHANDOFF_MAX_\w+)\s+(\d+)\b", bare)}
    for limit in table.limits:
        if limit.name not in defined:
            problems.append(f"{HEADER}: no '#define {limit.name} {limit.value}' for the table's limits.{limit.name}")
        elif defined[limit.name] != limit.value:
            problems.append(f"{HEADER}: {limit.name} is {defined[limit.name]}, the table's limits.{limit.name} is {limit.value}")
    for name in sorted(set(defined) - {limit.name for limit in table.limits}):
        problems.append(f"{HEADER}: {name} is defined but not in abi/payhandoff.json's limits (add it there)")
    macros = {name: int(n) for name, n in re.findall(r"#define\s+(PAYHANDOFF_(?:OK|ERR_\w+))\s+(\d+)", bare)}
    want = {("PAYHANDOFF_OK" if w == "ok" else "PAYHANDOFF_ERR_" + constant_name(w)): n
            for w, n in table.vocabularies["Status"].codes.items()}
    if macros != want:
        diff = sorted(set(macros.items()) ^ set(want.items()))
        problems.append(f"{HEADER}: the status macros differ from vocabularies.Status: {diff}")
    for handle in table.handles:
        if not re.search(rf"typedef\s+struct\s+{handle}\s+{handle}\s*;", bare):
            problems.append(f"{HEADER}: no 'typedef struct {handle} {handle};' for the table's handle")
    return problems


def _parameter_count(params):
    depth, count, seen = 0, 0, False
    for ch in params:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
        if not ch.isspace():
            seen = True
    return count + 1 if seen else 0


def swift_exports(root):
    """{C name: (Swift function name, parameter count, file)} of every @_cdecl in the ABI layer."""
    exports = {}
    for path in sorted(glob.glob(os.path.join(root, ABI_SWIFT_DIR, "*.swift"))):
        text = read(root, os.path.relpath(path, root))
        for m in re.finditer(r'@_cdecl\("(\w+)"\)\s*public\s+func\s+(\w+)\s*\(', text):
            depth, i = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            exports[m.group(1)] = (m.group(2), _parameter_count(text[m.end():i - 1]), os.path.relpath(path, root))
    return exports


def check_swift(table, root, generated_paths):
    problems = []
    exports = swift_exports(root)
    for f in table.functions:
        if f.name not in exports:
            problems.append(f"{ABI_SWIFT_DIR}: no @_cdecl(\"{f.name}\") export for the table's {f.name}")
            continue
        swift_name, count, path = exports[f.name]
        if swift_name != f.name:
            problems.append(f"{path}: @_cdecl(\"{f.name}\") is on func {swift_name}; name it {f.name}")
        if count != len(f.params):
            problems.append(f"{path}: {f.name} takes {count} parameters, the table's row {len(f.params)}")
    for name in sorted(set(exports) - {f.name for f in table.functions}):
        problems.append(f"{exports[name][2]}: @_cdecl(\"{name}\") is not in abi/payhandoff.json (add its row)")
    for path in sorted(glob.glob(os.path.join(root, ABI_SWIFT_DIR, "*.swift"))):
        rel = os.path.relpath(path, root)
        if rel in generated_paths:
            continue
        code = re.sub(r"//[^\n]*", "", read(root, rel))
        if f'"{table.library_version}"' in code or re.search(r"func payhandoff_abi_version\(\)[^{]*\{\s*\d+\s*\}", code):
            problems.append(f"{rel}: writes a version literally; read LibraryVersion (generated) instead")
    return problems


def check_versions(table, root, generated_paths):
    problems = []
    for path, pattern, key, required in VERSION_MENTIONS:
        if not os.path.exists(os.path.join(root, path)):
            if required:
                problems.append(f"{path}: missing")
            continue
        want = str(getattr(table, key))
        found = re.findall(pattern, read(root, path))
        if required and not found:
            problems.append(f"{path}: no mention of the {key.replace('_', ' ')} matching /{pattern}/")
        for value in found:
            if value != want:
                problems.append(f"{path}: mentions {key.replace('_', ' ')} {value}, the table's is {want}")
    if not re.search(r"s\.version\s*=\s*package\[\"version\"\]", read(root, PODSPEC)):
        problems.append(f"{PODSPEC}: s.version must be package[\"version\"] (package.json's, which tools/abigen writes)")
    for pattern in BINDING_SOURCES:
        for path in sorted(glob.glob(os.path.join(root, pattern), recursive=True)):
            rel = os.path.relpath(path, root)
            if rel in generated_paths:
                continue
            for line in read(root, rel).splitlines():
                if ABI_LITERAL.search(line) and not line.lstrip().startswith(("//", "*", "/*")):
                    problems.append(f"{rel}: '{line.strip()}' writes the ABI version literally; "
                                    "use the generated constant (Versions.ABI, versions.ts)")
    return problems


def is_generated(text):
    return GENERATED_NOTICE in text[:400]
