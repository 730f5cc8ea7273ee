/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Little-endian reads from a config-space copy (PCI LB 3.0 sec. 6.1: registers are little
 * endian). Reads of bytes not read (past cfg->len, or extended dwords not fetched) return all
 * ones, as a master abort does on a real bus. */
#ifndef PCIBW_CFG_ACCESS_H
#define PCIBW_CFG_ACCESS_H

#include "probe_int.h"
#include <stdint.h>

/* Byte at was read: below 0x100 every byte of the first len; past it, the dwords fetched. */
static inline int cfg_read(const struct probe_cfg *c, int at)
{
	return at >= 0 && at < c->len && (at < 0x100 || (c->got[at >> 7] >> (at >> 2 & 31) & 1));
}

static inline unsigned cfg8(const struct probe_cfg *c, int at)
{
	return cfg_read(c, at) ? c->b[at] : 0xffu;
}

static inline unsigned cfg16(const struct probe_cfg *c, int at)
{
	return cfg8(c, at) | cfg8(c, at + 1) << 8;
}

static inline uint32_t cfg32(const struct probe_cfg *c, int at)
{
	return (uint32_t)cfg16(c, at) | (uint32_t)cfg16(c, at + 2) << 16;
}

/* Everything in [at, at+n) was read from the source. */
static inline int cfg_has(const struct probe_cfg *c, int at, int n)
{
	if (at < 0 || n < 0 || at + n > c->len)
		return 0;
	for (int i = at; i < at + n; i++)
		if (!cfg_read(c, i))
			return 0;
	return 1;
}

#endif
