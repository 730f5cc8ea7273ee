/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of patterns and size conventions, and `--line-rate` (doc/cli-contract.md). */
#include "pcibw/model.h"
#include "pcibw/number.h"
#include <string.h>

static const char *const pattern_names[] = {"rx", "tx", "both", "dma-read", "dma-write", "dma-rw"};
static const char *const size_is_names[] = {[PCIBW_SIZE_FRAME] = "frame",
					    [PCIBW_SIZE_DMA] = "dma",
					    [PCIBW_SIZE_L3] = "l3",
					    [PCIBW_SIZE_UDP_PAYLOAD] = "udp-payload",
					    [PCIBW_SIZE_TCP_PAYLOAD] = "tcp-payload",
					    [PCIBW_SIZE_OPTION] = "option",
					    [PCIBW_SIZE_WRITE] = "write"};

int pcibw_pattern_parse(const char *text, enum pcibw_pattern *out, struct pcibw_err *err)
{
	for (int i = 0; i < 6; i++)
		if (text && !strcmp(text, pattern_names[i])) {
			*out = (enum pcibw_pattern)i;
			return PCIBW_OK;
		}
	return pcibw_fail(err, PCIBW_EUSAGE,
			  "--pattern '%s': expected rx, tx, both, dma-read, dma-write "
			  "or dma-rw",
			  text ? text : "");
}

const char *pcibw_pattern_name(enum pcibw_pattern p)
{
	return (unsigned)p < 6 ? pattern_names[p] : "unknown";
}

int pcibw_size_is_parse(const char *text, enum pcibw_size_is *out, struct pcibw_err *err)
{
	for (int i = 0; i <= PCIBW_SIZE_TCP_PAYLOAD; i++)
		if (text && !strcmp(text, size_is_names[i])) {
			*out = (enum pcibw_size_is)i;
			return PCIBW_OK;
		}
	return pcibw_fail(err, PCIBW_EUSAGE,
			  "--size-is '%s': expected frame, dma, l3, udp-payload or tcp-payload",
			  text ? text : "");
}

bool pcibw_size_is_packet(enum pcibw_size_is s)
{
	return s <= PCIBW_SIZE_TCP_PAYLOAD;
}

const char *pcibw_size_is_name(enum pcibw_size_is s)
{
	return (unsigned)s < sizeof size_is_names / sizeof size_is_names[0] && size_is_names[s]
		   ? size_is_names[s]
		   : "unknown";
}

/* 1 Mbit/s (the slowest Ethernet, 1BASE5) to 100 Tbit/s (125 ports of 800G): outside this a
 * number is a typo, and it would turn the table's headroom column into nonsense. */
#define LINE_RATE_MIN_GBPS 1e-3
#define LINE_RATE_MAX_GBPS 1e5

/* Ports bonded or driven together ("2x25G"): at most this many, more than any host carries */
#define LINE_RATE_MAX_PORTS 1024

int pcibw_line_rate_parse(const char *text, double *gbps, struct pcibw_err *err)
{
	if (!text || !*text)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--line-rate: empty (expected e.g. 10G, 100M, 2.5G, 2x25G)");
	const char *rate = text;
	long ports = 1;
	const char *x = strpbrk(text, "xX");
	if (x) {
		/* NxRATE: N ports of RATE each, the line rate being their sum */
		double pv = 0;
		enum pcibw_num_result pr =
		    pcibw_number_scan(text, (size_t)(x - text), PCIBW_NUM_INTEGER, &pv);
		if (pr != PCIBW_NUM_OK || pv < 1 || pv > LINE_RATE_MAX_PORTS)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--line-rate '%s': expected NxRATE with N a whole number of ports "
					  "from 1 to %d (2x25G is two 25G ports, 50G in all)",
					  text, LINE_RATE_MAX_PORTS);
		ports = (long)pv;
		rate = x + 1;
	}
	size_t n = strlen(rate);
	char unit = n ? rate[n - 1] : 0;
	double scale = unit == 'G' || unit == 'g' ? 1 : unit == 'M' || unit == 'm' ? 1e-3 : 0;
	double v;
	enum pcibw_num_result r = n ? pcibw_number_scan(rate, n - 1, 0, &v) : PCIBW_NUM_EMPTY;
	if (!scale || r == PCIBW_NUM_EMPTY || r == PCIBW_NUM_NOT_DECIMAL)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--line-rate '%s': expected a positive decimal NUMBER "
				  "followed by M or G (100M, 10G, 2.5G), or NxRATE for N ports (2x25G)",
				  text);
	v *= scale * (double)ports;
	if (r == PCIBW_NUM_OVERFLOW || v < LINE_RATE_MIN_GBPS || v > LINE_RATE_MAX_GBPS)
		return pcibw_fail(err, PCIBW_EUSAGE, "--line-rate '%s': expected 1M to 100000G", text);
	*gbps = v;
	return PCIBW_OK;
}
