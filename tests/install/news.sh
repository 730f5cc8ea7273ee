#!/usr/bin/env bash
# NEWS has an entry for the version the build says it is (meson's project version, which
# `pcibw --version` prints), as its first heading: a version raised without saying what changed
# for users, or a NEWS not raised with it, fails here. debian/changelog's top entry is the same
# version. Usage: news.sh PCIBW SOURCE_ROOT
set -euo pipefail
exe=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
v=$("$exe" --version | sed -n 's/^pcibw \([0-9][0-9.]*\).*/\1/p')
[ -n "$v" ] || fail "pcibw --version: $("$exe" --version)"
# the first version heading: a line that is a version, underlined with '='
first=$(awk 'prev ~ /^[0-9]+\.[0-9]+\.[0-9]+$/ && /^=+$/ {print prev; exit} {prev = $0}' "$src/NEWS")
[ "$first" = "$v" ] || fail "NEWS's newest entry is '$first', pcibw --version says $v"
# the entry says something: at least one item under the heading
entry=$(awk -v v="$v" '$0 == v {on = 1; next} on && /^[0-9]+\.[0-9]+\.[0-9]+$/ {exit} on' "$src/NEWS")
grep -q '^- ' <<< "$entry" || fail "NEWS's $v entry lists nothing"
deb=$(sed -n '1s/^pcibw (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[ "$deb" = "$v" ] || fail "debian/changelog's top entry is $deb, pcibw --version says $v"
echo "ok: NEWS and debian/changelog have entries for $v"
