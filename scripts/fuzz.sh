#!/usr/bin/env bash
# Build the libFuzzer harnesses (clang, ASan+UBSan, -Dfuzz=true in build-fuzz/) and run each one:
# first the in-tree corpus (fuzz/corpus/NAME) is replayed, then new inputs are tried for SECONDS.
# Usage: scripts/fuzz.sh [SECONDS] [NAME...]   (default 10 s each, every harness)
# New corpus entries go to build-fuzz/corpus/NAME (the tree's corpus stays small); a crash leaves
# its input in build-fuzz/artifacts/ and makes the script exit 1. One harness runs at a time.
# Prints, per harness, the executions done (libFuzzer's stat::number_of_executed_units).
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
shift || true
dir=${PCIBW_FUZZ_BUILD:-build-fuzz}
./scripts/deps.sh fuzz
command -v clang >/dev/null || { echo "fuzz: clang not installed (scripts/deps.sh fuzz installs it)" >&2; exit 1; }
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang meson setup "$dir" -Dfuzz=true -Dtests=false -Dplot=disabled -Db_sanitize=address,undefined \
    -Db_lundef=false >/dev/null || exit 1
fi
ninja -C "$dir" >"$dir/ninja.log" 2>&1 || { tail -30 "$dir/ninja.log" >&2; exit 1; }
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=()
  for c in fuzz/corpus/*/; do names+=("$(basename "$c")"); done
fi
mkdir -p "$dir/artifacts"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# profiles named by knobs and the data directory: the tree's own
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$PWD/data}
failed=0
for n in "${names[@]}"; do
  exe="$dir/fuzz/fuzz_$n"
  [ -x "$exe" ] || { echo "fuzz: no harness $exe" >&2; failed=1; continue; }
  work="$dir/corpus/$n"
  mkdir -p "$work"
  log="$dir/fuzz-$n.log"
  "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/$n-" "$work" "fuzz/corpus/$n" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $rc -ne 0 ]; then
    failed=1
    echo "fuzz_$n: FAILED (exit $rc) after ${execs:-?} executions; see $log and $dir/artifacts/"
    grep -m3 -E 'ERROR: |runtime error|SUMMARY' "$log" | sed 's/^/  /'
  else
    echo "fuzz_$n: ${execs:-?} executions in ${secs} s, no crash"
  fi
done
exit $failed
