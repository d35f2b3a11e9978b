#!/usr/bin/env python3
"""Process-death test (issue 9): SIGKILL at every point of both flows, then resume.

    python3 Tests/ProcessDeath/kill_test.py DRIVER [DRIVER ...]

DRIVER is Tests/ProcessDeath/driver.c built against one library (mk/sanitizers.mk builds it
against dist/full and dist/embedded). For each flow (pos, checkout):
1. an uninterrupted run gives the reference output (journal of outcomes and effects per step,
   final state of every flow, refund ledger);
2. for every kill point p (see driver.c): a fresh state file, a run that must die of SIGKILL at
   p, then a run that restores from the saved snapshot and finishes; its output must equal the
   reference;
3. one state file killed at every point in turn (a run per point, each resuming from the
   previous one's save), then finished: again the reference.
"""
import os
import signal
import subprocess
import sys
import tempfile

POINTS_PER_STEP = 4
STEPS = {"pos": 8, "checkout": 7}


def run(driver, flow, state, point=None):
    args = [driver, flow, state] + ([str(point)] if point is not None else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=60)


def main() -> int:
    failures = 0
    kills = 0
    for driver in sys.argv[1:]:
        for flow, steps in STEPS.items():
            with tempfile.TemporaryDirectory() as tmp:
                state = os.path.join(tmp, "state.json")
                reference = run(driver, flow, state)
                if reference.returncode != 0:
                    print(f"kill-test: {driver} {flow}: uninterrupted run failed: {reference.stderr}")
                    return 1
                assert reference.stdout.count("step ") == steps, reference.stdout
                points = POINTS_PER_STEP * steps + 1  # the last: before the step after the end
                for p in range(points):
                    os.remove(state) if os.path.exists(state) else None
                    killed = run(driver, flow, state, p)
                    died = killed.returncode == -signal.SIGKILL
                    if p < points - 1 and not died:
                        print(f"kill-test: {flow} point {p}: expected SIGKILL, got exit {killed.returncode}")
                        failures += 1
                        continue
                    kills += died
                    resumed = run(driver, flow, state) if died else killed
                    if resumed.returncode != 0 or resumed.stdout != reference.stdout:
                        failures += 1
                        print(f"kill-test: {flow} point {p}: resumed run differs\n--- reference\n{reference.stdout}"
                              f"--- resumed (exit {resumed.returncode})\n{resumed.stdout}{resumed.stderr}")
                os.remove(state)
                lives = 0
                for p in range(points):
                    r = run(driver, flow, state, p)
                    lives += 1
                    if r.returncode == -signal.SIGKILL:
                        kills += 1
                final = run(driver, flow, state)
                if final.stdout != reference.stdout:
                    failures += 1
                    print(f"kill-test: {flow}: killed at every point in turn, the output differs\n{final.stdout}")
                print(f"kill-test: {os.path.basename(driver)} {flow}: "
                      f"{points - 1} kill points x 1 + 1 chain of {lives} lives; final: "
                      + ", ".join(line[6:] for line in reference.stdout.splitlines() if line.startswith("final ")))
    print(f"kill-test: {kills} SIGKILLs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
