/*
 * prog.fixed.*: the fixed-function counters through IA32_FIXED_CTR_CTRL
 * (PROG-5). Fixed counter 0 (instructions retired) counts the known loop
 * exactly, with the per-ring enables doing what PROG-2 says at each CPL;
 * fixed counters 1 and 2 (core and reference cycles) advance, in one of
 * up to three attempts (prog_measure_cycles()).
 */
#include "harness.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

static const struct {
	const char *id;
	unsigned index;
	int cpl;		/* -1: cycles, both rings at CPL 0 */
	const char *description;
} cases[] = {
	{ "prog.fixed.instructions.cpl0", 0, 0, "fixed counter 0 counts the loop at CPL 0 with OS only" },
	{ "prog.fixed.instructions.cpl1", 0, 1, "fixed counter 0 counts the loop at CPL 1 with USR only" },
	{ "prog.fixed.instructions.cpl2", 0, 2, "fixed counter 0 counts the loop at CPL 2 with USR only" },
	{ "prog.fixed.instructions.cpl3", 0, 3, "fixed counter 0 counts the loop at CPL 3 with USR only" },
	{ "prog.fixed.cycles", 1, -1, "fixed counter 1 (core cycles) advances over the loop" },
	{ "prog.fixed.refcycles", 2, -1, "fixed counter 2 (reference cycles) advances over the loop" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].cpl < 0 ? "PROG-5" : "PROG-2 PROG-5");
	strbuf_puts(&t->description, cases[i].description);
}

static void run(unsigned i)
{
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	struct prog_delta d;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_fixed_counter(check_pmu(), cases[i].index, &c, &why)) {
		test_skip("%s", text);
		return;
	}
	if (!prog_usable_or_skip(&c))
		return;
	if (cases[i].cpl >= 0) {
		prog_expect_rings(&c, (unsigned)cases[i].cpl);
		return;
	}
	if (!prog_measure_cycles(&c, &d, &why))
		test_fail("%s", text);
	else
		prog_expect_advance(&c, cases[i].index == 1 ? "core cycles"
							     : "reference cycles", &d);
}

static const struct suite prog_fixed = { 0, CASES, describe, run };
REGISTER_SUITE(prog_fixed);
