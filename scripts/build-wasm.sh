#!/usr/bin/env bash
# Builds the WebAssembly module of the core + C ABI (bindings/web loads it):
#   Sources/PayHandoff + Sources/PayHandoffABI as one Embedded Swift module for
#   wasm32-unknown-none-wasm, cJSON compiled from Debian's source against Debian's wasi-libc,
#   linked by the toolchain's wasm-ld with compiler-rt's wasm32 builtins, then wasm-opt -Oz.
# Usage: scripts/build-wasm.sh [--checkout] OUT.wasm BUILD_DIR SWIFT_SOURCE...
#        scripts/build-wasm.sh --names BUILD_DIR OUT.wasm
#   --checkout builds the checkout module (dist/web/payhandoff-checkout.wasm, issue 26 item 4) from
#   the same sources: swiftc -D PAYHANDOFF_CHECKOUT_ONLY (the core without POS flows, refunds or
#   ledger; it answers a pos.* event or a snapshot holding them with "unsupported") and no
#   payhandoff_pos_* export, so wasm-ld --gc-sections drops the POS functions' code. Give it its
#   own BUILD_DIR.
#   The second form optimizes the module the last build of BUILD_DIR linked with its name section
#   kept: the same code, byte for byte, with function names (make size reads them).
# Environment: SWIFTC (swiftc), WASI_SYSROOT (/usr), WASM_BUILTINS (libclang_rt.builtins-wasm32.a).
#
# Exports: the payhandoff_* functions of abi/symbols.txt (but payhandoff_pos_* with --checkout), and malloc/free for the strings the
# JavaScript glue hands in; the reactor's _initialize runs the constructors once after
# instantiation. Imports: wasi_snapshot_preview1's random_get alone (nonces and POS tokens, through
# bindings/web/wasm/payhandoff_wasm_random.c; nothing links wasi-libc's stdio or its malloc).
set -euo pipefail

# The features LLVM's default wasm32 CPU uses (wasm-ld --strip-all drops the section that would
# tell wasm-opt): all in Chrome/Edge 91+, Firefox 90+, Safari 15+ and Node 16+.
optimize() {
    wasm-opt -Oz --converge --strip-producers --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
        --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types "$@"
}

if [[ ${1:-} == --names ]]; then
    build=${2:?usage: scripts/build-wasm.sh --names BUILD_DIR OUT.wasm}
    out=${3:?usage: scripts/build-wasm.sh --names BUILD_DIR OUT.wasm}
    optimize -g "$build/payhandoff.names.linked.wasm" -o "$out" 2> "$build/wasm-opt-names.log" \
        || { head -50 "$build/wasm-opt-names.log" >&2; exit 1; }
    exit 0
fi

checkout=0
if [[ ${1:-} == --checkout ]]; then
    checkout=1
    shift
fi
out=${1:?usage: scripts/build-wasm.sh [--checkout] OUT.wasm BUILD_DIR SWIFT_SOURCE...}
build=${2:?usage: scripts/build-wasm.sh [--checkout] OUT.wasm BUILD_DIR SWIFT_SOURCE...}
shift 2
defines=(-D PAYHANDOFF_SINGLE_MODULE)
(( checkout )) && defines+=(-D PAYHANDOFF_CHECKOUT_ONLY)
swiftc=${SWIFTC:-swiftc}
toolchain=$(dirname "$(command -v "$swiftc")")
sysroot=${WASI_SYSROOT:-/usr}
wasi_include=$sysroot/include/wasm32-wasi
wasi_lib=$sysroot/lib/wasm32-wasi
builtins=${WASM_BUILTINS:-$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | sort -V | tail -1)}
for needed in "$wasi_include/stdlib.h" "$wasi_lib/libc.a" "$wasi_lib/crt1-reactor.o" "$builtins"; do
    [[ -f $needed ]] || { echo "build-wasm: $needed missing (make bootstrap installs wasi-libc and libclang-rt-14-dev-wasm32)" >&2; exit 1; }
done

# The vendored cJSON (third_party/cjson: Debian's source, the one the Linux libraries link), laid out
# as <cjson/cJSON.h> for Sources/CcJSON's shim.
mkdir -p "$build/include/cjson" "$(dirname "$out")"
cp third_party/cjson/cJSON.h "$build/include/cjson/cJSON.h"

# cJSON.c as it is, through bindings/web/wasm/payhandoff_wasm_cjson.c: its number code calls that
# file's strtod/sprintf/sscanf, not wasi-libc's printf/scanf family (the header says why it may).
"$toolchain/clang" --target=wasm32-wasi -isystem "$wasi_include" -std=c89 -Os -ffunction-sections -fdata-sections \
    -c bindings/web/wasm/payhandoff_wasm_cjson.c -o "$build/cJSON.o"
# arc4random_buf over getentropy, linked ahead of wasi-libc's (whose assert pulls in fprintf).
"$toolchain/clang" --target=wasm32-wasi -isystem "$wasi_include" -std=c89 -Os -ffunction-sections -fdata-sections \
    -c bindings/web/wasm/payhandoff_wasm_random.c -o "$build/random.o"

# The allocator, linked ahead of wasi-libc's dlmalloc: size classes, 13 KB smaller (the file says why it may).
"$toolchain/clang" --target=wasm32-wasi -isystem "$wasi_include" -std=c99 -Os -ffunction-sections -fdata-sections \
    -c bindings/web/wasm/payhandoff_wasm_malloc.c -o "$build/malloc.o"

# -disable-stack-protector: there is no __stack_chk_guard without a libc that sets one up.
# -inline-threshold=0: LLVM inlines only where it shrinks the code (Swift's own inliner still
# runs): -22,417 B raw, -3,906 B gzip, per-call cost in Node within the noise (make bench-web).
"$swiftc" -enable-experimental-feature Embedded -wmo -parse-as-library -Osize -Xllvm -inline-threshold=0 \
    -target wasm32-unknown-none-wasm -module-name PayHandoff "${defines[@]}" \
    -I Sources/CcJSON -Xcc -I"$build/include" -Xcc -isystem -Xcc "$wasi_include" \
    -Xfrontend -disable-stack-protector -Xfrontend -function-sections \
    -c "$@" -o "$build/PayHandoff.o" 2> "$build/swiftc.log" || { cat "$build/swiftc.log" >&2; exit 1; }

# --stack-first: a stack overflow runs below address 0 and traps instead of overwriting data.
exports=()
while read -r symbol; do
    [[ -z $symbol ]] && continue
    (( checkout )) && [[ $symbol == payhandoff_pos_* ]] && continue
    exports+=("--export=$symbol")
done < abi/symbols.txt
# Linked twice: stripped (what ships) and with the name section (--names reads it; wasm-ld is fast).
for strip in all debug; do
    linked=$build/payhandoff.linked.wasm
    [[ $strip == debug ]] && linked=$build/payhandoff.names.linked.wasm
    "$toolchain/wasm-ld" --no-entry --strip-$strip --gc-sections --stack-first -z stack-size=1048576 \
        "${exports[@]}" --export=malloc --export=free \
        "$wasi_lib/crt1-reactor.o" "$build/PayHandoff.o" "$build/cJSON.o" "$build/random.o" "$build/malloc.o" \
        -L"$wasi_lib" -lc "$builtins" -o "$linked"
done

optimize "$build/payhandoff.linked.wasm" -o "$out" 2> "$build/wasm-opt.log" || { head -50 "$build/wasm-opt.log" >&2; exit 1; }
cp third_party/cjson/LICENSE "$(dirname "$out")/LICENSE.cJSON"
echo "build-wasm: $out $(stat -c %s "$out") bytes ($(gzip -9c "$out" | wc -c) gzipped; before wasm-opt $(stat -c %s "$build/payhandoff.linked.wasm"))"
