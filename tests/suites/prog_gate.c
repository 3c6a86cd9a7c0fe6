/*
 * prog.gate.*: a counter counts only while its own enable is set and, where
 * there is one, its global enable (PROG-6): with either clear the known
 * loop leaves it where it was.
 */
#include "harness.h"
#include "msr.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

enum { CASE_EN, CASE_GLOBAL, CASES };

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, i == CASE_EN ? "prog.gate.en" : "prog.gate.global");
	strbuf_puts(&t->statements, "PROG-6 PROG-1");
	strbuf_puts(&t->description, i == CASE_EN
		    ? "an event select with USR and OS but EN clear does not count"
		    : "a counter with EN set does not count while its global enable is clear");
}

static void run(unsigned i)
{
	struct prog_counter c;
	struct prog_delta d;
	struct prog_run r = { 0, 0, false, 0, 0, PROG_KNOWN_LOOP };

	if (!prog_take_counter(&c, false))
		return;
	r.control = prog_enables(&c, FILTER_OS | FILTER_USR);
	if (i == CASE_EN) {
		r.control &= ~EVTSEL_EN;
	} else if (!c.global_msr) {
		test_skip("no global enable: Intel version 1 or AMD without PerfMonV2");
		return;
	} else {
		r.gate_closed = true;
	}
	if (prog_measure_run_or_fail(&c, &r, &d))
		prog_expect_count(&c, i == CASE_EN ? "EN clear" : "global enable clear",
				  &d, 0);
}

static const struct suite prog_gate = { 0, CASES, describe, run };
REGISTER_SUITE(prog_gate);
