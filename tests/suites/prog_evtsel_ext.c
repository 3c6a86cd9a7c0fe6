/*
 * prog.evtsel.tsx, prog.evtsel.ext: the bits of IA32_PERFEVTSELx above 31
 * that the enumeration defines. IN_TX (32) exists where CPUID.07H:EBX
 * enumerates HLE or RTM, IN_TXCP (33) there too but in IA32_PERFEVTSEL2
 * alone (PROG-12); EQ (36) and UMASK2 (47:40) where CPUID.23H.00H:EBX
 * enumerates them (PROG-13). A defined bit reads back as written; one the
 * enumeration does not define is reserved: WRMSR raises #GP(0) and leaves
 * the select as it was. Every select is written with EN clear and no ring
 * enabled, so nothing counts.
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

#define IN_TXCP_SELECT	2	/* SDM: IN_TXCP "may only be set for IA32_PERFEVTSEL2" */

enum { CASE_TSX, CASE_EXT, CASES };

static const struct {
	const char *id, *statements, *description;
} cases[CASES] = {
	[CASE_TSX] = { "prog.evtsel.tsx", "PROG-12 PROG-10",
		"IN_TX, IN_TXCP: taken where CPUID enumerates HLE or RTM (IN_TXCP in IA32_PERFEVTSEL2 alone), #GP(0) elsewhere" },
	[CASE_EXT] = { "prog.evtsel.ext", "PROG-13 PROG-10",
		"EQ (bit 36), UMASK2 (bits 47:40): taken where CPUID.23H.00H:EBX enumerates them, #GP(0) elsewhere" },
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

/* One write of event select x and what it must do: read back, or #GP(0)
 * and leave the select at its value before. */
static void expect_write(unsigned x, uint64_t value, bool defined,
			 const char *statement, const char *what)
{
	uint32_t msr = MSR_IA32_PERFEVTSEL0 + x;
	char text[120];
	struct strbuf why;
	struct exec_outcome o;
	uint64_t before, after;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_write(msr, 0, &why) || !msr_read(msr, &before, &why)) {
		test_fail("%s: IA32_PERFEVTSEL%u: %s", statement, x, text);
		return;
	}
	exec_wrmsr(msr, value, &o);
	if (!msr_read(msr, &after, &why)) {
		test_fail("%s: IA32_PERFEVTSEL%u: %s", statement, x, text);
		return;
	}
	if (defined && o.faulted)
		test_fail("%s: WRMSR(%XH, 0x%llx) sets %s and raised vector %u; the enumeration defines it: expected the write to complete",
			  statement, msr, (unsigned long long)value, what, o.vector);
	else if (defined && after != value)
		test_fail("%s: IA32_PERFEVTSEL%u written 0x%llx (%s) reads back as 0x%llx",
			  statement, x, (unsigned long long)value, what,
			  (unsigned long long)after);
	else if (!defined && (!o.faulted || o.vector != 13 || o.error_code != 0))
		test_fail("%s: WRMSR(%XH, 0x%llx) sets %s, reserved here, and %s; expected #GP(0)",
			  statement, msr, (unsigned long long)value, what,
			  o.faulted ? "raised another fault" : "completed");
	else if (!defined && after != before)
		test_fail("%s: IA32_PERFEVTSEL%u reads 0x%llx after the refused write, 0x%llx before",
			  statement, x, (unsigned long long)after,
			  (unsigned long long)before);
	msr_write(msr, 0, &why);
}

/* PROG-12 on every valid select: IN_TX alone, IN_TXCP alone. */
static void check_tsx(const struct pmu_info *pmu)
{
	unsigned selects = 0;

	for (unsigned x = 0; x < 32; x++) {
		if (!(pmu->gp_valid & (1u << x)))
			continue;
		selects++;
		expect_write(x, EVTSEL_IN_TX, pmu->tsx, "PROG-12", "IN_TX (bit 32)");
		expect_write(x, EVTSEL_IN_TXCP, pmu->tsx && x == IN_TXCP_SELECT,
			     "PROG-12", x == IN_TXCP_SELECT
			     ? "IN_TXCP (bit 33)"
			     : "IN_TXCP (bit 33), which IA32_PERFEVTSEL2 alone has,");
	}
	if (!test_has_failed())
		test_note("TSX %s: IN_TX and IN_TXCP as PROG-12 says in %u event selects",
			  pmu->tsx ? "enumerated" : "not enumerated", selects);
}

/* PROG-13 on select 0: EQ, each bit of UMASK2 alone, UMASK2 whole. */
static void check_ext(const struct pmu_info *pmu)
{
	expect_write(0, EVTSEL_EQ, pmu->evtsel_eq, "PROG-13", "EQ (bit 36)");
	for (unsigned b = 40; b < 48; b++)
		expect_write(0, 1ull << b, pmu->evtsel_umask2, "PROG-13",
			     "a bit of UMASK2 (47:40)");
	expect_write(0, EVTSEL_UMASK2 | EVTSEL_UMASK(0xFF) | EVTSEL_EVENT(0xC0),
		     pmu->evtsel_umask2, "PROG-13",
		     "UMASK2 with the unit mask and event");
	if (!test_has_failed())
		test_note("CPUID.23H.00H:EBX = 0x%x: EQ %s, UMASK2 %s",
			  platform_enumeration()->leaf23_0_ebx,
			  pmu->evtsel_eq ? "taken" : "reserved",
			  pmu->evtsel_umask2 ? "taken" : "reserved");
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	struct prog_counter c;

	if (pmu->vendor != VENDOR_INTEL) {
		test_skip("IA32_PERFEVTSELx is Intel's; AMD's bits 35:32 are EventSelect[11:8] (AMD-4)");
		return;
	}
	if (i == CASE_TSX && pmu->tsx_may_be_hidden) {
		test_skip("CPUID enumerates neither HLE nor RTM, but IA32_TSX_CTRL or TSX_FORCE_ABORT exists and may have cleared them: IN_TX and IN_TXCP may be taken or refused");
		return;
	}
	if (!prog_take_counter(&c, false))
		return;
	if (i == CASE_TSX)
		check_tsx(pmu);
	else
		check_ext(pmu);
}

static const struct suite prog_evtsel_ext = { 0, CASES, describe, run };
REGISTER_SUITE(prog_evtsel_ext);
