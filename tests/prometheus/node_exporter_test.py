#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""End to end: pcibw's textfile served by Debian's prometheus-node-exporter.

Writes `pcibw report --format prometheus --textfile DIR/pcibw.prom` (this machine when it
reports a network interface, else a bundled dump), starts prometheus-node-exporter on a free
127.0.0.1 port with only the textfile and netclass collectors, fetches /metrics over loopback
and checks: every pcibw sample of the file is served with its value; the collector read the
file without error; and, for a live report, each pcibw_interface_info{device} names an
interface node_network_info also has (the join on `device`). Skips (77) only when the
exporter is not installed (Debian package prometheus-node-exporter).
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

exe, src = sys.argv[1], sys.argv[2]
ne = shutil.which("prometheus-node-exporter")
if not ne:
    print("SKIP: prometheus-node-exporter is not installed (scripts/deps.sh installs it)")
    sys.exit(77)

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$')


def samples(text):
    out = {}
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if m and not line.startswith("#"):
            out[m.group(1)] = float(m.group(2))
    return out


def labels(key):
    return dict(re.findall(r'([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"', key))


def canon(key):
    """name{labels} with labels sorted, as the exporter re-serialises them"""
    name = key.split("{")[0]
    return name, tuple(sorted(labels(key).items()))


with tempfile.TemporaryDirectory() as d:
    os.chmod(d, 0o755)
    f = os.path.join(d, "pcibw.prom")
    live = subprocess.run([exe, "report", "--format", "prometheus", "--textfile", f],
                          capture_output=True, text=True)
    source = "this machine"
    if live.returncode != 0 or "pcibw_interface_info" not in open(f).read():
        source = "data/examples/pcie-connectx3pro-haswell-rootport.lspci"
        r = subprocess.run([exe, "report", "--format", "prometheus", "--textfile", f, "--dump",
                            os.path.join(src, source)], capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: pcibw report:", r.stderr)
            sys.exit(1)
    written = {canon(k): v for k, v in samples(open(f).read()).items()}

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    log = open(os.path.join(d, "ne.log"), "w")
    p = subprocess.Popen([ne, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                          "--collector.textfile", f"--collector.textfile.directory={d}",
                          "--collector.netclass"], stdout=log, stderr=subprocess.STDOUT)
    body = None
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
                    body = r.read().decode()
                break
            except OSError:
                if p.poll() is not None:
                    break
                time.sleep(0.1)
    finally:
        p.terminate()
        p.wait(timeout=10)
    if body is None:
        print("FAIL: node_exporter did not serve /metrics:", open(os.path.join(d, "ne.log")).read()[-2000:])
        sys.exit(1)
    served = {canon(k): v for k, v in samples(body).items()}
    fails = 0
    for k, v in written.items():
        if served.get(k) != v:
            print(f"FAIL: {k} written {v}, served {served.get(k)}")
            fails += 1
    errs = [v for (n, l), v in served.items() if n == "node_textfile_scrape_error"]
    if errs != [0.0]:
        print(f"FAIL: node_textfile_scrape_error {errs}")
        fails += 1
    netdevs = {dict(l).get("device") for (n, l), v in served.items() if n == "node_network_info"}
    ifaces = {dict(l)["device"] for (n, l), v in written.items() if n == "pcibw_interface_info"}
    if source == "this machine":
        missing = ifaces - netdevs
        if not ifaces or missing:
            print(f"FAIL: pcibw_interface_info devices {sorted(ifaces)}; node_network_info has {sorted(netdevs)}")
            fails += 1
    if fails:
        sys.exit(1)
    print(f"ok: node_exporter on 127.0.0.1:{port} serves all {len(written)} pcibw samples ({source});"
          + (f" interfaces {sorted(ifaces)} join node_network_info" if source == "this machine" else
             " no live interface here: the join is checked by the alert rule tests"))
