/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FreeBSD driver statistics as sysctl(8) prints them (`sysctl dev.ix.0`, `sysctl -a`), read for
 * the trees dev.ix.0 and dev.em.0, the queue counters written as ethtool blob lines, and the
 * %location parser on the same bytes as a string. */
#include "fuzz_util.h"
#include "src/watch/freebsd_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct watch_fbsd_devstat st;
	static char out[16384];
	struct pcibw_err err;
	const char *devs[] = {"ix.0", "em.0", "ixl.0"};
	for (int k = 0; k < 3; k++) {
		pcibw_err_clear(&err);
		if (watch_fbsd_devstat_parse((const char *)data, size, devs[k], "fuzz", &st, &err) !=
		    PCIBW_OK)
			continue;
		if (st.n_q_rx < 0 || st.n_q_rx > PCIBW_WATCH_MAX_QUEUES || st.n_q_tx < 0 ||
		    st.n_q_tx > PCIBW_WATCH_MAX_QUEUES)
			__builtin_trap();
		size_t n = watch_fbsd_devstat_ethtool(&st, out, sizeof out);
		if (n >= sizeof out || (n && strlen(out) != n))
			__builtin_trap();
	}
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	char slot[16];
	if (watch_fbsd_location_slot(s, slot, sizeof slot) && strlen(slot) != 12)
		__builtin_trap();
	free(s);
	return 0;
}
