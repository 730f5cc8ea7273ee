/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <sys/pciio.h> the *_freebsd.c files use, as pci(4) documents it: the
 * PCIOCGETCONF ioctl on /dev/pci with struct pci_conf_io (match_buf_len, num_matches, matches,
 * status: PCI_GETCONF_LAST_DEVICE, PCI_GETCONF_LIST_CHANGED, PCI_GETCONF_MORE_DEVS,
 * PCI_GETCONF_ERROR), each match a struct pci_conf with pc_sel (struct pcisel: pc_domain,
 * pc_bus, pc_dev, pc_func), pc_class (the base class byte), pd_name and pd_unit. Only the members used are
 * declared and the ioctl number is not FreeBSD's _IOWR('p', 5, ...): for tests/freebsd/compile.sh, never run.
 */
#ifndef PCIBW_TEST_FREEBSD_SYS_PCIIO_H
#define PCIBW_TEST_FREEBSD_SYS_PCIIO_H
#include <stdint.h>
#define PCI_MAXNAMELEN 16
typedef enum {
	PCI_GETCONF_LAST_DEVICE,
	PCI_GETCONF_LIST_CHANGED,
	PCI_GETCONF_MORE_DEVS,
	PCI_GETCONF_ERROR
} pci_getconf_status;
struct pcisel {
	uint32_t pc_domain;
	uint8_t pc_bus, pc_dev, pc_func;
};
struct pci_conf {
	struct pcisel pc_sel;
	uint8_t pc_class;
	char pd_name[PCI_MAXNAMELEN + 1];
	unsigned long pd_unit;
};
struct pci_conf_io {
	uint32_t match_buf_len;
	uint32_t num_matches;
	struct pci_conf *matches;
	pci_getconf_status status;
};
#define PCIOCGETCONF 0xc0307005UL
#endif
