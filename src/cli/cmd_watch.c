/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw watch: the live verdict from interface counters and per-core CPU time. Parsing and
 * wiring only: sampling, recording and the interval computation are src/watch, the verdict
 * src/verdict, the output src/render.
 */
#include "cli.h"
#include "pcibw/model.h"
#include "pcibw/verdict.h"
#include "src/render/watch_render.h"
#include "src/util/atomic_file.h"
#include "src/watch/run.h"
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t stop_signal;

/* The renderer of the chosen format, as the watch loop calls it (struct pcibw_watch_sink). */
struct watch_out {
	enum pcibw_output format;
	FILE *f;
	const char *textfile; /* prometheus: replace this file each interval; NULL: f */
	bool live;	      /* flush after each interval: a pipe sees it at once */
	long lines;	      /* text: table lines so far */
};

static int written(struct watch_out *o, int st, struct pcibw_err *err)
{
	if (st || (o->live && fflush(o->f)))
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s", strerror(errno));
	return PCIBW_OK;
}

static int out_start(void *self, const struct pcibw_watch_setup *s, struct pcibw_err *err)
{
	struct watch_out *o = self;
	switch (o->format) {
	case PCIBW_OUT_CSV:
		return written(o, render_watch_start_csv(o->f, s), err);
	case PCIBW_OUT_JSON:
	case PCIBW_OUT_PROMETHEUS:
		return PCIBW_OK;
	default:
		return written(o, render_watch_start_text(o->f, s), err);
	}
}

static int out_interval(void *self, const struct pcibw_watch_iv_result *r, struct pcibw_err *err)
{
	struct watch_out *o = self;
	switch (o->format) {
	case PCIBW_OUT_JSON:
		return written(o, render_watch_json(o->f, r), err);
	case PCIBW_OUT_CSV:
		return written(o, render_watch_csv(o->f, r), err);
	case PCIBW_OUT_PROMETHEUS:
		if (o->textfile)
			return pcibw_textfile_write(o->textfile, render_watch_prometheus, r, err);
		return written(o, render_watch_prometheus(o->f, r), err);
	default:
		return written(o, render_watch_text(o->f, r, &o->lines), err);
	}
}

static int out_summary(void *self, const struct pcibw_watch_summary_result *r, struct pcibw_err *err)
{
	struct watch_out *o = self;
	int st;
	switch (o->format) {
	case PCIBW_OUT_PROMETHEUS: /* the last interval's figures stay */
		return PCIBW_OK;
	case PCIBW_OUT_JSON:
		st = render_watch_summary_json(o->f, r);
		break;
	case PCIBW_OUT_CSV:
		st = render_watch_summary_csv(o->f, r);
		break;
	default:
		st = render_watch_summary_text(o->f, r);
	}
	if (st || fflush(o->f))
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: %s", strerror(errno));
	return PCIBW_OK;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int setup(const struct pcibw_request *req, struct watch_run_opts *o, struct watch_out *out)
{
	if (req->probe.dump_file || req->probe.sysfs_dir || req->probe.topology_file)
		return cli_usage_error("watch",
				       "--dump, --sysfs and --topology do not apply: watch samples this "
				       "machine, and a --replay recording carries its own machine facts");
	if (req->record_max_given && !req->record_dir)
		return cli_usage_error("watch", "--record-max needs --record DIR");
	if (req->replay_dir && req->record_dir)
		return cli_usage_error("watch", "--replay and --record: give one");
	/* a --record that cannot be written is refused before a line is printed or a sample taken */
	struct pcibw_err rec_err = {0};
	int rst = req->record_dir ? watch_record_check(req->record_dir, &rec_err) : PCIBW_OK;
	if (rst == PCIBW_EUSAGE)
		return cli_usage_error("watch", "%s", rec_err.msg);
	if (rst)
		return cli_error(&rec_err);
	o->interval = req->interval_s;
	o->count = req->count;
	o->record_max = (unsigned long long)req->record_max_bytes;
	if (req->textfile && req->format != PCIBW_OUT_PROMETHEUS)
		return cli_usage_error("watch", "--textfile writes node_exporter's textfile format: "
						"add --format prometheus");
	struct pcibw_err err = {0};
	if (pcibw_request_check_outputs(req, &err))
		return cli_usage_error("watch", "%s", err.msg);
	if (req->textfile && pcibw_atomic_check(req->textfile, &err))
		return cli_usage_error("watch", "--textfile %s", err.msg);
	/* one interface named twice would be sampled twice and its traffic counted twice */
	for (int i = 0; i < req->n_files; i++)
		for (int k = 0; k < i; k++)
			if (!strcmp(req->files[i], req->files[k]))
				return cli_usage_error("watch", "interface '%s' given twice", req->files[i]);
	out->format = req->format;
	out->textfile = req->textfile;
	out->f = stdout;
	o->record_dir = req->record_dir;
	o->t = req->thresholds;
	o->stop = &stop_signal;
	return PCIBW_OK;
}

static int run(const struct pcibw_request *req, struct watch_run_opts *o, struct watch_out *out)
{
	struct pcibw_err err = {0};
	struct watch_sampler *s = NULL;
	struct watch_ctx *ctx = calloc(1, sizeof *ctx);
	char where[4200];
	int st;
	if (!ctx)
		return cli_error(&(struct pcibw_err){PCIBW_EINTERNAL, "out of memory"});
	if (req->replay_dir) {
		if ((st = watch_replay_open(req->replay_dir, &ctx->meta, &s, &err)))
			goto out;
		if (req->n_files && (st = watch_meta_select(&ctx->meta, s, req->files, req->n_files, &err)))
			goto out;
		snprintf(where, sizeof where, "%s/samples", req->replay_dir);
		o->where = where;
		o->source = req->replay_dir;
		o->live = false;
		/* options override a recording's facts as they override probing */
		if ((st = watch_ctx_setup(ctx, req, false, req->nic || req->bus ? NULL : where, &err)))
			goto out;
	} else {
		char names[PCIBW_WATCH_MAX_IFACES][PCIBW_WATCH_IFNAME];
		const char *list[PCIBW_WATCH_MAX_IFACES];
		int n = req->n_files;
		char notes[8][200];
		int n_notes = 0;
		if (n > PCIBW_WATCH_MAX_IFACES) {
			st = pcibw_fail(&err, PCIBW_EUSAGE, "at most %d interfaces", PCIBW_WATCH_MAX_IFACES);
			goto out;
		}
		if (n == 0) {
			n = watch_list_pci_ifaces(names, PCIBW_WATCH_MAX_IFACES, notes, 8, &n_notes);
			for (int i = 0; i < n_notes; i++)
				pcibw_put_message(stderr, "pcibw: ", notes[i]);
			if (n == 0) {
				st = pcibw_fail(&err, PCIBW_ENOMATCH,
						"no interface has a PCI device: name one (pcibw watch lo)");
				goto out;
			}
			for (int i = 0; i < n; i++)
				list[i] = names[i];
			ctx->setup.listed_all = true; /* the text output says so */
		} else {
			for (int i = 0; i < n; i++)
				list[i] = req->files[i];
		}
		if ((st = watch_sampler_open(list, n, &s, &err)))
			goto out;
		watch_probe_meta(s, req->line_rate_gbps, o->interval, &ctx->meta);
		if ((st = watch_ctx_setup(ctx, req, true, NULL, &err)))
			goto out;
		o->source = "live";
		o->live = true;
		struct sigaction sa = {0};
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL); /* a dropped ssh session: the summary, as for SIGTERM */
	}
	out->live = o->live;
	struct pcibw_watch_sink sink = {out, out_start, out_interval, out_summary};
	st = watch_run(s, ctx, o, &sink, &err);
	if (!st && o->recording_full) {
		char m[4200];
		snprintf(m, sizeof m, "the recording %s stopped at --record-max", o->record_dir);
		pcibw_put_message(stderr, "pcibw: warning: ", m);
	}
out:
	if (s)
		s->close(s);
	watch_ctx_free(ctx);
	free(ctx);
	/* standard output failed: main's last flush names the reason, or stays quiet on a closed pipe */
	if (st == PCIBW_EINTERNAL && ferror(out->f))
		return st;
	if (st)
		return st == PCIBW_EUSAGE ? cli_usage_error("watch", "%s", err.msg) : cli_error(&err);
	return PCIBW_OK;
}

int cmd_watch(int argc, char **argv)
{
	struct pcibw_request req;
	int st = cli_parse(PCIBW_CMD_WATCH, argc, argv, &req);
	if (st < 0) {
		struct watch_run_opts o = {0};
		struct watch_out out = {0};
		if (!(st = setup(&req, &o, &out)))
			st = run(&req, &o, &out);
	}
	pcibw_request_free(&req);
	return st;
}
