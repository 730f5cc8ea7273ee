/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recordings of `pcibw watch` (`--record DIR`, `--replay DIR`): DIR/meta (what was known of the
 * machine: interfaces, their bus, NIC profile and line rate, the CPUs) and DIR/samples (every
 * sample's raw text, length-prefixed). Format: doc/watch-recording.md.
 */
#ifndef PCIBW_WATCH_RECORDING_H
#define PCIBW_WATCH_RECORDING_H

#include "pcibw/watch.h"
#include "sampler.h"
#include <stdio.h>
#include <sys/types.h>

/* The machine facts a recording carries (and a live run probes). */
struct watch_meta_if {
	struct watch_iface wi;
	char bus[128];		  /* bus spec (pcibw_bus_format), "virtual", or "" unknown */
	char bus_from[160];	  /* where the bus came from ("0000:03:00.0 (live)"), "" */
	char nic[64];		  /* NIC profile name, "" */
	double line_rate_gbps;	  /* 0 unknown */
	int vendor_id, device_id; /* -1 unknown */
	char hop[32];		  /* the bottleneck hop on its path to the root: the slot of the bridge
				   * (or of the function itself) whose link or segment limits it; a VF
				   * gets its PF's; "" unknown */
	char hop_bus[128];	  /* that hop as this interface's bus spec (its own MPS/MRRS, the
				   * hop's link or segment), "" unknown */
	char pf[32];		  /* an SR-IOV VF: its PF's slot (sysfs physfn), "" otherwise */
};

struct watch_meta {
	int n;
	struct watch_meta_if ifs[PCIBW_WATCH_MAX_IFACES];
	int cpus;	 /* -1 unknown */
	double cpu_mhz;	 /* NAN unknown */
	double interval; /* seconds asked for */
};

struct watch_recorder {
	FILE *f;
	char path[4200]; /* DIR/samples */
	char dir[4096];	 /* DIR as given */
	bool made_dir;	 /* DIR was created by watch_record_open (it did not exist) */
	bool made_meta;	 /* DIR/meta was written by watch_record_open */
	unsigned long long written, max;
	long samples;  /* samples written */
	bool full;     /* the cap was reached: nothing more is written */
	char *scratch; /* scrubbed copy of a blob */
	size_t scap;
	char host[256]; /* this host's name, removed from every blob */
	dev_t meta_dev; /* DIR/meta as written: a recording whose meta was removed is lost */
	ino_t meta_ino;
};

/*
 * watch_record_check - whether DIR can take a recording, before anything is printed or sampled:
 * a DIR that exists must be an empty directory (else PCIBW_EUSAGE, exit 2, with the words
 * watch_record_open uses); one that does not must have a directory it can be created in (else
 * PCIBW_EINTERNAL "--record DIR: cannot create it: REASON", exit 1). watch_record_open checks
 * again (the file system may change in between).
 */
int watch_record_check(const char *dir, struct pcibw_err *err);

/*
 * watch_record_open - create DIR (or use it when empty: a non-empty DIR is refused, PCIBW_EUSAGE)
 * and write DIR/meta; on failure what it created is removed (watch_record_discard). max: bytes of DIR/samples
 * at most. Returns PCIBW_OK, PCIBW_EUSAGE, or PCIBW_EINTERNAL naming the path when it cannot be created or
 * written (exit 1: output not written).
 */
int watch_record_open(const char *dir, unsigned long long max, const struct watch_meta *meta,
		      struct watch_recorder *rec, struct pcibw_err *err);

/* watch_record_sample - append one sample, MAC/IP addresses and the host name scrubbed
 * (pcibw_watch_scrub). Returns PCIBW_OK (also when the cap stops the recording: rec->full
 * says so), or PCIBW_EINTERNAL when the write fails, when DIR/samples or DIR/meta was removed
 * (or replaced) since watch_record_open (writes to a removed file succeed and reach nothing),
 * or when the cap is reached before two samples are written (a replay needs two: such a
 * recording is not written). */
int watch_record_sample(struct watch_recorder *rec, const struct pcibw_watch_sample *s,
			struct pcibw_err *err);

/* watch_record_close - flush and close; PCIBW_EINTERNAL when the last write failed or the
 * recording's files were removed since (as watch_record_sample). */
int watch_record_close(struct watch_recorder *rec, struct pcibw_err *err);

/* watch_record_discard - close the recording and remove what watch_record_open created, only
 * that: DIR/samples, DIR/meta, and DIR itself where it did not exist before (an empty DIR given
 * is left, empty). For a recording that cannot be replayed (the cap reached before two samples):
 * no half recording is left behind. Errors removing are ignored (nothing more can be done). */
void watch_record_discard(struct watch_recorder *rec);

/*
 * watch_replay_open - a sampler reading DIR/samples, and DIR/meta into *meta. Its read gives
 * PCIBW_EINPUT "DIR/samples:OFFSET: expected ..." for a malformed record and 1 at the end.
 * Returns PCIBW_OK, PCIBW_EINPUT (no DIR/meta or DIR/samples, a malformed meta line:
 * "DIR/meta:LINE: expected ..."), PCIBW_EINTERNAL.
 */
int watch_replay_open(const char *dir, struct watch_meta *meta, struct watch_sampler **out,
		      struct pcibw_err *err);

/* watch_meta_select - keep only the n interfaces named (in that order) in meta and in the
 * replay sampler s: PCIBW_OK, or PCIBW_ENOMATCH naming one the recording lacks and listing
 * those it has. */
int watch_meta_select(struct watch_meta *meta, struct watch_sampler *s, const char *const *names, int n,
		      struct pcibw_err *err);

#endif
