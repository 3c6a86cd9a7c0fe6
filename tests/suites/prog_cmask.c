/*
 * prog.cmask.*: the counter-mask fields of an event select (PROG-8), on
 * instructions retired over the known loop. No core retires 255
 * instructions in one cycle, so with CMASK = 255 the condition "at least
 * 255 this cycle" holds in no cycle and its inverse (INV) in every cycle;
 * what a core retires per cycle is model-specific and not checked.
 */
#include "harness.h"
#include "msr.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define CMASK_NEVER	255

static const struct {
	const char *id;
	uint64_t fields;
	bool counts;		/* advances; else counts nothing */
	const char *description;
} cases[] = {
	{ "prog.cmask.threshold", EVTSEL_CMASK(CMASK_NEVER), false,
	  "CMASK = 255: no cycle retires 255 instructions, nothing is counted" },
	{ "prog.cmask.inv", EVTSEL_CMASK(CMASK_NEVER) | EVTSEL_INV, true,
	  "CMASK = 255 with INV: every cycle counts, the counter advances" },
	{ "prog.cmask.edge", EVTSEL_CMASK(CMASK_NEVER) | EVTSEL_INV | EVTSEL_EDGE, false,
	  "CMASK = 255, INV and EDGE: a condition true in every cycle rises at most once" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, "PROG-8 PROG-1");
	strbuf_puts(&t->description, cases[i].description);
}

static void run(unsigned i)
{
	struct prog_counter c;
	struct prog_delta d;
	struct prog_run r = { 0, 0, false, 0, 0, PROG_KNOWN_LOOP };

	if (!prog_take_counter(&c, false))
		return;
	r.control = prog_enables(&c, FILTER_OS | FILTER_USR) | cases[i].fields;
	if (!prog_measure_run_or_fail(&c, &r, &d))
		return;
	if (cases[i].counts)
		prog_expect_advance(&c, "instructions, CMASK 255, INV", &d);
	else
		prog_expect_count(&c, cases[i].id + sizeof("prog.cmask.") - 1, &d, 0);
}

static const struct suite prog_cmask = { 0, CASES, describe, run };
REGISTER_SUITE(prog_cmask);
