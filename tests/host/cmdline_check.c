/*
 * What the host refuses of a kernel command line before anything boots, in
 * the kernel's words: a line past CMDLINE_MAX bytes (kernel/cmdline_limits.h,
 * as arch/boot_info.c refuses it), a byte other than printable ASCII (the
 * loaders do not all pass one on; the kernel would read a tab as a space),
 * and whatever the kernel's own parser (kernel/cmdline.c) refuses.
 * tests/hosttools/kernel_cmdline.py asks it; there is no second grammar.
 *
 * Reads records from stdin, each a decimal byte count, a newline and that
 * many bytes, and prints one line per record: "ok", or "refused: " and the
 * reason.
 */
#include <stdio.h>
#include <string.h>

#include "cmdline.h"
#include "cmdline_limits.h"

/* The line's own refusal, or false: its length first, then its bytes. */
static bool line_refused(const unsigned char *line, size_t n,
			 struct strbuf *why)
{
	if (n > CMDLINE_MAX) {
		strbuf_printf(why, "the kernel command line is %zu bytes, more than the %d the kernel takes",
			      n, CMDLINE_MAX);
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		if (line[i] < 0x20 || line[i] >= 0x7F) {
			strbuf_printf(why, "the kernel command line holds byte 0x%02x at offset %zu: only printable ASCII reaches the kernel intact",
				      line[i], i);
			return true;
		}
	}
	return false;
}

int main(void)
{
	static unsigned char line[1 << 20];
	char error_text[CMDLINE_MAX + 512];	/* the longest word, quoted in full */
	struct harness_options options;
	struct strbuf error;
	size_t n;

	while (scanf("%zu", &n) == 1 && getchar() == '\n') {
		size_t kept = n < sizeof(line) - 1 ? n : sizeof(line) - 1;

		if (fread(line, 1, kept, stdin) != kept)
			return 1;
		for (size_t rest = n - kept; rest; rest--)
			if (getchar() == EOF)
				return 1;
		line[kept] = '\0';
		strbuf_init(&error, error_text, sizeof(error_text));
		if (line_refused(line, n, &error) ||
		    !cmdline_parse((char *)line, &options, &error))
			printf("refused: %s\n", error_text);
		else
			printf("ok\n");
	}
	return 0;
}
