#!/usr/bin/env bash
# make maven-check: dist/maven resolved by Debian's Maven, offline. Tests/Android/maven/pom.xml
# depends on com.payhandoff:payhandoff (aar, sources, javadoc) from dist/maven and takes
# kotlin-stdlib and maven-dependency-plugin from Debian's /usr/share/maven-repo; `mvn -o` with file:
# repositories allowed (aether.offline.protocols=file), checksum policy "fail" for dist/maven.
# copy-dependencies must copy the AAR, byte for byte the one in dist/android, and kotlin-stdlib.
# The control: a copy of dist/maven whose .aar.sha1 is wrong must fail the same resolution.
# Usage: scripts/maven_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(python3 tools/abigen/abigen.py --get library_version)
work=$PWD/.build/maven-check
rm -rf "$work" && mkdir -p "$work"
start=$(date +%s)
# resolve NAME REPOSITORY: mvn -o copy-dependencies in $work/NAME; its log in $work/NAME.log.
resolve() {
    mkdir -p "$work/$1" && cp Tests/Android/maven/pom.xml "$work/$1/"
    (cd "$work/$1" && mvn -o -B --no-transfer-progress -Dmaven.repo.local="$work/$1/repository" -Daether.offline.protocols=file \
        -Dpayhandoff.repository="file://$2" -Dpayhandoff.version="$version" \
        org.apache.maven.plugins:maven-dependency-plugin:3.5.0:copy-dependencies) > "$work/$1.log" 2>&1
}
if ! resolve consumer "$PWD/dist/maven"; then
    grep -E 'ERROR' "$work/consumer.log" | head -20
    echo "FAIL: maven-check: mvn -o could not resolve com.payhandoff:payhandoff:$version from dist/maven (log: $work/consumer.log)"
    exit 1
fi
deps=$work/consumer/target/dependency
cmp -s "$deps/payhandoff-$version.aar" "dist/android/payhandoff-$version.aar" \
    || { echo "FAIL: maven-check: the resolved AAR differs from dist/android/payhandoff-$version.aar"; exit 1; }
for f in "payhandoff-$version-sources.jar" "payhandoff-$version-javadoc.jar" kotlin-stdlib-1.3.31.jar; do
    [[ -f $deps/$f ]] || { echo "FAIL: maven-check: $f was not resolved"; exit 1; }
done
echo "maven-check: $(mvn -v 2>/dev/null | head -1 | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/ (.*//'), offline: com.payhandoff:payhandoff:$version from dist/maven (aar, sources, javadoc; checksums enforced) and $(ls "$deps" | grep -v payhandoff | tr '\n' ' ')from /usr/share/maven-repo"
cp -r dist/maven "$work/corrupted"
echo 0000000000000000000000000000000000000000 > "$work/corrupted/com/payhandoff/payhandoff/$version/payhandoff-$version.aar.sha1"
if resolve control "$work/corrupted"; then
    echo "FAIL: maven-check: a wrong .aar.sha1 did not fail the resolution: the check cannot catch a bad checksum"
    exit 1
fi
echo "maven-check: control: with a wrong payhandoff-$version.aar.sha1 the resolution fails ($(grep -o -m1 'Checksum validation failed[^,]*' "$work/control.log" || echo "see $work/control.log")); $(( $(date +%s) - start )) s"
