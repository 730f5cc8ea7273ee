#!/usr/bin/env bash
# Ingest speed of `pcibw analyze` on netperf omni -o output (a banner, a header naming the
# output selectors, then CSV rows: what `netperf -t omni -- -o ...` prints, rows repeated) of
# SIZE_MB, against mawk summing its throughput column, on the same file in the same run. The two
# run in turn REPS times; medians of CPU seconds (user + system, GNU time) are printed.
# Usage: bench/netperf-omni-bench.sh [BUILD_DIR] [SIZE_MB] [REPS]   (defaults: build, 64, 3)
# Measure a release build, under nice on a shared machine:
#   meson setup /tmp/rel -Dbuildtype=release -Dtests=false && ninja -C /tmp/rel
#   nice -n 19 bench/netperf-omni-bench.sh /tmp/rel 64
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mb=${2:-64}
reps=${3:-3}
. bench/lib.sh
bench_exe "$build"
f=$(mktemp "${TMPDIR:-/tmp}/pcibw-omni-XXXXXX.csv")
trap 'rm -f "$f" "$f.time"' EXIT
# the columns of tests/data/analyze/synthetic-netperf-omni.csv (netperf's own output names);
# UDP sends of six sizes, whole lines only
{
  echo "MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 192.0.2.2 () port 0 AF_INET"
  echo "Throughput,Throughput Units,Protocol,Direction,Local Send Size,Elapsed Time (sec),Local Send Calls,Local CPU Util %,Local Service Demand,Remote CPU Util %,Remote Service Demand"
  block=$(awk 'BEGIN { split("18 82 210 466 978 1472", s, " ")
    for (i = 1; i <= 6; i++) printf "%.2f,10^6bits/s,UDP,Send,%d,10.00,1000000,50.00,13.914,-1,-1\n", s[i] * 0.8, s[i] }')
  n=$(((mb * 1000 * 1000) / (${#block} + 1) * 6))
  { yes "$block" || true; } | head -n "$n"
} > "$f"
bytes=$(stat -c %s "$f")
echo "input: $f, $bytes bytes, $(($(wc -l < "$f") - 2)) data lines"
measure() {
  /usr/bin/time -f '%U %S' -o "$f.time" "$@" > /dev/null
  awk '{print $1 + $2}' "$f.time"
}
runs=()
for ((i = 0; i < reps; i++)); do
  m=$(measure mawk -F, 'NR > 2 { s += $1 } END { print s }' "$f")
  p=$(measure "$exe" analyze "$f" --bus gen3x8,mps=256 --json)
  runs+=("$m $p")
  echo "run $((i + 1)): mawk $m s CPU, pcibw $p s CPU"
done
printf '%s\n' "${runs[@]}" | awk -v b="$bytes" -v n="$reps" '
function median(a, k,   i, j, t) {
  for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
  return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
{ m[NR] = $1; p[NR] = $2 }
END {
  M = median(m, n); P = median(p, n)
  printf "medians of %d runs: mawk %.1f MB/s of CPU, pcibw %.1f MB/s of CPU\n", n, b / 1e6 / M, b / 1e6 / P
  printf "pcibw CPU seconds / mawk CPU seconds: %.2f (below 1: pcibw is faster)\n", P / M
}'
