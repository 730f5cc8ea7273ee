/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option number reader every command shares (pcibw/number.h), whole and real. */
#include "fuzz_util.h"
#include "pcibw/number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	if (!s)
		return 0;
	struct pcibw_err err;
	long l;
	double d;
	pcibw_err_clear(&err);
	pcibw_parse_long("--fuzz", s, 0, 1L << 40, NULL, &l, &err);
	pcibw_parse_long("--fuzz", s, -5, 5, "a small number", &l, &err);
	pcibw_parse_real("--fuzz", s, 0, 1e12, NULL, &d, &err);
	pcibw_number_scan(s, size, 0, &d);
	pcibw_number_scan(s, size, PCIBW_NUM_SIGN | PCIBW_NUM_BLANKS, &d);
	pcibw_number_scan(s, size, PCIBW_NUM_INTEGER | PCIBW_NUM_NO_EXP, &d);
	free(s);
	return 0;
}
