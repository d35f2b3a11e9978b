#!/bin/sh
# Writes the snapshot fixtures of Tests/Snapshots/ with an older PayHandoff's own CLI (issue 35):
#   write_fixtures.sh v2 /tmp/v02/.build/debug/payhandoff Tests/Snapshots/v2
#   write_fixtures.sh v3 /tmp/v03/.build/debug/payhandoff Tests/Snapshots/v3
# Each fixture is the state file `payhandoff send`/`route` saved after the events below, at fixed
# times, tokens and nonces (no clock, no randomness). See README.md for the commits.
set -eu
kind=$1 cli=$2 out=$3
mkdir -p "$out"
T0=1796054400000  # 2026-11-30T10:00:00-06:00
at() { echo $((T0 + $1)); }
N1=0123456789abcdef0123456789abcdef
N2=fedcba9876543210fedcba9876543210
TK1=00000000000000000000000000000001
TK2=00000000000000000000000000000002
TK3=00000000000000000000000000000003
TKR=0000000000000000000000000000000a
state=""
send() { "$cli" send "$1" --state "$state" > /dev/null; }
route() { "$cli" route "$1" --state "$state" --now "$2" > /dev/null 2>&1 || "$cli" route "$1" --state "$state" > /dev/null; }
begin() { state="$out/$1.json"; rm -f "$state"; }
sale() {  # flow identifier token amount now
  send "{\"type\":\"pos.start\",\"flow_id\":\"$1\",\"now\":$5,\"token\":\"$3\",\"request\":{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"$2\",\"amount\":\"$4\",\"urlScheme\":\"myapp\"}}"
  send "{\"type\":\"pos.launched\",\"flow_id\":\"$1\",\"now\":$5}"
}
answer() {  # identifier token amount transactionid now
  send "{\"type\":\"url\",\"now\":$5,\"url\":\"myapp://result=aprobada&amount=$3&identifier=$1~$2&transactionid=$4\"}"
}
refund() {  # flow identifier token sale_flow transactionid amount now
  send "{\"type\":\"pos.start\",\"flow_id\":\"$1\",\"now\":$7,\"token\":\"$3\",\"sale_flow_id\":\"$4\",\"request\":{\"transaction\":\"devolucion\",\"usertoken\":\"tok_1\",\"identifier\":\"$2\",\"urlScheme\":\"myapp\",\"transactionId\":\"$5\",\"amount\":\"$6\"}}"
  send "{\"type\":\"pos.launched\",\"flow_id\":\"$1\",\"now\":$7}"
}
checkout() {  # flow nonce now
  send "{\"type\":\"checkout.start\",\"flow_id\":\"$1\",\"now\":$3,\"kind\":\"cards\",\"return_url\":\"fixapp://checkout-callback\",\"nonce\":\"$2\"}"
}
ordinary_day() {
  begin ordinary-day
  sale p1 ord-1 $TK1 100.00 "$(at 0)"
  answer ord-1 $TK1 100.00 720371 "$(at 60000)"
  sale p2 ord-2 $TK2 250.00 "$(at 90000)"
  answer ord-2 $TK2 250.00 720372 "$(at 120000)"
  refund r1 ref-1 $TKR p1 720371 40.00 "$(at 180000)"
  answer ref-1 $TKR 40.00 820371 "$(at 200000)"
  checkout c1 $N1 "$(at 300000)"
  send "{\"type\":\"checkout.session\",\"flow_id\":\"c1\",\"now\":$(at 301000),\"session\":{\"kind\":\"cards\",\"checkout_url\":\"https://pay.example.com/c/1\"}}"
  send "{\"type\":\"checkout.browser_opened\",\"flow_id\":\"c1\",\"now\":$(at 302000)}"
  send "{\"type\":\"url\",\"now\":$(at 330000),\"url\":\"fixapp://checkout-callback/ph_$N1?status=completed&card_id=card_xyz\"}"
  send "{\"type\":\"checkout.confirmation\",\"flow_id\":\"c1\",\"now\":$(at 331000),\"event\":{\"type\":\"card.registered\",\"data\":{\"card_id\":\"card_xyz\",\"brand\":\"visa\",\"last_four\":\"4242\",\"token\":\"tok_card\",\"created_at\":\"2026-11-30T16:05:00Z\"}}}"
  checkout c2 $N2 "$(at 400000)"
  sale p3 ord-3 $TK3 80.00 "$(at 500000)"
}
waiting_refund() {
  begin waiting-refund
  sale p1 ord-1 $TK1 100.00 "$(at 0)"
  answer ord-1 $TK1 100.00 720371 "$(at 60000)"
  refund r1 ref-1 $TKR p1 720371 100.00 "$(at 180000)"
}
case $kind in
v2)
  ordinary_day
  waiting_refund
  # 4a: a refunded sale, then one event dated two days ahead (a sale started, which records no
  # time): 0.2 prunes its ledger at it and keeps no watermark. (A tick that changes nothing is not
  # an accepted event in 0.2 and prunes nothing.)
  begin pruned-ahead
  sale p1 ord-1 $TK1 100.00 "$(at 0)"
  answer ord-1 $TK1 100.00 720371 "$(at 60000)"
  refund r1 ref-1 $TKR p1 720371 100.00 "$(at 180000)"
  answer ref-1 $TKR 100.00 820371 "$(at 200000)"
  send "{\"type\":\"pos.start\",\"flow_id\":\"p9\",\"now\":$(at 172800000),\"token\":\"$TK3\",\"request\":{\"transaction\":\"venta\",\"usertoken\":\"tok_1\",\"identifier\":\"ord-9\",\"amount\":\"10.00\",\"urlScheme\":\"myapp\"}}"
  # 4b: a host-given token with '~' (valid in 0.2), the sale waiting in the POS app.
  begin tilde-token
  sale p1 ord-1 "abc~def0123456789abcdef" 100.00 "$(at 0)"
  # 4c: an ended flow sharing its token (POS) or nonce (checkout) with a waiting one.
  begin shared-keys
  sale p1 ord-1 $TK1 100.00 "$(at 0)"
  answer ord-1 $TK1 100.00 720371 "$(at 60000)"
  sale p2 ord-1 $TK1 50.00 "$(at 120000)"
  checkout c1 $N1 "$(at 130000)"
  send "{\"type\":\"checkout.session\",\"flow_id\":\"c1\",\"now\":$(at 131000),\"session\":{\"kind\":\"cards\",\"checkout_url\":\"https://pay.example.com/c/1\"}}"
  send "{\"type\":\"url\",\"now\":$(at 140000),\"url\":\"fixapp://checkout-callback/ph_$N1?status=cancelled\"}"
  checkout c2 $N1 "$(at 150000)"
  # 4d: 24 checkouts waiting for their session.
  begin waiting-checkouts
  n=1
  while [ $n -le 24 ]; do
    checkout "c$n" "$(printf '%032x' $n)" "$(at $((n * 1000)))"
    n=$((n + 1))
  done
  ;;
v3)
  ordinary_day
  waiting_refund
  ;;
esac
