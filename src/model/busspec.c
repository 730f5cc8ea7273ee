/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `--bus SPEC` grammar (doc/cli-contract.md, "Bus spec") and the raw rate of a bus.
 * Every rejection names the part of the spec that is wrong and what would have been right.
 */
#include "pcibw/bus.h"
#include "pcibw/number.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* PCIe Base 6.0 sec. 7.5.3.4 Device Control: Max_Payload_Size / Max_Read_Request_Size 128..4096. */
static const int pow2_sizes[] = {128, 256, 512, 1024, 2048, 4096};
/* PCI-X Addendum 2.0 sec. 7.2.3 Command register: MMRBC 512 << field; max outstanding splits. */
static const int mmrbc_sizes[] = {512, 1024, 2048, 4096};
static const int split_counts[] = {1, 2, 3, 4, 8, 12, 16, 32};
/* Link Control ASPM Control (PCIe Base 6.0 sec. 7.5.3.7): 00 off, 01 L0s, 10 L1, 11 both. */
static const char *const aspm_names[] = {"off", "l0s", "l1", "l0s-l1"};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static bool in_list(int v, const int *list, int n)
{
	for (int i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

static void list_text(char *buf, size_t len, const int *list, int n)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "", list[i]);
}

/* A whole decimal integer, no sign, no junk, no overflow. */
static bool parse_int(const char *s, size_t n, long *out)
{
	double v;
	if (pcibw_number_scan(s, n, PCIBW_NUM_INTEGER, &v) != PCIBW_NUM_OK || v > INT_MAX)
		return false;
	*out = (long)v;
	return true;
}

void pcibw_bus_defaults(struct pcibw_bus *b)
{
	memset(b, 0, sizeof *b);
	/* Defaults where the spec gives none: doc/cli-contract.md "Bus spec". The PCIe ones are
	 * the reset values of Device Control (MPS 128, MRRS 512) and Link Control (RCB 0 = 64 B);
	 * MMRBC 512 and one split are the PCI-X Command register's reset values. */
	b->mps_bytes = 128;
	b->mrrs_bytes = 512;
	b->rcb_bytes = 64;
	b->mmrbc_bytes = 512;
	b->splits = 1;
	b->latency_timer = 64;
	/* Cache Line Size 16 DWORDs = 64 B, the x86 line a BIOS programs (PI7C8140A table 2-4
	 * uses the same example); a probed device's register overrides it (pcibw_bus_from_device). */
	b->cacheline_bytes = 64;
	b->mps_default = b->mrrs_default = b->rcb_default = true;
	b->mmrbc_default = b->splits_default = b->latency_timer_default = b->cacheline_default = true;
	b->transfers_per_clock = 1;
	b->aspm = -1;
}

/* The base part: "gen3x8", "8gtx16", "pcix133/64", "pci33". */
static int parse_base(const char *s, size_t n, struct pcibw_bus *b, struct pcibw_err *err)
{
	char part[128];
	snprintf(part, sizeof part, "%.*s", (int)(n < 100 ? n : 100), s);
	char wbuf[64];
	int n_widths;
	const int *pcie_widths = pcibw_pcie_widths(&n_widths);
	list_text(wbuf, sizeof wbuf, pcie_widths, n_widths);

	if (n >= 4 && !strncasecmp(s, "pcix", 4)) {
		const char *p = s + 4, *end = s + n, *slash = memchr(p, '/', (size_t)(end - p));
		long speed, width = 64;
		if (!parse_int(p, (size_t)((slash ? slash : end) - p), &speed))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': expected pcix66, pcix100, pcix133, "
					  "pcix266 or pcix533",
					  part);
		/* PCI-X 2.0 Addendum: mode 1 at 66/100/133 MHz; 266 and 533 are DDR and QDR at 133 MHz. */
		switch (speed) {
		case 66:
		case 100:
		case 133:
			b->clock_mhz = (int)speed;
			b->transfers_per_clock = 1;
			break;
		case 266:
			b->clock_mhz = 133;
			b->transfers_per_clock = 2;
			break;
		case 533:
			b->clock_mhz = 133;
			b->transfers_per_clock = 4;
			break;
		default:
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': PCI-X speed %ld is not one of 66, 100, "
					  "133, 266, 533",
					  part, speed);
		}
		if (slash && (!parse_int(slash + 1, (size_t)(end - slash - 1), &width) ||
			      (width != 32 && width != 64)))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': width '%.*s' is not a PCI-X width "
					  "(32, 64)",
					  part, (int)(end - slash - 1), slash + 1);
		b->kind = PCIBW_BUS_PCIX;
		b->width_bits = (int)width;
		return PCIBW_OK;
	}
	if (n >= 3 && !strncasecmp(s, "pci", 3)) {
		const char *p = s + 3, *end = s + n, *slash = memchr(p, '/', (size_t)(end - p));
		long speed, width = 32;
		if (!parse_int(p, (size_t)((slash ? slash : end) - p), &speed) ||
		    (speed != 33 && speed != 66))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': conventional PCI runs at 33 or 66 MHz "
					  "(pci33, pci66)%s",
					  part,
					  n >= 4 && (s[3] == '-' || s[3] == 'e' || s[3] == 'E')
					      ? "; PCI-X is pcix133, PCI Express gen3x8 or 8gtx8"
					      : "");
		if (slash && (!parse_int(slash + 1, (size_t)(end - slash - 1), &width) ||
			      (width != 32 && width != 64)))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': width '%.*s' is not a PCI width (32, 64)", part,
					  (int)(end - slash - 1), slash + 1);
		b->kind = PCIBW_BUS_PCI;
		b->clock_mhz = (int)speed;
		b->width_bits = (int)width;
		b->transfers_per_clock = 1;
		return PCIBW_OK;
	}

	/* PCIe: genNxW or RATEgtxW */
	const char *x = NULL;
	double gts = 0;
	if (n >= 3 && !strncasecmp(s, "gen", 3)) {
		const char *p = s + 3;
		x = memchr(p, 'x', n - 3);
		if (!x)
			x = memchr(p, 'X', n - 3);
		long g;
		if (!x || !parse_int(p, (size_t)(x - p), &g))
			return pcibw_fail(err, PCIBW_EUSAGE, "bus '%s': expected genNxW such as gen3x8",
					  part);
		if (g < 1 || g > PCIBW_PCIE_GEN_MAX)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': unknown PCIe generation %ld "
					  "(gen1..gen6)",
					  part, g);
		gts = pcibw_pcie_gen_gts((int)g);
	} else {
		/* "8gtx16", "2.5gtx4" */
		char num[32];
		size_t i = 0;
		while (i < n && i < sizeof num - 1 && (isdigit((unsigned char)s[i]) || s[i] == '.'))
			num[i] = s[i], i++;
		num[i] = '\0';
		if (i == 0 || n - i < 3 || strncasecmp(s + i, "gtx", 3))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': expected genNxW (gen3x8), RATEgtxW "
					  "(8gtx16), pciXX[/W] or pcixXX[/W]",
					  part);
		if (pcibw_number_scan(num, i, PCIBW_NUM_NO_EXP, &gts) != PCIBW_NUM_OK ||
		    !pcibw_pcie_gen_of_gts(gts))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "bus '%s': %s GT/s is not a PCIe rate (2.5, 5, 8, "
					  "16, 32, 64)",
					  part, num);
		x = s + i + 2;
	}
	long w;
	const char *wp = x + 1;
	if (!parse_int(wp, (size_t)(s + n - wp), &w) || !pcibw_pcie_width_ok((int)w)) {
		/* the contract's message for a number; the whole part, quoted, for anything else
		 * ("gen3x", "gen3x8 " with a stray space) */
		if (parse_int(wp, (size_t)(s + n - wp), &w))
			return pcibw_fail(err, PCIBW_EUSAGE, "width %.*s is not a PCIe width (%s)",
					  (int)(s + n - wp), wp, wbuf);
		return pcibw_fail(err, PCIBW_EUSAGE, "bus '%s': width '%.*s' is not a PCIe width (%s)", part,
				  (int)(s + n - wp), wp, wbuf);
	}
	b->kind = PCIBW_BUS_PCIE;
	b->gts = gts;
	b->gen = pcibw_pcie_gen_of_gts(gts);
	b->lanes = (int)w;
	b->flit = pcibw_pcie_flit_required(gts);
	return PCIBW_OK;
}

enum applies { A_PCIE = 1, A_PCI = 2, A_PCIX = 4 };

#define MODIFIER_LIST                                                                                        \
	"mps=, mrrs=, rcb=, aspm=, cpl=, rcb_chunks, numa=, iommu=, dma_offset=, ecrc, addr32, flit, "       \
	"mmrbc=, splits=, latency_timer=, mem_latency_ns=, prefetch=, bridges=, bridge_ns=, card_bridge="

/* A word value among names (case-insensitive): its index, or -1. */
static int word(const char *v, size_t n, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (n == strlen(names[i]) && !strncasecmp(v, names[i], n))
			return i;
	return -1;
}

/* A decimal number of ns (or a count) in [lo, hi]: no sign, no exponent. */
static bool parse_decimal(const char *s, size_t n, double lo, double hi, double *out)
{
	double v;
	if (pcibw_number_scan(s, n, PCIBW_NUM_NO_EXP, &v) != PCIBW_NUM_OK || !(v >= lo && v <= hi))
		return false;
	*out = v;
	return true;
}

static int modifier(const char *s, size_t n, struct pcibw_bus *b, struct pcibw_err *err)
{
	char part[128];
	snprintf(part, sizeof part, "%.*s", (int)(n < 100 ? n : 100), s);
	const char *eq = memchr(s, '=', n);
	size_t klen = eq ? (size_t)(eq - s) : n;
	const char *val = eq ? eq + 1 : NULL;
	size_t vlen = eq ? (size_t)(s + n - val) : 0;
	int mask = b->kind == PCIBW_BUS_PCIE ? A_PCIE : b->kind == PCIBW_BUS_PCI ? A_PCI : A_PCIX;
	char list[96];
	long v = 0;

#define KEY(k) (klen == strlen(k) && !strncasecmp(s, k, klen))
#define NEED(m, what)                                                                                        \
	do {                                                                                                 \
		if (!(mask & (m)))                                                                           \
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s' applies to %s buses only", part, what);   \
	} while (0)

	if (KEY("ecrc") || KEY("flit") || KEY("addr32") || KEY("rcb_chunks")) {
		if (eq)
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': %.*s takes no value", part, (int)klen, s);
		if (KEY("addr32")) {
			b->addr32 = true; /* PCI/PCI-X: no dual address cycle; PCIe: 3-DW headers */
			return PCIBW_OK;
		}
		NEED(A_PCIE, "PCIe");
		if (KEY("ecrc"))
			b->ecrc = true;
		else if (KEY("rcb_chunks")) {
			if (b->cpl_mps)
				return pcibw_fail(err, PCIBW_EUSAGE,
						  "'%s': rcb_chunks (cpl=rcb) contradicts cpl=mps", part);
			b->rcb_chunks = true;
		} else
			b->flit = true;
		return PCIBW_OK;
	}
	if (!eq)
		return pcibw_fail(err, PCIBW_EUSAGE, "unknown bus modifier '%s' (" MODIFIER_LIST ")", part);
	bool num_ok = parse_int(val, vlen, &v);
	if (KEY("mps") || KEY("mrrs")) {
		NEED(A_PCIE, "PCIe");
		list_text(list, sizeof list, pow2_sizes, N(pow2_sizes));
		if (!num_ok || !in_list((int)v, pow2_sizes, N(pow2_sizes)))
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': %s must be one of %s bytes", part,
					  KEY("mps") ? "MPS" : "MRRS", list);
		if (KEY("mps"))
			b->mps_bytes = (int)v, b->mps_default = false;
		else
			b->mrrs_bytes = (int)v, b->mrrs_default = false;
		return PCIBW_OK;
	}
	if (KEY("aspm")) {
		NEED(A_PCIE, "PCIe");
		for (int i = 0; i < 4; i++)
			if (vlen == strlen(aspm_names[i]) && !strncasecmp(val, aspm_names[i], vlen)) {
				b->aspm = i;
				return PCIBW_OK;
			}
		return pcibw_fail(err, PCIBW_EUSAGE, "'%s': ASPM must be off, l0s, l1 or l0s-l1", part);
	}
	if (KEY("rcb")) {
		NEED(A_PCIE, "PCIe");
		/* Link Control bit 3 selects 64 or 128 B only (PCIe Base 6.0 sec. 7.5.3.7). */
		if (!num_ok || (v != 64 && v != 128))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "'%s': RCB must be 64 or 128 bytes "
					  "(Link Control bit 3)",
					  part);
		b->rcb_bytes = (int)v, b->rcb_default = false;
		return PCIBW_OK;
	}
	if (KEY("cpl")) {
		static const char *const cpl_names[] = {"auto", "rcb", "mps"};
		NEED(A_PCIE, "PCIe");
		int c = word(val, vlen, cpl_names, 3);
		if (c < 0)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "'%s': cpl must be rcb (one completion per RCB block), mps "
					  "(ceil(length / MPS) per request) or auto (the band between)",
					  part);
		if (b->rcb_chunks && c != 1)
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s' contradicts rcb_chunks (cpl=rcb)", part);
		b->rcb_chunks = c == 1;
		b->cpl_mps = c == 2;
		return PCIBW_OK;
	}
	if (KEY("numa") || KEY("iommu")) {
		static const char *const numa_names[] = {"local", "remote"};
		static const char *const iommu_names[] = {"off", "on"};
		bool numa = KEY("numa");
		NEED(A_PCIE, "PCIe");
		int c = word(val, vlen, numa ? numa_names : iommu_names, 2);
		if (c < 0)
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': %s", part,
					  numa ? "numa must be local or remote" : "iommu must be off or on");
		*(numa ? &b->numa : &b->iommu) = c ? PCIBW_HOST_ON : PCIBW_HOST_OFF;
		return PCIBW_OK;
	}
	if (KEY("mem_latency_ns") || KEY("bridge_ns")) {
		double d;
		NEED(A_PCI | A_PCIX, "PCI and PCI-X");
		if (!parse_decimal(val, vlen, 1, 100000, &d))
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': %.*s must be 1..100000 ns", part,
					  (int)klen, s);
		*(KEY("bridge_ns") ? &b->bridge_ns : &b->mem_latency_ns) = d;
		return PCIBW_OK;
	}
	if (KEY("prefetch")) {
		NEED(A_PCI | A_PCIX, "PCI and PCI-X");
		if (!num_ok || v < 16 || v > 4096 || (v & (v - 1)))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "'%s': prefetch must be a power of 2 in 16..4096 bytes", part);
		b->prefetch_bytes = (int)v;
		return PCIBW_OK;
	}
	if (KEY("card_bridge")) {
		NEED(A_PCI | A_PCIX, "PCI and PCI-X");
		struct pcibw_bus c;
		pcibw_bus_defaults(&c);
		/* the value is a base spec of its own (no modifiers: a comma ends the value) */
		if (vlen == 0 || parse_base(val, vlen, &c, err) ||
		    (c.kind != PCIBW_BUS_PCI && c.kind != PCIBW_BUS_PCIX))
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "'%s': card_bridge is the segment a card's own bridge drives: "
					  "expected pciS[/W] or pcixS[/W] (pci66/64, pcix133/64)",
					  part);
		b->card.kind = c.kind;
		b->card.clock_mhz = c.clock_mhz;
		b->card.width_bits = c.width_bits;
		b->card.transfers_per_clock = c.transfers_per_clock;
		return PCIBW_OK;
	}
	if (KEY("bridges")) {
		NEED(A_PCI | A_PCIX, "PCI and PCI-X");
		if (!num_ok || v > 8)
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': bridges must be 0..8", part);
		b->bridges = (int)v;
		return PCIBW_OK;
	}
	if (KEY("dma_offset")) {
		if (vlen == strlen("pciebench") && !strncasecmp(val, "pciebench", vlen)) {
			NEED(A_PCIE, "PCIe");
			b->dma_offset = PCIBW_DMA_OFFSET_PCIEBENCH;
			return PCIBW_OK;
		}
		/* an address within a 4 KB page: no TLP crosses 4 KB (PCIe Base 5.0 sec. 2.2.7) */
		if (!num_ok || v < 0 || v > 4095)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "'%s': dma_offset must be 0..4095 bytes or pciebench", part);
		b->dma_offset = (int)v;
		return PCIBW_OK;
	}
	if (KEY("mmrbc")) {
		NEED(A_PCIX, "PCI-X");
		list_text(list, sizeof list, mmrbc_sizes, N(mmrbc_sizes));
		if (!num_ok || !in_list((int)v, mmrbc_sizes, N(mmrbc_sizes)))
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': MMRBC must be one of %s bytes", part,
					  list);
		b->mmrbc_bytes = (int)v, b->mmrbc_default = false;
		return PCIBW_OK;
	}
	if (KEY("splits")) {
		NEED(A_PCIX, "PCI-X");
		list_text(list, sizeof list, split_counts, N(split_counts));
		if (!num_ok || !in_list((int)v, split_counts, N(split_counts)))
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': outstanding splits must be one of %s",
					  part, list);
		b->splits = (int)v, b->splits_default = false;
		return PCIBW_OK;
	}
	if (KEY("latency_timer")) {
		NEED(A_PCI | A_PCIX, "PCI and PCI-X");
		/* Latency Timer register, config offset 0x0D: 8 bits of PCI clocks. */
		if (!num_ok || v > 255)
			return pcibw_fail(err, PCIBW_EUSAGE, "'%s': latency_timer must be 0..255 clocks",
					  part);
		b->latency_timer = (int)v, b->latency_timer_default = false;
		return PCIBW_OK;
	}
	return pcibw_fail(err, PCIBW_EUSAGE, "unknown bus modifier '%s' (" MODIFIER_LIST ")", part);
#undef KEY
#undef NEED
}

/* The modifiers of a spec or a --bus-set list, each key once. */
static int modifiers(const char *what, const char *comma, struct pcibw_bus *b, struct pcibw_err *err)
{
	const char *seen[16];
	size_t seen_len[16];
	int nseen = 0;
	while (comma) {
		const char *p = comma + 1;
		comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == 0)
			return pcibw_fail(err, PCIBW_EUSAGE, "bus spec '%s': empty modifier after a comma",
					  what);
		int rc = modifier(p, n, b, err);
		if (rc)
			return rc;
		/* a modifier given twice ("mps=256,mps=512") is a mistake, not "the last one wins" */
		const char *eq = memchr(p, '=', n);
		size_t klen = eq ? (size_t)(eq - p) : n;
		for (int i = 0; i < nseen; i++)
			if (seen_len[i] == klen && !strncasecmp(seen[i], p, klen))
				return pcibw_fail(err, PCIBW_EUSAGE,
						  "bus spec '%s': '%.*s' given twice "
						  "(give each modifier once)",
						  what, (int)klen, p);
		if (nseen < 16)
			seen[nseen] = p, seen_len[nseen++] = klen;
	}
	return PCIBW_OK;
}

int pcibw_bus_apply(struct pcibw_bus *b, const char *mods, struct pcibw_err *err)
{
	char buf[512];
	if (!mods || !*mods)
		return pcibw_fail(err, PCIBW_EUSAGE, "--bus-set: expected KEY=VALUE,... (mps=256,aspm=off)");
	if (b->kind == PCIBW_BUS_VIRTUAL || b->kind == PCIBW_BUS_UNKNOWN)
		return pcibw_fail(err, PCIBW_EUSAGE, "--bus-set: a %s bus has no registers to change",
				  pcibw_bus_kind_name(b->kind));
	/* the list reads as the modifiers after a spec's base */
	snprintf(buf, sizeof buf, ",%s", mods);
	return modifiers(mods, buf, b, err);
}

int pcibw_bus_parse(const char *spec, struct pcibw_bus *out, struct pcibw_err *err)
{
	struct pcibw_bus b = {0};
	if (!spec || !*spec)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "empty bus spec: expected e.g. gen3x8, pcix133/64 or pci33");
	pcibw_bus_defaults(&b);
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);
	int rc = parse_base(spec, n, &b, err);
	if (rc)
		return rc;
	if ((rc = modifiers(spec, comma, &b, err)))
		return rc;
	if (b.kind == PCIBW_BUS_PCIE && b.gen >= 6 && !b.flit)
		b.flit = true;
	*out = b;
	return PCIBW_OK;
}

char *pcibw_bus_format(const struct pcibw_bus *b, char *buf, unsigned len)
{
	if (!buf || !len)
		return buf;
	buf[0] = '\0';
	switch (b->kind) {
	case PCIBW_BUS_PCIE: {
		char off[32] = "";
		if (b->dma_offset == PCIBW_DMA_OFFSET_PCIEBENCH)
			snprintf(off, sizeof off, ",dma_offset=pciebench");
		else if (b->dma_offset)
			snprintf(off, sizeof off, ",dma_offset=%d", b->dma_offset);
		/* every modifier in effect, so that the spec parses back to the same bus */
		char aspm[16] = "";
		if (b->aspm >= 0 && b->aspm < 4)
			snprintf(aspm, sizeof aspm, ",aspm=%s", aspm_names[b->aspm]);
		char host[48];
		snprintf(host, sizeof host, "%s%s%s", b->cpl_mps ? ",cpl=mps" : "",
			 b->numa == PCIBW_HOST_ON    ? ",numa=remote"
			 : b->numa == PCIBW_HOST_OFF ? ",numa=local"
						     : "",
			 b->iommu == PCIBW_HOST_ON    ? ",iommu=on"
			 : b->iommu == PCIBW_HOST_OFF ? ",iommu=off"
						      : "");
		snprintf(buf, len, "gen%dx%d,mps=%d,mrrs=%d,rcb=%d%s%s%s%s%s%s%s", b->gen, b->lanes,
			 b->mps_bytes, b->mrrs_bytes, b->rcb_bytes, aspm, b->rcb_chunks ? ",rcb_chunks" : "",
			 host, off, b->ecrc ? ",ecrc" : "", b->addr32 ? ",addr32" : "",
			 b->flit && b->gen < 6 ? ",flit" : "");
		break;
	}
	case PCIBW_BUS_PCIX:
	case PCIBW_BUS_PCI: {
		/* the host path, where stated */
		char path[192] = "";
		int o = 0;
		if (b->dma_offset > 0)
			o += snprintf(path + o, sizeof path - (size_t)o, ",dma_offset=%d", b->dma_offset);
		if (b->mem_latency_ns > 0)
			o += snprintf(path + o, sizeof path - (size_t)o, ",mem_latency_ns=%g",
				      b->mem_latency_ns);
		if (b->prefetch_bytes > 0)
			o += snprintf(path + o, sizeof path - (size_t)o, ",prefetch=%d", b->prefetch_bytes);
		if (b->bridges > 0)
			o += snprintf(path + o, sizeof path - (size_t)o, ",bridges=%d", b->bridges);
		if (b->bridge_ns > 0)
			o += snprintf(path + o, sizeof path - (size_t)o, ",bridge_ns=%g", b->bridge_ns);
		if (b->card.kind == PCIBW_BUS_PCIX) {
			int cs = b->card.clock_mhz * b->card.transfers_per_clock;
			snprintf(path + o, sizeof path - (size_t)o, ",card_bridge=pcix%d/%d",
				 cs == 532 ? 533 : cs, b->card.width_bits);
		} else if (b->card.kind == PCIBW_BUS_PCI)
			snprintf(path + o, sizeof path - (size_t)o, ",card_bridge=pci%d/%d",
				 b->card.clock_mhz, b->card.width_bits);
		if (b->kind == PCIBW_BUS_PCIX) {
			int speed = b->clock_mhz * b->transfers_per_clock;
			snprintf(buf, len, "pcix%d/%d,mmrbc=%d,splits=%d,latency_timer=%d%s%s",
				 speed == 532 ? 533 : speed, b->width_bits, b->mmrbc_bytes, b->splits,
				 b->latency_timer, b->addr32 ? ",addr32" : "", path);
		} else
			snprintf(buf, len, "pci%d/%d,latency_timer=%d%s%s", b->clock_mhz, b->width_bits,
				 b->latency_timer, b->addr32 ? ",addr32" : "", path);
		break;
	}
	case PCIBW_BUS_VIRTUAL:
		snprintf(buf, len, "virtual");
		break;
	default:
		snprintf(buf, len, "unknown");
	}
	return buf;
}

double pcibw_bus_raw_gbps(const struct pcibw_bus *b)
{
	switch (b->kind) {
	case PCIBW_BUS_PCIE:
		return b->gts * b->lanes * pcibw_pcie_encoding(b->gts, b->flit);
	case PCIBW_BUS_PCI:
	case PCIBW_BUS_PCIX: {
		return pcibw_pci_clock_hz(b->clock_mhz) * b->width_bits * b->transfers_per_clock / 1e9;
	}
	default:
		return 0;
	}
}

const char *pcibw_bus_kind_name(enum pcibw_bus_kind kind)
{
	switch (kind) {
	case PCIBW_BUS_PCI:
		return "pci";
	case PCIBW_BUS_PCIX:
		return "pci-x";
	case PCIBW_BUS_PCIE:
		return "pcie";
	case PCIBW_BUS_VIRTUAL:
		return "virtual";
	default:
		return "unknown";
	}
}
