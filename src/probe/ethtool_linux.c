/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kernel's ethtool interface tells any user about a network interface (Linux
 * include/uapi/linux/ethtool.h, net/ethtool/ioctl.c): the driver and firmware version
 * (ETHTOOL_GDRVINFO) and the link modes the port supports (ETHTOOL_GLINKSETTINGS). Both are
 * "get" commands, which net/ethtool/ioctl.c serves without CAP_NET_ADMIN. See ethtool_linux.h.
 */
#include "ethtool.h"
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Speed in Mbit/s of each link mode, from the mode's name (ETHTOOL_LINK_MODE_<speed>base...). */
static const struct {
	int bit, mbps;
} modes[] = {
    {ETHTOOL_LINK_MODE_10baseT_Half_BIT, 10},
    {ETHTOOL_LINK_MODE_10baseT_Full_BIT, 10},
    {ETHTOOL_LINK_MODE_100baseT_Half_BIT, 100},
    {ETHTOOL_LINK_MODE_100baseT_Full_BIT, 100},
    {ETHTOOL_LINK_MODE_1000baseT_Half_BIT, 1000},
    {ETHTOOL_LINK_MODE_1000baseT_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_10000baseT_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_2500baseX_Full_BIT, 2500},
    {ETHTOOL_LINK_MODE_1000baseKX_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_10000baseKX4_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseKR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseR_FEC_BIT, 10000},
    {ETHTOOL_LINK_MODE_20000baseMLD2_Full_BIT, 20000},
    {ETHTOOL_LINK_MODE_20000baseKR2_Full_BIT, 20000},
    {ETHTOOL_LINK_MODE_40000baseKR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_40000baseCR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_40000baseSR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_40000baseLR4_Full_BIT, 40000},
    {ETHTOOL_LINK_MODE_56000baseKR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_56000baseCR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_56000baseSR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_56000baseLR4_Full_BIT, 56000},
    {ETHTOOL_LINK_MODE_25000baseCR_Full_BIT, 25000},
    {ETHTOOL_LINK_MODE_25000baseKR_Full_BIT, 25000},
    {ETHTOOL_LINK_MODE_25000baseSR_Full_BIT, 25000},
    {ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseKR2_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_100000baseKR4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseSR4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseLR4_ER4_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_50000baseSR2_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_1000baseX_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_10000baseCR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseSR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseLR_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseLRM_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_10000baseER_Full_BIT, 10000},
    {ETHTOOL_LINK_MODE_2500baseT_Full_BIT, 2500},
    {ETHTOOL_LINK_MODE_5000baseT_Full_BIT, 5000},
    {ETHTOOL_LINK_MODE_50000baseKR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseSR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseCR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseLR_ER_FR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_50000baseDR_Full_BIT, 50000},
    {ETHTOOL_LINK_MODE_100000baseKR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseSR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseCR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseLR2_ER2_FR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseDR2_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_200000baseKR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseSR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseLR4_ER4_FR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseDR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_100baseT1_Full_BIT, 100},
    {ETHTOOL_LINK_MODE_1000baseT1_Full_BIT, 1000},
    {ETHTOOL_LINK_MODE_400000baseKR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseSR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseLR8_ER8_FR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseDR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseCR8_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_100000baseKR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseSR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseLR_ER_FR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseCR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_100000baseDR_Full_BIT, 100000},
    {ETHTOOL_LINK_MODE_200000baseKR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseSR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseLR2_ER2_FR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseDR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_200000baseCR2_Full_BIT, 200000},
    {ETHTOOL_LINK_MODE_400000baseKR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseLR4_ER4_FR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseDR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT, 400000},
    {ETHTOOL_LINK_MODE_100baseFX_Half_BIT, 100},
    {ETHTOOL_LINK_MODE_100baseFX_Full_BIT, 100},
    {ETHTOOL_LINK_MODE_10baseT1L_Full_BIT, 10},
};

static int ioctl_on(const char *ifname, void *cmd)
{
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	if (strlen(ifname) >= sizeof ifr.ifr_name)
		return -1;
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	ifr.ifr_data = cmd;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int r = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	return r;
}

int probe_ethtool_drvinfo(const char *ifname, char *driver, size_t dlen, char *firmware, size_t flen)
{
	struct ethtool_drvinfo info;
	memset(&info, 0, sizeof info);
	info.cmd = ETHTOOL_GDRVINFO;
	if (ioctl_on(ifname, &info))
		return -1;
	snprintf(driver, dlen, "%.*s", (int)sizeof info.driver, info.driver);
	/* drivers without firmware leave it empty, some write "N/A" (virtio_net, veth) */
	if (strcmp(info.fw_version, "N/A"))
		snprintf(firmware, flen, "%.*s", (int)sizeof info.fw_version, info.fw_version);
	else if (flen)
		firmware[0] = '\0';
	return 0;
}

int probe_ethtool_max_mbps(const char *ifname)
{
	/* The handshake of ETHTOOL_GLINKSETTINGS: a first call with link_mode_masks_nwords 0 makes
	 * the kernel answer with minus the number of 32-bit words it uses. */
	struct {
		struct ethtool_link_settings s;
		uint32_t masks[3 * 127];
	} req;
	memset(&req, 0, sizeof req);
	req.s.cmd = ETHTOOL_GLINKSETTINGS;
	if (ioctl_on(ifname, &req) || req.s.link_mode_masks_nwords >= 0)
		return -1;
	int nwords = -req.s.link_mode_masks_nwords;
	if (nwords > 127)
		return -1;
	memset(&req, 0, sizeof req);
	req.s.cmd = ETHTOOL_GLINKSETTINGS;
	req.s.link_mode_masks_nwords = (int8_t)nwords;
	if (ioctl_on(ifname, &req) || req.s.link_mode_masks_nwords != nwords)
		return -1;
	/* masks: supported, then advertising, then lp_advertising, nwords each */
	const uint32_t *supported = req.s.link_mode_masks;
	int best = -1;
	for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		int b = modes[i].bit;
		if (b / 32 < nwords && supported[b / 32] >> (b % 32) & 1 && modes[i].mbps > best)
			best = modes[i].mbps;
	}
	return best;
}

void probe_ethtool_apply(struct pcibw_device *d)
{
	for (int i = 0; i < d->n_interfaces; i++) {
		char drv[64] = "", fw[64] = "";
		if (!d->firmware[0] &&
		    !probe_ethtool_drvinfo(d->interfaces[i], drv, sizeof drv, fw, sizeof fw)) {
			if (!d->driver[0] && drv[0]) {
				snprintf(d->driver, sizeof d->driver, "%s", drv);
				pcibw_device_set_prov(d, "driver", "ethtool");
			}
			if (!d->iface_driver[0] && drv[0]) {
				snprintf(d->iface_driver, sizeof d->iface_driver, "%s", drv);
				pcibw_device_set_prov(d, "interface_driver", "ethtool");
			}
			if (fw[0]) {
				snprintf(d->firmware, sizeof d->firmware, "%s", fw);
				pcibw_device_set_prov(d, "firmware", "ethtool");
			}
		}
		if (d->iface_speed_mbps[i] == PCIBW_NULL) {
			int m = probe_ethtool_max_mbps(d->interfaces[i]);
			d->iface_max_mbps[i] = m > 0 ? m : PCIBW_NULL;
		}
	}
}
