/*
 * msr.inuse.*: IA32_PERF_GLOBAL_INUSE (392H), version 4 and up, reports
 * which counters are programmed (MSR-4): bit x while IA32_PERFEVTSELx[7:0]
 * is not 0 (whatever EN says), bit 32 + i while field i of
 * IA32_FIXED_CTR_CTRL enables a ring, bit 63 (PMI_InUse) while an
 * interrupt enable is set. It is read-only: WRMSR raises #GP(0). The
 * selects are written with no ring enabled, so nothing counts.
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

#define INUSE_VERSION		4
#define INUSE_FIXED_NAMED	3	/* the SDM names FC0_InUse .. FC2_InUse */

enum { CASE_GP, CASE_FIXED, CASE_READ_ONLY, CASES };

static const struct {
	const char *id, *description;
} cases[CASES] = {
	[CASE_GP] = { "msr.inuse.gp",
		"bit x follows IA32_PERFEVTSELx[7:0] != 0, not EN; bit 63 follows INT" },
	[CASE_FIXED] = { "msr.inuse.fixed",
		"bit 32 + i follows the ring enables of fixed counter i; bit 63 its PMI bit" },
	[CASE_READ_ONLY] = { "msr.inuse.readonly",
		"WRMSR of IA32_PERF_GLOBAL_INUSE raises #GP(0) and changes nothing" },
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, "MSR-4");
	strbuf_puts(&t->description, cases[i].description);
}

static bool read_inuse(uint64_t *value)
{
	char text[120];
	struct strbuf why;

	strbuf_init(&why, text, sizeof(text));
	if (msr_read(MSR_IA32_PERF_GLOBAL_INUSE, value, &why))
		return true;
	test_fail("MSR-4: version %u defines IA32_PERF_GLOBAL_INUSE, but %s",
		  check_pmu()->version, text);
	return false;
}

/* After `msr` was written `value`: bit `bit` of INUSE must be `want`. */
static bool expect_bit(uint32_t msr, uint64_t value, uint64_t bit, bool want,
		       const char *field)
{
	char text[120];
	struct strbuf why;
	uint64_t inuse;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_write(msr, value, &why)) {
		test_fail("MSR-4: %s", text);
		return false;
	}
	if (!read_inuse(&inuse))
		return false;
	if (((inuse & bit) != 0) == want)
		return true;
	test_fail("MSR-4: with %XH = 0x%llx, IA32_PERF_GLOBAL_INUSE reads 0x%llx: %s 0x%llx should be %s (%s)",
		  msr, (unsigned long long)value, (unsigned long long)inuse,
		  bit == INUSE_PMI ? "PMI_InUse" : "bit", (unsigned long long)bit,
		  want ? "set" : "clear", field);
	return false;
}

/* Every GP counter the count enumerates (the SDM: n < CPUID.0AH:EAX[15:8]). */
static void check_gp(const struct pmu_info *pmu)
{
	unsigned n = 0;

	for (unsigned x = 0; x < pmu->gp_count && x < 32; x++) {
		uint32_t msr = MSR_IA32_PERFEVTSEL0 + x;
		bool ok = expect_bit(msr, 0, INUSE_GP(x), false, "event select 0") &&
			  expect_bit(msr, EVTSEL_EN, INUSE_GP(x), false,
				     "EN alone, event select 0") &&
			  expect_bit(msr, EVTSEL_EVENT(0xC0), INUSE_GP(x), true,
				     "event C0H, EN clear") &&
			  expect_bit(msr, EVTSEL_INT, INUSE_PMI, true, "INT set");
		char text[120];
		struct strbuf why;

		strbuf_init(&why, text, sizeof(text));
		msr_write(msr, 0, &why);
		if (!ok)
			return;
		n++;
	}
	test_note("IA32_PERF_GLOBAL_INUSE followed %u event selects", n);
}

/* Fixed counters 0-2, those the SDM names, where enumerated. */
static void check_fixed(const struct pmu_info *pmu)
{
	char text[120];
	struct strbuf why;
	uint64_t saved;
	unsigned n = 0;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_read(MSR_IA32_FIXED_CTR_CTRL, &saved, &why)) {
		test_fail("MSR-4: %s", text);
		return;
	}
	for (unsigned i = 0; i < INUSE_FIXED_NAMED; i++) {
		uint64_t others = saved & ~FIXED_CTRL_FIELD(i);

		if (!(pmu->fixed_valid & (1u << i)))
			continue;
		if (!expect_bit(MSR_IA32_FIXED_CTR_CTRL, others, INUSE_FIXED(i),
				false, "field clear") ||
		    !expect_bit(MSR_IA32_FIXED_CTR_CTRL, others | FIXED_CTRL_OS(i),
				INUSE_FIXED(i), true, "OS enable") ||
		    !expect_bit(MSR_IA32_FIXED_CTR_CTRL, others | FIXED_CTRL_USR(i),
				INUSE_FIXED(i), true, "USR enable") ||
		    !expect_bit(MSR_IA32_FIXED_CTR_CTRL, others | FIXED_CTRL_PMI(i),
				INUSE_FIXED(i), false, "PMI bit alone") ||
		    !expect_bit(MSR_IA32_FIXED_CTR_CTRL, others | FIXED_CTRL_PMI(i),
				INUSE_PMI, true, "PMI bit set"))
			break;
		n++;
	}
	msr_write(MSR_IA32_FIXED_CTR_CTRL, saved, &why);
	if (!test_has_failed())
		test_note("IA32_PERF_GLOBAL_INUSE followed %u fixed counters", n);
}

static void check_read_only(void)
{
	struct exec_outcome o;
	uint64_t before, after;

	if (!read_inuse(&before))
		return;
	exec_wrmsr(MSR_IA32_PERF_GLOBAL_INUSE, before, &o);
	if (!o.faulted || o.vector != 13 || o.error_code != 0)
		test_fail("MSR-4: WRMSR(392H, 0x%llx), the value it reads, %s; IA32_PERF_GLOBAL_INUSE is read-only: expected #GP(0)",
			  (unsigned long long)before,
			  o.faulted ? "raised another fault" : "completed");
	else if (read_inuse(&after) && after != before)
		test_fail("MSR-4: IA32_PERF_GLOBAL_INUSE reads 0x%llx after the write, 0x%llx before",
			  (unsigned long long)after, (unsigned long long)before);
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	struct prog_counter c;

	if (pmu->vendor != VENDOR_INTEL)
		test_skip("IA32_PERF_GLOBAL_INUSE is Intel's");
	else if (pmu->version < INUSE_VERSION)
		test_skip("version %u: IA32_PERF_GLOBAL_INUSE comes with version 4 (msr.absent.global checks its #GP)",
			  pmu->version);
	/* The controls INUSE follows must take writes first. */
	else if (i != CASE_READ_ONLY && !prog_take_counter(&c, i == CASE_FIXED))
		return;
	else if (i == CASE_GP)
		check_gp(pmu);
	else if (i == CASE_FIXED)
		check_fixed(pmu);
	else
		check_read_only();
}

static const struct suite msr_inuse = { 0, CASES, describe, run };
REGISTER_SUITE(msr_inuse);
