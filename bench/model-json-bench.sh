#!/usr/bin/env bash
# `pcibw model --json` against the same sweep as CSV from the same binary, in one run: CPU
# seconds (user + system, GNU time) of REPS runs of a 64-9000/1 sweep each way, their ratio, and
# the peak RSS of the largest sweep (1-65536/1) as JSON and as CSV. JSON rows are written as they
# are produced, so its peak stays near the CSV's however long the sweep.
# Usage: bench/model-json-bench.sh [PCIBW_EXE] [REPS]     (defaults: build/pcibw, 20)
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/pcibw}
reps=${2:-20}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (scripts/deps.sh)" >&2; exit 2; }
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
t=$(mktemp "${TMPDIR:-/tmp}/pcibw-model-bench-XXXXXX")
trap 'rm -f "$t"' EXIT
# CPU seconds of REPS runs (the loop's own shell is a few ms of it, the same each way)
cpu() {
  /usr/bin/time -f '%U %S' -o "$t" bash -c 'for ((i = 0; i < $1; i++)); do "${@:2}" > /dev/null; done' _ "$reps" "$@"
  awk '{ printf "%.3f\n", $1 + $2 }' "$t"
}
rss() {
  /usr/bin/time -f '%M' -o "$t" "$@" > /dev/null
  cat "$t"
}
sweep=(model --bus gen3x8,mps=256 --line-rate 40G --sizes 64-9000/1)
c_csv=$(cpu "$exe" "${sweep[@]}" --format csv)
c_json=$(cpu "$exe" "${sweep[@]}" --json)
big=(model --bus gen3x8,mps=256 --sizes 1-65536/1)
m_csv=$(rss "$exe" "${big[@]}" --format csv)
m_json=$(rss "$exe" "${big[@]}" --json)
printf '%-40s %10s\n' "model, $reps runs of 64-9000/1" "CPU s"
printf '%-40s %10s\n' "--format csv" "$c_csv" "--json" "$c_json"
awk -v j="$c_json" -v c="$c_csv" 'BEGIN { printf "%-40s %10.2f\n", "json / csv (CPU)", (c > 0 ? j / c : 0) }'
printf '%-40s %10s\n' "1-65536/1 peak RSS kB, --format csv" "$m_csv" "1-65536/1 peak RSS kB, --json" "$m_json"
