#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The systemd units of systemd/ as built: verified, and their command lines run.

- `systemd-analyze verify` passes silently on pcibw-report.service, pcibw-report.timer and
  pcibw-watch.service, with two paths rewritten: the installed command to the build tree's and
  node_exporter's textfile directory to a temporary one (nothing else of the units changes).
- In each service the directory --textfile writes into is the one ReadWritePaths= opens under
  ProtectSystem=strict and ConditionPathIsDirectory= waits for; the timer starts the report.
- pcibw-report.service's ExecStart, run: exit 0, a textfile that passes `promtool check metrics`.
- pcibw-watch.service's ExecStart, run with PCIBW_WATCH_ARGS="--interval 0.5" (what a drop-in
  or /etc/default/pcibw sets) on this machine's interfaces for a few seconds, then SIGTERM, as
  `systemctl stop` sends: exit 0 within TimeoutStopSec=, a textfile that passes promtool, whose
  interval is 0.5 s and whose timestamp is this run's, no temporary file left. Where this machine
  has no interface with a PCI device (exit 4), ExecStart runs on a bundled recording (--replay).
- Both textfiles in one directory, served by Debian's prometheus-node-exporter: every sample
  of both files is served with its value and the exporter logs no error (a series the two files
  shared would be dropped).
Skips (77) only when systemd-analyze is missing; the promtool and node_exporter checks are
skipped, with a message, when those are not installed.
Usage: systemd_test.py PCIBW UNIT_BUILD_DIR SOURCE_ROOT
"""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

exe, unit_dir, src = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(src, "tests", "prometheus"))
import promlib  # noqa: E402

analyze = shutil.which("systemd-analyze")
if not analyze:
    print("SKIP: systemd-analyze is not installed (Debian package systemd)")
    sys.exit(77)
UNITS = ["pcibw-report.service", "pcibw-report.timer", "pcibw-watch.service"]
fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL:", msg)


def parse_unit(text):
    """{section: [(key, value)]}; the units use no line continuations"""
    out, sec = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            sec = out.setdefault(line.strip("[]"), [])
        else:
            k, _, v = line.partition("=")
            sec.append((k, v))
    return out


def get(unit, sec, key):
    return [v for k, v in unit.get(sec, []) if k == key]


def environment(unit):
    """Environment= assignments, as systemd reads them (quoted words, NAME=VALUE each)"""
    env = {}
    for v in get(unit, "Service", "Environment"):
        for word in shlex.split(v):
            name, _, value = word.partition("=")
            env[name] = value
    return env


def argv(line, env):
    """ExecStart's words as systemd expands them: $NAME splits the value at whitespace,
    ${NAME} is one word; the units use no prefix characters and no specifiers"""
    if line[:1] in "-@:+!" or "%" in line:
        raise ValueError(f"ExecStart uses a prefix or specifier this test does not expand: {line}")
    out = []
    for w in shlex.split(line):
        m = re.fullmatch(r"\$(\w+)|\$\{(\w+)\}", w)
        if m and m.group(1):
            out += env.get(m.group(1), "").split()
        elif m:
            out.append(env.get(m.group(2), ""))
        elif "$" in w:
            raise ValueError(f"ExecStart word {w!r}: a variable inside a word")
        else:
            out.append(w)
    return out


texts = {u: open(os.path.join(unit_dir, u)).read() for u in UNITS}
units = {u: parse_unit(t) for u, t in texts.items()}
report, watch, timer = units["pcibw-report.service"], units["pcibw-watch.service"], units["pcibw-report.timer"]
installed_exe = argv(get(report, "Service", "ExecStart")[0], {})[0]
textfile_dir = get(report, "Service", "ReadWritePaths")[0]
for name in ("pcibw-report.service", "pcibw-watch.service"):
    u = units[name]
    words = argv(get(u, "Service", "ExecStart")[0], environment(u))
    tf = words[words.index("--textfile") + 1] if "--textfile" in words else None
    if words[0] != installed_exe:
        fail(f"{name}: runs {words[0]}, pcibw-report.service {installed_exe}")
    if not tf or os.path.dirname(tf) != textfile_dir:
        fail(f"{name}: --textfile {tf} is not in {textfile_dir}")
    for key, want in (("ReadWritePaths", [textfile_dir]), ("ProtectSystem", ["strict"])):
        if get(u, "Service", key) != want:
            fail(f"{name}: {key}= {get(u, 'Service', key)}, want {want}")
    if get(u, "Unit", "ConditionPathIsDirectory") != [textfile_dir]:
        fail(f"{name}: ConditionPathIsDirectory= {get(u, 'Unit', 'ConditionPathIsDirectory')}")
if get(timer, "Timer", "Unit") != ["pcibw-report.service"] or get(timer, "Install", "WantedBy") != ["timers.target"]:
    fail("pcibw-report.timer does not start pcibw-report.service from timers.target")

with tempfile.TemporaryDirectory(prefix="pcibw-units-") as t:
    tdir = os.path.join(t, "textfile")
    udir = os.path.join(t, "units")
    os.makedirs(tdir)
    os.makedirs(udir)
    os.chmod(t, 0o755)
    os.chmod(tdir, 0o755)
    local = {}
    for u, text in texts.items():
        text = text.replace(installed_exe, os.path.abspath(exe)).replace(textfile_dir, tdir)
        with open(os.path.join(udir, u), "w") as f:
            f.write(text)
        local[u] = parse_unit(text)
    r = subprocess.run([analyze, "verify", "--man=no", *[os.path.join(udir, u) for u in UNITS]],
                       capture_output=True, text=True, cwd=udir)
    if r.returncode != 0 or r.stdout.strip() or r.stderr.strip():
        fail(f"systemd-analyze verify: exit {r.returncode}: {r.stdout}{r.stderr}")
    else:
        print(f"ok: systemd-analyze verify passes silently on {', '.join(UNITS)}")

    # the report, as the timer starts it
    u = local["pcibw-report.service"]
    cmd = argv(get(u, "Service", "ExecStart")[0], environment(u))
    before = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    rep_file = os.path.join(tdir, "pcibw.prom")
    if r.returncode != 0 or not os.path.exists(rep_file):
        fail(f"pcibw-report.service ExecStart {shlex.join(cmd)}: exit {r.returncode}: {r.stderr}")
    else:
        body = open(rep_file).read()
        said = promlib.check_metrics(body) if promlib.PROMTOOL else None
        if said:
            fail(f"report textfile: promtool check metrics: {said}")
        n = len(promlib.samples(body))
        print(f"ok: pcibw-report.service ExecStart exit 0, {n} samples"
              + (", promtool check metrics passes" if promlib.PROMTOOL else " (promtool not installed: not checked)"))

    # the watch, as systemd starts and stops it
    u = local["pcibw-watch.service"]
    env = environment(u)
    env["PCIBW_WATCH_ARGS"] = "--interval 0.5"
    stop_timeout = float(get(u, "Service", "TimeoutStopSec")[0].rstrip("s"))
    watch_file = os.path.join(tdir, "pcibw-watch.prom")

    def run_watch(env):
        cmd = argv(get(u, "Service", "ExecStart")[0], env)
        start = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = start + 20
        while time.time() < deadline and p.poll() is None and not os.path.exists(watch_file):
            time.sleep(0.1)
        if p.poll() is None:
            time.sleep(2)  # a few more intervals replace the file
            sent = time.time()
            p.send_signal(signal.SIGTERM)
            try:
                out, err = p.communicate(timeout=stop_timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
                return cmd, None, err, start, f"still running {stop_timeout} s after SIGTERM"
            return cmd, p.returncode, err, start, f"stopped {time.time() - sent:.2f} s after SIGTERM"
        out, err = p.communicate()
        return cmd, p.returncode, err, start, "ended by itself"

    cmd, rc, err, start, how = run_watch(env)
    source = "this machine"
    if rc == 4:
        print(f"note: live watch found no interface with a PCI device here ({err.strip()}); "
              "running ExecStart on a bundled recording instead")
        source = "tests/watch/data/synthetic-mlx5-ethtool"
        env["PCIBW_WATCH_ARGS"] = "--replay " + os.path.join(src, source)
        cmd, rc, err, start, how = run_watch(env)
    end = time.time()
    if rc != 0 or not os.path.exists(watch_file):
        fail(f"pcibw-watch.service ExecStart {shlex.join(cmd)} ({source}): exit {rc}, {how}: {err}")
    else:
        nfails = len(fails)
        body = open(watch_file).read()
        said = promlib.check_metrics(body) if promlib.PROMTOOL else None
        if said:
            fail(f"watch textfile: promtool check metrics: {said}")
        s = promlib.samples(body)
        ts = s.get("pcibw_watch_last_success_timestamp_seconds")
        if ts is None or not start - 1 <= ts <= end + 1:
            fail(f"watch textfile timestamp {ts}, not within the run [{start:.0f}, {end:.0f}]")
        if source == "this machine" and s.get("pcibw_watch_interval_seconds") is not None and \
                abs(s["pcibw_watch_interval_seconds"] - 0.5) > 0.25:
            fail(f"watch interval {s['pcibw_watch_interval_seconds']} s, PCIBW_WATCH_ARGS asked 0.5")
        if sum(1 for k in s if k.startswith("pcibw_watch_host_verdict")) != 5:
            fail("watch textfile: no host verdict series")
        if len(fails) == nfails:
            print(f"ok: pcibw-watch.service ExecStart on {source}: exit 0, {how}, {len(s)} samples"
                  + (", promtool check metrics passes" if promlib.PROMTOOL else ""))
    left = sorted(set(os.listdir(tdir)) - {"pcibw.prom", "pcibw-watch.prom"})
    if left:
        fail(f"the textfile directory holds {left} besides the two textfiles")

    # both files, one directory, one exporter
    if not promlib.NODE_EXPORTER:
        print("note: prometheus-node-exporter is not installed: serving both files not checked")
    elif os.path.exists(rep_file) and os.path.exists(watch_file):
        written = {}
        for f in (rep_file, watch_file):
            these = {promlib.canon(k): v for k, v in promlib.samples(open(f).read()).items()}
            for k in sorted(set(these) & set(written)):
                fail(f"both textfiles carry {k[0]}{dict(k[1])}: node_exporter drops one")
            written.update(these)
        port, body, log = promlib.serve(tdir)
        if body is None:
            fail(f"node_exporter did not serve /metrics: {log[-2000:]}")
        else:
            errs, _ = promlib.served_errors(written, body, log)
            for e in errs:
                fail(f"both textfiles served: {e}")
            if not errs:
                print(f"ok: node_exporter on 127.0.0.1:{port} serves all {len(written)} samples of "
                      "pcibw.prom and pcibw-watch.prom, no error")
sys.exit(1 if fails else 0)
