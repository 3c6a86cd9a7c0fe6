/*
 * prog.filter.cpl<N>: USR/OS filtering of a general-purpose counter of
 * instructions retired (PROG-2): at CPL 0 only OS counts the known loop, at
 * CPL 1, 2 and 3 only USR does.
 */
#include "harness.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define CPLS 4

static void describe(unsigned cpl, struct test_text *t)
{
	strbuf_printf(&t->id, "prog.filter.cpl%u", cpl);
	strbuf_puts(&t->statements, "PROG-1 PROG-2");
	strbuf_printf(&t->description, "the loop at CPL %u counts with %s only, not with %s only",
		      cpl, cpl ? "USR" : "OS", cpl ? "OS" : "USR");
}

static void run(unsigned cpl)
{
	struct prog_counter c;

	if (prog_take_counter(&c, false))
		prog_expect_rings(&c, cpl);
}

static const struct suite prog_filter = { 0, CPLS, describe, run };
REGISTER_SUITE(prog_filter);
