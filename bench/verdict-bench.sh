#!/usr/bin/env bash
# The verdict's cross-row pass on N rows at one packet rate over N sizes (one flat run: the case
# a quadratic run search hits) against N rows whose rate alternates by 30 % (no run at all),
# same sizes, same columns: CPU seconds (user + system, GNU time) of `pcibw analyze --json` and
# their ratio. A linear pass keeps the ratio near 1.
# Usage: bench/verdict-bench.sh [PCIBW_EXE] [ROWS]     (defaults: build/pcibw, 40000)
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/pcibw}
n=${2:-40000}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (scripts/deps.sh)" >&2; exit 2; }
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
d=$(mktemp -d "${TMPDIR:-/tmp}/pcibw-verdict-bench-XXXXXX")
trap 'rm -rf "$d"' EXIT
awk -v n="$n" 'BEGIN { print "frame_bytes,kpps,cpu_pct"; for (i = 0; i < n; i++) print 64 + i ",1000,50" }' > "$d/flat.csv"
awk -v n="$n" 'BEGIN { print "frame_bytes,kpps,cpu_pct"; for (i = 0; i < n; i++) print 64 + i "," (i % 2 ? 1300 : 1000) ",50" }' > "$d/varied.csv"
cpu() {
  /usr/bin/time -f '%U %S %M' -o "$d/t" "$exe" analyze "$1" --json > /dev/null
  awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$d/t"
}
read -r c_flat m_flat < <(cpu "$d/flat.csv")
read -r c_var m_var < <(cpu "$d/varied.csv")
printf '%-34s %8s %12s\n' "$n rows" "CPU s" "peak RSS kB"
printf '%-34s %8s %12s\n' "one packet rate (one flat run)" "$c_flat" "$m_flat"
printf '%-34s %8s %12s\n' "alternating rate (no run)" "$c_var" "$m_var"
awk -v f="$c_flat" -v v="$c_var" 'BEGIN { printf "flat / varied (CPU)                %8.2f\n", (v > 0 ? f / v : 0) }'
