#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`pcibw report --format prometheus` and `--textfile`, checked with the real tools.

- Every dump in data/examples and tests/data passes `promtool check metrics`; each family has
  one HELP and one TYPE line and its samples together; names start pcibw_.
- Values against the lspci text each real dump carries (LnkSta/LnkCap Speed and Width,
  LnkCap2 supported speeds, DevCtl MaxPayload/MaxReadReq): the numbers lspci printed, in base
  units (GT/s x 1e9 transfers per second, bytes).
- Labels: the PCI address of each series joins node_exporter's upstream node_pcidevice_* series
  (a fixture in that collector's format) one to one, with equal link values.
- Label values escaped: names with backslash and quotes (a synthetic pci.ids) parse back as
  the names themselves.
- --textfile: written whole, mode 0644, no temporary file left; refused without --format
  prometheus; an unwritable directory fails with the reason and leaves the old file alone.
- watch --format prometheus --textfile on a recording: the file holds the last interval's
  figures (packets per second and verdict as `watch --json` gives them), one verdict per series.
- doc/prometheus-alerts.yml passes `promtool check rules` and its unit tests.
Skips (77) when promtool is not installed (Debian package `prometheus`).
"""
import glob
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import promlib  # noqa: E402

exe, src = sys.argv[1], sys.argv[2]
promtool = shutil.which("promtool")
if not promtool:
    print("SKIP: promtool is not installed (Debian package prometheus; scripts/deps.sh installs it)")
    sys.exit(77)
fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL:", msg)


def pcibw(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True)


LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def unescape(v):
    return re.sub(r'\\(.)', lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), v)


def parse(text, where):
    """[(name, {labels}, value)]; checks HELP/TYPE once per family and families contiguous."""
    out, helped, typed, seen, last = [], set(), set(), set(), None
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, name = line.split()[1:3]
            bag = helped if kind == "HELP" else typed
            if name in bag:
                fail(f"{where}: second {kind} for {name}")
            bag.add(name)
            continue
        if line.startswith("#") or not line:
            continue
        m = LINE.match(line)
        if not m:
            fail(f"{where}: not a sample line: {line!r}")
            continue
        name, labels = m.group(1), dict((k, unescape(v)) for k, v in LABEL.findall(m.group(3) or ""))
        if name != last:
            if name in seen:
                fail(f"{where}: samples of {name} are not together")
            seen.add(name)
            last = name
        if name not in helped or name not in typed:
            fail(f"{where}: {name} has no HELP or TYPE before its samples")
        out.append((name, labels, float(m.group(4))))
    return out


def check_metrics(text, where):
    said = promlib.check_metrics(text)
    if said:
        fail(f"{where}: promtool check metrics: {said}")


def lspci_text(path):
    """{slot: {lnksta:(gts,w), lnkcap:(gts,w), cap2:max gts, mps, mrrs}} from the -vv text."""
    devs, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.match(r'^(?:([0-9a-f]{4}):)?([0-9a-f]{2}):([0-9a-f]{2})\.([0-7]) ', line)
        if m:
            cur = devs.setdefault("%s:%s:%s.%s" % (m.group(1) or "0000", *m.group(2, 3, 4)), {})
            continue
        if cur is None or not line.startswith("\t"):
            continue
        for key in ("LnkSta", "LnkCap"):
            m = re.match(r'\s+%s:\s.*?Speed ([0-9.]+)GT/s[^,]*, Width x(\d+)' % key, line)
            if m:
                cur[key] = (float(m.group(1)), int(m.group(2)))
        m = re.match(r'\s+LnkCap2: Supported Link Speeds: ([0-9.]+)(?:-([0-9.]+))?GT/s', line)
        if m:
            cur["cap2"] = float(m.group(2) or m.group(1))
        m = re.match(r'\s+MaxPayload (\d+) bytes, MaxReadReq (\d+) bytes', line)
        if m:
            cur["mps"], cur["mrrs"] = int(m.group(1)), int(m.group(2))
    return devs


def slot_of(labels):
    return "%s:%s:%s.%s" % (labels["segment"], labels["bus"], labels["device"], labels["function"])


dumps = sorted(glob.glob(os.path.join(src, "data/examples/*.lspci")) +
               glob.glob(os.path.join(src, "tests/data/*.lspci")))
compared = fit_compared = 0
for d in dumps:
    where = os.path.relpath(d, src)
    r = pcibw("report", "--all", "--format", "prometheus", "--dump", d)
    if r.returncode != 0:
        fail(f"{where}: exit {r.returncode}: {r.stderr}")
        continue
    check_metrics(r.stdout, where)
    samples = parse(r.stdout, where)
    for name, labels, _ in samples:
        if not name.startswith("pcibw_"):
            fail(f"{where}: {name} lacks the pcibw_ prefix")
    text = lspci_text(d)
    want = {"pcibw_current_link_transfers_per_second": lambda t: t["LnkSta"][0] * 1e9 if "LnkSta" in t else None,
            "pcibw_current_link_width": lambda t: t["LnkSta"][1] if "LnkSta" in t else None,
            "pcibw_max_link_width": lambda t: t["LnkCap"][1] if "LnkCap" in t else None,
            "pcibw_max_link_transfers_per_second":
                lambda t: (t.get("cap2") or t["LnkCap"][0]) * 1e9 if "LnkCap" in t else None,
            "pcibw_max_payload_bytes": lambda t: t.get("mps"),
            "pcibw_max_read_request_bytes": lambda t: t.get("mrrs")}
    for name, labels, value in samples:
        if name in want and slot_of(labels) in text:
            w = want[name](text[slot_of(labels)])
            if w is None:
                continue
            compared += 1
            if not math.isclose(value, w, rel_tol=1e-12):
                fail(f"{where}: {name} of {slot_of(labels)} is {value}, lspci says {w}")
    # port_fit: the report's own JSON ratios, unclamped
    js = pcibw("report", "--all", "--json", "--dump", d)
    if js.returncode == 0:
        import json as _json
        for dev in _json.loads(js.stdout).get("devices", []):
            pf = dev.get("port_fit")
            for size, key in (("64", "ratio_64"), ("1518", "ratio_1518")):
                got = [v for n, l, v in samples if n == "pcibw_port_fit_ratio" and slot_of(l) == dev["slot"]
                       and l.get("frame_bytes") == size]
                want_v = pf.get(key) if pf else None
                if (want_v is None) != (not got) or (got and not math.isclose(got[0], want_v, rel_tol=1e-12)):
                    fail(f"{where}: port_fit {dev['slot']} {size} B: prometheus {got}, JSON {want_v}")
                elif got:
                    fit_compared += 1
if fit_compared < 10:
    fail(f"only {fit_compared} port_fit ratios compared with the JSON")
if compared < 50:
    fail(f"only {compared} values compared with lspci's text")
print(f"ok: {len(dumps)} dumps pass promtool check metrics; {compared} values match lspci's text; "
      f"{fit_compared} port_fit ratios match the JSON's")

# the upstream join: same four labels, same link values
cx = os.path.join(src, "data/examples/pcie-connectx3pro-haswell-rootport.lspci")
ours = parse(pcibw("report", "--all", "--format", "prometheus", "--dump", cx).stdout, "cx3")
fixture = os.path.join(src, "tests/data/prometheus/synthetic-node-pcidevice-connectx3pro.prom")
theirs = parse(open(fixture).read(), "fixture")
joined = 0
for name, labels, value in theirs:
    mine = [v for n, l, v in ours if n == name.replace("node_pcidevice_", "pcibw_") and l == labels]
    if len(mine) != 1:
        fail(f"{name}{labels}: {len(mine)} pcibw series with the same labels")
    elif mine[0] != value:
        fail(f"{name}{labels}: pcibw says {mine[0]}, the fixture {value}")
    else:
        joined += 1
print(f"ok: {joined} node_pcidevice_* series join pcibw's one to one")

# escaping
ids = os.path.join(src, "tests/data/prometheus/synthetic-pci-quotes.ids")
r = pcibw("report", "--format", "prometheus", "--dump", cx, "--pci-ids", ids)
check_metrics(r.stdout, "quotes")
names = [l.get("name") for n, l, v in parse(r.stdout, "quotes") if n == "pcibw_device_info"]
if names != ['Vendor "Q" Back\\slash Card "Pro" \\x']:
    fail(f"escaped names parse back as {names}")

# --textfile
with tempfile.TemporaryDirectory() as t:
    f = os.path.join(t, "pcibw.prom")
    before = time.time()
    r = pcibw("report", "--format", "prometheus", "--dump", cx, "--textfile", f)
    after = time.time()
    if r.returncode != 0 or r.stdout:
        fail(f"--textfile: exit {r.returncode}, stdout {r.stdout!r}, {r.stderr}")
    else:
        body = open(f).read()
        check_metrics(body, "textfile")
        if stat.S_IMODE(os.stat(f).st_mode) != 0o644:
            fail(f"--textfile mode {oct(os.stat(f).st_mode)}")
        if os.listdir(t) != ["pcibw.prom"]:
            fail(f"--textfile left {os.listdir(t)}")
        ts = [v for n, l, v in parse(body, "textfile") if n == "pcibw_last_success_timestamp_seconds"]
        if len(ts) != 1 or not before - 1 <= ts[0] <= after + 1:
            fail(f"last success timestamp {ts} not in [{before}, {after}]")
    r = pcibw("report", "--json", "--dump", cx, "--textfile", f)
    if r.returncode != 2 or "--format prometheus" not in r.stderr:
        fail(f"--textfile with --json: exit {r.returncode}: {r.stderr}")
    r = pcibw("report", "--format", "prometheus", "--dump", cx, "--textfile", os.path.join(t, "no/such/x.prom"))
    # the output cannot be written: exit 1 and "cannot write output", as for a full disk
    if r.returncode != 1 or "cannot write output: " not in r.stderr or "no/such/x.prom" not in r.stderr:
        fail(f"--textfile into a missing directory: exit {r.returncode}: {r.stderr}")
    r = pcibw("report", "--format", "prometheus", "--dump", os.path.join(t, "missing.lspci"), "--textfile", f)
    if r.returncode == 0 or open(f).read() != body:
        fail("a failed report touched the textfile")
    r = pcibw("model", "--bus", "gen3x8", "--format", "prometheus")
    if r.returncode != 2:
        fail(f"model --format prometheus: exit {r.returncode}")

# watch: each interval replaces the textfile; the last one stays, with the figures of the
# last interval of `watch --json` on the same recording
import json
rec = os.path.join(src, "tests/watch/data/synthetic-mlx5-ethtool")
with tempfile.TemporaryDirectory() as t:
    f = os.path.join(t, "watch.prom")
    r = pcibw("watch", "--replay", rec, "--format", "prometheus", "--textfile", f)
    js = [json.loads(l) for l in pcibw("watch", "--replay", rec, "--json").stdout.splitlines() if l.strip()]
    last = [j for j in js if j.get("type") == "interval"][-1]
    if r.returncode != 0 or r.stdout or os.listdir(t) != ["watch.prom"]:
        fail(f"watch --textfile: exit {r.returncode}, stdout {r.stdout!r}, files {os.listdir(t)}: {r.stderr}")
    else:
        body = open(f).read()
        check_metrics(body, "watch textfile")
        got = parse(body, "watch textfile")
        pps = {(l["device"], l["direction"]): v for n, l, v in got if n == "pcibw_watch_packets_per_second"}
        want = {(i["name"], d): i[d]["pps"] for i in last["interfaces"] for d in ("rx", "tx")
                if i.get(d) and i[d].get("pps")}
        if not want or set(pps) != set(want) or any(not math.isclose(pps[k], want[k], rel_tol=1e-4) for k in want):
            fail(f"watch packets per second {pps}, the JSON's last interval {want}")
        host = [l["verdict"] for n, l, v in got if n == "pcibw_watch_host_verdict" and v == 1]
        if host != [last["verdict"]]:
            fail(f"watch host verdict {host}, the JSON's {last['verdict']}")
        for key in want:
            ones = [v for n, l, v in got if n == "pcibw_watch_verdict" and (l["device"], l["direction"]) == key]
            if sorted(ones) != [0, 0, 0, 0, 1]:
                fail(f"watch verdict of {key}: {ones}")
    r = pcibw("watch", "--replay", rec, "--json", "--textfile", f)
    if r.returncode != 2:
        fail(f"watch --textfile with --json: exit {r.returncode}")

# watch: interfaces behind one bottleneck hop, summed, as `watch --json`'s `shared` gives them
rec = os.path.join(src, "tests/watch/data/synthetic-shared-uplink")
with tempfile.TemporaryDirectory() as t:
    f = os.path.join(t, "watch.prom")
    r = pcibw("watch", "--replay", rec, "--format", "prometheus", "--textfile", f)
    js = [json.loads(l) for l in pcibw("watch", "--replay", rec, "--json").stdout.splitlines() if l.strip()]
    last = [j for j in js if j.get("type") == "interval"][-1]
    if r.returncode != 0:
        fail(f"watch shared --textfile: exit {r.returncode}: {r.stderr}")
    else:
        body = open(f).read()
        check_metrics(body, "watch shared textfile")
        got = parse(body, "watch shared textfile")
        util = [(l["hop"], l["interfaces"], v) for n, l, v in got if n == "pcibw_watch_shared_hop_utilization_ratio"]
        g = last["shared"][0]
        if len(util) != 1 or util[0][0] != g["hop"] or util[0][1] != ", ".join(g["interfaces"]) or \
                not math.isclose(util[0][2], g["utilisation"], rel_tol=1e-9):
            fail(f"watch shared hop utilisation {util}, the JSON's {g['hop']} {g['utilisation']}")
        ones = [l["verdict"] for n, l, v in got if n == "pcibw_watch_shared_hop_verdict" and v == 1]
        if ones != [g["verdict"]]:
            fail(f"watch shared hop verdict {ones}, the JSON's {g['verdict']}")

# the alert rules
rules = os.path.join(src, "doc/prometheus-alerts.yml")
for args in (["check", "rules", rules], ["test", "rules", os.path.join(src, "tests/prometheus/alerts-test.yml")]):
    r = subprocess.run([promtool, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"promtool {' '.join(args[:2])}: {r.stdout}{r.stderr}")
print("ok: alert rules checked and unit-tested" if not fails else f"{len(fails)} failures")
sys.exit(1 if fails else 0)
