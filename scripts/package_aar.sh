#!/usr/bin/env bash
# Packages dist/android/payhandoff-<version>.aar and its POM from what make android built:
#   classes.jar          the Kotlin API (CLASSES, compiled from bindings/android/src/main/kotlin)
#   jni/<ABI>/libpayhandoff.so   dist/android/jni (scripts/build_android_libs.sh)
#   AndroidManifest.xml  package com.payhandoff, minSdk 24
#   proguard.txt         bindings/android/consumer-rules.pro (consumer R8/ProGuard rules)
#   R.txt                empty (no resources)
#   LICENSE, NOTICE, licenses/cJSON.txt   Apache-2.0 for PayHandoff, MIT for the cJSON inside the .so
# Next to it: dist/android/native-debug-symbols.zip (Play Console's layout: <ABI>/libpayhandoff.so
# unstripped) and dist/maven/, the Maven repository an app can point at (scripts/maven_layout.py:
# the AAR, its POM naming the Kotlin standard library it was compiled against, Gradle module
# metadata, sources and javadoc jars, checksums).
# The version is the one the library reports (payhandoff_version(): library_version of abi/payhandoff.json).
# Entries carry a fixed date, so the same inputs give the same bytes (and the AAR is left alone).
# Usage: scripts/package_aar.sh CLASSES_DIR KOTLIN_STDLIB_JAR
set -euo pipefail
cd "$(dirname "$0")/.."
classes=$1
kotlin_version=$(python3 -c 'import sys, zipfile
for line in zipfile.ZipFile(sys.argv[1]).read("META-INF/MANIFEST.MF").decode().splitlines():
    if line.startswith("Implementation-Version:"): print(line.split(":", 1)[1].strip())' "$2")
[[ -n $kotlin_version ]] || { echo "package_aar: no Implementation-Version in $2" >&2; exit 1; }
version=$(python3 tools/abigen/abigen.py --get library_version)
[[ -n $version ]] || { echo "package_aar: no library_version in abi/payhandoff.json" >&2; exit 1; }
stage=.build/android/aar
rm -rf "$stage" && mkdir -p "$stage/licenses" "$stage/jni"
abis=()
for lib in dist/android/jni/*/libpayhandoff.so; do
    abi=$(basename "$(dirname "$lib")")
    abis+=("$abi")
    mkdir -p "$stage/jni/$abi" && cp "$lib" "$stage/jni/$abi/"
done
((${#abis[@]})) || { echo "package_aar: no libraries in dist/android/jni (run scripts/build_android_libs.sh)" >&2; exit 1; }

jar --create --file "$stage/classes.jar" --date=2000-01-01T00:00:00Z -C "$classes" .
cat > "$stage/AndroidManifest.xml" <<XML
<?xml version="1.0" encoding="utf-8"?>
<!-- PayHandoff $version. SPDX-License-Identifier: Apache-2.0 -->
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.payhandoff">
    <uses-sdk android:minSdkVersion="24" />
</manifest>
XML
cp bindings/android/consumer-rules.pro "$stage/proguard.txt"
: > "$stage/R.txt"
cp LICENSE "$stage/LICENSE"
{ echo "cJSON 1.7.15 (third_party/cjson) is compiled into jni/*/libpayhandoff.so under this licence:"; echo; cat third_party/cjson/LICENSE; } > "$stage/licenses/cJSON.txt"
cat > "$stage/NOTICE" <<TXT
PayHandoff $version (com.payhandoff:payhandoff)
SPDX-License-Identifier: Apache-2.0 (LICENSE)

jni/<ABI>/libpayhandoff.so (${abis[*]}) contain cJSON 1.7.15 by Dave Gamble and cJSON
contributors, SPDX-License-Identifier: MIT (licenses/cJSON.txt).
TXT

mkdir -p dist/android
aar=dist/android/payhandoff-$version.aar
python3 - "$stage" "$aar" <<'PY'
import os, sys, zipfile
stage, aar = sys.argv[1], sys.argv[2]
paths = sorted(os.path.relpath(os.path.join(d, f), stage) for d, _, files in os.walk(stage) for f in files)
with zipfile.ZipFile(aar + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for path in paths:
        info = zipfile.ZipInfo(path, date_time=(2000, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(os.path.join(stage, path), "rb") as f:
            z.writestr(info, f.read())
# Same bytes as the AAR already there: keep it (and its date, which make android-test goes by).
if os.path.exists(aar) and open(aar, "rb").read() == open(aar + ".tmp", "rb").read():
    os.remove(aar + ".tmp")
else:
    os.replace(aar + ".tmp", aar)
PY

# Play Console's native debug symbols: <ABI>/libpayhandoff.so unstripped (the same link as the
# stripped library in the AAR, so the same build-id; scripts/check_maven_layout.py checks it).
python3 - dist/android/native-debug-symbols.zip "${abis[@]}" <<'PY'
import os, sys, zipfile
out, abis = sys.argv[1], sys.argv[2:]
with zipfile.ZipFile(out + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for abi in sorted(abis):
        info = zipfile.ZipInfo("%s/libpayhandoff.so" % abi, date_time=(2000, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        z.writestr(info, open(".build/android-libs/%s/libpayhandoff.so" % abi, "rb").read())
os.replace(out + ".tmp", out)
PY

rm -rf dist/android/maven dist/android/payhandoff-*.pom
python3 scripts/maven_layout.py --aar "$aar" --classes "$classes" --sources bindings/android/src/main/kotlin \
    --version "$version" --kotlin-version "$kotlin_version" --out dist/maven
echo "package_aar: $aar ($(stat -c %s "$aar") bytes: classes.jar, jni/{$(IFS=,; echo "${abis[*]}")}, minSdk 24), dist/android/native-debug-symbols.zip ($(stat -c %s dist/android/native-debug-symbols.zip) bytes, unstripped), the Maven repository dist/maven (kotlin-stdlib $kotlin_version)"
