#!/usr/bin/env bash
# Where `meson install` puts the systemd units, from a configured (not built) tree: a private
# --prefix keeps them inside it (systemd's pkg-config asked with the prefix defined, or
# PREFIX/lib/systemd/system without systemd.pc), -Dsystemdsystemunitdir=DIR puts them in DIR
# (what debian/rules passes, so the .deb keeps /lib/systemd/system) and "no" installs none.
# Usage: unitdir.sh MESON SOURCE_ROOT
set -euo pipefail
meson=$1 src=$(realpath "$2")
fail() { echo "FAIL: $*" >&2; exit 1; }
t=$(mktemp -d /tmp/pcibw-unitdir-XXXXXX)
trap 'rm -rf "$t"' EXIT
units=(pcibw-report.service pcibw-report.timer pcibw-watch.service)
# installed destinations of the units, one a line, for a tree configured with ARGS
dests() {
  local b=$t/b$#$RANDOM
  "$meson" setup "$b" "$src" -Dtests=false -Dplot=disabled "$@" > "$t/setup.log" 2>&1 ||
    { cat "$t/setup.log" >&2; fail "meson setup $*"; }
  "$meson" introspect "$b" --installed |
    python3 -c 'import json,sys; [print(d) for d in json.load(sys.stdin).values() if "/systemd/system/pcibw-" in d]'
}
private=$t/private
got=$(dests --prefix "$private")
for u in "${units[@]}"; do
  grep -qx "$private/lib/systemd/system/$u" <<< "$got" ||
    fail "--prefix $private: $u not at $private/lib/systemd/system (installed: $got)"
done
grep -v "^$private/" <<< "$got" && fail "--prefix $private: a unit installed outside the prefix"
got=$(dests --prefix "$private" -Dsystemdsystemunitdir=/lib/systemd/system)
for u in "${units[@]}"; do
  grep -qx "/lib/systemd/system/$u" <<< "$got" || fail "-Dsystemdsystemunitdir=/lib/systemd/system: $u at $got"
done
got=$(dests --prefix "$private" -Dsystemdsystemunitdir=no)
[ -z "$got" ] || fail "-Dsystemdsystemunitdir=no installed $got"
# the package keeps the system's unit directory
grep -q -- '-Dsystemdsystemunitdir=/lib/systemd/system' "$src/debian/rules" ||
  fail "debian/rules does not pass -Dsystemdsystemunitdir=/lib/systemd/system"
echo "ok: --prefix keeps the units in $private/lib/systemd/system; -Dsystemdsystemunitdir=DIR and =no obeyed; debian/rules passes /lib/systemd/system"
