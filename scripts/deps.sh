#!/usr/bin/env bash
# Install what pcibw needs to build, test and run, from Debian 12 packages.
# Idempotent: installs only what is missing. Needs root (or sudo) when something is missing.
set -euo pipefail
pkgs=(
  build-essential pkg-config meson ninja-build python3   # toolchain (meson needs python3)
  libpci-dev pciutils pci.ids                            # config space and names (libpci)
  libhwloc-dev hwloc                                     # topology: NUMA nodes, OS interface names
  libjansson-dev                                         # JSON in and out
  libcsv-dev                                             # CSV in (RFC 4180)
  libinih-dev                                            # NIC profiles (INI)
  libcairo2-dev                                          # SVG plots
  libcriterion-dev                                       # unit tests
  libexpat1-dev                                          # tests parse the SVG plots as XML
  scdoc                                                  # pcibw(1) man page
  clang-format                                           # the format test (tests/format) checks every C file
  iperf3 mawk util-linux time                            # fixtures, benchmarks, setpriv/prlimit, peak RSS in tests
  sysstat                                                # mpstat/sar: recording CPU fixtures for analyze --cpu-from
  iproute2                                               # watch: veth pair in a network namespace (tests)
  ethtool                                                # tests: a live NIC's driver and firmware against ethtool -i
  strace                                                 # tests: every input opened once, read-only
  clang                                                  # fuzz/ harnesses (libFuzzer), scripts/fuzz.sh
  bash-completion                                        # tests complete pcibw as bash does
  prometheus prometheus-node-exporter                    # promtool checks the metrics and rules; node_exporter serves them
  systemd                                                # systemd-analyze verifies the units of systemd/
)
# One dpkg-query for the whole list (one per package cost a quarter of a second on every run).
# A package dpkg never heard of is simply absent from its answer.
declare -A have=()
while read -r status name; do
  [ "$status" = installed ] && have[$name]=1
done < <(dpkg-query -W -f='${db:Status-Status} ${Package}\n' "${pkgs[@]}" 2>/dev/null || true)
missing=()
for p in "${pkgs[@]}"; do
  [ -n "${have[$p]:-}" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "pcibw: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
