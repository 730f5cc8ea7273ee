# SPDX-License-Identifier: GPL-2.0-or-later
"""What the Prometheus tests share: promtool's verdict on an exposition, and a textfile
directory served by Debian's prometheus-node-exporter (its textfile and netclass collectors
only, on a free 127.0.0.1 port)."""
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request

PROMTOOL = shutil.which("promtool")
NODE_EXPORTER = shutil.which("prometheus-node-exporter")
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$')


def check_metrics(text):
    """promtool check metrics: None when it passes silently, else what promtool said"""
    r = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True, text=True)
    if r.returncode != 0 or r.stdout.strip() or r.stderr.strip():
        return f"exit {r.returncode}: {r.stdout}{r.stderr}"
    return None


def samples(text):
    """{'name{labels}': value} of an exposition"""
    out = {}
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if m and not line.startswith("#"):
            out[m.group(1)] = float(m.group(2))
    return out


def labels(key):
    return dict(re.findall(r'([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"', key))


def canon(key):
    """(name, sorted labels) of a 'name{labels}' key, as the exporter re-serialises them"""
    return key.split("{")[0], tuple(sorted(labels(key).items()))


def serve(textfile_dir):
    """(port, /metrics body or None, the exporter's log) for node_exporter reading textfile_dir"""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    logf = os.path.join(textfile_dir, "ne.log.txt")
    body = None
    with open(logf, "w") as log:
        p = subprocess.Popen([NODE_EXPORTER, f"--web.listen-address=127.0.0.1:{port}",
                              "--collector.disable-defaults", "--collector.textfile",
                              f"--collector.textfile.directory={textfile_dir}", "--collector.netclass"],
                             stdout=log, stderr=subprocess.STDOUT)
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
    text = open(logf).read()
    os.unlink(logf)
    return port, body, text


def served_errors(written, body, log):
    """what went wrong serving `written` ({canon: value}): samples missing or changed, a
    textfile error, or an error gathering (a series two files both carry is dropped)"""
    served = {canon(k): v for k, v in samples(body).items()}
    errs = [f"{k} written {v}, served {served.get(k)}" for k, v in written.items() if served.get(k) != v]
    scrape = [v for (n, _), v in served.items() if n == "node_textfile_scrape_error"]
    if scrape != [0.0]:
        errs.append(f"node_textfile_scrape_error {scrape}")
    for line in log.splitlines():
        if "level=error" in line:
            errs.append(f"node_exporter: {line}")
    return errs, served
