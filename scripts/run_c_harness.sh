#!/bin/bash
# make c-harness: Tests/CHarness/harness.c linked as a plain C program against each library of
# make lib and run over Tests/Vectors; then again under valgrind memcheck against the same
# library before stripping (.build/lib/<flavour>: identical code with symbol names, which
# Tests/CHarness/valgrind.supp needs to name the Swift enum-code false positives it suppresses).
# Any failed check, memory error or definitely lost byte fails the run.
#   scripts/run_c_harness.sh FLAVOUR...      (full, embedded)
set -eu -o pipefail
cc=${CC:-cc}
flags=(-std=c11 -Wall -Wextra -Werror -pedantic -Iinclude)
valgrind=(valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99)
out=.build/c-harness
mkdir -p "$out"
total_passed=0; total_failed=0
for f in "$@"; do
  "$cc" "${flags[@]}" Tests/CHarness/harness.c -Ldist/$f -lpayhandoff -lcjson -Wl,-rpath,"$PWD/dist/$f" -o "$out/harness-$f"
  "$cc" "${flags[@]}" Tests/CHarness/harness.c -L.build/lib/$f -lpayhandoff -lcjson -Wl,-rpath,"$PWD/.build/lib/$f" -o "$out/harness-$f-valgrind"
  "$out/harness-$f" Tests/Vectors > "$out/$f.log" 2>&1 && status=0 || status=$?
  grep -E '^(FAIL|note|vectors skipped):' "$out/$f.log" || true
  summary=$(tail -1 "$out/$f.log")            # "N passed, M failed"
  echo "c-harness: dist/$f: $summary"
  passed=$(awk '{print $1}' <<<"$summary"); failed=$(awk '{print $3}' <<<"$summary")
  total_passed=$((total_passed + passed))
  # A crash or a non-zero exit with no failure counted is a failure too.
  total_failed=$((total_failed + failed + (status != 0 && failed == 0)))
  "${valgrind[@]}" --suppressions=Tests/CHarness/valgrind.supp --log-file="$out/valgrind-$f.log" \
    "$out/harness-$f-valgrind" Tests/Vectors > /dev/null 2>&1 && vstatus=0 || vstatus=$?
  lost=$(grep -oE 'definitely lost: [0-9,]+ bytes' "$out/valgrind-$f.log" | grep -oE '[0-9,]+' || echo 0)
  echo "c-harness: valgrind $f: $(grep -oE 'ERROR SUMMARY: [0-9]+ errors' "$out/valgrind-$f.log"), definitely lost: $lost bytes (valgrind exit $vstatus; 99 = memory errors)"
  if grep -qE 'ERROR SUMMARY: [1-9]' "$out/valgrind-$f.log" || [ "$vstatus" -ne 0 ]; then
    total_failed=$((total_failed + 1))
    # The evidence goes into the test output, not only into .build (issue 20: a SIGBUS once).
    echo "c-harness: valgrind $f failed; from $out/valgrind-$f.log:"
    grep -E 'Process terminating|signal|Invalid|uninitialised|Non-existent|Access not within|definitely lost in|at 0x|by 0x|ERROR SUMMARY' \
      "$out/valgrind-$f.log" | head -60 || true
  fi
done
echo "c-harness: $total_passed passed, $total_failed failed (libraries: $*; valgrind included)"
test $total_failed -eq 0
