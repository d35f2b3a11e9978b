#!/usr/bin/env bash
# Writes the FuzzSalvage inputs of issue 35's findings into Fuzz/Corpus/FuzzSalvage/finding-35-*
# (and two ordinary days), from letter labels and named damage, so that they stay what their
# names say when the alphabet or the snapshot's members change: run it again after such a change.
#   scripts/fuzz_salvage_findings.sh            (builds FuzzSalvage in the debug build first)
# Each finding-* input fails on a build with the finding and passes once it is fixed; make
# fuzz-test replays them all (the committed corpus) before it fuzzs.
set -euo pipefail
swift build --product FuzzSalvage > /dev/null
B=$(swift build --show-bin-path)/FuzzSalvage
D=Fuzz/Corpus/FuzzSalvage
mkdir -p "$D"
refunded='p1.start sale ; p1.result approved ; time +60000 ms ; p2.start refund of p1 ; p2.result approved'
waiting='p1.start sale ; p1.result approved ; time +60000 ms ; p2.start refund of p1 ; p2.launched'
enc() { "$B" --encode "$D/$1" "${@:2}"; }
# 1a: a format-2 header over a format-3 body, salvaged.
enc finding-35-1a-version-2-over-format-3 0 "$refunded" 'swapVersion:version:0'
# 1b: a refund waiting in the POS app, its flow damaged, salvaged.
enc finding-35-1b-waiting-refund-null-in-flows 0 "$waiting" 'null:flows[1]:0'
enc finding-35-1b-waiting-refund-operation-renamed 0 "$waiting" 'rename:flows[1].operation:1'
enc finding-35-1b-waiting-refund-sale-transactionid-renamed 0 "$waiting" 'rename:flows[1].sale_transactionid:1'
enc finding-35-1b-waiting-refund-sale-transactionid-damaged 0 "$waiting" 'swapType:flows[1].sale_transactionid:0'
enc finding-35-1b-flows-not-an-array 0 "$waiting" 'swapType:flows:0'
# 1c: more ended flows than a start keeps: salvage of the intact snapshot is not restore.
enc finding-35-1c-salvage-of-33-ended-flows 0 '33 other sales end and stay'
# 2: missing money read as none by restore.
enc finding-35-2-ledger-null 0 "$refunded" 'null:ledger:0'
enc finding-35-2-ledger-absent 0 "$refunded" 'delete:ledger:0'
enc finding-35-2-sales-null 0 "$refunded" 'null:ledger.sales:0'
enc finding-35-2-flows-null-waiting-refund 0 "$waiting" 'null:flows:0'
enc finding-35-2-flows-absent-waiting-refund 0 "$waiting" 'delete:flows:0'
# 3: a clock that was behind, corrected; a refund by the sale document's real approved_at.
enc finding-35-3-clock-1970 0 "clock 1970-01-01T10:00Z (RTC reset) ; $refunded ; clock corrected to 10:02 Mexico City ; p3.start refund of sale document tx-1 (approved at the real 10:00)"
enc finding-35-3-clock-2h-behind-across-midnight 0 "clock 22:30 Mexico City (2 h behind, really 00:30) ; $refunded ; clock corrected to 00:32 Mexico City ; p3.start refund of sale document tx-1 (approved at the real 00:30)"
# 5: a key used again after its flow was forgotten; the old answer moves the new flow.
enc finding-35-5-nonce-again-after-flow-remove 0 'c1.start ; c1.give_up ; c1.start ; url c1 completed'
enc finding-35-5-token-again-after-32-ended 0 'p1.start sale ; answer T1 declined ; 33 other sales end (the 32-ended rule forgets the older ended flows) ; p1.start sale ; answer T1 approved 100.00 tx-1'
# Ordinary days (hold on every build).
enc ordinary-refunded-sale 0 "$refunded" 'flipBytes:0:0'
enc ordinary-checkout-confirmed 1 'c1.start ; c1.session ; c1.browser_opened ; url c1 completed ; c1.confirmation' 'delete:flows[0].callback:0'
echo "fuzz_salvage_findings: $(ls "$D" | wc -l) inputs in $D"
