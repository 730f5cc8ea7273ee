/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --sizes lists, ranges and mixes (64,128-1518/64, imix, 64:7,594:4), --line-rate, --pattern and
 * --size-is values. */
#include "fuzz_util.h"
#include "pcibw/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	if (!s)
		return 0;
	struct pcibw_sizes sz = {0};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	pcibw_sizes_parse(s, &sz, &err);
	pcibw_sizes_free(&sz);
	double g;
	pcibw_line_rate_parse(s, &g, &err);
	enum pcibw_pattern p;
	pcibw_pattern_parse(s, &p, &err);
	enum pcibw_size_is si;
	pcibw_size_is_parse(s, &si, &err);
	free(s);
	return 0;
}
