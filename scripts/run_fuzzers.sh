#!/usr/bin/env bash
# Runs the libFuzzer targets of Fuzz/ (mk/fuzz.mk: make fuzz, fuzz-test, fuzz-long, fuzz-asan).
#
#   scripts/run_fuzzers.sh BIN_DIR SECONDS TARGET...
#   FUZZ_DETERMINISTIC=1 scripts/run_fuzzers.sh BIN_DIR 0 TARGET...     (make fuzz-test)
#
# FUZZ_DETERMINISTIC=1 (make test) runs a fixed number of inputs per target from a fixed seed,
# starting from the committed corpus and the generated seeds only (a fresh corpus directory in
# .build/fuzz-test-corpus), so that the same inputs run on every machine and every run: a
# `make test` cannot fail by the luck of a random mutation, and whatever it finds fails it again.
#
# For each target: fuzzes for SECONDS with the corpus in .build/fuzz-corpus/<target> (kept
# between runs: a later run resumes from it), seeded by the committed minimized corpus
# Fuzz/Corpus/<target> (every committed input — each past finding included — is replayed at
# the start of every run) and by the seeds Fuzz/seeds.py generates from Tests/Vectors. Then
# replays the corpus with every check on every input (PAYHANDOFF_FUZZ_CHECK_ALL=1: both doors,
# the round trips and the differential oracle, which run on a sample while fuzzing) and times
# the corpus inputs (PAYHANDOFF_FUZZ_TIME=1: microseconds; libFuzzer reports the slowest only
# in whole seconds). Prints per target: executions, executions per second (and the
# goal: 50,000/s for a stateless parser, 5,000/s for the coordinator), coverage, corpus size,
# the differential oracle's tally, the slowest input; then the machine's load. Fails when a
# target crashes, breaks a property or disagrees with its oracle, naming the input.
set -euo pipefail

bin=$1
seconds=$2
shift 2
root=$(pwd)
work=.build/fuzz-work
mkdir -p "$work/seeds" "$work/logs" "$work/artifacts"
python3 Fuzz/seeds.py "$work/seeds" > /dev/null

export PAYHANDOFF_ROOT=$root
export PAYHANDOFF_FUZZ_ARTIFACTS=$root/$work/artifacts
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=suppressions=$root/Fuzz/lsan.supp:print_suppressions=0  # the ASan mode (make fuzz-asan)

total=0
failed=0
for target in "$@"; do
    corpus=.build/fuzz-corpus/$target
    committed=Fuzz/Corpus/$target
    goal=50000
    [[ $target == FuzzCoordinator || $target == FuzzABIJSON ]] && goal=5000
    # FuzzSalvage: a whole history, a snapshot damaged, salvaged and restored, and about a
    # hundred refund starts and answers probing each coordinator (issue 35).
    [[ $target == FuzzSalvage ]] && goal=250
    if [[ ${FUZZ_DETERMINISTIC:-0} == 1 ]]; then
        # About 8 s per target at the goal speeds on this machine.
        runs_wanted=$((goal * 8))
        corpus=.build/fuzz-test-corpus/$target
        rm -rf "$corpus"
        limit=(-seed=1 -runs=$runs_wanted)
        export PAYHANDOFF_FUZZ_DETERMINISTIC=1  # the oracles wait rather than skip an input
    else
        limit=(-max_total_time="$seconds")
        # FUZZ_RUNS_<target>: a number of executions instead (make fuzz-long: FuzzSalvage, 10^7).
        runs_var=FUZZ_RUNS_$target
        [[ -n ${!runs_var:-} ]] && limit=(-runs="${!runs_var}")
    fi
    mkdir -p "$corpus" "$committed"
    log=$work/logs/$target.log
    status=0
    # FUZZ_JOBS=N (make fuzz, fuzz-long; never make fuzz-test, whose inputs are fixed): N processes
    # share the corpus directory (libFuzzer reloads it, so each takes up what the others found),
    # each for SECONDS or its share of FUZZ_RUNS_<target>; logs $log.1 … $log.N. Their executions
    # and rates add up; the wall time is the longest job's.
    jobs=1
    [[ ${FUZZ_DETERMINISTIC:-0} != 1 ]] && jobs=${FUZZ_JOBS:-1}
    if [[ $jobs -gt 1 ]]; then
        [[ ${limit[0]} == -runs=* ]] && limit=(-runs=$(( (${limit[0]#-runs=} + jobs - 1) / jobs )))
        pids=()
        for ((j = 1; j <= jobs; j++)); do
            "$bin/$target" "${limit[@]}" -max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
                -artifact_prefix="$work/artifacts/$target-" "$corpus" "$committed" "$work/seeds/$target" > "$log.$j" 2>&1 &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
        logs=()
        for ((j = 1; j <= jobs; j++)); do logs+=("$log.$j"); done
    else
        "$bin/$target" "${limit[@]}" -max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="$work/artifacts/$target-" "$corpus" "$committed" "$work/seeds/$target" > "$log" 2>&1 || status=$?
        logs=("$log")
    fi
    runs=0 rate=0 steady=0 took_total=0
    for one in "${logs[@]}"; do
        one_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$one" | tail -1)
        one_rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$one" | tail -1)
        # The rate once the corpus is loaded (libFuzzer first runs every corpus input once, "INITED";
        # with a large corpus of long hostile inputs that pass dominates a short run's average).
        # A crashed run has no "Done" line: without `|| true`, pipefail and set -e would end the script
        # here, silently, before it names the failure.
        one_took=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$one" | grep -oE 'in [0-9]+' | grep -oE '[0-9]+' | tail -1 || true)
        one_steady=$(awk -v runs="${one_runs:-0}" -v total="${one_took:-0}" '
            /INITED/ { split($1, a, "#"); r = a[2]; for (i = 1; i <= NF; i++) if ($i == "exec/s:") e = $(i + 1) }
            END { t = (e > 0) ? r / e : 0; if (total - t > 0 && runs > r) printf "%d", (runs - r) / (total - t); else print "" }' "$one")
        runs=$((runs + ${one_runs:-0})); rate=$((rate + ${one_rate:-0})); steady=$((steady + ${one_steady:-0}))
        [[ ${one_took:-0} -gt $took_total ]] && took_total=$one_took
    done
    [[ $steady -eq 0 ]] && steady=
    [[ $took_total -eq 0 ]] && took_total=
    cov=$(cat "${logs[@]}" | grep -oE 'cov: [0-9]+ ft: [0-9]+' | tail -1 || true)
    diff=$(cat "${logs[@]}" | grep -E '^differential: ' | sed 's/^differential: //' || true)
    total=$((total + runs))
    if [[ $status -ne 0 ]]; then
        failed=$((failed + 1))
        echo "fuzz: $target FAILED (exit $status) after $runs executions (log: ${logs[*]}):"
        cat "${logs[@]}" | grep -E 'property violated|differential mismatch|ERROR: |Test unit written|SUMMARY' | head -8 || true
        continue
    fi
    # The whole corpus again, every input through both doors, every round trip and the oracle.
    replay=$work/logs/$target.replay.log
    PAYHANDOFF_FUZZ_CHECK_ALL=1 "$bin/$target" -runs=0 -max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$target-" "$corpus" "$committed" > "$replay" 2>&1 || status=$?
    if [[ $status -ne 0 ]]; then
        failed=$((failed + 1))
        echo "fuzz: $target FAILED (exit $status) replaying its corpus with every check (log: $replay):"
        grep -E 'property violated|differential mismatch|ERROR: |Test unit written|SUMMARY' "$replay" | head -8 || true
        continue
    fi
    replayed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$replay" | tail -1)
    all=$(grep -E '^differential: ' "$replay" | sed 's/^differential: //' || true)
    measured=${steady:-${rate:-0}}
    met="goal $goal/s: met"
    [[ $measured -lt $goal ]] && met="goal $goal/s: NOT met"
    [[ $bin == *asan* ]] && met="AddressSanitizer build: no speed goal"
    PAYHANDOFF_FUZZ_TIME=1 "$bin/$target" "$corpus" "$committed" > "$work/logs/$target.slowest" 2>&1 || true
    slowest=$(sed -n '2p' "$work/logs/$target.slowest" | awk '{print $1 " µs (" $3 " bytes, " $5 ")"}')
    jobs_said=
    [[ $jobs -gt 1 ]] && jobs_said=" ($jobs jobs)"
    echo "fuzz: $target: $runs executions in ${took_total:-$seconds} s$jobs_said = $rate/s, ${steady:-?}/s once the corpus was loaded ($met), $cov, corpus $(ls "$corpus" | wc -l) files; slowest input ${slowest:-?}"
    [[ -n $diff ]] && echo "      differential while fuzzing: $diff"
    echo "      corpus replayed with every check (both doors, round trips${all:+, oracle}): ${replayed:-?} inputs${all:+; differential: $all}"
done
how="$seconds s each"
[[ ${FUZZ_DETERMINISTIC:-0} == 1 ]] && how="a fixed number of inputs each from seed 1"
echo "fuzz: $total executions in total ($# targets, $how), $failed failed; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
test "$failed" -eq 0
