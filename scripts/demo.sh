#!/usr/bin/env bash
# Build pcibw and run its main job on bundled real input. Works on a fresh Debian 12 machine
# (installs what is missing). Usage: scripts/demo.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh build
# -Dtests=false: the demo needs no test framework (scripts/test.sh builds the suite in build-test)
[ -f build/build.ninja ] || meson setup build -Dtests=false >/dev/null
ninja -C build >/dev/null
export PCIBW_DATA_DIR="$PWD/data"
run() { printf '\n$ %s\n' "$*"; "$@"; }
# The report: each NIC's bus, speed, width and bottleneck hop, from real config-space dumps.
run ./build/pcibw report --dump data/examples/pcix-ibm-eadsx-82545em-multidomain.lspci
run ./build/pcibw report --dump data/examples/pcie-connectx3pro-haswell-rootport.lspci
# The main job: is the motivating host (FreeBSD 2004, UDP echo, 1024 B, 550 Mbit/s, CPU 82 %)
# bus-bound or CPU-bound? The same measurement set against each of its two NICs' buses.
run ./build/pcibw analyze data/examples/freebsd-2004-udp-echo-e1000.csv --bus pcix133/64,mmrbc=512 \
  --nic e1000 --line-rate 1G --cpus 1 --cpu-ghz 2.8
run ./build/pcibw analyze data/examples/freebsd-2004-udp-echo-e1000.csv --bus pci33/32 \
  --nic e1000 --line-rate 1G --cpus 1 --cpu-ghz 2.8
