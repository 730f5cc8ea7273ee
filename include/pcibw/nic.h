/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/nic.h - NIC profiles (data/nic/NAME.ini) and the transactions a packet costs.
 *
 * A profile says how a NIC and its driver move a packet: descriptor and write-back sizes and
 * batching, doorbell and interrupt rates, head-pointer and interrupt-cause reads, FCS stripping,
 * cache-line rounding, and optional device limits. pcibw_nic_recipe() turns it into a list of
 * bus operations per packet, which each bus model (PCIe, PCI, PCI-X) then costs in its own terms.
 */
#ifndef PCIBW_NIC_H
#define PCIBW_NIC_H

#include "pcibw/error.h"
#include <stdbool.h>
#include <stddef.h>

/*
 * A profile, as read from data/nic/NAME.ini (doc/model.md "NIC profiles" lists the INI keys:
 * section [tx] key desc_bytes fills tx_desc_bytes, [host] irq_batch fills irq_batch, ...).
 * Sizes in bytes; *_batch in packets (or descriptors) per operation, 0 = the operation never
 * happens. Every number must cite the driver default or datasheet section it comes from.
 */
struct pcibw_nic {
	char name[64];
	char description[256];
	char source[1024]; /* the driver/datasheet defaults the profile cites */
	/* descriptors (bytes) */
	int tx_desc_bytes, rx_desc_bytes; /* descriptor size the device reads, 1..4096; required */
	int tx_wb_bytes, rx_wb_bytes;	  /* write-back (completion) size, 0..4096; 0 = none */
	int tx_desc_fetch_batch, rx_desc_fetch_batch; /* descriptors per fetch (device prefetch),
						       * 1..4096; default 1 */
	int tx_wb_batch, rx_wb_batch;		      /* descriptors per write-back, 1..4096; default 1 */
	/* host side */
	int tx_doorbell_batch, rx_doorbell_batch;   /* packets per tail (doorbell) write, 0..4096;
						     * 0 = never */
	int doorbell_bytes;			    /* MMIO write payload, 1..64; default 4 (8 for
						     * 64-bit doorbells) */
	int tx_head_read_batch, rx_head_read_batch; /* packets per head-pointer MMIO read, 0..4096;
						     * 0 = never */
	int head_read_bytes;			    /* MMIO read size, 1..64, default 4; also the size of
						     * each interrupt-cause read */
	int irq_batch;				    /* packets per interrupt, per path, 0..4096;
						     * 0 = polling */
	bool irq_shared;			    /* one interrupt serves both rings (a queue pair's
						     * single vector, or the one INTx line): with
						     * pattern `both` irq_batch counts packet pairs,
						     * one interrupt per irq_batch echoed packets */
	int irq_bytes;				    /* MSI payload, 0..64, default 4 (MSI message data
						     * word, PCI LB 3.0 sec. 6.8.1); 0 = legacy INTx
						     * (no bus write) */
	int icr_reads_per_irq;			    /* interrupt-cause register reads per interrupt,
						     * 0..16 */
	bool strip_fcs;				    /* FCS not DMA'd on receive (frame - 4 B);
						     * default true */
	int pkt_header_bytes;			    /* bytes DMA'd with every packet besides the frame
						     * (virtio_net_hdr: 12 B), 0..256; 0 for NICs */
	int cacheline_bytes;			    /* round data DMA up to this, 0..4096; 0 = no
						     * rounding */
	/* optional device limits (0 = none) */
	double max_dma_tps;	       /* posted DMA writes (MWr TLPs: data, write-backs, MSI) the device
					* issues per second, 0 or 10^3..10^10; reads are bounded by the
					* tags below instead */
	double read_latency_ns;	       /* DMA read round trip: request to last completion, ns; 0 or
					* 1..10^6; set together with read_tags (both or neither) */
	int read_tags;		       /* outstanding read requests (tags), 0..4096 */
	int write_unit_bytes;	       /* the write engine moves a DMA write's data from device memory in
					* units of this many bytes, 0 or 1..4096 (0 = no engine limit); set
					* together with write_unit_ns */
	double write_unit_ns;	       /* engine time per unit, ns; 0 or 0.01..10^6 */
	double write_cmd_ns;	       /* engine time per DMA write command besides its units, ns,
					* 0..10^6: a write of b bytes holds the engine for
					* write_cmd_ns + ceil(b / write_unit_bytes) x write_unit_ns */
	int write_burst_bytes;	       /* the engine sends a DMA write in bursts cut at host addresses
					* aligned to this many bytes, 0 or a power of 2 in 64..4096 (0 = no
					* burst limit); set together with write_burst_gap_ns. A burst ends
					* between TLPs, so one smaller than MPS cuts the MWr TLPs too */
	double write_burst_gap_ns;     /* the link idles this long after each burst, ns; 0 or
					* 0.01..10^6: a write holds the engine for its TLPs' bytes at
					* the line rate + bursts x write_burst_gap_ns */
	double write_burst_gap_max_ns; /* the longest gap a host was measured to leave, ns: the band's
					* low end (0 = write_burst_gap_ns; else >= it, with bursts) */
	double read_latency_remote_ns; /* read_latency_ns with the buffers in the other socket's
					* memory: the band's low end and numa=remote (0 = the same;
					* else >= read_latency_ns) */
	bool is_virtual;	       /* paravirtual: no bus ceiling */
	char match[1024];	       /* "8086:10fb 8086:1528": vendor:device ids this profile fits
					* (4+4 hex digits each, separated by blanks or commas) */
	char dpdk[64];		       /* the profile a device with these ids gets when a user-space
					* driver (vfio-pci, uio_pci_generic, igb_uio) owns it; "" = none */
	/* Mechanisms that let one descriptor or completion serve several packets (0 = off) */
	int tx_desc_max_bytes;	    /* multi-packet send descriptor (mlx5 MPWQE): the largest descriptor,
				     * 0..65536; packets per descriptor = (max - desc_bytes) / segment */
	int tx_desc_packet_bytes;   /* bytes each packet adds to a multi-packet descriptor (a 16 B data
				     * pointer), 0..4096 */
	int tx_desc_packets;	    /* most packets per multi-packet descriptor, 0..4096; 0 = no cap */
	int tx_inline_max_bytes;    /* packets up to this size travel inside the descriptor (inline
				     * segment: 4 B length + data, in 16 B units): no data read; 0..4096 */
	int tx_wb_stride;	    /* one write-back of wb_bytes per wb_stride descriptors (the RS-bit
				     * interval: only the RS descriptor, or a head index, is written),
				     * 0..4096; 0 = wb_batch descriptors written together */
	int tx_inline_header_bytes; /* header bytes always copied into the descriptor (mlx5 min inline
				     * L2: 18 B): the data read skips them; 0..256 */
	int rx_stride_bytes;	    /* striding receive queue: one descriptor holds desc_strides buffers
				     * of stride_bytes, a packet takes ceil(size / stride) of them;
				     * 0..65536; 0 = one packet per descriptor */
	int rx_desc_strides;	    /* strides per receive descriptor, 1..65536 */
	int rx_desc_map_bytes;	    /* bytes the device reads per receive descriptor besides it (the UMR
				     * WQE mapping a striding descriptor's pages), 0..65536 */
	int rx_wb_compress;	    /* completions packed into one written entry (mlx5 mini CQEs: 8 per
				     * 64 B CQE), 1..64; 1 = off */
	int rx_wb_session;	    /* packets per compression session: a full entry, then the rest
				     * packed rx_wb_compress per entry; 0..65536; 0 = no title entry */
	int irq_entry_bytes;	    /* event-queue entry the device writes per interrupt (mlx5 EQE 64 B),
				     * 0..4096 */
	int irq_arm_writes;	    /* doorbell writes per interrupt to re-arm the queues, 0..16 */
	double port_gbps;	    /* the port's top speed, Gbit/s (for link-dependent defaults), 0 =
				     * unknown */
	/* Driver knobs ([knob NAME] sections): each value sets profile keys. */
	int n_knobs;
	struct pcibw_nic_knob {
		char name[32];
		char def[16];		/* the driver's default value */
		char def_slow_pcie[16]; /* the default when the PCIe link carries less than half the
					 * port speed (mlx5 slow_pci_heuristic), "" = same */
		char map_key[32];	/* numeric knob: the value is this section.key's value */
		char values[4][16];	/* named values ... */
		char sets[4][160];	/* ... and the "section.key=value ..." each one sets */
		int n_values;
		char source[640];
		char value[16]; /* in effect */
		char why[96];	/* why it has that value: "driver default", "--nic-set", ... */
	} knobs[8];
	int n_overrides;
	char overrides[16][96]; /* KNOB=VALUE as given by the user, in order */
};

enum pcibw_op_kind {
	PCIBW_OP_DMA_WRITE, /* the device writes host memory (PCIe MWr; PCI memory write) */
	PCIBW_OP_DMA_READ, /* the device reads host memory (PCIe MRd + CplD; PCI delayed read; PCI-X split) */
	PCIBW_OP_MMIO_WRITE, /* the CPU writes a device register (doorbell): posted, host -> device */
	PCIBW_OP_MMIO_READ,  /* the CPU reads a device register (head pointer, ICR): stalls the CPU */
	PCIBW_OP_MSI,	     /* interrupt message: a DMA write of irq_bytes */
};

enum pcibw_op_role {
	PCIBW_ROLE_DATA,
	PCIBW_ROLE_DESC_READ,
	PCIBW_ROLE_DESC_WB,
	PCIBW_ROLE_DOORBELL,
	PCIBW_ROLE_HEAD_READ,
	PCIBW_ROLE_IRQ,
	PCIBW_ROLE_ICR_READ,
	PCIBW_ROLE_DESC_MAP,  /* what the device reads to map a receive descriptor's buffers (UMR) */
	PCIBW_ROLE_IRQ_ENTRY, /* the event-queue entry written with an interrupt */
	PCIBW_ROLE_IRQ_ARM,   /* doorbells that re-arm the queues after an interrupt */
};

enum pcibw_path { PCIBW_PATH_TX, PCIBW_PATH_RX }; /* NIC sends (host->wire) / NIC receives */

struct pcibw_op {
	enum pcibw_op_kind kind;
	enum pcibw_op_role role;
	enum pcibw_path path;
	double bytes;	   /* bytes of this one transfer, > 0 */
	double per_packet; /* transfers per packet (1/batch when batched), > 0 */
	const char *keys;  /* the profile keys behind it, "tx.desc_bytes tx.desc_fetch_batch"
			    * (static string) */
};

/* pcibw_op_name - "doorbell", "desc-read", "data-read", "data-write", "desc-wb", "msi",
 * "irq-read", "head-read", "desc-map", "event-entry", "irq-arm" (static strings). */
const char *pcibw_op_name(const struct pcibw_op *op);

#define PCIBW_MAX_OPS 32
struct pcibw_recipe {
	struct pcibw_op ops[PCIBW_MAX_OPS];
	int n;
	int batch_packets; /* packets over which per_packet fractions are whole numbers (lcm of the
			    * batches; left at the last value below 10^6 when it would grow past) */
};

enum pcibw_pattern {
	PCIBW_PAT_RX,
	PCIBW_PAT_TX,
	PCIBW_PAT_BOTH,
	PCIBW_PAT_DMA_READ,
	PCIBW_PAT_DMA_WRITE,
	PCIBW_PAT_DMA_RW,
};

/*
 * pcibw_nic_load - load profile NAME (1-60 of a-z, digits, '-', '_', '.'; not starting with '.',
 * no "..": it must stay inside DIR/nic) from DIR/nic/NAME.ini (dir NULL = pcibw_data_dir()).
 * Returns PCIBW_OK; PCIBW_EUSAGE for an unknown, unopenable or malformed name (the message lists
 * the available profiles); PCIBW_EINPUT for a malformed file
 * ("file:line:column: ..." naming the bad key or value), or one whose [profile] name is not NAME;
 * PCIBW_ENOTHERE when dir is NULL and no profile directory exists (the message lists every
 * directory searched, pcibw_data_dirs_searched). Keys, units and defaults: doc/model.md "NIC profiles".
 */
int pcibw_nic_load(const char *name, const char *dir, struct pcibw_nic *out, struct pcibw_err *err);

/*
 * pcibw_nic_names - the names of the profiles in DIR/nic (dir NULL = pcibw_data_dir()), in
 * alphabetical order, ", "-separated, into buf (len bytes, cut short when it does not hold
 * them): what --nic NAME accepts. Returns how many there are (0 for an empty directory), or -1
 * with buf "" when there is no profile directory (or buf is NULL or len 0).
 */
int pcibw_nic_names(const char *dir, char *buf, size_t len);

/* pcibw_nic_load_file - load a profile from a path (no name check). Ranges and defaults: the
 * field comments of struct pcibw_nic. PCIBW_OK or PCIBW_EINPUT (unreadable file, unknown section
 * or key, value out of range, missing name/source/desc_bytes, a bad `match` pair, read_latency_ns
 * without read_tags or the reverse, a control byte, over 1 MiB: not a text profile), always
 * naming file:line:column where there is a line. out is written only on success. */
int pcibw_nic_load_file(const char *path, struct pcibw_nic *out, struct pcibw_err *err);

/* pcibw_nic_for_ids - the [profile] name (copied into buf, len bytes, truncated to fit) of the
 * first profile file in DIR/nic (alphabetical by file name; dir NULL = pcibw_data_dir()) whose
 * `match` lists vendor:device (16-bit ids, 0..0xffff), or NULL when none does, when an id is
 * negative (PCIBW_NULL: unknown), or when buf is NULL or len 0. Profiles that fail to load are
 * skipped silently (no error report: this is a best-effort lookup for `model`/`analyze`). */
const char *pcibw_nic_for_ids(int vendor_id, int device_id, const char *dir, char *buf, unsigned len);

/*
 * pcibw_nic_recipe - the bus operations one packet costs in pattern pat, in ring order per path
 * (doorbell, descriptor fetch, data, write-back, MSI + cause reads, head read: 82599 datasheet
 * sec. 1.9.1-1.9.2, pcie-bench simple_nic.py/niantic.py); an operation done once per k packets
 * has per_packet = 1/k. Interrupts (MSI + cause reads) come 1/irq_batch per packet on each path,
 * except that with irq_shared and pattern `both` they come once per irq_batch packet pairs (listed
 * with the RX path, which raises them). dma_bytes (> 0) is what the NIC DMAs for a transmitted packet: the
 * frame less the FCS the MAC appends; the receive path adds the 4 B FCS unless strip_fcs; every data
 * operation of a ring path adds pkt_header_bytes and is rounded up to cacheline_bytes. dma-read /
 * dma-write / dma-rw give bare data operations of exactly dma_bytes, no header and no rounding
 * (pcie-bench's BW_DMA tests). `both` lists TX then RX. Operations of 0 bytes or 0 per packet
 * (batch 0, irq_bytes 0 = INTx) are left out.
 * Returns PCIBW_OK; PCIBW_EUSAGE (dma_bytes not > 0 or not finite, unknown pattern);
 * PCIBW_EINTERNAL (more than PCIBW_MAX_OPS operations). On error out holds a partial list.
 */
int pcibw_nic_recipe(const struct pcibw_nic *nic, enum pcibw_pattern pat, double dma_bytes,
		     struct pcibw_recipe *out, struct pcibw_err *err);

/*
 * pcibw_nic_configure - settle the profile's driver knobs for this bus and apply user overrides.
 * Each knob takes the driver's default, or its slow-link default when bus is PCIe and the port
 * (port_gbps, Gbit/s; 0 = use the profile's port_gbps) is more than twice what the link carries
 * (mlx5 en/params.c slow_pci_heuristic: link_speed > 2 x pcie_bandwidth_available, the latter
 * lanes x GT/s x encoding). Then sets[0..nsets) are applied in order: "KNOB=VALUE" for a knob the
 * profile declares, or "section.key=VALUE" for any profile key (doc/model.md lists them); each is
 * recorded in nic->overrides. Returns PCIBW_OK or PCIBW_EUSAGE naming the unknown knob or key,
 * the bad value, or the keys of a broken pair once all are applied (read_latency_ns with
 * read_tags, write_unit_bytes with write_unit_ns, write_cmd_ns with both: the same rule as
 * pcibw_nic_load_file) (nic is then partly changed). bus may be NULL (no link: no slow-link defaults).
 */
struct pcibw_bus;
int pcibw_nic_configure(struct pcibw_nic *nic, const struct pcibw_bus *bus, double port_gbps,
			const char *const *sets, int nsets, struct pcibw_err *err);

/* pcibw_nic_key_knob - the knob whose value in effect sets one of keys (a blank-separated list
 * such as an op's keys), or NULL when none does (the key is the profile's own). */
const struct pcibw_nic_knob *pcibw_nic_key_knob(const struct pcibw_nic *nic, const char *keys);

/* pcibw_nic_default_name - the profile a device gets by default: the first profile in DIR/nic
 * listing vendor:device (pcibw_nic_for_ids), or its `dpdk` sibling when driver (the sysfs driver
 * name; NULL or "" = unknown) is vfio-pci, uio_pci_generic or igb_uio and the profile names one.
 * NULL when no profile lists the ids. buf/len as pcibw_nic_for_ids. */
const char *pcibw_nic_default_name(int vendor_id, int device_id, const char *driver, const char *dir,
				   char *buf, unsigned len);

/*
 * pcibw_data_dir - the directory holding nic/ profiles and examples/: $PCIBW_DATA_DIR when set
 * and non-empty (taken as it is); else the first of these whose nic/ exists: DIR/../share/pcibw
 * where DIR is the running binary's directory (/proc/self/exe; the relative path is the
 * configured bindir -> datadir, so an installed tree works wherever it is copied), DIR/data (an
 * uninstalled build tree), the configured PREFIX/share/pcibw. NULL when none has a nic/
 * directory. The string is static, valid until the next call.
 */
const char *pcibw_data_dir(void);

/* pcibw_data_dirs_searched - the nic/ directories pcibw_data_dir looks in, in order, each with
 * why it is searched ("/usr/bin/../share/pcibw/nic (next to the binary), ..."), for an error
 * message. Writes at most len bytes (NUL included); returns the length the full list needs. */
size_t pcibw_data_dirs_searched(char *buf, size_t len);

#endif
