/* SPDX-License-Identifier: GPL-2.0-or-later */
/* World-readable PCI attributes of Linux sysfs: link, NUMA node, OS names. See sysfs_attr.h. */
#include "src/util/input.h"
#include "sysfs_attr.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole of DIR/NAME, as the kernel wrote it (sysfs attributes hold up to a page, and
 * local_cpulist of a large machine is longer than any small fixed buffer). *buf is NULL when the
 * attribute is absent or unreadable (not offered); a FIFO, device or directory there is refused
 * (a real sysfs never holds one, and reading a FIFO would block). */
static int read_attr(const char *dir, const char *name, char *path, size_t plen, char **buf,
		     struct pcibw_err *err)
{
	size_t len;
	snprintf(path, plen, "%s/%s", dir, name);
	return pcibw_input_read(path, "a sysfs attribute file",
				PCIBW_INPUT_FILE_ONLY | PCIBW_INPUT_NO_STDIN | PCIBW_INPUT_OPTIONAL, 65536,
				buf, &len, err);
}

/* A value the kernel never leaves blank: an empty file (or a bare newline) is an error, never
 * read as 0. */
static int blank(const char *buf)
{
	return buf[strspn(buf, " \t\r\n")] == '\0';
}

/* local_cpulist: "N" or "N-M" items separated by commas (lib/bitmap.c bitmap_print_to_pagebuf
 * with list = true), one newline at the end. Returns 0, or -1 with *col at the first character
 * not understood. */
static int cpulist_ok(const char *s, int *col)
{
	const char *p = s;
	for (;;) {
		if (*p < '0' || *p > '9')
			break;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				break;
			while (*p >= '0' && *p <= '9')
				p++;
		}
		if (*p != ',')
			break;
		p++;
	}
	if (p > s && p[-1] != ',' && (*p == '\0' || (*p == '\n' && p[1] == '\0')))
		return 0;
	*col = (int)(p - s) + 1;
	return -1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Add the entries of dir (sorted, no dot files) to a's interface list. Returns how many. */
static int add_names(struct pcibw_sysfs_attrs *a, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int first = a->n_ifaces;
	struct dirent *e;
	while ((e = readdir(d)) && a->n_ifaces < PCIBW_MAX_IFACES) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof a->ifaces[0])
			continue;
		strcpy(a->ifaces[a->n_ifaces++], e->d_name);
	}
	closedir(d);
	qsort(a->ifaces[first], (size_t)(a->n_ifaces - first), sizeof a->ifaces[0], cmp_name);
	return a->n_ifaces - first;
}

/* virtio-net hangs its netdev one level deeper: <pci dev>/virtioN/net/<if> (virtio_pci_common.c
 * registers the virtio device as a child of the PCI function). */
static void add_virtio_names(struct pcibw_sysfs_attrs *a, const char *devdir)
{
	DIR *d = opendir(devdir);
	if (!d)
		return;
	char names[8][64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 8)
		if (!strncmp(e->d_name, "virtio", 6) && strlen(e->d_name) < sizeof names[0])
			strcpy(names[n++], e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], cmp_name);
	for (int i = 0; i < n; i++) {
		char sub[4200];
		if (snprintf(sub, sizeof sub, "%s/%s/net", devdir, names[i]) < (int)sizeof sub &&
		    add_names(a, sub) && !a->iface_driver[0]) {
			/* the interface belongs to the virtio device, whose driver (virtio_net) is
			 * what ethtool -i and the interface name; the PCI function's is virtio-pci */
			char target[4300];
			if (snprintf(sub, sizeof sub, "%s/%s/driver", devdir, names[i]) >= (int)sizeof sub)
				continue;
			ssize_t ln = readlink(sub, target, sizeof target - 1);
			if (ln > 0) {
				target[ln] = '\0';
				const char *base = strrchr(target, '/');
				snprintf(a->iface_driver, sizeof a->iface_driver, "%.63s",
					 base ? base + 1 : target);
			}
		}
	}
}

static int bad_attr(const char *path, int col, const char *expected, const char *buf, struct pcibw_err *err)
{
	if (blank(buf))
		return pcibw_fail(err, PCIBW_EINPUT, "%s:1:1: empty file: expected %s", path, expected);
	return pcibw_fail(err, PCIBW_EINPUT, "%s:1:%d: expected %s, got '%.*s'", path, col, expected,
			  (int)strcspn(buf, "\n") > 40 ? 40 : (int)strcspn(buf, "\n"), buf);
}

static int *aspm_field(struct pcibw_sysfs_attrs *a)
{
	return &a->aspm_link;
}
static int *l1ss_field(struct pcibw_sysfs_attrs *a)
{
	return &a->l1_substates;
}
static int *clkpm_field(struct pcibw_sysfs_attrs *a)
{
	return &a->clock_pm;
}

int pcibw_sysfs_read_attrs(const char *sysroot, const char *slot, struct pcibw_sysfs_attrs *a,
			   struct pcibw_err *err)
{
	static const char speed_exp[] =
	    "a PCIe link speed ('8.0 GT/s PCIe', '8 GT/s', '2.5 GT/s' or 'Unknown')";
	static const char width_exp[] = "a PCIe link width (0, 1, 2, 4, 8, 12, 16 or 32)";
	static const struct {
		const char *name;
		int kind; /* 0 speed, 1 width */
		size_t has_off, val_off;
	} link[] = {
	    {"current_link_speed", 0, offsetof(struct pcibw_sysfs_attrs, has_cur_speed),
	     offsetof(struct pcibw_sysfs_attrs, cur_gts)},
	    {"max_link_speed", 0, offsetof(struct pcibw_sysfs_attrs, has_max_speed),
	     offsetof(struct pcibw_sysfs_attrs, max_gts)},
	    {"current_link_width", 1, offsetof(struct pcibw_sysfs_attrs, has_cur_width),
	     offsetof(struct pcibw_sysfs_attrs, cur_width)},
	    {"max_link_width", 1, offsetof(struct pcibw_sysfs_attrs, has_max_width),
	     offsetof(struct pcibw_sysfs_attrs, max_width)},
	};
	char dir[4096], path[4200];
	char *buf = NULL;
	int col, rc;
	memset(a, 0, sizeof *a);
	a->cur_gts = a->max_gts = NAN;
	a->cur_width = a->max_width = a->numa_node = PCIBW_NULL;
	a->aspm_link = a->l1_substates = a->clock_pm = PCIBW_NULL;
	snprintf(dir, sizeof dir, "%s/bus/pci/devices/%s", sysroot, slot);

	for (unsigned i = 0; i < sizeof link / sizeof link[0]; i++) {
		if ((rc = read_attr(dir, link[i].name, path, sizeof path, &buf, err)))
			return rc;
		if (!buf)
			continue;
		char *base = (char *)a;
		int bad = link[i].kind == 0
			      ? pcibw_sysfs_parse_speed(buf, (double *)(base + link[i].val_off), &col)
			      : pcibw_sysfs_parse_width(buf, (int *)(base + link[i].val_off), &col);
		if (bad) {
			rc = bad_attr(path, col, link[i].kind == 0 ? speed_exp : width_exp, buf, err);
			free(buf);
			return rc;
		}
		*(bool *)(base + link[i].has_off) = true;
		free(buf);
	}
	if ((rc = read_attr(dir, "numa_node", path, sizeof path, &buf, err)))
		return rc;
	if (buf) {
		char *end;
		errno = 0;
		long v = strtol(buf, &end, 10);
		int at = (int)(end - buf) + 1;
		while (*end == '\n' || *end == ' ')
			end++;
		if (blank(buf) || !(buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9')) || *end || errno ||
		    v < -1 || v > 65535) {
			rc = bad_attr(path, buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9') ? at : 1,
				      "a NUMA node number or -1", buf, err);
			free(buf);
			return rc;
		}
		a->numa_node = v < 0 ? PCIBW_NULL : (int)v; /* -1: firmware gave no node, not node 0 */
		a->has_numa = true;
		free(buf);
	}
	if ((rc = read_attr(dir, "local_cpulist", path, sizeof path, &buf, err)))
		return rc;
	if (buf) {
		if (cpulist_ok(buf, &col)) {
			rc = bad_attr(path, col, "a CPU list such as '0-7,16-23'", buf, err);
			free(buf);
			return rc;
		}
		buf[strcspn(buf, "\n")] = '\0';
		if (strlen(buf) >= sizeof a->local_cpulist) {
			rc = pcibw_fail(err, PCIBW_EINPUT, "%s:1:%zu: CPU list longer than %zu characters",
					path, sizeof a->local_cpulist, sizeof a->local_cpulist - 1);
			free(buf);
			return rc;
		}
		snprintf(a->local_cpulist, sizeof a->local_cpulist, "%s", buf);
		free(buf);
	}
	static const struct {
		const char *file;
		int *(*field)(struct pcibw_sysfs_attrs *);
		int bit;
	} pm[] = {
	    {"link/l0s_aspm", aspm_field, PCIBW_ASPM_L0S},
	    {"link/l1_aspm", aspm_field, PCIBW_ASPM_L1},
	    {"link/l1_1_aspm", l1ss_field, PCIBW_L1SS_ASPM_L11},
	    {"link/l1_2_aspm", l1ss_field, PCIBW_L1SS_ASPM_L12},
	    {"link/l1_1_pcipm", l1ss_field, PCIBW_L1SS_PCIPM_L11},
	    {"link/l1_2_pcipm", l1ss_field, PCIBW_L1SS_PCIPM_L12},
	    {"link/clkpm", clkpm_field, 1},
	};
	for (unsigned i = 0; i < sizeof pm / sizeof pm[0]; i++) {
		if ((rc = read_attr(dir, pm[i].file, path, sizeof path, &buf, err)))
			return rc;
		if (!buf)
			continue;
		if ((buf[0] != '0' && buf[0] != '1') || (buf[1] && (buf[1] != '\n' || buf[2]))) {
			rc = bad_attr(path, buf[0] == '0' || buf[0] == '1' ? 2 : 1,
				      "0 or 1 (drivers/pci/pcie/aspm.c)", buf, err);
			free(buf);
			return rc;
		}
		int *f = pm[i].field(a);
		if (*f == PCIBW_NULL)
			*f = 0;
		if (buf[0] == '1')
			*f |= pm[i].bit;
		free(buf);
	}
	static const struct {
		const char *file, *total;
		size_t at;
	} aer[] = {
	    {"aer_dev_correctable", "ERR_COR", offsetof(struct pcibw_sysfs_attrs, aer_correctable)},
	    {"aer_dev_nonfatal", "ERR_NONFATAL", offsetof(struct pcibw_sysfs_attrs, aer_nonfatal)},
	    {"aer_dev_fatal", "ERR_FATAL", offsetof(struct pcibw_sysfs_attrs, aer_fatal)},
	};
	for (unsigned i = 0; i < sizeof aer / sizeof aer[0]; i++) {
		long long *to = (long long *)((char *)a + aer[i].at);
		*to = PCIBW_NULL;
		if ((rc = read_attr(dir, aer[i].file, path, sizeof path, &buf, err)))
			return rc;
		if (!buf)
			continue;
		int line, col;
		if (pcibw_sysfs_parse_aer(buf, aer[i].total, to, &line, &col)) {
			char expected[160];
			snprintf(expected, sizeof expected,
				 "lines \"NAME COUNT\" ending with \"TOTAL_%s COUNT\" "
				 "(drivers/pci/pcie/aer.c)",
				 aer[i].total);
			rc =
			    pcibw_fail(err, PCIBW_EINPUT, "%s:%d:%d: expected %s", path, line, col, expected);
			free(buf);
			return rc;
		}
		free(buf);
	}
	snprintf(path, sizeof path, "%s/net", dir);
	if (!add_names(a, path))
		add_virtio_names(a, dir);
	snprintf(path, sizeof path, "%s/infiniband", dir);
	int n_net = a->n_ifaces - add_names(a, path);
	/* the speed of each net/ (or virtioN/net/) interface; InfiniBand names have none here */
	for (int i = 0; i < a->n_ifaces; i++) {
		a->speed_mbps[i] = PCIBW_NULL;
		if (i >= n_net)
			continue;
		char file[64];
		snprintf(file, sizeof file, "net/%.31s/speed", a->ifaces[i]);
		if ((rc = read_attr(dir, file, path, sizeof path, &buf, err)))
			return rc;
		if (!buf)
			continue; /* virtio: net/ is one level deeper; its speed is no bus fact anyway */
		/* speed_show writes ethtool's speed in Mbit/s, -1 (SPEED_UNKNOWN) with no link */
		char *end;
		errno = 0;
		long v = strtol(buf, &end, 10);
		if (end != buf && !errno && v > 0 && v <= 10000000)
			a->speed_mbps[i] = (int)v;
		free(buf);
	}
	char target[4300];
	snprintf(path, sizeof path, "%s/driver", dir);
	ssize_t ln = readlink(path, target, sizeof target - 1);
	if (ln > 0) {
		target[ln] = '\0';
		const char *base = strrchr(target, '/');
		snprintf(a->driver, sizeof a->driver, "%.63s", base ? base + 1 : target);
		/* net/ right under the function: its interfaces are its driver's */
		if (!a->iface_driver[0] && n_net > 0)
			snprintf(a->iface_driver, sizeof a->iface_driver, "%s", a->driver);
	}
	snprintf(path, sizeof path, "%s/physfn", dir);
	a->is_vf = !access(path, F_OK) || readlink(path, target, sizeof target - 1) > 0;
	return PCIBW_OK;
}

int pcibw_sysfs_aspm_policy(const char *sysroot, char *buf, unsigned len, struct pcibw_err *err)
{
	char path[4200], line[256], *whole;
	buf[0] = '\0';
	int rc = read_attr(sysroot, "module/pcie_aspm/parameters/policy", path, sizeof path, &whole, err);
	if (rc || !whole)
		return rc;
	snprintf(line, sizeof line, "%s", whole);
	free(whole);
	/* param_get_policy() brackets the policy in force among the ones it lists */
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (!open || !close || close == open + 1) {
		line[strcspn(line, "\n")] = '\0';
		return pcibw_fail(err, PCIBW_EINPUT,
				  "%s:1:%d: expected the policies with the one in force in brackets "
				  "('[default] performance powersave powersupersave'), got '%.60s'",
				  path, open ? (int)(open - line) + 2 : 1, line);
	}
	snprintf(buf, len, "%.*s", (int)(close - open - 1), open + 1);
	return PCIBW_OK;
}
