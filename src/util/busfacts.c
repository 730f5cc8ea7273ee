/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bus specifications' facts (pcibw/busfacts.h): one table or rule each. */
#include "pcibw/busfacts.h"
#include <math.h>
#include <stddef.h>

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const int widths[] = {1, 2, 4, 8, 12, 16, 32};
/* index = generation = LnkCap/LnkSta speed code */
static const double gen_gts[PCIBW_PCIE_GEN_MAX + 1] = {0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0};

const int *pcibw_pcie_widths(int *n)
{
	*n = N(widths);
	return widths;
}

bool pcibw_pcie_width_ok(int w)
{
	for (int i = 0; i < N(widths); i++)
		if (widths[i] == w)
			return true;
	return false;
}

double pcibw_pcie_gen_gts(int gen)
{
	return gen >= 1 && gen <= PCIBW_PCIE_GEN_MAX ? gen_gts[gen] : NAN;
}

int pcibw_pcie_gen_of_gts(double gts)
{
	for (int g = 1; g <= PCIBW_PCIE_GEN_MAX; g++)
		if (fabs(gen_gts[g] - gts) < 1e-6)
			return g;
	return 0;
}

bool pcibw_pcie_flit_required(double gts)
{
	return gts >= gen_gts[6];
}

double pcibw_pcie_encoding(double gts, bool flit)
{
	/* 8b/10b at 2.5 and 5 GT/s, 128b/130b at 8-32 GT/s, 1b/1b PAM4 at 64 GT/s. A 256-byte flit
	 * carries 236 B of TLPs + 6 B of DLP and 14 B of CRC/FEC, so Flit mode keeps 242/256 of what
	 * the line encoding leaves. */
	double line = gts < 7.0 ? 0.8 : gts < 60.0 ? 128.0 / 130.0 : 1.0;
	return flit ? line * 242.0 / 256.0 : line;
}

double pcibw_pci_clock_hz(int mhz)
{
	switch (mhz) {
	case 33:
		return 100e6 / 3;
	case 66:
		return 200e6 / 3;
	case 133:
		return 400e6 / 3;
	default:
		return mhz * 1e6;
	}
}

int pcibw_pcix_transfers_per_clock(enum pcibw_pcix_mode mode)
{
	return mode == PCIBW_PCIX_MODE_PCIX_266 ? 2 : mode == PCIBW_PCIX_MODE_PCIX_533 ? 4 : 1;
}

bool pcibw_pcie_type_rc_integrated(int type)
{
	return type == PCI_EXP_TYPE_ROOT_INT_EP || type == PCI_EXP_TYPE_ROOT_EC;
}

bool pcibw_pcie_type_bridge(int type)
{
	return type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_UPSTREAM ||
	       type == PCI_EXP_TYPE_DOWNSTREAM;
}

bool pcibw_pcie_type_faces_downstream(int type)
{
	return type == PCI_EXP_TYPE_ROOT_PORT || type == PCI_EXP_TYPE_DOWNSTREAM ||
	       type == PCI_EXP_TYPE_PCIE_BRIDGE;
}

const char *pcibw_pcie_type_name(int type)
{
	static const char *const names[] = {
	    [PCI_EXP_TYPE_ENDPOINT] = "endpoint",
	    [PCI_EXP_TYPE_LEG_END] = "legacy-endpoint",
	    [PCI_EXP_TYPE_ROOT_PORT] = "root-port",
	    [PCI_EXP_TYPE_UPSTREAM] = "upstream-port",
	    [PCI_EXP_TYPE_DOWNSTREAM] = "downstream-port",
	    [PCI_EXP_TYPE_PCI_BRIDGE] = "pcie-to-pci-bridge",
	    [PCI_EXP_TYPE_PCIE_BRIDGE] = "pci-to-pcie-bridge",
	    [PCI_EXP_TYPE_ROOT_INT_EP] = "rc-integrated-endpoint",
	    [PCI_EXP_TYPE_ROOT_EC] = "rc-event-collector",
	};
	return type >= 0 && type < N(names) ? names[type] : NULL;
}
