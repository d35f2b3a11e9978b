#!/bin/sh
# Run by make react-native-pack before npm pack (not an npm script: the packed package.json would
# carry a script pointing outside the package, issue 36): puts what the package needs from the
# rest of the repository next to it, so the tarball installs on its own:
#   core/include/payhandoff.h               the C ABI (the C++ bridge includes it)
#   core/Sources/PayHandoff, PayHandoffABI  the Swift core and C ABI (the podspec compiles them)
#   core/third_party/cjson                  cJSON 1.7.15 and its licence (compiled by the podspec)
#   android/prebuilt/<ABI>                  the Android libraries of make android (android/CMakeLists.txt
#                                           imports them; not jniLibs: README, "Android autolinking")
#   lib/                                    the compiled TypeScript API
#   LICENSE                                 the repository's (Apache-2.0), at the package root
# core/, prebuilt/, lib/ and LICENSE are build output (git-ignored). Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
rn="$here/bindings/react-native"
test -f "$here/include/payhandoff.h" || { echo "pack_react_native: run from the PayHandoff repository" >&2; exit 1; }

rm -rf "$rn/core" "$rn/lib"
mkdir -p "$rn/core/include" "$rn/core/Sources" "$rn/core/third_party"
cp "$here/include/payhandoff.h" "$rn/core/include/"
cp -R "$here/Sources/PayHandoff" "$here/Sources/PayHandoffABI" "$rn/core/Sources/"
cp -R "$here/third_party/cjson" "$rn/core/third_party/"

cp "$here/LICENSE" "$rn/LICENSE"

jni="$rn/android/prebuilt"
rm -rf "$jni" "$rn/android/src/main/jniLibs"
if [ -d "$here/dist/android/jni" ]; then
  mkdir -p "$jni" && cp -R "$here/dist/android/jni/." "$jni/"
  echo "pack_react_native: Android libraries from dist/android/jni: $(ls "$jni" | tr '\n' ' ')"
else
  echo "pack_react_native: no dist/android/jni (run make android first): the package has no Android libraries" >&2
fi

tsc -p "$rn/tsconfig.json"
echo "pack_react_native: core/ ($(find "$rn/core" -name '*.swift' | wc -l) Swift files, cJSON, header) and lib/ ready"
