/*
 * selftest.*: the harness proving itself. Only an explicit tests=selftest.*
 * runs these: they pass, fail, skip and fault on purpose, and the host test
 * (tests/host/boot_test.py) checks that each is reported as it should be.
 */
#include "exec.h"
#include "harness.h"
#include "ring.h"

enum {
	CASE_PASS,
	CASE_FAIL,
	CASE_SKIP,
	CASE_FAULT,
	CASE_FAULT_CPL3,
	CASE_RECOVERED,
	CASES,
};

static const char *const ids[CASES] = {
	[CASE_PASS] = "selftest.pass",
	[CASE_FAIL] = "selftest.fail",
	[CASE_SKIP] = "selftest.skip",
	[CASE_FAULT] = "selftest.fault",
	[CASE_FAULT_CPL3] = "selftest.fault.cpl3",
	[CASE_RECOVERED] = "selftest.recovered",
};

static const char *const descriptions[CASES] = {
	[CASE_PASS] = "a check that holds is reported ok",
	[CASE_FAIL] = "a check that does not hold is reported not ok, expected vs observed",
	[CASE_SKIP] = "a test that cannot run is reported with SKIP and the reason",
	[CASE_FAULT] = "an unexpected #UD at CPL 0 ends only this test, with the registers",
	[CASE_FAULT_CPL3] = "an unexpected #UD at CPL 3 ends only this test, with the registers",
	[CASE_RECOVERED] = "after the faults the harness still runs tests, at CPL 0 and CPL 3",
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, ids[i]);
	strbuf_puts(&t->statements, "HARNESS");
	strbuf_puts(&t->description, descriptions[i]);
}

static void undefined_instruction(void *unused)
{
	(void)unused;
	__asm__ volatile("ud2");
}

/* The exception table lets a restricted RDPMC at CPL 3 come back as a
 * value; if that works after two abandoned tests, the harness recovered. */
static void recovered(void)
{
	const struct exec_state cpl3 = { MODE_LONG, 3, false };
	struct exec_outcome o;

	exec_rdpmc(&cpl3, 0, 0, 0, &o);
	if (!o.faulted)
		test_fail("expected a captured fault from RDPMC at CPL 3 with CR4.PCE = 0, observed a read");
}

static void run(unsigned i)
{
	switch (i) {
	case CASE_PASS:
		test_note("expected 1, observed 1");
		break;
	case CASE_FAIL:
		test_fail("expected 1, observed 2 (deliberate)");
		break;
	case CASE_SKIP:
		test_skip("deliberate skip");
		break;
	case CASE_FAULT:
		undefined_instruction(0);
		test_fail("still running after the deliberate #UD");
		break;
	case CASE_FAULT_CPL3:
		ring_run64(3, undefined_instruction, 0);
		test_fail("still running after the deliberate #UD at CPL 3");
		break;
	case CASE_RECOVERED:
		recovered();
		break;
	}
}

static const struct suite selftest = { SUITE_EXPLICIT, CASES, describe, run };
REGISTER_SUITE(selftest);
