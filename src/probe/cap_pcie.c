/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI Express capability (id 0x10), PCIe Base 6.0 sec. 7.5.3: port type, Device Control (MPS,
 * MRRS, relaxed ordering, extended tags), Link Capabilities/Control/Status, and the version-2
 * registers (Device Control 2 10-bit tags, Link Capabilities 2 speeds vector, Link Status 2
 * Flit mode). */
#include "cfg_access.h"
#include "probe_int.h"
#include <math.h>

/* Register offsets, masks and Device/Port Types are libpci's (<pci/header.h>, through
 * pcibw/busfacts.h), after PCIe Base 6.0 Figure 7-20. */

/* Link speed codes of LnkCap/LnkSta, and bit positions of the LnkCap2 Supported Link Speeds
 * vector (sec. 7.5.3.6, 7.5.3.18): code = generation, 1 = 2.5 GT/s ... 6 = 64 GT/s. */
static double speed_gts(unsigned code)
{
	return pcibw_pcie_gen_gts((int)code);
}

/* Link Capabilities exit latencies (sec. 7.5.3.6): code 0-6 is "less than" the bound returned
 * here; 7 is open-ended (L0s "more than 4 us", L1 "more than 64 us"), PCIBW_NULL. */
static int l0s_exit_ns(unsigned code)
{
	static const int ns[] = {64, 128, 256, 512, 1000, 2000, 4000};
	return code < 7 ? ns[code] : PCIBW_NULL;
}

static int l1_exit_ns(unsigned code)
{
	return code < 7 ? 1000 << code : PCIBW_NULL;
}

/* lspci's rule (ls-caps.c link_compare): ports that face downstream (root, downstream, and a
 * PCI/PCI-X-to-PCIe bridge's PCIe side) are never called downgraded, since the far end may be
 * empty or slower. Anything else trained below its LnkCap speed or width is. */
static int downgraded(int type, unsigned sta_speed, unsigned cap_speed, unsigned sta_w, unsigned cap_w)
{
	if (pcibw_pcie_type_faces_downstream(type))
		return PCIBW_NULL;
	if (!sta_speed || !cap_speed || !sta_w || !cap_w || sta_speed > PCIBW_PCIE_GEN_MAX ||
	    cap_speed > PCIBW_PCIE_GEN_MAX)
		return PCIBW_NULL;
	return sta_speed < cap_speed || sta_w < cap_w;
}

void probe_cap_pcie(struct probe_node *n, int at, const char *origin, struct pcibw_report *rep)
{
	struct pcibw_device *d = &n->d;
	const struct probe_cfg *c = &n->cfg;
	if (!cfg_has(c, at, 0x0c))
		return;
	unsigned flags = cfg16(c, at + PCI_EXP_FLAGS);
	int version = (int)(flags & PCI_EXP_FLAGS_VERS);
	int type = (int)((flags & PCI_EXP_FLAGS_TYPE) >> 4);
	d->pcie_port_type = type;
	d->bus_kind = PCIBW_BUS_PCIE;
	pcibw_device_set_prov(d, "bus_kind", origin);
	if (pcibw_pcie_type_bridge(type))
		d->is_bridge = true;

	unsigned devctl = cfg16(c, at + PCI_EXP_DEVCTL);
	unsigned mps = (devctl & PCI_EXP_DEVCTL_PAYLOAD) >> 5, mrrs = (devctl & PCI_EXP_DEVCTL_READRQ) >> 12;
	/* 0-5 = 128-4096 bytes; 6 and 7 are reserved (sec. 7.5.3.4) */
	d->mps_bytes = mps <= 5 ? 128 << mps : PCIBW_NULL;
	d->mrrs_bytes = mrrs <= 5 ? 128 << mrrs : PCIBW_NULL;
	if (mps > 5)
		pcibw_report_warn(rep, d->slot, "reserved-encoding",
				  "Device Control 0x%04x: Max_Payload_Size code %u is "
				  "reserved (PCIe Base 6.0 sec. 7.5.3.4: 0-5 = 128-4096 bytes): left "
				  "unknown",
				  devctl, mps);
	if (mrrs > 5)
		pcibw_report_warn(rep, d->slot, "reserved-encoding",
				  "Device Control 0x%04x: Max_Read_Request_Size code %u is "
				  "reserved (PCIe Base 6.0 sec. 7.5.3.4: 0-5 = 128-4096 bytes): left "
				  "unknown",
				  devctl, mrrs);
	/* Device Capabilities Max_Payload_Size Supported, same encoding (sec. 7.5.3.3) */
	unsigned mps_cap = cfg32(c, at + PCI_EXP_DEVCAP) & PCI_EXP_DEVCAP_PAYLOAD;
	d->mps_supported_bytes = mps_cap <= 5 ? 128 << mps_cap : PCIBW_NULL;
	if (mps_cap > 5)
		pcibw_report_warn(rep, d->slot, "reserved-encoding",
				  "Device Capabilities: Max_Payload_Size Supported code %u is reserved "
				  "(PCIe Base 6.0 sec. 7.5.3.3: 0-5 = 128-4096 bytes): left unknown",
				  mps_cap);
	else
		pcibw_device_set_prov(d, "mps_supported_bytes", origin);
	d->relaxed_ordering = !!(devctl & PCI_EXP_DEVCTL_RELAXED);
	d->ext_tags = !!(devctl & PCI_EXP_DEVCTL_EXT_TAG);
	if (mps <= 5)
		pcibw_device_set_prov(d, "mps_bytes", origin);
	if (mrrs <= 5)
		pcibw_device_set_prov(d, "mrrs_bytes", origin);

	if (pcibw_pcie_type_rc_integrated(type))
		return; /* no link, so no Link registers */
	if (!cfg_has(c, at, PCI_EXP_LNKSTA + 2))
		return;

	uint32_t lnkcap = cfg32(c, at + PCI_EXP_LNKCAP);
	unsigned lnkctl = cfg16(c, at + PCI_EXP_LNKCTL);
	unsigned lnksta = cfg16(c, at + PCI_EXP_LNKSTA);
	unsigned cap_speed = lnkcap & PCI_EXP_LNKCAP_SPEED, cap_w = (lnkcap & PCI_EXP_LNKCAP_WIDTH) >> 4;
	unsigned sta_speed = lnksta & PCI_EXP_LNKSTA_SPEED, sta_w = (lnksta & PCI_EXP_LNKSTA_WIDTH) >> 4;
	d->rcb_bytes = lnkctl & PCI_EXP_LNKCTL_RCB ? 128 : 64;
	/* ASPM (sec. 7.5.3.6-7): Support bits 11:10, exit latencies 14:12 and 17:15; Control bits
	 * 1:0 and Enable Clock Power Management, bit 8 */
	d->aspm_supported = (int)((lnkcap & PCI_EXP_LNKCAP_ASPM) >> 10);
	d->aspm = (int)(lnkctl & PCI_EXP_LNKCTL_ASPM);
	/* a latency means something only for a supported state (lspci prints no other) */
	if (d->aspm_supported & PCIBW_ASPM_L0S)
		d->l0s_exit_latency_ns = l0s_exit_ns((lnkcap & PCI_EXP_LNKCAP_L0S) >> 12);
	if (d->aspm_supported & PCIBW_ASPM_L1)
		d->l1_exit_latency_ns = l1_exit_ns((lnkcap & PCI_EXP_LNKCAP_L1) >> 15);
	d->clock_pm = !!(lnkctl & PCI_EXP_LNKCTL_CLOCKPM);
	n->lnkcap = lnkcap;
	n->lnkcap_read = true;
	/* widths x1, x2, x4, x8, x12, x16, x32; x0 (LnkSta: no link trained, or not reported
	 * by on-chip devices) and the reserved encodings become null */
	if (sta_w && !pcibw_pcie_width_ok((int)sta_w))
		pcibw_report_warn(rep, d->slot, "reserved-encoding",
				  "Link Status 0x%04x: width x%u is a reserved encoding "
				  "(PCIe Base 6.0 sec. 7.5.3.8: x1, x2, x4, x8, x12, x16, x32): left "
				  "unknown",
				  lnksta, sta_w);
	if (cap_w && !pcibw_pcie_width_ok((int)cap_w))
		pcibw_report_warn(rep, d->slot, "reserved-encoding",
				  "Link Capabilities 0x%08x: width x%u is a reserved "
				  "encoding (PCIe Base 6.0 sec. 7.5.3.6: x1, x2, x4, x8, x12, x16, x32): "
				  "left unknown",
				  (unsigned)lnkcap, cap_w);
	if (!pcibw_pcie_width_ok((int)sta_w))
		sta_w = 0;
	if (!pcibw_pcie_width_ok((int)cap_w))
		cap_w = 0;
	d->link_speed_gts = speed_gts(sta_speed);
	d->link_width = sta_w ? (int)sta_w : PCIBW_NULL;
	d->max_link_speed_gts = speed_gts(cap_speed);
	d->max_link_width = cap_w ? (int)cap_w : PCIBW_NULL;
	d->downgraded = downgraded(type, sta_speed, cap_speed, sta_w, cap_w);
	/* the bits a link cause reads (PCIe Base 5.0 sec. 7.5.3.2, 7.5.3.8): LBMS and LABS, Data
	 * Link Layer Link Active only where LnkCap says the port reports it */
	d->lreg.lbms = !!(lnksta & PCI_EXP_LNKSTA_BWMGMT);
	d->lreg.labs = !!(lnksta & PCI_EXP_LNKSTA_AUTBW);
	if (lnkcap & PCI_EXP_LNKCAP_DLLA)
		d->lreg.dll_active = !!(lnksta & PCI_EXP_LNKSTA_DL_ACT);
	d->lreg.slot_implemented = !!(flags & PCI_EXP_FLAGS_SLOT);
	/* Slot Capabilities and Slot Status are there only for a port with a slot (sec. 7.5.3.9,
	 * 7.5.3.11) */
	if (d->lreg.slot_implemented && pcibw_pcie_type_faces_downstream(type)) {
		d->lreg.physical_slot = (int)((cfg32(c, at + PCI_EXP_SLTCAP) & PCI_EXP_SLTCAP_PSN) >> 19);
		d->lreg.presence = !!(cfg16(c, at + PCI_EXP_SLTSTA) & PCI_EXP_SLTSTA_PRES);
	}

	if (version >= 2 && cfg_has(c, at, PCI_EXP_LNKSTA2 + 2)) {
		unsigned devctl2 = cfg16(c, at + PCI_EXP_DEVCTL2);
		uint32_t lnkcap2 = cfg32(c, at + PCI_EXP_LNKCAP2);
		unsigned lnksta2 = cfg16(c, at + PCI_EXP_LNKSTA2);
		d->tags_10bit = !!(devctl2 & PCI_EXP_DEVCTL2_10BIT_TAG_REQ);
		/* Supported Link Speeds Vector, bits 7:1; bits 6:1 = 2.5 ... 64 GT/s, bit 7 is
		 * reserved (no speed defined) and ignored */
		unsigned vec = PCI_EXP_LNKCAP2_SPEED(lnkcap2) & 0x3f;
		if (vec) {
			int top = 0;
			for (int b = 0; b < PCIBW_PCIE_GEN_MAX; b++)
				if (vec >> b & 1)
					top = b + 1;
			d->max_link_speed_gts = speed_gts((unsigned)top);
		}
		d->flit_mode = (int)(lnksta2 >> 10 & 1); /* Flit Mode Status, PCIe 6.0 7.5.3.20 */
		/* Link Control 2 (sec. 7.5.3.19): Target Link Speed, a speed code as LnkCap's (0
		 * and the reserved codes: unknown), and Hardware Autonomous Speed Disable */
		unsigned lnkctl2 = cfg16(c, at + PCI_EXP_LNKCTL2);
		d->lreg.target_speed_gts = speed_gts(PCI_EXP_LNKCTL2_SPEED(lnkctl2));
		d->lreg.hasd = !!(lnkctl2 & PCI_EXP_LNKCTL2_SPEED_DIS);
		/* Equalization 8.0 GT/s Complete (sec. 7.5.3.20): meaningful only where the port
		 * supports 8 GT/s or more */
		if (vec >> 2 || cap_speed >= 3)
			d->lreg.eq_8gt_complete = !!(lnksta2 & PCI_EXP_LINKSTA2_EQU_COMP);
	}
	const char *f[] = {
	    "link_speed_gts", "link_width", "max_link_speed_gts", "max_link_width",	 "downgraded",
	    "rcb_bytes",      "aspm",	    "aspm_supported",	  "l0s_exit_latency_ns", "l1_exit_latency_ns",
	    "clock_pm"};
	for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++)
		pcibw_device_set_prov(d, f[i], origin);
}
