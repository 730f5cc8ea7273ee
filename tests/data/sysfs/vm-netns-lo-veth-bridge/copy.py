#!/usr/bin/env python3
# Copy the parts of /sys that pcibw reads into DEST/sys, keeping symlinks as symlinks.
import os, sys, shutil
DEST = sys.argv[1]
PCI_ATTRS = ["config", "class", "vendor", "device", "subsystem_vendor", "subsystem_device", "revision",
             "numa_node", "local_cpus", "local_cpulist", "irq", "resource", "enable",
             "current_link_speed", "current_link_width", "max_link_speed", "max_link_width"]
NET_ATTRS = ["flags", "type", "uevent", "ifindex", "iflink", "operstate", "mtu", "addr_len", "speed"]

def put(rel, data):
    p = os.path.join(DEST, rel.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)

def link(rel, target):
    p = os.path.join(DEST, rel.lstrip("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    os.symlink(target, p)

def read(p):
    try:
        with open(p, "rb") as f:
            return f.read()
    except OSError:
        return None

for slot in sorted(os.listdir("/sys/bus/pci/devices")):
    lp = "/sys/bus/pci/devices/" + slot
    link(lp, os.readlink(lp))
    real = os.path.realpath(lp)
    for a in PCI_ATTRS:
        d = read(real + "/" + a)
        if d is not None:
            put(real + "/" + a, d)
    if os.path.islink(real + "/driver"):
        link(real + "/driver", os.readlink(real + "/driver"))
for name in sorted(os.listdir("/sys/class/net")):
    lp = "/sys/class/net/" + name
    link(lp, os.readlink(lp))
    real = os.path.realpath(lp)
    for a in NET_ATTRS:
        d = read(real + "/" + a)
        if d is not None:
            put(real + "/" + a, d)
    for e in sorted(os.listdir(real)):
        if e.startswith("lower_") or e.startswith("upper_") or e in ("device", "master"):
            if os.path.islink(real + "/" + e):
                link(real + "/" + e, os.readlink(real + "/" + e))
d = read("/sys/module/pcie_aspm/parameters/policy")
if d is not None:
    put("/sys/module/pcie_aspm/parameters/policy", d)
