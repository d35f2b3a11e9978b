#!/usr/bin/env bash
# make web-libc-test: the libc functions the .wasm takes from bindings/web/wasm instead of
# wasi-libc, against libc's own or the host (Tests/WasmLibc):
#   numbers_test.c  the number functions of the .wasm's cJSON (payhandoff_wasm_cjson.c) against a
#                   libc's strtod/sprintf/sscanf, twice: built natively against glibc, and built
#                   for wasm32-wasi against wasi-libc (the very functions the module no longer
#                   links), run under Node's WASI
#   malloc_test.c   the allocator (payhandoff_wasm_malloc.c) for wasm32-wasi under Node's WASI:
#                   random operations with every byte checked, the refusals, block reuse
#   random_test.c   arc4random_buf (payhandoff_wasm_random.c) for wasm32-wasi under Node's WASI,
#                   with random_get counting, Node's own, and failing
# Any failure fails the run.
# Usage: scripts/run_wasm_libc_tests.sh BUILD_DIR
# Environment: CC (cc), SWIFTC, WASI_SYSROOT, WASM_BUILTINS as for scripts/build-wasm.sh.
set -euo pipefail

build=${1:?usage: scripts/run_wasm_libc_tests.sh BUILD_DIR}
flags=(-std=c99 -O2 -Wall -Wextra -Werror)
toolchain=$(dirname "$(command -v "${SWIFTC:-swiftc}")")
sysroot=${WASI_SYSROOT:-/usr}
builtins=${WASM_BUILTINS:-$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | sort -V | tail -1)}
mkdir -p "$build"

"${CC:-cc}" "${flags[@]}" Tests/WasmLibc/numbers_test.c -o "$build/numbers-test"
for name in numbers random malloc; do
    "$toolchain/clang" --target=wasm32-wasi -isystem "$sysroot/include/wasm32-wasi" "${flags[@]}" \
        -c "Tests/WasmLibc/${name}_test.c" -o "$build/$name-test.o"
    "$toolchain/wasm-ld" "$sysroot/lib/wasm32-wasi/crt1-command.o" "$build/$name-test.o" \
        -L"$sysroot/lib/wasm32-wasi" -lc "$builtins" -o "$build/$name-test.wasm"
done

"$build/numbers-test" | sed 's/^\(web-libc\|FAIL\)/\1 (native, glibc)/' && native=0 || native=$?
node --no-warnings Tests/WasmLibc/run_wasi.mjs "$build/numbers-test.wasm" \
    | sed 's/^\(web-libc\|FAIL\)/\1 (wasm32, wasi-libc)/' && wasm=0 || wasm=$?
node --no-warnings Tests/WasmLibc/run_wasi.mjs "$build/malloc-test.wasm" && malloc=0 || malloc=$?
random=0
for mode in counter host fail; do
    node --no-warnings Tests/WasmLibc/run_wasi.mjs "$build/random-test.wasm" --random=$mode || random=1
done
test "$native" -eq 0 -a "$wasm" -eq 0 -a "$random" -eq 0 -a "$malloc" -eq 0
