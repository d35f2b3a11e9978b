#!/usr/bin/env python3
"""Reruns the `payhandoff doctor` examples of README.md and pastes their real output; with
--check, verifies instead that the README's doctor section documents every option.

Usage: scripts/update-readme-doctor-run.py PATH/TO/payhandoff
       scripts/update-readme-doctor-run.py --check PATH/TO/payhandoff

Each README example is a ```console block whose first line is `$ payhandoff doctor ARGS` and
whose last two lines are `$ echo $?` and the exit status; everything between is replaced by
what the binary prints now (run from the repository root, so the fixture paths are the
README's). DoctorCLITests.testTheREADMERunIsTheToolsOutput fails when the two differ.

--check (`make readme-doctor-check`, part of `make test`) fails, naming them, when an option
that `payhandoff doctor --help` lists is missing from the README's "Integration check" section.
"""
import pathlib
import re
import subprocess
import sys

START = "```console\n$ payhandoff doctor "
SECTION = "## Integration check: `payhandoff doctor`"


def refresh(binary: str, root: pathlib.Path) -> int:
    readme_path = root / "README.md"
    readme = readme_path.read_text()
    position = 0
    runs = []
    while True:
        found = readme.find(START, position)
        if found < 0:
            break
        begin = found + len("```console\n")
        end = readme.index("\n```", begin)
        command = readme[begin:end].split("\n", 1)[0]
        arguments = command[len("$ payhandoff "):].split(" ")
        run = subprocess.run([binary] + arguments, cwd=root, capture_output=True, text=True)
        block = command + "\n" + run.stdout + "$ echo $?\n" + str(run.returncode)
        readme = readme[:begin] + block + readme[end:]
        position = begin + len(block)
        runs.append(f"exit status {run.returncode}, {run.stdout.count(chr(10))} lines")
    readme_path.write_text(readme)
    print(f"README.md: {len(runs)} doctor run(s) refreshed ({'; '.join(runs)})")
    return 0


def check(binary: str, root: pathlib.Path) -> int:
    readme = (root / "README.md").read_text()
    start = readme.index(SECTION)
    end = readme.index("\n## ", start + len(SECTION))
    section = readme[start:end]
    help_text = subprocess.run([binary, "doctor", "--help"], capture_output=True, text=True, check=True).stdout
    options = sorted(set(re.findall(r"--[a-z0-9][a-z0-9-]*", help_text)))
    missing = [option for option in options if not re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", section)]
    if missing:
        print("README.md: the doctor section does not document " + ", ".join(missing), file=sys.stderr)
        return 1
    print(f"README.md: the doctor section documents all {len(options)} options of payhandoff doctor --help")
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
