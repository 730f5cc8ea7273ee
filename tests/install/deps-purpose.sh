#!/usr/bin/env bash
# scripts/deps.sh installs by purpose: the demo asks only for what building and running need
# (no test framework, formatter, fuzzing compiler or monitoring stack), the test command for
# what the tests run too, the fuzz script for clang; an unknown purpose is refused (exit 2).
# Usage: deps-purpose.sh SOURCE_ROOT
set -euo pipefail
src=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
deps=$src/scripts/deps.sh
build=$("$deps" --list build)
test=$("$deps" --list test)
for p in libpci-dev libhwloc-dev libjansson-dev libcsv-dev libinih-dev meson ninja-build scdoc pci.ids; do
  grep -qx "$p" <<< "$build" || fail "build does not list $p"
done
for p in libcriterion-dev libexpat1-dev clang-format clang strace prometheus prometheus-node-exporter iperf3 sysstat; do
  ! grep -qx "$p" <<< "$build" || fail "build lists $p, which only the tests or the fuzzers need"
done
for p in libcriterion-dev libexpat1-dev clang-format strace prometheus iperf3 sysstat libpci-dev meson; do
  grep -qx "$p" <<< "$test" || fail "test does not list $p"
done
! grep -qx clang <<< "$test" || fail "test lists clang (the fuzzers' compiler)"
grep -qx clang <<< "$("$deps" --list fuzz)" || fail "fuzz does not list clang"
[ "$("$deps" --list all | sort)" = "$( (echo "$test"; "$deps" --list fuzz) | sort -u)" ] || fail "all is not test + fuzz"
rc=0
"$deps" --list nonsense > /dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || fail "unknown purpose: exit $rc, expected 2"
grep -qx './scripts/deps.sh build' "$src/scripts/demo.sh" || fail "demo.sh does not install by 'build'"
grep -q -- '-Dtests=false' "$src/scripts/demo.sh" || fail "demo.sh configures the test suite, which needs Criterion"
grep -qx './scripts/deps.sh test' "$src/scripts/test.sh" || fail "test.sh does not install by 'test'"
grep -qx './scripts/deps.sh fuzz' "$src/scripts/fuzz.sh" || fail "fuzz.sh does not install by 'fuzz'"
echo "ok: build $(wc -l <<< "$build") packages, test $(wc -l <<< "$test"); demo.sh, test.sh and fuzz.sh install by purpose"
