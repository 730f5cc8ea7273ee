/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The figures every output prints (pcibw/words.h): one rule for a share, one for each rate. */
#include "pcibw/words.h"
#include <math.h>
#include <stdio.h>

const char *pcibw_fmt_pct(char *buf, size_t n, double share, double below)
{
	if (isnan(share) || isinf(share)) {
		snprintf(buf, n, "?");
		return buf;
	}
	double whole = round(share * 100);
	/* a load below its threshold must not print as the threshold's figure or above:
	 * 0.946 against 0.95 reads "94.6", never "95" */
	if (!isnan(below) && share < below && whole >= round(below * 100)) {
		double tenth = floor(share * 1000) / 10;
		snprintf(buf, n, "%.1f", tenth);
		return buf;
	}
	snprintf(buf, n, "%.0f", whole == 0 ? 0 : whole); /* never "-0" */
	return buf;
}

const char *pcibw_fmt_gbps(char *buf, size_t n, double gbps)
{
	/* switch units where 3 significant digits would round up to the next unit ("1e+03 Mbit/s") */
	if (isnan(gbps))
		snprintf(buf, n, "?");
	else if (gbps * 1e3 < 999.5)
		snprintf(buf, n, "%.3g Mbit/s", gbps * 1e3);
	else if (gbps < 999.5)
		snprintf(buf, n, "%.3g Gbit/s", gbps);
	else
		snprintf(buf, n, "%.0f Gbit/s", gbps);
	return buf;
}

const char *pcibw_fmt_pps(char *buf, size_t n, double pps)
{
	if (isnan(pps))
		snprintf(buf, n, "?");
	else if (pps >= 999.5e6)
		snprintf(buf, n, "%.0f Mpps", pps / 1e6);
	else if (pps >= 999.5e3)
		snprintf(buf, n, "%.3g Mpps", pps / 1e6);
	else if (pps >= 999.5)
		snprintf(buf, n, "%.3g kpps", pps / 1e3);
	else
		snprintf(buf, n, "%.3g pps", pps);
	return buf;
}

const char *pcibw_fmt_bytes(char *buf, size_t n, double b)
{
	if (b >= 999.5e3)
		snprintf(buf, n, "%.3g MB", b / 1e6);
	else if (b >= 999.5)
		snprintf(buf, n, "%.3g KB", b / 1e3);
	else
		snprintf(buf, n, "%.0f B", b);
	return buf;
}

const char *pcibw_fmt_us(char *buf, size_t n, double us)
{
	if (us >= 999.5)
		snprintf(buf, n, "%.3g ms", us / 1e3);
	else
		snprintf(buf, n, "%.3g us", us);
	return buf;
}
