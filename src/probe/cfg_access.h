/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Little-endian reads from a config-space copy (PCI LB 3.0 sec. 6.1: registers are little
 * endian). Reads past cfg->len return all ones, as a master abort does on a real bus. */
#ifndef PCIBW_CFG_ACCESS_H
#define PCIBW_CFG_ACCESS_H

#include "probe_int.h"
#include <stdint.h>

static inline unsigned cfg8(const struct probe_cfg *c, int at)
{
	return at >= 0 && at < c->len ? c->b[at] : 0xffu;
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
	return at >= 0 && at + n <= c->len;
}

#endif
