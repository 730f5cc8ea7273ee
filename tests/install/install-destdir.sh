#!/usr/bin/env bash
# `meson install` into a DESTDIR gives a command that runs where it lands and, moved elsewhere,
# still finds its own data: report, model and analyze on the installed bundled examples, with
# the source tree out of reach (a private mount namespace lays an empty tmpfs over it) and no
# PCIBW_DATA_DIR. Each installed run must print what the build tree's binary prints on the
# same input with the source tree's data. Also: the man page, the systemd units, the bash completion (where
# bash-completion looks) and the docs are installed; the binary names no path of the source
# tree. Usage: install-destdir.sh MESON BUILD_ROOT SOURCE_ROOT
set -euo pipefail
meson=$1 build=$(realpath "$2") src=$(realpath "$3")
fail() { echo "FAIL: $*" >&2; exit 1; }
t=$(mktemp -d /tmp/pcibw-install-XXXXXX)
trap 'rm -rf "$t"' EXIT
chmod 755 "$t"

"$meson" install -C "$build" --no-rebuild --quiet --destdir "$t/dest" > "$t/install.log" 2>&1 ||
  { cat "$t/install.log" >&2; fail "meson install --destdir"; }
prefix=$("$meson" introspect "$build" --buildoptions |
  python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
bindir=$("$meson" introspect "$build" --buildoptions |
  python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "bindir"))')
root=$t/dest$prefix
exe=$root/$bindir/pcibw
[ -x "$exe" ] || fail "no installed binary at $exe"
share=$root/share
for f in pcibw/nic/simple.ini pcibw/nic/e1000.ini pcibw/examples/freebsd-2004-udp-echo-e1000.csv \
         bash-completion/completions/pcibw doc/pcibw/README.md doc/pcibw/NEWS doc/pcibw/cli-contract.md; do
  [ -s "$share/$f" ] || fail "not installed: $share/$f"
done
if command -v scdoc > /dev/null; then
  [ -s "$share/man/man1/pcibw.1" ] || fail "man page not installed"
fi
# the systemd units (unless -Dsystemdsystemunitdir=no), run the command that was installed
unitdir=$("$meson" introspect "$build" --buildoptions |
  python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "systemdsystemunitdir"))')
if [ "$unitdir" != no ]; then
  for u in pcibw-report.service pcibw-report.timer pcibw-watch.service; do
    f=$(find "$t/dest" -path "*/systemd/system/$u" -print -quit)
    [ -n "$f" ] && [ -s "$f" ] || fail "systemd unit $u not installed"
    [ -z "$unitdir" ] || [ "$f" = "$t/dest$unitdir/$u" ] || fail "$u installed at $f, not in $unitdir"
  done
  for u in pcibw-report.service pcibw-watch.service; do
    grep -q "^ExecStart=$prefix/$bindir/pcibw " "$(dirname "$f")/$u" ||
      fail "$u does not run $prefix/$bindir/pcibw: $(grep ^ExecStart= "$(dirname "$f")/$u")"
  done
fi
# nothing compiled in points at the checkout's data (meson blanks the build tree's RUNPATH on
# install but may leave its bytes; source file and directory names, which debug information, the
# sanitizers and assert() record for their reports, are printed, never opened)
named() { strings -a "$exe" | grep -v -x -F "$build" | grep -E -x -e "(.*/)?$src/?" -e ".*$src/data(/.*)?"; }
if named | grep -q .; then
  fail "the installed binary names the source tree $src: $(named | head -3)"
fi

ex=share/pcibw/examples
runs=(
  "report --dump $ex/pcix-ibm-eadsx-82545em-multidomain.lspci"
  "report --json --dump $ex/pcie-connectx3pro-haswell-rootport.lspci"
  "model --dump $ex/pcix-ibm-eadsx-82545em-multidomain.lspci -s 0002:01:01.0 --sizes 64,1518 --line-rate 1G"
  "model --bus pcix133/64,mmrbc=512 --nic e1000 --pattern both --size-is udp-payload --sizes 1024 --json"
  "analyze $ex/freebsd-2004-udp-echo-e1000.csv --bus pcix133/64,mmrbc=512 --nic e1000 --line-rate 1G --cpus 1 --cpu-ghz 2.8"
)
# the reference: the build tree's binary with the checkout's data, on the same files
mkdir -p "$t/ref"
i=0
for r in "${runs[@]}"; do
  # shellcheck disable=SC2086
  (cd "$root" && PCIBW_DATA_DIR=$src/data "$build/pcibw" $r > "$t/ref/$i.out" 2> "$t/ref/$i.err") ||
    fail "reference run failed: $r ($(cat "$t/ref/$i.err"))"
  i=$((i + 1))
done

# moved: the tree no longer sits where it was installed
moved=$t/elsewhere/opt/pcibw
mkdir -p "$t/elsewhere/opt"
mv "$root" "$moved"

check() { # where (a prefix holding bin/ and share/)
  local at=$1 j=0
  for r in "${runs[@]}"; do
    # shellcheck disable=SC2086
    (cd "$at" && env -u PCIBW_DATA_DIR -u LD_LIBRARY_PATH "$at/$bindir/pcibw" $r > "$t/$j.out" 2> "$t/$j.err") ||
      fail "installed run failed: $r ($(cat "$t/$j.err"))"
    cmp -s "$t/$j.out" "$t/ref/$j.out" || { diff "$t/ref/$j.out" "$t/$j.out" | head -20 >&2; fail "output differs: $r"; }
    j=$((j + 1))
  done
}

if [ "$(id -u)" -eq 0 ] && unshare -m true 2> /dev/null; then
  # a private mount namespace: the checkout (and the build tree, wherever it is) and the
  # configured datadir are empty directories for the installed binary
  hide=("$src")
  [[ $build == "$src"/* ]] || hide+=("$build")
  [ -d "$prefix/share/pcibw" ] && hide+=("$prefix/share/pcibw")
  export -f check fail
  export t bindir moved
  runs_q=$(declare -p runs)
  unshare -m bash -c "
    set -euo pipefail
    mount --make-rprivate /
    for d in ${hide[*]@Q}; do mount -t tmpfs -o ro,size=1m none \"\$d\"; done
    [ -z \"\$(ls -A ${src@Q})\" ] || { echo 'FAIL: source tree still visible' >&2; exit 1; }
    $runs_q
    check \"\$moved\"
  " || fail "installed, moved and with the source tree hidden"
  echo "ok: installed into DESTDIR, moved to $moved, source tree hidden: ${#runs[@]} runs match"
else
  check "$moved"
  echo "ok: installed into DESTDIR, moved to $moved: ${#runs[@]} runs match (not root: the source tree stayed visible; the binary names no path in it)"
fi
