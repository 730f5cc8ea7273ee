/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Extended config space read where a decoder asks for it; see probe_cfg_need in probe_int.h. */
#include "probe_int.h"

static void mark(struct probe_cfg *c, int dword)
{
	c->got[dword >> 5] |= 1u << (dword & 31);
}

static int marked(const struct probe_cfg *c, int dword)
{
	return c->got[dword >> 5] >> (dword & 31) & 1;
}

int probe_cfg_need(struct probe_cfg *c, int at, int n)
{
	if (at < 0x100 || n <= 0 || at + n > 4096)
		return 0;
	if (c->len < 4096) {
		/* A source with extended space holds all of it (a 4096-byte config file, an lspci
		 * -xxxx dump): its last dword reads. A 256-byte one (conventional device, or a
		 * kernel without extended access) answers a read past 0x100 with nothing. */
		if (c->len < 0x100 || !c->fetch || c->fetch(c->fetch_ctx, 0xffc, c->b + 0xffc, 4))
			return 0;
		mark(c, 0xffc / 4);
		c->len = 4096;
	}
	for (int d = at / 4; d <= (at + n - 1) / 4; d++) {
		if (marked(c, d))
			continue;
		if (!c->fetch || c->fetch(c->fetch_ctx, d * 4, c->b + d * 4, 4))
			return 0;
		mark(c, d);
	}
	return 1;
}
