#!/usr/bin/env bash
# Runs the C harness under valgrind again and again, as `make c-harness` does, to catch an
# intermittent failure (issue 20: one run reported a SIGBUS in the dist/full harness).
#
#   scripts/valgrind_harness_loop.sh RUNS [FLAVOUR...]      (mk/fuzz.mk: make valgrind-loop)
#
# For each flavour (default: full embedded) it runs the valgrind-linked harness RUNS times with
# the thread test and RUNS times without it (PAYHANDOFF_HARNESS_NO_THREADS=1), alternating, and
# prints one line per configuration: runs, failures, and the signals valgrind saw. The log of
# every failing run is kept in .build/valgrind-loop/ and its error section printed. Needs the
# harness binaries make c-harness builds (.build/c-harness/harness-<flavour>-valgrind).
set -uo pipefail

runs=$1
shift
flavours=("$@")
[[ $# -eq 0 ]] && flavours=(full embedded)
out=.build/valgrind-loop
mkdir -p "$out"
valgrind=(valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99
          --suppressions=Tests/CHarness/valgrind.supp)
status=0
for flavour in "${flavours[@]}"; do
    harness=.build/c-harness/harness-$flavour-valgrind
    [[ -x $harness ]] || { echo "valgrind-loop: $harness is missing (run make c-harness)"; exit 2; }
    declare -A failures=([threads]=0 [no-threads]=0)
    declare -A signals=([threads]="" [no-threads]="")
    for ((i = 1; i <= runs; i++)); do
        for mode in threads no-threads; do
            log=$out/$flavour-$mode-$i.log
            if [[ $mode == no-threads ]]; then
                PAYHANDOFF_HARNESS_NO_THREADS=1 "${valgrind[@]}" --log-file="$log" "$harness" Tests/Vectors > "$log.out" 2>&1
            else
                "${valgrind[@]}" --log-file="$log" "$harness" Tests/Vectors > "$log.out" 2>&1
            fi
            code=$?
            signal=$(grep -oE 'default action of signal [0-9]+ \([A-Z]+\)' "$log" | head -1 || true)
            if [[ $code -ne 0 || -n $signal ]] || ! grep -q 'ERROR SUMMARY: 0 errors' "$log"; then
                failures[$mode]=$((failures[$mode] + 1))
                signals[$mode]+="${signal:+$signal; }"
                status=1
                echo "valgrind-loop: $flavour $mode run $i FAILED (exit $code) — $log:"
                grep -E 'Process terminating|signal|Access not within|at 0x|by 0x|ERROR SUMMARY|definitely lost' "$log" | head -40
                tail -3 "$log.out"
            else
                rm -f "$log" "$log.out"
            fi
        done
    done
    for mode in threads no-threads; do
        label="with the thread test"
        [[ $mode == no-threads ]] && label="without the thread test"
        echo "valgrind-loop: $flavour $label: $runs runs, ${failures[$mode]} failed${signals[$mode]:+ (${signals[$mode]})}"
    done
    unset failures signals
done
echo "valgrind-loop: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
exit $status
