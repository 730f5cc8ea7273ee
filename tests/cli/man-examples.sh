#!/usr/bin/env bash
# The man page's EXAMPLES section (doc/pcibw.1.scd) exists and each of its command lines runs
# as written, from a copy of the bundled examples' directory (where the section says to run
# them), with exit 0 and output. The live watch pair needs an interface and 10 s: left to the
# watch tests, said. Usage: man-examples.sh PCIBW SOURCE_ROOT
set -euo pipefail
exe=$1 src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/examples"
ln -s "$exe" "$t/bin/pcibw"
cp "$src"/data/examples/* "$t/examples/"
# the fenced lines between "# EXAMPLES" and the next section
mapfile -t lines < <(awk '/^# EXAMPLES/ {on = 1; next} /^# / {on = 0} on && /^```/ {f = !f; next} on && f' "$src/doc/pcibw.1.scd")
[ ${#lines[@]} -ge 5 ] || fail "EXAMPLES has ${#lines[@]} command lines, expected at least 5"
ran=0 skipped=0
for l in "${lines[@]}"; do
  [[ $l == pcibw\ * ]] || fail "an example that does not start with 'pcibw ': $l"
  if [[ $l == *watch* || $l == *run.csv* ]]; then
    skipped=$((skipped + 1))
    continue
  fi
  out=$(cd "$t/examples" && PATH=$t/bin:$PATH PCIBW_DATA_DIR=$src/data bash -c "$l" 2> "$t/err") ||
    fail "exit $?: $l: $(cat "$t/err")"
  [ -n "$out" ] || fail "no output: $l"
  ran=$((ran + 1))
done
echo "ok: $ran EXAMPLES lines ran; $skipped live watch line(s) left to the watch tests"
