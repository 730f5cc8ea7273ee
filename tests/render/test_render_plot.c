/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analyze SVG plot (src/render, cairo): every measured series drawn apart. Expected: the
 * input file's own rows.
 */
#include "analyze_support.h"

/*
 * The plot keys measured points on the test as well as (source, series): a pcie-bench sweep's
 * BW_DMA_RD, _WR and _RW rows share their PAT/Cache/WinSZ series, and keyed on that alone all
 * but the first point at each size would be dropped. Expected: three measured colours, each on every one of
 * the file's 40 sizes (120 data lines = 40 sizes x 3 tests).
 */
Test(render_plot, pciebench_patterns_kept_apart)
{
	const char *svg = "/tmp/pcibw-render-plot.svg";
	unlink(svg);
	struct run_result r = run_args((const char *[]){
	    "analyze", test_data("bench/pciebench-nfp6000-hsw-e5-2620v3-dell-t630-dma-size-sweep.csv"),
	    "--bus", "gen3x8,mps=256", "--plot", svg, NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	size_t n;
	char *s = slurp(svg, &n);
	cr_assert(s);
	/* filled colours other than black (text) and white (background, legend box) */
	char colours[16][64];
	int uses[16] = {0}, nc = 0;
	for (const char *p = s; (p = strstr(p, "fill:rgb(")); p++) {
		char c[64];
		if (sscanf(p, "fill:rgb(%63[^)])", c) != 1 || !strcmp(c, "0%,0%,0%") ||
		    !strcmp(c, "100%,100%,100%"))
			continue;
		int k = 0;
		while (k < nc && strcmp(colours[k], c))
			k++;
		if (k == nc && nc < 16)
			snprintf(colours[nc++], 64, "%s", c);
		if (k < 16)
			uses[k]++;
	}
	cr_assert_eq(nc, 3, "%d measured colours", nc);
	for (int k = 0; k < nc; k++)
		cr_assert_geq(uses[k], 40, "colour %s drawn %d times", colours[k], uses[k]);
	free(s);
	unlink(svg);
}
