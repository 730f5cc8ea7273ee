#!/usr/bin/env bash
# Build pcibw with ASan+UBSan and run the whole test suite. Works on a fresh Debian 12 machine
# (installs what is missing). Usage: scripts/test.sh [BUILD_DIR]   (default build-test)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh test
dir=${1:-build-test}
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$dir" >/dev/null
# --no-rebuild: ninja just ran; --print-errorlogs: a failure shows its Criterion output.
meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 2
