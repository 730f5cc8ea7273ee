/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/slots.h - the slots of a machine: every PCI Express root or switch downstream port a card
 * can sit below, occupied or empty, with its physical slot name, NUMA node, capability, the hops
 * it shares with other slots and what sits in it; and, for a card (NIC profile, ports, line
 * rate), each slot's port fit on its path, ranked (`pcibw slots`, doc/cli-contract.md).
 *
 * A slot port is a root port (PCIe Base 5.0 sec. 7.5.3.2 Device/Port Type 4) or a switch
 * downstream port (type 6) whose PCI Express Capabilities register says Slot Implemented (bit 8),
 * or, where the source shows no PCI Express Capabilities (a non-root sysfs copy, an hwloc
 * export), a PCIe bridge that either sits on a root bus (a root port) or has no bridge below it
 * (a switch's upstream port always has its downstream ports below it): slot_implemented null; an
 * hwloc export does not even say which bridges are PCIe: there any PCI-to-PCI bridge (class
 * 0x0604) the tree admits is one, kind_known false.
 */
#ifndef PCIBW_SLOTS_H
#define PCIBW_SLOTS_H

#include "pcibw/device.h"
#include "pcibw/error.h"
#include "pcibw/nic.h"
#include "pcibw/portfit.h"
#include <stdbool.h>

#define PCIBW_SLOT_MAX_SHARED 8
#define PCIBW_SLOT_MAX_OCCUPANTS 8

/* One record of `dmidecode -t 9` text (SMBIOS System Slots, DSP0134 3.x sec. 7.10). */
struct pcibw_smbios_slot {
	char designation[64];	  /* Slot Designation string (offset 04h), as dmidecode prints it */
	char type[64];		  /* Slot Type (05h) and Data Bus Width (06h) as dmidecode words them */
	bool in_use;		  /* Current Usage (07h) "In Use" */
	int id;			  /* Slot ID (09h), PCIBW_NULL when not printed */
	int domain, bus, dev, fn; /* Segment Group Number (0Dh), Bus Number (0Fh), Device/Function
				   * Number (10h): dmidecode's "Bus Address"; domain PCIBW_NULL when
				   * the record has none (SMBIOS before 2.6, or 0FFh: not PCI) */
	int line;		  /* the record's first line in the file, for messages */
};

struct pcibw_smbios {
	struct pcibw_smbios_slot *v; /* heap */
	int n, cap;
};

/*
 * pcibw_smbios_read - the type 9 records of `dmidecode -t 9` (or whole `dmidecode`) text in path
 * ("-" standard input). Lines read: "Handle 0x..., DMI type N, M bytes" (a record starts; only
 * type 9 is kept), "System Slot Information", and a record's tab- or space-indented "Key: value"
 * lines (Designation, Type, Current Usage, ID, Bus Address DDDD:BB:DD.F; any other key, and the
 * Characteristics' own lines, are skipped); dmidecode's banner lines ("# dmidecode 3.3",
 * "Getting SMBIOS data from sysfs.", "SMBIOS 3.3.0 present.", "Table at ...", "N structures
 * occupying ..."), "#" comments and blank lines. Returns PCIBW_OK; PCIBW_EINPUT for an unreadable
 * file, a line that is none of these, a Bus Address that is not DDDD:BB:DD.F in hex, or an ID
 * that is no whole number (FILE:LINE:COLUMN and what was expected); PCIBW_EINTERNAL out of
 * memory. out must be zeroed; free with pcibw_smbios_free, also after an error.
 */
int pcibw_smbios_read(const char *path, struct pcibw_smbios *out, struct pcibw_err *err);

/* pcibw_smbios_parse - the same on text[0..len) (NUL bytes refused); name is the file's name
 * for messages. */
int pcibw_smbios_parse(const char *text, size_t len, const char *name, struct pcibw_smbios *out,
		       struct pcibw_err *err);

void pcibw_smbios_free(struct pcibw_smbios *s);

/* A name the OS gives a slot: Linux's /sys/bus/pci/slots/NAME/address ("DDDD:BB:DD", the
 * slot's bus and device: the device in it, drivers/pci/slot.c address_read_file). */
struct pcibw_os_slot {
	char name[64];
	int domain, bus, dev;
};

struct pcibw_os_slots {
	struct pcibw_os_slot *v; /* heap */
	int n, cap;
};

/*
 * pcibw_os_slots_read - the slot names of root/sys/bus/pci/slots, else root/bus/pci/slots (root
 * "/" live, or a --sysfs copy's DIR, which may be the root above sys/ or sys/ itself; neither
 * there gives none; src/probe/slot_names_linux.c). A name whose address file
 * does not read as DDDD:BB:DD is skipped. Returns PCIBW_OK or PCIBW_EINTERNAL (out of memory).
 * On FreeBSD (slot_names_freebsd.c) the OS names no slots: root "/" gives none, a copy's DIR is
 * PCIBW_EUSAGE (a Linux tree is read by the Linux build).
 * out must be zeroed; free with pcibw_os_slots_free.
 */
int pcibw_os_slots_read(const char *root, struct pcibw_os_slots *out, struct pcibw_err *err);
void pcibw_os_slots_free(struct pcibw_os_slots *s);

/* A hop above a slot that other slots pass through too (a switch's upstream link, a root port
 * feeding a switch, a chipset's uplink). */
struct pcibw_slot_share {
	char hop[32];		     /* the bridge, as pcibw_hop.slot */
	struct pcibw_hop link;	     /* its bus as the path shows it (what it runs at now) */
	int others[PCIBW_MAX_PEERS]; /* the other slots behind it, indices into pcibw_slots.v */
	int n_others;
};

/* What sits in a slot: a device on the port's secondary bus (a card's functions, or a switch's
 * upstream port). */
struct pcibw_slot_occupant {
	char slot[32];
	int class_id;
	char name[256];
};

struct pcibw_slot {
	char port[32];	       /* the root or downstream port's address */
	int port_type;	       /* PCI_EXP_TYPE_ROOT_PORT / _DOWNSTREAM, PCIBW_NULL unknown */
	bool kind_known;       /* the source says the bridge is PCIe (false: an hwloc export) */
	int slot_implemented;  /* PCI Express Capabilities Slot Implemented 0/1, PCIBW_NULL unknown */
	int physical_slot;     /* Slot Capabilities Physical Slot Number (bits 31:19), PCIBW_NULL */
	char name[64];	       /* the slot's name: the Physical Slot Number ("2"), else the OS's
				* slot name, else the SMBIOS designation; "" none known */
	const char *name_from; /* "sltcap", "sysfs", "smbios"; NULL with no name */
	char os_name[64];      /* the OS's slot name (sysfs slots/), "" none */
	char smbios_name[64];  /* the SMBIOS designation of the record naming it, "" none */
	int numa_node;	       /* the port's; PCIBW_NULL unknown */
	double cap_gts;	       /* the port's Link Capabilities (max_link_*): what a card there gets */
	int cap_width;
	const char *cap_from; /* "config" (Link Capabilities) or "sysfs" (max_link_*), the origin */
	double link_gts;      /* what the port's link runs at now (NAN, PCIBW_NULL: unknown) */
	int link_width;
	bool empty;			       /* the report's `empty` */
	const char *link_cause;		       /* the port's link_cause code when its link runs below its
						* capability (pcibw/device.h), NULL else */
	int parent_slot;		       /* the nearest slot above it (a switch in a slot), -1 none */
	struct pcibw_hop path[PCIBW_MAX_PATH]; /* the port's own upstream hops, as report's `path` */
	int n_path;
	double path_gbps;	  /* the least of the slot's capability and its upstream hops, raw
				   * Gbit/s per direction (pcibw_bus_raw_gbps); NAN unknown */
	char path_bottleneck[32]; /* the hop that sets it (the port itself: its capability) */
	struct pcibw_slot_share shared[PCIBW_SLOT_MAX_SHARED];
	int n_shared;
	struct pcibw_slot_occupant occupants[PCIBW_SLOT_MAX_OCCUPANTS];
	int n_occupants;
	/* with a card (pcibw_slots_fit): */
	struct pcibw_port_fit fit; /* the card's port fit at the slot: known false with why */
	int rank;		   /* 1 = the best slot; 0 not ranked (no card, or it holds a switch) */
};

struct pcibw_slots {
	struct pcibw_slot *v; /* heap, in port address order */
	int n, cap;
	int smbios_unmatched; /* SMBIOS records naming no port of the source */
	/* the card (pcibw_slots_fit) */
	bool card;
	char nic[64];
	int ports;
	double line_rate_gbps; /* all ports together, per direction */
	double card_gts;       /* the card's own Link Capabilities, where the source holds a
				* device of that profile (card_from): NAN else (the card is
				* taken to train at each slot's capability) */
	int card_width;
	char card_from[32];
	int *order; /* slot indices, best first (heap; n entries), NULL without a card */
};

/*
 * pcibw_slots_build - the slot ports of report r (probed with `all`: every device, with paths),
 * named from smbios (may be NULL) and os (may be NULL), with their occupants and shared hops.
 * An SMBIOS record is a port's when its Bus Address is the port itself, a device on the port's
 * secondary bus (DSP0134 leaves open which of the two firmware names; the Bus Number is the
 * slot's bus either way), or, with no device there, a bus that is the port's secondary bus.
 * Returns PCIBW_OK or PCIBW_EINTERNAL (out of memory). out must be zeroed; free with
 * pcibw_slots_free.
 */
int pcibw_slots_build(const struct pcibw_report *r, const struct pcibw_smbios *smbios,
		      const struct pcibw_os_slots *os, struct pcibw_slots *out, struct pcibw_err *err);

/*
 * pcibw_slots_fit - each slot's port fit for a card of profile nic (named nic_name) with ports
 * ports (>= 1) of line_rate_gbps in all (> 0, per direction), through pcibw_port_fit_eval: the
 * link is the lesser of the slot's capability and the card's (card_gts/card_width, NAN/PCIBW_NULL
 * unknown: the slot's), then the lanes and rate of a narrower hop above; MPS, MRRS and RCB the
 * contract's defaults (the card's registers are not known before it sits there: bus_assumed).
 * Then the ranking: line rate at 1518 B frames first, then at 64 B, then a slot with nothing in
 * it before an occupied one, fewer shared hops, the higher ratio at 64 B, the port address; a
 * slot that holds a switch (its occupant a PCI-to-PCI bridge, whose ports are the slots) comes
 * last with rank 0: no place for a card.
 * A slot whose path is not known gets fit.known false with why. Returns PCIBW_OK,
 * PCIBW_EUSAGE (ports or rate out of range), PCIBW_EINTERNAL.
 */
int pcibw_slots_fit(struct pcibw_slots *s, const struct pcibw_nic *nic, const char *nic_name, int ports,
		    double line_rate_gbps, double card_gts, int card_width, const char *card_from,
		    struct pcibw_err *err);

void pcibw_slots_free(struct pcibw_slots *s);

#endif
