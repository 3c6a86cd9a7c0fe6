/*
 * selftest.*: the harness proving itself. Only an explicit tests=selftest.*
 * runs these: they pass, fail, skip and fault on purpose, and the boot check
 * (tests/hosttools/checks/boot.py) checks that each is reported as it
 * should be.
 */
#include "apic.h"
#include "exec.h"
#include "harness.h"
#include "hooks.h"
#include "interrupt_log.h"
#include "msr.h"
#include "rdpmc_check.h"
#include "ring.h"

#define SELFTEST_IPI_VECTOR 0xE0

enum {
	CASE_PASS,
	CASE_FAIL,
	CASE_SKIP,
	CASE_FAULT,
	CASE_FAULT_CPL3,
	CASE_RECOVERED,
	CASE_CAUGHT_ERROR_CODE,
	CASE_CAUGHT_HIGH_HALF,
	CASES,
};

static const char *const ids[CASES] = {
	[CASE_PASS] = "selftest.pass",
	[CASE_FAIL] = "selftest.fail",
	[CASE_SKIP] = "selftest.skip",
	[CASE_FAULT] = "selftest.fault",
	[CASE_FAULT_CPL3] = "selftest.fault.cpl3",
	[CASE_RECOVERED] = "selftest.recovered",
	[CASE_CAUGHT_ERROR_CODE] = "selftest.caught.error-code",
	[CASE_CAUGHT_HIGH_HALF] = "selftest.caught.high-half",
};

static const char *const descriptions[CASES] = {
	[CASE_PASS] = "a check that holds is reported ok",
	[CASE_FAIL] = "a check that does not hold is reported not ok, expected vs observed",
	[CASE_SKIP] = "a test that cannot run is reported with SKIP and the reason",
	[CASE_FAULT] = "an unexpected #UD at CPL 0 ends only this test, with the registers",
	[CASE_FAULT_CPL3] = "an unexpected #UD at CPL 3 ends only this test, with the registers",
	[CASE_RECOVERED] = "after the faults the harness still runs tests, at CPL 0 and CPL 3",
	[CASE_CAUGHT_ERROR_CODE] = "the RDPMC check rejects a fabricated #GP with error code 1",
	[CASE_CAUGHT_HIGH_HALF] = "the RDPMC check rejects a fabricated read with RDX[63:32] set",
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

/*
 * Feed the RDPMC check an outcome no conforming CPU produces, for ECX 0 at
 * CPL 3 with CR4.PCE = 0 (restricted: #GP(0) expected) or at CPL 0 (a read
 * expected): the check must report not ok (PRIV-1, MODE-1).
 */
static void fabricated(struct exec_outcome o, bool restricted)
{
	const struct rdpmc_case c = {
		{ MODE_LONG, restricted ? 3 : 0, false }, 0, SENTINEL_RAX,
		SENTINEL_RDX,
	};
	struct rdpmc_expect e;
	struct strbuf deviation;
	char text[256];

	model_rdpmc(check_pmu(), &c.state, c.rcx, &e, 0);
	if (!restricted && e.verdict != VERDICT_READ) {
		test_skip("the model expects no read of ECX 0 at CPL 0 on this CPU");
		return;
	}
	strbuf_init(&deviation, text, sizeof(text));
	if (rdpmc_conforms(&c, &e, &o, &deviation))
		test_note("the fabricated outcome was accepted: the check cannot fail");
	else
		report_rdpmc_mismatch(&c, &o, text);
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
	case CASE_CAUGHT_ERROR_CODE:
		fabricated((struct exec_outcome){
				   .faulted = true, .vector = 13, .error_code = 1,
				   .fault_rip = 0x1000, .insn_rip = 0x1000,
				   .rax = SENTINEL_RAX, .rdx = SENTINEL_RDX },
			   true);
		break;
	case CASE_CAUGHT_HIGH_HALF:
		fabricated((struct exec_outcome){
				   .rax = 0x1234, .rdx = 0x100000000ull },
			   false);
		break;
	}
}

static const struct suite selftest = { SUITE_EXPLICIT, CASES, describe, run };
REGISTER_SUITE(selftest);

/*
 * selftest.hang: never returns, interrupts off, so that the host runner's
 * timeout (naming the test that was running) can be tested for real. It
 * runs only when tests= names it exactly (SUITE_EXACT): tests=selftest.*
 * leaves it out.
 */
SINGLE_TEST(hang, SUITE_EXPLICIT | SUITE_EXACT, "selftest.hang", "HARNESS",
	    "spins forever with interrupts off: the runner must time out")
{
	(void)i;
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* The probe selftest.interrupt installs: RDMSR in the handler, as the
 * pmi.status check reads the overflow status there (PMI-5). */

static uint64_t read_apic_base(void)
{
	struct exec_outcome o;

	exec_rdmsr(MSR_IA32_APIC_BASE, &o);
	return o.faulted ? ~0ull : edx_eax(&o);
}

/* The fail hook of selftest.fault.in-report: faults itself. */
static void fail_by_faulting(const char *fmt, ...)
{
	(void)fmt;
	__asm__ volatile("ud2");
}

/*
 * selftest.fault.in-report: an unexpected #UD whose report faults in turn
 * (the fail hook is swapped for one that executes UD2). The run must end
 * at once with one Bail out! naming the second fault and status 2, not
 * report the report's fault forever. Only tests= naming it exactly runs it.
 */
SINGLE_TEST(fault_in_report, SUITE_EXPLICIT | SUITE_EXACT,
	    "selftest.fault.in-report", "HARNESS",
	    "a fault while a fault is reported ends the run at once, status 2")
{
	static struct arch_hooks faulting;

	(void)i;
	faulting = *arch_hooks;
	faulting.fail = fail_by_faulting;
	arch_install_hooks(&faulting);
	__asm__ volatile("ud2");
}

/* The interrupt path a PMI takes (arch/apic.h, the interrupt hook): a self
 * IPI at the vector the pmi.* tests program into the LVT arrives once, and
 * the log's probe runs in its handler once. */
SINGLE_TEST(interrupt, SUITE_EXPLICIT, "selftest.interrupt", "HARNESS",
	    "a self IPI through the local APIC reaches the interrupt hook once, and its probe")
{
	char text[120];
	struct strbuf why;
	unsigned taken, sampled;
	uint64_t seen[INTERRUPT_LOG_SAMPLES];

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	if (!apic_available(&why)) {
		test_skip("%s", text);
		return;
	}
	interrupt_log_clear();
	interrupt_log_set_probe(read_apic_base);
	apic_self_ipi(SELFTEST_IPI_VECTOR);
	interrupt_window();
	taken = interrupt_log_count(SELFTEST_IPI_VECTOR);
	sampled = interrupt_log_samples(seen, INTERRUPT_LOG_SAMPLES);
	if (taken != 1 || interrupt_log_total() != 1)
		test_fail("expected 1 interrupt at vector 0x%x, observed %u (%u at any vector)",
			  SELFTEST_IPI_VECTOR, taken, interrupt_log_total());
	else if (sampled != 1 || seen[0] != read_apic_base())
		test_fail("the probe ran %u times in the handler; expected once, reading IA32_APIC_BASE = 0x%llx (it read 0x%llx)",
			  sampled, (unsigned long long)read_apic_base(),
			  (unsigned long long)(sampled ? seen[0] : 0));
	interrupt_log_clear();	/* this test's own, and the probe */
}
