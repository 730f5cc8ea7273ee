/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/device.h - the facts `pcibw report` states about one device, whatever the source
 * (live libpci, lspci dump, copied sysfs tree, hwloc XML). One field per JSON key of the
 * contract (doc/cli-contract.md, "report JSON"); doc/json.md documents each.
 *
 * Null convention: integers use PCIBW_NULL (-1) for "unknown", doubles use NAN, tri-state
 * booleans use PCIBW_NULL as well (0 false, 1 true).
 */
#ifndef PCIBW_DEVICE_H
#define PCIBW_DEVICE_H

#include "pcibw/bus.h"
#include "pcibw/error.h"
#include "pcibw/portfit.h"
#include <stdbool.h>
#include <stdint.h>

#define PCIBW_NULL (-1)
#define PCIBW_MAX_PATH 16
#define PCIBW_MAX_IFACES 16
#define PCIBW_MAX_PROV 56
#define PCIBW_MAX_PEERS 32

/* ASPM states as Link Capabilities' ASPM Support and Link Control's ASPM Control encode them
 * (bits 11:10 and 1:0; PCIe Base 6.0 sec. 7.5.3.6, 7.5.3.7): 0 none/off, L0s, L1, both. */
#define PCIBW_ASPM_L0S 1
#define PCIBW_ASPM_L1 2
/* L1 PM Substates enabled (L1 PM Substates Control 1, sec. 7.8.3.3), as pcibw_device.l1_substates */
#define PCIBW_L1SS_ASPM_L11 1
#define PCIBW_L1SS_ASPM_L12 2
#define PCIBW_L1SS_PCIPM_L11 4
#define PCIBW_L1SS_PCIPM_L12 8

/* One hop of the path to the root complex (contract: `path` entries). */
struct pcibw_hop {
	char slot[32];		      /* the bridge's slot, as pcibw_device.slot */
	enum pcibw_bus_kind bus_kind; /* the bus on the hop's downstream side */
	double link_speed_gts;	      /* GT/s per lane; NAN when not PCIe or unknown */
	int link_width;		      /* PCIBW_NULL when unknown */
	double gbps;		     /* usable raw Gbit/s of this hop (see pcibw_bus_raw_gbps), NAN unknown */
	int mps_supported_bytes;     /* a PCIe port's Device Capabilities Max_Payload_Size Supported,
				      * 128..4096; PCIBW_NULL unknown or not PCIe */
	bool shared;		     /* a PCI/PCI-X segment: gbps is shared by all its devices, half duplex */
	int bus_mhz, bus_width_bits; /* a PCI/PCI-X hop: its segment's clock (MHz) and width (bits) as
				      * the bridge's registers give them; PCIBW_NULL unknown or PCIe */
};

/* field name -> origin, e.g. {"link_speed_gts", "sysfs"} */
struct pcibw_provenance {
	const char *field;  /* static string, a JSON key */
	const char *origin; /* "config", "sysfs", "hwloc", "inferred" */
};

/* The registers that say why a link trained below its capability, as the source shows them
 * (PCIBW_NULL / NAN where it does not). Section numbers are PCIe Base 5.0's. */
struct pcibw_link_regs {
	double target_speed_gts;  /* Link Control 2 Target Link Speed, bits 3:0 (sec. 7.5.3.19) */
	int hasd;		  /* Link Control 2 Hardware Autonomous Speed Disable, bit 5 */
	int lbms, labs;		  /* Link Status Link Bandwidth Management Status (bit 14) and Link
				   * Autonomous Bandwidth Status (bit 15), sec. 7.5.3.8 */
	int eq_8gt_complete;	  /* Link Status 2 Equalization 8.0 GT/s Complete, bit 1 (sec. 7.5.3.20) */
	int dll_active;		  /* Link Status Data Link Layer Link Active, bit 13, where Link
				   * Capabilities bit 20 says the port reports it; PCIBW_NULL else */
	int slot_implemented;	  /* PCI Express Capabilities Slot Implemented, bit 8 (sec. 7.5.3.2) */
	int physical_slot;	  /* Slot Capabilities Physical Slot Number, bits 31:19 (sec. 7.5.3.9) */
	int presence;		  /* Slot Status Presence Detect State, bit 6 (sec. 7.5.3.11) */
	int power_state;	  /* PCI PM Control/Status PowerState bits 1:0: 0 D0 .. 3 D3hot (PCI
				   * Bus Power Management 1.2 sec. 5.6.4.1) */
	long long aer_cor_status; /* AER Correctable Error Status (sec. 7.8.4.5), PCIBW_NULL none */
	long long aer_unc_status; /* AER Uncorrectable Error Status (sec. 7.8.4.2) */
};

/* AER error counts the kernel keeps since boot (sysfs aer_dev_correctable, aer_dev_nonfatal,
 * aer_dev_fatal: their TOTAL_ERR_* line, drivers/pci/pcie/aer.c); PCIBW_NULL where absent. */
struct pcibw_aer_counts {
	long long correctable, nonfatal, fatal;
};

/* Why a link runs below its capability (JSON `link_cause`); code NULL: it does not, or the
 * source cannot tell that it does. code is one of the contract's, a static string. */
struct pcibw_link_cause {
	const char *code;   /* "partner-limited", "target-capped", "autonomous-disabled",
			     * "lanes-lost", "power-managed", "reliability", "unknown" */
	char evidence[640]; /* the registers read, with their spec sections */
	char fix[400];	    /* what to do (or that nothing is wrong) */
};

struct pcibw_device {
	char slot[32];		  /* "DDDD:BB:DD.F", lower-case hex, domain >= 4 digits */
	int domain, bus, dev, fn; /* numeric slot: domain >= 0, bus 0-255, dev 0-31, fn 0-7;
				   * PCIBW_NULL after pcibw_device_init */
	int vendor_id, device_id; /* PCIBW_NULL when unknown */
	int class_id;		  /* 16-bit class+subclass (0x0200), PCIBW_NULL when unknown */
	int revision;		  /* PCIBW_NULL when unknown */
	char name[256];		  /* pci.ids "Vendor Device" name, "" when unknown (-> null) */
	bool is_virtual;	  /* paravirtual (virtio, vmxnet3, Hyper-V, Xen): no bus ceiling */
	bool is_bridge;		  /* header type 1 (or a PCIe root/downstream/upstream port) */
	int pcie_port_type;	  /* PCIe capability Device/Port Type (PCI_EXP_TYPE_*, 0..10), PCIBW_NULL
				   * if not PCIe */

	enum pcibw_bus_kind bus_kind;
	bool pcix_capable;
	enum pcibw_pcix_mode pcix_mode;
	int bus_mhz;	    /* segment clock 33/66/100/133, PCIBW_NULL */
	int bus_width_bits; /* 32/64, PCIBW_NULL */
	int mmrbc_bytes;    /* PCI-X command MMRBC, PCIBW_NULL */
	int pcix_splits;    /* PCI-X command max outstanding splits, PCIBW_NULL */
	int pcix_designed_mmrbc_bytes, pcix_designed_splits; /* PCI-X status: what the device was
							      * designed for (bytes, count); PCIBW_NULL */
	int pcix_64bit, pcix_133, pcix_266, pcix_533;	     /* PCI-X status bits, 0/1/PCIBW_NULL */
	int latency_timer;   /* config 0x0d Latency Timer, PCI clocks 0..255 (PCI LB 3.0 sec.
			      * 6.2.4); PCIBW_NULL unknown. PCIe hardwires it to 0 (no effect) */
	int cacheline_bytes; /* config 0x0c Cache Line Size x 4 (the register counts DWORDs,
			      * PCI LB 3.0 sec. 6.2.4); PCIBW_NULL when unknown or 0 (not set) */

	double link_speed_gts;	   /* LnkSta (or sysfs current_link_speed); NAN unknown */
	int link_width;		   /* LnkSta; PCIBW_NULL for x0/unknown */
	double max_link_speed_gts; /* LnkCap2 vector (if non-zero) else LnkCap; NAN unknown */
	int max_link_width;	   /* LnkCap; PCIBW_NULL unknown */
	int downgraded;		   /* 0/1, PCIBW_NULL where lspci exempts the port */
	int mps_bytes, mrrs_bytes; /* DevCtl, bytes 128..4096; PCIBW_NULL unknown */
	int rcb_bytes;		   /* LnkCtl RCB, 64/128 bytes; PCIBW_NULL unknown */
	int relaxed_ordering, ext_tags, tags_10bit, flit_mode; /* DevCtl/DevCtl2 enables, LnkSta2
								* Flit Mode Status: 0/1/PCIBW_NULL */
	/* Link power management and payload limit (ASPM: PCIe Base 6.0 sec. 5.4.1; L1 PM Substates:
	 * sec. 5.5). Null (PCIBW_NULL) where the source does not show the register. */
	int aspm;	    /* Link Control ASPM Control, PCIBW_ASPM_* bits (0 = off) */
	int aspm_link;	    /* the link's effective state: a state is on only where both ends enable
			     * it (this device & its upstream port), or the kernel's sysfs link/
			     * files; PCIBW_NULL when the upstream port is not in the source */
	int aspm_supported; /* Link Capabilities ASPM Support, PCIBW_ASPM_* bits (0 = none) */
	int l0s_exit_latency_ns, l1_exit_latency_ns; /* Link Capabilities exit latencies: the upper
						      * bound of the encoded range (L0s 64..4000 ns, L1
						      * 1000..64000 ns) of a supported state; PCIBW_NULL
						      * for an unsupported state and for the open-ended
						      * code 7 (> 4 us, > 64 us) */
	int l1_substates;	 /* PCIBW_L1SS_* bits enabled; 0 none (or no L1 PM Substates
				  * capability in a 4096-byte source); PCIBW_NULL unknown */
	int clock_pm;		 /* Link Control Enable Clock Power Management, 0/1/PCIBW_NULL */
	int mps_supported_bytes; /* Device Capabilities Max_Payload_Size Supported, 128..4096 */

	int numa_node;	       /* PCIBW_NULL when firmware reports none (-1) */
	char local_cpus[1024]; /* CPUs local to it, as a list "0-7,16-23" (sysfs local_cpulist,
				* or hwloc); "" (-> null) when numa_node is unknown */
	char interfaces[PCIBW_MAX_IFACES][32];	/* OS network interface names ("eth0"): sysfs or hwloc */
	int n_interfaces;			/* 0..PCIBW_MAX_IFACES */
	int iface_speed_mbps[PCIBW_MAX_IFACES]; /* each interface's current speed, Mbit/s (sysfs
						 * net/IF/speed); PCIBW_NULL unknown or link down */
	int iface_max_mbps[PCIBW_MAX_IFACES];	/* its highest supported link mode, Mbit/s (ethtool
						 * ETHTOOL_GLINKSETTINGS); PCIBW_NULL unknown */
	char driver[64];       /* the kernel driver bound (sysfs driver link, or ETHTOOL_GDRVINFO); "" */
	char firmware[64];     /* ETHTOOL_GDRVINFO fw_version of its interface; "" (-> null) unknown */
	char iface_driver[64]; /* the driver of its network interfaces' device: the function's own
				* driver for a PCI NIC, the virtio driver (virtio_net) under
				* virtio-pci; sysfs (DEVICE/virtioN/driver) or ETHTOOL_GDRVINFO;
				* "" (-> null) unknown */
	bool is_vf;	       /* an SR-IOV virtual function (sysfs physfn link, or the ports table) */
	struct pcibw_port_fit port_fit; /* network controllers: can the slot carry the card's ports */

	struct pcibw_hop path[PCIBW_MAX_PATH]; /* nearest upstream bridge first, host bridge excluded */
	int n_path;			       /* 0..PCIBW_MAX_PATH */
	char bottleneck_slot[32];	       /* path hop (or the device) with the lowest gbps, ties to the
						* one nearer the root (as pcie_bandwidth_available()); "" -> null */
	double bottleneck_gbps;		       /* its raw Gbit/s (pcibw_bus_raw_gbps); NAN -> null */
	int bottleneck_shared; /* 0/1/PCIBW_NULL: whether that hop is a shared PCI/PCI-X segment */

	char peers[PCIBW_MAX_PEERS][32]; /* other devices on the same PCI/PCI-X segment (they share
					  * its bandwidth); JSON `segment_peers`; none for PCIe */
	int n_peers;			 /* 0..PCIBW_MAX_PEERS */

	struct pcibw_link_regs lreg;	    /* link-cause registers */
	struct pcibw_aer_counts aer;	    /* JSON `aer` (null when all three are unknown) */
	struct pcibw_link_cause link_cause; /* JSON `link_cause` */
	int empty;	   /* 1: a root or downstream port with nothing below it and no link trained (an
			    * empty slot); 0 not; JSON `empty` */
	int secondary_bus; /* a bridge's Secondary Bus Number (the bus below it), 0..255; PCIBW_NULL
			    * for a device that is no bridge or a source that does not say; JSON
			    * `secondary_bus` */

	struct pcibw_provenance prov[PCIBW_MAX_PROV];
	int n_prov; /* 0..PCIBW_MAX_PROV */
};

/*
 * One warning of a report. The JSON `warnings` array holds "SLOT: text" (slot non-empty) or
 * text; `warning_codes` the codes in the same order; each device's `notes` its own {code, text}.
 * Renderers and the probe find a warning by slot and code, never by its text.
 */
struct pcibw_warning {
	char slot[32];	  /* the device it is about ("DDDD:BB:DD.F"), "" for the whole source */
	const char *code; /* static string, stable: one of the codes listed in doc/json.md */
	char *text;	  /* heap, without the slot prefix */
};

/* A whole report: what `pcibw report` prints. */
struct pcibw_report {
	char source[1100];		/* "live", "sysfs:DIR", "dump:FILE", "hwloc-xml:FILE" */
	struct pcibw_warning *warnings; /* heap, in the order first raised, no duplicates */
	int n_warnings, cap_warnings;	/* used, allocated */
	char aspm_policy[32];		/* the kernel's ASPM policy (/sys/module/pcie_aspm/parameters/policy,
					 * the bracketed word: "default", "performance", "powersave",
					 * "powersupersave"); "" (-> null) when the source does not show it */
	struct pcibw_device *devices;	/* heap array, sorted by slot */
	int n_devices, cap_devices;	/* used, allocated */
	/* pcibw_report_warn's own: an index of warnings[0..n_indexed) by slot, code and text, so
	 * that finding a duplicate does not compare with every warning (heap; rebuilt whenever
	 * n_indexed is not n_warnings). Zero-initialise with the rest. */
	int *warn_index;
	int cap_index, n_indexed;
};

/*
 * pcibw_device_is_onpackage - true for network MACs built into a chipset, whose PCIe "link" is
 * internal to the package and may not be a physical ceiling (Intel X722 in the C620 PCH,
 * 8086:37cc-37d3 per pci.ids, except 37cd, the X722 virtual function). Their traffic leaves
 * through the chipset's uplink. Ids are 16-bit; PCIBW_NULL gives false.
 */
bool pcibw_device_is_onpackage(int vendor_id, int device_id);

/* pcibw_aspm_name - ASPM bits (PCIBW_ASPM_*) as the JSON spells them: "off" (or "none" when
 * none_word, for ASPM Support), "l0s", "l1", "l0s-l1"; NULL for PCIBW_NULL or out of range. */
const char *pcibw_aspm_name(int bits, bool none_word);

/* pcibw_device_init - set every field of d to its null value (PCIBW_NULL, NAN, "", false,
 * PCIBW_BUS_UNKNOWN); counts (n_path, n_peers, ...) to 0. */
void pcibw_device_init(struct pcibw_device *d);

/* pcibw_device_set_prov - record (or overwrite) the origin of one field. field and origin must
 * be static strings. Silently ignores overflow past PCIBW_MAX_PROV (a bug, asserted in tests). */
void pcibw_device_set_prov(struct pcibw_device *d, const char *field, const char *origin);

/* pcibw_device_prov - the origin recorded for field ("config", "sysfs", "hwloc", ...), NULL when
 * none was recorded. */
const char *pcibw_device_prov(const struct pcibw_device *d, const char *field);

/* pcibw_report_warn - append a warning about device slot (NULL or "" for the whole source)
 * with a static code and a printf-formatted text (truncated to 1023 bytes). A warning with the
 * same slot, code and text already present is not added again. Returns PCIBW_OK or
 * PCIBW_EINTERNAL (out of memory; the report is unchanged). */
int pcibw_report_warn(struct pcibw_report *r, const char *slot, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* pcibw_report_drop - remove, from index first on, every warning with this code (slot NULL: any
 * device; else only that device's). Keeps the order of the rest. Returns how many went. */
int pcibw_report_drop(struct pcibw_report *r, int first, const char *code, const char *slot);

/* pcibw_warning_string - the warning as the JSON `warnings` array and stderr show it:
 * "SLOT: text", or text when it is about no device. Writes at most len bytes including the
 * NUL (truncated). Returns buf. */
char *pcibw_warning_string(const struct pcibw_warning *w, char *buf, unsigned len);

/* pcibw_report_add - append a copy of d; returns a pointer to the stored device or NULL (out of
 * memory; the report is unchanged). The array is reallocated: the pointer, and any earlier one
 * into r->devices, is valid only until the next pcibw_report_add. */
struct pcibw_device *pcibw_report_add(struct pcibw_report *r, const struct pcibw_device *d);

/* pcibw_report_sort - sort devices by (domain, bus, dev, fn), the contract's slot order; not
 * stable, so devices with equal slots keep no particular order
 * (numeric, so domain 0x10000 sorts after 0x0002). */
void pcibw_report_sort(struct pcibw_report *r);

/* pcibw_report_free - release everything a report owns; r itself is not freed. */
void pcibw_report_free(struct pcibw_report *r);

/* pcibw_format_slot - "DDDD:BB:DD.F", lower-case hex (the domain keeps all its digits, at least
 * 4: "10000:00:04.0"; it must be >= 0, PCIBW_NULL prints as ffffffff); bus 0-255, dev 0-31,
 * fn 0-7 are masked to their fields. buf >= 32 bytes. Returns buf. */
char *pcibw_format_slot(char *buf, int domain, int bus, int dev, int fn);

/*
 * pcibw_bus_from_device - the bus a probed device runs on, as a model input: its own link (or
 * segment clock/width/MMRBC/splits) and its registers (MPS, MRRS, RCB). Where the device's
 * facts leave a field unknown the contract's default is used and *_default is set (MPS 128,
 * MRRS 512, RCB 64; MMRBC 512, splits 1, latency timer 64, cache line 64 bytes). For PCI and
 * PCI-X the latency timer and cache line size come from the device's own config registers
 * (0x0d, 0x0c); PCIe ignores both (PCIe Base 6.0 sec. 7.5.1.1.7-8), so they keep the defaults
 * there. A conventional PCI bus of unknown
 * width counts 32 bits (every PCI device has at least a 32-bit AD bus, PCI LB 3.0 sec. 2.2).
 * (The code applies the same 32-bit fallback to a PCI-X device of unknown width.) For an
 * on-package MAC (pcibw_device_is_onpackage) with a known path, gts and lanes are the root-most
 * hop's and note says why. PCIe gen is derived from gts; flit only when d->flit_mode is 1.
 * A virtual device gives kind PCIBW_BUS_VIRTUAL (no ceiling).
 * Returns PCIBW_OK, or PCIBW_ENOTHERE naming what the source cannot show (bus kind unknown, no
 * link status, no clock: e.g. a 64-byte dump). out is set to the defaults even on error.
 */
int pcibw_bus_from_device(const struct pcibw_device *d, struct pcibw_bus *out, struct pcibw_err *err);

/*
 * pcibw_bus_at_bottleneck - the bus every packet of d crosses at its narrowest: that of
 * pcibw_bus_from_device, with the rate and lanes of the PCIe hop at d->bottleneck_slot when that
 * hop's raw bandwidth (pcibw_bus_raw_gbps) is below the device's own link (a x8 card behind a
 * x4 switch uplink); out->note then names the hop. An on-package MAC keeps the chipset's uplink
 * pcibw_bus_from_device gave it. The device's registers (MPS, MRRS, RCB) stay its own. Returns
 * as pcibw_bus_from_device.
 */
int pcibw_bus_at_bottleneck(const struct pcibw_device *d, struct pcibw_bus *out, struct pcibw_err *err);

#endif
