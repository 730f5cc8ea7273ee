#!/usr/bin/env bash
# End to end: real traffic through a veth pair between two network namespaces this test creates
# (addresses of its own, 10.213.0.1 and .2/30, nothing leaves the machine). A bounded UDP sender
# (udp-send.py) sends COUNT datagrams of PAYLOAD bytes from one namespace; `pcibw watch` runs in
# the other on the receiving end, and the packets it counts must be the ones sent, within the
# sampling error (the ARP exchange before the first datagram: a few packets), at
# PAYLOAD + 8 (UDP) + 20 (IPv4) + 14 (Ethernet) + 4 (FCS) bytes a frame.
# Exit 77 (meson: skipped) with the reason where namespaces or veth cannot be made here.
set -u
PCIBW=${1:-$PCIBW_EXE}
HERE=$(cd "$(dirname "$0")" && pwd)
COUNT=3000 PAYLOAD=472 RATE=3000
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to create network namespaces (ip netns add)"
command -v ip >/dev/null || skip "no ip command (iproute2; scripts/deps.sh installs it)"
command -v python3 >/dev/null || skip "no python3 for the UDP sender"
A=pcibw-wa-$$ B=pcibw-wb-$$
cleanup() { ip netns del "$A" 2>/dev/null; ip netns del "$B" 2>/dev/null; rm -f "$OUT" "$ERR"; }
OUT=$(mktemp) ERR=$(mktemp)
trap cleanup EXIT
ip netns add "$A" 2>"$ERR" || skip "ip netns add failed: $(cat "$ERR")"
ip netns add "$B" 2>"$ERR" || skip "ip netns add failed: $(cat "$ERR")"
ip link add va netns "$A" type veth peer name vb netns "$B" 2>"$ERR" || skip "no veth: $(cat "$ERR")"
for ns in "$A" "$B"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 >/dev/null 2>&1
	ip -n "$ns" link set lo up
done
ip -n "$A" addr add 10.213.0.1/30 dev va && ip -n "$A" link set va up || exit 1
ip -n "$B" addr add 10.213.0.2/30 dev vb && ip -n "$B" link set vb up || exit 1
# the receiver drops datagrams for a closed port with an ICMP error back; that goes out of vb
# (tx) and is not what is counted here (rx)
ip netns exec "$B" "$PCIBW" watch vb --interval 0.2 --count 12 --json >"$OUT" 2>"$ERR" &
W=$!
sleep 0.3
SENT=$(ip netns exec "$A" python3 "$HERE/udp-send.py" 10.213.0.2 9 $COUNT $PAYLOAD $RATE) || exit 1
wait $W
rc=$?
[ $rc -eq 0 ] || { echo "watch exit $rc: $(cat "$ERR")"; exit 1; }
python3 - "$OUT" "$SENT" "$PAYLOAD" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
sent, payload = int(sys.argv[2]), int(sys.argv[3])
assert lines[-1]["type"] == "summary", lines[-1]
ivs = [l for l in lines if l["type"] == "interval"]
rx = sum(i["interfaces"][0]["rx"]["pps"] * i["dt"] for i in ivs)
frame = payload + 8 + 20 + 14 + 4
busy = [i for i in ivs if i["interfaces"][0]["rx"]["pps"] > 1000]
sizes = [i["interfaces"][0]["rx"]["frame_bytes"] for i in busy]
assert all(i["interfaces"][0]["virtual"] for i in ivs), "veth is a virtual NIC"
print("sent %d, counted %.1f (%+.2f %%), frame bytes %s (expected %d)" %
      (sent, rx, 100 * (rx - sent) / sent, ["%.2f" % s for s in sizes], frame))
# every packet counted: the sampled deltas add up to the counter's change; the ARP request
# (and nothing else with IPv6 off) may come on top
assert sent <= rx + 1e-6 <= sent + 4 + 1e-6, (sent, rx)
assert busy and all(abs(s - frame) < 0.01 * frame for s in sizes), sizes
PY
