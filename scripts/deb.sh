#!/usr/bin/env bash
# Build the Debian package from a clean copy of the tree (dpkg-buildpackage -b -us -uc, tests
# skipped: CI runs them), check it with lintian (no errors allowed), install it with apt and
# run the installed command on its bundled examples; checks its systemd units. Needs root (apt install) and a few
# minutes. Usage: scripts/deb.sh [OUT_DIR]   (default: /tmp/pcibw-deb)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/pcibw-deb}
./scripts/deps.sh build
need=()
for p in debhelper dpkg-dev lintian; do
  dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -q '^installed$' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
rm -rf "$out"
mkdir -p "$out/src"
git ls-files -z --cached --others --exclude-standard | tar -c --null -T - -f - | tar -x -C "$out/src"
(cd "$out/src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -b -us -uc > "$out/build.log" 2>&1) ||
  { tail -40 "$out/build.log" >&2; echo "dpkg-buildpackage failed ($out/build.log)" >&2; exit 1; }
deb=$(ls "$out"/pcibw_*.deb)
echo "built $deb ($(stat -c %s "$deb") bytes)"
lintian --fail-on error "$deb" | tee "$out/lintian.txt"
echo "lintian: no errors"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >&2
ex=/usr/share/pcibw/examples
env -u PCIBW_DATA_DIR pcibw --version
env -u PCIBW_DATA_DIR pcibw report --dump $ex/pcix-ibm-eadsx-82545em-multidomain.lspci > /dev/null
env -u PCIBW_DATA_DIR pcibw model --bus pcix133/64,mmrbc=512 --nic e1000 --sizes 64,1518 > /dev/null
env -u PCIBW_DATA_DIR pcibw analyze $ex/freebsd-2004-udp-echo-e1000.csv --bus pcix133/64,mmrbc=512 --nic e1000 \
  --line-rate 1G --cpus 1 --cpu-ghz 2.8 | tail -3
man -w pcibw > /dev/null && echo "man page: $(man -w pcibw)"
# the systemd units: shipped, valid as installed, the timer enabled and the watch not
units=(pcibw-report.service pcibw-report.timer pcibw-watch.service)
for u in "${units[@]}"; do
  dpkg -L pcibw | grep -qx "/lib/systemd/system/$u" || { echo "not in the package: /lib/systemd/system/$u" >&2; exit 1; }
done
v=$(cd /lib/systemd/system && systemd-analyze verify --man=no "${units[@]}" 2>&1) ||
  { echo "systemd-analyze verify: $v" >&2; exit 1; }
[ -z "$v" ] || { echo "systemd-analyze verify: $v" >&2; exit 1; }
[ "$(systemctl is-enabled pcibw-report.timer 2>&1)" = enabled ] ||
  { echo "pcibw-report.timer is not enabled after install: $(systemctl is-enabled pcibw-report.timer 2>&1)" >&2; exit 1; }
[ "$(systemctl is-enabled pcibw-watch.service 2>&1)" = disabled ] ||
  { echo "pcibw-watch.service: $(systemctl is-enabled pcibw-watch.service 2>&1), not disabled" >&2; exit 1; }
echo "systemd units: ${units[*]} verified; pcibw-report.timer enabled, pcibw-watch.service disabled"
echo "ok: installed from $deb and ran report, model and analyze on its examples"
