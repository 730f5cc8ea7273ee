/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model and analyze resolve their shared options once (pcibw_request_resolve), so the same
 * options get the same acceptance, exit code and warning from both. Each case runs one option set
 * through both commands. Expected outcomes: doc/cli-contract.md (exit codes; "Model options";
 * decimal numbers) and doc/pcibw.1.scd; counts of PU objects come from the hwloc export itself.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* a measured input analyze can read: one 1518 B frame row, a bit rate */
#define MEASURED "analyze/synthetic-case-f-xl710-gen2x4.csv"

struct both {
	struct run_result model, analyze;
};

/* Run `pcibw model ARGS --sizes 1518` and `pcibw analyze MEASURED ARGS`. */
static struct both run_both(const char *const *args)
{
	const char *m[32] = {"model"}, *a[32] = {"analyze", test_data(MEASURED)};
	int nm = 1, na = 2;
	for (int i = 0; args[i] && nm < 28; i++)
		m[nm++] = a[na++] = args[i];
	m[nm++] = "--sizes";
	m[nm++] = "1518";
	m[nm] = a[na] = NULL;
	return (struct both){run_pcibw(NULL, m), run_pcibw(NULL, a)};
}

static void both_free(struct both *b)
{
	run_free(&b->model);
	run_free(&b->analyze);
}

static json_t *json_of(const struct run_result *r)
{
	json_error_t e;
	json_t *j = json_loads(r->out, 0, &e);
	cr_assert(j, "not JSON (%s): %s", e.text, r->out);
	return j;
}

Test(divergence, bus_virtual_accepted_by_both)
{
	struct both b = run_both((const char *[]){"--bus", "virtual", "--line-rate", "10G", "--json", NULL});
	cr_assert_eq(b.model.status, 0, "model: %s", b.model.err);
	cr_assert_eq(b.analyze.status, 0, "analyze: %s", b.analyze.err);
	json_t *m = json_of(&b.model);
	json_t *row = json_array_get(json_object_get(m, "rows"), 0);
	cr_assert(json_is_null(json_object_get(row, "bus_gbps")), "a virtual NIC has no bus ceiling");
	cr_assert(json_is_number(json_object_get(row, "wire_gbps")), "the wire still has one");
	cr_assert(strstr(b.model.err, "no bus ceiling"), "model: %s", b.model.err);
	json_t *a = json_of(&b.analyze);
	cr_assert_str_eq(json_string_value(json_object_get(a, "bus")), "virtual");
	json_decref(m);
	json_decref(a);
	both_free(&b);
}

Test(divergence, segment_devices_is_plain_decimal_in_both)
{
	const char *bad[] = {"+3", " 3", "3 ", "0x3", "0", "33"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct both b =
		    run_both((const char *[]){"--bus", "pci33/32", "--segment-devices", bad[i], NULL});
		cr_assert_eq(b.model.status, 2, "model --segment-devices '%s': %d", bad[i], b.model.status);
		cr_assert_eq(b.analyze.status, 2, "analyze --segment-devices '%s': %d", bad[i],
			     b.analyze.status);
		cr_assert(strstr(b.model.err, "--segment-devices"), "%s", b.model.err);
		cr_assert(strstr(b.analyze.err, "--segment-devices"), "%s", b.analyze.err);
		both_free(&b);
	}
	struct both b = run_both((const char *[]){"--bus", "pci33/32", "--segment-devices", "3", NULL});
	cr_assert_eq(b.model.status, 0, "%s", b.model.err);
	cr_assert_eq(b.analyze.status, 0, "%s", b.analyze.err);
	both_free(&b);
}

Test(divergence, compat_pcie_bench_refuses_a_pci_bus_in_both)
{
	const char *buses[] = {"pci33/32", "pcix133/64"};
	for (int i = 0; i < 2; i++) {
		struct both b = run_both((const char *[]){"--compat", "pcie-bench", "--bus", buses[i], NULL});
		cr_assert_eq(b.model.status, 2, "model: %s", b.model.err);
		cr_assert_eq(b.analyze.status, 2, "analyze: %s", b.analyze.err);
		cr_assert(strstr(b.model.err, "drop --compat") && strstr(b.analyze.err, "drop --compat"),
			  "%s / %s", b.model.err, b.analyze.err);
		both_free(&b);
	}
}

/* pcie-model counts 8b/10b or 128b/130b links (PCIe 1.0-5.0) and has no Flit mode (PCIe Base
 * 6.0 sec. 4.2.3, mandatory at 64 GT/s, the `flit` modifier below it): a Flit-mode link under
 * --compat pcie-bench was costed as neither, while the output said compat pcie-bench. Refused in
 * both, as a PCI bus is; a Gen5 link without flit is pcie-model's and runs. */
Test(divergence, compat_pcie_bench_refuses_a_flit_link_in_both)
{
	const char *buses[] = {"gen6x4", "gen3x8,flit"};
	for (int i = 0; i < 2; i++) {
		struct both b = run_both((const char *[]){"--compat", "pcie-bench", "--bus", buses[i], NULL});
		cr_assert_eq(b.model.status, 2, "model %s: %s", buses[i], b.model.err);
		cr_assert_eq(b.analyze.status, 2, "analyze %s: %s", buses[i], b.analyze.err);
		cr_assert(strstr(b.model.err, "pcie-model has no Flit mode") &&
			      strstr(b.analyze.err, "pcie-model has no Flit mode"),
			  "%s / %s", b.model.err, b.analyze.err);
		both_free(&b);
	}
	struct both b = run_both((const char *[]){"--compat", "pcie-bench", "--bus", "gen5x16", NULL});
	cr_assert_eq(b.model.status, 0, "model: %s", b.model.err);
	cr_assert_eq(b.analyze.status, 0, "analyze: %s", b.analyze.err);
	both_free(&b);
}

/* The dump holds one network controller, 15b3:1007 (ConnectX-3 Pro: its lspci -n line); no
 * profile in data/nic lists it in `match`. */
Test(divergence, probed_nic_without_profile_warns_in_both)
{
	const char *warning = "no NIC profile lists 15b3:1007";
	struct both b = run_both((const char *[]){
	    "--dump", test_data("pcie-connectx3pro-haswell-rootport.lspci"), "--json", NULL});
	cr_assert_eq(b.model.status, 0, "%s", b.model.err);
	cr_assert_eq(b.analyze.status, 0, "%s", b.analyze.err);
	cr_assert(strstr(b.model.err, warning), "model stderr: %s", b.model.err);
	cr_assert(strstr(b.analyze.err, warning), "analyze stderr: %s", b.analyze.err);
	json_t *a = json_of(&b.analyze);
	json_t *w = json_object_get(a, "warnings");
	cr_assert(json_is_array(w) && json_array_size(w) >= 1);
	cr_assert(strstr(json_string_value(json_array_get(w, 0)), warning));
	cr_assert_str_eq(json_string_value(json_object_get(a, "nic")), "simple");
	json_decref(a);
	both_free(&b);
	/* the text output says it too */
	b = run_both((const char *[]){"--dump", test_data("pcie-connectx3pro-haswell-rootport.lspci"), NULL});
	cr_assert(strstr(b.model.out, warning), "%s", b.model.out);
	cr_assert(strstr(b.analyze.out, warning), "%s", b.analyze.out);
	both_free(&b);
}

Test(divergence, nic_file_in_both)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/nic/e1000.ini", getenv("PCIBW_DATA_DIR"));
	struct both b = run_both((const char *[]){"--bus", "pci33/32", "--nic-file", path, "--json", NULL});
	cr_assert_eq(b.model.status, 0, "%s", b.model.err);
	cr_assert_eq(b.analyze.status, 0, "%s", b.analyze.err);
	json_t *a = json_of(&b.analyze);
	cr_assert_str_eq(json_string_value(json_object_get(a, "nic")), "e1000"); /* its [profile] name */
	json_decref(a);
	both_free(&b);
	b = run_both((const char *[]){"--bus", "pci33/32", "--nic-file",
				      test_data("synthetic-bad-profile-unknown-key.ini"), NULL});
	cr_assert_eq(b.model.status, 3, "%s", b.model.err);
	cr_assert_eq(b.analyze.status, 3, "%s", b.analyze.err);
	cr_assert_str_eq(b.model.err, b.analyze.err);
	both_free(&b);
	b = run_both((const char *[]){"--bus", "pci33/32", "--nic-file", path, "--nic", "e1000", NULL});
	cr_assert_eq(b.model.status, 2);
	cr_assert_eq(b.analyze.status, 2);
	both_free(&b);
}

/* A bare DMA test does not cross the wire: no wire ceiling in either, whatever the line rate. */
Test(divergence, dma_patterns_have_no_wire_ceiling)
{
	const char *pats[] = {"dma-read", "dma-write", "dma-rw"};
	for (int i = 0; i < 3; i++) {
		struct both b = run_both((const char *[]){"--bus", "gen3x8", "--pattern", pats[i],
							  "--line-rate", "10G", "--json", NULL});
		cr_assert_eq(b.model.status, 0, "%s", b.model.err);
		cr_assert_eq(b.analyze.status, 0, "%s", b.analyze.err);
		json_t *m = json_of(&b.model), *a = json_of(&b.analyze);
		json_t *mr = json_array_get(json_object_get(m, "rows"), 0);
		json_t *ar = json_array_get(json_object_get(a, "rows"), 0);
		cr_assert(json_is_null(json_object_get(mr, "wire_gbps")), "model %s: wire_gbps not null",
			  pats[i]);
		cr_assert(json_is_number(json_object_get(mr, "bus_gbps")), "model %s: no bus ceiling",
			  pats[i]);
		cr_assert(json_is_null(json_object_get(ar, "wire_gbps")), "analyze %s: wire_gbps not null",
			  pats[i]);
		json_decref(m);
		json_decref(a);
		both_free(&b);
	}
	/* rx does cross it */
	struct both b = run_both(
	    (const char *[]){"--bus", "gen3x8", "--pattern", "rx", "--line-rate", "10G", "--json", NULL});
	json_t *m = json_of(&b.model), *a = json_of(&b.analyze);
	cr_assert(
	    json_is_number(json_object_get(json_array_get(json_object_get(m, "rows"), 0), "wire_gbps")));
	cr_assert(
	    json_is_number(json_object_get(json_array_get(json_object_get(a, "rows"), 0), "wire_gbps")));
	json_decref(m);
	json_decref(a);
	both_free(&b);
}

/* One hwloc loader: report and analyze refuse a broken export with the same FILE:LINE:COLUMN. */
Test(divergence, topology_errors_are_the_same_in_report_and_analyze)
{
	const char *bad[] = {"hwloc/synthetic-truncated.xml", "hwloc/synthetic-version-3.xml"};
	for (int i = 0; i < 2; i++) {
		const char *f = test_data(bad[i]);
		struct run_result r = run_pcibw(NULL, (const char *[]){"report", "--topology", f, NULL});
		struct run_result a =
		    run_pcibw(NULL, (const char *[]){"analyze", test_data(MEASURED), "--topology", f, NULL});
		cr_assert_eq(r.status, 3, "report: %s", r.err);
		cr_assert_eq(a.status, 3, "analyze: %s", a.err);
		cr_assert_str_eq(r.err, a.err);
		char where[4200];
		snprintf(where, sizeof where, "%s:", f);
		cr_assert(strstr(a.err, where), "no file:line:column: %s", a.err);
		run_free(&r);
		run_free(&a);
	}
	struct run_result m = run_pcibw(
	    NULL, (const char *[]){"model", "--topology", test_data("hwloc/ibm-4node-bcm5709x8.xml"), NULL});
	cr_assert_eq(m.status, 2, "model has no use for a topology: %s", m.err);
	run_free(&m);
}

/* The export's PU count is the CPU count whenever --cpus is not given, with --cpu-ghz or not. */
Test(divergence, topology_pu_count_with_and_without_cpu_ghz)
{
	const char *xml = test_data("hwloc/ibm-4node-bcm5709x8.xml");
	char *text = slurp(xml, NULL);
	cr_assert(text);
	int pus = 0;
	for (const char *p = text; (p = strstr(p, "type=\"PU\"")); p++)
		pus++;
	free(text);
	cr_assert_gt(pus, 0);
	const char *extra[][3] = {{NULL}, {"--cpu-ghz", "2.8", NULL}};
	for (int i = 0; i < 2; i++) {
		const char *args[8] = {"analyze", test_data(MEASURED), "--topology", xml, "--json"};
		int n = 5;
		for (int k = 0; extra[i][k]; k++)
			args[n++] = extra[i][k];
		args[n] = NULL;
		struct run_result r = run_pcibw(NULL, args);
		cr_assert_eq(r.status, 0, "%s", r.err);
		json_t *j = json_of(&r);
		cr_assert_eq(json_integer_value(json_object_get(j, "cpus")), pus, "case %d", i);
		json_decref(j);
		run_free(&r);
	}
	/* --cpus wins over the export */
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", test_data(MEASURED), "--topology",
							       xml, "--cpus", "3", "--json", NULL});
	json_t *j = json_of(&r);
	cr_assert_eq(json_integer_value(json_object_get(j, "cpus")), 3);
	json_decref(j);
	run_free(&r);
}

/* --segment-devices counts the masters sharing a PCI/PCI-X segment (doc/cli-contract.md, "Model
 * options"); a PCIe link is point to point (PCIe Base 6.0 sec. 1.3), so the option would change
 * nothing: refused, never silently dropped. */
Test(divergence, segment_devices_refused_on_pcie_in_both)
{
	const char *buses[] = {"gen3x8", "gen1x1", "virtual"};
	for (int i = 0; i < 3; i++) {
		struct both b = run_both((const char *[]){"--bus", buses[i], "--segment-devices", "2", NULL});
		cr_expect_eq(b.model.status, 2, "model --bus %s: %d %s", buses[i], b.model.status,
			     b.model.err);
		cr_expect_eq(b.analyze.status, 2, "analyze --bus %s: %d %s", buses[i], b.analyze.status,
			     b.analyze.err);
		cr_expect(strstr(b.model.err, "--segment-devices 2"), "%s", b.model.err);
		both_free(&b);
	}
	/* 1 is the default: saying it is harmless on any bus */
	struct both b = run_both((const char *[]){"--bus", "gen3x8", "--segment-devices", "1", NULL});
	cr_expect_eq(b.model.status, 0, "%s", b.model.err);
	cr_expect_eq(b.analyze.status, 0, "%s", b.analyze.err);
	both_free(&b);
	b = run_both((const char *[]){"--bus", "pcix133/64", "--segment-devices", "2", NULL});
	cr_expect_eq(b.model.status, 0, "%s", b.model.err);
	cr_expect_eq(b.analyze.status, 0, "%s", b.analyze.err);
	both_free(&b);
}
