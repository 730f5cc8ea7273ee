/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `pcibw slots --smbios FILE`: dmidecode -t 9 text */
#include "fuzz_util.h"
#include "pcibw/slots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcibw_smbios s = {0};
	struct pcibw_err err;
	pcibw_err_clear(&err);
	(void)pcibw_smbios_parse((const char *)data, size, "fuzz", &s, &err);
	pcibw_smbios_free(&s);
	return 0;
}
