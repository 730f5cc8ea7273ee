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
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import promlib  # noqa: E402

exe, src = sys.argv[1], sys.argv[2]
if not promlib.NODE_EXPORTER:
    print("SKIP: prometheus-node-exporter is not installed (scripts/deps.sh installs it)")
    sys.exit(77)


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
    written = {promlib.canon(k): v for k, v in promlib.samples(open(f).read()).items()}
    port, body, log = promlib.serve(d)
    if body is None:
        print("FAIL: node_exporter did not serve /metrics:", log[-2000:])
        sys.exit(1)
    errs, served = promlib.served_errors(written, body, log)
    for e in errs:
        print("FAIL:", e)
    fails = len(errs)
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
