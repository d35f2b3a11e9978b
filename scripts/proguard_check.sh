#!/usr/bin/env bash
# make proguard-check: the AAR's consumer rules (proguard.txt) on a minified app, with Debian's
# ProGuard 6.2 standing in for R8 (no Android build tools here).
#   Tests/Android/proguard/MinifiedApp.java, compiled against the AAR's classes.jar, is shrunk,
#   optimized and obfuscated together with classes.jar by ProGuard with the AAR's proguard.txt and
#   a keep rule for main; then run on the host JVM with the AAR's own jni/x86_64/libpayhandoff.so.
#   Its log must read NotOurs / NOT_OURS / OPEN_BROWSER. The control: the same app minified with
#   only the rule the AAR had before (keep com.payhandoff.Native) must log an obfuscated name, so
#   the check can fail.
# ProGuard 6.2 cannot read JDK 17's jmods: the Java library jar is built from $JAVA_HOME/lib/ct.sym,
# release 8 (the .sig class files of every directory whose name holds '8', marked class version 52).
# Usage: scripts/proguard_check.sh AAR KOTLIN_STDLIB_JAR ORG_JSON_JAR
set -euo pipefail
cd "$(dirname "$0")/.."
aar=$1 stdlib=$2 orgjson=$3
work=$PWD/.build/proguard-check
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
rm -rf "$work" && mkdir -p "$work/app" "$work/jni/libc"
start=$(date +%s)

python3 - "$JAVA_HOME/lib/ct.sym" "$work/java8.jar" <<'PY'
import sys, zipfile
ct, out = zipfile.ZipFile(sys.argv[1]), sys.argv[2]
seen = set()
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in ct.namelist():
        top, _, rest = name.partition("/")
        if "8" not in top or not name.endswith(".sig"):
            continue
        # 9+ entries carry the module (java.base/...); release 8 entries do not.
        path = rest.split("/", 1)[1] if rest.split("/", 1)[0].startswith(("java.", "jdk.")) else rest
        path = path[:-4] + ".class"
        if path not in seen:
            seen.add(path)
            data = bytearray(ct.read(name))
            # ct.sym's .sig files say class version 61 (JDK 17); ProGuard 6.2 reads up to 57. They
            # describe Java 8's API, so they are marked Java 8 (52).
            data[4:8] = (0, 0, 0, 52)
            z.writestr(path, bytes(data))
print("proguard-check: java8.jar from ct.sym: %d classes" % len(seen))
PY

python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); open(sys.argv[2], "wb").write(z.read("classes.jar")); open(sys.argv[3], "w").write(z.read("proguard.txt").decode()); z.extract("jni/x86_64/libpayhandoff.so", sys.argv[4])' \
    "$aar" "$work/classes.jar" "$work/proguard.txt" "$work"
javac -nowarn --release 8 -cp "$work/classes.jar:$stdlib:$orgjson" -d "$work/app" Tests/Android/proguard/MinifiedApp.java
jar --create --file "$work/app.jar" -C "$work/app" .
# The library names Android's libc.so: glibc's libc.so.6 stands in (as in make android-test).
ln -sfn "$(readlink -f "$(cc -print-file-name=libc.so.6)")" "$work/jni/libc/libc.so"

# minify NAME RULES: the app and classes.jar through ProGuard with RULES, then run.
minify() {
    local name=$1 rules=$2
    cat > "$work/$name.pro" <<PRO
-injars $work/app.jar
-injars $work/classes.jar(!META-INF/**)
-outjars $work/$name.jar
-libraryjars $work/java8.jar
-libraryjars $stdlib
-libraryjars $orgjson
-include $rules
-keep public class MinifiedApp { public static void main(java.lang.String[]); }
-printmapping $work/$name.mapping
-dontwarn
-dontnote
PRO
    proguard "@$work/$name.pro" > "$work/$name.proguard.log" 2>&1 || { cat "$work/$name.proguard.log"; return 1; }
    LD_LIBRARY_PATH=$work/jni/libc java -Djava.library.path="$work/jni/x86_64" \
        -cp "$work/$name.jar:$stdlib:$orgjson" MinifiedApp > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; return 1; }
}

minify minified "$work/proguard.txt"
grep -B100 -m1 'keepnames' "$work/proguard.txt" | grep -v keepnames > "$work/before.pro" || true
grep -q 'com.payhandoff.Native' "$work/before.pro"
minify control "$work/before.pro"

status=0
renamed=$(grep -c ' -> ' "$work/minified.mapping" || true)
echo "proguard-check: ProGuard $(proguard 2>&1 | grep -o 'ProGuard, version [0-9.]*' | head -1 | cut -d' ' -f3): app + classes.jar with the AAR's proguard.txt ($renamed names in the mapping); the app's log:"
sed 's/^/  /' "$work/minified.log"
for want in 'outcome: NotOurs' 'outcome type: NOT_OURS' 'effect type: OPEN_BROWSER' 'outcome class: com.payhandoff.Outcome$NotOurs'; do
    grep -qxF "$want" "$work/minified.log" || { echo "FAIL: proguard-check: the minified app's log lacks '$want'"; status=1; }
done
# The control must show what the rules prevent: an obfuscated class name for the outcome.
control_outcome=$(sed -n 's/^outcome: //p' "$work/control.log")
if [[ -n $control_outcome && $control_outcome != NotOurs ]]; then
    echo "proguard-check: control (only the rule keeping com.payhandoff.Native): the same app logs 'outcome: $control_outcome'"
else
    echo "FAIL: proguard-check: the control logged '$control_outcome': the check cannot tell the rules work"
    status=1
fi
echo "proguard-check: $(( $(date +%s) - start )) s"
exit $status
