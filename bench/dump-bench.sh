#!/usr/bin/env bash
# `pcibw report --dump FILE` on a large dump against `lspci -F FILE -vv` on the same file, in one
# run. The file: a synthetic `lspci -xxxx` dump of COUNT devices (bench/synthetic-dump-gen.py:
# root ports, switches, two physical and 62 virtual Ethernet functions per bus). ROUNDS
# alternating rounds, each one run of every command (GNU time: wall, CPU = user + system, peak
# RSS); the medians over the rounds, and the ratios of CPU time and peak RSS to lspci's. Then
# the many-small-dumps case: ROUNDS rounds of one pass of each tool over every dump in tests/data
# (`report --dump F --all` against `lspci -F F -vv`), CPU seconds per pass and their ratio.
# Usage: bench/dump-bench.sh [PCIBW_EXE] [COUNT] [ROUNDS]     (defaults: build/pcibw, 8192, 5)
set -euo pipefail
# meson passes the binary relative to the build directory it runs in
exe=${1:-$(dirname "$0")/../build/pcibw}
[ -x "$exe" ] && exe=$(realpath "$exe")
cd "$(dirname "$0")/.."
count=${2:-8192}
rounds=${3:-5}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (scripts/deps.sh)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "dump-bench: needs python3 for the generator" >&2; exit 77; }
if ! command -v lspci > /dev/null; then
  echo "dump-bench: no lspci (pciutils) here: nothing to compare with" >&2
  exit 77
fi
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
d=$(mktemp -d "${TMPDIR:-/tmp}/pcibw-dump-bench-XXXXXX")
trap 'rm -rf "$d"' EXIT
f=$d/synthetic-large.lspci
python3 bench/synthetic-dump-gen.py "$count" > "$f"

names=(lspci text json csv prom all)
cmds=("lspci -F $f -vv" "$exe report --dump $f" "$exe report --dump $f --json"
  "$exe report --dump $f --format csv" "$exe report --dump $f --format prometheus"
  "$exe report --dump $f --all")
# Every command must work before it is timed.
for i in "${!cmds[@]}"; do
  # shellcheck disable=SC2086 # the command lines are split on purpose
  ${cmds[$i]} > /dev/null 2>&1 || { echo "dump-bench: '${cmds[$i]}' failed" >&2; exit 1; }
done
for ((r = 0; r < rounds; r++)); do
  for i in "${!cmds[@]}"; do
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %U %S %M' -o "$d/t" ${cmds[$i]} > /dev/null 2>&1
    awk -v n="${names[$i]}" '{ printf "%s %.3f %.3f %d\n", n, $1, $2 + $3, $4 }' "$d/t" >> "$d/all"
  done
done

median() { # NAME COLUMN
  awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$d/all" | sort -g |
    awk '{ v[NR] = $1 } END { printf "%.3f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
printf 'dump of %d devices (%d bytes), %d rounds, medians per run\n' "$count" "$(wc -c < "$f")" "$rounds"
printf '%-52s %8s %8s %9s %9s %9s\n' "command" "wall s" "CPU s" "RSS MB" "CPU/lspci" "RSS/lspci"
lc=$(median lspci 3)
lm=$(median lspci 4)
for i in "${!cmds[@]}"; do
  n=${names[$i]}
  awk -v c="${cmds[$i]//$exe/pcibw}" -v w="$(median "$n" 2)" -v u="$(median "$n" 3)" -v m="$(median "$n" 4)" \
    -v lc="$lc" -v lm="$lm" -v f="$f" 'BEGIN { gsub(f, "FILE", c);
      printf "%-52s %8.2f %8.2f %9.1f %9.2f %9.2f\n", c, w, u, m / 1024, (lc > 0 ? u / lc : 0), m / lm }'
done

small=(tests/data/*.lspci)
for ((r = 0; r < rounds; r++)); do
  for t in lspci pcibw; do
    # shellcheck disable=SC2016 # $1 and $@ belong to the inner shell
    /usr/bin/time -f '%U %S' -o "$d/t" bash -c 'e=$1; shift; for f in "$@"; do
      if [ "$e" = lspci ]; then lspci -F "$f" -vv; else "$e" report --dump "$f" --all; fi > /dev/null 2>&1
      done' _ "$([ $t = lspci ] && echo lspci || echo "$exe")" "${small[@]}"
    awk -v n="small-$t" '{ printf "%s 0 %.3f 0\n", n, $1 + $2 }' "$d/t" >> "$d/all"
  done
done
sl=$(median small-lspci 3)
sp=$(median small-pcibw 3)
printf '%d dumps of tests/data, one pass each: lspci -F F -vv %.2f s CPU, pcibw report --dump F --all %.2f s CPU, ratio %.2f\n' \
  "${#small[@]}" "$sl" "$sp" "$(awk -v a="$sp" -v b="$sl" 'BEGIN { print (b > 0 ? a / b : 0) }')"
