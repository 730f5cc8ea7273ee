/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reason codes and lists (pcibw/reason.h). The names are the contract's (doc/json.md "Reason
 * codes"): change none, add new ones at the end of their group. */
#include "pcibw/reason.h"
#include "pcibw/verdict.h"
#include <math.h>
#include <string.h>

static const char *const code_names[PCIBW_R_N] = {
    [PCIBW_R_BEYOND_CEILING] = "beyond-ceiling",
    [PCIBW_R_WIRE_AT_THRESHOLD] = "wire-at-threshold",
    [PCIBW_R_BUS_AT_THRESHOLD] = "bus-at-threshold",
    [PCIBW_R_CPUS_SATURATED] = "cpus-saturated",
    [PCIBW_R_CORE_SATURATED] = "core-saturated",
    [PCIBW_R_CPU_ONLY_LOADED] = "cpu-only-loaded",
    [PCIBW_R_RATE_GROWS_WITH_CORES] = "rate-grows-with-cores",
    [PCIBW_R_RATE_FLAT_OVER_CORES] = "rate-flat-over-cores",
    [PCIBW_R_RATE_ELASTIC_TO_WORK] = "rate-elastic-to-work",
    [PCIBW_R_RATE_ELASTIC_TO_CLOCK] = "rate-elastic-to-clock",
    [PCIBW_R_RATE_FLAT_OVER_SIZES] = "rate-flat-over-sizes",
    [PCIBW_R_TRANSFER_RATE_FLAT] = "transfer-rate-flat",
    [PCIBW_R_CYCLES_HIGH] = "cycles-high",
    [PCIBW_R_BELOW_THRESHOLD] = "below-threshold",
    [PCIBW_R_NONE_AT_THRESHOLD] = "none-at-threshold",
    [PCIBW_R_NIC_PER_PACKET] = "nic-per-packet-limit",
    [PCIBW_R_TCP_WINDOW] = "tcp-window",
    [PCIBW_R_ALSO_LOADED] = "also-loaded",
    [PCIBW_R_ASPM_IDLE_LINK] = "aspm-idle-link",
    [PCIBW_R_COUNTERS_INCONSISTENT] = "counters-inconsistent",
    [PCIBW_R_GOODPUT_ABOVE_WIRE] = "goodput-above-wire",
    [PCIBW_R_POLL_MODE] = "poll-mode",
    [PCIBW_R_LINK_DOWNGRADED] = "link-downgraded",
    [PCIBW_R_SHARED_HOP] = "shared-hop",
    [PCIBW_R_CPU_NOT_MEASURED] = "cpu-not-measured",
    [PCIBW_R_BUS_NOT_GIVEN] = "bus-not-given",
    [PCIBW_R_BUS_VIRTUAL] = "bus-virtual",
    [PCIBW_R_NO_BUS_CEILING] = "no-bus-ceiling",
    [PCIBW_R_LINE_RATE_NOT_GIVEN] = "line-rate-not-given",
    [PCIBW_R_WRITE_SIZE] = "write-size",
    [PCIBW_R_CORES_SWEEP_NOT_MEASURED] = "cores-sweep-not-measured",
    [PCIBW_R_DMA_AGAINST_MODEL] = "dma-against-model",
    [PCIBW_R_TCP_SEGMENTS] = "tcp-segments",
    [PCIBW_R_UDP_FRAGMENTS] = "udp-fragments",
    [PCIBW_R_TCP_WINDOW_SHARE] = "tcp-window-share",
    [PCIBW_R_CPU_FROM_REPORT] = "cpu-from-report",
    [PCIBW_R_CPU_PROCESS_LOWER_BOUND] = "cpu-process-lower-bound",
    [PCIBW_R_CPU_REPORT_UNUSED] = "cpu-report-unused",
    [PCIBW_R_RATES_DISAGREE] = "rates-disagree",
    [PCIBW_R_ESTIMATE_EXCEEDED] = "estimate-exceeded",
    [PCIBW_R_CPU_SHARED] = "cpu-shared",
    [PCIBW_R_LOOPBACK] = "loopback",
    [PCIBW_R_NO_ROWS] = "no-rows",
    [PCIBW_R_VERDICT] = "verdict",
    [PCIBW_R_ROWS_AGREE] = "rows-agree",
    [PCIBW_R_SERIES_BANDS] = "series-bands",
    [PCIBW_R_MORE_SERIES] = "more-series",
    [PCIBW_R_BUS_NOTE] = "bus-note",
    [PCIBW_R_IFACE_IDLE] = "iface-idle",
    [PCIBW_R_NO_PACKETS] = "no-packets",
    [PCIBW_R_BUS_IN_BAND] = "bus-in-band",
    [PCIBW_R_BUS_ABOVE_EXPECTED] = "bus-above-expected",
};

const char *pcibw_reason_code_name(enum pcibw_reason_code c)
{
	return (unsigned)c < PCIBW_R_N && code_names[c] ? code_names[c] : "?";
}

const char *pcibw_resource_name(enum pcibw_resource r)
{
	static const char *const names[PCIBW_RES_N] = {
	    NULL, "bus", "wire", "cpu", "core", "tcp-window", "root-complex", "nic",
	};
	return (unsigned)r < PCIBW_RES_N ? names[r] : NULL;
}

struct pcibw_reason *pcibw_reason_push(struct pcibw_reason *v, int *n, int max, enum pcibw_reason_code code,
				       enum pcibw_resource res, int line)
{
	if (*n >= max)
		return NULL;
	struct pcibw_reason *x = &v[(*n)++];
	memset(x, 0, sizeof *x);
	x->code = code;
	x->resource = res;
	x->value = x->ceiling = x->share = x->threshold = x->span_s = NAN;
	x->row = x->group = -1;
	x->evidence_index = line;
	return x;
}

struct pcibw_reason *pcibw_row_reason(struct pcibw_row *r, bool same_line, enum pcibw_reason_code code,
				      enum pcibw_resource res, double value, double ceiling, double share,
				      double threshold, const char *unit)
{
	int last = r->n_reasons ? r->reasons[r->n_reasons - 1].evidence_index : -1;
	int line = same_line && last >= 0 ? last : last + 1;
	if (line >= PCIBW_MAX_EVIDENCE)
		return NULL;
	struct pcibw_reason *x =
	    pcibw_reason_push(r->reasons, &r->n_reasons, PCIBW_MAX_REASONS, code, res, line);
	if (x) {
		x->value = value;
		x->ceiling = ceiling;
		x->share = share;
		x->threshold = threshold;
		x->unit = unit;
	}
	return x;
}
