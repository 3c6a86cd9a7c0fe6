/*
 * The kernel's command-line parser (kernel/cmdline.c) run on the host, for
 * the check that holds tests/hosttools/kernel_cmdline.py against it. Reads
 * command lines from stdin, each ended by a NUL byte, and prints one line
 * per command line: "ok", or "refused: " and the kernel's reason. A line
 * longer than the CMDLINE_MAX bytes kernel/main.c copies is refused as there.
 */
#include <stdio.h>
#include <string.h>

#include "cmdline.h"
#include "cmdline_limits.h"

int main(void)
{
	static char line[1 << 16];
	char error_text[256];
	struct harness_options options;
	struct strbuf error;
	size_t n = 0;
	int c;

	while ((c = getchar()) != EOF) {
		if (c != '\0') {
			if (n + 1 < sizeof(line))
				line[n++] = (char)c;
			continue;
		}
		line[n] = '\0';
		strbuf_init(&error, error_text, sizeof(error_text));
		if (n > CMDLINE_MAX)
			printf("refused: longer than %d characters\n", CMDLINE_MAX);
		else if (cmdline_parse(line, &options, &error))
			printf("ok\n");
		else
			printf("refused: %s\n", error_text);
		n = 0;
	}
	return 0;
}
