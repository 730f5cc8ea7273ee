#!/usr/bin/env python3
# Writes a synthetic `lspci -xxxx` dump of a large host, for bench/dump-bench.sh.
# Synthetic: no real host is this big. Every device dumps 4096 bytes (lspci -xxxx). What it encodes:
# - per domain, a host bridge 00:00.0 (8086:2020, class 0x0600, no capability list) and root
#   ports 00:RR.0 (8086:2030, class 0x0604, header type 1; PCIe capability v2 at 0x40, Device/Port
#   Type 4 (PCIe Base 6.0 sec. 7.5.3.2); LnkCap/LnkSta 8 GT/s x16; AER extended capability at 0x100);
# - behind each root port a switch: upstream port (10b5:8747, type 5, 8 GT/s x16) whose secondary
#   bus holds 7 downstream ports (type 6; LnkSta 8 GT/s x8, every third one trained to x4);
# - behind each downstream port a bus of 64 functions: two physical functions of an Ethernet
#   controller (8086:1572, class 0x0200, type 0, LnkCap/LnkSta 8 GT/s x8, DevCtl MPS 256 / MRRS
#   512, MSI-X capability at 0x70, AER at 0x100 and L1 PM Substates at 0x148 with L1.1/L1.2 off)
#   and 62 virtual functions (8086:154c) whose link registers read 0, as SR-IOV 1.1 sec. 3.4.1
#   (Link Capabilities/Status reserved in a VF) has them.
# Bridges' bus numbers are consistent (own < secondary <= subordinate). Devices are emitted in
# slot order, domain 0000 first, until COUNT devices are written.
# Usage: synthetic-dump-gen.py COUNT > FILE
import struct, sys

def cfg(vendor, device, cls, hdr=0, status=0x0010):
    b = bytearray(4096)
    b[0:4] = struct.pack('<HH', vendor, device)
    b[4:8] = struct.pack('<HH', 0x0406, status)
    b[8] = 1
    b[0x0a:0x0c] = struct.pack('<H', cls)
    b[0x0e] = hdr
    return b

def w16(b, a, v): b[a:a + 2] = struct.pack('<H', v)
def w32(b, a, v): b[a:a + 4] = struct.pack('<I', v)

def pcie(b, typ, speed, width, sta_speed, sta_width, nxt=0, devctl=0x2000 | 0x20, vf=False):
    b[0x34] = 0x40
    b[0x40], b[0x41] = 0x10, nxt
    w16(b, 0x42, 2 | typ << 4)
    w32(b, 0x44, 0x8fe2 if typ == 0 else 0x8001)  # DevCap: MPS supported 512 (0), 128 (ports)
    w16(b, 0x48, devctl)
    if not vf:
        w32(b, 0x4c, speed | width << 4 | (0x3 << 10))
        w16(b, 0x52, sta_speed | sta_width << 4)
        w32(b, 0x6c, 0x0e)  # LnkCap2: 2.5, 5, 8 GT/s

def ext(b, at, cid, ver, nxt):
    w32(b, at, cid | ver << 16 | nxt << 20)

def bridge(b, pri, sec, sub):
    b[0x18], b[0x19], b[0x1a] = pri, sec, sub

def host():
    return cfg(0x8086, 0x2020, 0x0600, status=0)

def root(sec, sub):
    b = cfg(0x8086, 0x2030, 0x0604, hdr=1)
    bridge(b, 0, sec, sub)
    pcie(b, 4, 3, 16, 3, 16)
    ext(b, 0x100, 0x0001, 2, 0)
    return b

def upstream(bus, sec, sub):
    b = cfg(0x10b5, 0x8747, 0x0604, hdr=1)
    bridge(b, bus, sec, sub)
    pcie(b, 5, 3, 16, 3, 16)
    return b

def downstream(bus, sec, k):
    b = cfg(0x10b5, 0x8747, 0x0604, hdr=1)
    bridge(b, bus, sec, sec)
    pcie(b, 6, 3, 8, 3, 4 if k % 3 == 2 else 8)
    return b

def nic(vf, first):
    b = cfg(0x8086, 0x154c if vf else 0x1572, 0x0200, hdr=0x80 if first else 0)
    pcie(b, 0, 3, 8, 3, 8, nxt=0x70, devctl=(2 << 12) | (1 << 5), vf=vf)
    b[0x70], b[0x71] = 0x11, 0  # MSI-X
    w16(b, 0x72, 0x003f)
    ext(b, 0x100, 0x0001, 2, 0x148)
    ext(b, 0x148, 0x001e, 1, 0)
    w32(b, 0x14c, 0x0000001f)  # L1 PM Substates Capabilities: all supported
    return b

ZERO = {}
def rows(b):
    out = []
    for r in range(0, 4096, 16):
        chunk = bytes(b[r:r + 16])
        off = '%02x' % r if r < 256 else '%03x' % r
        if not any(chunk):
            z = ZERO.get(r)
            if z is None:
                z = ZERO[r] = off + ': ' + ' '.join(['00'] * 16)
            out.append(z)
        else:
            out.append(off + ': ' + ' '.join('%02x' % x for x in chunk))
    return '\n'.join(out)

DESC = {
    'host': 'Host bridge: Intel Corporation Device 2020 (rev 01)',
    'root': 'PCI bridge: Intel Corporation Device 2030 (rev 01)',
    'sw': 'PCI bridge: PLX Technology, Inc. PEX 8747 48-Lane, 5-Port PCI Express Gen 3 (8.0 GT/s) Switch (rev 01)',
    'pf': 'Ethernet controller: Intel Corporation Ethernet Controller X710 for 10GbE SFP+ (rev 01)',
    'vf': 'Ethernet controller: Intel Corporation Ethernet Virtual Function 700 Series (rev 01)',
}

def main():
    count = int(sys.argv[1])
    out = sys.stdout
    out.write('# synthetic-dump: %d devices, lspci -xxxx format (bench/synthetic-dump-gen.py)\n' % count)
    n = 0
    cache = {}
    def emit(dom, bus, dev, fn, kind, key, make):
        nonlocal n
        if n >= count:
            return False
        text = cache.get(key)
        if text is None:
            text = cache[key] = rows(make())
        out.write('%04x:%02x:%02x.%d %s\n%s\n\n' % (dom, bus, dev, fn, DESC[kind], text))
        n += 1
        return True
    dom = 0
    while n < count:
        emit(dom, 0, 0, 0, 'host', ('host',), host)
        bus = 1
        roots = []
        while bus + 9 <= 256:
            roots.append(bus)
            bus += 9
        for r, b in enumerate(roots):
            emit(dom, 0, r + 1, 0, 'root', ('root', b), lambda b=b: root(b, b + 8))
        for b in roots:
            emit(dom, b, 0, 0, 'sw', ('up', b), lambda b=b: upstream(b, b + 1, b + 8))
            for k in range(7):
                emit(dom, b + 1, k, 0, 'sw', ('down', b, k), lambda b=b, k=k: downstream(b + 1, b + 2 + k, k))
            for k in range(7):
                for f in range(64):
                    vf = f >= 2
                    emit(dom, b + 2 + k, f >> 3, f & 7, 'vf' if vf else 'pf', ('nic', vf, f == 0),
                         lambda vf=vf, f=f: nic(vf, f == 0))
        dom += 1

main()
