#!/bin/bash
# Instructions per call of the main cases, counted by callgrind: stable where wall-clock times
# on a shared machine are not. Each case runs twice with N calls, once as measured and once with
# only its untimed setup (--profile-setup-only); the difference divided by N is one call, with
# start-up and setup cancelled out.
#   Benchmarks/callgrind.sh BENCH_BINARY [N]
set -eu -o pipefail
bench=$1
n=${2:-500}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {  # case calls [--profile-setup-only] -> total instructions
  valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bench" --profile "$1" "$2" ${3:-} >/dev/null 2>"$out/log"
  sed -n 's/^totals: *\([0-9]*\).*/\1/p;s/^summary: *\([0-9]*\).*/\1/p' "$out/cg" | head -1
}
printf '%-66s %14s\n' "case (callgrind, instructions per call)" "Ir/call"
while IFS= read -r name; do
  [ -n "$name" ] || continue
  a=$(count "$name" "$n")
  b=$(count "$name" "$n" --profile-setup-only)
  printf '%-66s %14s\n' "$name" "$(( (a - b) / n ))"
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
payhandoff_coordinator_handle_url POS answer [dist/embedded]
CASES
