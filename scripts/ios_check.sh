#!/bin/bash
# make ios-check: the portability guard for iOS, which has no Xcode or Apple SDK here.
# Takes the React Native package as npm packs it (TARBALL), reads which Swift files its podspec
# compiles (scripts/podspec_sources.py), and compiles exactly those as one Embedded Swift module
# for arm64-apple-ios with the podspec's flags, its CcJSON module map and the vendored cJSON
# header, against ISO C stand-ins for the SDK's libc headers (Tests/iOSCheck/libc). Then every
# symbol the object needs must be one Darwin's libSystem provides (Tests/iOSCheck/darwin-libsystem.txt),
# cJSON's (compiled by the pod), or the toolchain's Unicode tables for arm64-apple-ios.
# Fails on anything Linux-only: a Glibc import, a glibc-only function, a missing file in the package.
#   scripts/ios_check.sh TARBALL WORKDIR
set -eu -o pipefail
tarball=$1
mkdir -p "$2" && work=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
swiftc=${SWIFTC:-swiftc}
toolchain=$(dirname "$(command -v "$swiftc")")
target=arm64-apple-ios18.0   # the toolchain's Embedded stdlib for iOS needs iOS 18
tables="$toolchain/../lib/swift/embedded/arm64-apple-ios/libswiftUnicodeDataTables.a"

rm -rf "$work" && mkdir -p "$work"
tar -xzf "$tarball" -C "$work"
package="$work/package"
mapfile -t sources < <(python3 "$here/scripts/podspec_sources.py" "$package")
echo "ios-check: $(basename "$tarball"): the podspec compiles ${#sources[@]} Swift files (core and C ABI as one module)"

start=$(date +%s)
(cd "$package" && "$swiftc" -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
  -target "$target" -module-name PayHandoff -D PAYHANDOFF_SINGLE_MODULE \
  -I ios/CcJSON -Xcc -I -Xcc core/third_party/cjson -Xcc -isystem -Xcc "$here/Tests/iOSCheck/libc" \
  -c "${sources[@]}" -o "$work/PayHandoff.o")
echo "ios-check: swiftc -target $target (Embedded, -Osize): $(stat -c %s "$work/PayHandoff.o") bytes of object in $(( $(date +%s) - start )) s"

nm="$toolchain/llvm-nm"
allowed="$here/Tests/iOSCheck/darwin-libsystem.txt"
"$nm" --defined-only -j "$tables" 2>/dev/null | sort -u > "$work/tables.txt"
grep -v '^#' "$allowed" | sed 's/^/_/' > "$work/libsystem.txt"
# foreign OBJECT: the undefined symbols of OBJECT that iOS would not resolve.
foreign() {
  "$nm" -u -j "$1" | sort -u | grep -v '^_cJSON_' | grep -v -x -F -f "$work/libsystem.txt" \
    | grep -v -x -F -f "$work/tables.txt" || true
}
unknown=$(foreign "$work/PayHandoff.o")
if [ -n "$unknown" ]; then
  echo "ios-check: symbols neither Darwin's libSystem (as listed in Tests/iOSCheck/darwin-libsystem.txt), cJSON nor the Unicode tables provide:" >&2
  echo "$unknown" | sed 's/^/  /' >&2
  exit 1
fi
"$nm" -u -j "$work/PayHandoff.o" | sort -u > "$work/undefined.txt"
echo "ios-check: $(wc -l < "$work/undefined.txt") undefined symbols: $(grep -c '^_cJSON_' "$work/undefined.txt") cJSON, $(grep -c -x -F -f "$work/tables.txt" "$work/undefined.txt" || true) Unicode tables, the rest libSystem: $(grep -v '^_cJSON_' "$work/undefined.txt" | grep -v -x -F -f "$work/tables.txt" | sed 's/^_//' | tr '\n' ' ')"

# The guard must be able to fail: three small modules that are Linux-only in three ways.
probe() {  # name, Swift source -> 0 if it compiled and needs nothing foreign
  printf '%s\n' "$2" > "$work/probe-$1.swift"
  "$swiftc" -enable-experimental-feature Embedded -wmo -parse-as-library -Osize -target "$target" -module-name Probe \
    -I "$package/ios/CcJSON" -Xcc -I -Xcc "$package/core/third_party/cjson" -Xcc -isystem -Xcc "$here/Tests/iOSCheck/libc" \
    -c "$work/probe-$1.swift" -o "$work/probe-$1.o" 2>"$work/probe-$1.log" && [ -z "$(foreign "$work/probe-$1.o")" ]
}
probe control 'import CcJSON
public func f(_ p: UnsafeMutableRawPointer?) { free(p) }' \
  || { echo "ios-check: the control probe (free from CcJSON) failed: see $work/probe-control.log" >&2; exit 1; }
for name in glibc-import glibc-header glibc-symbol; do
  case $name in
    glibc-import) source='import Glibc
public func f() -> Int32 { getpid() }' ;;
    glibc-header) source='import CcJSON
public func f() -> UnsafeMutablePointer<CChar>? { secure_getenv("HOME") }' ;;
    glibc-symbol) source='@_silgen_name("__errno_location") func errnoLocation() -> UnsafeMutablePointer<Int32>
public func f() -> Int32 { errnoLocation().pointee }' ;;
  esac
  if probe "$name" "$source"; then
    echo "ios-check: the $name probe passed; the guard cannot catch that" >&2
    exit 1
  fi
done
echo "ios-check: the guard refuses import Glibc, a glibc-only declaration and a glibc-only symbol (probes)"

# The pod's public headers as the Clang module CocoaPods makes with use_frameworks!: a framework
# with Headers/<public headers>, an umbrella header importing each and Modules/module.modulemap
# (`framework module PayHandoff { umbrella header ... export * module * { export * } }`). An
# Objective-C app (or Swift) imports it compiled as C/ObjC, so every public header must compile
# as a module from C and Objective-C, and from Objective-C++. The umbrella CocoaPods writes starts
# with `#import <UIKit/UIKit.h>` under __OBJC__: there is no iOS SDK here, so that line is left out.
# module_check NAME HEADER... -> compiles the module from C, ObjC and ObjC++; 0 if all three pass.
clang=${CLANG:-$toolchain/clang}
module_check() {
  local name=$1 mode
  shift
  local fw="$work/modules-$name/PayHandoff.framework"
  rm -rf "$work/modules-$name" && mkdir -p "$fw/Headers" "$fw/Modules"
  {
    echo '#ifndef FOUNDATION_EXPORT'
    echo '#if defined(__cplusplus)'
    echo '#define FOUNDATION_EXPORT extern "C"'
    echo '#else'
    echo '#define FOUNDATION_EXPORT extern'
    echo '#endif'
    echo '#endif'
    for h in "$@"; do cp "$package/$h" "$fw/Headers/"; echo "#import \"$(basename "$h")\""; done
    echo 'FOUNDATION_EXPORT double PayHandoffVersionNumber;'
    echo 'FOUNDATION_EXPORT const unsigned char PayHandoffVersionString[];'
  } > "$fw/Headers/PayHandoff-umbrella.h"
  printf 'framework module PayHandoff {\n  umbrella header "PayHandoff-umbrella.h"\n\n  export *\n  module * { export * }\n}\n' > "$fw/Modules/module.modulemap"
  printf '#include <PayHandoff/payhandoff.h>\nint32_t use_it(void) { return payhandoff_abi_version(); }\n' > "$work/modules-$name/use.c"
  printf '@import PayHandoff;\nint32_t use_it(void) { return payhandoff_abi_version(); }\n' > "$work/modules-$name/use.m"
  cp "$work/modules-$name/use.m" "$work/modules-$name/use.mm"
  for mode in c m mm; do
    # -isysroot: an empty SDK (the host's /usr/include is not iOS's); stdint.h is clang's own.
    "$clang" -target arm64-apple-ios15.1 -isysroot "$work/no-sdk" -fmodules -fmodules-cache-path="$work/modules-$name/cache-$mode" \
      -F "$work/modules-$name" -fsyntax-only -Werror "$work/modules-$name/use.$mode" \
      > "$work/modules-$name/$mode.log" 2>&1 || return 1
  done
}
mkdir -p "$work/no-sdk"
mapfile -t public < <(python3 "$here/scripts/podspec_sources.py" --headers "$package" | sed -n 's/^public //p')
[ ${#public[@]} -gt 0 ] || { echo "ios-check: the podspec makes no header public" >&2; exit 1; }
if ! module_check pod "${public[@]}"; then
  echo "ios-check: the pod's public headers (${public[*]}) do not compile as a Clang module:" >&2
  cat "$work"/modules-pod/*.log >&2
  exit 1
fi
echo "ios-check: the pod's public headers (${public[*]}) compile as the framework module PayHandoff from C, Objective-C and Objective-C++ (-fmodules, arm64-apple-ios15.1); private: $(python3 "$here/scripts/podspec_sources.py" --headers "$package" | sed -n 's/^private //p' | tr '\n' ' ')"
# The check must be able to fail: the C++ bridge headers made public, as the podspec had them.
if module_check probe "${public[@]}" cpp/PayHandoffBridge.h cpp/PayHandoffBridgeCalls.h; then
  echo "ios-check: a module with the C++ headers cpp/PayHandoffBridge*.h compiled from C; the check cannot catch that" >&2
  exit 1
fi
echo "ios-check: with cpp/PayHandoffBridge.h and PayHandoffBridgeCalls.h public the module fails from C, as use_frameworks! apps did: $(grep -h -m1 -o "'[a-z]*' file not found" "$work"/modules-probe/c.log)"
