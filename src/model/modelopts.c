/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names of patterns and size conventions, and `--line-rate` (shared/cli-contract.md). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pcibw/model.h"

static const char *const pattern_names[] = {"rx", "tx", "both", "dma-read", "dma-write", "dma-rw"};
static const char *const size_is_names[] = {"frame", "dma", "l3", "udp-payload"};

int pcibw_pattern_parse(const char *text, enum pcibw_pattern *out, struct pcibw_err *err)
{
	for (int i = 0; i < 6; i++)
		if (text && !strcmp(text, pattern_names[i])) {
			*out = (enum pcibw_pattern)i;
			return PCIBW_OK;
		}
	return pcibw_fail(err, PCIBW_EUSAGE, "--pattern '%s': expected rx, tx, both, dma-read, dma-write "
			  "or dma-rw", text ? text : "");
}

const char *pcibw_pattern_name(enum pcibw_pattern p)
{
	return (unsigned)p < 6 ? pattern_names[p] : "unknown";
}

int pcibw_size_is_parse(const char *text, enum pcibw_size_is *out, struct pcibw_err *err)
{
	for (int i = 0; i < 4; i++)
		if (text && !strcmp(text, size_is_names[i])) {
			*out = (enum pcibw_size_is)i;
			return PCIBW_OK;
		}
	return pcibw_fail(err, PCIBW_EUSAGE, "--size-is '%s': expected frame, dma, l3 or udp-payload",
			  text ? text : "");
}

const char *pcibw_size_is_name(enum pcibw_size_is s)
{
	return (unsigned)s < 4 ? size_is_names[s] : "unknown";
}

int pcibw_line_rate_parse(const char *text, double *gbps, struct pcibw_err *err)
{
	char *end;
	if (!text || !*text)
		return pcibw_fail(err, PCIBW_EUSAGE, "--line-rate: empty (expected e.g. 10G, 100M, 2.5G)");
	errno = 0;
	double v = strtod(text, &end);
	double scale = 0;
	if (end != text && (!strcmp(end, "G") || !strcmp(end, "g")))
		scale = 1;
	else if (end != text && (!strcmp(end, "M") || !strcmp(end, "m")))
		scale = 1e-3;
	if (!scale || errno == ERANGE || !isfinite(v) || !(v > 0) || v * scale > 1e6)
		return pcibw_fail(err, PCIBW_EUSAGE, "--line-rate '%s': expected a positive NUMBER followed by "
				  "M or G (100M, 10G, 2.5G)", text);
	*gbps = v * scale;
	return PCIBW_OK;
}
