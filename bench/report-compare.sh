#!/usr/bin/env bash
# Old against new `pcibw report`: runs two builds on every dump, sysfs copy and hwloc XML export
# under tests/data (and the shared real data when it is there), each as network controllers
# and --all, in text, JSON, CSV and Prometheus, and compares standard output, standard error
# and the exit code byte for byte (the Prometheus timestamp of the run aside). Also: a dump fed through a pipe, two bad capability lists
# in one dump (which error wins), a duplicate slot late in a large dump, a --pci-ids file that
# cannot be parsed, and a synthetic dump of COUNT devices (bench/synthetic-dump-gen.py).
# Usage: bench/report-compare.sh OLD_PCIBW NEW_PCIBW [COUNT]   (default COUNT 1024)
# Prints each difference and a summary; exit 0 when there is none, 1 otherwise.
set -euo pipefail
old=$(realpath "$1")
new=$(realpath "$2")
count=${3:-1024}
cd "$(dirname "$0")/.."
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
d=$(mktemp -d "${TMPDIR:-/tmp}/pcibw-report-compare-XXXXXX")
trap 'rm -rf "$d"' EXIT

python3 bench/synthetic-dump-gen.py "$count" > "$d/synthetic-large.lspci"
# two devices whose capability pointer (0x34) points into the header: the later one is named
awk 'BEGIN { n = 0 } /^[0-9a-f]+:[0-9a-f]+:[0-9a-f]+\.[0-7] / { n++ }
     /^30: / && (n == 3 || n == 9) { $0 = substr($0, 1, 16) "10" substr($0, 19) } { print }' \
  "$d/synthetic-large.lspci" > "$d/synthetic-two-bad-caps.lspci"
# the first slot again at the end
{ cat "$d/synthetic-large.lspci"; sed -n '2,/^$/p' "$d/synthetic-large.lspci"; } > "$d/synthetic-late-duplicate.lspci"
printf '8086  Intel\n\tzz not an id\n' > "$d/bad.ids"

inputs=()
for f in tests/data/*.lspci tests/data/bad/*.lspci /work/shared/realdata/lspci/*.lspci "$d"/*.lspci; do
  [ -f "$f" ] && inputs+=("--dump $f")
done
for s in tests/data/sysfs/*/sys /work/shared/realdata/sysfs/*/sys; do
  [ -d "$s" ] && inputs+=("--sysfs $s")
done
for x in tests/data/hwloc/*.xml tests/data/bad/*hwloc*.xml /work/shared/realdata/hwloc/*.xml; do
  [ -f "$x" ] && inputs+=("--topology $x")
done
inputs+=("--dump $d/synthetic-large.lspci --pci-ids $d/bad.ids" "--dump /nonexistent.lspci")

runs=0 diffs=0
one() { # LABEL then the command's words; the two builds must agree
  local label=$1
  shift
  "$old" "$@" > "$d/o.out" 2> "$d/o.err" && echo 0 > "$d/o.rc" || echo $? > "$d/o.rc"
  "$new" "$@" > "$d/n.out" 2> "$d/n.err" && echo 0 > "$d/n.rc" || echo $? > "$d/n.rc"
  runs=$((runs + 1))
  # the run's own time is the one line allowed to differ
  sed -i '/^pcibw_last_success_timestamp_seconds /d' "$d/o.out" "$d/n.out"
  for k in out err rc; do
    if ! cmp -s "$d/o.$k" "$d/n.$k"; then
      diffs=$((diffs + 1))
      echo "DIFFERENT ($k): $label"
      diff "$d/o.$k" "$d/n.$k" | head -5 || true
      return
    fi
  done
}
for in in "${inputs[@]}"; do
  for sel in "" "--all"; do
    for fmt in text json csv prometheus; do
      # shellcheck disable=SC2086 # the input words are split on purpose
      one "report $in $sel --format $fmt" report $in $sel --format "$fmt"
    done
  done
done
# standard input: a pipe read as a stream
for f in tests/data/pcix-ibm-eadsx-82545em-multidomain.lspci "$d/synthetic-large.lspci"; do
  "$old" report --dump - --all --json < "$f" > "$d/o.out" 2>&1 || true
  "$new" report --dump - --all --json < "$f" > "$d/n.out" 2>&1 || true
  runs=$((runs + 1))
  cat "$f" | "$old" report --dump - --all > "$d/o.pipe" 2>&1 || true
  cat "$f" | "$new" report --dump - --all > "$d/n.pipe" 2>&1 || true
  runs=$((runs + 1))
  cmp -s "$d/o.out" "$d/n.out" || { diffs=$((diffs + 1)); echo "DIFFERENT: --dump - < $f"; }
  cmp -s "$d/o.pipe" "$d/n.pipe" || { diffs=$((diffs + 1)); echo "DIFFERENT: cat $f | --dump -"; }
done
true | "$old" report --dump - > "$d/o.out" 2>&1 || echo "rc $?" >> "$d/o.out"
true | "$new" report --dump - > "$d/n.out" 2>&1 || echo "rc $?" >> "$d/n.out"
runs=$((runs + 1))
cmp -s "$d/o.out" "$d/n.out" || { diffs=$((diffs + 1)); echo "DIFFERENT: empty pipe"; }
echo "report-compare: $runs runs over ${#inputs[@]} inputs, $diffs with a difference"
[ "$diffs" -eq 0 ]
