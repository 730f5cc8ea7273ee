/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "pcibw/error.h"
#include <stdio.h>

int pcibw_vfail(struct pcibw_err *err, enum pcibw_status code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	}
	return code;
}

int pcibw_fail(struct pcibw_err *err, enum pcibw_status code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pcibw_vfail(err, code, fmt, ap);
	va_end(ap);
	return code;
}

void pcibw_err_clear(struct pcibw_err *err)
{
	if (err) {
		err->code = PCIBW_OK;
		err->msg[0] = '\0';
	}
}

void pcibw_put_message(FILE *out, const char *prefix, const char *msg)
{
	fputs(prefix, out);
	for (const char *p = msg; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c >= 0x20 && c != 0x7f)
			putc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	putc('\n', out);
}
