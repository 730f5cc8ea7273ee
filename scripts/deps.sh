#!/usr/bin/env bash
# Install what pcibw needs from Debian 12 packages, by purpose:
#   scripts/deps.sh [build] [test] [fuzz] [all]    (default: all)
#   build  building and running pcibw (scripts/demo.sh, scripts/deb.sh)
#   test   build, plus what the test suite runs or checks against (scripts/test.sh)
#   fuzz   build, plus clang for the libFuzzer harnesses (scripts/fuzz.sh)
# Idempotent: installs only what is missing. Needs root (or sudo) when something is missing.
# `scripts/deps.sh --list PURPOSE...` prints the packages instead (bench/deps-size.sh sizes them).
set -euo pipefail
build=(
  build-essential pkg-config meson ninja-build python3   # toolchain (meson needs python3)
  libpci-dev pciutils pci.ids                            # config space and names (libpci)
  libhwloc-dev hwloc                                     # topology: NUMA nodes, OS interface names
  libjansson-dev                                         # JSON in and out
  libcsv-dev                                             # CSV in (RFC 4180)
  libinih-dev                                            # NIC profiles (INI)
  libcairo2-dev                                          # SVG plots
  scdoc                                                  # pcibw(1) man page
)
test=(
  libcriterion-dev                                       # unit tests
  libexpat1-dev                                          # tests parse the SVG plots as XML
  clang-format                                           # the format test (tests/format) checks every C file
  iperf3 mawk util-linux time                            # fixtures, benchmarks, setpriv/prlimit, peak RSS in tests
  sysstat                                                # mpstat/sar: recording CPU fixtures for analyze --cpu-from
  iproute2                                               # watch: veth pair in a network namespace (tests)
  ethtool                                                # tests: a live NIC's driver and firmware against ethtool -i
  strace                                                 # tests: every input opened once, read-only
  bash-completion                                        # tests complete pcibw as bash does
  prometheus prometheus-node-exporter                    # promtool checks the metrics and rules; node_exporter serves them
  systemd                                                # systemd-analyze verifies the units of systemd/
)
fuzz=(
  clang                                                  # fuzz/ harnesses (libFuzzer), scripts/fuzz.sh
)
list=0
if [ "${1:-}" = --list ]; then
  list=1
  shift
fi
[ $# -gt 0 ] || set -- all
pkgs=("${build[@]}")
for purpose in "$@"; do
  case $purpose in
  build) ;;
  test) pkgs+=("${test[@]}") ;;
  fuzz) pkgs+=("${fuzz[@]}") ;;
  all) pkgs+=("${test[@]}" "${fuzz[@]}") ;;
  *)
    echo "deps.sh: unknown purpose '$purpose' (expected build, test, fuzz or all)" >&2
    exit 2
    ;;
  esac
done
if [ $list -eq 1 ]; then
  printf '%s\n' "${pkgs[@]}" | sort -u
  exit 0
fi
# One dpkg-query for the whole list (one per package cost a quarter of a second on every run).
# A package dpkg never heard of is simply absent from its answer.
declare -A have=()
while read -r status name; do
  [ "$status" = installed ] && have[$name]=1
done < <(dpkg-query -W -f='${db:Status-Status} ${Package}\n' "${pkgs[@]}" 2>/dev/null || true)
missing=()
for p in "${pkgs[@]}"; do
  [ -n "${have[$p]:-}" ] || missing+=("$p")
  have[$p]=1 # a package named by two purposes is asked for once
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "pcibw: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
