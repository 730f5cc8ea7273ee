/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why an interface has no PCI device, from its sysfs entry. See netif.h. */
#include "netif.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NETIF_IFF_LOOPBACK 0x8	  /* include/uapi/linux/if.h, enum net_device_flags */
#define NETIF_ARPHRD_LOOPBACK 772 /* include/uapi/linux/if_arp.h */

/* "DIR/NAME" into out; false when it does not fit (then the file is treated as absent) */
static bool join(char *out, size_t n, const char *dir, const char *name)
{
	int k = snprintf(out, n, "%s/%s", dir, name);
	return k > 0 && (size_t)k < n;
}

/* the first line of dir/file, "" when absent */
static void read_line(const char *dir, const char *file, char *buf, size_t n)
{
	char path[PATH_MAX];
	buf[0] = '\0';
	if (!join(path, sizeof path, dir, file))
		return;
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

static long read_num(const char *dir, const char *file)
{
	char line[64], *end;
	read_line(dir, file, line, sizeof line);
	long v = strtol(line, &end, 0);
	return line[0] && end != line ? v : -1;
}

/* DEVTYPE= of the interface's uevent ("bridge", "vlan", "bond"), "" when it has none */
static void devtype(const char *dir, char *buf, size_t n)
{
	char path[PATH_MAX], line[128];
	buf[0] = '\0';
	if (!join(path, sizeof path, dir, "uevent"))
		return;
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "DEVTYPE=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, n, "%.*s", (int)(n - 1), line + 8);
			break;
		}
	fclose(f);
}

/* the name of the interface of ifindex idx under classdir, "" when none */
static void name_of_ifindex(const char *classdir, long idx, char *buf, size_t n)
{
	buf[0] = '\0';
	DIR *d = opendir(classdir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char dir[PATH_MAX];
		if (join(dir, sizeof dir, classdir, e->d_name) && read_num(dir, "ifindex") == idx) {
			snprintf(buf, n, "%.*s", (int)(n - 1), e->d_name);
			break;
		}
	}
	closedir(d);
}

/* "veth1, eth2": the interfaces this one sits on (its lower_NAME links: bridge or bond ports,
 * a VLAN's NIC), sorted by name; "" when none */
static void lowers(const char *dir, char *buf, size_t n)
{
	struct dirent **v;
	int k = scandir(dir, &v, NULL, alphasort);
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < k; i++) {
		if (!strncmp(v[i]->d_name, "lower_", 6) && o < n)
			o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", v[i]->d_name + 6);
		free(v[i]);
	}
	if (k > 0)
		free(v);
}

/* the last component of the link at dir/file, "" when it is no link */
static void link_base(const char *dir, const char *file, char *buf, size_t n)
{
	char path[PATH_MAX], target[PATH_MAX];
	buf[0] = '\0';
	if (!join(path, sizeof path, dir, file))
		return;
	ssize_t len = readlink(path, target, sizeof target - 1);
	if (len <= 0)
		return;
	target[len] = '\0';
	const char *b = strrchr(target, '/');
	snprintf(buf, n, "%.*s", (int)(n - 1), b ? b + 1 : target);
}

bool probe_netif_why_no_pci(const char *sysroot, const char *name, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	char classdir[PATH_MAX], dir[PATH_MAX], devlink[PATH_MAX];
	if (!join(classdir, sizeof classdir, sysroot, "class/net") ||
	    !join(dir, sizeof dir, classdir, name) || !join(devlink, sizeof devlink, dir, "device"))
		return false;
	struct stat st;
	size_t o;
	bool live = !strcmp(sysroot, "/sys");
	if (stat(dir, &st)) {
		o = (size_t)snprintf(buf, n, "%s does not exist: no interface of that name%s", dir,
				     live ? " (ip link lists them)" : "");
		probe_netif_advice(buf, n, o, name, "", false);
		return true;
	}
	long flags = read_num(dir, "flags"), type = read_num(dir, "type");
	bool has_device = !lstat(devlink, &st);
	bool lo_flag = flags >= 0 && (flags & NETIF_IFF_LOOPBACK), lo_type = type == NETIF_ARPHRD_LOOPBACK;
	if (lo_flag || lo_type) {
		char flag_w[48] = "";
		if (lo_flag)
			snprintf(flag_w, sizeof flag_w, "flags %#lx has IFF_LOOPBACK", flags);
		o = (size_t)snprintf(buf, n,
				     "%s is the loopback interface (%s: %s%s%s): its packets are copied in "
				     "memory and cross no bus, so there is no bus to model",
				     name, dir, flag_w, lo_flag && lo_type ? ", " : "",
				     lo_type ? "type 772 = ARPHRD_LOOPBACK" : "");
		probe_netif_advice(buf, n, o, name, "", live);
		return true;
	}
	if (!has_device) {
		char kind[64], peer[64] = "", low[256];
		devtype(dir, kind, sizeof kind);
		long idx = read_num(dir, "ifindex"), iflink = read_num(dir, "iflink");
		/* iflink names another interface for a veth (its peer) or a VLAN (its NIC) */
		if (idx > 0 && iflink > 0 && iflink != idx)
			name_of_ifindex(classdir, iflink, peer, sizeof peer);
		lowers(dir, low, sizeof low);
		o = (size_t)snprintf(
		    buf, n,
		    "%s is a virtual interface%s%s%s (%s has no device link: a software device "
		    "with no PCI function of its own)",
		    name, kind[0] ? ", a " : "", kind, kind[0] ? " by its uevent DEVTYPE" : "", dir);
		if (peer[0] && o < n)
			o += (size_t)snprintf(buf + o, n - o,
					      ", linked to %s (iflink %ld: a veth pair's peer or the "
					      "device a VLAN or tunnel sits on)",
					      peer, iflink);
		if (low[0] && o < n)
			o += (size_t)snprintf(buf + o, n - o, ", over %s (its lower_* links)", low);
		if (o < n)
			o += (size_t)snprintf(buf + o, n - o, ", so there is no bus to model");
		/* the first lower device: a bridge's or bond's port, a VLAN's NIC */
		char first[64];
		snprintf(first, sizeof first, "%.*s", (int)strcspn(low, ","), low);
		probe_netif_advice(buf, n, o, name, first, live);
		return true;
	}
	/* a parent device: on which bus? a PCI function is the probe's own business */
	char real[PATH_MAX], sub[64];
	link_base(devlink, "subsystem", sub, sizeof sub);
	if (!strcmp(sub, "pci"))
		return false;
	const char *target = realpath(devlink, real) ? real : devlink;
	o = (size_t)snprintf(
	    buf, n, "%s's device (%s) is %s%s%s, not a PCI function, so there is no PCI bus to model", name,
	    target, sub[0] ? "on the " : "of no known bus", sub, sub[0] ? " bus" : "");
	probe_netif_advice(buf, n, o, name, "", live);
	return true;
}
