/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From options to the things the model and the verdict need: the bus, the NIC profile, the size
 * list, the CPU. One resolution for every command, so an option means the same in each.
 */
#include "pcibw/device.h"
#include "pcibw/request.h"
#include "src/util/input.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* model's sizes when --sizes is not given: RFC 2544 sec. 9.1's Ethernet frame sizes but 1280 */
#define DEFAULT_SIZES "64,128,256,512,1024,1518"

/* Two names of one file (a link, "./x" and "x"): stat, not the spelling, decides. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return a && b && strcmp(a, "-") && strcmp(b, "-") && !stat(a, &sa) && !stat(b, &sb) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int pcibw_request_check_outputs(const struct pcibw_request *req, struct pcibw_err *err)
{
	const char *const outs[][2] = {{"--plot", req->plot}, {"--textfile", req->textfile}};
	char meta[4200] = "", samples[4200] = "";
	if (req->replay_dir) {
		snprintf(meta, sizeof meta, "%s/meta", req->replay_dir);
		snprintf(samples, sizeof samples, "%s/samples", req->replay_dir);
	}
	const char *const ins[][2] = {{"--dump", req->probe.dump_file},
				      {"--pciconf", req->probe.pciconf_file},
				      {"--topology", req->probe.topology_file},
				      {"--pci-ids", req->probe.pci_ids},
				      {"--cpu-from", req->cpu_from},
				      {"--nic-file", req->nic_file},
				      {"--replay's", meta[0] ? meta : NULL},
				      {"--replay's", samples[0] ? samples : NULL}};
	for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++) {
		const char *out = outs[o][1];
		if (!out)
			continue;
		if (!*out)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "%s '': empty file name: expected a file to write", outs[o][0]);
		for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++)
			if (same_file(out, ins[i][1]))
				return pcibw_fail(
				    err, PCIBW_EUSAGE,
				    "%s %s is %s %s, an input of this run: writing it would destroy it; "
				    "give another name",
				    outs[o][0], out, ins[i][0], ins[i][1]);
		for (int i = 0; i < req->n_files && req->command == PCIBW_CMD_ANALYZE; i++)
			if (same_file(out, req->files[i]))
				return pcibw_fail(
				    err, PCIBW_EUSAGE,
				    "%s %s is the input %s of this run: writing it would destroy it; "
				    "give another name",
				    outs[o][0], out, req->files[i]);
	}
	return PCIBW_OK;
}

int pcibw_request_check_sources(const struct pcibw_request *req, struct pcibw_err *err)
{
	int st = pcibw_request_check_outputs(req, err);
	if (st)
		return st;
	int n = !!req->probe.dump_file + !!req->probe.sysfs_dir + !!req->probe.topology_file;
	if (n > 1)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--dump, --sysfs and --topology name different machines: give at most one");
	if (n && req->probe.pciconf_file)
		return pcibw_fail(err, PCIBW_EUSAGE, "--pciconf and --%s name different machines: give one",
				  req->probe.dump_file	 ? "dump"
				  : req->probe.sysfs_dir ? "sysfs"
							 : "topology");
	/* standard input is read once: two readers of "-" would leave the second an empty stream */
	const char *who[3];
	int k = 0;
	if (req->probe.dump_file && !strcmp(req->probe.dump_file, "-"))
		who[k++] = "--dump -";
	if (req->probe.pciconf_file && !strcmp(req->probe.pciconf_file, "-"))
		who[k++] = "--pciconf -";
	if (req->cpu_from && !strcmp(req->cpu_from, "-"))
		who[k++] = "--cpu-from -";
	int files_stdin = 0;
	for (int i = 0; i < req->n_files && req->command == PCIBW_CMD_ANALYZE; i++)
		files_stdin += !strcmp(req->files[i], "-");
	/* one file named twice would have its rows counted twice (n 2 for one measurement) */
	for (int i = 0; i < req->n_files && req->command == PCIBW_CMD_ANALYZE; i++)
		for (int k = 0; k < i; k++)
			if (same_file(req->files[i], req->files[k]))
				return pcibw_fail(
				    err, PCIBW_EUSAGE,
				    "the input %s is given twice%s%s%s: its rows would count twice; "
				    "give it once",
				    req->files[k], strcmp(req->files[k], req->files[i]) ? " (also as " : "",
				    strcmp(req->files[k], req->files[i]) ? req->files[i] : "",
				    strcmp(req->files[k], req->files[i]) ? ")" : "");
	if (files_stdin > 1)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "the input '-' is given %d times: standard input is read once",
				  files_stdin);
	if (k == 2 || (k == 1 && files_stdin))
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "%s and %s both read standard input: give one of them a file", who[0],
				  k == 2 ? who[1] : "the input '-'");
	return PCIBW_OK;
}

static void warn(struct pcibw_resolved *r, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(struct pcibw_resolved *r, const char *code, const char *fmt, ...)
{
	if (r->n_warnings >= PCIBW_MAX_REQUEST_WARNINGS)
		return;
	struct pcibw_request_warning *w = &r->warnings[r->n_warnings++];
	w->code = code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof w->text, fmt, ap);
	va_end(ap);
}

/*
 * model's sizes against what their convention can be: a packet counted as an IP packet or its
 * UDP/TCP payload cannot make an IPv4 packet over 65535 B (RFC 791 sec. 3.1, Total Length), and a
 * size whose frame is under Ethernet's 64 B minimum (IEEE 802.3 clause 4.4.2, minFrameSize) is
 * modelled as a padded 64 B frame, which is said.
 */
static int sizes_check(const struct pcibw_request *req, struct pcibw_resolved *r, struct pcibw_err *err)
{
	enum pcibw_size_is s = req->size_is;
	/* the convention's headers: linear above the 64 B floor (1000 B is above it for all) */
	double over = pcibw_frame_bytes(1000, s) - 1000;
	bool ip = s == PCIBW_SIZE_L3 || s == PCIBW_SIZE_UDP_PAYLOAD || s == PCIBW_SIZE_TCP_PAYLOAD;
	/* a DMA size is moved as given (only its frame on the wire pads), and a DMA test has no
	 * frame at all */
	enum pcibw_pattern pat = r->in.pattern;
	bool pads = s != PCIBW_SIZE_DMA && pat != PCIBW_PAT_DMA_READ && pat != PCIBW_PAT_DMA_WRITE &&
		    pat != PCIBW_PAT_DMA_RW;
	int padded = 0;
	double first = 0;
	for (int i = 0; i < r->sizes.n; i++) {
		double v = r->sizes.v[i].bytes;
		if (ip && v + over - 18 > 65535)
			return pcibw_fail(
			    err, PCIBW_EUSAGE,
			    "--sizes: %g B of %s makes an IPv4 packet of %g B, over the 65535 B "
			    "its Total Length can hold (the most is %g B)",
			    v, pcibw_size_is_name(s), v + over - 18, 65535 - over + 18);
		if (pads && v + over < 64 && padded++ == 0)
			first = v;
	}
	if (padded)
		warn(r, "frame-padded",
		     "%d size%s (from %g B) make%s a frame under Ethernet's 64 B minimum: modelled as "
		     "a 64 B frame, padded; the rates count the size given",
		     padded, padded > 1 ? "s" : "", first, padded > 1 ? "" : "s");
	return PCIBW_OK;
}

/* Whether MPS sizes any TLP: a packet (or DMA transfer) moves more than 128 B of data.
 * model knows its sizes; analyze and watch learn theirs from the input, whose packets are
 * nearly always larger, so they are told whenever the default applies. */
static bool mps_binds(const struct pcibw_request *req, const struct pcibw_resolved *r)
{
	if (req->command != PCIBW_CMD_MODEL)
		return true;
	for (int i = 0; i < r->sizes.n; i++) {
		double dma = pcibw_size_is_packet(req->size_is)
				 ? pcibw_size_bytes_as(r->sizes.v[i].bytes, req->size_is, PCIBW_SIZE_DMA)
				 : r->sizes.v[i].bytes;
		if (!(dma <= 128))
			return true;
	}
	return false;
}

/* Whether o's traffic crosses hop: a bridge slot in its path, or the link of d's own device
 * (another function of it, which shares its link). */
static bool crosses(const struct pcibw_device *o, const struct pcibw_device *d, const char *hop)
{
	if (!strcmp(hop, d->slot))
		return o->domain == d->domain && o->bus == d->bus && o->dev == d->dev;
	for (int k = 0; k < o->n_path; k++)
		if (!strcmp(o->path[k].slot, hop))
			return true;
	return false;
}

/* How many devices use d's bottleneck hop, d included: a shared PCI/PCI-X segment's masters
 * (its segment_peers and d), else the endpoints of the same source (every class: storage
 * below a switch uplink shares it as a NIC does) whose path crosses the hop. SR-IOV VFs are
 * left out: they move their PF's traffic. 0 when the source shows no bottleneck or cannot be
 * read again. */
static int hop_devices(const struct pcibw_request *req, const struct pcibw_device *d)
{
	if (!d->bottleneck_slot[0])
		return 0;
	if (d->bottleneck_shared == 1)
		return d->n_peers + 1;
	struct pcibw_probe_opts po = req->probe;
	po.slot_filter = NULL;
	po.iface = NULL;
	po.all = true;
	struct pcibw_report rep = {0};
	struct pcibw_err e = {0};
	int n = 0;
	if (pcibw_probe(&po, &rep, &e) == PCIBW_OK) {
		for (int i = 0; i < rep.n_devices; i++) {
			const struct pcibw_device *o = &rep.devices[i];
			if (!o->is_bridge && !o->is_vf &&
			    (!strcmp(o->slot, d->slot) || crosses(o, d, d->bottleneck_slot)))
				n++;
		}
	}
	pcibw_report_free(&rep);
	return n;
}

/* The bus of the one device the probe options select, its ids and "SLOT (SOURCE)". */
static int probed_bus(const struct pcibw_request *req, struct pcibw_resolved *r, struct pcibw_err *err)
{
	struct pcibw_report rep = {0};
	int st = pcibw_probe(&req->probe, &rep, err);
	if (st) {
		pcibw_report_free(&rep);
		return st;
	}
	if (rep.n_devices == 0) {
		pcibw_report_free(&rep);
		return pcibw_fail(err, PCIBW_ENOMATCH,
				  "no network device matched: give -s SLOT (and --all for "
				  "other classes) or --bus SPEC");
	}
	if (rep.n_devices > 1) {
		char list[512] = "";
		size_t o = 0;
		for (int i = 0; i < rep.n_devices && o < sizeof list; i++)
			o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
					      rep.devices[i].slot);
		pcibw_report_free(&rep);
		return pcibw_fail(err, PCIBW_EUSAGE, "several devices match (%s): pick one with -s SLOT",
				  list);
	}
	const struct pcibw_device *d = &rep.devices[0];
	r->device = *d;
	r->have_device = true;
	r->hop_devices = hop_devices(req, d);
	r->vendor_id = d->vendor_id;
	r->device_id = d->device_id;
	/* a port bound to vfio-pci, uio_pci_generic or igb_uio runs a DPDK driver: its profile */
	snprintf(r->driver, sizeof r->driver, "%s", d->driver);
	snprintf(r->bus_from, sizeof r->bus_from, "%s (%s)", d->slot, rep.source);
	if (d->is_virtual) {
		memset(&r->bus, 0, sizeof r->bus);
		r->bus.kind = PCIBW_BUS_VIRTUAL;
	} else {
		st = pcibw_bus_from_device(d, &r->bus, err);
	}
	/* a link read from sysfs without root has no Device Control: say the registers are assumed */
	if (!st && r->bus.kind == PCIBW_BUS_PCIE && !r->bus.note[0] &&
	    (r->bus.mps_default || r->bus.mrrs_default))
		snprintf(r->bus.note, sizeof r->bus.note,
			 "%s: MPS/MRRS not in the source (config space past 64 bytes "
			 "needs root or an -xxx dump): assumed MPS %d, MRRS %d",
			 d->slot, r->bus.mps_bytes, r->bus.mrrs_bytes);
	pcibw_report_free(&rep);
	r->have_bus = !st;
	return st;
}

static void virtual_bus(struct pcibw_resolved *r, const char *from)
{
	memset(&r->bus, 0, sizeof r->bus);
	r->bus.kind = PCIBW_BUS_VIRTUAL;
	r->have_bus = true;
	snprintf(r->bus_from, sizeof r->bus_from, "%s", from);
}

static void bus_words(const struct pcibw_bus *b, char *buf, size_t n)
{
	switch (b->kind) {
	case PCIBW_BUS_PCI:
		snprintf(buf, n, "PCI %d/%d bus", b->clock_mhz, b->width_bits);
		break;
	case PCIBW_BUS_PCIX:
		snprintf(buf, n, "PCI-X %d/%d bus",
			 b->clock_mhz * (b->transfers_per_clock > 1 ? b->transfers_per_clock : 1),
			 b->width_bits);
		break;
	case PCIBW_BUS_PCIE:
		snprintf(buf, n, "PCIe gen%d x%d link", b->gen, b->lanes);
		break;
	case PCIBW_BUS_VIRTUAL:
		snprintf(buf, n, "virtual NIC");
		break;
	default:
		snprintf(buf, n, "bus");
	}
}

#define MAX_NIC_SETS 16

/* The NIC knobs of a request: --nic NAME,KNOB=VALUE,... first, then each --nic-set. */
struct nic_sets {
	char name[128];
	char buf[MAX_NIC_SETS][128];
	const char *v[2 * MAX_NIC_SETS];
	int n;
};

/* The items of a KEY=V,KEY=V list (as the profile's key lists are split: on ',', blanks
 * around): the first, and the one after x, or NULL. */
static const char *item(const char *x)
{
	return x + strspn(x, " \t");
}

static const char *next_item(const char *x)
{
	const char *c = strchr(x, ',');
	return c ? item(c + 1) : NULL;
}

static int split_nic(const struct pcibw_request *req, struct nic_sets *s, struct pcibw_err *err)
{
	memset(s, 0, sizeof *s);
	if (req->nic) {
		const char *comma = strchr(req->nic, ',');
		size_t len = comma ? (size_t)(comma - req->nic) : strlen(req->nic);
		if (len >= sizeof s->name)
			return pcibw_fail(err, PCIBW_EUSAGE, "--nic '%s': the profile name is too long",
					  req->nic);
		snprintf(s->name, sizeof s->name, "%.*s", (int)len, req->nic);
		for (const char *p = comma; p && *p;) {
			const char *q = strchr(p + 1, ',');
			size_t l = q ? (size_t)(q - p - 1) : strlen(p + 1);
			if (s->n >= MAX_NIC_SETS || l >= sizeof s->buf[0] || l == 0)
				return pcibw_fail(
				    err, PCIBW_EUSAGE,
				    "--nic '%s': expected NAME,KNOB=VALUE,... (at most %d, none empty)",
				    req->nic, MAX_NIC_SETS);
			snprintf(s->buf[s->n], sizeof s->buf[0], "%.*s", (int)l, p + 1);
			s->v[s->n] = s->buf[s->n];
			s->n++;
			p = q;
		}
	}
	for (int i = 0; i < req->n_nic_sets && i < MAX_NIC_SETS; i++)
		s->v[s->n++] = req->nic_sets[i];
	/* each knob or key once, in --nic NAME,... and --nic-set together: a second value would win
	 * silently. A --nic-set value may set several keys ("a=1,b=2"), so each item is checked. */
	int from_nic = s->n - (req->n_nic_sets < MAX_NIC_SETS ? req->n_nic_sets : MAX_NIC_SETS);
	for (int i = 0; i < s->n; i++)
		for (const char *x = item(s->v[i]); x; x = next_item(x))
			for (int k = 0; k <= i; k++)
				for (const char *y = item(s->v[k]); y && (k < i || y < x); y = next_item(y)) {
					size_t a = strcspn(x, "=, \t"), b = strcspn(y, "=, \t");
					if (a != b || strncmp(x, y, a))
						continue;
					char wy[200], wx[200];
					snprintf(wy, sizeof wy, k < from_nic ? "--nic %s" : "--nic-set '%s'",
						 k < from_nic ? req->nic : s->v[k]);
					snprintf(wx, sizeof wx, i < from_nic ? "--nic %s" : "--nic-set '%s'",
						 i < from_nic ? req->nic : s->v[i]);
					return pcibw_fail(
					    err, PCIBW_EUSAGE,
					    "NIC knob %.*s given twice ('%.*s' in %s and '%.*s' "
					    "in %s): give it once",
					    (int)a, x, (int)strcspn(y, ","), y, wy, (int)strcspn(x, ","), x,
					    wx);
				}
	return PCIBW_OK;
}

static void origin_add(char *buf, size_t n, const char *what)
{
	size_t l = strlen(buf);
	if (!strstr(buf, what))
		snprintf(buf + l, n - l, "%s%s", l ? ", " : "", what);
}

/* The CPU the measurement ran on: options first, then the export's PU count, then this machine
 * when the device was probed here. */
static int resolve_cpu(const struct pcibw_request *req, struct pcibw_resolved *r, bool live,
		       struct pcibw_err *err)
{
	r->cpus = req->cpus;
	r->cpu_mhz = req->cpu_mhz;
	if (req->cpus != PCIBW_NULL || !isnan(req->cpu_mhz))
		origin_add(r->cpu_origin, sizeof r->cpu_origin, "options");
	if (r->cpus == PCIBW_NULL && req->probe.topology_file) {
		struct pcibw_cpuinfo ci;
		int st = pcibw_cpuinfo_hwloc_xml(req->probe.topology_file, &ci, err);
		if (st)
			return st;
		r->cpus = ci.cpus;
		char o[1100];
		snprintf(o, sizeof o, "%s:%s", ci.origin, req->probe.topology_file);
		origin_add(r->cpu_origin, sizeof r->cpu_origin, o);
	}
	if (live && (r->cpus == PCIBW_NULL || isnan(r->cpu_mhz))) {
		struct pcibw_cpuinfo ci;
		pcibw_cpuinfo_live(&ci);
		if (r->cpus == PCIBW_NULL)
			r->cpus = ci.cpus;
		if (isnan(r->cpu_mhz))
			r->cpu_mhz = ci.mhz;
		origin_add(r->cpu_origin, sizeof r->cpu_origin, ci.origin);
	}
	return PCIBW_OK;
}

/*
 * A --bus-set MPS above what the device, or the nearest port above it, supports: PCIe Base 6.0
 * sec. 7.5.3.4 Device Control bits 7:5 must not be set above Device Capabilities bits 2:0
 * (sec. 7.5.3.3). The what-if stays legitimate (a device that could do it), so it warns.
 */
static void mps_what_if(struct pcibw_resolved *r)
{
	if (!r->have_device || r->bus.kind != PCIBW_BUS_PCIE)
		return;
	const struct pcibw_device *d = &r->device;
	int mps = r->bus.mps_bytes, port = d->n_path > 0 ? d->path[0].mps_supported_bytes : PCIBW_NULL;
	if (d->mps_supported_bytes > 0 && mps > d->mps_supported_bytes)
		warn(r, "mps-above-devcap",
		     "%s: --bus-set mps=%d is above the %d bytes the device supports (DevCap "
		     "MaxPayload); real hardware cannot be set to it (PCIe Base sec. 7.5.3.4): the ceilings "
		     "are for a device that could",
		     d->slot, mps, d->mps_supported_bytes);
	else if (port > 0 && mps > port)
		warn(r, "mps-above-devcap",
		     "%s: --bus-set mps=%d is above the %d bytes its upstream port %s supports (DevCap "
		     "MaxPayload); a TLP that large would be a malformed TLP there (PCIe Base sec. "
		     "2.2.2): the ceilings are for a path that could carry it",
		     d->slot, mps, port, d->path[0].slot);
}

/* given: where req->bus (or parsed, a bus already parsed that stands for it) came from, the
 * user (PCIBW_BUS_FROM_OPTION) or an input (PCIBW_BUS_FROM_STATED) */
static int resolve(const struct pcibw_request *req, struct pcibw_resolved *r, enum pcibw_bus_origin given,
		   const struct pcibw_bus *parsed, struct pcibw_err *err)
{
	bool bus_stated = given == PCIBW_BUS_FROM_STATED;
	int st;
	memset(r, 0, sizeof *r);
	r->vendor_id = r->device_id = PCIBW_NULL;
	r->cpus = PCIBW_NULL;
	r->cpu_mhz = NAN;
	r->in.bus = &r->bus;
	r->in.nic = &r->nic;
	r->in.pattern = req->pattern;
	r->in.size_is = req->size_is;
	r->in.line_rate_gbps = req->line_rate_gbps;
	r->in.compat = req->compat;
	r->in.segment_devices = req->segment_devices;
	bool model = req->command == PCIBW_CMD_MODEL;
	const struct pcibw_probe_opts *p = &req->probe;
	bool probed = p->slot_filter || p->dump_file || p->pciconf_file || p->sysfs_dir || p->iface;

	if ((st = pcibw_request_check_sources(req, err)))
		return st;
	if (req->bus && probed)
		return pcibw_fail(
		    err, PCIBW_EUSAGE,
		    "--bus and a probed device (-s, -i, --dump, --sysfs) both name the bus: give one");
	if (model && p->topology_file)
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--topology holds no config space: give --bus SPEC, or --dump/--sysfs");
	if (req->nic && req->nic_file)
		return pcibw_fail(err, PCIBW_EUSAGE, "--nic and --nic-file both name the profile: give one");
	if (model && (st = pcibw_sizes_parse(req->sizes ? req->sizes : DEFAULT_SIZES, &r->sizes, err)))
		return st;
	if (model && (st = sizes_check(req, r, err)))
		return st;
	struct nic_sets sets;
	if ((st = split_nic(req, &sets, err)))
		return st;

	/* the profile the user named comes first: a paravirtual one needs no bus */
	bool named = req->nic || req->nic_file;
	if (req->nic_file)
		st = pcibw_nic_load_file(req->nic_file, &r->nic, err);
	else if (req->nic)
		st = pcibw_nic_load(sets.name, NULL, &r->nic, err);
	if (st)
		return st;
	if (parsed) {
		r->bus = *parsed;
		r->have_bus = true;
		r->bus_origin = given;
		snprintf(r->bus_from, sizeof r->bus_from, "--bus");
	} else if (req->bus && !strcmp(req->bus, "virtual")) {
		virtual_bus(r, "--bus");
		r->bus_origin = given;
	} else if (req->bus) {
		if ((st = pcibw_bus_parse(req->bus, &r->bus, err)))
			return st;
		r->have_bus = true;
		r->bus_origin = given;
		snprintf(r->bus_from, sizeof r->bus_from, "--bus");
	} else if (probed || (model && !(named && r->nic.is_virtual))) {
		if ((st = probed_bus(req, r, err)))
			return st;
		r->bus_origin = PCIBW_BUS_FROM_PROBE;
	}
	if (req->bus_set) {
		/* a what-if on a probed device's registers; a spec takes its modifiers itself */
		if (req->bus || parsed || !r->have_bus)
			return pcibw_fail(err, PCIBW_EUSAGE,
					  "--bus-set changes a probed device (-s, -i, --dump, --sysfs); with "
					  "--bus, put the modifiers in the spec");
		if ((st = pcibw_bus_apply(&r->bus, req->bus_set, err)))
			return st;
		mps_what_if(r);
		size_t l = strlen(r->bus_from);
		snprintf(r->bus_from + l, sizeof r->bus_from - l, " with --bus-set %s", req->bus_set);
	}
	if (!named) {
		char name[64];
		const char *n = NULL;
		if (r->vendor_id >= 0)
			n = pcibw_nic_default_name(r->vendor_id, r->device_id, r->driver, NULL, name,
						   sizeof name);
		if (!n && r->vendor_id >= 0)
			warn(r, "no-nic-profile",
			     "no NIC profile lists %04x:%04x; using 'simple' (pick one with --nic)",
			     (unsigned)r->vendor_id, (unsigned)r->device_id);
		if ((st = pcibw_nic_load(n ? n : "simple", NULL, &r->nic, err)))
			return st;
	}
	/* a loaded profile always has its [profile] name */
	snprintf(r->nic_name, sizeof r->nic_name, "%s", r->nic.name[0] ? r->nic.name : "simple");
	if (!r->have_bus && r->nic.is_virtual) {
		char from[128];
		snprintf(from, sizeof from, "--nic %s (paravirtual)", r->nic_name);
		virtual_bus(r, from);
	}
	/* the knobs settle for the bus the profile will be costed on */
	if ((st = pcibw_nic_configure(&r->nic, r->have_bus ? &r->bus : NULL, req->line_rate_gbps, sets.v,
				      sets.n, err)))
		return st;

	if (r->in.compat == PCIBW_COMPAT_PCIE_BENCH && r->have_bus &&
	    (r->bus.kind == PCIBW_BUS_PCI || r->bus.kind == PCIBW_BUS_PCIX))
		/* pcie-model has no PCI or PCI-X model: "compatible accounting" would be a false label */
		return pcibw_fail(
		    err, PCIBW_EUSAGE,
		    "--compat pcie-bench reproduces pcie-bench's PCIe model; it has none for a %s bus: "
		    "drop --compat",
		    pcibw_bus_kind_name(r->bus.kind));
	if (r->in.compat == PCIBW_COMPAT_PCIE_BENCH && r->have_bus && r->bus.kind == PCIBW_BUS_PCIE &&
	    r->bus.flit)
		/* pcie-model counts TLPs, DLLPs and 8b/10b or 128b/130b symbols (PCIe 1.0-5.0); a Flit-
		 * mode link (PCIe Base 6.0 sec. 4.2.3, mandatory at 64 GT/s) it has no model of, so its
		 * accounting there would be neither pcie-bench's nor the link's */
		return pcibw_fail(
		    err, PCIBW_EUSAGE,
		    "--compat pcie-bench: pcie-model has no Flit mode (a %g GT/s x%d link in Flit mode): "
		    "drop --compat, or give a link below 64 GT/s without flit",
		    r->bus.gts, r->bus.lanes);
	if (req->segment_devices > 1 && !bus_stated && r->have_bus && r->bus.kind != PCIBW_BUS_PCI &&
	    r->bus.kind != PCIBW_BUS_PCIX)
		/* a PCIe link has one device at each end (PCIe Base sec. 1.3): nothing shares it the way
		 * masters share a PCI segment, so the option would change nothing, silently; a machine an
		 * input states (a watch CSV's loopback beside its PCI ports) is not the user's to drop
		 * the option for, and the model costs a segment only on a shared bus */
		return pcibw_fail(err, PCIBW_EUSAGE,
				  "--segment-devices %d: a %s bus is not a shared PCI/PCI-X segment: a link "
				  "joins two devices only (drop the option)",
				  req->segment_devices, pcibw_bus_kind_name(r->bus.kind));
	if (r->have_bus) {
		pcibw_bus_format(&r->bus, r->bus_spec, sizeof r->bus_spec);
		bus_words(&r->bus, r->bus_words, sizeof r->bus_words);
		if (r->bus.note[0])
			warn(r, "bus-note", "%s", r->bus.note);
		if (r->bus.kind == PCIBW_BUS_PCIE && r->bus.aspm > 0)
			warn(r, "aspm",
			     "ASPM %s is on for this link: the ceilings are the same (an exit from a "
			     "low-power state costs latency per wake, not bandwidth), but a link that idles "
			     "between bursts pays it on every burst",
			     (const char *[]){"off", "L0s", "L1", "L0s and L1"}[r->bus.aspm & 3]);
		if (!bus_stated && req->bus && r->bus.kind == PCIBW_BUS_PCIE && r->bus.mps_default &&
		    mps_binds(req, r))
			/* the spec's default is Device Control's reset value (PCIe Base sec. 7.5.3.4:
			 * Max_Payload_Size 000b, 128 B), which most hosts' firmware raises: said, since
			 * it cuts every packet's data into 128 B TLPs and moves a large-packet answer */
			warn(r, "mps-default",
			     "--bus %s gives no mps=: MPS 128 B assumed (PCIe's reset value), which cuts "
			     "each packet's data into 128 B TLPs; give mps= with the host's value (lspci "
			     "-vv DevCtl MaxPayload; 256 on most servers)",
			     req->bus);
		if (r->bus.kind == PCIBW_BUS_VIRTUAL)
			warn(r, "virtual-bus",
			     "a paravirtual device has no bus ceiling: the host's CPU and memory set its "
			     "limit");
		const struct pcibw_nic *n = &r->nic;
		bool limits = n->max_dma_tps > 0 || n->read_tags > 0 || n->write_unit_bytes > 0 ||
			      n->write_burst_bytes > 0;
		if ((r->bus.kind == PCIBW_BUS_PCI || r->bus.kind == PCIBW_BUS_PCIX) && limits)
			/* the [device] limits are PCIe DMA engines' (TLPs, tags, bursts on a link);
			 * a PCI/PCI-X segment's cost is its clocks, which they do not change */
			warn(r, "device-limits",
			     "profile %s's [device] limits (max_dma_tps, read_tags, write_unit_*, "
			     "write_burst_*) are modelled on a PCIe link only: this %s ceiling is the "
			     "segment's clocks without them",
			     r->nic_name, pcibw_bus_kind_name(r->bus.kind));
	}
	if (req->command == PCIBW_CMD_ANALYZE || req->command == PCIBW_CMD_WATCH)
		return resolve_cpu(req, r, probed && !p->dump_file && !p->pciconf_file && !p->sysfs_dir, err);
	return PCIBW_OK;
}

int pcibw_request_resolve(const struct pcibw_request *req, struct pcibw_resolved *r, struct pcibw_err *err)
{
	if (req->command != PCIBW_CMD_ANALYZE || req->n_files == 0)
		return resolve(req, r, PCIBW_BUS_FROM_OPTION, NULL, err);
	/* a piped standard input is kept, so that its "# bus:" lines are read as a file's are */
	int st;
	for (int i = 0; i < req->n_files; i++)
		if (!strcmp(req->files[i], "-") && (st = pcibw_input_spool_stdin(err))) {
			memset(r, 0, sizeof *r);
			return st;
		}
	/* the first file's own "# bus: ..." line (pcibw watch --format csv) fills what no option gave */
	struct pcibw_input_defaults def;
	if ((st = pcibw_ingest_defaults(req->files[0], &def, err))) {
		memset(r, 0, sizeof *r);
		return st;
	}
	return pcibw_request_resolve_defaults(req, &def, r, err);
}

int pcibw_request_resolve_defaults(const struct pcibw_request *req, const struct pcibw_input_defaults *def,
				   struct pcibw_resolved *r, struct pcibw_err *err)
{
	struct pcibw_request cd = *req;
	int st;
	const struct pcibw_probe_opts *p = &req->probe;
	bool probed = p->slot_filter || p->dump_file || p->pciconf_file || p->sysfs_dir || p->iface;
	enum pcibw_bus_origin given = PCIBW_BUS_FROM_OPTION;
	if (def->found) {
		if (!cd.bus && !probed && def->bus[0]) {
			cd.bus = def->bus;
			given = PCIBW_BUS_FROM_STATED;
		}
		if (!cd.nic && !cd.nic_file && def->nic[0])
			cd.nic = def->nic;
		if (cd.line_rate_gbps == 0)
			cd.line_rate_gbps = def->line_rate_gbps;
		if (cd.cpus == PCIBW_NULL && isnan(cd.cpu_mhz)) {
			cd.cpus = def->cpus;
			cd.cpu_mhz = def->cpu_mhz;
		}
	}
	if ((st = resolve(&cd, r, given, NULL, err)))
		return st;
	if (r->bus_origin == PCIBW_BUS_FROM_STATED)
		snprintf(r->bus_from, sizeof r->bus_from, "%s", def->origin);
	if (def->found && req->cpus == PCIBW_NULL && isnan(req->cpu_mhz) &&
	    (def->cpus > 0 || !isnan(def->cpu_mhz)))
		snprintf(r->cpu_origin, sizeof r->cpu_origin, "%s", def->origin);
	return PCIBW_OK;
}

void pcibw_resolved_free(struct pcibw_resolved *r)
{
	pcibw_sizes_free(&r->sizes);
}

int pcibw_request_model_rows(const struct pcibw_resolved *r, struct pcibw_model_row **rows,
			     const char ***labels, int *n, struct pcibw_err *err)
{
	int nrows = r->sizes.is_mix ? 1 : r->sizes.n, st = PCIBW_OK;
	*rows = calloc((size_t)nrows + 1, sizeof **rows);
	*labels = calloc((size_t)nrows + 1, sizeof **labels);
	if (!*rows || !*labels)
		st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	else if (r->sizes.is_mix) {
		st = pcibw_model_eval_mix(&r->in, &r->sizes, &(*rows)[0], err);
		(*labels)[0] = r->sizes.label;
	} else {
		for (int i = 0; i < nrows && !st; i++)
			st = pcibw_model_eval(&r->in, r->sizes.v[i].bytes, &(*rows)[i], err);
	}
	if (st) {
		free(*rows), free(*labels);
		*rows = NULL, *labels = NULL;
		nrows = 0;
	}
	*n = nrows;
	return st;
}

int pcibw_request_model_explain(const struct pcibw_resolved *r, struct pcibw_explain_op **recipe,
				int **recipe_n, struct pcibw_err *err)
{
	int n = r->sizes.is_mix ? 0 : r->sizes.n, st = PCIBW_OK;
	*recipe = calloc((size_t)n * PCIBW_MAX_OPS + 1, sizeof **recipe);
	*recipe_n = calloc((size_t)n + 1, sizeof **recipe_n);
	if (!*recipe || !*recipe_n)
		st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int i = 0; i < n && !st; i++)
		st = pcibw_model_explain(&r->in, r->sizes.v[i].bytes, *recipe + (size_t)i * PCIBW_MAX_OPS,
					 PCIBW_MAX_OPS, &(*recipe_n)[i], err);
	if (st) {
		free(*recipe), free(*recipe_n);
		*recipe = NULL, *recipe_n = NULL;
	}
	return st;
}

int pcibw_request_model_band_terms(const struct pcibw_resolved *r, struct pcibw_band_term **terms,
				   int **terms_n, struct pcibw_err *err)
{
	int n = r->sizes.is_mix ? 0 : r->sizes.n, st = PCIBW_OK;
	*terms = calloc((size_t)n * PCIBW_TERM_COUNT + 1, sizeof **terms);
	*terms_n = calloc((size_t)n + 1, sizeof **terms_n);
	if (!*terms || !*terms_n)
		st = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	for (int i = 0; i < n && !st; i++)
		st =
		    pcibw_model_band_terms(&r->in, r->sizes.v[i].bytes, *terms + (size_t)i * PCIBW_TERM_COUNT,
					   PCIBW_TERM_COUNT, &(*terms_n)[i], err);
	if (st) {
		free(*terms), free(*terms_n);
		*terms = NULL, *terms_n = NULL;
	}
	return st;
}

void pcibw_machine_of(const struct pcibw_resolved *r, struct pcibw_machine *m)
{
	memset(m, 0, sizeof *m);
	m->have_bus = r->have_bus && r->bus.kind != PCIBW_BUS_VIRTUAL;
	m->bus_virtual = r->have_bus && r->bus.kind == PCIBW_BUS_VIRTUAL;
	snprintf(m->bus_name, sizeof m->bus_name, "%s", r->bus_words);
	snprintf(m->bus_note, sizeof m->bus_note, "%s", r->have_bus ? r->bus.note : "");
	m->aspm = r->have_bus ? r->bus.aspm : -1;
	/* a profile whose receive path takes no interrupts (the model's irq_batch 0): a poll-mode
	 * driver, whose cores are busy by design */
	m->poll_mode = r->nic.name[0] && r->nic.irq_batch == 0;
	/* a link trained below its capability for a cause with a fix; partner-limited is none (the
	 * link runs at the most both ends support) */
	const struct pcibw_link_cause *lc = r->have_device ? &r->device.link_cause : NULL;
	if (lc && lc->code && strcmp(lc->code, "partner-limited")) {
		m->link_cause = lc->code;
		m->link_gts = r->device.link_speed_gts;
		m->link_cap_gts = r->device.max_link_speed_gts;
		m->link_width = r->device.link_width;
		m->link_cap_width = r->device.max_link_width;
		snprintf(m->link_fix, sizeof m->link_fix, "%s", lc->fix);
	}
	/* a bottleneck hop other devices use too: the bus share the row sees is not all its own */
	if (r->have_device && r->hop_devices >= 2 && r->bus.kind != PCIBW_BUS_VIRTUAL) {
		snprintf(m->shared_hop, sizeof m->shared_hop, "%s", r->device.bottleneck_slot);
		m->shared_hop_gbps = r->device.bottleneck_gbps;
		m->shared_hop_devices = r->hop_devices;
		m->shared_hop_segment = r->device.bottleneck_shared == 1 && r->device.n_path > 0 &&
					!strcmp(r->device.path[0].slot, r->device.bottleneck_slot) &&
					(r->bus.kind == PCIBW_BUS_PCI || r->bus.kind == PCIBW_BUS_PCIX);
	}
	m->line_rate_gbps = r->in.line_rate_gbps;
	m->cpus = r->cpus;
	m->cpu_mhz = r->cpu_mhz;
}

void pcibw_machine_merge(const struct pcibw_machine *series, int n, struct pcibw_machine *run)
{
	memset(run, 0, sizeof *run);
	run->cpus = PCIBW_NULL;
	run->cpu_mhz = NAN;
	run->aspm = -1;
	run->bus_virtual = n > 0;
	run->poll_mode = n > 0;
	for (int i = 0; i < n; i++) {
		const struct pcibw_machine *m = &series[i];
		if (!m->bus_virtual)
			run->bus_virtual = false;
		if (!m->poll_mode)
			run->poll_mode = false;
		if (m->have_bus && !run->have_bus) {
			run->have_bus = true;
			snprintf(run->bus_name, sizeof run->bus_name, "%s", m->bus_name);
			snprintf(run->bus_note, sizeof run->bus_note, "%s", m->bus_note);
			run->aspm = m->aspm;
			run->link_cause = m->link_cause;
			run->link_gts = m->link_gts;
			run->link_cap_gts = m->link_cap_gts;
			run->link_width = m->link_width;
			run->link_cap_width = m->link_cap_width;
			snprintf(run->link_fix, sizeof run->link_fix, "%s", m->link_fix);
			snprintf(run->shared_hop, sizeof run->shared_hop, "%s", m->shared_hop);
			run->shared_hop_gbps = m->shared_hop_gbps;
			run->shared_hop_devices = m->shared_hop_devices;
			run->shared_hop_segment = m->shared_hop_segment;
		}
		if (run->line_rate_gbps <= 0)
			run->line_rate_gbps = m->line_rate_gbps;
		if (run->cpus == PCIBW_NULL)
			run->cpus = m->cpus;
		if (isnan(run->cpu_mhz))
			run->cpu_mhz = m->cpu_mhz;
	}
	if (run->bus_virtual)
		snprintf(run->bus_name, sizeof run->bus_name, "virtual NIC");
}

int pcibw_request_resolve_iface(const struct pcibw_request *req, const struct pcibw_iface_facts *f,
				struct pcibw_resolved *out, struct pcibw_err *err)
{
	struct pcibw_request cd = *req;
	memset(&cd.probe, 0, sizeof cd.probe);
	cd.n_files = 0;
	cd.files = NULL;
	/* the bus the interface states (recorded, or its link as read) where no --bus is given */
	const struct pcibw_bus *parsed = !cd.bus ? f->bus_parsed : NULL;
	bool recorded = parsed || (!cd.bus && f->bus && f->bus[0]);
	enum pcibw_bus_origin given = cd.bus ? PCIBW_BUS_FROM_OPTION : PCIBW_BUS_FROM_STATED;
	if (recorded && !parsed)
		cd.bus = f->bus;
	else if (!recorded && !cd.bus && f->probe)
		cd.probe.iface = f->name;
	else if (!recorded && !cd.bus && f->virtual_nic)
		cd.bus = "virtual";
	if (!cd.nic && !cd.nic_file && f->nic && f->nic[0])
		cd.nic = f->nic;
	/* recorded ids, no device to probe: the profile by id, as a probed device gets it */
	char by_id[64];
	bool no_profile = false;
	if (!cd.nic && !cd.nic_file && !cd.probe.iface && f->vendor_id >= 0 && f->device_id >= 0) {
		if (pcibw_nic_default_name(f->vendor_id, f->device_id, f->driver ? f->driver : "", NULL,
					   by_id, sizeof by_id))
			cd.nic = by_id;
		else
			no_profile = true;
	}
	if (cd.line_rate_gbps <= 0)
		cd.line_rate_gbps = f->line_rate_gbps;
	if (cd.cpus == PCIBW_NULL && isnan(cd.cpu_mhz)) {
		cd.cpus = f->cpus;
		cd.cpu_mhz = f->cpu_mhz;
	}
	int st = resolve(&cd, out, given, parsed, err);
	if (st && cd.probe.iface && st != PCIBW_EUSAGE) {
		/* the device would not be probed (gone, unreadable): this interface has no bus */
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg);
		cd.probe.iface = NULL;
		if (f->virtual_nic)
			cd.bus = "virtual";
		pcibw_resolved_free(out);
		if ((st = resolve(&cd, out, given, NULL, err)))
			return st;
		warn(out, "no-bus", "%s: its PCI device could not be probed (%s): no bus ceiling", f->name,
		     why);
	}
	if (!st && no_profile)
		warn(out, "no-nic-profile",
		     "no NIC profile lists %04x:%04x; using 'simple' (pick one with --nic)",
		     (unsigned)f->vendor_id, (unsigned)f->device_id);
	if (!st && recorded && f->bus_from)
		snprintf(out->bus_from, sizeof out->bus_from, "%s", f->bus_from);
	return st;
}
