#!/usr/bin/env python3
"""Reruns the `payhandoff doctor` example of README.md and pastes its real output.

Usage: scripts/update-readme-doctor-run.py PATH/TO/payhandoff

The README block is a ```console block whose first line is `$ payhandoff doctor ARGS` and whose
last two lines are `$ echo $?` and the exit status; everything between is replaced by what the
binary prints now (run from the repository root, so the fixture paths are the README's).
DoctorCLITests.testTheREADMERunIsTheToolsOutput fails when the two differ.
"""
import pathlib
import subprocess
import sys

START = "```console\n$ payhandoff doctor "

def main() -> int:
    binary = sys.argv[1]
    root = pathlib.Path(__file__).resolve().parent.parent
    readme_path = root / "README.md"
    readme = readme_path.read_text()
    begin = readme.index(START) + len("```console\n")
    end = readme.index("\n```", begin)
    command = readme[begin:end].split("\n", 1)[0]
    arguments = command[len("$ payhandoff "):].split(" ")
    run = subprocess.run([binary] + arguments, cwd=root, capture_output=True, text=True)
    block = command + "\n" + run.stdout + "$ echo $?\n" + str(run.returncode)
    readme_path.write_text(readme[:begin] + block + readme[end:])
    print(f"README.md: doctor run refreshed (exit status {run.returncode}, {run.stdout.count(chr(10))} lines)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
