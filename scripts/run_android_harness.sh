#!/usr/bin/env bash
# Runs the C harness (Tests/CHarness/harness.c: every shared vector, the hostile calls, threads)
# against the Android libraries themselves, dist/android/jni/<ABI>/libpayhandoff.so as shipped:
#   arm64-v8a    under qemu-aarch64 with Debian's arm64 glibc, and Tests/Android/tagging_allocator.c
#                preloaded (Android 11+'s heap pointer tags, checked on free); then the control:
#                the same objects linked without the heap shim must be stopped by the allocator.
#   armeabi-v7a  under qemu-arm with Debian's armel glibc (soft-float calling convention, the one
#                Android's armeabi-v7a uses for calls into libc).
#   x86          in the host's 32-bit mode (i686 glibc of libc6-i386-cross through its loader), or
#                under qemu-i386 -cpu max (SSSE3) where the kernel runs no 32-bit code.
#   x86_64       natively.
# The libraries name Android's libc.so: a directory with libc.so -> the glibc libc.so.6 stands in
# for it (glibc maps the same file once). The harness links its own cJSON (third_party/cjson) to
# read results; the library's cJSON is hidden inside it.
# Usage: scripts/run_android_harness.sh [ABI...]; ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

ABIS=("$@")
((${#ABIS[@]})) || ABIS=(arm64-v8a armeabi-v7a x86 x86_64)
BUILD=.build/android-harness
HARNESS_FLAGS="-D_FILE_OFFSET_BITS=64 -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -I$BUILD/include -O1"
mkdir -p "$BUILD/include"
ln -sfn "$PWD/third_party/cjson" "$BUILD/include/cjson"

total_passed=0 total_failed=0
# run LABEL EXPECT COMMAND...: runs the harness, prints its counts; EXPECT=pass or fail.
run() {
    local label=$1 expect=$2 log
    shift 2
    log=$BUILD/$(echo "$label" | tr -c 'a-zA-Z0-9_\n-' '_').log
    local start status summary passed failed
    start=$(date +%s)
    # Through an inner bash whose stderr is dropped: its "Trace/breakpoint trap" notice for the
    # control run would otherwise interleave with the summary (qemu's report is in the log).
    bash -c '"$@" > "$0" 2>&1; exit $?' "$log" "$@" Tests/Vectors 2> /dev/null && status=0 || status=$?
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 || true)
    if [[ $expect == pass ]]; then
        grep -E '^FAIL' "$log" | head -20 || true
        passed=$(echo "${summary:-0 passed, 0 failed}" | awk '{print $1}')
        failed=$(echo "${summary:-0 passed, 0 failed}" | awk '{print $3}')
        # A crash or a missing summary is a failure even if no check failed.
        if [[ $status -ne 0 || -z $summary ]] && [[ $failed -eq 0 ]]; then failed=1; fi
        echo "android-harness: $label: ${summary:-no summary, exit $status: $(tail -2 "$log" | tr '\n' ' ')} ($(( $(date +%s) - start )) s)"
        total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
    else
        local reason
        reason=$(grep -m1 -E 'tagging allocator:|uncaught target signal' "$log" || true)
        if [[ $status -ne 0 && -n $reason ]]; then
            echo "android-harness: $label: stopped as expected (exit $status): $reason"
            total_passed=$((total_passed + 1))
        else
            echo "FAIL: android-harness: $label: expected the tagging allocator to stop it, got exit $status: ${summary:-no summary}"
            total_failed=$((total_failed + 1))
        fi
    fi
}

for abi in "${ABIS[@]}"; do
    lib=dist/android/jni/$abi/libpayhandoff.so
    out=$BUILD/$abi
    mkdir -p "$out/lib" "$out/libc"
    cp "$lib" "$out/lib/libpayhandoff.so"
    case $abi in
    arm64-v8a) cc=aarch64-linux-gnu-gcc sysroot=/usr/aarch64-linux-gnu qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu) ;;
    armeabi-v7a) cc=arm-linux-gnueabi-gcc sysroot=/usr/arm-linux-gnueabi qemu=(qemu-arm -L /usr/arm-linux-gnueabi) ;;
    x86)
        cc=i686-linux-gnu-gcc sysroot=/usr/i686-linux-gnu
        # The harness is linked for /lib/ld-linux.so.2, which a 64-bit Debian does not have: the
        # cross glibc's own loader starts it (qemu=: the command prefix, whichever runs it).
        printf 'int main(void) { return 0; }\n' > "$BUILD/probe32.c"
        $cc "$BUILD/probe32.c" -o "$BUILD/probe32"
        if "$sysroot/lib/ld-linux.so.2" --library-path "$sysroot/lib" "$BUILD/probe32" 2> /dev/null; then
            qemu=("$sysroot/lib/ld-linux.so.2" --library-path "$sysroot/lib") how="host 32-bit mode"
        else
            qemu=(qemu-i386 -cpu max -L "$sysroot") how="qemu-i386"
        fi
        ;;
    x86_64) cc=gcc sysroot=/usr qemu=() ;;
    *) echo "run_android_harness: unknown ABI $abi" >&2; exit 2 ;;
    esac
    libc=$($cc -print-file-name=libc.so.6)
    [[ -f $libc ]] || libc=$sysroot/lib/libc.so.6
    ln -sfn "$(readlink -f "$libc")" "$out/libc/libc.so"
    $cc -O1 -fPIC -w -c third_party/cjson/cJSON.c -o "$out/cJSON.o"
    # The library's undefined libc symbols are resolved at run time (its libc.so is Android's name).
    extra=()
    if [[ $abi == x86 ]]; then
        # Bionic's x86 libc.so exports __stack_chk_guard (the Embedded Swift code reads it); i386
        # glibc keeps its guard in TLS only: the harness exports one, set once as Bionic does.
        printf '#include <stdint.h>\nuintptr_t __stack_chk_guard = 0x5a3c9e00u;\n' > "$out/stack_chk_guard.c"
        extra=("$out/stack_chk_guard.c" -Wl,--export-dynamic-symbol=__stack_chk_guard)
    fi
    # shellcheck disable=SC2086
    $cc $HARNESS_FLAGS Tests/CHarness/harness.c "${extra[@]}" "$out/cJSON.o" -L"$out/lib" -lpayhandoff -Wl,--allow-shlib-undefined \
        -pthread -o "$out/harness"
    path=$PWD/$out/lib:$PWD/$out/libc
    case $abi in
    arm64-v8a)
        $cc -O2 -fPIC -shared -Wall -Wextra -Werror Tests/Android/tagging_allocator.c -o "$out/tagging_allocator.so"
        run "$abi (qemu-aarch64, tagging allocator)" pass \
            "${qemu[@]}" -E LD_LIBRARY_PATH="$path" -E LD_PRELOAD="$PWD/$out/tagging_allocator.so" "$out/harness"
        # The control: the same objects without the heap shim pass on an untagged heap and are
        # stopped by the tagging allocator, so the run above shows the shim is what makes it pass.
        mkdir -p "$out/control"
        cp ".build/android-libs/$abi/control/libpayhandoff.so" "$out/control/libpayhandoff.so"
        run "$abi control: no heap shim, untagged heap" pass \
            "${qemu[@]}" -E LD_LIBRARY_PATH="$PWD/$out/control:$PWD/$out/libc" "$out/harness"
        run "$abi control: no heap shim, tagging allocator" fail \
            "${qemu[@]}" -E LD_LIBRARY_PATH="$PWD/$out/control:$PWD/$out/libc" -E LD_PRELOAD="$PWD/$out/tagging_allocator.so" "$out/harness"
        ;;
    armeabi-v7a)
        run "$abi (qemu-arm, armel glibc)" pass "${qemu[@]}" -E LD_LIBRARY_PATH="$path" "$out/harness" ;;
    x86)
        if [[ ${qemu[0]} == qemu-i386 ]]; then
            run "$abi ($how)" pass "${qemu[@]}" -E LD_LIBRARY_PATH="$path" "$out/harness"
        else
            # The loader's --library-path replaces LD_LIBRARY_PATH: the library and libc.so first.
            run "$abi ($how)" pass "${qemu[0]}" --library-path "$path:$sysroot/lib" "$out/harness"
        fi
        ;;
    x86_64)
        run "$abi (native)" pass env LD_LIBRARY_PATH="$path" "$out/harness" ;;
    esac
done
echo "android-harness: $total_passed passed, $total_failed failed"
test "$total_failed" -eq 0
