#!/usr/bin/env python3
"""Reruns the `payhandoff doctor` examples of docs/doctor.md and pastes their real output; with
--check, verifies instead that docs/doctor.md documents every option.

Usage: scripts/update-readme-doctor-run.py PATH/TO/payhandoff
       scripts/update-readme-doctor-run.py --check PATH/TO/payhandoff

Each example is a ```console block whose first line is `$ payhandoff doctor ARGS` and whose
last two lines are `$ echo $?` and the exit status; everything between is replaced by what the
binary prints now (run from the repository root, so the fixture paths are the page's).
DoctorCLITests.testTheDocumentedRunIsTheToolsOutput fails when the two differ.

--check (`make readme-doctor-check`, part of `make test`) fails, naming them, when an option
that `payhandoff doctor --help` lists is missing from docs/doctor.md. (The README only points
there; the script keeps its name so that `make doctor-readme` and the check read as before.)
"""
import pathlib
import re
import subprocess
import sys

START = "```console\n$ payhandoff doctor "
PAGE = "docs/doctor.md"


def refresh(binary: str, root: pathlib.Path) -> int:
    page_path = root / PAGE
    page = page_path.read_text()
    position = 0
    runs = []
    while True:
        found = page.find(START, position)
        if found < 0:
            break
        begin = found + len("```console\n")
        end = page.index("\n```", begin)
        command = page[begin:end].split("\n", 1)[0]
        arguments = command[len("$ payhandoff "):].split(" ")
        run = subprocess.run([binary] + arguments, cwd=root, capture_output=True, text=True)
        block = command + "\n" + run.stdout + "$ echo $?\n" + str(run.returncode)
        page = page[:begin] + block + page[end:]
        position = begin + len(block)
        runs.append(f"exit status {run.returncode}, {run.stdout.count(chr(10))} lines")
    page_path.write_text(page)
    print(f"{PAGE}: {len(runs)} doctor run(s) refreshed ({'; '.join(runs)})")
    return 0


def check(binary: str, root: pathlib.Path) -> int:
    page = (root / PAGE).read_text()
    help_text = subprocess.run([binary, "doctor", "--help"], capture_output=True, text=True, check=True).stdout
    options = sorted(set(re.findall(r"--[a-z0-9][a-z0-9-]*", help_text)))
    missing = [option for option in options if not re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", page)]
    if missing:
        print(f"{PAGE} does not document " + ", ".join(missing), file=sys.stderr)
        return 1
    print(f"{PAGE} documents all {len(options)} options of payhandoff doctor --help")
    return 0


def main() -> int:
    arguments = sys.argv[1:]
    checking = arguments[:1] == ["--check"]
    if checking:
        arguments = arguments[1:]
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(__file__).resolve().parent.parent
    return check(arguments[0], root) if checking else refresh(arguments[0], root)


if __name__ == "__main__":
    sys.exit(main())
