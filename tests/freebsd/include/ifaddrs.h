/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FreeBSD interface of <ifaddrs.h> the *_freebsd.c files use, as getifaddrs(3) declares it:
 * struct ifaddrs { ifa_next, ifa_name, ifa_flags, ifa_addr, ifa_netmask, ifa_dstaddr, ifa_data },
 * "int getifaddrs(struct ifaddrs **ifap);", "void freeifaddrs(struct ifaddrs *ifp);"; for an
 * AF_LINK entry ifa_data points to the interface's struct if_data. With the struct sockaddr of
 * FreeBSD's <sys/socket.h> (sa_len, sa_family, sa_data) and AF_LINK (18) that getifaddrs(3)
 * names, since glibc's <sys/socket.h> has neither sa_len nor AF_LINK. For tests/freebsd/compile.sh. */
#ifndef PCIBW_TEST_FREEBSD_IFADDRS_H
#define PCIBW_TEST_FREEBSD_IFADDRS_H
#define AF_LINK 18
struct sockaddr {
	unsigned char sa_len;
	unsigned char sa_family;
	char sa_data[14];
};
struct ifaddrs {
	struct ifaddrs *ifa_next;
	char *ifa_name;
	unsigned int ifa_flags;
	struct sockaddr *ifa_addr;
	struct sockaddr *ifa_netmask;
	struct sockaddr *ifa_dstaddr;
	void *ifa_data;
};
int getifaddrs(struct ifaddrs **ifap);
void freeifaddrs(struct ifaddrs *ifp);
#endif
