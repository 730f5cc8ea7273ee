/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw watch: the live verdict from interface counters and per-core CPU time. Parsing and
 * wiring only: sampling, recording and the interval computation are src/watch, the verdict
 * src/verdict, the output src/render.
 */
#include "cli.h"
#include "pcibw/model.h"
#include "pcibw/verdict.h"
#include "src/watch/run.h"
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

const char cmd_watch_help[] =
    "Usage: pcibw watch [IFACE...] [OPTIONS]\n"
    "The verdict live: samples interface counters, per-CPU time (user, nice, system, irq,\n"
    "softirq, steal, iowait, idle), the NIC's interrupt vectors, softnet and the NIC's own PCIe\n"
    "counters (ethtool), and sets each interval against the bus, the wire and the CPU.\n"
    "With no IFACE: every interface that has a PCI device.\n"
    "\n"
    "  --interval SECONDS     between samples, 0.1 to 3600 (default 1)\n"
    "  --count N              stop after N intervals (default: until SIGINT/SIGTERM)\n"
    "  --record DIR           save every sample (raw /proc and /sys text; MAC/IP addresses and\n"
    "                         the host name removed) into the empty or new DIR\n"
    "  --record-max SIZE      cap the recording: bytes, or NUMBER with K, M or G (default 64M)\n"
    "  --replay DIR           run on a recording instead of this machine (ignores --interval)\n"
    "  --bus SPEC, --nic NAME, --line-rate RATE   override what is probed (as in `pcibw model`)\n"
    "  --threshold NAME=VALUE as in `pcibw analyze`\n"
    "  --format text|json|csv, --json   one line per interval; JSON lines; CSV for `pcibw analyze`\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit codes: 0 ok (also for a virtual NIC: the CPU side is given), 1 output not written,\n"
    "2 bad option (also --dump, --sysfs, --topology: a recording carries its own machine),\n"
    "3 bad recording, 4 no such interface, 5 not possible here.\n";

enum {
	OPT_INTERVAL = OPT_CMD_BASE,
	OPT_COUNT,
	OPT_RECORD,
	OPT_RECORD_MAX,
	OPT_REPLAY,
	OPT_THRESHOLD,
};

struct watch_cli {
	struct cli_model mo;
	const char *interval, *count, *record, *record_max, *replay;
	struct pcibw_thresholds t;
	char **ifaces;
	int n_ifaces;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int parse_args(int argc, char **argv, struct cli_common *c, struct watch_cli *w)
{
	static const struct option longopts[] = {
	    CLI_COMMON_LONGOPTS,
	    CLI_MODEL_LONGOPTS,
	    {"interval", required_argument, 0, OPT_INTERVAL},
	    {"count", required_argument, 0, OPT_COUNT},
	    {"record", required_argument, 0, OPT_RECORD},
	    {"record-max", required_argument, 0, OPT_RECORD_MAX},
	    {"replay", required_argument, 0, OPT_REPLAY},
	    {"threshold", required_argument, 0, OPT_THRESHOLD},
	    {0, 0, 0, 0},
	};
	struct pcibw_err err = {0};
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "-:" CLI_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
		int r = cli_common_opt(opt, optarg, c, &err);
		if (r < 0)
			return cli_usage_error("watch", "%s", err.msg);
		if (r > 0 || cli_model_opt(opt, optarg, &w->mo))
			continue;
		switch (opt) {
		case 1:
			w->ifaces[w->n_ifaces++] = optarg;
			break;
		case OPT_INTERVAL:
			w->interval = optarg;
			break;
		case OPT_COUNT:
			w->count = optarg;
			break;
		case OPT_RECORD:
			w->record = optarg;
			break;
		case OPT_RECORD_MAX:
			w->record_max = optarg;
			break;
		case OPT_REPLAY:
			w->replay = optarg;
			break;
		case OPT_THRESHOLD:
			if (pcibw_threshold_set(&w->t, optarg, &err))
				return cli_usage_error("watch", "%s", err.msg);
			break;
		case ':':
			return cli_usage_error("watch", "option '%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("watch", "unknown option '%s'", argv[optind - 1]);
		}
	}
	return PCIBW_OK;
}

/* "64M", "1048576", "2G" -> bytes, 4096 .. 2^40 */
static bool parse_size(const char *s, unsigned long long *out)
{
	char *e;
	double v = strtod(s, &e);
	if (e == s || strspn(s, "0123456789.") == 0)
		return false;
	double mul = 1;
	if (*e == 'K' || *e == 'k')
		mul = 1024, e++;
	else if (*e == 'M' || *e == 'm')
		mul = 1024 * 1024, e++;
	else if (*e == 'G' || *e == 'g')
		mul = 1024.0 * 1024 * 1024, e++;
	if (*e || !(v * mul >= 4096) || v * mul > 1099511627776.0)
		return false;
	*out = (unsigned long long)(v * mul);
	return true;
}

static int setup(const struct cli_common *c, struct watch_cli *w, struct watch_run_opts *o)
{
	o->interval = 1;
	o->record_max = 64ULL << 20;
	if (c->probe.dump_file || c->probe.sysfs_dir || c->probe.topology_file)
		return cli_usage_error("watch",
				       "--dump, --sysfs and --topology do not apply: watch samples this "
				       "machine, and a --replay recording carries its own machine facts");
	if (c->probe.slot_filter || c->probe.iface || c->probe.all)
		return cli_usage_error(
		    "watch", "name interfaces as arguments (pcibw watch eth0 eth1), not -s/-i/--all");
	if (w->mo.pattern || w->mo.size_is || w->mo.compat || w->mo.plot || w->mo.segment)
		return cli_usage_error(
		    "watch", "--pattern, --size-is, --compat, --plot and --segment-devices do not apply: "
			     "watch measures each direction's frames itself");
	if (w->interval) {
		char *e;
		double v = strtod(w->interval, &e);
		if (*e || e == w->interval || strspn(w->interval, "0123456789.") != strlen(w->interval) ||
		    !(v >= 0.1 && v <= 3600))
			return cli_usage_error(
			    "watch", "--interval '%s': expected seconds, a decimal from 0.1 to 3600",
			    w->interval);
		o->interval = v;
	}
	if (w->count) {
		char *e;
		long n = strtol(w->count, &e, 10);
		if (*e || e == w->count || n < 1 || n > 1000000000L)
			return cli_usage_error(
			    "watch", "--count '%s': expected a whole number of intervals, 1 or more",
			    w->count);
		o->count = n;
	}
	if (w->record_max && !parse_size(w->record_max, &o->record_max))
		return cli_usage_error(
		    "watch",
		    "--record-max '%s': expected a size from 4K to 1T (bytes, or NUMBER with K, M, G)",
		    w->record_max);
	if (w->record_max && !w->record)
		return cli_usage_error("watch", "--record-max needs --record DIR");
	if (w->replay && w->n_ifaces)
		return cli_usage_error("watch",
				       "--replay replays the recording's own interfaces: give no IFACE");
	if (w->replay && w->record)
		return cli_usage_error("watch", "--replay and --record: give one");
	o->format = c->format == CLI_FMT_JSON  ? WATCH_JSON
		    : c->format == CLI_FMT_CSV ? WATCH_CSV
					       : WATCH_TEXT;
	o->record_dir = w->record;
	o->out = stdout;
	o->t = w->t;
	o->stop = &stop_signal;
	return PCIBW_OK;
}

static int run(struct watch_cli *w, struct watch_run_opts *o)
{
	struct pcibw_err err = {0};
	struct watch_sampler *s = NULL;
	struct watch_ctx *ctx = calloc(1, sizeof *ctx);
	char where[4200];
	int st;
	if (!ctx)
		return cli_error(&(struct pcibw_err){PCIBW_EINTERNAL, "out of memory"});
	if (w->replay) {
		if ((st = watch_replay_open(w->replay, &ctx->meta, &s, &err)))
			goto out;
		/* options override a recording's facts as they override probing */
		for (int i = 0; i < ctx->meta.n; i++) {
			struct watch_meta_if *m = &ctx->meta.ifs[i];
			if (w->mo.nic)
				snprintf(m->nic, sizeof m->nic, "%s", w->mo.nic);
			if (w->mo.bus)
				snprintf(m->bus, sizeof m->bus, "%s", w->mo.bus);
			if (w->mo.line_rate &&
			    (st = pcibw_line_rate_parse(w->mo.line_rate, &m->line_rate_gbps, &err)))
				goto out;
		}
		snprintf(where, sizeof where, "%s/samples", w->replay);
		o->where = where;
		o->source = w->replay;
		o->live = false;
		if ((st = watch_ctx_setup(ctx, w->mo.nic || w->mo.bus ? NULL : where, &err)))
			goto out;
	} else {
		char names[PCIBW_WATCH_MAX_IFACES][PCIBW_WATCH_IFNAME];
		const char *list[PCIBW_WATCH_MAX_IFACES];
		int n = w->n_ifaces;
		char notes[8][200];
		int n_notes = 0;
		if (n > PCIBW_WATCH_MAX_IFACES) {
			st = pcibw_fail(&err, PCIBW_EUSAGE, "at most %d interfaces", PCIBW_WATCH_MAX_IFACES);
			goto out;
		}
		if (n == 0) {
			n = watch_list_pci_ifaces(names, PCIBW_WATCH_MAX_IFACES, notes, 8, &n_notes);
			for (int i = 0; i < n_notes; i++)
				fprintf(stderr, "pcibw: %s\n", notes[i]);
			if (n == 0) {
				st = pcibw_fail(&err, PCIBW_ENOMATCH,
						"no interface has a PCI device: name one (pcibw watch lo)");
				goto out;
			}
			for (int i = 0; i < n; i++)
				list[i] = names[i];
			if (o->format == WATCH_TEXT) {
				fprintf(o->out, "watching");
				for (int i = 0; i < n; i++)
					fprintf(o->out, " %s", list[i]);
				fprintf(o->out, " (every interface with a PCI device)\n");
			}
		} else {
			for (int i = 0; i < n; i++)
				list[i] = w->ifaces[i];
		}
		if ((st = watch_sampler_linux(list, n, &s, &err)))
			goto out;
		struct watch_overrides ov = {w->mo.bus, w->mo.nic, w->mo.line_rate};
		if ((st = watch_probe_meta(s, &ov, o->interval, &ctx->meta, ctx->warnings, &ctx->n_warnings,
					   &err)))
			goto out;
		if ((st = watch_ctx_setup(ctx, NULL, &err)))
			goto out;
		o->source = "live";
		o->live = true;
		struct sigaction sa = {0};
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	st = watch_run(s, ctx, o, &err);
out:
	if (s)
		s->close(s);
	free(ctx);
	if (st)
		return st == PCIBW_EUSAGE ? cli_usage_error("watch", "%s", err.msg) : cli_error(&err);
	return PCIBW_OK;
}

int cmd_watch(int argc, char **argv)
{
	struct cli_common c = {0};
	struct watch_cli w = {0};
	pcibw_thresholds_default(&w.t);
	w.ifaces = calloc((size_t)argc + 1, sizeof *w.ifaces);
	if (!w.ifaces)
		return PCIBW_EINTERNAL;
	int st = parse_args(argc, argv, &c, &w);
	if (!st && c.help) {
		fputs(cmd_watch_help, stdout);
	} else if (!st) {
		struct watch_run_opts o = {0};
		if (!(st = setup(&c, &w, &o)))
			st = run(&w, &o);
	}
	free(w.ifaces);
	return st;
}
