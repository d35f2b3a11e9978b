#!/usr/bin/env python3
"""Runs `make test`'s steps one after another and ends with where the time went.

Usage: scripts/timed_steps.py [--make MAKE] [--json FILE] [--keep-going] [--require "T..."] STEP...

A STEP is a make target, or targets joined by `+` that run side by side (each in its own
make process; their output is held and printed whole when each ends, so the log never
interleaves). Each step runs as `make --no-print-directory TARGET`: a target's prerequisites
are files or cheap to repeat, so a target named twice costs its check only. A STEP written
`bg:TARGET` starts TARGET and goes straight on to the next step: a long target that keeps one
core busy (the sanitizers) runs beside every later step instead of holding them up; the run
waits for it at the end, and its output is printed when it ends, as a side-by-side member's.

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
import signal
import tempfile
import time


# Targets started with `bg:`, by pid: (target, log, start, process). A side-by-side step's wait for any
# child may reap one of them; its result then waits in `background_done` for the end.
background = {}
background_done = []


def start_logged(make, target):
    """Starts `make TARGET` with its output held in a temporary file, in a process group of its own
    (so a background target can be stopped whole); returns (pid, (target, log, start, process)).
    The Popen object stays referenced: dropped, subprocess would reap the child behind our back."""
    log = tempfile.TemporaryFile(mode="w+b")
    process = subprocess.Popen([make, "--no-print-directory", target], stdout=log, stderr=subprocess.STDOUT,
                               process_group=0)
    return process.pid, (target, log, time.monotonic(), process)


def finish_logged(entry, status, usage):
    """Prints a held target's output now that it ended; returns its (target, wall, cpu, rc)."""
    target, log, start, _ = entry
    wall = time.monotonic() - start
    rc = os.waitstatus_to_exitcode(status)
    print(f"--- {target} ({wall:.0f} s{', failed' if rc else ''})", flush=True)
    log.seek(0)
    sys.stdout.buffer.write(log.read())
    sys.stdout.flush()
    log.close()
    return (target, wall, usage.ru_utime + usage.ru_stime, rc)


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
    running = dict(start_logged(make, target) for target in targets)
    results = []
    while running:
        pid, status, usage = os.wait4(-1, 0)
        if pid in background:
            background_done.append(finish_logged(background.pop(pid), status, usage))
        elif pid in running:
            results.append(finish_logged(running.pop(pid), status, usage))
    return results


def start_background(make, target):
    print(f"=== {target} (in the background: its output when it ends)", flush=True)
    pid, entry = start_logged(make, target)
    background[pid] = entry


def stop_background():
    for pid in background:
        try:
            os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def join_background(stop):
    """Waits for every background target (ends them first when `stop`: a step failed); returns their rows."""
    if stop:
        stop_background()
    while background:
        pid, status, usage = os.wait4(-1, 0)
        if pid in background:
            background_done.append(finish_logged(background.pop(pid), status, usage))
    return background_done


def table(rows, total_wall):
    lines = [f"{'target':<28} {'wall s':>8} {'cpu s':>8} {'cpu/wall':>8}  status"]
    for target, wall, cpu, rc in sorted(rows, key=lambda r: -r[1]):
        ratio = cpu / wall if wall > 0 else 0.0
        lines.append(f"{target:<28} {wall:8.0f} {cpu:8.0f} {ratio:8.2f}  {'ok' if rc == 0 else f'FAILED ({rc})'}")
    cpu_sum = sum(r[2] for r in rows)
    lines.append(f"{'total (wall of the run)':<28} {total_wall:8.0f} {cpu_sum:8.0f} {cpu_sum / total_wall if total_wall else 0:8.2f}  "
                 f"{sum(1 for r in rows if r[3] == 0)} of {len(rows)} targets ok; {os.cpu_count()} cores")
    return "\n".join(lines)


def run_steps(args, rows):
    """Runs the steps in order, adding each target's row; stops at the first failure unless --keep-going."""
    for step in args.steps:
        if step.startswith("bg:"):
            start_background(args.make, step.removeprefix("bg:"))
            continue
        results = run_step(args.make, step.split("+"), args.keep_going)
        rows.extend(results)
        if any(r[3] != 0 for r in results + background_done) and not args.keep_going:
            return


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--make", default=os.environ.get("MAKE", "make"))
    parser.add_argument("--json", default=".build/test-times.json")
    parser.add_argument("--keep-going", action="store_true", help="run every step even after a failure")
    parser.add_argument("--require", default="", help="targets that must appear among the steps")
    parser.add_argument("steps", nargs="+")
    args = parser.parse_args()
    named = {target.removeprefix("bg:") for step in args.steps for target in step.split("+")}
    missing = [target for target in args.require.split() if target not in named]
    if missing:
        print(f"timed_steps: not among the steps: {' '.join(missing)} (add each to TEST_STEPS in the Makefile)", file=sys.stderr)
        return 2

    rows = []
    start = time.monotonic()
    try:
        run_steps(args, rows)
    except BaseException:
        stop_background()
        raise
    if background:
        print(f"=== waiting for {' + '.join(entry[0] for entry in background.values())} (started in the background)", flush=True)
    failed = next((r[3] for r in rows + background_done if r[3] != 0), 0)
    results = join_background(stop=bool(failed) and not args.keep_going)
    rows.extend(results)
    failed = failed or next((r[3] for r in results if r[3] != 0), 0)
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
