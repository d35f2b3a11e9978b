#!/usr/bin/env bash
# Unpacks Debian's cJSON source package into DEST (cJSON.c, cJSON.h, LICENSE, with Debian's
# patches applied), for builds that compile cJSON themselves (the WebAssembly module). It is the
# source of the libcjson-dev the Linux libraries link, so both run the same cJSON with the same
# security fixes. Does nothing when DEST already holds it.
# Usage: scripts/cjson-source.sh DEST
#
# apt-get fetches the source package from the machine's own Debian mirrors (the deb lines of
# /etc/apt/sources.list{,.d}, read as deb-src) into a private apt state under DEST's parent:
# the system's apt configuration is neither read for sources nor changed.
set -euo pipefail

dest=${1:?usage: scripts/cjson-source.sh DEST}
if [[ -f $dest/cJSON.c && -f $dest/cJSON.h && -f $dest/LICENSE ]]; then
    exit 0
fi

mkdir -p "$(dirname "$dest")"
dest=$(cd "$(dirname "$dest")" && pwd)/$(basename "$dest")
work=$(dirname "$dest")/cjson-apt
rm -rf "$work" "$dest"
mkdir -p "$work/lists/partial" "$work/cache" "$work/parts" "$work/download"
: > "$work/sources.list"

# deb822 files: every "Types: deb" stanza also as deb-src; one-line files: "deb " -> "deb-src ".
shopt -s nullglob
for f in /etc/apt/sources.list.d/*.sources; do
    sed -E 's/^Types:.*$/Types: deb-src/' "$f" > "$work/parts/$(basename "$f")"
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    sed -nE 's/^deb[[:space:]]+/deb-src /p' "$f" > "$work/parts/$(basename "$f" .list).list"
done

apt_private=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/parts"
             -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o APT::Sandbox::User=root)
apt-get "${apt_private[@]}" -qq update

# The source of the installed binary package when the mirror still has it, else the newest.
installed=$(dpkg-query -W -f='${Version}' libcjson-dev 2>/dev/null || true)
cd "$work/download"
if [[ -n $installed ]] && apt-get "${apt_private[@]}" -qq source --download-only "cjson=$installed" >/dev/null 2>&1; then
    echo "cjson-source: Debian cjson $installed (the installed libcjson-dev)"
else
    apt-get "${apt_private[@]}" -qq source --download-only cjson >/dev/null
    echo "cjson-source: Debian cjson $(ls ./*.dsc | sed -E 's/.*cjson_(.*)\.dsc/\1/') (libcjson-dev ${installed:-not installed})"
fi
# apt checked every file against the signed Release and Sources indexes; the .dsc signature
# itself would need debian-keyring.
dpkg-source --no-check -x ./*.dsc unpacked >/dev/null
mkdir -p "$dest"
cp unpacked/cJSON.c unpacked/cJSON.h unpacked/LICENSE "$dest/"
rm -rf "$work"
