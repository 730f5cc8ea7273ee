/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option table: every option of every command once (pcibw/options.h). A value's own grammar
 * (a bus spec, a size list, a threshold) stays with the module that owns it; a row of type CALL
 * hands the value to that module's parser, so the names a value may take are written once.
 */
#include "pcibw/options.h"
#include "pcibw/ingest.h"
#include "pcibw/model.h"
#include "pcibw/verdict.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define AT(field) offsetof(struct pcibw_request, field)

#define R PCIBW_CMD_REPORT
#define M PCIBW_CMD_MODEL
#define A PCIBW_CMD_ANALYZE
#define W PCIBW_CMD_WATCH
#define S PCIBW_CMD_SLOTS

/* --format and --json name one output: a second --format, or --json beside another format, would
 * otherwise let the last one win silently. --json with --format json says the same thing twice,
 * as a flag may. */
static int output_once(struct pcibw_request *req, const char *v, enum pcibw_output f, struct pcibw_err *err)
{
	bool flag = v == NULL, first_flag = req->format_opt && !strcmp(req->format_opt, "--json");
	if (req->format_opt) {
		if (f == PCIBW_OUT_JSON && req->format == PCIBW_OUT_JSON && (flag || first_flag))
			return PCIBW_OK;
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "%s%s after %s%s: the output format is given twice (--json is "
				  "--format json): give it once",
				  flag ? "--json" : "--format ", flag ? "" : v,
				  first_flag ? "--json" : "--format ", first_flag ? "" : req->format_opt);
	}
	req->format = f;
	req->format_opt = flag ? "--json" : v;
	return PCIBW_OK;
}

static int set_format(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	static const char *const names[] = {[PCIBW_OUT_TEXT] = "text",
					    [PCIBW_OUT_JSON] = "json",
					    [PCIBW_OUT_CSV] = "csv",
					    [PCIBW_OUT_PROMETHEUS] = "prometheus"};
	bool prom_ok = req->command & (PCIBW_CMD_REPORT | PCIBW_CMD_WATCH);
	bool csv_ok = !(req->command & PCIBW_CMD_SLOTS);
	if (!csv_ok && strcmp(v, "text") && strcmp(v, "json"))
		return pcibw_fail(err, PCIBW_EUSAGE, "--format '%s': expected text or json", v);
	for (int i = 0; i < N(names); i++)
		if (!strcmp(v, names[i])) {
			if (i == PCIBW_OUT_PROMETHEUS && !prom_ok)
				break;
			return output_once(req, v, (enum pcibw_output)i, err);
		}
	return pcibw_fail(err, PCIBW_EUSAGE, "--format '%s': expected text, json%s or csv", v,
			  prom_ok ? ", prometheus" : "");
}

static int set_json(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	(void)v;
	return output_once(req, NULL, PCIBW_OUT_JSON, err);
}

static int set_pattern(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	return pcibw_pattern_parse(v, &req->pattern, err);
}

static int set_size_is(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	return pcibw_size_is_parse(v, &req->size_is, err);
}

static int set_line_rate(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	int rc = pcibw_line_rate_parse(v, &req->line_rate_gbps, err);
	/* NxRATE counts its ports (slots takes them as --ports N would) */
	const char *x = strpbrk(v, "xX");
	req->line_rate_ports = !rc && x ? atoi(v) : 0;
	return rc;
}

static int set_compat(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	if (strcmp(v, "pcie-bench"))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--compat '%s': the only compatibility mode is pcie-bench", v);
	req->compat = PCIBW_COMPAT_PCIE_BENCH;
	return PCIBW_OK;
}

/* A repeatable NAME=VALUE option sets each NAME once: a second value for it would win silently. */
static int name_once(const char *opt, const char *prev, const char *v, struct pcibw_err *err)
{
	size_t a = strcspn(prev, "="), b = strcspn(v, "=");
	if (a != b || strncmp(prev, v, a))
		return PCIBW_OK;
	return pcibw_fail(err, PCIBW_EUSAGE, "%s %.*s given twice ('%s' and '%s'): give it once", opt, (int)a,
			  v, prev, v);
}

static int set_col(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	return pcibw_colmap_add(&req->ingest, v, err);
}

static int set_rate_basis(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	int st = pcibw_rate_basis_parse(v, &req->ingest.rate_basis, err);
	if (!st)
		req->ingest.rate_basis_given = true;
	return st;
}

static int set_cpu_scale(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	return pcibw_cpu_scale_parse(v, &req->ingest.cpu_scale, err);
}

static int set_threshold(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	int st = pcibw_threshold_set(&req->thresholds, v, err);
	if (st)
		return st;
	for (int i = 0; i < req->n_threshold_args; i++)
		if ((st = name_once("--threshold", req->threshold_args[i], v, err)))
			return st;
	if (req->n_threshold_args >= N(req->threshold_args))
		return pcibw_fail(err, PCIBW_EUSAGE, "--threshold given more than %d times",
				  N(req->threshold_args));
	req->threshold_args[req->n_threshold_args++] = v;
	return PCIBW_OK;
}

static int set_input_format(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	for (int f = PCIBW_FMT_AUTO; f <= PCIBW_FMT_LAST; f++)
		if (!strcmp(v, pcibw_format_name((enum pcibw_format)f))) {
			req->ingest.format = (enum pcibw_format)f;
			return PCIBW_OK;
		}
	return pcibw_fail(
	    err, PCIBW_EUSAGE,
	    "--input-format '%s': expected csv, iperf3, iperf3-text, netperf, netperf-omni, pcie-bench or "
	    "cpustat",
	    v);
}

/* The plot is SVG whatever the name says: a .png or .pdf name would hold SVG text that no
 * viewer of that type opens. A name without a dot, or any other extension, is the user's. */
static int set_plot(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	static const char *const not_svg[] = {".png", ".pdf", ".jpg", ".jpeg", ".gif", ".ps", ".eps"};
	const char *dot = strrchr(v, '.');
	for (size_t i = 0; dot && !strchr(dot, '/') && i < sizeof not_svg / sizeof not_svg[0]; i++)
		if (!strcasecmp(dot, not_svg[i]))
			return pcibw_fail(
			    err, PCIBW_EUSAGE,
			    "--plot %s: the plot is SVG, not %s: name it .svg (convert it with, "
			    "e.g., rsvg-convert)",
			    v, dot + 1);
	if (req->plot)
		return pcibw_fail(err, PCIBW_EUSAGE, "--plot given twice ('%s' and '%s'): give it once",
				  req->plot, v);
	req->plot = v;
	return PCIBW_OK;
}

/* "64M", "1048576", "2G", "1T": bytes, 4 KiB .. 1 TiB (K, M, G, T count 1024s); decimal only, as
 * every other number pcibw reads (strtod alone would take "0x1000" and "1e4") */
static int set_record_max(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	static const char units[] = "KMGT";
	size_t digits = strspn(v, "0123456789.");
	double mul = 1;
	const char *u = v[digits] ? strchr(units, toupper((unsigned char)v[digits])) : NULL;
	if (u && !v[digits + 1])
		mul = (double)(1ULL << (10 * (u - units + 1)));
	char *e;
	double x = digits ? strtod(v, &e) : 0;
	if (digits && e == v + digits && (!v[digits] || (u && !v[digits + 1])) && x * mul >= 4096 &&
	    x * mul <= 1099511627776.0) {
		req->record_max_bytes = x * mul;
		req->record_max_given = true;
		return PCIBW_OK;
	}
	return pcibw_fail(
	    err, PCIBW_EUSAGE,
	    "--record-max '%s': expected a size from 4K to 1T (bytes, or a decimal NUMBER with K, M, G "
	    "or T: 1024s)",
	    v);
}

static int set_nic_set(struct pcibw_request *req, const char *v, struct pcibw_err *err)
{
	if (req->n_nic_sets >= N(req->nic_sets))
		return pcibw_fail(err, PCIBW_EUSAGE, "--nic-set given more than %d times", N(req->nic_sets));
	if (!strchr(v, '=') || *v == '=')
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--nic-set '%s': expected KNOB=VALUE or section.key=VALUE", v);
	req->nic_sets[req->n_nic_sets++] = v;
	return PCIBW_OK;
}

#define FLAG(f) .type = PCIBW_OPT_FLAG, .target = AT(f)
#define STR(f) .type = PCIBW_OPT_STRING, .target = AT(f)
#define CALL(fn) .type = PCIBW_OPT_CALL, .parse = fn

const struct pcibw_option pcibw_options[] = {
    /* analyze's inputs */
    {"col", 0, "ROLE=HEADER", CALL(set_col), .commands = A, .group = PCIBW_GRP_INPUT,
     .help = "read column HEADER as ROLE (e.g. --col gbps='Throughput')"},
    {"rate-basis", 0, "B", CALL(set_rate_basis), .commands = A, .group = PCIBW_GRP_INPUT,
     .help = "what a bit-rate column counts: wire, frame, l3, payload\n"
	     "(default: the bytes of the size convention)"},
    {"cpu-scale", 0, "S", CALL(set_cpu_scale), .commands = A, .group = PCIBW_GRP_INPUT,
     .help = "CPU columns hold percent (default) or fraction (0 to 1)"},
    {"input-format", 0, "F", CALL(set_input_format), .commands = A, .group = PCIBW_GRP_INPUT,
     .help = "csv, iperf3, iperf3-text, netperf, netperf-omni, pcie-bench, cpustat (sar)\n"
	     "(cpustat: mpstat or sar text; default: from the content)"},

    /* the device */
    {NULL, 's', "[[DOMAIN:]BUS:]DEV.FN", STR(probe.slot_filter), .commands = R, .group = PCIBW_GRP_DEVICE,
     .help = "only these devices (as lspci -s)"},
    {NULL, 's', "SLOT", STR(probe.slot_filter), .commands = M | A, .group = PCIBW_GRP_DEVICE,
     .help = "the bus of this probed device (this machine, --dump FILE, --sysfs DIR)"},
    {NULL, 'i', "IFACE", STR(probe.iface), .commands = R, .group = PCIBW_GRP_DEVICE,
     .help = "only the device behind this interface name"},
    {NULL, 'i', "IFACE", STR(probe.iface), .commands = M | A, .group = PCIBW_GRP_DEVICE,
     .help = "the bus of the device behind this interface name"},
    {"all", 0, NULL, FLAG(probe.all), .commands = R | M | A, .group = PCIBW_GRP_DEVICE,
     .help = "every device, not only network controllers"},
    {"pci-ids", 0, "FILE", STR(probe.pci_ids), .commands = R | M | A | S, .group = PCIBW_GRP_DEVICE,
     .help = "pci.ids to name devices with (default: libpci's)"},

    /* the machine */
    {"dump", 0, "FILE", STR(probe.dump_file), .commands = R | M | A | S, .group = PCIBW_GRP_SOURCE,
     .help = "an lspci -x/-xxx/-xxxx dump (-xxx or -xxxx: capabilities; - standard input)"},
    {"pciconf", 0, "FILE", STR(probe.pciconf_file), .commands = R | M | A | S, .group = PCIBW_GRP_SOURCE,
     .help = "FreeBSD pciconf -lvbc text, with pciconf -r dumps where given\n(- standard input)"},
    {"sysfs", 0, "DIR", STR(probe.sysfs_dir), .commands = R | M | A | S, .group = PCIBW_GRP_SOURCE,
     .help = "config space from a copied sysfs tree (DIR/bus/pci/devices/...)"},
    {"topology", 0, "FILE", STR(probe.topology_file), .commands = R | S, .group = PCIBW_GRP_SOURCE,
     .help = "an hwloc XML export (no config space)"},
    {"topology", 0, "FILE", STR(probe.topology_file), .commands = M, .group = PCIBW_GRP_SOURCE,
     .help = "refused: an hwloc export has no config space (give --bus, --dump\nor --sysfs)"},
    {"topology", 0, "FILE", STR(probe.topology_file), .commands = A, .group = PCIBW_GRP_SOURCE,
     .help = "an hwloc XML export of the measured machine: its CPU count"},

    /* the bus */
    {"bus", 0, "SPEC", STR(bus), .commands = M | A, .group = PCIBW_GRP_BUS,
     .help = "gen3x8,mps=256 | 8gtx16 | pcix133/64,mmrbc=512 | pci33/32 | virtual ..."},
    {"bus-set", 0, "KEY=VALUE,...", STR(bus_set), .commands = M | A, .group = PCIBW_GRP_BUS,
     .help = "change the probed device's registers for a what-if: the bus spec's\n"
	     "modifiers (-s 01:00.0 --bus-set mps=256,aspm=off)"},
    {"bus", 0, "SPEC", STR(bus), .commands = W, .group = PCIBW_GRP_BUS,
     .help = "the bus of every watched interface, instead of the probed one"},
    {"segment-devices", 0, "N", .type = PCIBW_OPT_INT, .target = AT(segment_devices), .lo = 1, .hi = 32,
     .expect = "1..32 (a PCI segment holds at most 32 devices)", .commands = M | A, .group = PCIBW_GRP_BUS,
     .help = "PCI/PCI-X: devices on the segment moving the same traffic\n(default 1; refused on PCIe)"},
    {"compat", 0, "pcie-bench", CALL(set_compat), .commands = M | A, .group = PCIBW_GRP_BUS,
     .help = "reproduce pcie-bench's pcie-model exactly"},

    /* the traffic */
    {"nic", 0, "NAME[,KNOB=V,...]", STR(nic), .commands = M | A, .group = PCIBW_GRP_TRAFFIC,
     .help = "NIC profile (every name is listed below) and driver knobs or\n"
	     "section.key values; default: by vendor:device when probed\n"
	     "(dpdk-* under vfio-pci), else simple"},
    {"nic-set", 0, "KNOB=VALUE", CALL(set_nic_set), .commands = M | A, .group = PCIBW_GRP_TRAFFIC,
     .help = "set a knob (rx_cqe_compress=on) or key (rx.desc_bytes=16) of the profile\n"
	     "in use, however it was chosen; repeatable"},
    {"nic", 0, "NAME", STR(nic), .commands = W, .group = PCIBW_GRP_TRAFFIC,
     .help = "NIC profile of every watched interface (listed below; default: by\n"
	     "vendor:device)"},
    {"nic", 0, "NAME", STR(nic), .commands = S, .group = PCIBW_GRP_TRAFFIC,
     .help = "the card to place: its NIC profile (listed below); with --line-rate,\n"
	     "rank the slots by its port fit"},
    {"ports", 0, "N", .type = PCIBW_OPT_INT, .target = AT(ports), .lo = 1, .hi = 64,
     .expect = "a whole number of ports, 1..64", .commands = S, .group = PCIBW_GRP_TRAFFIC,
     .help = "the card's ports, each at --line-rate (default 1; NxRATE counts N)"},
    {"line-rate", 0, "RATE", CALL(set_line_rate), .commands = S, .group = PCIBW_GRP_TRAFFIC,
     .help = "each port's line rate: 10G, 25G, 100M, ... (2x25G: two ports of 25G)"},
    {"smbios", 0, "FILE", STR(smbios_file), .commands = S, .group = PCIBW_GRP_SOURCE,
     .help = "slot names from dmidecode -t 9 text (- standard input)"},
    {"nic-file", 0, "FILE", STR(nic_file), .commands = M | A, .group = PCIBW_GRP_TRAFFIC,
     .help = "a NIC profile from a file"},
    {"pattern", 0, "P", CALL(set_pattern), .commands = M, .group = PCIBW_GRP_TRAFFIC,
     .help = "rx, tx, both (default), dma-read, dma-write, dma-rw"},
    {"pattern", 0, "P", CALL(set_pattern), .commands = A, .group = PCIBW_GRP_TRAFFIC,
     .help = "rx, tx, both (default), dma-read, dma-write, dma-rw; a direction\ncolumn wins"},
    {"sizes", 0, "LIST", STR(sizes), .commands = M, .group = PCIBW_GRP_TRAFFIC,
     .help = "64,128,1518 | 64-1518/64 | imix | SIZE:WEIGHT,...\n(default 64,128,256,512,1024,1518)"},
    {"size-is", 0, "CONV", CALL(set_size_is), .commands = M, .group = PCIBW_GRP_TRAFFIC,
     .help = "frame (default), dma, l3, udp-payload, tcp-payload"},
    {"size-is", 0, "CONV", CALL(set_size_is), .commands = A, .group = PCIBW_GRP_TRAFFIC,
     .help = "frame (default), dma, l3, udp-payload, tcp-payload: what a `size`\ncolumn counts"},
    {"mtu", 0, "N", .type = PCIBW_OPT_INT, .target = AT(mtu), .lo = 68, .hi = 65536,
     .expect = "an IP MTU in bytes, 68..65536", .commands = A, .group = PCIBW_GRP_TRAFFIC,
     .help = "IP MTU (default 1500): TCP segments of MTU - 52 B where no MSS is reported,\n"
	     "UDP datagrams above it sent as IP fragments"},
    {"line-rate", 0, "RATE", CALL(set_line_rate), .commands = M | A, .group = PCIBW_GRP_TRAFFIC,
     .help = "10G, 2.5G, 100M, ... (1M..100000G): the wire ceiling; NxRATE for N\n"
	     "ports driven together (2x25G: their sum, 50G)"},
    {"line-rate", 0, "RATE", CALL(set_line_rate), .commands = W, .group = PCIBW_GRP_TRAFFIC,
     .help = "10G, 2.5G, 100M, 2x25G (N ports, their sum), ...: the wire ceiling\n"
	     "(default: the interface's speed)"},

    /* the CPU */
    {"cpus", 0, "N", .type = PCIBW_OPT_INT, .target = AT(cpus), .lo = 1, .hi = 1 << 20,
     .expect = "a whole number of CPUs (1 or more)", .commands = A, .group = PCIBW_GRP_CPU,
     .help = "CPUs of the measured machine (else --topology's count, or this machine's\n"
	     "when the device was probed live)"},
    {"cpu-ghz", 0, "F", .type = PCIBW_OPT_REAL, .target = AT(cpu_mhz), .lo = 0.001, .hi = 100, .scale = 1000,
     .expect = "a clock in GHz from 0.001 to 100 (e.g. 2.8)", .commands = A, .group = PCIBW_GRP_CPU,
     .help = "its clock (else this machine's when the device was probed live)"},

    {"cpu-from", 0, "FILE", STR(cpu_from), .commands = A, .group = PCIBW_GRP_CPU,
     .help = "the run's CPU from mpstat -P ALL, sar -P ALL or sar -u ALL output\n"
	     "(for rows that measured none; such a file given as an input does the same)"},

    /* verdicts */
    {"threshold", 0, "NAME=VALUE", CALL(set_threshold), .commands = A | W, .group = PCIBW_GRP_VERDICT,
     .help = "impossible=1.10 wire=0.95 bus=0.85 cpu=0.90 core=0.95 elasticity=0.5\n"
	     "flat=0.05 flat_sizes=3 cpu_only=0.75 idle=0.60 cycles_high=50000\n"
	     "notable=0.75 cores_elasticity=0.5 cores_flat=0.05 tcp_window=0.70"},

    /* watch: sampling and recordings */
    {"interval", 0, "SECONDS", .type = PCIBW_OPT_REAL, .target = AT(interval_s), .lo = 0.1, .hi = 3600,
     .expect = "seconds, a decimal from 0.1 to 3600", .commands = W, .group = PCIBW_GRP_SAMPLE,
     .help = "between samples (default 1)"},
    {"count", 0, "N", .type = PCIBW_OPT_INT, .target = AT(count), .lo = 1, .hi = 1000000000,
     .expect = "a whole number of intervals, 1 or more", .commands = W, .group = PCIBW_GRP_SAMPLE,
     .help = "stop after N intervals (default: at SIGINT, SIGTERM or SIGHUP, with\nthe summary)"},
    {"record", 0, "DIR", STR(record_dir), .commands = W, .group = PCIBW_GRP_SAMPLE,
     .help = "save every sample into the new or empty DIR (raw /proc and /sys text,\n"
	     "MAC/IP addresses and the host name removed; doc/watch-recording.md)"},
    {"record-max", 0, "SIZE", CALL(set_record_max), .commands = W, .group = PCIBW_GRP_SAMPLE,
     .help = "cap the recording: bytes, or NUMBER with K, M, G or T, 4K..1T (default 64M)"},
    {"replay", 0, "DIR", STR(replay_dir), .commands = W, .group = PCIBW_GRP_SAMPLE,
     .help = "run on a recording instead of this machine (honours --count,\nnot --interval)"},
    {"dump", 0, "FILE", STR(probe.dump_file), .commands = W, .group = PCIBW_GRP_SOURCE,
     .help = "refused (exit 2): watch samples this machine or a --replay recording"},
    {"sysfs", 0, "DIR", STR(probe.sysfs_dir), .commands = W, .group = PCIBW_GRP_SOURCE,
     .help = "refused (exit 2), as --dump"},
    {"topology", 0, "FILE", STR(probe.topology_file), .commands = W, .group = PCIBW_GRP_SOURCE,
     .help = "refused (exit 2), as --dump"},

    /* output */
    {"format", 0, "text|json|csv|prometheus", CALL(set_format), .commands = R, .group = PCIBW_GRP_OUTPUT,
     .help = "output format (default text); csv: one row per device,\nwarnings on standard error; "
	     "prometheus: metrics for node_exporter's\ntextfile collector (doc/prometheus.md)"},
    {"textfile", 0, "FILE", STR(textfile), .commands = R | W, .group = PCIBW_GRP_OUTPUT,
     .help = "with --format prometheus: write FILE atomically (a temporary\nfile in its directory, "
	     "then rename) instead of standard output"},
    {"format", 0, "text|json|csv", CALL(set_format), .commands = M | A, .group = PCIBW_GRP_OUTPUT,
     .help = "output format (default text); json and csv put warnings\non standard error"},
    {"format", 0, "text|json|csv|prometheus", CALL(set_format), .commands = W, .group = PCIBW_GRP_OUTPUT,
     .help = "a line per interval (default); JSON lines (\"type\" interval, then summary);\n"
	     "csv rows `pcibw analyze` reads back with the same verdict; prometheus:\n"
	     "each interval's figures for node_exporter (with --textfile: the file\nreplaced)"},
    {"format", 0, "text|json", CALL(set_format), .commands = S, .group = PCIBW_GRP_OUTPUT,
     .help = "output format (default text)"},
    {"json", 0, NULL, CALL(set_json), .commands = R | M | A | W | S, .group = PCIBW_GRP_OUTPUT,
     .help = "= --format json"},
    {"plot", 0, "FILE.svg", CALL(set_plot), .commands = M, .group = PCIBW_GRP_OUTPUT,
     .help = "draw the ceilings against packet size"},
    {"explain", 0, NULL, FLAG(explain), .commands = M, .group = PCIBW_GRP_OUTPUT,
     .help = "per size, each bus operation a packet costs: bytes per packet each way and\n"
	     "the knob or key behind it (JSON: rows[].recipe)"},
    {"plot", 0, "FILE.svg", CALL(set_plot), .commands = A, .group = PCIBW_GRP_OUTPUT,
     .help = "measured points over the bus and wire ceilings"},
    {"wide", 0, NULL, FLAG(wide), .commands = A, .group = PCIBW_GRP_OUTPUT,
     .help = "every column of the text table, past 100 columns"},
    {"help", 'h', NULL, FLAG(help), .commands = R | M | A | W | S, .group = PCIBW_GRP_OUTPUT,
     .help = "this help"},
};
const int pcibw_n_options = N(pcibw_options);

const struct pcibw_command_info pcibw_commands[] = {
    {"report", PCIBW_CMD_REPORT, false, "Usage: pcibw report [OPTIONS]\n       pcibw [OPTIONS]\n",
     "For each network controller (class 0x02, InfiniBand 0x0c06): the bus it runs on (PCI,\n"
     "PCI-X or PCIe: clock, width, link speed and width, MPS/MRRS/MMRBC), the path to the root\n"
     "complex and the hop with the least bandwidth. Reads this machine unless a source is given.\n",
     "Exit codes: 0 ok, 2 usage, 3 bad input (file:line:column), 4 nothing matched,\n"
     "5 not possible here, 1 internal error or output not written. JSON keys: doc/json.md.\n"},
    {"model", PCIBW_CMD_MODEL, false, "Usage: pcibw model [OPTIONS]\n",
     "The theoretical bus ceiling per packet size (what-if): every transaction a packet costs,\n"
     "with the bus protocol's overheads, against the wire. The bus: --bus SPEC, or the bus of a\n"
     "probed device (-s, -i; this machine, --dump FILE or --sysfs DIR).\n",
     "Rates count the bytes of the --size-is convention; for `both` they are per direction.\n"
     "Exit codes: 0 ok, 2 bad option or spec, 3 bad input file, 4 no such device, 5 not possible here,\n"
     "1 internal error or output not written.\n"},
    {"analyze", PCIBW_CMD_ANALYZE, true, "Usage: pcibw analyze FILE... [OPTIONS]\n",
     "Measured throughput against the model, the wire and the CPU: io-bound, wire-bound,\n"
     "cpu-bound, impossible or undetermined, per row and for the whole input, with the evidence.\n"
     "\n"
     "Inputs (format detected from the content; '-' reads standard input):\n"
     "  CSV with a header (frame_bytes|payload_bytes|msg_size|size, [PREFIX_]pps|kpps|mpps|mbps|gbps|MB/s,\n"
     "  cpu_pct, cpuN_pct, core_max_pct, direction, work|copies, cpu_mhz, iface, test; case, blanks and\n"
     "  a bracketed unit ignored: \"Frame Bytes\", \"CPU %\"; ',' ';' or tab between fields), iperf3 -J,\n"
     "  netperf (classic and omni -o/-O), pcie-bench bw_dma_sz_sweep.csv\n",
     "Exit codes: 0 ok, 2 bad option or spec, 3 bad input file (file:line:column), 4 no such device,\n"
     "5 not possible here, 1 internal error or output not written.\n"},
    {"watch", PCIBW_CMD_WATCH, true, "Usage: pcibw watch [IFACE...] [OPTIONS]\n",
     "The verdict live: every interval, each interface's packets and bytes per direction, the\n"
     "NIC's interrupts, softnet and its own PCIe counters (ethtool), per-core CPU time (user,\n"
     "nice, system, irq, softirq, steal, iowait, idle), set against the bus, the wire and the CPU.\n"
     "With no IFACE: every interface that has a PCI device. A virtual NIC has no bus ceiling:\n"
     "the CPU side is given.\n",
     "Exit codes: 0 ok (a virtual NIC too), 1 output or recording not written, 2 bad option\n"
     "(--dump, --sysfs, --topology: a recording carries its own machine), 3 bad recording,\n"
     "4 no such interface, 5 not possible here.\n"},
    {"slots", PCIBW_CMD_SLOTS, false, "Usage: pcibw slots [OPTIONS]\n",
     "Every PCI Express root or switch downstream port a card can sit below, occupied or empty:\n"
     "its physical slot name (Slot Capabilities, sysfs slots/, --smbios), NUMA node, capability,\n"
     "the hops it shares with other slots and what sits in it. With --nic and --line-rate: each\n"
     "slot's port fit for that card on its path, ranked. Reads this machine unless a source is given.\n",
     "Exit codes: 0 ok, 2 usage, 3 bad input (file:line:column), 4 no slot port in the source,\n"
     "5 not possible here, 1 internal error or output not written. JSON keys: doc/json.md.\n"},
};
const int pcibw_n_commands = N(pcibw_commands);

const struct pcibw_command_info *pcibw_command_find(const char *name)
{
	for (int i = 0; i < pcibw_n_commands; i++)
		if (name && !strcmp(pcibw_commands[i].name, name))
			return &pcibw_commands[i];
	return NULL;
}

const char *pcibw_option_label(const struct pcibw_option *o)
{
	static char labels[N(pcibw_options)][40];
	long i = o - pcibw_options;
	if (i < 0 || i >= pcibw_n_options)
		return "?";
	if (!labels[i][0]) {
		if (o->name)
			snprintf(labels[i], sizeof labels[i], "--%s", o->name);
		else
			snprintf(labels[i], sizeof labels[i], "-%c", o->short_name);
	}
	return labels[i];
}
