/*
 * prog.evtsel.*: the event select of general-purpose counter 0, bit by bit.
 * Every defined field reads back as written (PROG-10, AMD-4); on Intel a
 * reserved bit raises #GP(0) and leaves the select as it was (PROG-10),
 * and AnyThread is taken where version 3 defines it, reserved before, and
 * either where CPUID.0AH:EDX[15] deprecates it (PROG-11). The select is
 * written with EN clear except for EN's own bit, so nothing counts.
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "platform.h"
#include "msr.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

#define ANYTHREAD_DEPRECATED	(1u << 15)	/* CPUID.0AH:EDX */

enum { CASE_BITS, CASE_RESERVED, CASE_ANYTHREAD, CASES };

static const struct {
	const char *id, *statements, *description;
} cases[CASES] = {
	[CASE_BITS] = { "prog.evtsel.bits", "PROG-10 AMD-4 PROG-1",
		"every defined bit of the event select reads back as written" },
	[CASE_RESERVED] = { "prog.evtsel.reserved", "PROG-10 MSR-2",
		"Intel: a reserved bit of IA32_PERFEVTSEL0 raises #GP(0) and changes nothing" },
	[CASE_ANYTHREAD] = { "prog.evtsel.anythread", "PROG-11",
		"AnyThread (bit 21): taken from version 3, #GP(0) before, either once deprecated" },
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

/* The defined bits of the select, each written alone (PROG-10, AMD-4):
 * bit 19 (PC) is model-specific, AnyThread has its own case. */
static uint64_t defined_bits(const struct pmu_info *pmu)
{
	uint64_t bits = 0xFFFFFFFFull & ~(EVTSEL_PC | EVTSEL_ANY);

	if (pmu->vendor == VENDOR_AMD)
		bits |= AMD_EVTSEL_EVENT_HIGH(0xF00) | AMD_EVTSEL_GUEST_ONLY |
			AMD_EVTSEL_HOST_ONLY;
	return bits;
}

/* Writes value; false (the test failed) if the WRMSR faulted. */
static bool write_select(const struct prog_counter *c, uint64_t value,
			 uint64_t *read)
{
	char text[120];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_write(c->control_msr, value, &why) ||
	    !msr_read(c->control_msr, read, &why)) {
		test_fail("%s", text);
		return false;
	}
	return true;
}

static void check_bits(const struct prog_counter *c)
{
	uint64_t bits = defined_bits(check_pmu()), read;
	unsigned n = 0;

	for (unsigned b = 0; b < 64; b++) {
		uint64_t value = 1ull << b;

		if (!(bits & value))
			continue;
		if (!write_select(c, value, &read))
			return;
		n++;
		if (read != value)
			test_fail("%s: bit %u written alone (0x%llx) reads back as 0x%llx",
				  c->control_name, b, (unsigned long long)value,
				  (unsigned long long)read);
	}
	if (write_select(c, bits & ~EVTSEL_EN, &read) && read != (bits & ~EVTSEL_EN))
		test_fail("%s: every defined bit but EN (0x%llx) reads back as 0x%llx",
			  c->control_name, (unsigned long long)(bits & ~EVTSEL_EN),
			  (unsigned long long)read);
	if (!test_has_failed())
		test_note("%s: %u defined bits read back, alone and together",
			  c->control_name, n);
}

/* WRMSR(value) must raise #GP(0) and leave the select at `before`. */
static void expect_gp(const struct prog_counter *c, uint64_t before,
		      uint64_t bit, const char *statement, const char *what)
{
	char text[120];
	struct strbuf why;
	struct exec_outcome o;
	uint64_t after;

	strbuf_init(&why, text, sizeof(text));
	exec_wrmsr(c->control_msr, before | bit, &o);
	if (!o.faulted || o.vector != 13 || o.error_code != 0)
		test_fail("%s: WRMSR(%XH, 0x%llx) sets %s of %s and %s; expected #GP(0)",
			  statement, c->control_msr,
			  (unsigned long long)(before | bit), what,
			  c->control_name,
			  o.faulted ? "raised another fault" : "completed");
	if (msr_read(c->control_msr, &after, &why) && after != before)
		test_fail("%s: %s reads 0x%llx after the write, 0x%llx before",
			  statement, c->control_name, (unsigned long long)after,
			  (unsigned long long)before);
}

/* Bits 63:34 are reserved (PROG-10), but where CPUID.23H enumerates
 * extensions (EQ, UMASK2 at 47:36) pmctest does not read which. */
static void check_reserved(const struct prog_counter *c)
{
	static const unsigned always[] = { 48, 63 }, without_leaf23[] = { 34, 35 };

	for (unsigned k = 0; k < 2; k++)
		expect_gp(c, c->control_off, 1ull << always[k], "PROG-10", "a reserved bit");
	for (unsigned k = 0; k < 2 && !check_pmu()->has_leaf23; k++)
		expect_gp(c, c->control_off, 1ull << without_leaf23[k], "PROG-10",
			  "a reserved bit");
}

static void check_anythread(const struct prog_counter *c)
{
	const struct pmu_info *pmu = check_pmu();
	bool deprecated =
		(platform_enumeration()->leaf0a_edx & ANYTHREAD_DEPRECATED) != 0;
	uint64_t value = c->control_off | EVTSEL_ANY, read;
	struct exec_outcome o;

	if (pmu->version < 3) {
		expect_gp(c, c->control_off, EVTSEL_ANY, "PROG-11",
			  "AnyThread, which version 3 introduces,");
		return;
	}
	if (!deprecated) {
		if (write_select(c, value, &read) && read != value)
			test_fail("PROG-11: %s with AnyThread (0x%llx, version %u, CPUID.0AH:EDX[15] = 0) reads back as 0x%llx",
				  c->control_name, (unsigned long long)value,
				  pmu->version, (unsigned long long)read);
		return;
	}
	exec_wrmsr(c->control_msr, value, &o);
	if (o.faulted && (o.vector != 13 || o.error_code != 0))
		test_fail("PROG-11: WRMSR(%XH, 0x%llx) with AnyThread deprecated raised vector %u; expected completion or #GP(0)",
			  c->control_msr, (unsigned long long)value, o.vector);
	else
		test_note("AnyThread deprecated (CPUID.0AH:EDX[15] = 1): the write %s",
			  o.faulted ? "raised #GP(0)" : "completed");
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	char text[120];
	struct strbuf why;
	struct prog_counter c;

	strbuf_init(&why, text, sizeof(text));
	if (i != CASE_BITS && pmu->vendor != VENDOR_INTEL) {
		test_skip("IA32_PERFEVTSELx is Intel's; AMD's reserved bits raise no #GP and AnyThread is not defined (AMD-4)");
		return;
	}
	if (!prog_take_counter(&c, false))
		return;
	if (i == CASE_BITS)
		check_bits(&c);
	else if (i == CASE_RESERVED)
		check_reserved(&c);
	else
		check_anythread(&c);
	msr_write(c.control_msr, c.control_off, &why);
}

static const struct suite prog_evtsel = { 0, CASES, describe, run };
REGISTER_SUITE(prog_evtsel);
