/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampling clock of watch (sampler.h): POSIX CLOCK_MONOTONIC and clock_nanosleep with
 * TIMER_ABSTIME, alike on Linux and FreeBSD. */
#include "sampler.h"
#include <time.h>

double watch_monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void watch_sleep_until(double t)
{
	struct timespec ts = {(time_t)t, (long)((t - (double)(time_t)t) * 1e9)};
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}
