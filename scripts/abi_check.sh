#!/bin/bash
# make abi-check: the exported symbols of each library of make lib, abi/symbols.txt and the
# header's declarations must be the same set; dist/embedded needs only libc and libcjson; the
# header compiles as C11 and C++17 without a warning.
#   scripts/abi_check.sh FLAVOUR...      (full, embedded)
set -eu -o pipefail
out=.build/abi-check
mkdir -p "$out"
grep -E '^PAYHANDOFF_API' include/payhandoff.h | grep -oE 'payhandoff_[a-z0-9_]+\(' | tr -d '(' | sort > "$out/header.txt"
sort abi/symbols.txt > "$out/symbols.txt"
diff -u "$out/symbols.txt" "$out/header.txt" || { echo "abi-check: include/payhandoff.h and abi/symbols.txt differ"; exit 1; }
for f in "$@"; do
  nm -D --defined-only --extern-only dist/$f/libpayhandoff.so | awk '$2 != "A" {sub(/@.*/, "", $3); print $3}' | sort > "$out/$f.txt"
  diff -u "$out/symbols.txt" "$out/$f.txt" || { echo "abi-check: dist/$f exports differ from abi/symbols.txt"; exit 1; }
done
needed=$(readelf -d dist/embedded/libpayhandoff.so | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | grep -vE '^(libc\.so\.6|libcjson\.so\.1)$' || true)
test -z "$needed" || { echo "abi-check: dist/embedded needs more than libc and libcjson: $needed"; exit 1; }
printf '#include "payhandoff.h"\nint main(void) { return payhandoff_abi_version() == PAYHANDOFF_ABI_VERSION ? 0 : 1; }\n' > "$out/use.c"
cp "$out/use.c" "$out/use.cpp"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -c "$out/use.c" -o "$out/use-c.o"
${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude -c "$out/use.cpp" -o "$out/use-cpp.o"
echo "abi-check: $(wc -l < abi/symbols.txt) symbols; header, abi/symbols.txt and both libraries agree; dist/embedded needs only libc and libcjson; header is clean C11 and C++17"
