/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pcibw slots: every slot port of the machine, and with a card which slot carries it. */
#include "cli.h"
#include "pcibw/nic.h"
#include "pcibw/probe.h"
#include "pcibw/slots.h"
#include "src/render/slots_render.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The card's own Link Capabilities where the source holds a network function of that profile
 * (the card to move is often in the machine already; a MAC built into a chipset is no such
 * card); NAN and PCIBW_NULL otherwise. */
static void card_caps(const struct pcibw_report *r, const char *nic, double *gts, int *width, char *from,
		      size_t len)
{
	*gts = NAN;
	*width = PCIBW_NULL;
	from[0] = '\0';
	for (int i = 0; i < r->n_devices; i++) {
		const struct pcibw_device *d = &r->devices[i];
		char name[64];
		/* an on-package MAC (X722 in the C620 chipset) is no card that could move */
		if (!pcibw_is_network_class(d->class_id) || d->is_vf || d->is_virtual ||
		    pcibw_device_is_onpackage(d->vendor_id, d->device_id) || isnan(d->max_link_speed_gts) ||
		    d->max_link_width <= 0 ||
		    !pcibw_nic_default_name(d->vendor_id, d->device_id, d->driver, NULL, name, sizeof name) ||
		    strcmp(name, nic))
			continue;
		*gts = d->max_link_speed_gts;
		*width = d->max_link_width;
		snprintf(from, len, "%s", d->slot);
		return;
	}
}

static int run(const struct pcibw_request *req, struct pcibw_report *rep, struct pcibw_smbios *smb,
	       struct pcibw_os_slots *os, struct pcibw_slots *sl, struct pcibw_err *err)
{
	struct pcibw_probe_opts po = req->probe;
	po.all = true;
	int r = pcibw_probe(&po, rep, err);
	if (r)
		return r;
	if (req->smbios_file && (r = pcibw_smbios_read(req->smbios_file, smb, err)))
		return r;
	/* the OS's slot names: this machine's, or those of a sysfs copy */
	if (!po.dump_file && !po.pciconf_file && !po.topology_file &&
	    (r = pcibw_os_slots_read(po.sysfs_dir ? po.sysfs_dir : "/", os, err)))
		return r;
	if ((r = pcibw_slots_build(rep, smb, os, sl, err)))
		return r;
	if (!sl->n)
		return pcibw_fail(err, PCIBW_ENOMATCH,
				  "no slot port (a PCI Express root or downstream port) %s%s",
				  strcmp(rep->source, "live") ? "in " : "on ",
				  strcmp(rep->source, "live") ? rep->source : "this machine");
	if (!req->nic)
		return PCIBW_OK;
	struct pcibw_nic nic;
	if ((r = pcibw_nic_load(req->nic, NULL, &nic, err)))
		return r;
	int ports = req->ports ? req->ports : req->line_rate_ports ? req->line_rate_ports : 1;
	double total = req->ports ? req->line_rate_gbps * req->ports : req->line_rate_gbps;
	double gts;
	int width;
	char from[32];
	card_caps(rep, req->nic, &gts, &width, from, sizeof from);
	return pcibw_slots_fit(sl, &nic, req->nic, ports, total, gts, width, from, err);
}

int cmd_slots(int argc, char **argv)
{
	struct pcibw_request req;
	struct pcibw_err err;
	pcibw_err_clear(&err);
	int r = cli_parse(PCIBW_CMD_SLOTS, argc, argv, &req);
	pcibw_request_free(&req);
	if (r >= 0)
		return r;
	if (pcibw_request_check_sources(&req, &err))
		return cli_usage_error("slots", "%s", err.msg);
	if (req.nic && !(req.line_rate_gbps > 0))
		return cli_usage_error("slots",
				       "--nic %s: add --line-rate RATE (each port's): the port fit "
				       "sets the card's ceiling against its line rate",
				       req.nic);
	if (!req.nic && (req.line_rate_gbps > 0 || req.ports))
		return cli_usage_error("slots", "%s needs --nic PROFILE: the card whose ports to place",
				       req.ports ? "--ports" : "--line-rate");
	if (req.ports && req.line_rate_ports)
		return cli_usage_error("slots",
				       "--ports %d beside --line-rate NxRATE: give the ports once "
				       "(--ports N --line-rate RATE, or --line-rate NxRATE)",
				       req.ports);
	if (req.nic && strchr(req.nic, ','))
		return cli_usage_error("slots", "--nic '%s': slots takes a profile name (no knobs)", req.nic);

	struct pcibw_report rep = {0};
	struct pcibw_smbios smb = {0};
	struct pcibw_os_slots os = {0};
	struct pcibw_slots sl = {0};
	r = run(&req, &rep, &smb, &os, &sl, &err);
	if (!r) {
		r = req.format == PCIBW_OUT_JSON ? pcibw_slots_render_json(stdout, &rep, &sl)
						 : pcibw_slots_render_text(stdout, &rep, &sl);
		/* a failed write is main's to report (finish_output), with its reason */
		if (r && !ferror(stdout))
			r = pcibw_fail(&err, PCIBW_EINTERNAL, "cannot render the slots");
		else
			r = 0;
	}
	pcibw_slots_free(&sl);
	pcibw_os_slots_free(&os);
	pcibw_smbios_free(&smb);
	pcibw_report_free(&rep);
	return r ? cli_error(&err) : 0;
}
