#!/usr/bin/env bash
# The CPU cost of `pcibw watch` (doc/performance.md), from the kernel's own count of the time the
# process ran: /proc/PID/schedstat's first field (sum_exec_runtime, in ns; the scheduler adds
# every slice, where getrusage's figure on a tickless kernel rests on the 10 ms ticks that
# happened to land in the process: one or two over a 10 s run). Read once the process has
# exited but before it is reaped (waitid WNOWAIT), so the last slice is counted. pcibw watch runs
# one thread; child processes are not counted (watch starts none).
# Two runs: a long replay (no sleeping: the parse/interval/verdict/output path at "interval 0"),
# per sample; and a live run at 1 s on this machine's interfaces (the sampler's preads and ioctl
# included), as a share of one core, whole and after its first sample (startup left out).
# Goal: under 0.1 % of a core at 1 s.
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
python3 - "$PCIBW" "$TMP/long" "$N" "$LIVE" <<'PY'
import os, subprocess, sys, time
exe, rec, n, live = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def ran_ns(pid):
    with open("/proc/%d/schedstat" % pid) as f:
        return int(f.read().split()[0])

def run(args, mark_after=None):
    """CPU ns of the whole run, and (with mark_after s) of the part after that mark, with its wall s"""
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.monotonic()
    mark = None
    if mark_after is not None:
        time.sleep(mark_after)
        mark = (ran_ns(p.pid), time.monotonic())
    os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)  # exited, not yet reaped
    total, t1 = ran_ns(p.pid), time.monotonic()
    rc = p.wait()
    return rc, total, t1 - t0, mark and (total - mark[0], t1 - mark[1])

rc, ns, wall, _ = run([exe, "watch", "--replay", rec, "--json"])
print("replay: %.1f us CPU per sample over %d samples (%.4f %% of a core at a 1 s interval; exit %d)" %
      (ns / n / 1e3, n, ns / n / 1e9 * 100, rc))
rc, ns, wall, after = run([exe, "watch", "--interval", "1", "--count", str(live), "--json"], 1.5)
if rc:
    rc, ns, wall, after = run([exe, "watch", "lo", "--interval", "1", "--count", str(live), "--json"], 1.5)
print("live:   %.3f ms CPU over %.2f s wall, %d samples: %.4f %% of a core (startup included)" %
      (ns / 1e6, wall, live, 100 * ns / 1e9 / wall))
if after and after[1] > 0:
    print("live after the first sample: %.3f ms CPU over %.2f s: %.4f %% of a core" %
          (after[0] / 1e6, after[1], 100 * after[0] / 1e9 / after[1]))
PY
