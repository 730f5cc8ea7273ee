/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PCI Express capability (id 0x10), PCIe Base 6.0 sec. 7.5.3: port type, Device Control (MPS,
 * MRRS, relaxed ordering, extended tags), Link Capabilities/Control/Status, and the version-2
 * registers (Device Control 2 10-bit tags, Link Capabilities 2 speeds vector, Link Status 2
 * Flit mode). */
#include "cfg_access.h"
#include "probe_int.h"
#include <math.h>

enum { /* register offsets from the capability, PCIe Base 6.0 Figure 7-20 */
       EXP_FLAGS = 0x02,
       EXP_DEVCTL = 0x08,
       EXP_LNKCAP = 0x0c,
       EXP_LNKCTL = 0x10,
       EXP_LNKSTA = 0x12,
       EXP_DEVCTL2 = 0x28,
       EXP_LNKCAP2 = 0x2c,
       EXP_LNKSTA2 = 0x32,
};

/* Device/Port Type (PCIe Base 6.0 sec. 7.5.3.2). */
enum {
	T_ENDPOINT = 0,
	T_LEG_END = 1,
	T_ROOT_PORT = 4,
	T_UPSTREAM = 5,
	T_DOWNSTREAM = 6,
	T_PCIE_TO_PCI = 7,
	T_PCI_TO_PCIE = 8,
	T_RC_END = 9,
	T_RC_EC = 10
};

/* Link speed codes of LnkCap/LnkSta, and bit positions of the LnkCap2 Supported Link Speeds
 * vector (sec. 7.5.3.6, 7.5.3.18): 1 = 2.5 GT/s ... 6 = 64 GT/s. */
static double speed_gts(unsigned code)
{
	static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
	return code >= 1 && code <= 6 ? gts[code] : NAN;
}

/* Link widths defined for LnkCap Maximum Link Width and LnkSta Negotiated Link Width
 * (sec. 7.5.3.6, 7.5.3.8); every other encoding is reserved. */
static bool width_ok(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8 || w == 12 || w == 16 || w == 32;
}

/* lspci's rule (ls-caps.c link_compare): ports that face downstream (root, downstream, and a
 * PCI/PCI-X-to-PCIe bridge's PCIe side) are never called downgraded, since the far end may be
 * empty or slower. Anything else trained below its LnkCap speed or width is. */
static int downgraded(int type, unsigned sta_speed, unsigned cap_speed, unsigned sta_w, unsigned cap_w)
{
	if (type == T_ROOT_PORT || type == T_DOWNSTREAM || type == T_PCI_TO_PCIE)
		return PCIBW_NULL;
	if (!sta_speed || !cap_speed || !sta_w || !cap_w || sta_speed > 6 || cap_speed > 6)
		return PCIBW_NULL;
	return sta_speed < cap_speed || sta_w < cap_w;
}

void probe_cap_pcie(struct probe_node *n, int at, const char *origin, struct pcibw_report *rep)
{
	struct pcibw_device *d = &n->d;
	const struct probe_cfg *c = &n->cfg;
	if (!cfg_has(c, at, 0x0c))
		return;
	unsigned flags = cfg16(c, at + EXP_FLAGS);
	int version = (int)(flags & 0xf);
	int type = (int)(flags >> 4 & 0xf);
	d->pcie_port_type = type;
	d->bus_kind = PCIBW_BUS_PCIE;
	pcibw_device_set_prov(d, "bus_kind", origin);
	if (type == T_ROOT_PORT || type == T_DOWNSTREAM || type == T_UPSTREAM)
		d->is_bridge = true;

	unsigned devctl = cfg16(c, at + EXP_DEVCTL);
	unsigned mps = devctl >> 5 & 7, mrrs = devctl >> 12 & 7; /* DevCtl bits 7:5, 14:12 */
	/* 0-5 = 128-4096 bytes; 6 and 7 are reserved (sec. 7.5.3.4) */
	d->mps_bytes = mps <= 5 ? 128 << mps : PCIBW_NULL;
	d->mrrs_bytes = mrrs <= 5 ? 128 << mrrs : PCIBW_NULL;
	if (mps > 5)
		pcibw_report_warn(rep,
				  "%s: Device Control 0x%04x: Max_Payload_Size code %u is "
				  "reserved (PCIe Base 6.0 sec. 7.5.3.4: 0-5 = 128-4096 bytes): left "
				  "unknown",
				  d->slot, devctl, mps);
	if (mrrs > 5)
		pcibw_report_warn(rep,
				  "%s: Device Control 0x%04x: Max_Read_Request_Size code %u is "
				  "reserved (PCIe Base 6.0 sec. 7.5.3.4: 0-5 = 128-4096 bytes): left "
				  "unknown",
				  d->slot, devctl, mrrs);
	d->relaxed_ordering = (int)(devctl >> 4 & 1);
	d->ext_tags = (int)(devctl >> 8 & 1);
	if (mps <= 5)
		pcibw_device_set_prov(d, "mps_bytes", origin);
	if (mrrs <= 5)
		pcibw_device_set_prov(d, "mrrs_bytes", origin);

	if (type == T_RC_END || type == T_RC_EC)
		return; /* Root Complex integrated: no link, so no Link registers */
	if (!cfg_has(c, at, 0x14))
		return;

	uint32_t lnkcap = cfg32(c, at + EXP_LNKCAP);
	unsigned lnkctl = cfg16(c, at + EXP_LNKCTL);
	unsigned lnksta = cfg16(c, at + EXP_LNKSTA);
	unsigned cap_speed = lnkcap & 0xf, cap_w = lnkcap >> 4 & 0x3f;
	unsigned sta_speed = lnksta & 0xf, sta_w = lnksta >> 4 & 0x3f;
	d->rcb_bytes = lnkctl & 0x8 ? 128 : 64; /* LnkCtl bit 3 */
	/* widths x1, x2, x4, x8, x12, x16, x32; x0 (LnkSta: no link trained, or not reported
	 * by on-chip devices) and the reserved encodings become null */
	if (sta_w && !width_ok(sta_w))
		pcibw_report_warn(rep,
				  "%s: Link Status 0x%04x: width x%u is a reserved encoding "
				  "(PCIe Base 6.0 sec. 7.5.3.8: x1, x2, x4, x8, x12, x16, x32): left "
				  "unknown",
				  d->slot, lnksta, sta_w);
	if (cap_w && !width_ok(cap_w))
		pcibw_report_warn(rep,
				  "%s: Link Capabilities 0x%08x: width x%u is a reserved "
				  "encoding (PCIe Base 6.0 sec. 7.5.3.6: x1, x2, x4, x8, x12, x16, x32): "
				  "left unknown",
				  d->slot, (unsigned)lnkcap, cap_w);
	if (!width_ok(sta_w))
		sta_w = 0;
	if (!width_ok(cap_w))
		cap_w = 0;
	d->link_speed_gts = speed_gts(sta_speed);
	d->link_width = sta_w ? (int)sta_w : PCIBW_NULL;
	d->max_link_speed_gts = speed_gts(cap_speed);
	d->max_link_width = cap_w ? (int)cap_w : PCIBW_NULL;
	d->downgraded = downgraded(type, sta_speed, cap_speed, sta_w, cap_w);

	if (version >= 2 && cfg_has(c, at, EXP_LNKSTA2 + 2)) {
		unsigned devctl2 = cfg16(c, at + EXP_DEVCTL2);
		uint32_t lnkcap2 = cfg32(c, at + EXP_LNKCAP2);
		unsigned lnksta2 = cfg16(c, at + EXP_LNKSTA2);
		d->tags_10bit = (int)(devctl2 >> 12 & 1); /* 10-Bit Tag Requester Enable */
		/* Supported Link Speeds Vector, bits 7:1; bits 6:1 = 2.5 ... 64 GT/s, bit 7 is
		 * reserved (no speed defined) and ignored */
		unsigned vec = lnkcap2 >> 1 & 0x3f;
		if (vec) {
			int top = 0;
			for (int b = 0; b < 6; b++)
				if (vec >> b & 1)
					top = b + 1;
			d->max_link_speed_gts = speed_gts((unsigned)top);
		}
		d->flit_mode = (int)(lnksta2 >> 10 & 1); /* Flit Mode Status, PCIe 6.0 7.5.3.20 */
	}
	const char *f[] = {"link_speed_gts", "link_width", "max_link_speed_gts",
			   "max_link_width", "downgraded", "rcb_bytes"};
	for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++)
		pcibw_device_set_prov(d, f[i], origin);
}
