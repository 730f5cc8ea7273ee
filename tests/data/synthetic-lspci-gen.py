#!/usr/bin/env python3
# Regenerates tests/data/synthetic-*.lspci and tests/data/bad/synthetic-bad-*.lspci.
# Each file it writes carries a header naming the spec fields it encodes and the values expected.
# Usage: python3 tests/data/synthetic-lspci-gen.py
import struct, os
OUT = os.path.dirname(os.path.abspath(__file__))

class Cfg:
    def __init__(s, vendor, device, cls, hdr=0, status=0x0010, rev=1, size=256):
        s.b = bytearray(size)
        s.w16(0, vendor); s.w16(2, device); s.w16(4, 0x0006)
        s.w16(6, status); s.b[8] = rev
        s.w16(0x0a, cls); s.b[0x0e] = hdr
    def w8(s, a, v): s.b[a] = v & 0xff
    def w16(s, a, v): s.b[a:a+2] = struct.pack('<H', v & 0xffff)
    def w32(s, a, v): s.b[a:a+4] = struct.pack('<I', v & 0xffffffff)
    def bridge(s, pri, sec, sub, sec_status):
        s.b[0x18], s.b[0x19], s.b[0x1a] = pri, sec, sub
        s.w16(0x1e, sec_status)
    def pcie(s, at, typ, lnkcap_speed, lnkcap_w, sta_speed, sta_w, ver=2, devctl=0x2000|0x20,
             lnkctl=0, vec=0, devctl2=0, lnksta2=0, nxt=0):
        s.w8(0x34, 0x40) if at == 0x40 else None
        s.w8(at, 0x10); s.w8(at+1, nxt)
        s.w16(at+2, ver | typ << 4)
        s.w16(at+8, devctl)
        s.w32(at+0x0c, lnkcap_speed | lnkcap_w << 4)
        s.w16(at+0x10, lnkctl)
        s.w16(at+0x12, sta_speed | sta_w << 4)
        if ver >= 2:
            s.w16(at+0x28, devctl2); s.w32(at+0x2c, vec << 1); s.w16(at+0x32, lnksta2)
    def rows(s):
        out = []
        for r in range(0, len(s.b), 16):
            off = '%02x' % r if r < 256 else '%03x' % r
            out.append(off + ': ' + ' '.join('%02x' % x for x in s.b[r:r+16]))
        return out

def write(name, header, devs):
    lines = ['# ' + h if h else '#' for h in header]
    for slot, desc, cfg in devs:
        lines.append('%s %s' % (slot, desc))
        lines += cfg.rows()
        lines.append('')
    open(os.path.join(OUT, name), 'w').write('\n'.join(lines) + '\n')

HOST = lambda st=0x0000: Cfg(0x8086, 0x1237, 0x0600, status=st)

# A: LnkCap2 vector wider than LnkCap
rp = Cfg(0x8086, 0x2030, 0x0604, hdr=1); rp.bridge(0, 1, 1, 0)
rp.pcie(0x40, 4, 4, 8, 3, 8, vec=0x0f)
nic = Cfg(0x8086, 0x1572, 0x0200)
nic.pcie(0x40, 0, 3, 8, 3, 8, devctl=(2 << 12) | (1 << 5), vec=0x0f)
write('synthetic-pcie-lnkcap2-wider.lspci', [
 'Synthetic: what no real dump shows. lspci -xxx format, 256 bytes per device.',
 'Encodes: PCIe Base 6.0 sec. 7.5.3.18 Link Capabilities 2, Supported Link Speeds Vector (bits 7:1)',
 '  wider than Link Capabilities Max Link Speed (bits 3:0).',
 '00:01.0 root port (PCIe cap at 0x40, type 4), LnkCap 16GT/s x8 (0x00000084), LnkSta 8GT/s x8, secondary bus 01.',
 '01:00.0 NIC 8086:1572 (class 0x0200), PCIe cap v2 at 0x40, type 0 (endpoint):',
 '  LnkCap = 0x00000083 (speed code 3 = 8GT/s, width x8); LnkCap2 = 0x0000001e (vector 0x0f = 2.5, 5, 8, 16 GT/s);',
 '  LnkSta = 0x0083 (8GT/s x8); DevCtl = 0x2020 (MPS code 1 = 256, MRRS code 2 = 512).',
 'Expected: max_link_speed_gts 16 (the vector wins over LnkCap, contract), max_link_width 8,',
 '  link 8 GT/s x8, downgraded false (lspci compares LnkSta with LnkCap: 8 = 8).'],
 [('00:01.0', 'PCI bridge: synthetic root port', rp), ('01:00.0', 'Ethernet controller: synthetic endpoint', nic)])

# B: Flit mode
rp = Cfg(0x8086, 0x2031, 0x0604, hdr=1); rp.bridge(0, 1, 1, 0)
rp.pcie(0x40, 4, 6, 16, 6, 16, vec=0x3f, lnksta2=0x0400)
nic = Cfg(0x8086, 0x1593, 0x0200)
nic.pcie(0x40, 0, 6, 16, 6, 16, devctl=(2 << 12) | (1 << 5) | 0x0100 | 0x0010, lnkctl=0x0008,
         vec=0x3f, devctl2=0x1000, lnksta2=0x0400)
write('synthetic-pcie-flit.lspci', [
 'Synthetic: a PCIe 6.0 link in Flit mode. lspci -xxx format.',
 'Encodes: PCIe Base 6.0 sec. 7.5.3.20 Link Status 2 bit 10 "Flit Mode Status"; sec. 7.5.3.6 LnkCap speed',
 '  code 6 = 64 GT/s; sec. 7.5.3.16 Device Control 2 bit 12 "10-Bit Tag Requester Enable";',
 '  sec. 7.5.3.4 Device Control bit 4 Relaxed Ordering, bit 8 Extended Tag; sec. 7.5.3.7 Link Control bit 3 RCB.',
 '00:01.0 root port: LnkCap/LnkSta 64GT/s x16, LnkSta2 = 0x0400, secondary bus 01.',
 '01:00.0 NIC: LnkCap 0x00000106 (64GT/s x16), LnkSta 0x0106, LnkCap2 vector 0x3f (2.5-64 GT/s), LnkSta2 0x0400,',
 '  DevCtl 0x2130 (MPS 256, MRRS 512, relaxed ordering, ext tags), DevCtl2 0x1000, LnkCtl 0x0008 (RCB 128).',
 'Expected: flit_mode true, link 64 GT/s x16, bandwidth 64 x 16 x 242/256 = 968 Gbit/s per direction',
 '  (PCIe 6.0 sec. 4.2.3.1: 242 data bytes per 256-byte flit), bottleneck 0000:00:01.0 (a tie goes to the root side).'],
 [('00:01.0', 'PCI bridge: synthetic root port', rp), ('01:00.0', 'Ethernet controller: synthetic flit endpoint', nic)])

# C: PCI-X modes from bits 9:6 of the bridge's secondary status
devs = [('00:00.0', 'Host bridge: synthetic', HOST())]
for i, code in enumerate([0x7, 0xB, 0xF, 0x9], start=1):
    br = Cfg(0x1014, 0x0188, 0x0604, hdr=1); br.bridge(0, i, i, 0x0220)
    br.w8(0x34, 0x40); br.w8(0x40, 0x07); br.w8(0x41, 0)
    br.w16(0x42, code << 6 | 0x3); br.w32(0x44, 0x00030000)
    nic = Cfg(0x8086, 0x1010 + i, 0x0200, status=0x0230)
    nic.w8(0x34, 0x40); nic.w8(0x40, 0x07); nic.w8(0x41, 0)
    nic.w16(0x42, 2 << 2 | 2 << 4)
    nic.w32(0x44, 1 << 16 | 1 << 17 | 3 << 21 | 6 << 23 | 1 << 30 | 1 << 31)
    devs.append(('00:%02x.0' % i, 'PCI bridge: synthetic PCI-X to PCI-X bridge, secondary mode 0x%x' % code, br))
    devs.append(('%02x:01.0' % i, 'Ethernet controller: synthetic PCI-X 2.0 NIC', nic))
devs.sort(key=lambda d: (int(d[0][:2], 16), d[0]))
write('synthetic-pcix-modes.lspci', [
 'Synthetic: PCI-X mode 1 ECC and mode 2 (266/533). lspci -xxx format.',
 'Encodes: PCI-X Protocol Addendum 2.0a sec. 8.6.2.2, PCI-X bridge Secondary Status bits 9:6 "Secondary Bus',
 '  Mode and Frequency" (kernel drivers/pci/probe.c pcix_bus_speed[]): 0x7 = PCI-X 133 ECC, 0xB = PCI-X 266 at',
 '  133 MHz, 0xF = PCI-X 533 at 133 MHz, 0x9 = PCI-X 266 at 66 MHz. Bit 0 = 64-bit secondary bus.',
 '  lspci decodes only bits 8:6 and shows 0xB as "133MHz", 0xF as "133MHz ECC".',
 'Bridges 00:01.0-00:04.0 (PCI-X bridge cap id 7 at 0x40, Secondary Status at 0x42 = mode << 6 | 0x3),',
 '  each with one NIC NN:01.0 (PCI-X device cap at 0x40): Command 0x0028 (MMRBC code 2 -> 2048, splits code 2 -> 3),',
 '  Status 0xc3630000 (64-bit, 133, 266, 533 capable; designed MMRBC code 3 -> 4096, designed splits code 6 -> 16).',
 'Expected (PCI-X 2.0a: clock 133 1/3 or 66 2/3 MHz x 64 bits x 1/2/4 transfers per clock):',
 '  01:01.0 pci-x-ecc 133 MHz 64-bit 8.533 Gbit/s; 02:01.0 pci-x-266 133 MHz 17.067 Gbit/s;',
 '  03:01.0 pci-x-533 133 MHz 34.133 Gbit/s; 04:01.0 pci-x-266 66 MHz 8.533 Gbit/s.'], devs)

# D: conventional 66 MHz segment, and a 33 MHz one slowed by one device
devs = [('00:00.0', 'Host bridge: synthetic', HOST(0x0220))]
b1 = Cfg(0x8086, 0x244e, 0x0604, hdr=1, status=0x0220); b1.bridge(0, 5, 5, 0x0220)
b2 = Cfg(0x8086, 0x244e, 0x0604, hdr=1, status=0x0220); b2.bridge(0, 6, 6, 0x0220)
devs += [('00:1d.0', 'PCI bridge: synthetic PCI-to-PCI bridge (secondary 66MHz+)', b2),
         ('00:1e.0', 'PCI bridge: synthetic PCI-to-PCI bridge (secondary 66MHz+)', b1)]
devs += [('05:00.0', 'Ethernet controller: synthetic 66MHz+ NIC', Cfg(0x10ec, 0x8169, 0x0200, status=0x0220)),
         ('05:01.0', 'SCSI storage controller: synthetic 66MHz+ device', Cfg(0x1000, 0x0021, 0x0100, status=0x0220)),
         ('06:00.0', 'Ethernet controller: synthetic 66MHz+ NIC', Cfg(0x10ec, 0x8169, 0x0200, status=0x0220)),
         ('06:01.0', 'Multimedia controller: synthetic 66MHz- device', Cfg(0x1102, 0x0002, 0x0401, status=0x0200))]
write('synthetic-pci-66mhz.lspci', [
 'Synthetic: conventional PCI segments at 66 and 33 MHz. lspci -xxx format.',
 'Encodes: PCI Local Bus 3.0 sec. 6.2.3 Status bit 5 "66 MHz Capable"; PCI-to-PCI Bridge 1.2 sec. 3.2.5.7',
 '  Secondary Status bit 5. A segment runs at 66 MHz only if its bridge and every device on it are 66 MHz capable.',
 'No capabilities anywhere (Status bit 4 clear): conventional PCI devices, bridges without a PCI-X capability.',
 '00:1e.0 bridge -> bus 05: secondary status 0x0220 (66+); 05:00.0 NIC status 0x0220 (66+), 05:01.0 status 0x0220 (66+).',
 '00:1d.0 bridge -> bus 06: secondary status 0x0220 (66+); 06:00.0 NIC 0x0220 (66+), 06:01.0 status 0x0200 (66-).',
 'Expected: 05:00.0 pci 66 MHz, 06:00.0 pci 33 MHz; width null (not in config space). With the 32-bit',
 '  lower bound: 66 2/3 x 32 = 2.133 Gbit/s and 33 1/3 x 32 = 1.067 Gbit/s, shared; peers 05:01.0 and 06:01.0.'], devs)

# E: downgraded endpoint
rp1 = Cfg(0x8086, 0x27d0, 0x0604, hdr=1); rp1.bridge(0, 1, 1, 0); rp1.pcie(0x40, 4, 2, 4, 1, 4, ver=1)
rp2 = Cfg(0x8086, 0x27d2, 0x0604, hdr=1); rp2.bridge(0, 2, 2, 0); rp2.pcie(0x40, 4, 2, 4, 2, 1, ver=1)
n1 = Cfg(0x8086, 0x10d3, 0x0200); n1.pcie(0x40, 0, 2, 4, 1, 4, ver=1)
n2 = Cfg(0x8086, 0x10d3, 0x0200); n2.pcie(0x40, 0, 2, 4, 2, 1, ver=1)
write('synthetic-pcie-downgraded.lspci', [
 'Synthetic: endpoints trained below their capability. lspci -xxx format.',
 'Encodes: PCIe Base 6.0 sec. 7.5.3.6 LnkCap and 7.5.3.8 LnkSta (speed bits 3:0, width bits 9:4), PCIe cap v1;',
 '  lspci ls-caps.c link_compare(): endpoints below LnkCap are "downgraded", root/downstream ports never.',
 '00:1c.0 root port, LnkCap 5GT/s x4 (0x42), LnkSta 2.5GT/s x4 (0x41) -> bus 01: 01:00.0 NIC LnkCap 5GT/s x4, LnkSta 2.5GT/s x4.',
 '00:1c.1 root port, LnkCap 5GT/s x4, LnkSta 5GT/s x1 (0x12) -> bus 02: 02:00.0 NIC LnkCap 5GT/s x4, LnkSta 5GT/s x1.',
 'Expected: both NICs downgraded true (speed, then width); root ports downgraded null.',
 '  01:00.0: 2.5 x 4 x 8/10 = 8 Gbit/s; 02:00.0: 5 x 1 x 8/10 = 4 Gbit/s; bottleneck at the root port (tie).'],
 [('00:1c.0', 'PCI bridge: synthetic root port 1', rp1), ('00:1c.1', 'PCI bridge: synthetic root port 2', rp2),
  ('01:00.0', 'Ethernet controller: synthetic NIC (speed downgraded)', n1),
  ('02:00.0', 'Ethernet controller: synthetic NIC (width downgraded)', n2)])

# F: per-hop minimum differs from slowest x narrowest
rp = Cfg(0x8086, 0x2032, 0x0604, hdr=1); rp.bridge(0, 1, 3, 0); rp.pcie(0x40, 4, 1, 16, 1, 16)
usp = Cfg(0x10b5, 0x9797, 0x0604, hdr=1); usp.bridge(1, 2, 3, 0); usp.pcie(0x40, 5, 1, 16, 1, 16)
dsp = Cfg(0x10b5, 0x9797, 0x0604, hdr=1); dsp.bridge(2, 3, 3, 0); dsp.pcie(0x40, 6, 4, 1, 4, 1)
nic = Cfg(0x8086, 0x1593, 0x0200); nic.pcie(0x40, 0, 4, 1, 4, 1, vec=0x0f)
write('synthetic-pcie-perhop-min.lspci', [
 'Synthetic: the limiting hop is not slowest speed x narrowest width. lspci -xxx format.',
 'Encodes: per-hop bandwidth = LnkSta speed x LnkSta width x encoding (8b/10b at 2.5 GT/s, 128b/130b at 16 GT/s;',
 '  PCIe Base 6.0 sec. 4.2), the minimum over the path as in the kernel pcie_bandwidth_available().',
 '00:01.0 root port LnkSta 2.5GT/s x16 (0x0101) -> 01:00.0 switch upstream port (type 5) 2.5GT/s x16 ->',
 '  02:00.0 switch downstream port (type 6) 16GT/s x1 (0x0014) -> 03:00.0 NIC 16GT/s x1.',
 'Expected: path [02:00.0, 01:00.0, 00:01.0] with 16 x 1 x 128/130 = 15.754, 2.5 x 16 x 0.8 = 32, 32 Gbit/s;',
 '  bottleneck 0000:02:00.0 at 15.754 Gbit/s (a tie with the NIC link goes to the root side),',
 '  not 2.5 GT/s x 1 lane x 0.8 = 2 Gbit/s.'],
 [('00:01.0', 'PCI bridge: synthetic root port', rp), ('01:00.0', 'PCI bridge: synthetic switch upstream port', usp),
  ('02:00.0', 'PCI bridge: synthetic switch downstream port', dsp), ('03:00.0', 'Ethernet controller: synthetic 16GT/s x1 NIC', nic)])

# G: virtio-net with full config space on an emulated conventional bus
vn = Cfg(0x1af4, 0x1000, 0x0200, status=0x0000)
write('synthetic-virtio-pci.lspci', [
 'Synthetic: a legacy virtio-net device on an emulated i440FX bus, full 256-byte config.',
 'Encodes: virtio 1.2 sec. 4.1.2 PCI Device Discovery, vendor 0x1af4, device 0x1000 (transitional network device);',
 '  Status 0x0000 (66MHz-, no capabilities); host bridge 8086:1237 on the same bus.',
 'Expected: virtual true, bus_kind "pci" (the emulated bus, reported honestly), bus_mhz null and no bottleneck:',
 '  a paravirtual device has no bus ceiling (never "PCI 33 MHz").'],
 [('00:00.0', 'Host bridge: synthetic i440FX', HOST()), ('00:03.0', 'Ethernet controller: synthetic virtio-net', vn)])

# ---- decoding edge cases ----
# H: reserved register encodings must not become numbers
n1 = Cfg(0x8086, 0x10d3, 0x0200)
n1.pcie(0x40, 0, 1, 4, 1, 3, ver=1, devctl=0x70c0)
n2 = Cfg(0x8086, 0x1572, 0x0200)
n2.pcie(0x40, 0, 3, 8, 3, 8, devctl=(2 << 12) | (1 << 5), vec=0x47)
write('synthetic-pcie-reserved-encodings.lspci', [
 'Synthetic: reserved encodings in PCIe registers. lspci -xxx format.',
 'Encodes: PCIe Base 6.0 sec. 7.5.3.4 Device Control: Max_Payload_Size bits 7:5 and Max_Read_Request_Size',
 '  bits 14:12, codes 0-5 = 128-4096 bytes, 6-7 reserved; sec. 7.5.3.8 Link Status Negotiated Link Width',
 '  bits 9:4: x1, x2, x4, x8, x12, x16, x32 defined, every other value reserved; sec. 7.5.3.18 Link',
 '  Capabilities 2 Supported Link Speeds Vector bits 7:1, bit 7 (an eighth speed) reserved.',
 '01:00.0 NIC, PCIe cap v1 at 0x40: DevCtl 0x70c0 (MPS code 6, MRRS code 7), LnkCap 0x00000041',
 '  (2.5GT/s x4), LnkSta 0x0031 (2.5GT/s, width code 3: reserved).',
 '02:00.0 NIC, PCIe cap v2 at 0x40: DevCtl 0x2020 (MPS 256, MRRS 512), LnkCap 0x00000083 (8GT/s x8),',
 '  LnkSta 0x0083, LnkCap2 0x0000008e (2.5, 5, 8 GT/s and the reserved bit 7).',
 'Expected: 01:00.0 mps_bytes, mrrs_bytes and link_width null (with warnings), link_speed_gts 2.5,',
 '  max_link_width 4, downgraded null (width unknown), no bottleneck; 02:00.0 max_link_speed_gts 8',
 '  (the highest defined speed of the vector), mps_bytes 256, mrrs_bytes 512.'],
 [('01:00.0', 'Ethernet controller: synthetic NIC with reserved DevCtl/LnkSta codes', n1),
  ('02:00.0', 'Ethernet controller: synthetic NIC with LnkCap2 bit 7 set', n2)])

# I: an unconfigured bridge (secondary bus 0, the reset value) is nobody's parent
hb = HOST()
b1 = Cfg(0x8086, 0x244e, 0x0604, hdr=1, status=0); b1.bridge(0, 3, 3, 0)
b2 = Cfg(0x104c, 0xac28, 0x0604, hdr=1, status=0); b2.bridge(0, 0, 0, 0)
nic = Cfg(0x8086, 0x100e, 0x0200, status=0)
write('synthetic-bridge-unconfigured.lspci', [
 'Synthetic: a bridge the firmware never numbered. lspci -xxx format.',
 'Encodes: PCI-to-PCI Bridge 1.2 sec. 3.2.5: Primary/Secondary/Subordinate Bus Number (0x18-0x1a) reset',
 '  to 0; a bridge leads to its secondary bus only when that bus is above its own (the kernel',
 '  pci_scan_bridge_extend() calls secondary <= own bus "bridge configuration invalid").',
 '00:00.0 host bridge 8086:1237; 00:1e.0 PCI bridge, buses 00/03/03; 03:00.0 PCI bridge, buses 00/00/00',
 '  (unconfigured); 00:19.0 NIC 8086:100e (conventional PCI, 66MHz-, no capabilities) on root bus 00.',
 'Expected: 00:19.0 path [] (it sits on the root bus: 03:00.0 leads nowhere), bus_kind pci, 33 MHz;',
 '  03:00.0 path [0000:00:1e.0].'],
 [('00:00.0', 'Host bridge: synthetic', hb), ('00:19.0', 'Ethernet controller: synthetic 82540EM', nic),
  ('00:1e.0', 'PCI bridge: synthetic PCI-to-PCI bridge', b1),
  ('03:00.0', 'PCI bridge: synthetic unconfigured bridge', b2)])

# J: a PCIe-to-PCI-X bridge drives a PCI-X segment that a second bridge sits on
rp = Cfg(0x8086, 0x27d0, 0x0604, hdr=1); rp.bridge(0, 1, 3, 0); rp.pcie(0x40, 4, 1, 1, 1, 1, ver=1)
b7 = Cfg(0x8086, 0x0329, 0x0604, hdr=1); b7.bridge(1, 2, 3, 0)
b7.pcie(0x40, 7, 1, 1, 1, 1, ver=1, nxt=0x80)
b7.w8(0x80, 0x07); b7.w8(0x81, 0x00); b7.w16(0x82, 3 << 6 | 1)
bx = Cfg(0x1014, 0x0188, 0x0604, hdr=1); bx.bridge(2, 3, 3, 0x0000)
bx.w8(0x34, 0x40); bx.w8(0x40, 0x07); bx.w8(0x41, 0x00); bx.w16(0x42, 0x0000)
nic = Cfg(0x8086, 0x100e, 0x0200, status=0x0200)
write('synthetic-pcie-to-pcix-bridge-chain.lspci', [
 'Synthetic: PCIe root port -> PCIe-to-PCI-X bridge -> PCI-X-to-PCI bridge',
 '  -> conventional NIC. lspci -xxx format.',
 'Encodes: PCIe Base 6.0 sec. 7.5.3.2 Device/Port Type 7 (PCI Express to PCI/PCI-X Bridge); PCI-X 2.0a',
 '  sec. 8.6.2.2 bridge Secondary Status bits 9:6 (3 = PCI-X 133) and bit 0 (64-bit); PCI-to-PCI Bridge 1.2',
 '  sec. 3.2.5.7 Secondary Status bit 5 (66 MHz capable).',
 '00:1c.0 root port (type 4), LnkSta 2.5GT/s x1, buses 00/01/03.',
 '01:00.0 PCIe-to-PCI-X bridge: PCIe cap v1 type 7 at 0x40 (LnkSta 2.5GT/s x1), PCI-X bridge cap at 0x80 with',
 '  Secondary Status 0x00c1 (PCI-X 133, 64-bit); buses 01/02/03.',
 '02:01.0 PCI-X-to-PCI bridge: PCI-X bridge cap at 0x40, Secondary Status 0x0000 (conventional, 32-bit);',
 '  config Secondary Status 0x0000 (66MHz-); buses 02/03/03.',
 '03:00.0 NIC 8086:100e, Status 0x0200 (66MHz-, no capabilities).',
 'Expected for 03:00.0: bus pci 33 MHz 32-bit; path [02:01.0 (its secondary: 33 1/3 x 32 = 1.067 Gbit/s),',
 '  01:00.0 (the PCI-X 133 64-bit segment it drives: 133 1/3 x 64 = 8.533 Gbit/s), 00:1c.0 (2.5 x 1 x 0.8',
 '  = 2 Gbit/s)]; bottleneck 0000:02:01.0 at 1.067 Gbit/s (a tie with its own segment goes to the root side).'],
 [('00:1c.0', 'PCI bridge: synthetic root port', rp), ('01:00.0', 'PCI bridge: synthetic PCIe-to-PCI-X bridge', b7),
  ('02:01.0', 'PCI bridge: synthetic PCI-X-to-PCI bridge', bx), ('03:00.0', 'Ethernet controller: synthetic 82540EM', nic)])

# L1 PM Substates in extended space, after another extended capability
rp = Cfg(0x8086, 0x2032, 0x0604, hdr=1, size=4096); rp.bridge(0, 1, 1, 0)
rp.pcie(0x40, 4, 3, 4, 3, 4, lnkctl=0x0002)
rp.w32(0x100, 0x1e | 1 << 16)           # L1 PM Substates v1, last in the list
rp.w32(0x108, 0x00000005)               # Control 1: PCI-PM L1.2 (bit 0), ASPM L1.2 (bit 2)
nic = Cfg(0x8086, 0x1533, 0x0200, size=4096)
nic.pcie(0x40, 0, 3, 4, 3, 4, lnkctl=0x0002)
nic.w32(0x100, 0x0001 | 2 << 16 | 0x150 << 20)   # AER v2, next 0x150
nic.w32(0x150, 0x0003 | 1 << 16 | 0x1c0 << 20)   # Device Serial Number, next 0x1c0
nic.w32(0x1c0, 0x1e | 1 << 16)                   # L1 PM Substates v1, last
nic.w32(0x1c8, 0x0000000a)                       # Control 1: PCI-PM L1.1 (bit 1), ASPM L1.1 (bit 3)
ep = Cfg(0x8086, 0x10d3, 0x0200, size=4096)
ep.pcie(0x40, 0, 1, 1, 1, 1)
ep.w32(0x100, 0x0001 | 2 << 16)                  # AER only: no L1 PM Substates capability
write('synthetic-pcie-l1pm-substates.lspci', [
 'Synthetic: L1 PM Substates where a reader must follow the extended capability list. lspci -xxxx format,',
 '  4096 bytes per device.',
 'Encodes: PCIe Base 6.0 sec. 7.6.3 extended capability header (id bits 15:0, next bits 31:20); sec. 7.8.3.3',
 '  L1 PM Substates Control 1: bit 0 PCI-PM L1.2 Enable, bit 1 PCI-PM L1.1 Enable, bit 2 ASPM L1.2 Enable,',
 '  bit 3 ASPM L1.1 Enable.',
 '00:1c.0 root port (type 4), LnkSta 8GT/s x4; L1 PM Substates at 0x100 (first and last), Control 1 0x00000005.',
 '01:00.0 NIC 8086:1533, endpoint, LnkSta 8GT/s x4; AER at 0x100 -> Device Serial Number at 0x150 -> L1 PM',
 '  Substates at 0x1c0 (last), Control 1 (0x1c8) 0x0000000a.',
 '02:00.0 NIC 8086:10d3, endpoint, LnkSta 2.5GT/s x1; AER at 0x100, the only extended capability.',
 'Expected: 00:1c.0 l1_substates [l1.2, pcipm-l1.2]; 01:00.0 [l1.1, pcipm-l1.1]; 02:00.0 [] (none: its',
 '  whole extended space is in the source and holds no L1 PM Substates capability).'],
 [('00:1c.0', 'PCI bridge: synthetic root port', rp), ('01:00.0', 'Ethernet controller: synthetic endpoint', nic),
  ('02:00.0', 'Ethernet controller: synthetic endpoint without L1 PM Substates', ep)])

# K: why a link runs below its capability, one root port and endpoint per cause (PCIe Base 5.0)
def rp_ep(n, cap_s, cap_w, sta_s, sta_w, ep_cap_s, ep_cap_w, lnkctl2, lnksta_bits=0, rp_lnksta2=0,
          ep_lnksta2=0, vec=0, ep_vec=0, rp_cor=None):
    rp = Cfg(0x8086, 0x2040 + n, 0x0604, hdr=1, size=4096); rp.bridge(0, n, n, 0)
    rp.pcie(0x40, 4, cap_s, cap_w, sta_s, sta_w, vec=vec, lnksta2=rp_lnksta2)
    rp.w16(0x52, sta_s | sta_w << 4 | lnksta_bits)
    rp.w16(0x70, lnkctl2)
    if rp_cor is not None:
        rp.w32(0x100, 0x00010001); rp.w32(0x110, rp_cor)  # AER v1, CE Status at +0x10
    ep = Cfg(0x8086, 0x1500 + n, 0x0200, size=4096)
    ep.pcie(0x40, 0, ep_cap_s, ep_cap_w, sta_s, sta_w, vec=ep_vec, lnksta2=ep_lnksta2)
    return [('00:%02x.0' % n, 'PCI bridge: synthetic root port %d' % n, rp),
            ('%02x:00.0' % n, 'Ethernet controller: synthetic endpoint %d' % n, ep)]
devs = [('00:00.0', 'Host bridge: synthetic host bridge', HOST())]
# 1: LnkCtl2 0x0023 = Target 8 GT/s (3), Hardware Autonomous Speed Disable (bit 5); both 8 GT/s x8, at 2.5
devs += rp_ep(1, 3, 8, 1, 8, 3, 8, 0x0023, vec=0x07, ep_vec=0x07, rp_lnksta2=0x02, ep_lnksta2=0x02)
# 2: LnkSta bit 15 LABS; Target 5 GT/s (2); both 5 GT/s x4, at 2.5
devs += rp_ep(2, 2, 4, 1, 4, 2, 4, 0x0002, lnksta_bits=0x8000, vec=0x03, ep_vec=0x03)
# 3: Target 8 GT/s; LnkSta bit 14 LBMS; LnkSta2 0 (Equalization 8.0 GT/s Complete clear); AER CE Status 0x81
devs += rp_ep(3, 3, 16, 2, 16, 3, 16, 0x0003, lnksta_bits=0x4000, vec=0x07, ep_vec=0x07, rp_lnksta2=0,
              ep_lnksta2=0x02, rp_cor=0x00000081)
# 4: both 5 GT/s x8, at 5 GT/s x4; Target 5 GT/s
devs += rp_ep(4, 2, 8, 2, 4, 2, 8, 0x0002, vec=0x03, ep_vec=0x03)
# 5: both 8 GT/s x4, at 5 GT/s x4; Target 5 GT/s (2)
devs += rp_ep(5, 3, 4, 2, 4, 3, 4, 0x0002, vec=0x07, ep_vec=0x07, rp_lnksta2=0x02, ep_lnksta2=0x02)
# 6: an empty slot: Slot Implemented, Physical Slot Number 7, Presence Detect clear, DLLLA reporting, x0
rp = Cfg(0x8086, 0x2046, 0x0604, hdr=1, size=4096); rp.bridge(0, 6, 6, 0)
rp.pcie(0x40, 4, 3, 16, 1, 0, vec=0x07)
rp.w16(0x42, 2 | 4 << 4 | 0x100)
rp.w32(0x4c, 3 | 16 << 4 | 1 << 20)
rp.w32(0x54, 7 << 19)
devs.append(('00:06.0', 'PCI bridge: synthetic root port 6 (empty slot)', rp))
write('synthetic-pcie-link-causes.lspci', [
    'Synthetic: one root port and endpoint per link cause. lspci -xxxx format (4096 bytes each).',
    'Encodes (PCIe Base 5.0): LnkCap 7.5.3.6 (speed 3:0, width 9:4, DLLLA Reporting bit 20), LnkSta 7.5.3.8',
    '  (LBMS bit 14, LABS bit 15, DLLLA bit 13), LnkCtl2 7.5.3.19 (Target Link Speed 3:0, HASD bit 5),',
    '  LnkCap2 7.5.3.18 vector, LnkSta2 7.5.3.20 (Equalization 8.0 GT/s Complete bit 1), Slot Implemented 7.5.3.2',
    '  bit 8, SltCap 7.5.3.9 (Physical Slot Number 31:19), SltSta 7.5.3.11 (Presence Detect bit 6), AER',
    '  7.8.4 (Correctable Error Status at +0x10: Receiver Error bit 0, Bad DLLP bit 7).',
    '00:01.0/01:00.0: both 8 GT/s x8, LnkSta 2.5 GT/s x8, RP LnkCtl2 0x0023 (target 8, HASD) -> autonomous-disabled',
    '00:02.0/02:00.0: both 5 GT/s x4, LnkSta 2.5 x4 with LABS, target 5 -> power-managed',
    '00:03.0/03:00.0: both 8 GT/s x16, LnkSta 5 x16 with LBMS, target 8, RP LnkSta2 Eq 8.0 Complete clear,',
    '  RP AER CE Status 0x00000081 (Receiver Error, Bad DLLP) -> reliability',
    '00:04.0/04:00.0: both 5 GT/s x8, LnkSta 5 x4, target 5 -> lanes-lost',
    '00:05.0/05:00.0: both 8 GT/s x4, LnkSta 5 x4, target 5 GT/s -> target-capped',
    '00:06.0: root port with a slot (Physical Slot Number 7), Presence Detect clear, DLLLA clear, x0, nothing',
    '  on bus 06 -> empty slot capable of 8 GT/s x16 (LnkCap2 vector 0x07: 2.5, 5, 8 GT/s)',
], devs)

# ---- bad inputs ----
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bad')
os.makedirs(OUT, exist_ok=True)

def cfg(status=0x0000, size=256):
    b = bytearray(size)
    b[0:4] = bytes([0x86, 0x80, 0x0e, 0x10])  # 8086:100e 82540EM
    b[4:6] = struct.pack('<H', 0x0007); b[6:8] = struct.pack('<H', status)
    b[8] = 2; b[0x0a:0x0c] = struct.pack('<H', 0x0200)
    return b

def rows(b):
    out = []
    for r in range(0, len(b), 16):
        off = '%02x' % r if r < 256 else '%03x' % r
        out.append(off + ': ' + ' '.join('%02x' % x for x in b[r:r+16]))
    return out

SLOT = '00:03.0 Ethernet controller: synthetic 82540EM'

def write(name, what, expect, body, raw=None):
    hdr = ['# Synthetic bad input: ' + what,
           '# Expected: exit 3 and "' + name + ':' + expect + '".',
           '# Based on a valid 82540EM (8086:100e) in lspci -xxx format; the slot line is line 4.']
    data = ('\n'.join(hdr) + '\n').encode() + (raw if raw is not None else ('\n'.join(body) + '\n').encode())
    open(os.path.join(OUT, name), 'wb').write(data)

r = rows(cfg())
write('synthetic-bad-truncated-row.lspci', 'row 0x20 (line 7) holds 12 bytes instead of 16',
      '7:40: 12 bytes on this row: expected 16', [SLOT] + r[:2] + [r[2][:3 + 12 * 3]] + r[3:])
x = list(r); x[1] = x[1][:19] + 'zz' + x[1][21:]
write('synthetic-bad-nonhex.lspci', 'byte 5 of row 0x10 (line 6) is "zz"',
      "6:20: 'z' is not a hex digit", [SLOT] + x)
x = list(r); x[0] = x[0][:10] + x[0][11:]
write('synthetic-bad-odd-digits.lspci', 'byte 2 of row 0x00 (line 5) has one hex digit ("e" for "0e")',
      "5:11: 'e' has 1 hex digit: expected two per byte", [SLOT] + x)
write('synthetic-bad-offset-order.lspci', 'rows 0x00, 0x10, then 0x30 (line 7): 0x20 is missing',
      '7:1: offset 0x30 out of order: expected 0x20', [SLOT] + r[:2] + r[3:])
write('synthetic-bad-offset-4096.lspci', 'after rows 0x00-0x30 comes row 0x1000 (line 9), past config space',
      '9:1: offset 0x1000 is past the 4096 bytes', [SLOT] + r[:4] + ['1000: ' + ' '.join(['00'] * 16)])
write('synthetic-bad-duplicate-slot.lspci', 'slot 00:03.0 appears twice (lines 4 and 22)',
      '22:1: duplicate slot 00:03.0 (first at line 4)', [SLOT] + r + [''] + [SLOT] + r)
write('synthetic-bad-binary.lspci', 'binary data (an ELF header) after the comments, line 4',
      '4:1: binary byte 0x7f', None, raw=b'\x7fELF\x02\x01\x01\x00\x00\x00\n')
write('synthetic-bad-no-device.lspci', 'only comments, no device', '3:1: no device in the file', None, raw=b'')
# the file is 3 comment lines: "no device" is reported at the last line
b = cfg(status=0x0010); b[0x34] = 0x40; b[0x40] = 0x01; b[0x41] = 0x50; b[0x50] = 0x05; b[0x51] = 0x40
write('synthetic-bad-cap-loop.lspci', 'capability list 0x40 -> 0x50 -> 0x40 loops (pointer at offset 0x51, line 10)',
      '10:8: 0000:00:03.0: capability list loops back to 0x40', [SLOT] + rows(b))
b = cfg(status=0x0010); b[0x34] = 0x20
write('synthetic-bad-cap-into-header.lspci', 'capability pointer at 0x34 (line 8) is 0x20, inside the header',
      '8:17: 0000:00:03.0: capability pointer 0x20 points into the header', [SLOT] + rows(b))
b = cfg(status=0x0010, size=4096); b[0x34] = 0x40
b[0x40] = 0x10; b[0x42:0x44] = struct.pack('<H', 2)      # PCIe cap v2, endpoint
b[0x4c:0x50] = struct.pack('<I', 0x11); b[0x52:0x54] = struct.pack('<H', 0x11)  # 2.5GT/s x1
b[0x100:0x104] = struct.pack('<I', 0x0001 | 1 << 16 | 0x080 << 20)  # AER, next 0x080
write('synthetic-bad-extcap-outside.lspci', 'extended capability at 0x100 points to 0x080, below extended config space (line 21)',
      '21:12: 0000:00:03.0: extended capability pointer 0x080 is outside extended config space', [SLOT] + rows(b))
b = bytearray([0xff] * 256)
write('synthetic-bad-ffff.lspci', 'the device reads all ones: vendor 0xffff (line 5)',
      '5:5: 0000:00:03.0: vendor id reads 0xffff', [SLOT] + rows(b))
write('synthetic-bad-truncated-dump.lspci', 'the device dump stops after row 0x80 (144 bytes, line 13)',
      '13:51: config dump of 0000:00:03.0 stops after 144 bytes', [SLOT] + r[:9])
write('synthetic-bad-unterminated.lspci', 'the last row (0xf0, line 20) has no newline: a cut file',
      '20:52: last line has no newline', None, raw=('\n'.join([SLOT] + r)).encode())
write('synthetic-bad-long-line.lspci', 'an lspci -v line (line 5) of 300 characters, beyond libpci\'s 253',
      '5:254: line longer than 253 characters', [SLOT, '\t' + 'x' * 299] + r)
x = list(r); x[3] = 'zz' + x[3][2:]
write('synthetic-bad-nonhex-offset.lspci', 'row 0x30 (line 8) starts with the offset "zz"',
      "8:1: unexpected text: expected a hex row", [SLOT] + x)

# dumps whose fault needs a longer description (the text goes to the end of the file)
def write_f(name, what, expect, body):
    # three header lines, so the first slot line is line 4; the long "what" goes to a comment
    # block at the end of the file, wrapped (libpci takes at most 253 characters per line)
    import textwrap
    hdr = ['# Synthetic bad input; what it encodes: see the end of the file.',
           '# Expected: exit 3 and "' + name + ':' + expect + '".',
           '# lspci -xxx format, 256 bytes per device unless said; the first slot line is line 4.']
    tail = ['', '# What this file encodes:'] + ['#   ' + l for l in textwrap.wrap(what, 100)]
    open(os.path.join(OUT, name), 'w').write('\n'.join(hdr + body + tail) + '\n')

write_f('synthetic-bad-line-254.lspci', 'line 5 holds 254 characters: libpci reads lines with '
        'fgets(buf, 255), so 253 before the newline is the most it takes (lib/dump.c)',
        '5:254: line longer than 253 characters', [SLOT, '\t' + 'x' * 253] + r)
x = list(r); x[1] = x[1] + '  '
write_f('synthetic-bad-trailing-spaces.lspci', 'row 0x10 (line 6) ends in two spaces; libpci '
        '(lib/dump.c) takes one character after a byte and fails with "Malformed line" on the second',
        '6:53: trailing spaces after the 16th byte', [SLOT] + x)
b = cfg(); b[0x0e] = 0x05
write_f('synthetic-bad-header-type.lspci', 'header type (config 0x0e, line 5 column 47) is 0x05; PCI LB 3.0 '
        'sec. 6.2.1 defines 0 (normal), 1 (PCI-to-PCI bridge), 2 (CardBus); lspci says "Unknown header type"',
        '5:47: 0000:00:03.0: header type 0x05', [SLOT] + rows(b))
b = cfg(status=0x0010); b[0x34] = 0xfc; b[0xfc] = 0x07; b[0xfd] = 0x00
write_f('synthetic-bad-pcix-cap-past-ff.lspci', 'a PCI-X capability (id 7) at 0xfc (line 20 column 41): its '
        'Command and Status registers (8 bytes, PCI-X 2.0a sec. 7.2) would end past 0xff',
        '20:41: 0000:00:03.0: PCI-X capability at 0xfc needs 0x08 bytes', [SLOT] + rows(b))
b = cfg(status=0x0010, size=4096); b[0x34] = 0xe0; b[0xe0] = 0x10; b[0xe2:0xe4] = struct.pack('<H', 2)
b[0xec:0xf0] = struct.pack('<I', 0x41); b[0xf2:0xf4] = struct.pack('<H', 0x41)
b[0x10c:0x110] = struct.pack('<I', 0x3e)  # what a reader of "LnkCap2" at 0xe0 + 0x2c would see
write_f('synthetic-bad-pcie-cap-past-ff.lspci', 'a PCI Express capability v2 at 0xe0 (line 19 column 5) in a '
        '4096-byte dump: through Link Status 2 it needs 0x34 bytes (PCIe Base 6.0 sec. 7.5.3) and would read '
        'extended config space (0x100-0x113) as its own registers; 4096 bytes, rows 0x100 on have 3-digit offsets',
        '19:5: 0000:00:03.0: PCI Express capability at 0xe0 needs 0x34 bytes', [SLOT] + rows(b))

def bridge(pri, sec, sub):
    b = cfg(); b[0x0a:0x0c] = struct.pack('<H', 0x0604); b[0x0e] = 1
    b[0x18], b[0x19], b[0x1a] = pri, sec, sub
    return b

write_f('synthetic-bad-bridge-loop.lspci', 'bridge 01:00.0 leads to bus 02 and bridge 02:00.0 (line 22) back to '
        'bus 01: its secondary bus (0x19, line 24 column 32) is below its own bus, which the kernel calls '
        '"bridge configuration invalid" (drivers/pci/probe.c pci_scan_bridge_extend)',
        '24:32: 0000:02:00.0: bridge bus numbers secondary 01, subordinate 01 on bus 02',
        ['01:00.0 PCI bridge: synthetic bridge (buses 01/02/02)'] + rows(bridge(1, 2, 2)) + [''] +
        ['02:00.0 PCI bridge: synthetic bridge (buses 02/01/01)'] + rows(bridge(2, 1, 1)))
write_f('synthetic-bad-bridge-dup-secondary.lspci', 'bridges 00:1c.0 and 00:1c.1 (line 22) both give secondary '
        'bus 01 (0x19, line 24 column 32): a bus sits below one bridge (PCI-to-PCI Bridge 1.2 sec. 3.2.5)',
        '24:32: 0000:00:1c.1: secondary bus 01 is also the secondary bus of bridge 0000:00:1c.0',
        ['00:1c.0 PCI bridge: synthetic bridge (buses 00/01/01)'] + rows(bridge(0, 1, 1)) + [''] +
        ['00:1c.1 PCI bridge: synthetic bridge (buses 00/01/01)'] + rows(bridge(0, 1, 1)))

open(os.path.join(OUT, 'synthetic-bad-empty.lspci'), 'wb').write(b'')
open(os.path.join(OUT, 'README.md'), 'w').write('''# Synthetic bad dumps

Each `synthetic-bad-*.lspci` here is one malformed `lspci -x/-xxx/-xxxx` dump; its header says what is
wrong and the `file:line:column` message `pcibw report --dump` must give (exit code 3).
`synthetic-bad-empty.lspci` is the one file without a header: it is empty on purpose (0 bytes);
expected `synthetic-bad-empty.lspci:1:1: empty file`. tests/probe/test_dump_bad.c checks them all.
''')
