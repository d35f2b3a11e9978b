#!/usr/bin/env bash
# make web-libc-test: Tests/WasmLibc/numbers_test.c, the number functions the .wasm's cJSON
# uses instead of libc's (bindings/web/wasm/payhandoff_wasm_cjson.c) against a libc's own, twice:
# built natively against glibc, and built for wasm32-wasi against wasi-libc (the very strtod,
# sprintf and sscanf the module no longer links), run under Node's WASI. Either failing fails.
# Usage: scripts/run_wasm_libc_tests.sh BUILD_DIR
# Environment: CC (cc), SWIFTC, WASI_SYSROOT, WASM_BUILTINS as for scripts/build-wasm.sh.
set -euo pipefail

build=${1:?usage: scripts/run_wasm_libc_tests.sh BUILD_DIR}
test=Tests/WasmLibc/numbers_test.c
flags=(-std=c99 -O2 -Wall -Wextra -Werror)
toolchain=$(dirname "$(command -v "${SWIFTC:-swiftc}")")
sysroot=${WASI_SYSROOT:-/usr}
builtins=${WASM_BUILTINS:-$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | sort -V | tail -1)}
mkdir -p "$build"

"${CC:-cc}" "${flags[@]}" "$test" -o "$build/numbers-test"
"$toolchain/clang" --target=wasm32-wasi -isystem "$sysroot/include/wasm32-wasi" "${flags[@]}" -c "$test" -o "$build/numbers-test.o"
"$toolchain/wasm-ld" "$sysroot/lib/wasm32-wasi/crt1-command.o" "$build/numbers-test.o" \
    -L"$sysroot/lib/wasm32-wasi" -lc "$builtins" -o "$build/numbers-test.wasm"

"$build/numbers-test" | sed 's/^\(web-libc\|FAIL\)/\1 (native, glibc)/' && native=0 || native=$?
node --no-warnings Tests/WasmLibc/run_wasi.mjs "$build/numbers-test.wasm" \
    | sed 's/^\(web-libc\|FAIL\)/\1 (wasm32, wasi-libc)/' && wasm=0 || wasm=$?
test "$native" -eq 0 -a "$wasm" -eq 0
