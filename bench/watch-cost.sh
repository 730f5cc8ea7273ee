#!/usr/bin/env bash
# The CPU cost of `pcibw watch` (doc/performance.md): user+system time (getrusage of the child,
# via GNU time) per sample over a long replay (no sleeping: the parse/interval/verdict/output
# path at "interval 0"), and over a live run at 1 s on this machine's interfaces (the sampler's
# preads and ioctl included), as a share of one core. Goal: under 0.1 % of a core at 1 s.
# Usage: watch-cost.sh PCIBW [LIVE_SECONDS]   (PCIBW_TEST_DATA: tests/watch/data)
set -euo pipefail
PCIBW=$1 LIVE=${2:-10}
DATA=${PCIBW_TEST_DATA:-$(dirname "$0")/../tests/watch/data}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# a 3000-sample recording: real-vm-lo-udp's samples repeated with times and counters moving on
python3 - "$DATA/real-vm-lo-udp" "$TMP/long" <<'PY'
import os, re, sys
src, dst = sys.argv[1], sys.argv[2]
os.mkdir(dst)
open(os.path.join(dst, "meta"), "w").write(open(os.path.join(src, "meta")).read())
data = open(os.path.join(src, "samples"), "rb").read().decode()
recs = re.split(r"(?m)^(?=sample )", data)[1:]
out = open(os.path.join(dst, "samples"), "w")
t = 0.0
for k in range(3000):
    r = recs[k % len(recs)]
    t += 1.0
    out.write(re.sub(r"^sample \S+", "sample %.9f" % t, r, count=1))
PY
N=3000
/usr/bin/time -f "%U %S" -o "$TMP/t1" "$PCIBW" watch --replay "$TMP/long" --json >/dev/null 2>"$TMP/e1" || true
read -r u s <"$TMP/t1"
per=$(python3 -c "print(($u + $s) / $N)")
/usr/bin/time -f "%U %S %e" -o "$TMP/t2" "$PCIBW" watch --interval 1 --count "$LIVE" --json >/dev/null 2>&1 ||
	/usr/bin/time -f "%U %S %e" -o "$TMP/t2" "$PCIBW" watch lo --interval 1 --count "$LIVE" --json >/dev/null
read -r lu ls le <"$TMP/t2"
python3 - "$per" "$lu" "$ls" "$le" "$LIVE" <<'PY'
import sys
per, lu, ls, le, n = map(float, sys.argv[1:])
print("replay: %.1f us CPU per sample (%.4f %% of a core at a 1 s interval)" % (per * 1e6, per * 100))
print("live:   %.3f s CPU over %.1f s wall, %d samples: %.4f %% of a core (startup included)" %
      (lu + ls, le, n, 100 * (lu + ls) / le))
PY
