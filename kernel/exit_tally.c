#include "exit_tally.h"

#include <stdbool.h>

#include "console.h"
#include "strbuf.h"

#define GROUPS		40	/* a run has about 20; past GROUPS - 1, "other" */
#define GROUP_NAME	24
#define PORTS		12	/* COM1 takes six, the 8259s two */

struct tally {
	uint64_t count[EXIT_KINDS];
	uint16_t port[PORTS];
	uint64_t at_port[PORTS];
	unsigned ports;
	uint64_t other_ports;	/* port I/O past PORTS distinct ports */
};

static struct tally tallies[GROUPS];
static char names[GROUPS][GROUP_NAME] = { [0] = "start",
					   [GROUPS - 1] = "other" };
static unsigned groups = 1;	/* named so far, "other" aside */
static bool other_used;
static struct tally *current = &tallies[0];
static bool counted;

static const char *const kind_names[EXIT_KINDS] = {
	[EXIT_PORT_IO] = "io", [EXIT_RDMSR] = "rdmsr", [EXIT_WRMSR] = "wrmsr",
	[EXIT_CPUID] = "cpuid", [EXIT_RDPMC] = "rdpmc", [EXIT_HLT] = "hlt",
};

static void add_port(struct tally *t, unsigned port, uint64_t n)
{
	for (unsigned k = 0; k < t->ports; k++) {
		if (t->port[k] == port) {
			t->at_port[k] += n;
			return;
		}
	}
	if (t->ports == PORTS) {
		t->other_ports += n;
		return;
	}
	t->port[t->ports] = (uint16_t)port;
	t->at_port[t->ports++] = n;
}

void exit_tally_count(enum exit_kind kind, unsigned port, uint32_t n)
{
	counted = true;
	if (!current || kind >= EXIT_KINDS)
		return;
	current->count[kind] += n;
	if (kind == EXIT_PORT_IO)
		add_port(current, port, n);
}

static bool is_name(const char *have, const char *name, unsigned n)
{
	unsigned k = 0;

	while (k < n && have[k] == name[k])
		k++;
	return k == n && have[k] == '\0';
}

void exit_tally_group(const char *name, unsigned n)
{
	unsigned g = 0;

	if (!name) {
		current = 0;
		return;
	}
	if (n >= GROUP_NAME)
		n = GROUP_NAME - 1;
	while (g < groups && !is_name(names[g], name, n))
		g++;
	if (g == groups && groups == GROUPS - 1) {
		other_used = true;
	} else if (g == groups) {
		for (unsigned k = 0; k < n; k++)
			names[g][k] = name[k];
		names[g][n] = '\0';
		groups++;
	}
	current = &tallies[g];
}

static void print_line(const char *name, const struct tally *t)
{
	char line[512];
	struct strbuf sb;

	strbuf_init(&sb, line, sizeof(line));
	strbuf_printf(&sb, "# exits: %s", name);
	for (unsigned k = 0; k < EXIT_KINDS; k++)
		strbuf_printf(&sb, " %s=%llu", kind_names[k],
			      (unsigned long long)t->count[k]);
	for (unsigned k = 0; k < t->ports; k++)
		strbuf_printf(&sb, " io.0x%x=%llu", t->port[k],
			      (unsigned long long)t->at_port[k]);
	if (t->other_ports)
		strbuf_printf(&sb, " io.other=%llu",
			      (unsigned long long)t->other_ports);
	console_printf("%s\n", line);
}

void exit_tally_print(void)
{
	struct tally total = { { 0 }, { 0 }, { 0 }, 0, 0 };

	if (!counted)
		return;
	current = 0;	/* these lines are no group's */
	for (unsigned g = 0; g < GROUPS; g++) {
		if (g >= groups && !(g == GROUPS - 1 && other_used))
			continue;
		for (unsigned k = 0; k < EXIT_KINDS; k++)
			total.count[k] += tallies[g].count[k];
		for (unsigned k = 0; k < tallies[g].ports; k++)
			add_port(&total, tallies[g].port[k], tallies[g].at_port[k]);
		total.other_ports += tallies[g].other_ports;
		print_line(names[g], &tallies[g]);
	}
	print_line("total", &total);
}
