/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw_plot_svg: cairo's SVG surface; without cairo at build time, a clear refusal. */
#include "config.h"
#include "plot.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if PCIBW_HAVE_CAIRO
#include <cairo-svg.h>
#include <cairo.h>
#ifdef PCIBW_HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif

/* Okabe-Ito colour-blind-safe palette (Okabe & Ito 2008, "Color Universal Design") */
static const unsigned char palette[8][3] = {
    {0, 114, 178}, {213, 94, 0},   {0, 158, 115}, {204, 121, 167},
    {230, 159, 0}, {86, 180, 233}, {0, 0, 0},	  {240, 228, 66},
};

struct frame {
	double x0, y0, w, h; /* plot area in points */
	double xmin, xmax, ymin, ymax;
	bool logx;
};

static double px(const struct frame *f, double x)
{
	double t = f->logx ? (log(x) - log(f->xmin)) / (log(f->xmax) - log(f->xmin))
			   : (x - f->xmin) / (f->xmax - f->xmin);
	return f->x0 + t * f->w;
}

static double py(const struct frame *f, double y)
{
	return f->y0 + f->h - (y - f->ymin) / (f->ymax - f->ymin) * f->h;
}

static bool usable(const struct pcibw_plot *p, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!p->logx || x > 0);
}

/* 1, 2 or 5 times a power of ten, about n steps over span */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), r = raw / mag;
	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double ax, double ay)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.width * ax - e.x_bearing, y - e.height * ay - e.y_bearing);
	cairo_show_text(cr, s);
}

static void axes(cairo_t *cr, const struct frame *f, const struct pcibw_plot *p)
{
	char lab[32];
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, f->x0, f->y0, f->w, f->h);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 10);
	/* x ticks: powers of two on a log axis (packet sizes), else 1-2-5 steps */
	if (f->logx) {
		double t0 = pow(2, ceil(log2(f->xmin)));
		int every = (int)ceil(log2(f->xmax / f->xmin) / 12);
		for (int k = 0; t0 * pow(2, k) <= f->xmax * 1.0000001; k += every > 0 ? every : 1) {
			double t = t0 * pow(2, k);
			cairo_move_to(cr, px(f, t), f->y0 + f->h);
			cairo_line_to(cr, px(f, t), f->y0 + f->h + 4);
			cairo_stroke(cr);
			snprintf(lab, sizeof lab, "%g", t);
			text_at(cr, px(f, t), f->y0 + f->h + 6, lab, 0.5, 0);
		}
	} else {
		double st = nice_step(f->xmax - f->xmin, 6);
		for (double t = ceil(f->xmin / st) * st; t <= f->xmax + st * 1e-9; t += st) {
			cairo_move_to(cr, px(f, t), f->y0 + f->h);
			cairo_line_to(cr, px(f, t), f->y0 + f->h + 4);
			cairo_stroke(cr);
			snprintf(lab, sizeof lab, "%g", t);
			text_at(cr, px(f, t), f->y0 + f->h + 6, lab, 0.5, 0);
		}
	}
	double st = nice_step(f->ymax - f->ymin, 6);
	for (double t = ceil(f->ymin / st) * st; t <= f->ymax + st * 1e-9; t += st) {
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, f->x0, py(f, t));
		cairo_line_to(cr, f->x0 + f->w, py(f, t));
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(lab, sizeof lab, "%g", t);
		text_at(cr, f->x0 - 6, py(f, t), lab, 1, 0.5);
	}
	cairo_set_font_size(cr, 12);
	if (p->xlabel)
		text_at(cr, f->x0 + f->w / 2, f->y0 + f->h + 24, p->xlabel, 0.5, 0);
	if (p->ylabel) {
		cairo_save(cr);
		cairo_translate(cr, 14, f->y0 + f->h / 2);
		cairo_rotate(cr, -M_PI / 2);
		text_at(cr, 0, 0, p->ylabel, 0.5, 0.5);
		cairo_restore(cr);
	}
	if (p->title) {
		cairo_set_font_size(cr, 13);
		text_at(cr, f->x0 + f->w / 2, 8, p->title, 0.5, 0);
	}
}

static void draw_series(cairo_t *cr, const struct frame *f, const struct pcibw_plot *p, int i)
{
	const struct pcibw_plot_series *s = &p->series[i];
	const unsigned char *c = palette[i % 8];
	cairo_set_source_rgb(cr, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0);
	cairo_set_line_width(cr, 2);
	bool pen = false;
	for (int k = 0; k < s->n; k++) {
		if (!usable(p, s->x[k], s->y[k])) {
			pen = false;
			continue;
		}
		double x = px(f, s->x[k]), y = py(f, s->y[k]);
		if (s->points) {
			cairo_new_sub_path(cr);
			cairo_arc(cr, x, y, 3, 0, 2 * M_PI);
			cairo_fill(cr);
		} else if (pen) {
			cairo_line_to(cr, x, y);
		} else {
			cairo_move_to(cr, x, y);
			pen = true;
		}
	}
	if (!s->points)
		cairo_stroke(cr);
}

struct box {
	double x, y, w, h;
};

/* legend entry i, over the white box */
static void legend_entry(cairo_t *cr, const struct box *b, const struct pcibw_plot *p, int i)
{
	const struct pcibw_plot_series *s = &p->series[i];
	const unsigned char *c = palette[i % 8];
	cairo_set_source_rgb(cr, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0);
	cairo_set_line_width(cr, 2);
	double ly = b->y + 11 + 16 * i, lx = b->x + 6;
	if (s->points) {
		cairo_arc(cr, lx + 10, ly, 3, 0, 2 * M_PI);
		cairo_fill(cr);
	} else {
		cairo_move_to(cr, lx, ly);
		cairo_line_to(cr, lx + 20, ly);
		cairo_stroke(cr);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 10);
	text_at(cr, lx + 26, ly, s->name ? s->name : "", 0, 0.5);
}

static bool inside(const struct box *b, double x, double y)
{
	return x >= b->x && x <= b->x + b->w && y >= b->y && y <= b->y + b->h;
}

/* How much of the drawn data a legend box would hide: points, and samples along each line. */
static int covered(const struct frame *f, const struct pcibw_plot *p, const struct box *b)
{
	int hits = 0;
	for (int i = 0; i < p->n_series; i++) {
		const struct pcibw_plot_series *s = &p->series[i];
		double lx = NAN, ly = NAN;
		for (int k = 0; k < s->n; k++) {
			if (!usable(p, s->x[k], s->y[k])) {
				lx = NAN;
				continue;
			}
			double x = px(f, s->x[k]), y = py(f, s->y[k]);
			if (!s->points && isfinite(lx))
				for (int j = 1; j < 16; j++)
					hits += inside(b, lx + (x - lx) * j / 16, ly + (y - ly) * j / 16);
			hits += inside(b, x, y);
			lx = x, ly = y;
		}
	}
	return hits;
}

/* The legend goes in the corner of the plot area where it hides the least data (top right,
 * top left, bottom right, bottom left, in that order of preference), sized to its text. */
static struct box legend_box(cairo_t *cr, const struct frame *f, const struct pcibw_plot *p)
{
	double tw = 0;
	cairo_set_font_size(cr, 10);
	for (int i = 0; i < p->n_series; i++) {
		cairo_text_extents_t e;
		cairo_text_extents(cr, p->series[i].name ? p->series[i].name : "", &e);
		tw = fmax(tw, e.x_advance);
	}
	double w = 6 + 26 + tw + 8, h = 16.0 * p->n_series + 6;
	struct box best = {0}, c[4] = {
				   {f->x0 + f->w - w - 4, f->y0 + 4, w, h},
				   {f->x0 + 4, f->y0 + 4, w, h},
				   {f->x0 + f->w - w - 4, f->y0 + f->h - h - 4, w, h},
				   {f->x0 + 4, f->y0 + f->h - h - 4, w, h},
			       };
	int least = -1;
	for (int i = 0; i < 4; i++) {
		int n = covered(f, p, &c[i]);
		if (least < 0 || n < least)
			least = n, best = c[i];
	}
	return best;
}

/* The file cairo writes the SVG into; errnum keeps the first write error. */
struct sink {
	FILE *f;
	int errnum;
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
	struct sink *s = closure;
	if (s->errnum)
		return CAIRO_STATUS_WRITE_ERROR;
	if (fwrite(data, 1, len, s->f) != len) {
		s->errnum = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

int pcibw_plot_svg(const char *path, const struct pcibw_plot *p, struct pcibw_err *err)
{
	struct frame f = {0};
	int pts = 0;
	f.xmin = f.ymin = INFINITY;
	f.xmax = f.ymax = -INFINITY;
	for (int i = 0; i < p->n_series; i++)
		for (int k = 0; k < p->series[i].n; k++) {
			double x = p->series[i].x[k], y = p->series[i].y[k];
			if (!usable(p, x, y))
				continue;
			pts++;
			f.xmin = fmin(f.xmin, x), f.xmax = fmax(f.xmax, x);
			f.ymin = fmin(f.ymin, y), f.ymax = fmax(f.ymax, y);
		}
	if (!pts)
		return pcibw_fail(err, PCIBW_EUSAGE, "--plot %s: nothing to draw (no finite points)", path);
	if (f.xmax <= f.xmin) /* one size: widen so the point sits inside the frame */
		f.xmin = p->logx ? f.xmin / 2 : f.xmin - 1, f.xmax = p->logx ? f.xmax * 2 : f.xmax + 1;
	f.ymin = fmin(0, f.ymin);
	f.ymax = f.ymax > f.ymin ? f.ymax * 1.08 : f.ymin + 1;
	f.logx = p->logx;
	double W = p->width_pt > 0 ? p->width_pt : 720, H = p->height_pt > 0 ? p->height_pt : 450;
	f.x0 = 64, f.y0 = 30, f.w = W - 64 - 20, f.h = H - 30 - 50;

	/* written through our own stream, so a failed write (a full disk) keeps its reason;
	 * opened without blocking, as a FIFO nobody reads would hold open() for ever (ENXIO) */
	struct sink out = {NULL, 0};
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
	int fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	if (fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0)
		out.f = fdopen(fd, "wb");
	if (!out.f) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: --plot %s: %s", path,
				  e == ENXIO ? "a FIFO that nobody reads" : strerror(e));
	}
	cairo_surface_t *sf = cairo_svg_surface_create_for_stream(sink_write, &out, W, H);
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(sf);
		fclose(out.f);
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: --plot %s: %s", path,
				  cairo_status_to_string(cairo_surface_status(sf)));
	}
	cairo_t *cr = cairo_create(sf);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	axes(cr, &f, p);
	for (int i = 0; i < p->n_series; i++)
		draw_series(cr, &f, p, i);
	/* the legend last, on a white box where it hides the least, so no curve runs through its
	 * text */
	struct box lb = legend_box(cr, &f, p);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_rectangle(cr, lb.x, lb.y, lb.w, lb.h);
	cairo_fill(cr);
	for (int i = 0; i < p->n_series; i++)
		legend_entry(cr, &lb, p, i);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(sf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	/* drop cairo's font caches: a plot is drawn once per run, and a leak checker should see
	 * the process end clean */
	cairo_debug_reset_static_data();
#ifdef PCIBW_HAVE_FONTCONFIG
	FcFini();
#endif
	if (fflush(out.f) && !out.errnum)
		out.errnum = errno;
	if (fclose(out.f) && !out.errnum)
		out.errnum = errno;
	if (out.errnum)
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: --plot %s: %s", path,
				  strerror(out.errnum));
	if (st != CAIRO_STATUS_SUCCESS)
		return pcibw_fail(err, PCIBW_EINTERNAL, "cannot write output: --plot %s: %s", path,
				  cairo_status_to_string(st));
	return PCIBW_OK;
}

#else

int pcibw_plot_svg(const char *path, const struct pcibw_plot *p, struct pcibw_err *err)
{
	(void)p;
	return pcibw_fail(err, PCIBW_ENOTHERE,
			  "--plot %s: this pcibw was built without cairo, so it cannot "
			  "draw plots (rebuild with libcairo2-dev installed)",
			  path);
}

#endif
