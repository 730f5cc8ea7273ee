#!/usr/bin/env bash
# `pcibw analyze --json` against the same input as text from the same binary, in one run: N rows
# of distinct frame sizes (every row its own group key, so nothing is merged: the case where the
# JSON document is longest), for each N of ROWS: wall and CPU seconds (user + system) and peak
# RSS (GNU time) of the text table and of --json, and the ratios json / text. The JSON rows and
# groups are written as they go, so the JSON's peak stays at the text's (the rows the verdict
# holds), however many rows.
# Usage: bench/analyze-json.sh [PCIBW_EXE] [ROWS...]     (defaults: build/pcibw, 100000 1000000)
# Measure a release build (meson setup B -Dbuildtype=release): 1,000,000 rows take about 4 GB
# of memory either way (the verdict's rows) and a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/pcibw}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (scripts/deps.sh)" >&2; exit 2; }
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
d=$(mktemp -d "${TMPDIR:-/tmp}/pcibw-analyze-json-XXXXXX")
trap 'rm -rf "$d"' EXIT
# wall s, CPU s, peak RSS kB and output bytes of one run
measure() {
  /usr/bin/time -f '%e %U %S %M' -o "$d/t" "$exe" analyze "$d/in.csv" --bus gen3x8,mps=256 --line-rate 10G "$@" > "$d/out"
  read -r wall u s rss < "$d/t"
  echo "$wall $(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') $rss $(stat -c %s "$d/out")"
}
printf '%-9s %-6s %8s %8s %12s %12s\n' rows output "wall s" "CPU s" "peak RSS kB" "bytes out"
for n in "${sizes[@]}"; do
  # one packet rate at 50 % CPU over n sizes from 64 B up, one size per row
  awk -v n="$n" 'BEGIN { print "frame_bytes,kpps,cpu_pct"; for (i = 0; i < n; i++) print 64 + i ",1000,50" }' > "$d/in.csv"
  read -r wt ct mt bt < <(measure)
  read -r wj cj mj bj < <(measure --json)
  printf '%-9s %-6s %8s %8s %12s %12s\n' "$n" text "$wt" "$ct" "$mt" "$bt" "$n" json "$wj" "$cj" "$mj" "$bj"
  awk -v n="$n" -v wt="$wt" -v wj="$wj" -v ct="$ct" -v cj="$cj" -v mt="$mt" -v mj="$mj" 'BEGIN {
    printf "%-9s json / text: wall %.2f, CPU %.2f, peak RSS %.2f\n", n, (wt > 0 ? wj / wt : 0), (ct > 0 ? cj / ct : 0), (mt > 0 ? mj / mt : 0) }'
done
