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
	double max_dma_tps;	/* posted DMA writes (MWr TLPs: data, write-backs, MSI) the device
				 * issues per second, 0 or 10^3..10^10; reads are bounded by the
				 * tags below instead */
	double read_latency_ns; /* DMA read round trip: request to last completion, ns; 0 or
				 * 1..10^6; set together with read_tags (both or neither) */
	int read_tags;		/* outstanding read requests (tags), 0..4096 */
	bool is_virtual;	/* paravirtual: no bus ceiling */
	char match[1024];	/* "8086:10fb 8086:1528": vendor:device ids this profile fits
				 * (4+4 hex digits each, separated by blanks or commas) */
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
};

enum pcibw_path { PCIBW_PATH_TX, PCIBW_PATH_RX }; /* NIC sends (host->wire) / NIC receives */

struct pcibw_op {
	enum pcibw_op_kind kind;
	enum pcibw_op_role role;
	enum pcibw_path path;
	double bytes;	   /* bytes of this one transfer, > 0 */
	double per_packet; /* transfers per packet (1/batch when batched), > 0 */
};

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
