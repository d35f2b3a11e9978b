#!/usr/bin/env bash
# make consumer-check (issue 36): each guide's first example, taken from the markdown as written
# (scripts/check-readme-swift.py --block/--first/--manifest/--prelude, and
# bindings/react-native/test/readme-check.js --first), built and run as a new user would, in a
# fresh folder outside the repository. What the examples take from the app itself (a user token,
# what to save, how to show) comes from a prelude next to them (Tests/Consumer, the Swift prelude),
# never imports or code of the example.
#
#   scripts/consumer_check.sh PART...     PART: swift c android react-native web (all by default)
#
# Environment: CONSUMER_DIR (default: a new mktemp -d, removed afterwards unless CONSUMER_KEEP=1),
# CONSUMER_SWIFT_CACHE (the Swift package's build folder, kept between runs so that the core is
# rebuilt only when it changed: /tmp/payhandoff-consumer-swift-<hash of this checkout>),
# WEB_ENGINES (the engines for the web page), KOTLIN_STDLIB, ANDROID_JSON, WEB_PYTHON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
extract() { python3 "$root/scripts/check-readme-swift.py" "$@"; }
parts=("$@")
((${#parts[@]})) || parts=(swift c android react-native web)

work=${CONSUMER_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/payhandoff-consumer.XXXXXX")}
case $work in "$root"/*) echo "consumer-check: CONSUMER_DIR must be outside the repository" >&2; exit 2;; esac
[[ -n ${CONSUMER_DIR:-} || ${CONSUMER_KEEP:-0} == 1 ]] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
failed=0
timed() {  # timed NAME COMMAND...: runs a part, prints its time, remembers a failure
    local name=$1 start status
    shift
    start=$(date +%s%N)
    "$@" && status=0 || status=$?
    echo "consumer-check: $name: $([[ $status -eq 0 ]] && echo passed || echo FAILED) in" \
        "$(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f s", ns / 1e9 }')"
    [[ $status -eq 0 ]] || failed=1
}

# Swift: a package next to a link named like the guide's clone (../payhandoff), whose manifest is
# the guide's fragment (its library target made the executable to run), and the first
# integration as main.swift.
swift_part() {
    local dir=$work/swift cache=${CONSUMER_SWIFT_CACHE:-/tmp/payhandoff-consumer-swift-$(echo -n "$root" | md5sum | cut -c1-8)}
    mkdir -p "$dir/MyApp/Sources/MyApp" "$cache"
    ln -sfn "$root" "$dir/payhandoff"
    {
        echo '// swift-tools-version:5.9'
        echo 'import PackageDescription'
        echo 'let package = Package(name: "MyApp",'
        extract --manifest "$root/docs/swift.md" | sed 's/\.target(name: "MyApp"/.executableTarget(name: "MyApp"/'
        echo ')'
    } > "$dir/MyApp/Package.swift"
    extract --first "$root/docs/swift.md" > "$dir/MyApp/Sources/MyApp/main.swift"
    extract --prelude > "$dir/MyApp/Sources/MyApp/App.swift"
    (cd "$dir/MyApp" && swift build --scratch-path "$cache" --product MyApp 2>&1 | grep -E 'error|warning: (unable|dependency)' || true)
    PAYHANDOFF_STATE_FILE=$dir/state.json "$cache/debug/MyApp" > "$dir/out.txt" 2>&1
    grep -q 'perform: openPOSApp("billpocket:<redacted>")' "$dir/out.txt" && grep -q 'log: .*callback_mismatch' "$dir/out.txt" \
        && test -s "$dir/state.json" || { cat "$dir/out.txt"; return 1; }
    echo "consumer-check: swift: docs/swift.md's manifest fragment (.package(path: \"../payhandoff\")) and first integration built and run:" \
        "$(sed -n 1p "$dir/out.txt"); $(sed -n 2p "$dir/out.txt" | cut -c1-90)…; the state file saved"
}

# C: app.c and the guide's commands, run as written with PAYHANDOFF set to this checkout.
c_part() {
    local dir=$work/c
    mkdir -p "$dir"
    extract --block "$root/docs/c.md" c "First integration" > "$dir/app.c"
    extract --block "$root/docs/c.md" sh "First integration" > "$dir/commands.sh"
    (cd "$dir" && PAYHANDOFF=$root sh -eu commands.sh > out.txt 2>&1) || { cat "$dir/out.txt"; return 1; }
    grep -q '"outcome":"not_ours"' "$dir/out.txt" || { cat "$dir/out.txt"; return 1; }
    echo "consumer-check: c: docs/c.md's app.c built with its two commands from $dir and run: $(cut -c1-60 "$dir/out.txt")…"
}

# Android: the Kotlin Activity and the Java one compiled against the AAR's classes.jar and
# signature-only stand-ins of the android.* / androidx.* classes they name (no Android SDK here:
# Tests/Android/stubs); then the *Auth Tab* block (issue 38: Auth Tab when
# CustomTabsClient.isAuthTabSupported says so, else a Custom Tab) as members of an Activity
# (Tests/Consumer/android/AuthTabActivity.kt) against androidx.browser's stand-ins.
android_part() {
    local dir=$work/android aar
    aar=$(ls "$root"/dist/android/payhandoff-*.aar)
    mkdir -p "$dir/stubs" "$dir/kotlin" "$dir/java"
    python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("classes.jar"))' "$aar" "$dir/classes.jar"
    javac -d "$dir/stubs" $(find "$root/Tests/Android/stubs" -name '*.java')
    local cp=$dir/classes.jar:${KOTLIN_STDLIB:-/usr/share/java/kotlin-stdlib.jar}:${ANDROID_JSON:-/usr/share/java/com.android.json.jar}:$dir/stubs
    extract --block "$root/bindings/android/README.md" kotlin "First integration" > "$dir/PayActivity.kt"
    kotlinc -cp "$cp" -d "$dir/kotlin" "$dir/PayActivity.kt" "$root/Tests/Consumer/android/App.kt" 2>&1 | grep -v -e 'Xverify:none' -e '^$' || true
    test -f "$dir/kotlin/PayActivity.class" || { echo "the Kotlin Activity did not compile"; return 1; }
    extract --block "$root/bindings/android/README.md" java "First integration" > "$dir/java.txt"
    local class
    class=$(sed -n 's/^public class \([A-Za-z_]*\).*/\1/p' "$dir/java.txt" | head -1)
    cp "$dir/java.txt" "$dir/$class.java"
    javac -Xlint:all -Werror -cp "$cp" -d "$dir/java" "$dir/$class.java" "$root/Tests/Consumer/android/App.java"
    extract --block "$root/bindings/android/README.md" kotlin "Auth Tab" > "$dir/authtab.txt"
    grep -q 'isAuthTabSupported' "$dir/authtab.txt" || { echo "the guide's Auth Tab block was not found"; return 1; }
    python3 -c 'import sys; host, block = open(sys.argv[1]).read(), open(sys.argv[2]).read()
marker = "    // README: Auth Tab\n"
assert host.count(marker) == 1
sys.stdout.write(host.replace(marker, "".join("    " + l if l.strip() else l for l in block.splitlines(True))))' \
        "$root/Tests/Consumer/android/AuthTabActivity.kt" "$dir/authtab.txt" > "$dir/AuthTabActivity.kt"
    kotlinc -Werror -cp "$cp" -d "$dir/authtab" "$dir/AuthTabActivity.kt" 2>&1 | grep -v -e 'Xverify:none' -e '^$' || true
    test -f "$dir/authtab/AuthTabActivity.class" || { echo "the Auth Tab block did not compile ($dir/AuthTabActivity.kt)"; return 1; }
    echo "consumer-check: android: the Kotlin Activity (PayActivity) and the Java one ($class) compiled against $(basename "$aar")'s classes.jar;" \
        "the Auth Tab block (AuthTabIntent or a Custom Tab) against androidx.browser 1.9.0's stand-ins"
}

# React Native: the first example in a project where the packed tarball is installed, tsc --strict
# under each module resolution (react-native and the host libraries: the repository's stand-ins).
react_native_part() {
    local dir=$work/react-native tarball resolution
    tarball=$(ls "$root"/dist/react-native/react-native-payhandoff-*.tgz)
    mkdir -p "$dir"
    echo '{ "name": "consumer-react-native", "private": true }' > "$dir/package.json"
    (cd "$dir" && npm install --offline --no-audit --no-fund --ignore-scripts --legacy-peer-deps "$tarball" > npm.log 2>&1) \
        || { cat "$dir/npm.log"; return 1; }
    node "$root/bindings/react-native/test/readme-check.js" --first "$root/bindings/react-native/README.md" "$dir/first.ts"
    cp "$root/bindings/react-native/types/react-native-ambient.d.ts" "$root/bindings/react-native/test/readme-hosts.d.ts" "$dir/"
    for resolution in node:commonjs node16:node16 nodenext:nodenext; do
        (cd "$dir" && tsc --noEmit --strict --target ES2020 --lib ES2020 --moduleResolution "${resolution%%:*}" \
            --module "${resolution##*:}" first.ts react-native-ambient.d.ts readme-hosts.d.ts) || return 1
    done
    echo "consumer-check: react-native: the first example type-checks (tsc $(tsc --version | cut -d' ' -f2) --strict) against $(basename "$tarball") under node, node16, nodenext"
}

# Web: the first example type-checked against the installed tarball, then run as a page's module
# in each engine (bindings/web/test/browser/consumer.py).
web_part() {
    local dir=$work/web tarball resolution
    tarball=$(ls "$root"/dist/web/payhandoff-web-*.tgz)
    mkdir -p "$dir"
    echo '{ "name": "consumer-web", "private": true, "type": "module" }' > "$dir/package.json"
    (cd "$dir" && npm install --offline --no-audit --no-fund --ignore-scripts "$tarball" > npm.log 2>&1) || { cat "$dir/npm.log"; return 1; }
    extract --block "$root/bindings/web/README.md" js "First integration" > "$dir/first.js"
    cp "$dir/first.js" "$dir/first.ts"
    for resolution in node:es2022 node16:node16 nodenext:nodenext; do
        (cd "$dir" && tsc --noEmit --strict --target ES2022 --lib ES2022,DOM --moduleResolution "${resolution%%:*}" \
            --module "${resolution##*:}" first.ts) || return 1
    done
    rm "$dir/first.ts"
    echo "consumer-check: web: the first example type-checks (tsc --strict) against $(basename "$tarball") under node, node16, nodenext"
    cp "$root/Tests/Consumer/web/index.html" "$root/Tests/Consumer/web/harness.js" "$dir/"
    "${WEB_PYTHON:-/usr/bin/python3}" "$root/bindings/web/test/browser/consumer.py" --dist "$root/dist/web" --app "$dir" \
        --out "$work/web-browser" --engines "${WEB_ENGINES:-chromium webkit firefox}"
}

for part in "${parts[@]}"; do
    case $part in
    swift) timed swift swift_part ;;
    c) timed c c_part ;;
    android) timed android android_part ;;
    react-native) timed react-native react_native_part ;;
    web) timed web web_part ;;
    *) echo "consumer-check: unknown part $part (swift c android react-native web)" >&2; exit 2 ;;
    esac
done
exit $failed
