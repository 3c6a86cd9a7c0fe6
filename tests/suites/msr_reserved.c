/*
 * msr.reserved.*: a WRMSR that sets a reserved bit raises #GP(0) and
 * leaves the MSR as it was (MSR-2): the IA32_PERF_GLOBAL_CTRL bits and the
 * IA32_FIXED_CTR_CTRL field of counters CPUID does not enumerate. AMD's
 * PerfCntrGlobalCtl bits past the core counters are reserved and read as
 * zero instead: a WRMSR that sets one completes, takes the enables it
 * writes, and the bit reads 0.
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "rdpmc_check.h"
#include "vectors.h"

enum { CASE_GLOBAL_CTRL, CASE_FIXED_CTRL, CASE_AMD_GLOBAL_CTL, CASES };

static const char *const ids[CASES] = {
	[CASE_GLOBAL_CTRL] = "msr.reserved.globalctrl",
	[CASE_FIXED_CTRL] = "msr.reserved.fixedctrl",
	[CASE_AMD_GLOBAL_CTL] = "msr.reserved.amd-globalctl",
};

static const char *const descriptions[CASES] = {
	[CASE_GLOBAL_CTRL] = "IA32_PERF_GLOBAL_CTRL: the enable bit of a GP and of a fixed counter not enumerated",
	[CASE_FIXED_CTRL] = "IA32_FIXED_CTR_CTRL: the OS enable of a fixed counter not enumerated",
	[CASE_AMD_GLOBAL_CTL] = "PerfCntrGlobalCtl: the enable bit past the core counters, reserved and read as zero",
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, ids[i]);
	strbuf_puts(&t->statements, i == CASE_AMD_GLOBAL_CTL ? "MSR-2 MSR-1 AMD-2"
							      : "MSR-2 MSR-1 ARCH-2 ARCH-3");
	strbuf_puts(&t->description, descriptions[i]);
}

static int first_clear(uint32_t valid, unsigned limit)
{
	for (unsigned x = 0; x < limit; x++)
		if (!(valid & (1u << x)))
			return (int)x;
	return -1;
}

/* WRMSR(msr, before | bit) must raise #GP(0) and change nothing. False
 * if the MSR itself, which the enumeration says exists, faults. */
static bool expect_reserved(uint32_t msr, const char *name, uint64_t bit,
			    const char *what)
{
	char text[100];
	struct strbuf why;
	struct exec_outcome o;
	uint64_t before, after;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_read(msr, &before, &why)) {
		test_fail("MSR-1: %s exists by the enumeration, but %s", name, text);
		return false;
	}
	exec_wrmsr(msr, before | bit, &o);
	if (!o.faulted || o.vector != 13 || o.error_code != 0)
		test_fail("MSR-2: WRMSR(%XH, 0x%llx) sets bit 0x%llx of %s (%s) and %s; expected #GP(0)",
			  msr, (unsigned long long)(before | bit),
			  (unsigned long long)bit, name, what,
			  o.faulted ? "raised another fault" : "completed");
	if (msr_read(msr, &after, &why) && after != before)
		test_fail("MSR-2: %s reads 0x%llx after the write, 0x%llx before",
			  name, (unsigned long long)after,
			  (unsigned long long)before);
	if (!o.faulted)		/* put it back */
		msr_write(msr, before, &why);
	return true;
}

/* MSR-2, AMD: WRMSR(msr, (before ^ flip) | bit), bit reserved and RAZ,
 * must complete and leave the MSR at before ^ flip: the enables written,
 * the reserved bit 0. */
static void expect_raz(uint32_t msr, const char *name, uint64_t bit,
		       uint64_t flip, const char *what)
{
	char text[100];
	struct strbuf why;
	struct exec_outcome o;
	uint64_t before, written, after;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_read(msr, &before, &why)) {
		test_fail("MSR-1: %s exists by the enumeration, but %s", name, text);
		return;
	}
	written = (before ^ flip) | bit;
	exec_wrmsr(msr, written, &o);
	if (o.faulted) {
		test_fail("MSR-2: WRMSR(%XH, 0x%llx) sets bit 0x%llx of %s (%s, reserved and read as zero) and raised %s(0x%x) (vector %u); expected it to complete (WRMSR raises #GP(0) for a bit that must be zero alone)",
			  msr, (unsigned long long)written,
			  (unsigned long long)bit, name, what,
			  vector_name(o.vector), o.error_code, o.vector);
		return;
	}
	if (msr_read(msr, &after, &why) && after != (before ^ flip))
		test_fail("MSR-2: after WRMSR(%XH, 0x%llx) %s reads 0x%llx; expected 0x%llx: the enables written and bit 0x%llx (%s) read as zero",
			  msr, (unsigned long long)written, name,
			  (unsigned long long)after,
			  (unsigned long long)(before ^ flip),
			  (unsigned long long)bit, what);
	msr_write(msr, before, &why);	/* put it back */
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	bool intel2 = pmu->vendor == VENDOR_INTEL && pmu->version >= 2;
	int gp = first_clear(pmu->gp_valid, 32);
	int fixed = first_clear(pmu->fixed_valid, FIXED_CTRL_FIELDS);

	if (i == CASE_AMD_GLOBAL_CTL) {
		if (pmu->vendor != VENDOR_AMD || !pmu->amd_perfmon_v2)
			test_skip("for AMD with PerfMonV2 (CPUID 8000_0022H:EAX[0] = 1) only");
		else
			expect_raz(MSR_AMD_PERF_GLOBAL_CTL, "PerfCntrGlobalCtl",
				   1ull << pmu->amd_core_count, 1,
				   "the first index past the core counters");
		return;
	}
	if (!intel2) {
		test_skip("for Intel version 2 and up only: CPUID.0AH:EAX[7:0] = %u",
			  pmu->version);
		return;
	}
	if (i == CASE_FIXED_CTRL) {
		if (fixed < 0)
			test_skip("fixed counters 0-15 are all enumerated");
		else
			expect_reserved(MSR_IA32_FIXED_CTR_CTRL, "IA32_FIXED_CTR_CTRL",
					FIXED_CTRL_OS(fixed), "OS of a fixed counter not enumerated");
		return;
	}
	if (gp < 0 && fixed < 0) {
		test_skip("every GP index 0-31 and fixed index 0-15 is enumerated");
		return;
	}
	if (gp >= 0 &&
	    !expect_reserved(MSR_IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL",
			     GLOBAL_CTRL_GP(gp), "a GP counter not enumerated"))
		return;
	if (fixed >= 0)
		expect_reserved(MSR_IA32_PERF_GLOBAL_CTRL, "IA32_PERF_GLOBAL_CTRL",
				GLOBAL_CTRL_FIXED(fixed), "a fixed counter not enumerated");
}

static const struct suite msr_reserved = { 0, CASES, describe, run };
REGISTER_SUITE(msr_reserved);
