/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Linux sampler: /proc/stat, /proc/interrupts, /proc/net/softnet_stat, and per interface
 * its sysfs statistics, speed and operstate, its PCI function's current link, and its ethtool
 * statistics (SIOCETHTOOL: ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS once, ETHTOOL_GSTATS per sample;
 * include/uapi/linux/ethtool.h). Every file is opened once and re-read with pread at offset 0
 * (sysfs and seq_file regenerate their text on a read from the start); buffers only grow, so a
 * steady run allocates nothing per sample and spawns no process.
 */
#include "sampler.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *const stat_files[] = {
    "rx_bytes",	 "rx_packets", "rx_dropped", "rx_missed_errors", "rx_fifo_errors",
    "rx_errors", "tx_bytes",   "tx_packets", "tx_dropped",	 "tx_errors",
};
#define N_STAT (int)(sizeof stat_files / sizeof stat_files[0])

struct lif {
	char name[PCIBW_WATCH_IFNAME]; /* the name asked for */
	int ifindex;
	bool present;
	int fd_stat[N_STAT], fd_speed, fd_oper, fd_lspeed, fd_lwidth;
	/* ethtool: indexes of the wanted statistics and their names */
	int n_stats;	   /* ETH_SS_STATS count, 0 = none readable */
	int n_want, *want; /* indexes into the stats array */
	char (*want_name)[ETH_GSTRING_LEN];
	struct ethtool_stats *stats; /* n_stats values */
	char slotkey[64];
};

struct linux_sampler {
	struct watch_sampler base;
	int fd_stat, fd_intr, fd_softnet, sock;
	char *buf;
	size_t cap;
	char *text; /* composed blob text */
	size_t tcap;
	struct lif l[PCIBW_WATCH_MAX_IFACES];
};

/* pread the whole file into ls->buf from offset 0; returns its length or -1 (errno kept). */
static long read_all(struct linux_sampler *ls, int fd)
{
	size_t len = 0;
	for (;;) {
		if (ls->cap - len < 4096) {
			size_t cap = ls->cap ? ls->cap * 2 : 65536;
			char *p = realloc(ls->buf, cap);
			if (!p) {
				errno = ENOMEM;
				return -1;
			}
			ls->buf = p;
			ls->cap = cap;
		}
		ssize_t r = pread(fd, ls->buf + len, ls->cap - len - 1, (off_t)len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	ls->buf[len] = '\0';
	return (long)len;
}

static int open_ro(const char *fmt, const char *a, const char *b)
{
	char path[512];
	snprintf(path, sizeof path, fmt, a, b);
	return open(path, O_RDONLY | O_CLOEXEC);
}

static bool is_slot(const char *s)
{
	unsigned d, b, dv, f;
	char tail;
	return sscanf(s, "%x:%x:%x.%x%c", &d, &b, &dv, &f, &tail) == 4 && strlen(s) >= 12;
}

/* The device facts of an interface from sysfs (done once, at open). */
static void device_facts(const char *name, struct watch_iface *wi)
{
	char path[512], real[4096];
	snprintf(path, sizeof path, "/sys/class/net/%s/device", name);
	if (!realpath(path, real)) {
		wi->virtual_nic = true; /* lo, veth, bridge, tun: no device at all */
		return;
	}
	const char *base = strrchr(real, '/');
	snprintf(wi->dev, sizeof wi->dev, "%.63s", base ? base + 1 : real);
	/* the PCI function: the device itself, or the nearest PCI ancestor (virtio-pci) */
	bool own = true;
	for (char *s; (s = strrchr(real, '/'));) {
		if (is_slot(s + 1)) {
			snprintf(wi->slot, sizeof wi->slot, "%s", s + 1);
			wi->has_pci = true;
			wi->own_link = own;
			break;
		}
		*s = '\0';
		own = false;
	}
	snprintf(path, sizeof path, "/sys/class/net/%s/device/driver", name);
	ssize_t n = readlink(path, real, sizeof real - 1);
	if (n > 0) {
		real[n] = '\0';
		const char *d = strrchr(real, '/');
		snprintf(wi->driver, sizeof wi->driver, "%.31s", d ? d + 1 : real);
	}
	static const char *const para[] = {"virtio_net", "vmxnet3", "hv_netvsc", "xen-netfront",
					   "virtio-pci"};
	for (unsigned i = 0; i < sizeof para / sizeof para[0]; i++)
		if (!strcmp(wi->driver, para[i]))
			wi->virtual_nic = true;
	if (!strncmp(wi->dev, "virtio", 6))
		wi->virtual_nic = true;
}

static void close_lif(struct lif *l)
{
	for (int k = 0; k < N_STAT; k++)
		if (l->fd_stat[k] >= 0)
			close(l->fd_stat[k]);
	int *fds[] = {&l->fd_speed, &l->fd_oper, &l->fd_lspeed, &l->fd_lwidth};
	for (unsigned k = 0; k < 4; k++)
		if (*fds[k] >= 0)
			close(*fds[k]);
	for (int k = 0; k < N_STAT; k++)
		l->fd_stat[k] = -1;
	l->fd_speed = l->fd_oper = l->fd_lspeed = l->fd_lwidth = -1;
	free(l->want);
	free(l->want_name);
	free(l->stats);
	l->want = NULL;
	l->want_name = NULL;
	l->stats = NULL;
	l->n_stats = l->n_want = 0;
	l->present = false;
}

/* The ethtool string set, once: which indexes hold the statistics watch reads. */
static void ethtool_setup(struct linux_sampler *ls, struct lif *l)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} si = {{.cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS}, 0};
	struct ifreq ifr = {0};
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%.15s", l->name);
	ifr.ifr_data = (void *)&si;
	if (ls->sock < 0 || ioctl(ls->sock, SIOCETHTOOL, &ifr) ||
	    !(si.hdr.sset_mask & (1ULL << ETH_SS_STATS)) || si.len == 0 || si.len > 65536)
		return;
	int n = (int)si.len;
	struct ethtool_gstrings *gs = calloc(1, sizeof *gs + (size_t)n * ETH_GSTRING_LEN);
	l->want = calloc((size_t)n, sizeof *l->want);
	l->want_name = calloc((size_t)n, sizeof *l->want_name);
	l->stats = calloc(1, sizeof *l->stats + (size_t)n * sizeof(uint64_t));
	if (!gs || !l->want || !l->want_name || !l->stats)
		goto fail;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = (uint32_t)n;
	ifr.ifr_data = (void *)gs;
	if (ioctl(ls->sock, SIOCETHTOOL, &ifr))
		goto fail;
	for (int i = 0; i < n; i++) {
		char nm[ETH_GSTRING_LEN + 1];
		memcpy(nm, gs->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		nm[ETH_GSTRING_LEN] = '\0';
		/* a name with a blank would break the "name value" lines */
		for (char *p = nm; *p; p++)
			if (*p == ' ' || *p == '\n')
				*p = '_';
		if (watch_ethtool_wanted(nm)) {
			memcpy(l->want_name[l->n_want], nm, ETH_GSTRING_LEN);
			l->want[l->n_want++] = i;
		}
	}
	free(gs);
	l->n_stats = n;
	return;
fail:
	free(gs);
	free(l->want);
	free(l->want_name);
	free(l->stats);
	l->want = NULL;
	l->want_name = NULL;
	l->stats = NULL;
	l->n_want = 0;
}

static bool open_lif(struct linux_sampler *ls, struct lif *l, const struct watch_iface *wi)
{
	char path[512];
	snprintf(path, sizeof path, "/sys/class/net/%s/ifindex", l->name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	long n = read_all(ls, fd);
	close(fd);
	if (n <= 0)
		return false;
	l->ifindex = atoi(ls->buf);
	for (int k = 0; k < N_STAT; k++)
		l->fd_stat[k] = open_ro("/sys/class/net/%s/statistics/%s", l->name, stat_files[k]);
	l->fd_speed = open_ro("/sys/class/net/%s/%s", l->name, "speed");
	l->fd_oper = open_ro("/sys/class/net/%s/%s", l->name, "operstate");
	if (wi->own_link) {
		l->fd_lspeed = open_ro("/sys/bus/pci/devices/%s/%s", wi->slot, "current_link_speed");
		l->fd_lwidth = open_ro("/sys/bus/pci/devices/%s/%s", wi->slot, "current_link_width");
	}
	ethtool_setup(ls, l);
	l->present = true;
	return true;
}

static int put(struct linux_sampler *ls, size_t *o, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int put(struct linux_sampler *ls, size_t *o, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int w = vsnprintf(ls->text + *o, ls->tcap - *o, fmt, ap);
		va_end(ap);
		if (w >= 0 && (size_t)w < ls->tcap - *o) {
			*o += (size_t)w;
			return 0;
		}
		size_t cap = ls->tcap * 2;
		char *p = realloc(ls->text, cap);
		if (!p)
			return -1;
		ls->text = p;
		ls->tcap = cap;
	}
}

/* one sysfs value, first line, as text ("" when unreadable) */
static const char *val(struct linux_sampler *ls, int fd, bool *gone)
{
	if (fd < 0)
		return "";
	long n = read_all(ls, fd);
	if (n < 0) {
		if (errno == ENODEV || errno == ENOENT || errno == ENXIO)
			*gone = true;
		return "";
	}
	char *nl = strchr(ls->buf, '\n');
	if (nl)
		*nl = '\0';
	return ls->buf;
}

static int sample_lif(struct linux_sampler *ls, struct lif *l, const struct watch_iface *wi,
		      struct pcibw_watch_sample *out, struct pcibw_err *err)
{
	char key[96];
	size_t o = 0;
	bool gone = false;
	snprintf(key, sizeof key, "net/%s", l->name);
	if (!l->present) {
		/* a vanished interface: look for it again under its name */
		char path[512];
		snprintf(path, sizeof path, "/sys/class/net/%s", l->name);
		if (access(path, F_OK) == 0)
			open_lif(ls, l, wi);
	}
	if (l->present) {
		if (put(ls, &o, "state present\nifindex %d\n", l->ifindex))
			goto oom;
		struct ifreq ifr = {.ifr_ifindex = l->ifindex};
		if (ls->sock >= 0 && ioctl(ls->sock, SIOCGIFNAME, &ifr) == 0 &&
		    put(ls, &o, "name %s\n", ifr.ifr_name))
			goto oom;
		if (wi->dev[0] && put(ls, &o, "dev %s\n", wi->dev))
			goto oom;
		if (wi->slot[0] && put(ls, &o, "slot %s\n", wi->slot))
			goto oom;
		for (int k = 0; k < N_STAT; k++) {
			const char *v = val(ls, l->fd_stat[k], &gone);
			if (v[0] && put(ls, &o, "%s %s\n", stat_files[k], v))
				goto oom;
		}
		const char *v = val(ls, l->fd_speed, &gone);
		if (v[0] && put(ls, &o, "speed %s\n", v))
			goto oom;
		v = val(ls, l->fd_oper, &gone);
		if (v[0] && put(ls, &o, "operstate %s\n", v))
			goto oom;
		bool g2 = false;
		v = val(ls, l->fd_lspeed, &g2);
		if (v[0] && put(ls, &o, "link_speed %s\n", v))
			goto oom;
		v = val(ls, l->fd_lwidth, &g2);
		if (v[0] && put(ls, &o, "link_width %s\n", v))
			goto oom;
		if (gone) {
			close_lif(l);
			o = 0;
		}
	}
	if (!l->present) {
		if (put(ls, &o, "state vanished\n"))
			goto oom;
		return pcibw_watch_blob_set(out, key, ls->text, o, err);
	}
	int st = pcibw_watch_blob_set(out, key, ls->text, o, err);
	if (st || !l->n_want)
		return st;
	o = 0;
	struct ifreq ifr = {0};
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%.15s", l->name);
	l->stats->cmd = ETHTOOL_GSTATS;
	l->stats->n_stats = (uint32_t)l->n_stats;
	ifr.ifr_data = (void *)l->stats;
	snprintf(key, sizeof key, "ethtool/%s", l->name);
	if (ioctl(ls->sock, SIOCETHTOOL, &ifr) || l->stats->n_stats != (uint32_t)l->n_stats)
		return PCIBW_OK; /* renamed or the set changed size: leave it out this time */
	for (int i = 0; i < l->n_want; i++)
		if (put(ls, &o, "%s %llu\n", l->want_name[i], (unsigned long long)l->stats->data[l->want[i]]))
			goto oom;
	return pcibw_watch_blob_set(out, key, ls->text, o, err);
oom:
	return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
}

static int blob_fd(struct linux_sampler *ls, int fd, const char *key, struct pcibw_watch_sample *out,
		   struct pcibw_err *err)
{
	if (fd < 0)
		return PCIBW_OK;
	long n = read_all(ls, fd);
	if (n < 0)
		return pcibw_fail(err, PCIBW_EINPUT, "/%s: %s", key, strerror(errno));
	return pcibw_watch_blob_set(out, key, ls->buf, (size_t)n, err);
}

static int linux_read(struct watch_sampler *s, struct pcibw_watch_sample *out, struct pcibw_err *err)
{
	struct linux_sampler *ls = (struct linux_sampler *)s;
	int st;
	out->t = watch_monotonic();
	if ((st = blob_fd(ls, ls->fd_stat, "proc/stat", out, err)) ||
	    (st = blob_fd(ls, ls->fd_intr, "proc/interrupts", out, err)) ||
	    (st = blob_fd(ls, ls->fd_softnet, "proc/net/softnet_stat", out, err)))
		return st;
	for (int i = 0; i < s->n; i++)
		if ((st = sample_lif(ls, &ls->l[i], &s->ifs[i], out, err)))
			return st;
	return PCIBW_OK;
}

static void linux_close(struct watch_sampler *s)
{
	struct linux_sampler *ls = (struct linux_sampler *)s;
	if (!ls)
		return;
	for (int i = 0; i < s->n; i++)
		close_lif(&ls->l[i]);
	int fds[] = {ls->fd_stat, ls->fd_intr, ls->fd_softnet, ls->sock};
	for (unsigned i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(ls->buf);
	free(ls->text);
	free(ls);
}

static int sampler_linux(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err)
{
	if (n > PCIBW_WATCH_MAX_IFACES)
		return pcibw_fail(err, PCIBW_EUSAGE, "at most %d interfaces", PCIBW_WATCH_MAX_IFACES);
	struct linux_sampler *ls = calloc(1, sizeof *ls);
	if (!ls)
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	ls->base.read = linux_read;
	ls->base.close = linux_close;
	ls->fd_intr = ls->fd_softnet = ls->sock = -1;
	ls->fd_stat = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	ls->tcap = 4096;
	ls->text = malloc(ls->tcap);
	if (!ls->text) {
		linux_close(&ls->base);
		return pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
	}
	if (ls->fd_stat < 0) {
		int e = errno;
		linux_close(&ls->base);
		return pcibw_fail(err, PCIBW_ENOTHERE, "/proc/stat: %s (watch samples a Linux /proc)",
				  strerror(e));
	}
	ls->fd_intr = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
	ls->fd_softnet = open("/proc/net/softnet_stat", O_RDONLY | O_CLOEXEC);
	ls->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (int i = 0; i < n; i++) {
		struct lif *l = &ls->l[i];
		struct watch_iface *wi = &ls->base.ifs[i];
		for (int k = 0; k < N_STAT; k++)
			l->fd_stat[k] = -1;
		l->fd_speed = l->fd_oper = l->fd_lspeed = l->fd_lwidth = -1;
		ls->base.n = i + 1;
		if (strlen(names[i]) >= sizeof l->name || strchr(names[i], '/') || names[i][0] == '.') {
			linux_close(&ls->base);
			return pcibw_fail(err, PCIBW_ENOMATCH, "no such interface '%s'", names[i]);
		}
		snprintf(l->name, sizeof l->name, "%s", names[i]);
		snprintf(wi->name, sizeof wi->name, "%s", names[i]);
		device_facts(names[i], wi);
		if (!open_lif(ls, l, wi)) {
			linux_close(&ls->base);
			return pcibw_fail(err, PCIBW_ENOMATCH,
					  "no such interface '%s' (not in /sys/class/net)", names[i]);
		}
	}
	*out = &ls->base;
	return PCIBW_OK;
}

int watch_list_pci_ifaces(char (*names)[PCIBW_WATCH_IFNAME], int max, char (*notes)[200], int max_notes,
			  int *n_notes)
{
	int n = 0;
	*n_notes = 0;
	DIR *d = opendir("/sys/class/net");
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) && n < max) {
			if (e->d_name[0] == '.' || strlen(e->d_name) >= PCIBW_WATCH_IFNAME)
				continue;
			struct watch_iface wi = {0};
			device_facts(e->d_name, &wi);
			if (wi.has_pci)
				snprintf(names[n++], PCIBW_WATCH_IFNAME, "%s", e->d_name);
		}
		closedir(d);
	}
	/* sort for a stable order */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char t[PCIBW_WATCH_IFNAME];
			memcpy(t, names[j], sizeof t);
			memcpy(names[j], names[j - 1], sizeof t);
			memcpy(names[j - 1], t, sizeof t);
		}
	/* network functions a user-space driver holds: no netdev, no kernel counters */
	d = opendir("/sys/bus/pci/devices");
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) && *n_notes < max_notes) {
			if (e->d_name[0] == '.')
				continue;
			char path[512], buf[4096];
			snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/class", e->d_name);
			FILE *f = fopen(path, "re");
			unsigned cls = 0;
			if (!f)
				continue;
			if (fscanf(f, "%x", &cls) != 1)
				cls = 0;
			fclose(f);
			if ((cls >> 16) != 0x02)
				continue;
			snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/driver", e->d_name);
			ssize_t r = readlink(path, buf, sizeof buf - 1);
			if (r <= 0)
				continue;
			buf[r] = '\0';
			const char *drv = strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
			if (!strcmp(drv, "vfio-pci") || !strcmp(drv, "uio_pci_generic") ||
			    !strcmp(drv, "igb_uio"))
				snprintf(
				    notes[(*n_notes)++], 200,
				    "%.32s is bound to %.32s (DPDK or VFIO): no kernel counters to watch",
				    e->d_name, drv);
		}
		closedir(d);
	}
	return n;
}

int watch_sampler_open(const char *const *names, int n, struct watch_sampler **out, struct pcibw_err *err)
{
	return sampler_linux(names, n, out, err);
}
