/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watch recordings (--replay DIR): the input is DIR/meta, a NUL byte, then DIR/samples; each
 * sample is read back and parsed as an interval of `watch --replay` would be. */
#include "fuzz_util.h"
#include "pcibw/watch.h"
#include "src/watch/recording.h"
#include <sys/stat.h>

static char dir[64];

static void put(const char *name, const uint8_t *p, size_t n)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/pcibw-fuzz-watch-%d", (int)getpid());
		mkdir(dir, 0700);
	}
	const uint8_t *nul = memchr(data, '\0', size);
	size_t meta_len = nul ? (size_t)(nul - data) : size;
	put("meta", data, meta_len);
	put("samples", nul ? nul + 1 : data + size, nul ? size - meta_len - 1 : 0);
	struct watch_meta meta;
	struct watch_sampler *s = NULL;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	if (watch_replay_open(dir, &meta, &s, &err) != PCIBW_OK)
		return 0;
	const char *names[PCIBW_WATCH_MAX_IFACES];
	for (int i = 0; i < s->n; i++)
		names[i] = s->ifs[i].name;
	struct pcibw_watch_sample sample = {0};
	struct pcibw_watch_snap snap;
	if (pcibw_watch_snap_init(&snap, &err) == PCIBW_OK) {
		for (int k = 0; k < 64 && s->read(s, &sample, &err) == PCIBW_OK; k++)
			if (pcibw_watch_parse(&sample, names, s->n, "fuzz", &snap, &err) != PCIBW_OK)
				break;
		pcibw_watch_snap_free(&snap);
	}
	pcibw_watch_sample_free(&sample);
	s->close(s);
	return 0;
}
