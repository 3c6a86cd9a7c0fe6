/*
 * prog.event.<name>: a general-purpose counter programmed for each PROG-4
 * architectural event CPUID.0AH:EBX says is available (AMD: its own event
 * codes) counts the known loop. Instructions and branches retired have
 * exact counts (arch/known_loop.asm); cycles only have to advance, in one
 * of up to three attempts (prog_measure_cycles()).
 */
#include "exec.h"
#include "harness.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

static const struct {
	const char *id;
	unsigned event;
	unsigned per_iteration;	/* 0: no exact count, must advance */
} cases[] = {
	{ "prog.event.cycles", PROG_CYCLES, 0 },
	{ "prog.event.instructions", PROG_INSTRUCTIONS, KNOWN_LOOP_INSTRUCTIONS },
	{ "prog.event.refcycles", PROG_REF_CYCLES, 0 },
	{ "prog.event.branches", PROG_BRANCHES, KNOWN_LOOP_BRANCHES },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, "PROG-1 PROG-3 PROG-4 PROG-5");
	strbuf_printf(&t->description, "%s %s the known loop",
		      prog_events[cases[i].event].name,
		      cases[i].per_iteration ? "match exactly over" : "advance over");
}

static void run(unsigned i)
{
	const struct prog_event *ev = &prog_events[cases[i].event];
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	struct prog_delta d;

	strbuf_init(&why, text, sizeof(text));
	if (!prog_gp_counter(check_pmu(), ev, 0, &c, &why)) {
		test_skip("%s", text);
		return;
	}
	if (!prog_usable_or_skip(&c))
		return;
	if (!(cases[i].per_iteration
	      ? prog_measure(&c, FILTER_OS | FILTER_USR, 0, &d, &why)
	      : prog_measure_cycles(&c, &d, &why))) {
		test_fail("%s", text);
		return;
	}
	if (cases[i].per_iteration)
		prog_expect_count(&c, ev->name, &d, cases[i].per_iteration);
	else
		prog_expect_advance(&c, ev->name, &d);
}

static const struct suite prog_event_suite = {
	SUITE_PER_CPU, CASES, describe, run,
};
REGISTER_SUITE(prog_event_suite);
