/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcibw/portfit.h - can this slot carry this card's ports? The model's ceiling for the card's
 * NIC profile in pattern `both` (each packet received and sent: the load of a forwarder), set
 * against what the ports' total line rate needs, per frame size.
 */
#ifndef PCIBW_PORTFIT_H
#define PCIBW_PORTFIT_H

#include "pcibw/bus.h"
#include "pcibw/error.h"
#include "pcibw/nic.h"
#include <stdbool.h>

/* Frame sizes searched: the Ethernet minimum and the untagged maximum frame, FCS included
 * (IEEE 802.3 clause 3.2.8, 4.4.2). */
#define PCIBW_PORT_FIT_MIN_FRAME 64
#define PCIBW_PORT_FIT_MAX_FRAME 1518

/* JSON `port_fit` of a network controller; known false -> null, with why saying so. */
struct pcibw_port_fit {
	bool known;
	char why[256];		/* known false: why no answer ("no NIC profile lists 10ec:8136") */
	int ports;		/* physical ports of the card behind the bottleneck: one per network
				 * physical function, more where one function drives several; VFs none */
	double line_rate_gbps;	/* their total line rate per direction, Gbit/s */
	bool line_rate_assumed; /* from the ports table (data/nic-ports.txt), not the interfaces */
	double port_gbps_min, port_gbps_max; /* the slowest and fastest port, Gbit/s (one port up at
					      * 1G beside one at 10G); 0 when not filled in */
	double ratio_64, ratio_1518;	     /* bus ceiling in pattern both / packet rate the line rate
					      * needs, at 64 B and 1518 B frames; >= 1: the slot carries it */
	/* the same ratios over the ends of the model's band (pcibw_model_row bus_mpps_low and
	 * bus_mpps_high): low <= ratio <= high, all three equal where the model gives no band */
	double ratio_64_low, ratio_64_high, ratio_1518_low, ratio_1518_high;
	int min_line_rate_bytes;	  /* smallest frame 64..1518 with ratio >= 1; PCIBW_NULL none */
	double bus_mpps_64, need_mpps_64; /* the two sides of ratio_64, Mpps per direction, all
					   * the card's functions together */
	char nic[64];			  /* the profile used */
	struct pcibw_bus bus;		  /* the bus modelled */
};

/*
 * pcibw_port_fit_eval - fill out (known true) for ports of total line_rate_gbps (> 0, per
 * direction) on bus with profile nic: the ceiling comes from pcibw_model_eval (pattern both,
 * frame sizes, no wire ceiling, segment_devices for PCI/PCI-X: the functions sharing the
 * segment, >= 1, whose per-master shares of the segment are added up, since the ports are all
 * theirs); the need is line_rate_gbps / (8 x (frame + 20 B of preamble and gap)). The
 * search for min_line_rate_bytes goes byte by byte from 64 to 1518. ports is copied in.
 * Returns PCIBW_OK, or the error of pcibw_model_eval (out then has known false, why = message);
 * PCIBW_EUSAGE for a line rate not > 0.
 */
int pcibw_port_fit_eval(const struct pcibw_bus *bus, const struct pcibw_nic *nic, int ports,
			double line_rate_gbps, int segment_devices, struct pcibw_port_fit *out,
			struct pcibw_err *err);

/*
 * pcibw_port_fit_assumed - the bus registers the port fit's model took from the contract's
 * defaults because the source did not hold them (a non-root sysfs copy: no Device Control), as
 * "MPS 128, MRRS 512", into buf ("" when none); for PCIe MPS, MRRS and RCB, for PCI/PCI-X the
 * latency timer and cache line, and on PCI-X MMRBC and splits. Returns buf.
 */
char *pcibw_port_fit_assumed(const struct pcibw_port_fit *f, char *buf, unsigned len);

/* One row of the ports table data/nic-ports.txt: what a vendor:device function drives. */
struct pcibw_port_entry {
	int ports;	  /* physical ports per function, >= 1; 0 for a virtual function */
	double port_gbps; /* each port's highest speed, Gbit/s */
	char name[96];	  /* the card, as the table names it */
	int line;	  /* line in the table, for messages */
};

/*
 * pcibw_port_table_lookup - the row for vendor:device in DIR/nic-ports.txt (dir NULL =
 * pcibw_data_dir()). Line format: `VVVV:DDDD PORTS SPEED NAME... ; SOURCE` (PORTS a whole
 * number 1..64 or `vf`; SPEED as --line-rate: 1G, 2.5G, 100M; `#` starts a comment line).
 * *found: true when listed (out filled), false when not (or an id is PCIBW_NULL). Every line
 * is checked whatever the id. Returns PCIBW_OK, or PCIBW_EINPUT for a missing or malformed
 * table (file:line:column and what was expected).
 */
int pcibw_port_table_lookup(int vendor_id, int device_id, const char *dir, struct pcibw_port_entry *out,
			    bool *found, struct pcibw_err *err);

#endif
