#!/usr/bin/env bash
# Ingest throughput of `pcibw analyze` on a generated 1 GB CSV, against mawk summing one column of
# the same file, and pcibw's peak RSS (GNU time). The file goes to ${TMPDIR:-/tmp} and is deleted.
# Usage: bench/ingest-bench.sh [BUILD_DIR] [SIZE_MB]     (defaults: build, 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mb=${2:-1000}
exe="$build/pcibw"
[ -x "$exe" ] || { echo "no $exe: build first (meson setup $build && ninja -C $build)" >&2; exit 2; }
command -v mawk >/dev/null && [ -x /usr/bin/time ] || { echo "needs mawk and GNU time (scripts/deps.sh)" >&2; exit 2; }
export PCIBW_DATA_DIR="$PWD/data"
f=$(mktemp "${TMPDIR:-/tmp}/pcibw-bench-XXXXXX.csv")
trap 'rm -f "$f" "$f.time"' EXIT

# 6 frame sizes at a flat 1000 kpps with a CPU column: what a long capture of a sweep looks like
{
  echo "frame_bytes,kpps,cpu_pct"
  block=$(for s in 64 128 256 512 1024 1518; do printf '%s,1000,50\n' "$s"; done)
  yes "$block" | head -c $((mb * 1000 * 1000))
} > "$f" 2>/dev/null || true
bytes=$(stat -c %s "$f")
lines=$(($(wc -l < "$f") - 1))
echo "input: $f, $bytes bytes, $lines data lines"

secs() { # seconds of wall clock from GNU time's -f %e
  /usr/bin/time -f '%e %M' -o "$f.time" "$@" > /dev/null
  cat "$f.time"
}
read -r t_mawk rss_mawk < <(secs mawk -F, 'NR > 1 { s += $2 } END { print s }' "$f")
read -r t_pcibw rss_pcibw < <(secs "$exe" analyze - --json < "$f")
awk -v b="$bytes" -v tm="$t_mawk" -v tp="$t_pcibw" -v rm="$rss_mawk" -v rp="$rss_pcibw" 'BEGIN {
  printf "mawk sum of one column : %7.1f MB/s (%.2f s, peak RSS %d kB)\n", b / 1e6 / tm, tm, rm
  printf "pcibw analyze -        : %7.1f MB/s (%.2f s, peak RSS %d kB)\n", b / 1e6 / tp, tp, rp
  printf "pcibw / mawk           : %7.2f\n", tm / tp
}'
