#!/usr/bin/env python3
"""Type-checks every ```swift block of README.md and of the pages in docs/ against the built
package, so the documentation cannot drift from the API (issue 21; the README's Swift examples
moved to docs/ in issue 25); and hands a guide's blocks to `make consumer-check` (issue 36).

    python3 scripts/check-readme-swift.py MODULES_DIR OUT_DIR
    python3 scripts/check-readme-swift.py --first PAGE      # the page's first ```swift block, as written
    python3 scripts/check-readme-swift.py --manifest PAGE   # its ```swift Package.swift block
    python3 scripts/check-readme-swift.py --prelude         # the app's values the blocks use
    python3 scripts/check-readme-swift.py --block PAGE LANG [HEADING]
        # any guide's first ```LANG block (after the first heading naming HEADING), as written:
        # make consumer-check takes every guide's first example this way (C, sh, Kotlin, Java, JS)

MODULES_DIR is SwiftPM's module folder (`$(swift build --show-bin-path)/Modules`). Each block is
a file of its own: its own `import` lines, then its body as a throwing function; it is
type-checked with `swiftc -typecheck` together with a prelude file that declares the app's own
values the snippets use (a user token, the URL the OS handed the app, what to save…). Imports
are per file in Swift, and MemberImportVisibility makes members follow the same rule, so a block
compiles only with the imports it shows: the prelude's own imports reach nothing in it (issue 36:
`import PayHandoffFoundation` alone once passed here because every block was given Foundation and
PayHandoff). Prints one line per block; exits 1 when any fails. A block fenced
```swift Package.swift (a manifest fragment: SwiftPM's API, not the app's) is not one of them.
"""
import pathlib
import re
import subprocess
import sys

# The app's own values. Its imports are its own: they reach no block.
PRELUDE = """\
import Foundation
import PayHandoff

// What the app has: the snippets use these names.
let posUserToken = "bp-user-token"
let url = URL(string: "myapp://result=aprobada&identifier=order-42~0123456789abcdef")!
let saved: JSONValue = ["version": 2]
let savedData: Data? = nil
let nowMs: Int64 = 1_796_054_400_000
let nowEpochSeconds: Int64 = 1_796_054_400
let approvedAtEpochSeconds: Int64 = 1_796_054_000
let id = "720371"
let amount = try! Amount(parsing: "100.00")
let stateFile = URL(fileURLWithPath: ProcessInfo.processInfo.environment["PAYHANDOFF_STATE_FILE"] ?? "/tmp/payhandoff-state.json")
func save(_ transactionId: String?, _ amount: Amount?) {}
func save(_ snapshot: JSONValue) {}
func perform(_ transitions: [FlowTransition]) {}
func perform(_ effect: FlowEffect) { print("perform: \\(effect)") }
func log(_ error: PayHandoffError?) { print("log: \\(error.map { $0.description } ?? "no error")") }
"""

# A block fenced ```swift apple-only needs an Apple SDK (AuthenticationServices, UIKit) and is not
# type-checked here; the page says so beside it.
FENCE = re.compile(r"```swift( Package\.swift)?\n(.*?)```", flags=re.S)


def pages(root: pathlib.Path) -> list[pathlib.Path]:
    """README.md and every page of docs/: a Swift example is checked wherever it is moved."""
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def blocks_of(page: pathlib.Path, manifest: bool = False) -> list[str]:
    """The page's ```swift blocks (or its ```swift Package.swift ones), in order."""
    return [body for marker, body in FENCE.findall(page.read_text()) if bool(marker) == manifest]


def block_of(page: pathlib.Path, lang: str, heading: str | None) -> str | None:
    """The first ```LANG block of `page` (after the first heading that contains `heading`)."""
    text = page.read_text()
    if heading is not None:
        at = re.search(r"^#+ .*" + re.escape(heading) + r".*$", text, flags=re.M)
        if at is None:
            return None
        text = text[at.end():]
    found = re.search(r"^```" + re.escape(lang) + r"\n(.*?)^```", text, flags=re.S | re.M)
    return found.group(1) if found else None


def source_of(block: str, name: str) -> str:
    """The block as a file of its own: its imports at file scope, the rest inside a function."""
    lines = block.splitlines()
    imports = [line for line in lines if line.startswith("import ")]
    body = "\n".join("    " + line if line else "" for line in lines if not line.startswith("import "))
    return "\n".join(imports) + f"\n\nfunc {name}() throws {{\n{body}\n}}\n"


def check(modules: pathlib.Path, out: pathlib.Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    root = pathlib.Path(__file__).resolve().parent.parent
    prelude = out / "prelude.swift"
    prelude.write_text(PRELUDE)
    blocks = [(page.relative_to(root), block) for page in pages(root) for block in blocks_of(page)]
    if not blocks:
        print("readme-swift: no swift blocks in README.md or docs/*.md")
        return 1
    failed = 0
    for number, (page, block) in enumerate(blocks, 1):
        source = out / f"snippet{number}.swift"
        source.write_text(source_of(block, f"snippet{number}"))
        first = block.strip().splitlines()[0][:60]
        result = subprocess.run(["swiftc", "-typecheck", "-parse-as-library", "-suppress-warnings", "-enable-upcoming-feature",
                                 "MemberImportVisibility", "-I", str(modules), str(prelude), str(source)],
                                capture_output=True, text=True)
        if result.returncode == 0:
            print(f"readme-swift: {page} block {number} ({first}…) type-checks with its own imports")
        else:
            failed += 1
            print(f"readme-swift: {page} block {number} ({first}…) FAILS:\n{result.stderr}")
    files = ", ".join(sorted({str(page) for page, _ in blocks}))
    print(f"readme-swift: {len(blocks) - failed} of {len(blocks)} Swift blocks ({files}) type-check against the package")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "--prelude":
        sys.stdout.write(PRELUDE)
        return 0
    if len(argv) == 3 and argv[1] in ("--first", "--manifest"):
        found = blocks_of(pathlib.Path(argv[2]), manifest=argv[1] == "--manifest")
        if not found:
            print(f"readme-swift: no {'Package.swift ' if argv[1] == '--manifest' else ''}swift block in {argv[2]}", file=sys.stderr)
            return 1
        sys.stdout.write(found[0])
        return 0
    if len(argv) in (4, 5) and argv[1] == "--block":
        block = block_of(pathlib.Path(argv[2]), argv[3], argv[4] if len(argv) == 5 else None)
        if block is None:
            print(f"readme: no ```{argv[3]} block in {argv[2]}" + (f" after '{argv[4]}'" if len(argv) == 5 else ""), file=sys.stderr)
            return 1
        sys.stdout.write(block)
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    return check(pathlib.Path(argv[1]), pathlib.Path(argv[2]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
