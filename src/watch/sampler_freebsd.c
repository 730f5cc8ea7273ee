/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FreeBSD sampler (sampler.h): each sample reads kern.cp_times and hw.intrcnt with
 * sysctlbyname(3) and every interface's if_data through getifaddrs(3) (the AF_LINK entry's
 * ifa_data), and writes them as the blobs the OS-neutral parser reads (freebsd_text.h):
 * "proc/stat" and "net/IFACE". FreeBSD has no per-CPU interrupt counts, softnet statistics or
 * ethtool: those blobs are absent, and watch says what it cannot see as for any missing blob.
 */
#include "freebsd_text.h"
#include "sampler.h"
#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>
#include <time.h>

struct fbsd_sampler {
	struct watch_sampler s;
	long *cp;	   /* kern.cp_times, grown as needed */
	size_t cp_cap;	   /* bytes */
	unsigned long *ic; /* hw.intrcnt */
	size_t ic_cap;
	char *text;
	size_t text_cap;
};

/* sysctlbyname(3) of a variable-length array into *buf (grown): its size first, then its bytes. */
static int read_array(const char *name, void **buf, size_t *cap, size_t *len, struct pcibw_err *err)
{
	size_t need = 0;
	if (sysctlbyname(name, NULL, &need, NULL, 0) != 0)
		return pcibw_fail(err, PCIBW_ENOTHERE, "sysctl %s cannot be read", name);
	if (need > *cap) {
		void *p = realloc(*buf, need);
		if (!p)
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		*buf = p;
		*cap = need;
	}
	*len = *cap;
	if (sysctlbyname(name, *buf, len, NULL, 0) != 0)
		return pcibw_fail(err, PCIBW_ENOTHERE, "sysctl %s cannot be read", name);
	return PCIBW_OK;
}

static int fbsd_read(struct watch_sampler *ws, struct pcibw_watch_sample *out, struct pcibw_err *err)
{
	struct fbsd_sampler *f = (struct fbsd_sampler *)ws;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	out->t = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	size_t cp_len = 0, ic_len = 0, len = 0;
	int rc = read_array("kern.cp_times", (void **)&f->cp, &f->cp_cap, &cp_len, err);
	if (rc)
		return rc;
	uint64_t intr = 0;
	if (!read_array("hw.intrcnt", (void **)&f->ic, &f->ic_cap, &ic_len, err))
		for (size_t i = 0; i < ic_len / sizeof *f->ic; i++)
			intr += f->ic[i];
	size_t want = 64 + (cp_len / sizeof(long)) * 24;
	if (want > f->text_cap) {
		char *p = realloc(f->text, want);
		if (!p)
			return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
		f->text = p;
		f->text_cap = want;
	}
	rc = watch_fbsd_stat_text(f->cp, cp_len / sizeof(long), intr, f->text, f->text_cap, &len, err);
	if (rc || (rc = pcibw_watch_blob_set(out, "proc/stat", f->text, len, err)))
		return rc;
	struct ifaddrs *ifa = NULL;
	if (getifaddrs(&ifa) != 0)
		return pcibw_fail(err, PCIBW_ENOTHERE, "getifaddrs: the interfaces cannot be listed");
	for (int i = 0; i < ws->n && !rc; i++)
		for (struct ifaddrs *a = ifa; a && !rc; a = a->ifa_next) {
			if (!a->ifa_addr || a->ifa_addr->sa_family != AF_LINK || !a->ifa_data ||
			    strcmp(a->ifa_name, ws->ifs[i].name))
				continue;
			const struct if_data *d = a->ifa_data;
			struct watch_fbsd_ifdata c = {
			    d->ifi_ipackets,
			    d->ifi_opackets,
			    d->ifi_ibytes,
			    d->ifi_obytes,
			    d->ifi_ierrors,
			    d->ifi_oerrors,
			    d->ifi_iqdrops,
			    d->ifi_oqdrops,
			    d->ifi_baudrate,
			    d->ifi_link_state == LINK_STATE_UP ? 1 : d->ifi_link_state == LINK_STATE_DOWN ? 0 : -1};
			char text[512], key[64];
			size_t n = watch_fbsd_net_text(&c, text, sizeof text);
			memcpy(key, "net/", 4);
			strncpy(key + 4, a->ifa_name, sizeof key - 5);
			key[sizeof key - 1] = '\0';
			rc = pcibw_watch_blob_set(out, key, text, n, err);
		}
	freeifaddrs(ifa);
	return rc;
}

static void fbsd_close(struct watch_sampler *ws)
{
	struct fbsd_sampler *f = (struct fbsd_sampler *)ws;
	free(f->cp);
	free(f->ic);
	free(f->text);
	free(f);
}

/* watch_sampler_freebsd - as watch_sampler_linux (sampler.h), for FreeBSD: each named interface
 * must have an AF_LINK entry in getifaddrs (PCIBW_ENOMATCH otherwise). */
int watch_sampler_freebsd(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err);
int watch_sampler_freebsd(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err)
{
	if (n > PCIBW_WATCH_MAX_IFACES)
		return pcibw_fail(err, PCIBW_EUSAGE, "at most %d interfaces", PCIBW_WATCH_MAX_IFACES);
	struct ifaddrs *ifa = NULL;
	if (getifaddrs(&ifa) != 0)
		return pcibw_fail(err, PCIBW_ENOTHERE, "getifaddrs: the interfaces cannot be listed");
	for (int i = 0; i < n; i++) {
		int found = 0;
		for (struct ifaddrs *a = ifa; a; a = a->ifa_next)
			found |= a->ifa_addr && a->ifa_addr->sa_family == AF_LINK &&
				 !strcmp(a->ifa_name, names[i]);
		if (!found) {
			freeifaddrs(ifa);
			return pcibw_fail(err, PCIBW_ENOMATCH, "no such interface '%s'", names[i]);
		}
	}
	freeifaddrs(ifa);
	struct fbsd_sampler *f = calloc(1, sizeof *f);
	if (!f)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	f->s.read = fbsd_read;
	f->s.close = fbsd_close;
	f->s.n = n;
	for (int i = 0; i < n; i++) {
		strncpy(f->s.ifs[i].name, names[i], sizeof f->s.ifs[i].name - 1);
		f->s.ifs[i].name[sizeof f->s.ifs[i].name - 1] = '\0';
	}
	*out = &f->s;
	return PCIBW_OK;
}
