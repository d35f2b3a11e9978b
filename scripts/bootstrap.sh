#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, if they are missing.
# Usage: scripts/bootstrap.sh PACKAGE...
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -euo pipefail

# One dpkg-query for every package (make test calls this once per step).
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null | awk '/ install ok installed$/ {print $1}' | tr '\n' ' ' || true) "
missing=()
for pkg in "$@"; do
    [[ $installed == *" $pkg "* ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
    echo "bootstrap: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
    echo "bootstrap: run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
