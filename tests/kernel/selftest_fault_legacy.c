/*
 * selftest.fault.real, selftest.fault.v86: an exception the trampoline did
 * not expect, in real-address mode and in virtual-8086 mode, comes back to
 * the long-mode harness as this test failing with the vector and the mode
 * (arch/legacy.h), and the run goes on: never a triple fault or a reboot.
 * Like selftest.c, only an explicit tests=selftest.* runs them.
 */
#include "harness.h"
#include "legacy.h"

static const struct {
	const char *id;
	enum cpu_mode mode;
	unsigned cpl;
	const char *description;
} cases[] = {
	{ "selftest.fault.real", MODE_REAL, 0,
	  "an unexpected #UD in real-address mode ends only this test, naming vector and mode" },
	{ "selftest.fault.v86", MODE_V86, 3,
	  "an unexpected #UD in virtual-8086 mode ends only this test, naming vector and mode" },
};

#define CASES (sizeof(cases) / sizeof(cases[0]))

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, "HARNESS");
	strbuf_puts(&t->description, cases[i].description);
}

static void run(unsigned i)
{
	struct legacy_outcome o;

	legacy_run(cases[i].mode, cases[i].cpl, LEGACY_BODY_FAULT, 0, 0, 0, &o);
	test_fail("still running after the deliberate #UD in %s mode",
		  cpu_mode_name(cases[i].mode));
}

static const struct suite selftest_fault_legacy = {
	SUITE_EXPLICIT, CASES, describe, run,
};
REGISTER_SUITE(selftest_fault_legacy);
