#!/usr/bin/env python3
"""Runs `make test`'s steps one after another and ends with where the time went.

Usage: scripts/timed_steps.py [--make MAKE] [--json FILE] [--keep-going] [--require "T..."] STEP...

A STEP is a make target, or targets joined by `+` that run side by side (each in its own
make process; their output is held and printed whole when each ends, so the log never
interleaves). Each step runs as `make --no-print-directory TARGET`: a target's prerequisites
are files or cheap to repeat, so a target named twice costs its check only.

At the end, whatever happened, a table: every target that ran, its wall time and CPU time
(user + system of the make process and everything it waited for, from wait4), CPU / wall
(about 2.0 keeps both cores busy, 1.0 leaves one idle), slowest first, then the total. The same
figures go to --json (default .build/test-times.json) for a later run to compare against.
--require names targets that must be among the steps (make test: every fragment's BINDING_TESTS), so
a list of steps written by hand cannot drop a check. Exit status: 0 when every step passed, else
the first failure's (2 when a required target is missing).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run_step(make, targets, keep_going):
    """Runs one step (one target, or several side by side); returns [(target, wall, cpu, rc)]."""
    if len(targets) == 1:
        target = targets[0]
        print(f"=== {target}", flush=True)
        start = time.monotonic()
        process = subprocess.Popen([make, "--no-print-directory", target])
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - start
        return [(target, wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))]

    print(f"=== {' + '.join(targets)} (side by side; each one's output when it ends)", flush=True)
    running = {}
    for target in targets:
        log = tempfile.TemporaryFile(mode="w+b")
        process = subprocess.Popen([make, "--no-print-directory", target], stdout=log, stderr=subprocess.STDOUT)
        running[process.pid] = (target, log, time.monotonic())
    results = []
    while running:
        pid, status, usage = os.wait4(-1, 0)
        if pid not in running:
            continue
        target, log, start = running.pop(pid)
        wall = time.monotonic() - start
        rc = os.waitstatus_to_exitcode(status)
        print(f"--- {target} ({wall:.0f} s{', failed' if rc else ''})", flush=True)
        log.seek(0)
        sys.stdout.buffer.write(log.read())
        sys.stdout.flush()
        log.close()
        results.append((target, wall, usage.ru_utime + usage.ru_stime, rc))
    return results


def table(rows, total_wall):
    lines = [f"{'target':<28} {'wall s':>8} {'cpu s':>8} {'cpu/wall':>8}  status"]
    for target, wall, cpu, rc in sorted(rows, key=lambda r: -r[1]):
        ratio = cpu / wall if wall > 0 else 0.0
        lines.append(f"{target:<28} {wall:8.0f} {cpu:8.0f} {ratio:8.2f}  {'ok' if rc == 0 else f'FAILED ({rc})'}")
    cpu_sum = sum(r[2] for r in rows)
    lines.append(f"{'total (wall of the run)':<28} {total_wall:8.0f} {cpu_sum:8.0f} {cpu_sum / total_wall if total_wall else 0:8.2f}  "
                 f"{sum(1 for r in rows if r[3] == 0)} of {len(rows)} targets ok; {os.cpu_count()} cores")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--make", default=os.environ.get("MAKE", "make"))
    parser.add_argument("--json", default=".build/test-times.json")
    parser.add_argument("--keep-going", action="store_true", help="run every step even after a failure")
    parser.add_argument("--require", default="", help="targets that must appear among the steps")
    parser.add_argument("steps", nargs="+")
    args = parser.parse_args()
    named = {target for step in args.steps for target in step.split("+")}
    missing = [target for target in args.require.split() if target not in named]
    if missing:
        print(f"timed_steps: not among the steps: {' '.join(missing)} (add each to TEST_STEPS in the Makefile)", file=sys.stderr)
        return 2

    rows, failed = [], 0
    start = time.monotonic()
    for step in args.steps:
        results = run_step(args.make, step.split("+"), args.keep_going)
        rows.extend(results)
        first_failure = next((r[3] for r in results if r[3] != 0), 0)
        if first_failure and not failed:
            failed = first_failure
        if failed and not args.keep_going:
            break
    total = time.monotonic() - start

    print()
    print("make test: where the time went (scripts/timed_steps.py)")
    print(table(rows, total))
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as out:
        json.dump({"total_wall": round(total, 1), "cores": os.cpu_count(),
                   "steps": [{"target": t, "wall": round(w, 1), "cpu": round(c, 1), "status": rc} for t, w, c, rc in rows]},
                  out, indent=1)
    return failed


if __name__ == "__main__":
    sys.exit(main())
