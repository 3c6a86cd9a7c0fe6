/*
 * tool_test: the built pmctest-model binary, run through the shell: the
 * example of docs/reading-a-failure.md exactly, stdin mode, --explain, and
 * exit status 2 for malformed queries.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "suites.h"
#include "tap.h"

#define EXAMPLE "vendor=intel cpuid.0a.eax=0x08300805 cpuid.0a.edx=0x8604 " \
		"mode=long cpl=3 pce=1 ecx=0x40000001"

struct tool_case {
	const char *name;
	const char *command;	/* "%s" is the tool */
	const char *output;	/* exactly, or with `prefix` its beginning */
	bool prefix;
	int status;
};

static const struct tool_case cases[] = {
	{ "pmctest-model: the manual's example", "%s " EXAMPLE,
	  "read fixed 1 width=48\n", false, 0 },
	{ "pmctest-model: a quoted query is one query", "%s '" EXAMPLE "'",
	  "read fixed 1 width=48\n", false, 0 },
	{ "pmctest-model: malformed query exits 2", "%s vendor=intel ecx=0xZZ",
	  "error: \"ecx=0xZZ\": not a decimal or 0x-hex number of at most "
	  "64 bits\n", false, 2 },
	{ "pmctest-model: missing ecx exits 2", "%s vendor=amd",
	  "error: missing ecx= (or rcx=)\n", false, 2 },
	{ "pmctest-model: stdin, one answer per query, errors in place",
	  "printf 'ecx=0\\nfoo=1 ecx=0\\n\\n# comment\\nvendor=amd ecx=6\\n"
	  "cpl=3 ecx=0' | %s",
	  "unknown model-specific PMC index\nerror: \"foo=1\": unknown key\n#GP(0)\n#GP(0)\n",
	  false, 2 },
	{ "pmctest-model: stdin, all good exits 0",
	  "printf 'cpuid.0a.eax=0 ecx=1\\nvendor=amd cpuid.80000001.ecx="
	  "0x01000000 ecx=9\\n' | %s",
	  "unknown model-specific PMC index\nread nb 3\n", false, 0 },
	{ "pmctest-model: --explain", "%s --explain " EXAMPLE,
	  "read fixed 1 width=48\n"
	  "statements: PRIV-1 ARCH-1 ARCH-3 ARCH-7\n"
	  "  PRIV-1: CPL 3 with CR4.PCE = 1: permitted\n"
	  "  ARCH-1: architectural PMU version 5 (CPUID.0AH:EAX[7:0]): type "
	  "ECX[31:16] = 4000H, index ECX[15:0] = 1\n"
	  "  ARCH-3: fixed index 1 < CPUID.0AH:EDX[4:0] = 4 (version 5 > 1)\n"
	  "  ARCH-7: fixed-function width CPUID.0AH:EDX[12:5] = 48\n",
	  false, 0 },
	{ "pmctest-model: --explain of a malformed query exits 2",
	  "%s --explain cpl=9 ecx=0", "error: \"cpl=9\": CPL out of range "
	  "0..3\n", false, 2 },
	{ "pmctest-model: --help", "%s --help", "usage: pmctest-model", true,
	  0 },
	{ "pmctest-model: a NUL byte is an error naming its line, the next line is answered",
	  "printf 'ecx=0\\000\\necx=1\\n' | %s",
	  "error: line 1 holds a NUL byte\nunknown model-specific PMC index\n", false, 2 },
	{ "pmctest-model: a query ending in NUL without a newline is an error",
	  "printf 'ecx=0\\000' | %s", "error: line 1 holds a NUL byte\n", false, 2 },
	{ "pmctest-model: the last line needs no newline",
	  "printf 'ecx=0' | %s", "unknown model-specific PMC index\n", false, 0 },
	{ "pmctest-model: an over-long line is an error naming its line",
	  "{ printf 'ecx=0\\n'; head -c 5000 /dev/zero | tr '\\0' x; printf '\\necx=1\\n'; } | %s",
	  "unknown model-specific PMC index\nerror: line 2 is longer than 4094 characters\n"
	  "unknown model-specific PMC index\n", false, 2 },
	{ "pmctest-model: -h with a query is an error", "%s -h ecx=0 2>&1",
	  "pmctest-model: -h goes alone", true, 2 },
	{ "pmctest-model: an unknown option is an error", "%s ecx=0 --bogus 2>&1",
	  "pmctest-model: --bogus is not an option", true, 2 },
};

/* Runs `command` with the tool's path; its output into buf; exit status. */
static int run(const char *format, const char *tool, char *buf, size_t size)
{
	char command[1024];
	size_t len = 0;
	FILE *pipe;
	int status;

	snprintf(command, sizeof(command), format, tool);
	pipe = popen(command, "r");
	if (!pipe) {
		snprintf(buf, size, "popen failed: %s", command);
		return -1;
	}
	while (len + 1 < size) {
		size_t n = fread(buf + len, 1, size - 1 - len, pipe);

		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	status = pclose(pipe);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void test_tool(const char *tool)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tool_case *c = &cases[i];
		char output[8192], want[64], got[64];
		int status = run(c->command, tool, output, sizeof(output));
		bool same = c->prefix
			? strncmp(output, c->output, strlen(c->output)) == 0
			: strcmp(output, c->output) == 0;

		if (!same) {
			tap_result(false, c->name, c->output, output);
			continue;
		}
		snprintf(want, sizeof(want), "exit status %d", c->status);
		snprintf(got, sizeof(got), "exit status %d", status);
		tap_check_str(c->name, want, got);
	}
}
