/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names taken from a source (an interface name from a copied sysfs tree, a watch recording, a CSV
 * column) may hold any byte there: Linux refuses only '/', ':' and white space in an interface
 * name (net/core/dev.c dev_valid_name()), so an escape sequence is a valid live name, and a
 * crafted copy can hold a newline. Text output shows each control byte as \xHH, so a name can
 * neither split a line nor reach the terminal; JSON keeps the name as it is, escaped by JSON.
 */
#include "support.h"
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every line of text: no control byte but its newline, and none starts with word */
static void expect_whole_lines(const char *text, const char *word)
{
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		cr_expect(strncmp(l, word, strlen(word)), "a line split off: %.*s", (int)n, l);
		for (size_t i = 0; i < n; i++)
			cr_expect((unsigned char)l[i] >= 0x20 && l[i] != 0x7f, "control byte 0x%02x in: %.*s",
				  (unsigned char)l[i], (int)n, l);
		l += n + (e != NULL);
	}
}

/* A copy of the kvm sysfs snapshot whose interface directory is named "ens3", a newline,
 * "FAKE: line" and an ANSI colour escape. */
Test(render_names, a_crafted_sysfs_interface_name_stays_on_its_line)
{
	char script[2048];
	snprintf(script, sizeof script,
		 "d=$(mktemp -d) && cp -a \"$PCIBW_TEST_DATA/sysfs/kvm-virtio-pcidomain32\" \"$d/s\" && "
		 "n=\"$d/s/sys/devices/pci0000:00/0000:00:03.0/virtio0/net\" && "
		 "mv \"$n/ens3\" \"$n/$(printf 'ens3\\nFAKE: line\\033[31m')\" && "
		 "\"$PCIBW_EXE\" report --sysfs \"$d/s\"; rc=$?; rm -rf \"$d\"; exit $rc");
	struct run_result r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "interfaces ens3\\x0aFAKE: line\\x1b[31m\n"), "%s", r.out);
	expect_whole_lines(r.out, "FAKE");
	run_free(&r);

	snprintf(script, sizeof script,
		 "d=$(mktemp -d) && cp -a \"$PCIBW_TEST_DATA/sysfs/kvm-virtio-pcidomain32\" \"$d/s\" && "
		 "n=\"$d/s/sys/devices/pci0000:00/0000:00:03.0/virtio0/net\" && "
		 "mv \"$n/ens3\" \"$n/$(printf 'ens3\\nFAKE: line\\033[31m')\" && "
		 "\"$PCIBW_EXE\" report --sysfs \"$d/s\" --json; rc=$?; rm -rf \"$d\"; exit $rc");
	r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	json_error_t je;
	json_t *j = json_loads(r.out, 0, &je);
	cr_assert_not_null(j, "%s", je.text);
	json_t *ifs = json_object_get(json_array_get(json_object_get(j, "devices"), 0), "interfaces");
	cr_expect_str_eq(json_string_value(json_array_get(ifs, 0)), "ens3\nFAKE: line\033[31m");
	json_decref(j);
	run_free(&r);
}

/* The real loopback recording with "lo" renamed "l", ESC, "o" in meta and in its blob keys
 * (a name Linux takes: dev_valid_name() refuses no control byte but white space). */
Test(render_names, a_recorded_name_with_an_escape_is_shown_as_hex)
{
	char script[2048];
	snprintf(script, sizeof script,
		 "d=$(mktemp -d) && src=\"$PCIBW_TEST_DATA/../watch/data/real-vm-lo-udp\" && "
		 "e=$(printf '\\033') && mkdir \"$d/r\" && "
		 "sed \"s/^iface lo /iface l${e}o /\" \"$src/meta\" > \"$d/r/meta\" && "
		 "sed \"s|^blob net/lo |blob net/l${e}o |\" \"$src/samples\" > \"$d/r/samples\" && "
		 "\"$PCIBW_EXE\" watch --replay \"$d/r\"; rc=$?; rm -rf \"$d\"; exit $rc");
	struct run_result r = run_cmd(NULL, (const char *[]){"bash", "-c", script, NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "l\\x1bo"), "%s", r.out);
	expect_whole_lines(r.out, "o ");
	run_free(&r);
}

/* A quoted CSV field may hold a newline (RFC 4180 sec. 2.6): an iface "eth" newline "0". */
Test(render_names, a_csv_interface_with_a_newline_stays_on_its_line)
{
	const char *csv = temp_file("iface,frame_bytes,pps\n\"eth\n0\",64,1000\n", ".csv");
	struct run_result r = run_pcibw(NULL, (const char *[]){"analyze", csv, "--bus", "gen3x8", NULL});
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.out, "eth\\x0a0"), "%s", r.out);
	expect_whole_lines(r.out, "0 ");
	run_free(&r);
	remove(csv);
}
