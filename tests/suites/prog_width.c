/*
 * prog.width.*: how a write to a stopped counter lands (PROG-5, WR-1). A
 * plain WRMSR to IA32_PMCx sign-extends from bit 31; a write through
 * IA32_A_PMCx, which exists only where IA32_PERF_CAPABILITIES.FW_WRITE = 1,
 * is taken at full width, and so is a write to IA32_FIXED_CTRx. AMD
 * PerfCtr writes are 48 bits wide, no sign extension (AMD-3).
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

enum { CASE_PLAIN, CASE_FULL_WIDTH, CASE_FIXED, CASE_BEYOND_FULL_WIDTH,
       CASE_BEYOND_FIXED, CASES };

static const struct {
	const char *id, *statements, *description;
} cases[CASES] = {
	[CASE_PLAIN] = { "prog.width.plain", "PROG-5 AMD-3",
		"a plain WRMSR of a counter sign-extends from bit 31 (AMD: 48 bits as written)" },
	[CASE_FULL_WIDTH] = { "prog.width.fullwidth", "PROG-5",
		"a WRMSR of IA32_A_PMC0 sets the full counter width (FW_WRITE)" },
	[CASE_FIXED] = { "prog.width.fixed", "WR-1",
		"a WRMSR of IA32_FIXED_CTR0 sets the full counter width, no sign extension" },
	[CASE_BEYOND_FULL_WIDTH] = { "prog.width.beyond.fullwidth", "WR-3 PROG-5",
		"a WRMSR of IA32_A_PMC0 with a bit at or above the width raises #GP(0)" },
	[CASE_BEYOND_FIXED] = { "prog.width.beyond.fixed", "WR-3 WR-1",
		"a WRMSR of IA32_FIXED_CTR0 with a bit at or above the width raises #GP(0)" },
};

static void describe(unsigned i, struct test_text *t)
{
	strbuf_puts(&t->id, cases[i].id);
	strbuf_puts(&t->statements, cases[i].statements);
	strbuf_puts(&t->description, cases[i].description);
}

/* Writes value to msr, reads c's count MSR, compares with expect. */
static void expect_readback(const struct prog_counter *c, uint32_t msr,
			    const char *msr_name, uint64_t value, uint64_t expect)
{
	char text[120];
	struct strbuf why;
	uint64_t held = 0;

	strbuf_init(&why, text, sizeof(text));
	if (!msr_write(msr, value, &why) || !msr_read(c->count_msr, &held, &why))
		test_fail("%s", text);
	else if (held != expect)
		test_fail("%s = 0x%llx read back from %s as 0x%llx; expected 0x%llx (width %u)",
			  msr_name, (unsigned long long)value, c->name,
			  (unsigned long long)held, (unsigned long long)expect,
			  c->width);
	else
		test_note("%s = 0x%llx reads back as 0x%llx", msr_name,
			  (unsigned long long)value, (unsigned long long)held);
}

static bool full_width_available(const struct pmu_info *pmu, struct strbuf *why)
{
	if (pmu->vendor != VENDOR_INTEL)
		strbuf_puts(why, "IA32_A_PMCx is Intel's; AMD PerfCtr writes are full width anyway");
	else if (!pmu->has_perf_capabilities)
		strbuf_puts(why, "IA32_PERF_CAPABILITIES is not readable: CPUID.01H:ECX.PDCM (bit 15) = 0");
	else if (!pmu->fw_write)
		strbuf_puts(why, "IA32_PERF_CAPABILITIES.FW_WRITE (bit 13) = 0: no IA32_A_PMCx");
	else
		return true;
	return false;
}

/* WR-3: bit `width` set is reserved: #GP(0), and the count stays. */
static void expect_beyond(const struct prog_counter *c, uint32_t msr,
			  const char *msr_name)
{
	char text[120];
	struct strbuf why;
	struct exec_outcome o;
	uint64_t value = 1ull << c->width | 0x1234, held = 0;

	strbuf_init(&why, text, sizeof(text));
	if (c->width >= 64 || !msr_write(msr, 0x5A5A, &why)) {
		test_fail("%s", c->width >= 64 ? "a 64-bit counter has no bit past its width" : text);
		return;
	}
	exec_wrmsr(msr, value, &o);
	if (!o.faulted || o.vector != 13 || o.error_code != 0)
		test_fail("WR-3: WRMSR(%XH, 0x%llx) sets bit %u of the %u-bit %s and %s; expected #GP(0)",
			  msr, (unsigned long long)value, c->width, c->width,
			  msr_name, o.faulted ? "raised another fault" : "completed");
	if (msr_read(c->count_msr, &held, &why) && held != 0x5A5A)
		test_fail("WR-3: %s reads 0x%llx after the write, 0x5a5a before",
			  c->name, (unsigned long long)held);
	msr_write(c->count_msr, 0, &why);
}

static void run(unsigned i)
{
	const struct pmu_info *pmu = check_pmu();
	uint64_t mask;
	char text[160];
	struct strbuf why;
	struct prog_counter c;

	strbuf_init(&why, text, sizeof(text));
	if (i == CASE_BEYOND_FIXED) {
		if (!prog_fixed_counter(pmu, 0, &c, &why))
			test_skip("%s", text);
		else if (prog_usable_or_skip(&c))
			expect_beyond(&c, c.count_msr, c.name);
		return;
	}
	if (i == CASE_BEYOND_FULL_WIDTH) {
		if (!prog_gp_counter(pmu, &prog_events[PROG_INSTRUCTIONS], 0, &c, &why) ||
		    !full_width_available(pmu, &why))
			test_skip("%s", text);
		else if (prog_usable_or_skip(&c))
			expect_beyond(&c, MSR_IA32_A_PMC0, "IA32_A_PMC0");
		return;
	}
	if (i == CASE_FIXED) {
		if (!prog_fixed_counter(pmu, 0, &c, &why)) {
			test_skip("%s", text);
			return;
		}
		if (!prog_usable_or_skip(&c))
			return;
		mask = width_mask(c.width);
		expect_readback(&c, c.count_msr, c.name, 0x80000000, 0x80000000);
		expect_readback(&c, c.count_msr, c.name, 0x0000800080001234ull & mask,
				0x0000800080001234ull & mask);
		msr_write(c.count_msr, 0, &why);
		return;
	}
	if (!prog_gp_counter(pmu, &prog_events[PROG_INSTRUCTIONS], 0, &c, &why) ||
	    (i == CASE_FULL_WIDTH && !full_width_available(pmu, &why))) {
		test_skip("%s", text);
		return;
	}
	if (!prog_usable_or_skip(&c))
		return;
	mask = width_mask(c.width);	/* tests/lib/counters.h */
	if (i == CASE_FULL_WIDTH) {
		uint64_t value = 0x00007FFF80001234ull & mask;

		expect_readback(&c, MSR_IA32_A_PMC0, "IA32_A_PMC0", value, value);
	} else if (pmu->vendor == VENDOR_AMD) {
		expect_readback(&c, c.count_msr, c.name, 0x0000800080000000ull,
				0x0000800080000000ull);
	} else {
		expect_readback(&c, c.count_msr, c.name, 0x80000000,
				0xFFFFFFFF80000000ull & mask);
		expect_readback(&c, c.count_msr, c.name, 0x7FFFFFFF, 0x7FFFFFFF);
	}
	msr_write(c.count_msr, 0, &why);
}

static const struct suite prog_width = { 0, CASES, describe, run };
REGISTER_SUITE(prog_width);
