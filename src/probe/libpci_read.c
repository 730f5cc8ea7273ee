/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading devices through libpci (any access method). libpci reports fatal errors through
 * pci_access->error, which is declared noreturn and by default calls exit(): we install a hook
 * that records the message and longjmps back here, so a library failure becomes an error
 * return and the process decides its own exit code. pcibw opens config space read-only
 * (pci_access->writeable = 0) and never calls pci_write_*. */
#include "probe_int.h"
#include "src/util/input.h"
#include <errno.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static _Thread_local jmp_buf *libpci_jmp;
static _Thread_local char libpci_msg[512];

static void __attribute__((noreturn)) on_error(char *msg, ...)
{
	va_list ap;
	va_start(ap, msg);
	vsnprintf(libpci_msg, sizeof libpci_msg, msg, ap);
	va_end(ap);
	longjmp(*libpci_jmp, 1);
}

static void on_quiet(char *msg, ...)
{
	(void)msg; /* libpci warnings (e.g. sysfs read failures) surface as unreadable fields */
}

struct probe_node *probe_set_add(struct probe_set *s)
{
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 32;
		struct probe_node *v = realloc(s->v, (size_t)cap * sizeof *v);
		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	struct probe_node *n = &s->v[s->n++];
	memset(n, 0, sizeof *n);
	pcibw_device_init(&n->d);
	n->header_type = -1;
	n->sec_bus = n->sub_bus = PCIBW_NULL;
	n->status_66mhz = n->sec_status_66mhz = n->has_caps = PCIBW_NULL;
	n->pcix_sec_status = PCIBW_NULL;
	n->parent = -1;
	return n;
}

void probe_set_free(struct probe_set *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->v[i].cfg.b);
	probe_fit_cache_free(s->fit);
	s->fit = NULL;
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* Config space the decoder needs, in as few reads of the device as its header allows: the
 * header (64 bytes: lspci -x dumps and non-root sysfs stop there), then the capability area
 * below 0x100 only when Status bit 4 says there is a capability list (PCI LB 3.0 sec. 6.2.3,
 * 6.7): nothing decoded lives there otherwise. 128 bytes: a CardBus bridge's lspci -x dump.
 * Extended space is left to probe_cfg_need. */
static int read_config(struct pci_dev *p, struct probe_cfg *c)
{
	c->len = 0;
	if (!pci_read_block(p, 0, c->b, 64))
		return -1;
	c->len = 64;
	if (!(c->b[PCI_STATUS] & PCI_STATUS_CAP_LIST))
		return 0;
	if (pci_read_block(p, 64, c->b + 64, 192))
		c->len = 256;
	else if (pci_read_block(p, 64, c->b + 64, 64))
		c->len = 128;
	return 0;
}

static int fetch_config(void *ctx, int at, uint8_t *buf, int n)
{
	return pci_read_block(ctx, at, buf, n) ? 0 : -1;
}

static void lookup_name(struct pci_access *a, struct pcibw_device *d)
{
	char buf[256];
	char *s = pci_lookup_name(a, buf, sizeof buf,
				  PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS |
				      PCI_LOOKUP_NO_HWDB,
				  d->vendor_id, d->device_id);
	if (s) {
		snprintf(d->name, sizeof d->name, "%s", s);
		return;
	}
	/* vendor known, device not: keep the vendor name alone rather than nothing */
	s = pci_lookup_name(a, buf, sizeof buf,
			    PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB, d->vendor_id);
	if (s)
		snprintf(d->name, sizeof d->name, "%s Device %04x", s, (unsigned)d->device_id);
}

int probe_pci_ids_open(const char *pci_ids, int *fd, char *path, size_t len, struct pcibw_err *err)
{
	char *data;
	size_t n;
	int r = pcibw_input_read(pci_ids, "a pci.ids file (--pci-ids)", PCIBW_INPUT_NO_STDIN, PCIBW_INPUT_MAX,
				 &data, &n, err);
	if (r)
		return r;
	/* libpci stops a line at a NUL ("Line too long") and copies any other byte into the names
	 * pcibw prints: a terminal escape in a name would reach the user's screen */
	unsigned line = 1, col = 1;
	for (size_t i = 0; i < n; i++, col++) {
		unsigned char c = (unsigned char)data[i];
		if (c == '\n') {
			line++;
			col = 0;
		} else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
			r = pcibw_fail(err, PCIBW_EINPUT,
				       "%s:%u:%u: %s byte 0x%02x: expected a pci.ids text file (names, "
				       "hex ids, tabs, '#' comments)",
				       pci_ids, line, col, c ? "control" : "NUL", c);
			free(data);
			return r;
		}
	}
	r = pcibw_input_memfd(data, n, fd, path, len, err);
	free(data);
	return r;
}

/* libpci's message for a pci.ids it cannot parse names the file it opened ("Parse error at
 * PATH, line N", pciutils names-parse.c): for --pci-ids that is the memory copy, so the
 * message names the user's file and line instead. Any other failure of the dump method is bad
 * input; of the live methods, not possible here. */
static int libpci_failure(unsigned method, const char *ids_copy, const char *ids_name, struct pcibw_err *err)
{
	size_t n = strlen(libpci_msg);
	while (n && libpci_msg[n - 1] == '\n')
		libpci_msg[--n] = '\0';
	if (ids_copy) {
		char at[96];
		snprintf(at, sizeof at, " at %s, line ", ids_copy);
		char *p = strstr(libpci_msg, at);
		if (p) {
			unsigned long line = strtoul(p + strlen(at), NULL, 10);
			*p = '\0';
			return pcibw_fail(err, PCIBW_EINPUT,
					  "%s:%lu:1: %s (expected a pci.ids file: 'VVVV  vendor name' lines, "
					  "tab-indented 'DDDD  device name' lines, '#' comments)",
					  ids_name, line, libpci_msg);
		}
	}
	return pcibw_fail(err, method == PCI_ACCESS_DUMP ? PCIBW_EINPUT : PCIBW_ENOTHERE, "libpci: %s",
			  libpci_msg);
}

/* A libpci access whose errors land in on_error (a longjmp to the caller's libpci_jmp) and whose
 * warnings are quiet; it never writes config space. NULL when out of memory. */
static struct pci_access *libpci_alloc(void)
{
	struct pci_access *a = pci_alloc();
	if (a) {
		a->error = on_error;
		a->warning = on_quiet;
		a->debug = on_quiet;
		a->writeable = 0;
	}
	return a;
}

int probe_libpci_names(struct probe_set *set, int stop, const char *pci_ids, struct pcibw_err *err)
{
	jmp_buf jb;
	jmp_buf *volatile saved = libpci_jmp;
	volatile int ids = -1, none = -1;
	char ids_path[64], none_path[64];
	if (pci_ids) {
		int fd, rc = probe_pci_ids_open(pci_ids, &fd, ids_path, sizeof ids_path, err);
		if (rc)
			return rc;
		ids = fd;
	}
	/* libpci's dump method over an empty file: an access with no device, for pci.ids alone */
	int fd, rc = pcibw_input_memfd("", 0, &fd, none_path, sizeof none_path, err);
	if (rc) {
		if (ids >= 0)
			pcibw_input_memfd_close(ids, ids_path);
		return rc;
	}
	none = fd;
	struct pci_access *volatile a = libpci_alloc();
	volatile int r = PCIBW_OK;
	volatile int cleaning = 0;
	if (!a) {
		r = pcibw_fail(err, PCIBW_EINTERNAL, "libpci: out of memory");
		goto done;
	}
	libpci_jmp = &jb;
	if (setjmp(jb)) {
		if (cleaning)
			goto done;
		r = libpci_failure(PCI_ACCESS_DUMP, ids >= 0 ? ids_path : NULL, pci_ids, err);
		goto out;
	}
	a->method = PCI_ACCESS_DUMP;
	if (pci_set_param(a, "dump.name", none_path)) {
		r = pcibw_fail(err, PCIBW_EINTERNAL, "libpci has no parameter dump.name");
		goto out;
	}
	if (ids >= 0)
		pci_set_name_list_path(a, ids_path, 0);
	pci_init(a);
	for (int i = set->n - 1; i > stop; i--)
		if (set->v[i].d.vendor_id >= 0)
			lookup_name(a, &set->v[i].d);
out:
	cleaning = 1;
	if (a)
		pci_cleanup(a);
done:
	if (ids >= 0)
		pcibw_input_memfd_close(ids, ids_path);
	if (none >= 0)
		pcibw_input_memfd_close(none, none_path);
	libpci_jmp = saved;
	return r;
}

int probe_libpci_read(unsigned method, const char *const *params, const char *pci_ids, const char *origin,
		      const struct probe_locator *loc, struct probe_set *set, struct pcibw_report *rep,
		      struct pcibw_err *err)
{
	jmp_buf jb;
	jmp_buf *volatile saved = libpci_jmp;
	volatile int ids = -1;
	char ids_path[64];
	if (pci_ids) {
		int fd, rc = probe_pci_ids_open(pci_ids, &fd, ids_path, sizeof ids_path, err);
		if (rc)
			return rc;
		ids = fd;
	}
	struct pci_access *volatile a = libpci_alloc();
	volatile int r = PCIBW_OK;
	volatile int cleaning = 0;
	if (!a) {
		if (ids >= 0)
			pcibw_input_memfd_close(ids, ids_path);
		return pcibw_fail(err, PCIBW_EINTERNAL, "libpci: out of memory");
	}
	libpci_jmp = &jb;
	if (setjmp(jb)) {
		if (cleaning)
			goto done; /* pci_cleanup itself failed: leave what it holds */
		r = libpci_failure(method, ids >= 0 ? ids_path : NULL, pci_ids, err);
		goto out;
	}
	a->method = method;
	set->loc = loc;
	for (int i = 0; params && params[i] && params[i + 1]; i += 2)
		if (pci_set_param(a, (char *)params[i], (char *)params[i + 1])) {
			r = pcibw_fail(err, PCIBW_EINTERNAL, "libpci has no parameter %s", params[i]);
			goto out;
		}
	if (ids >= 0)
		pci_set_name_list_path(a, ids_path, 0);
	pci_init(a);
	pci_scan_bus(a);
	for (struct pci_dev *p = a->devices; p; p = p->next) {
		struct probe_node *n = probe_set_add(set);
		if (!n) {
			r = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			goto out;
		}
		struct pcibw_device *d = &n->d;
		d->domain = p->domain;
		d->bus = p->bus;
		d->dev = p->dev;
		d->fn = p->func;
		pcibw_format_slot(d->slot, d->domain, d->bus, d->dev, d->fn);
		if (!(n->cfg.b = malloc(sizeof(uint8_t[4096])))) {
			r = pcibw_fail(err, PCIBW_EINTERNAL, "out of memory");
			goto out;
		}
		if (read_config(p, &n->cfg)) {
			pcibw_report_warn(rep, d->slot, "config-unreadable", "config space not readable");
			continue;
		}
		n->cfg.fetch = fetch_config;
		n->cfg.fetch_ctx = p;
		r = probe_decode(n, origin, loc, rep, err);
		n->cfg.fetch = NULL; /* p goes with pci_cleanup */
		n->cfg.fetch_ctx = NULL;
		if (r)
			goto out;
		if (d->vendor_id >= 0)
			lookup_name(a, d);
	}
out:
	cleaning = 1;
	pci_cleanup(a);
done:
	if (ids >= 0)
		pcibw_input_memfd_close(ids, ids_path);
	libpci_jmp = saved;
	return r;
}
