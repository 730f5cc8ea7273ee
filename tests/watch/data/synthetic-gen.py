#!/usr/bin/env python3
"""Write the synthetic-* recordings of tests/watch/data from the real recording
real-vm-lo-udp (made on a 2-CPU VM with `pcibw watch lo eth0 --record`, UDP on loopback).
Each edit is described in the header of its meta file; the tests take their expected values
from these edits (the numbers below), never from running pcibw.

Run from tests/watch/data: ./synthetic-gen.py  (rewrites the synthetic-* directories)
Format: doc/watch-recording.md."""
import os
import re
import shutil

SRC = "real-vm-lo-udp"


def read_rec(d):
    meta = open(os.path.join(d, "meta")).read()
    data = open(os.path.join(d, "samples"), "rb").read()
    samples, i = [], 0
    while i < len(data):
        nl = data.index(b"\n", i)
        _, t, n = data[i:nl].decode().split()
        i = nl + 1
        blobs = []
        for _ in range(int(n)):
            nl = data.index(b"\n", i)
            _, key, ln = data[i:nl].decode().split()
            i = nl + 1
            blobs.append([key, data[i:i + int(ln)].decode()])
            i += int(ln) + 1
        samples.append([float(t), blobs])
    return meta, samples


def write_rec(d, meta, samples, header):
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    lines = meta.splitlines(True)
    hdr = "".join("# " + h + "\n" for h in header)
    open(os.path.join(d, "meta"), "w").write(lines[0] + hdr + "".join(lines[1:]))
    with open(os.path.join(d, "samples"), "wb") as f:
        for t, blobs in samples:
            f.write(b"sample %.9f %d\n" % (t, len(blobs)))
            for key, text in blobs:
                b = text.encode()
                f.write(b"blob %s %d\n" % (key.encode(), len(b)))
                f.write(b + b"\n")


def blob(blobs, key):
    for b in blobs:
        if b[0] == key:
            return b
    return None


def set_counter(text, name, value):
    return re.sub(r"(?m)^%s \d+$" % name, "%s %d" % (name, value), text)


def get_counter(text, name):
    return int(re.search(r"(?m)^%s (\d+)$" % name, text).group(1))


def stat_text(cpus, intr):
    """/proc/stat with the given per-CPU fields (user nice system idle iowait irq softirq steal)"""
    tot = [sum(c[k] for c in cpus.values()) for k in range(8)]
    out = "cpu  " + " ".join(str(v) for v in tot) + " 0 0\n"
    for i in sorted(cpus):
        out += "cpu%d " % i + " ".join(str(v) for v in cpus[i]) + " 0 0\n"
    return out + "intr %d 0 0\nctxt 1000\nbtime 0\nprocesses 10\nprocs_running 1\nprocs_blocked 0\n" % intr


meta, samples = read_rec(SRC)

# --- softirq-heavy: CPU 1 spends 45 of every 50 ticks in softirq, 2 in irq, 2 in system
# (49/50 = 98 % busy), CPU 0 5 of 50 ticks in user (10 %): one hot core, the total 54 %.
# irq time is non-zero, so the kernel accounts it (no "no irq time" flag).
s2 = []
c0 = [1000, 0, 0, 9000, 0, 0, 0, 0]
c1 = [1000, 0, 0, 9000, 0, 0, 0, 0]
intr = 100000
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    if k:
        c0 = [c0[0] + 5, 0, 0, c0[3] + 45, 0, 0, 0, 0]
        c1 = [c1[0], 0, c1[2] + 2, c1[3] + 1, 0, c1[5] + 2, c1[6] + 45, 0]
        intr += 30000
    blob(blobs, "proc/stat")[1] = stat_text({0: c0, 1: c1}, intr)
    s2.append([t, blobs])
write_rec("synthetic-softirq-heavy", meta, s2, [
    "synthetic-softirq-heavy: edited from real-vm-lo-udp (synthetic-gen.py): /proc/stat replaced;",
    "per 50-tick interval CPU1 softirq 45, irq 2, system 2, idle 1 (98 % busy); CPU0 user 5,",
    "idle 45 (10 %); intr +30000 per interval with irq time non-zero (proc(5) field order)."])

# --- counter wrap: lo's rx_bytes as a 32-bit counter that wraps between samples 3 and 4
# (the real values shifted by OFFSET modulo 2^32: every delta is the real one)
first = get_counter(blob(samples[3][1], "net/lo")[1], "rx_bytes")
OFFSET = (1 << 32) - first - 1000  # sample 3 reads 2^32 - 1000
s3 = []
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    b = blob(blobs, "net/lo")
    v = get_counter(b[1], "rx_bytes")
    b[1] = set_counter(b[1], "rx_bytes", (v + OFFSET) % (1 << 32))
    s3.append([t, blobs])
write_rec("synthetic-counter-wrap", meta, s3, [
    "synthetic-counter-wrap: edited from real-vm-lo-udp (synthetic-gen.py): lo rx_bytes plus",
    "2^32 - (sample 3's value) - 1000, modulo 2^32 (a 32-bit counter): sample 3 reads 2^32 - 1000",
    "and sample 4 has wrapped; every difference is the real one."])

# --- counter reset: lo's rx_packets and rx_bytes restart from 0 at sample 4 (driver reload)
s4 = []
base_p = get_counter(blob(samples[4][1], "net/lo")[1], "rx_packets")
base_b = get_counter(blob(samples[4][1], "net/lo")[1], "rx_bytes")
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    if k >= 4:
        b = blob(blobs, "net/lo")
        b[1] = set_counter(b[1], "rx_packets", get_counter(b[1], "rx_packets") - base_p)
        b[1] = set_counter(b[1], "rx_bytes", get_counter(b[1], "rx_bytes") - base_b)
    s4.append([t, blobs])
write_rec("synthetic-counter-reset", meta, s4, [
    "synthetic-counter-reset: edited from real-vm-lo-udp (synthetic-gen.py): from sample 4 on,",
    "lo rx_packets and rx_bytes count from 0 (as after a driver reload)."])

# --- interface disappears: eth0 is gone from sample 4 on ("state vanished", no ethtool blob)
s5 = []
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    if k >= 4:
        blob(blobs, "net/eth0")[1] = "state vanished\n"
        blobs = [b for b in blobs if b[0] != "ethtool/eth0"]
    s5.append([t, blobs])
write_rec("synthetic-iface-vanishes", meta, s5, [
    "synthetic-iface-vanishes: edited from real-vm-lo-udp (synthetic-gen.py): net/eth0 reads",
    "'state vanished' from sample 4 on (the sampler's text when the sysfs files return ENODEV)."])

# --- CPU offline: CPU 1 is missing from /proc/stat, /proc/interrupts and softnet_stat in
# samples 2 and 3 (offline), back in sample 4 (online): as the kernel lists online CPUs only
s6 = []
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    if k in (2, 3):
        b = blob(blobs, "proc/stat")
        b[1] = "".join(l for l in b[1].splitlines(True) if not l.startswith("cpu1 "))
        b = blob(blobs, "proc/interrupts")
        out = []
        for j, l in enumerate(b[1].splitlines(True)):
            if j == 0:
                out.append(re.sub(r"\s+CPU1\s*", "", l.rstrip("\n")) + "\n")
                continue
            m = re.match(r"^(\s*\S+:)(\s+\d+)(\s+\d+)(.*)$", l.rstrip("\n"))
            out.append((m.group(1) + m.group(2) + m.group(4) + "\n") if m else l)
        b[1] = "".join(out)
        b = blob(blobs, "proc/net/softnet_stat")
        b[1] = "".join(l for l in b[1].splitlines(True) if not l.split()[12:13] == ["00000001"])
    s6.append([t, blobs])
write_rec("synthetic-cpu-offline", meta, s6, [
    "synthetic-cpu-offline: edited from real-vm-lo-udp (synthetic-gen.py): CPU1's line in",
    "/proc/stat, its column in /proc/interrupts and its softnet_stat row removed in samples 2",
    "and 3 (offline: the kernel lists online CPUs only), back in sample 4."])

# --- mlx5-style: eth0 becomes a ConnectX-5 (15b3:1017) on PCIe gen3 x8, 25 Gbit/s, with
# ethtool statistics: 4 receive queues of which only rx0 carries packets, the PCIe counters
# of Linux Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst, and a
# link that trains down from x8 to x4 at sample 4.
m7 = meta.replace(
    "iface eth0 slot=0000:00:03.0 dev=virtio2 driver=virtio_net virtual=1 pci=1 own_link=0 bus=virtual "
    "nic=virtio-net line_rate_gbps=0 vendor=6900 device=4161",
    "iface eth0 slot=0000:81:00.0 dev=0000:81:00.0 driver=mlx5_core virtual=0 pci=1 own_link=1 "
    "bus=gen3x8,mps=256,mrrs=512 nic=mlx5 line_rate_gbps=25 vendor=5555 device=4119")
assert m7 != meta
s7 = []
RX_PPS, RX_FRAME = 2_000_000, 64  # per second: 2 Mpps of 60 B counted (64 B frames)
TX_PPS, TX_FRAME = 1_000_000, 1518
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    dt = t - samples[0][0]
    rxp, txp = int(RX_PPS * dt), int(TX_PPS * dt)
    width = 8 if k < 4 else 4
    net = ("state present\nifindex 4\nname eth0\ndev 0000:81:00.0\nslot 0000:81:00.0\n"
           "rx_bytes %d\nrx_packets %d\nrx_dropped 0\nrx_missed_errors %d\nrx_fifo_errors 0\nrx_errors 0\n"
           "tx_bytes %d\ntx_packets %d\ntx_dropped 0\ntx_errors 0\nspeed 25000\noperstate up\n"
           "link_speed 8.0 GT/s PCIe\nlink_width %d\n") % (
        rxp * (RX_FRAME - 4), rxp, 100 * k, txp * (TX_FRAME - 4), txp, width)
    blob(blobs, "net/eth0")[1] = net
    eth = ("rx0_packets %d\nrx1_packets 0\nrx2_packets 0\nrx3_packets 0\n"
           "tx0_packets %d\ntx1_packets %d\ntx2_packets %d\ntx3_packets %d\n"
           "outbound_pci_stalled_rd %d\noutbound_pci_stalled_wr 0\noutbound_pci_buffer_overflow %d\n"
           "rx_pci_signal_integrity %d\ntx_pci_signal_integrity 0\n") % (
        rxp, txp // 4, txp // 4, txp // 4, txp - 3 * (txp // 4), 40 if k else 0, 500 * k, 2 * k)
    blobs = [b for b in blobs if b[0] != "ethtool/eth0"] + [["ethtool/eth0", eth]]
    b = blob(blobs, "proc/interrupts")
    b[1] += " 90:  %10d          0  IR-PCI-MSIX-0000:81:00.0   0-edge      mlx5_comp0@pci:0000:81:00.0\n" % (
        int(RX_PPS * dt / 2))
    s7.append([t, blobs])
write_rec("synthetic-mlx5-ethtool", m7, s7, [
    "synthetic-mlx5-ethtool: edited from real-vm-lo-udp (synthetic-gen.py): eth0 made a",
    "ConnectX-5 (15b3:1017, mlx5_core) on gen3 x8 MPS 256 at 25 Gbit/s: rx 2 Mpps of 64 B frames",
    "(60 B counted), tx 1 Mpps of 1518 B frames; ethtool rx0..rx3_packets with only rx0 moving,",
    "tx over 4 queues; outbound_pci_stalled_rd 40 (%), outbound_pci_buffer_overflow +500 and",
    "rx_pci_signal_integrity +2 per sample; rx_missed_errors +100 per sample; one mlx5_comp0",
    "vector at 1 interrupt per 2 rx packets; current_link_width 8 -> 4 at sample 4."])


# --- interfaces behind one bottleneck hop. eth0 is replaced by the NICs below (its meta line
# and blobs); each NIC's counters move at a fixed packet rate and frame size (the kernel counts
# frame - 4 B: no FCS), rx and tx. `extra` is the rest of the meta line.
def shared_rec(name, nics, header):
    lines = [l for l in meta.splitlines(True) if not l.startswith("iface eth0 ")]
    for n in nics:
        lines.append("iface %s %s\n" % (n["name"], n["extra"]))
    m = "".join(lines)
    out = []
    for k, (t, blobs) in enumerate(samples):
        blobs = [list(b) for b in blobs if b[0] not in ("net/eth0", "ethtool/eth0")]
        dt = t - samples[0][0]
        for j, n in enumerate(nics):
            rxp, txp = int(n["rx_pps"] * dt), int(n["tx_pps"] * dt)
            blobs.append(["net/" + n["name"], (
                "state present\nifindex %d\nname %s\ndev %s\nslot %s\n"
                "rx_bytes %d\nrx_packets %d\nrx_dropped 0\nrx_missed_errors 0\nrx_fifo_errors 0\n"
                "rx_errors 0\ntx_bytes %d\ntx_packets %d\ntx_dropped 0\ntx_errors 0\nspeed %d\n"
                "operstate up\n") % (10 + j, n["name"], n["slot"], n["slot"], rxp * (n["rx_frame"] - 4),
                                     rxp, txp * (n["tx_frame"] - 4), txp, n["speed"])
                + ("link_speed 8.0 GT/s PCIe\nlink_width %d\n" % n["width"](k) if "width" in n else "")])
        out.append([t, blobs])
    write_rec(name, m, out, header)


# Two NICs (simple profile, 25 Gbit/s) on gen3 x8 links below one PCIe switch whose gen3 x8 uplink
# ends at root port 0000:00:02.0: the kernel's bottleneck walk (pcie_bandwidth_available(): a tie
# goes to the hop nearer the root) names 00:02.0 for both. Each receives 1.9 Mpps of 1518 B frames.
UPLINK = "hop=0000:00:02.0 hop_bus=gen3x8,mps=256,mrrs=512"
NIC = "driver=simple virtual=0 pci=1 own_link=1 bus=gen3x8,mps=256,mrrs=512 nic=simple " \
      "line_rate_gbps=25 vendor=-1 device=-1"
shared_rec("synthetic-shared-uplink", [
    dict(name="eth1", slot="0000:05:00.0", rx_pps=1_900_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=25000, extra="slot=0000:05:00.0 dev=0000:05:00.0 %s %s" % (NIC, UPLINK)),
    dict(name="eth2", slot="0000:06:00.0", rx_pps=1_900_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=25000, extra="slot=0000:06:00.0 dev=0000:06:00.0 %s %s" % (NIC, UPLINK)),
], [
    "synthetic-shared-uplink: edited from real-vm-lo-udp (synthetic-gen.py): eth0 replaced by eth1",
    "(0000:05:00.0) and eth2 (0000:06:00.0), NIC profile simple, bus gen3x8 MPS 256 MRRS 512 (their",
    "LnkSta and DevCtl), 25 Gbit/s, each receiving 1.9 Mpps of 1518 B frames (1514 B counted);",
    "hop=0000:00:02.0, the root port above their switch, whose LnkSta is gen3 x8 (hop_bus)."])

# The same uplink at a mix of frame sizes: eth1 1.9 Mpps of 1518 B, eth2 16 Mpps of 64 B.
shared_rec("synthetic-shared-mix", [
    dict(name="eth1", slot="0000:05:00.0", rx_pps=1_900_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=25000, extra="slot=0000:05:00.0 dev=0000:05:00.0 %s %s" % (NIC, UPLINK)),
    dict(name="eth2", slot="0000:06:00.0", rx_pps=16_000_000, rx_frame=64, tx_pps=0, tx_frame=64,
         speed=25000, extra="slot=0000:06:00.0 dev=0000:06:00.0 %s %s" % (NIC, UPLINK)),
], [
    "synthetic-shared-mix: edited from real-vm-lo-udp (synthetic-gen.py): as synthetic-shared-uplink",
    "(eth1, eth2 below root port 0000:00:02.0, gen3x8 MPS 256, simple profile, 25 Gbit/s) but eth1",
    "receives 1.9 Mpps of 1518 B frames and eth2 16 Mpps of 64 B frames (60 B counted)."])

# Two SR-IOV VFs (0000:81:00.2, 0000:81:00.3: sysfs physfn -> 0000:81:00.0) and their PF, a
# 100 Gbit/s NIC on a gen3 x8 link whose own link is the narrowest hop (hop = the PF). A VF's
# config space reports the PF's link (its bus). Replayed with `eth3 eth4` the PF is not watched.
VF = "driver=simple virtual=0 pci=1 own_link=0 bus=gen3x8,mps=256,mrrs=512 nic=simple " \
     "line_rate_gbps=100 vendor=-1 device=-1 hop=0000:81:00.0 hop_bus=gen3x8,mps=256,mrrs=512"
shared_rec("synthetic-sriov-vfs", [
    dict(name="eth3", slot="0000:81:00.2", rx_pps=1_900_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=100000, extra="slot=0000:81:00.2 dev=0000:81:00.2 %s pf=0000:81:00.0" % VF),
    dict(name="eth4", slot="0000:81:00.3", rx_pps=1_900_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=100000, extra="slot=0000:81:00.3 dev=0000:81:00.3 %s pf=0000:81:00.0" % VF),
    dict(name="eth5", slot="0000:81:00.0", rx_pps=300_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=100000, extra="slot=0000:81:00.0 dev=0000:81:00.0 %s" % VF.replace("own_link=0", "own_link=1")),
], [
    "synthetic-sriov-vfs: edited from real-vm-lo-udp (synthetic-gen.py): eth0 replaced by VFs eth3",
    "(0000:81:00.2) and eth4 (0000:81:00.3), pf=0000:81:00.0 (their sysfs physfn link), and that PF",
    "eth5; simple profile, gen3x8 MPS 256 (the PF's LnkSta, which the VFs report), 100 Gbit/s,",
    "hop=0000:81:00.0 (the PF's own link is the narrowest); rx 1518 B frames, 1.9 Mpps on each VF",
    "and 0.3 Mpps on the PF."])

# The classic case: an 82546 dual-port (functions 0 and 1 of 0000:02:01) on one PCI-X 133/64
# segment, a recording without hop keys (as before they existed): the two ports are grouped by
# their bus number, the segment they share. Each port sends and receives 81,274 pps of 1518 B
# frames, 1 Gbit/s: 10^9 / (8 x (1518 + 20)).
PCIX = "driver=e1000 virtual=0 pci=1 own_link=1 bus=pcix133/64 nic=e1000 line_rate_gbps=1 " \
       "vendor=32902 device=4112"
shared_rec("synthetic-shared-pcix", [
    dict(name="eth1", slot="0000:02:01.0", rx_pps=81_274, rx_frame=1518, tx_pps=81_274, tx_frame=1518,
         speed=1000, extra="slot=0000:02:01.0 dev=0000:02:01.0 %s" % PCIX),
    dict(name="eth2", slot="0000:02:01.1", rx_pps=81_274, rx_frame=1518, tx_pps=81_274, tx_frame=1518,
         speed=1000, extra="slot=0000:02:01.1 dev=0000:02:01.1 %s" % PCIX),
], [
    "synthetic-shared-pcix: edited from real-vm-lo-udp (synthetic-gen.py): eth0 replaced by the two",
    "ports of an 82546 (8086:1010) at 0000:02:01.0 and .1 on PCI-X 133 MHz 64-bit (PCI-X Status),",
    "e1000 profile, 1 Gbit/s, each sending and receiving 81,274 pps of 1518 B frames (line rate);",
    "no hop keys (an older recording): the ports share bus 02, the segment."])

# The two ports of the 82546EB of tests/data/lkml-2006-via-pm133-82546eb-conventional-pci.lspci
# (00:12.0 and 00:12.1, one 32-bit 33 MHz PCI segment, bus 00), each receiving 30,000 pps of
# 1518 B frames, with the hop keys the probe writes (each function's own segment).
PCI = "driver=e1000 virtual=0 pci=1 own_link=1 bus=pci33/32 nic=e1000 line_rate_gbps=1 " \
      "vendor=32902 device=4112 hop_bus=pci33/32"
shared_rec("synthetic-shared-pci", [
    dict(name="eth1", slot="0000:00:12.0", rx_pps=30_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=1000, extra="slot=0000:00:12.0 dev=0000:00:12.0 %s hop=0000:00:12.0" % PCI),
    dict(name="eth2", slot="0000:00:12.1", rx_pps=30_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=1000, extra="slot=0000:00:12.1 dev=0000:00:12.1 %s hop=0000:00:12.1" % PCI),
], [
    "synthetic-shared-pci: edited from real-vm-lo-udp (synthetic-gen.py): eth0 replaced by the two",
    "ports of the 82546EB (8086:1010) at 0000:00:12.0 and .1 of lkml-2006-via-pm133-82546eb-",
    "conventional-pci.lspci, on its 32-bit 33 MHz PCI bus (bus=pci33/32), e1000 profile, 1 Gbit/s,",
    "each receiving 30,000 pps of 1518 B frames; hop = each function's own segment, as probed."])

# --- link downshift under load: eth0 becomes an 82599 (8086:10fb, ixgbe) on PCIe gen2 x8 at
# 10 Gbit/s receiving 5.5 Mpps of 64 B frames; from sample 4 on the link reads 2.5 GT/s x4 (the
# PCI function's current_link_speed and current_link_width, re-read each sample), as a link
# that retrains to a lower rate and width under load does.
m8 = meta.replace(
    "iface eth0 slot=0000:00:03.0 dev=virtio2 driver=virtio_net virtual=1 pci=1 own_link=0 bus=virtual "
    "nic=virtio-net line_rate_gbps=0 vendor=6900 device=4161",
    "iface eth0 slot=0000:03:00.0 dev=0000:03:00.0 driver=ixgbe virtual=0 pci=1 own_link=1 "
    "bus=gen2x8,mps=256,mrrs=512 nic=ixgbe line_rate_gbps=10 vendor=32902 device=4347")
assert m8 != meta
s8 = []
RX8_PPS, RX8_FRAME = 5_500_000, 64
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    dt = t - samples[0][0]
    rxp = int(RX8_PPS * dt)
    speed, width = ("5.0 GT/s PCIe", 8) if k < 4 else ("2.5 GT/s PCIe", 4)
    net = ("state present\nifindex 4\nname eth0\ndev 0000:03:00.0\nslot 0000:03:00.0\n"
           "rx_bytes %d\nrx_packets %d\nrx_dropped 0\nrx_missed_errors 0\nrx_fifo_errors 0\nrx_errors 0\n"
           "tx_bytes 0\ntx_packets 0\ntx_dropped 0\ntx_errors 0\nspeed 10000\noperstate up\n"
           "link_speed %s\nlink_width %d\n") % (rxp * (RX8_FRAME - 4), rxp, speed, width)
    blob(blobs, "net/eth0")[1] = net
    blobs = [b for b in blobs if b[0] != "ethtool/eth0"]
    s8.append([t, blobs])
write_rec("synthetic-link-downshift", m8, s8, [
    "synthetic-link-downshift: edited from real-vm-lo-udp (synthetic-gen.py): eth0 made an 82599",
    "(8086:10fb, ixgbe) on PCIe gen2 x8 (bus=gen2x8,mps=256,mrrs=512) at 10 Gbit/s, rx 5.5 Mpps of",
    "64 B frames (60 B counted), no tx; from sample 4 on the PCI function's current_link_speed",
    "reads 2.5 GT/s (was 5.0) and current_link_width 4 (was 8): a link retrained under load."])

# --- a flapping link: the same 82599 on PCIe gen2 x8, its link speed cycling every two samples
# between 5.0 GT/s (the resolved link) and 2.5 GT/s (width 8 throughout), as a link that keeps
# retraining does. FLAP_SPEED is what current_link_speed reads at each sample.
FLAP_SPEED = ["5.0" if (k // 2) % 2 == 0 else "2.5" for k in range(len(samples))]
s9 = []
for k, (t, blobs) in enumerate(samples):
    blobs = [list(b) for b in blobs]
    dt = t - samples[0][0]
    rxp = int(RX8_PPS * dt)
    net = ("state present\nifindex 4\nname eth0\ndev 0000:03:00.0\nslot 0000:03:00.0\n"
           "rx_bytes %d\nrx_packets %d\nrx_dropped 0\nrx_missed_errors 0\nrx_fifo_errors 0\nrx_errors 0\n"
           "tx_bytes 0\ntx_packets 0\ntx_dropped 0\ntx_errors 0\nspeed 10000\noperstate up\n"
           "link_speed %s GT/s PCIe\nlink_width 8\n") % (rxp * (RX8_FRAME - 4), rxp, FLAP_SPEED[k])
    blob(blobs, "net/eth0")[1] = net
    blobs = [b for b in blobs if b[0] != "ethtool/eth0"]
    s9.append([t, blobs])
write_rec("synthetic-link-flapping", m8, s9, [
    "synthetic-link-flapping: edited from real-vm-lo-udp (synthetic-gen.py): eth0 made an 82599",
    "(8086:10fb, ixgbe) on PCIe gen2 x8 (bus=gen2x8,mps=256,mrrs=512) at 10 Gbit/s, rx 5.5 Mpps of",
    "64 B frames, no tx; the PCI function's current_link_speed reads 5.0 GT/s at samples 0-1, 2.5",
    "at 2-3, 5.0 at 4-5, ... (every two samples; current_link_width 8 throughout): %d samples, so"
    % len(samples),
    "%d intervals, of which %d end on another speed than the one before: a link that keeps"
    % (len(samples) - 1, sum(FLAP_SPEED[k] != FLAP_SPEED[k - 1] for k in range(1, len(samples)))),
    "retraining."])

# The two ports (functions 0 and 1) of one dual-port NIC at 0000:03:00 whose own gen3 x8 link is
# the narrowest hop (each function's hop is its own slot: one device, one link), each receiving
# 1 Mpps of 1518 B frames; the link trains down to x4 at sample 4 (current_link_width 8 -> 4).
DUAL = "driver=simple virtual=0 pci=1 own_link=1 bus=gen3x8,mps=256,mrrs=512 nic=simple " \
       "line_rate_gbps=25 vendor=-1 device=-1 hop_bus=gen3x8,mps=256,mrrs=512"
shared_rec("synthetic-shared-downshift", [
    dict(name="eth1", slot="0000:03:00.0", rx_pps=1_000_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=25000, width=lambda k: 8 if k < 4 else 4,
         extra="slot=0000:03:00.0 dev=0000:03:00.0 %s hop=0000:03:00.0" % DUAL),
    dict(name="eth2", slot="0000:03:00.1", rx_pps=1_000_000, rx_frame=1518, tx_pps=0, tx_frame=64,
         speed=25000, width=lambda k: 8 if k < 4 else 4,
         extra="slot=0000:03:00.1 dev=0000:03:00.1 %s hop=0000:03:00.1" % DUAL),
], [
    "synthetic-shared-downshift: edited from real-vm-lo-udp (synthetic-gen.py): eth0 replaced by",
    "functions 0 and 1 (eth1, eth2) of one dual-port NIC at 0000:03:00, simple profile, gen3x8 MPS",
    "256 (LnkSta, DevCtl), 25 Gbit/s, each receiving 1 Mpps of 1518 B frames; hop = each function's",
    "own slot (its link is the narrowest); current_link_width 8, then 4 from sample 4 on."])

# --- every flag: synthetic-mlx5-ethtool's eth0 (one queue, missed packets, the PCIe counters,
# x8 -> x4 at sample 4) plus, in the interval from sample 3 to 4, each other condition at once:
# 4 CPUs in /proc/stat, CPU0 98 % busy in softirq with irq time 0 while interrupts arrive and
# CPU1 idle (hot core, no irq time), CPU2 offline and CPU3 online at sample 4; CPU0's softnet
# time_squeeze +10 per sample; the mlx5 vector at 1 interrupt per packet; lo's rx_bytes a
# 32-bit counter wrapping between samples 3 and 4, its tx_packets and tx_bytes from 0 at sample
# 4 (reset) and its name lo0 from sample 4 (renamed); a third interface dummy0 (lo's counters)
# vanishing at sample 4. The clock does not advance from sample 5 to 6 (its own interval: no
# rates can be computed there).
m9 = m7.replace("cpus 2\n", "cpus 4\n") + \
    "iface dummy0 slot=- dev=- driver=- virtual=1 pci=0 own_link=0 bus=virtual nic=- " \
    "line_rate_gbps=0 vendor=-1 device=-1\n"
assert "cpus 4\n" in m9
s9 = []
w_first = get_counter(blob(s7[3][1], "net/lo")[1], "rx_bytes")
W_OFF = (1 << 32) - w_first - 1000
r_base_p = get_counter(blob(s7[4][1], "net/lo")[1], "tx_packets")
r_base_b = get_counter(blob(s7[4][1], "net/lo")[1], "tx_bytes")
c = {0: [0] * 8, 1: [0] * 8, 2: [0] * 8, 3: [0] * 8}
intr9 = 100000
for k, (t, blobs) in enumerate(s7):
    blobs = [list(b) for b in blobs]
    if k == 6:
        t = s9[5][0]
    dt = t - s7[0][0]
    if k:
        c[0] = [c[0][0], 0, c[0][2] + 2, c[0][3] + 1, 0, 0, c[0][6] + 47, 0]
        for i in (1, 2, 3):
            c[i] = [c[i][0], 0, 0, c[i][3] + 50, 0, 0, 0, 0]
        intr9 += 30000
    present = {0: c[0], 1: c[1]}
    if k < 4:
        present[2] = c[2]
    else:
        present[3] = c[3]
    blob(blobs, "proc/stat")[1] = stat_text(present, intr9)
    b = blob(blobs, "proc/net/softnet_stat")
    rows = b[1].splitlines(True)
    f0 = rows[0].split()
    f0[2] = "%08x" % (10 * k)
    rows[0] = " ".join(f0) + "\n"
    b[1] = "".join(rows)
    b = blob(blobs, "proc/interrupts")
    b[1] = re.sub(r"(?m)^ 90: +\d+", " 90:  %10d" % int((RX_PPS + TX_PPS) * dt), b[1])
    lo = blob(blobs, "net/lo")
    dummy = lo[1].replace("ifindex 1\n", "ifindex 5\n").replace("name lo\n", "name dummy0\n")
    v = get_counter(lo[1], "rx_bytes")
    lo[1] = set_counter(lo[1], "rx_bytes", (v + W_OFF) % (1 << 32))
    if k >= 4:
        lo[1] = set_counter(lo[1], "tx_packets", get_counter(lo[1], "tx_packets") - r_base_p)
        lo[1] = set_counter(lo[1], "tx_bytes", get_counter(lo[1], "tx_bytes") - r_base_b)
        lo[1] = lo[1].replace("name lo\n", "name lo0\n")
        dummy = "state vanished\n"
    blobs.append(["net/dummy0", dummy])
    s9.append([t, blobs])
write_rec("synthetic-all-flags", m9, s9, [
    "synthetic-all-flags: edited from synthetic-mlx5-ethtool (synthetic-gen.py): from sample 3 to 4",
    "every flag but the clock at once: /proc/stat of 4 CPUs, CPU0 softirq 47 + system 2 of 50",
    "ticks (98 %) with irq 0 while intr rises, CPU1 idle, CPU2 gone and CPU3 there from sample 4;",
    "softnet time_squeeze of CPU0 +10 per sample; the mlx5 vector 1 interrupt per packet; lo",
    "rx_bytes wrapping at 2^32 between samples 3 and 4, tx_packets/tx_bytes from 0 and name lo0",
    "from sample 4; dummy0 (lo's counters) vanishing at sample 4; sample 6 at sample 5's time."])
