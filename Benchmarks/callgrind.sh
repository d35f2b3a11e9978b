#!/bin/bash
# Instructions per call of the main cases, counted by callgrind: stable where wall-clock times
# on a shared machine are not. Each case runs N calls through the benchmark's never-inlined
# profiled(_:) (cloned per case by the optimizer, hence the pattern) and callgrind collects
# only inside it (--toggle-collect): the count divided by N is one call, without setup or
# start-up. Swift's hashing is seeded per process; it is made
# deterministic so two runs of the same binary count the same.
#   Benchmarks/callgrind.sh BENCH_BINARY [N]
set -eu -o pipefail
bench=$1
n=${2:-500}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export SWIFT_DETERMINISTIC_HASHING=1
count() {  # case calls -> instructions inside profiled(_:)
  valgrind --tool=callgrind --toggle-collect='$s20PayHandoffBenchmarks8profiledyyyyXEF*' \
    --callgrind-out-file="$out/cg" "$bench" --profile "$1" "$2" >/dev/null 2>"$out/log"
  sed -n 's/^totals: *\([0-9]*\).*/\1/p;s/^summary: *\([0-9]*\).*/\1/p' "$out/cg" | head -1
}
printf '%-66s %14s\n' "case (callgrind, instructions per call)" "Ir/call"
while IFS= read -r name; do
  [ -n "$name" ] || continue
  total=$(count "$name" "$n")
  if [ "${total:-0}" -gt 0 ]; then printf '%-66s %14s\n' "$name" "$(( total / n ))"
  else printf '%-66s %14s\n' "$name" "no such case"; fi
done <<'CASES'
POSResponse.parse (Billpocket form)
URLComponents+queryItems (Billpocket form)
POSResponse.parse (?-form)
URLComponents+queryItems (?-form)
CheckoutCallback.parse
URLComponents+queryItems (callback)
POSRequest.sale(…).url
CheckoutRequest.cardRegistration(…).httpRequest
coordinator.handle(url:) POS answer
payhandoff_pos_parse_response [linked]
payhandoff_checkout_parse_callback [linked]
payhandoff_pos_parse_response [dist/embedded]
payhandoff_checkout_parse_callback [dist/embedded]
payhandoff_pos_parse_result [dist/embedded]
payhandoff_pos_build_url [dist/embedded]
payhandoff_coordinator_handle_url POS answer [dist/embedded]
CASES
