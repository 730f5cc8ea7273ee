#!/usr/bin/env bash
# Ingest throughput of `pcibw analyze` on a generated 1 GB CSV, against mawk summing one column of
# the same file, and pcibw's peak RSS (GNU time). The file goes to ${TMPDIR:-/tmp} and is deleted.
# The two run in turn REPS times and the medians are printed: on a shared machine one run of either
# can be slowed by a neighbour, and the pairing keeps both under the same load.
# Usage: bench/ingest-bench.sh [BUILD_DIR] [SIZE_MB] [REPS]     (defaults: build, 1000, 3)
# Measure a release build, run under nice on a shared machine:
#   meson setup /tmp/rel -Dbuildtype=release -Dtests=false && ninja -C /tmp/rel
#   nice -n 19 bench/ingest-bench.sh /tmp/rel 1000
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mb=${2:-1000}
reps=${3:-3}
. bench/lib.sh
bench_exe "$build"
f=$(mktemp "${TMPDIR:-/tmp}/pcibw-bench-XXXXXX.csv")
trap 'rm -f "$f" "$f.time"' EXIT

# 6 frame sizes at a flat 1000 kpps with a CPU column: what a long capture of a sweep looks like;
# whole blocks of whole lines (a byte count would cut the last line short)
{
  echo "frame_bytes,kpps,cpu_pct"
  block=$(for s in 64 128 256 512 1024 1518; do printf '%s,1000,50\n' "$s"; done)
  { yes "$block" || true; } | head -n $(((mb * 1000 * 1000) / (${#block} + 1) * 6))
} > "$f"
[ "$(tail -c 1 "$f" | od -An -tx1 | tr -d ' ')" = 0a ] || { echo "generated input does not end in a whole line" >&2; exit 1; }
bytes=$(stat -c %s "$f")
lines=$(($(wc -l < "$f") - 1))
echo "input: $f, $bytes bytes, $lines data lines"

# wall-clock seconds, CPU seconds (user + system) and peak RSS, from GNU time; on a shared machine
# the CPU seconds are the steadier figure
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$f.time" "$@" > /dev/null
  cat "$f.time"
}
runs=()
for ((i = 0; i < reps; i++)); do
  read -r w_mawk u_mawk s_mawk rss_mawk < <(measure mawk -F, 'NR > 1 { s += $2 } END { print s }' "$f")
  read -r w_pcibw u_pcibw s_pcibw rss_pcibw < <(measure "$exe" analyze - --json < "$f")
  runs+=("$w_mawk $u_mawk $s_mawk $rss_mawk $w_pcibw $u_pcibw $s_pcibw $rss_pcibw")
done
printf '%s\n' "${runs[@]}" | awk -v b="$bytes" -v n="$reps" '
function median(a, k,   i, j, t) {   # of a[1..k], sorted in place
  for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{
  wm[NR] = $1; cm[NR] = $2 + $3; rm[NR] = $4; wp[NR] = $5; cp[NR] = $6 + $7; rp[NR] = $8
  ratio[NR] = ($2 + $3) / ($6 + $7)
  printf "run %d: mawk %.2f s CPU, pcibw %.2f s CPU, mawk / pcibw %.2f\n", NR, $2 + $3, $6 + $7, ratio[NR]
}
END {
  WM = median(wm, n); CM = median(cm, n); RM = median(rm, n)
  WP = median(wp, n); CP = median(cp, n); RP = median(rp, n); R = median(ratio, n)
  printf "medians of %d runs each:\n", n
  printf "%-24s %10s %10s %12s\n", "", "MB/s wall", "MB/s CPU", "peak RSS kB"
  printf "%-24s %10.1f %10.1f %12d\n", "mawk, sum of one column", b / 1e6 / WM, b / 1e6 / CM, RM
  printf "%-24s %10.1f %10.1f %12d\n", "pcibw analyze -", b / 1e6 / WP, b / 1e6 / CP, RP
  printf "mawk / pcibw (CPU s)     %10.2f   (above 1: pcibw is faster; median of the per-run ratios: %.2f)\n", CM / CP, R
}'
