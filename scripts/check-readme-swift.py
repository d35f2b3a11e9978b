#!/usr/bin/env python3
"""Type-checks every ```swift block of README.md and of the pages in docs/ against the built
package, so the documentation cannot drift from the API (issue 21; the README's Swift examples
moved to docs/ in issue 25).

    python3 scripts/check-readme-swift.py MODULES_DIR OUT_DIR

MODULES_DIR is SwiftPM's module folder (`$(swift build --show-bin-path)/Modules`). Each block
becomes the body of a throwing function in its own file, after a prelude that declares the app's
own values the snippets use (a user token, the URL the OS handed the app, what to save…), and is
type-checked with `swiftc -typecheck`. Prints one line per block; exits 1 when any fails. A block
fenced ```swift Package.swift (a manifest fragment: SwiftPM's API, not the app's) is not one of them.
"""
import pathlib
import re
import subprocess
import sys

PRELUDE = """\
import Foundation
import PayHandoff
import PayHandoffFoundation

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
let stateFile = URL(fileURLWithPath: "/tmp/payhandoff-state.json")
func save(_ transactionId: String?, _ amount: Amount?) {}
func save(_ snapshot: JSONValue) {}
func perform(_ transitions: [FlowTransition]) {}
func perform(_ effect: FlowEffect) {}
func log(_ error: PayHandoffError?) {}
"""


def pages(root: pathlib.Path) -> list[pathlib.Path]:
    """README.md and every page of docs/: a Swift example is checked wherever it is moved."""
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def main(argv: list[str]) -> int:
    modules, out = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    root = pathlib.Path(__file__).resolve().parent.parent
    blocks = []  # (page, block)
    for page in pages(root):
        found = re.findall(r"```swift\n(.*?)```", page.read_text(), flags=re.S)
        blocks += [(page.relative_to(root), block) for block in found]
    if not blocks:
        print("readme-swift: no swift blocks in README.md or docs/*.md")
        return 1
    failed = 0
    for number, (page, block) in enumerate(blocks, 1):
        lines = block.splitlines()
        imports = [line for line in lines if line.startswith("import ")]  # file scope, after the prelude's
        body = "\n".join("    " + line if line else "" for line in lines if not line.startswith("import "))
        source = out / f"snippet{number}.swift"
        source.write_text(PRELUDE + "\n".join(imports) + f"\nfunc snippet{number}() throws {{\n{body}\n}}\n")
        first = block.strip().splitlines()[0][:60]
        result = subprocess.run(["swiftc", "-typecheck", "-I", str(modules), str(source)], capture_output=True, text=True)
        if result.returncode == 0:
            print(f"readme-swift: {page} block {number} ({first}…) type-checks")
        else:
            failed += 1
            print(f"readme-swift: {page} block {number} ({first}…) FAILS:\n{result.stderr}")
    files = ", ".join(sorted({str(page) for page, _ in blocks}))
    print(f"readme-swift: {len(blocks) - failed} of {len(blocks)} Swift blocks ({files}) type-check against the package")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
