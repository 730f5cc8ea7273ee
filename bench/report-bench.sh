#!/usr/bin/env bash
# Live `pcibw report --all` against `lspci -vv` and `lstopo-no-graphics` on this machine, in one
# run: ROUNDS alternating rounds, each timing REPS back-to-back runs of every command (GNU time:
# wall seconds, and CPU seconds = user + system); the medians over the rounds per run, and the
# ratios pcibw / lspci -vv and pcibw / lstopo-no-graphics. Also the JSON and Prometheus outputs
# of the same report, which read the machine the same way. Run it as root for the whole of
# config space (lspci and pcibw then read the capabilities; without root both see 64 bytes).
# Usage: bench/report-bench.sh [PCIBW_EXE] [ROUNDS] [REPS]     (defaults: build/pcibw, 11, 10)
set -euo pipefail
# meson passes the binary relative to the build directory it runs in
exe=${1:-$(dirname "$0")/../build/pcibw}
[ -x "$exe" ] && exe=$(realpath "$exe")
cd "$(dirname "$0")/.."
rounds=${2:-11}
reps=${3:-10}
[ -x "$exe" ] || { echo "no $exe: build first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (scripts/deps.sh)" >&2; exit 2; }
if ! command -v lspci > /dev/null; then
  echo "report-bench: no lspci (pciutils) here: nothing to compare with" >&2
  exit 77
fi
if [ ! -d /sys/bus/pci/devices ] || [ -z "$(find /sys/bus/pci/devices -mindepth 1 -maxdepth 1)" ]; then
  echo "report-bench: this machine shows no PCI devices: nothing to measure" >&2
  exit 77
fi
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
d=$(mktemp -d "${TMPDIR:-/tmp}/pcibw-report-bench-XXXXXX")
trap 'rm -rf "$d"' EXIT

names=(pcibw lspci)
cmds=("$exe report --all" "lspci -vv")
if command -v lstopo-no-graphics > /dev/null; then
  names+=(lstopo)
  cmds+=("lstopo-no-graphics")
fi
names+=(json prom)
cmds+=("$exe report --all --json" "$exe report --all --format prometheus")
# Every command must work before it is timed.
for i in "${!cmds[@]}"; do
  # shellcheck disable=SC2086 # the command lines are split on purpose
  ${cmds[$i]} > /dev/null 2>&1 || { echo "report-bench: '${cmds[$i]}' failed" >&2; exit 1; }
done

# One round: REPS runs of each command, the commands in turn (so a load change hits all alike).
for ((r = 0; r < rounds; r++)); do
  for i in "${!cmds[@]}"; do
    # shellcheck disable=SC2016 # $1 and $@ belong to the inner shell
    /usr/bin/time -f '%e %U %S' -o "$d/t" bash -c \
      'for ((k = 0; k < $1; k++)); do ${@:2} > /dev/null 2>&1; done' _ "$reps" "${cmds[$i]}"
    awk -v n="${names[$i]}" -v reps="$reps" '{ printf "%s %.6f %.6f\n", n, $1 / reps, ($2 + $3) / reps }' \
      "$d/t" >> "$d/all"
  done
done

median() { # NAME COLUMN
  awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$d/all" | sort -g |
    awk '{ v[NR] = $1 } END { printf "%.6f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
printf 'live report, %d rounds of %d runs each, medians per run (%d PCI functions)\n' \
  "$rounds" "$reps" "$(find /sys/bus/pci/devices -mindepth 1 -maxdepth 1 | wc -l)"
printf '%-44s %10s %10s\n' "command" "wall ms" "CPU ms"
declare -A wall cpu
for i in "${!cmds[@]}"; do
  n=${names[$i]}
  wall[$n]=$(median "$n" 2)
  cpu[$n]=$(median "$n" 3)
  awk -v c="${cmds[$i]/$exe/pcibw}" -v w="${wall[$n]}" -v u="${cpu[$n]}" \
    'BEGIN { printf "%-44s %10.2f %10.2f\n", c, w * 1000, u * 1000 }'
done
ratio() { # LABEL A B
  awk -v l="$1" -v aw="${wall[$2]}" -v bw="${wall[$3]}" -v ac="${cpu[$2]}" -v bc="${cpu[$3]}" \
    'BEGIN { printf "%-44s %10.2f %10.2f\n", l, (bw > 0 ? aw / bw : 0), (bc > 0 ? ac / bc : 0) }'
}
printf '%-44s %10s %10s\n' "ratio" "wall" "CPU"
ratio "report --all / lspci -vv" pcibw lspci
[ -n "${wall[lstopo]:-}" ] && ratio "report --all / lstopo-no-graphics" pcibw lstopo
ratio "report --all --json / lspci -vv" json lspci
ratio "report --all --format prometheus / lspci -vv" prom lspci
