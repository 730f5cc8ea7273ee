/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The FreeBSD sampler (sampler.h): each sample reads kern.cp_times and hw.intrcnt with
 * sysctlbyname(3), every interface's if_data through getifaddrs(3) (the AF_LINK entry's
 * ifa_data) and the statistics its driver keeps under dev.DRIVER.UNIT (per-queue packets,
 * missed packets: freebsd_text.h), and writes them as the blobs the OS-neutral parser reads:
 * "proc/stat", "net/IFACE" and "ethtool/IFACE". The PCI function behind an interface is the
 * dbsf word of dev.DRIVER.UNIT.%location. FreeBSD has no per-CPU interrupt counts or softnet
 * statistics: those blobs are absent, and watch says what it cannot see as for any missing blob.
 */
#include "freebsd_text.h"
#include "sampler.h"
#include "src/util/ifname.h"
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pciio.h>
#include <sys/sysctl.h>
#include <time.h>
#include <unistd.h>

/* The driver statistics read per sample (freebsd_text.h names them): per-queue patterns, each
 * with the number of queues found when the sampler opened, and single mac_stats counters. */
static const char *const queue_pat[] = {"queue%d.rx_packets", "queue%d.tx_packets", "pf.rxq%02d.packets",
					"pf.txq%02d.packets"};
#define N_QPAT 4
static const char *const mac_names[] = {"mac_stats.missed_packets", "mac_stats.recv_no_buff",
					"mac_stats.good_pkts_recvd", "mac_stats.good_pkts_rcvd",
					"mac_stats.good_pkts_txd"};
#define N_MAC 5

struct fbsd_if {
	char dev[40]; /* "em.0": the sysctl tree dev.em.0, "" when the name is not DRIVER+UNIT */
	int nq[N_QPAT];
	bool mac[N_MAC];
};

struct fbsd_sampler {
	struct watch_sampler s;
	struct fbsd_if fi[PCIBW_WATCH_MAX_IFACES];
	char *stat; /* sysctl(8) text of the driver statistics */
	size_t stat_cap;
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

/* an integer sysctl of 4 or 8 bytes */
static bool read_count(const char *name, uint64_t *v)
{
	unsigned char b[8];
	size_t len = sizeof b;
	if (sysctlbyname(name, b, &len, NULL, 0) != 0)
		return false;
	if (len == 8) {
		uint64_t x;
		memcpy(&x, b, 8);
		*v = x;
	} else if (len == 4) {
		uint32_t x;
		memcpy(&x, b, 4);
		*v = x;
	} else
		return false;
	return true;
}

/* the driver's statistics of one interface as sysctl(8) prints them, parsed as a paste would
 * be (one parser for both); false when nothing was read */
static bool read_devstat(struct fbsd_sampler *f, const struct fbsd_if *fi, struct watch_fbsd_devstat *st,
			 struct pcibw_err *err)
{
	size_t need = 64 * (N_MAC + 1) + 64 * 2 * PCIBW_WATCH_MAX_QUEUES * 2;
	if (!fi->dev[0])
		return false;
	if (need > f->stat_cap) {
		char *p = realloc(f->stat, need);
		if (!p)
			return false;
		f->stat = p;
		f->stat_cap = need;
	}
	size_t o = 0;
	char leaf[48], name[128];
	uint64_t v;
	for (int k = 0; k < N_QPAT; k++)
		for (int q = 0; q < fi->nq[k]; q++) {
			snprintf(leaf, sizeof leaf, queue_pat[k], q);
			snprintf(name, sizeof name, "dev.%s.%s", fi->dev, leaf);
			if (read_count(name, &v) && o + 160 < f->stat_cap)
				o += (size_t)snprintf(f->stat + o, f->stat_cap - o, "%s: %llu\n", name,
						      (unsigned long long)v);
		}
	for (int k = 0; k < N_MAC; k++) {
		snprintf(name, sizeof name, "dev.%s.%s", fi->dev, mac_names[k]);
		if (fi->mac[k] && read_count(name, &v) && o + 160 < f->stat_cap)
			o += (size_t)snprintf(f->stat + o, f->stat_cap - o, "%s: %llu\n", name,
					      (unsigned long long)v);
	}
	if (!o)
		return false;
	return watch_fbsd_devstat_parse(f->stat, o, fi->dev, "sysctl", st, err) == PCIBW_OK;
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
	/* room for proc/stat, then for an interface's queue lines */
	size_t want = 64 + (cp_len / sizeof(long)) * 24;
	if (want < 16384)
		want = 16384;
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
	for (int i = 0; i < ws->n && !rc; i++) {
		bool seen = false;
		for (struct ifaddrs *a = ifa; a && !rc; a = a->ifa_next) {
			if (!a->ifa_addr || a->ifa_addr->sa_family != AF_LINK || !a->ifa_data ||
			    strcmp(a->ifa_name, ws->ifs[i].name))
				continue;
			seen = true;
			const struct if_data *d = a->ifa_data;
			int up = d->ifi_link_state == LINK_STATE_UP	? 1
				 : d->ifi_link_state == LINK_STATE_DOWN ? 0
									: -1;
			struct watch_fbsd_ifdata c = {.ipackets = d->ifi_ipackets,
						      .opackets = d->ifi_opackets,
						      .ibytes = d->ifi_ibytes,
						      .obytes = d->ifi_obytes,
						      .ierrors = d->ifi_ierrors,
						      .oerrors = d->ifi_oerrors,
						      .iqdrops = d->ifi_iqdrops,
						      .oqdrops = d->ifi_oqdrops,
						      .baudrate = d->ifi_baudrate,
						      .link_up = up,
						      .ifindex = if_nametoindex(a->ifa_name),
						      .name = a->ifa_name,
						      .dev = ws->ifs[i].dev,
						      .slot = ws->ifs[i].slot};
			struct watch_fbsd_devstat st;
			struct pcibw_err e2;
			bool have_st = read_devstat(f, &f->fi[i], &st, &e2);
			if (have_st && st.have_missed) {
				c.have_missed = true;
				c.missed = st.missed;
			}
			char text[512], key[64];
			size_t n = watch_fbsd_net_text(&c, text, sizeof text);
			snprintf(key, sizeof key, "net/%s", a->ifa_name);
			rc = pcibw_watch_blob_set(out, key, text, n, err);
			size_t qn = have_st && f->text_cap
					? watch_fbsd_devstat_ethtool(&st, f->text, f->text_cap)
					: 0;
			if (!rc && qn) {
				snprintf(key, sizeof key, "ethtool/%s", a->ifa_name);
				rc = pcibw_watch_blob_set(out, key, f->text, qn, err);
			}
		}
		if (!seen && !rc) { /* gone from getifaddrs: detached, or renamed */
			char key[64];
			snprintf(key, sizeof key, "net/%s", ws->ifs[i].name);
			rc = pcibw_watch_blob_set(out, key, "state vanished\n", 15, err);
		}
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
	free(f->stat);
	free(f);
}

/* a string sysctl into buf; false when absent */
static bool read_string(const char *name, char *buf, size_t n)
{
	size_t len = n - 1;
	if (sysctlbyname(name, buf, &len, NULL, 0) != 0)
		return false;
	buf[len < n ? len : n - 1] = '\0';
	return true;
}

/* What the sysctl tree of interface name's device says: its driver, its PCI function (the dbsf
 * word of %location, the parent bus pciN), and which statistics it keeps. */
static void device_facts(const char *name, struct watch_iface *wi, struct fbsd_if *fi)
{
	char drv[32], key[128], val[256];
	unsigned unit;
	if (!pcibw_ifname_split(name, drv, sizeof drv, &unit))
		return;
	snprintf(key, sizeof key, "dev.%s.%u.%%driver", drv, unit);
	if (!read_string(key, val, sizeof val))
		return; /* no device of that name: a software interface */
	snprintf(fi->dev, sizeof fi->dev, "%s.%u", drv, unit);
	snprintf(wi->driver, sizeof wi->driver, "%s", val);
	snprintf(wi->dev, sizeof wi->dev, "%s%u", drv, unit);
	snprintf(key, sizeof key, "dev.%s.%u.%%parent", drv, unit);
	bool on_pci = read_string(key, val, sizeof val) && !strncmp(val, "pci", 3);
	snprintf(key, sizeof key, "dev.%s.%u.%%location", drv, unit);
	if (on_pci && read_string(key, val, sizeof val) &&
	    watch_fbsd_location_slot(val, wi->slot, sizeof wi->slot)) {
		wi->has_pci = true;
		wi->own_link = false; /* no link attributes outside config space on FreeBSD */
	}
	/* paravirtual drivers (virtio_pci(4) vtnet, Hyper-V hn, Xen xn, VMware vmx) */
	wi->virtual_nic =
	    !strcmp(drv, "vtnet") || !strcmp(drv, "hn") || !strcmp(drv, "xn") || !strcmp(drv, "vmx");
	uint64_t v;
	for (int k = 0; k < N_QPAT; k++) {
		int q = 0;
		for (; q < PCIBW_WATCH_MAX_QUEUES; q++) {
			char leaf[48];
			snprintf(leaf, sizeof leaf, queue_pat[k], q);
			snprintf(key, sizeof key, "dev.%s.%s", fi->dev, leaf);
			if (!read_count(key, &v))
				break;
		}
		fi->nq[k] = q;
	}
	for (int k = 0; k < N_MAC; k++) {
		snprintf(key, sizeof key, "dev.%s.%s", fi->dev, mac_names[k]);
		fi->mac[k] = read_count(key, &v);
	}
}

static int sampler_freebsd(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err)
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
		snprintf(f->s.ifs[i].name, sizeof f->s.ifs[i].name, "%s", names[i]);
		device_facts(names[i], &f->s.ifs[i], &f->fi[i]);
	}
	*out = &f->s;
	return PCIBW_OK;
}

int watch_sampler_open(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err)
{
	return sampler_freebsd(names, n, out, err);
}

int watch_list_pci_ifaces(char (*names)[PCIBW_WATCH_IFNAME], int max, char (*notes)[200], int max_notes,
			  int *n_notes)
{
	int n = 0;
	*n_notes = 0;
	struct ifaddrs *ifa = NULL;
	if (getifaddrs(&ifa) == 0) {
		for (struct ifaddrs *a = ifa; a && n < max; a = a->ifa_next) {
			if (!a->ifa_addr || a->ifa_addr->sa_family != AF_LINK ||
			    strlen(a->ifa_name) >= PCIBW_WATCH_IFNAME)
				continue;
			struct watch_iface wi = {0};
			struct fbsd_if fi = {0};
			device_facts(a->ifa_name, &wi, &fi);
			if (wi.has_pci)
				snprintf(names[n++], PCIBW_WATCH_IFNAME, "%s", a->ifa_name);
		}
		freeifaddrs(ifa);
	}
	for (int i = 1; i < n; i++) /* sorted for a stable order */
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char t[PCIBW_WATCH_IFNAME];
			memcpy(t, names[j], sizeof t);
			memcpy(names[j], names[j - 1], sizeof t);
			memcpy(names[j - 1], t, sizeof t);
		}
	/* network functions DPDK's nic_uio holds (pci(4) PCIOCGETCONF, class 0x02): no ifnet */
	int fd = open("/dev/pci", O_RDONLY);
	if (fd < 0)
		return n;
	struct pci_conf conf[64];
	struct pci_conf_io pc;
	memset(&pc, 0, sizeof pc);
	pc.match_buf_len = sizeof conf;
	pc.matches = conf;
	do {
		if (ioctl(fd, PCIOCGETCONF, &pc) == -1 || pc.status == PCI_GETCONF_LIST_CHANGED ||
		    pc.status == PCI_GETCONF_ERROR)
			break;
		for (unsigned k = 0; k < pc.num_matches && *n_notes < max_notes; k++)
			if (conf[k].pc_class == 0x02 && !strcmp(conf[k].pd_name, "nic_uio"))
				snprintf(notes[(*n_notes)++], 200,
					 "pci%u:%u:%u:%u is bound to nic_uio (DPDK): no kernel counters "
					 "to watch",
					 conf[k].pc_sel.pc_domain, conf[k].pc_sel.pc_bus,
					 conf[k].pc_sel.pc_dev, conf[k].pc_sel.pc_func);
	} while (pc.status == PCI_GETCONF_MORE_DEVS);
	close(fd);
	return n;
}
