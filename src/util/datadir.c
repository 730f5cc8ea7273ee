/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "pcibw/nic.h"
#include <stdlib.h>
#include <sys/stat.h>

/* The installed copy wins over the source tree, so an installed pcibw never depends on a
 * checkout; $PCIBW_DATA_DIR wins over both (tests, relocated installs). */
const char *pcibw_data_dir(void)
{
	const char *env = getenv("PCIBW_DATA_DIR");
	struct stat st;
	if (env && *env)
		return env;
	if (stat(PCIBW_INSTALL_DATA_DIR "/nic", &st) == 0 && S_ISDIR(st.st_mode))
		return PCIBW_INSTALL_DATA_DIR;
	return PCIBW_SOURCE_DATA_DIR;
}
