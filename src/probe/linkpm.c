/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link power management and payload limits seen from both ends of a link, once the tree is
 * known. A link enters an ASPM state only when both ends enable it (PCIe Base 6.0 sec. 5.4.1.3:
 * software enables a state on the upstream and the downstream component alike). The largest
 * payload a device may use is the smallest Max_Payload_Size Supported along its path (sec.
 * 7.5.3.4: MPS must not exceed what the link partner supports; Linux pcie_bus_config "safe").
 */
#include "probe_int.h"
#include <stdio.h>

/* The PCIe port at the upstream end of device i's link, or NULL. */
static const struct pcibw_device *upstream_port(const struct probe_set *s, int i)
{
	int p = s->v[i].parent;
	if (p < 0)
		return NULL;
	const struct pcibw_device *u = &s->v[p].d;
	if (u->bus_kind != PCIBW_BUS_PCIE || !pcibw_pcie_type_faces_downstream(u->pcie_port_type))
		return NULL;
	return u;
}

static void warn_latencies(const struct probe_node *n, struct pcibw_report *rep)
{
	const struct pcibw_device *d = &n->d;
	if (!n->lnkcap_read || d->aspm_supported == PCIBW_NULL)
		return;
	/* code 7 of each exit latency field is "more than" its largest step (sec. 7.5.3.6) */
	static const struct {
		unsigned state, mask, shift;
		const char *name, *bound, *key;
	} lat[] = {{PCIBW_ASPM_L0S, PCI_EXP_LNKCAP_L0S, 12, "L0s", "4 us", "l0s_exit_latency_ns"},
		   {PCIBW_ASPM_L1, PCI_EXP_LNKCAP_L1, 15, "L1", "64 us", "l1_exit_latency_ns"}};
	for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++)
		if (d->aspm_supported & lat[k].state && ((n->lnkcap & lat[k].mask) >> lat[k].shift) == 7)
			pcibw_report_warn(rep, d->slot, "exit-latency-open",
					  "Link Capabilities 0x%08x: %s exit latency code 7 is open-ended "
					  "(more than %s, PCIe Base 6.0 sec. 7.5.3.6): pcibw gives no figure "
					  "for it (--json: %s null)",
					  (unsigned)n->lnkcap, lat[k].name, lat[k].bound, lat[k].key);
}

static void latency_text(const struct pcibw_device *d, int state, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	if (state & PCIBW_ASPM_L1 && d->l1_exit_latency_ns != PCIBW_NULL)
		o += (size_t)snprintf(buf, len, "; each exit from L1 takes up to %d us",
				      d->l1_exit_latency_ns / 1000);
	if (state & PCIBW_ASPM_L0S && d->l0s_exit_latency_ns != PCIBW_NULL && o < len)
		snprintf(buf + o, len - o, "%s from L0s up to %d ns", o ? "," : "; each exit",
			 d->l0s_exit_latency_ns);
}

static void warn_aspm_on(const struct pcibw_device *d, struct pcibw_report *rep)
{
	if (!pcibw_is_network_class(d->class_id))
		return;
	bool link = d->aspm_link != PCIBW_NULL;
	int state = link ? d->aspm_link : d->aspm;
	if (state == PCIBW_NULL || state == 0)
		return;
	char lat[160], policy[80] = "";
	latency_text(d, state, lat, sizeof lat);
	if (rep->aspm_policy[0])
		snprintf(policy, sizeof policy, " (now %s)", rep->aspm_policy);
	pcibw_report_warn(rep, d->slot, "aspm-on",
			  "ASPM %s is enabled on this NIC's link%s%s: a NIC whose link idles between "
			  "packets pays the exit latency on every wake, which can cut throughput far "
			  "below line rate; to rule it out, boot with pcie_aspm=off or write "
			  "performance to /sys/module/pcie_aspm/parameters/policy%s",
			  pcibw_aspm_name(state, false),
			  link ? "" : " (by its own Link Control; the upstream port is not in the source)",
			  lat, policy);
}

void probe_linkpm(struct probe_set *s, int i, struct pcibw_report *rep, bool warn)
{
	struct probe_node *n = &s->v[i];
	struct pcibw_device *d = &n->d;

	/* each PCIe hop's MPS Supported, in the order path_and_bottleneck filled the path */
	int path_mps = PCIBW_NULL, k = 0;
	const char *path_mps_slot = NULL;
	bool path_known = d->n_path > 0;
	for (int j = n->parent; j >= 0 && k < d->n_path; j = s->v[j].parent, k++) {
		const struct pcibw_device *b = &s->v[j].d;
		int m = b->bus_kind == PCIBW_BUS_PCIE ? b->mps_supported_bytes : PCIBW_NULL;
		d->path[k].mps_supported_bytes = m;
		if (m == PCIBW_NULL) {
			path_known = false;
			continue;
		}
		if (path_mps == PCIBW_NULL || m < path_mps) {
			path_mps = m;
			path_mps_slot = d->path[k].slot;
		}
	}

	const struct pcibw_device *up = upstream_port(s, i);
	if (d->aspm != PCIBW_NULL && up && up->aspm != PCIBW_NULL) {
		d->aspm_link = d->aspm & up->aspm;
		pcibw_device_set_prov(d, "aspm_link", "config");
	}
	if (!warn || d->bus_kind != PCIBW_BUS_PCIE)
		return;
	warn_latencies(n, rep);
	warn_aspm_on(d, rep);
	if (path_known && path_mps != PCIBW_NULL && d->mps_bytes != PCIBW_NULL &&
	    d->mps_supported_bytes != PCIBW_NULL && d->mps_bytes < d->mps_supported_bytes &&
	    d->mps_bytes < path_mps) {
		int could = d->mps_supported_bytes < path_mps ? d->mps_supported_bytes : path_mps;
		pcibw_report_warn(rep, d->slot, "mps-below-max",
				  "MPS %d bytes is below both the device's Max_Payload_Size Supported "
				  "(%d) and its path's (%d, at %s): the link could carry %d-byte payloads, "
				  "fewer TLP headers per byte (Linux sets the largest safe MPS with "
				  "pci=pcie_bus_safe or pcie_bus_perf)",
				  d->mps_bytes, d->mps_supported_bytes, path_mps, path_mps_slot, could);
	}
}
