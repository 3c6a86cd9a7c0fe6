/*
 * data.width.<gp|fixed|fw>.cpl<0|3>: what RDPMC returns of a counter
 * written all-ones (counters stopped, PROG-3): exactly the low `width` bits
 * set, the enumerated width (ARCH-7; NARCH-3: 40; AMD-3: 48), EDX the
 * zero-extended counter[MSCB:32], RAX[63:32] and RDX[63:32] clear (MODE-1).
 * gp writes IA32_PMCx / PerfCtrN by plain WRMSR (the value's bit 31 is
 * sign-extended to the top, PROG-5), fixed IA32_FIXED_CTRx, fw the full
 * width through IA32_A_PMCx where PERF_CAPABILITIES.FW_WRITE = 1.
 * A general-purpose counter then started at all-ones wraps: what RDPMC
 * reads after the overflow still has nothing at or above the width.
 * The #GP(0) half: RDPMC of the first index past the counters.
 * Where counter 0 of the kind does not hold a written value at all, the
 * test SKIPs naming prog.write.stopped, which reports that.
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "msr_access.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

static bool is_fixed(const struct counter *c)
{
	return c->kind == COUNTER_FIXED;
}

static bool is_intel_gp(const struct counter *c)
{
	return c->kind == COUNTER_GP;
}

static const struct {
	const char *name;
	const char *statements;
	const char *description;
	uint32_t invalid_base;
	bool (*wanted)(const struct counter *);
	bool full_width;
} kinds[] = {
	{ "gp", "ARCH-7 NARCH-3 AMD-3 MODE-1 PROG-5",
	  "general-purpose counters written all-ones by WRMSR",
	  ECX_TYPE_GP, counter_is_gp, false },
	{ "fixed", "ARCH-7 MODE-1",
	  "fixed-function counters written all-ones by WRMSR",
	  ECX_TYPE_FIXED, is_fixed, false },
	{ "fw", "ARCH-7 MODE-1 PROG-5",
	  "general-purpose counters written all-ones through IA32_A_PMCx",
	  ECX_TYPE_GP, is_intel_gp, true },
};

#define KINDS (sizeof(kinds) / sizeof(kinds[0]))

static void describe(unsigned i, struct test_text *t)
{
	unsigned k = i / CHECK_CONTEXTS;

	strbuf_printf(&t->id, "data.width.%s.%s", kinds[k].name,
		      check_context_name(i % CHECK_CONTEXTS));
	strbuf_puts(&t->statements, kinds[k].statements);
	strbuf_puts(&t->description, kinds[k].description);
}

/* Why the model lists no counter of kind k here (for the SKIP). */
static void no_counters(unsigned k)
{
	const struct pmu_info *pmu = check_pmu();

	if (kinds[k].full_width && !(pmu->vendor == VENDOR_INTEL && pmu->version))
		test_skip("IA32_A_PMCx needs an Intel architectural PMU (CPUID.0AH:EAX[7:0] = %u)",
			  pmu->version);
	else if (kinds[k].full_width)
		test_skip("no IA32_PERF_CAPABILITIES.FW_WRITE (bit 13)%s",
			  pmu->has_perf_capabilities ? " = 0"
			  : pmu->pdcm ? ": the MSR was not readable"
			  : ": CPUID.01H:ECX.PDCM = 0, no such MSR");
	else if (pmu->vendor == VENDOR_AMD)
		test_skip("AuthenticAMD: no fixed-function counters (AMD-2)");
	else if (pmu->vendor != VENDOR_INTEL)
		test_skip("the vendor is neither GenuineIntel nor AuthenticAMD");
	else if (pmu->version == 0)
		test_skip("no architectural PMU (CPUID.0AH:EAX[7:0] = 0): no fixed-function counters");
	else if (kinds[k].wanted == is_fixed)
		test_skip("no fixed counter: CPUID.0AH version %u, EDX[4:0] = %u, ECX = 0x%x",
			  pmu->version, pmu->fixed_count, pmu->fixed_bitmap);
	else
		test_skip("no general-purpose counter: CPUID.0AH:EAX[15:8] = 0");
}

/* ARCH-7 / NARCH-3 / AMD-3 across an overflow: a counter that kept the
 * carry, or a read that does not mask to the width, shows bit `width`. */
static void check_wrap(const struct exec_state *s, const struct counter *c)
{
	uint64_t mask = width_mask(c->width), event, value;
	struct rdpmc_case rc = { *s, c->ecx, SENTINEL_RAX, SENTINEL_RDX };
	struct exec_outcome o;
	char text[256];
	struct strbuf why;
	bool conforms;

	strbuf_init(&why, text, sizeof(text));
	event = prog_cycle_event(&why);
	if (!event) {
		test_note("ECX %08XH: no overflow check: %s", c->ecx, text);
		return;
	}
	if (!prog_start_counter(c, event, mask, &why)) {
		test_fail("ECX %08XH: starting it at all-ones: %s", c->ecx, text);
		return;
	}
	conforms = run_rdpmc_case(&rc, &o, &why);
	if (!prog_clear_all(&why))
		test_fail("ECX %08XH: stopping and clearing it: %s", c->ecx, text);
	value = edx_eax(&o);
	if (!conforms)
		report_rdpmc_mismatch(&rc, &o, text);
	else if (value == mask)
		test_fail("ECX %08XH started at all-ones, counting event 0x%llx: RDPMC still reads 0x%llx, the counter does not count (PROG-1)",
			  c->ecx, (unsigned long long)event,
			  (unsigned long long)value);
	else
		test_note("ECX %08XH: from all-ones it wrapped to 0x%llx", c->ecx,
			  (unsigned long long)value);
}

static void check_counter(const struct exec_state *s, const struct counter *c,
			  bool full_width)
{
	uint64_t mask = width_mask(c->width), value;
	uint32_t msr = counter_msr(c, full_width);
	char text[256];
	struct strbuf why;
	struct rdpmc_case rc = { *s, c->ecx, SENTINEL_RAX, SENTINEL_RDX };
	struct exec_outcome o;

	strbuf_init(&why, text, sizeof(text));
	if (!c->width) {
		test_note("ECX %08XH: the width is not enumerated (version 1 fixed counter)",
			  c->ecx);
		return;
	}
	if (!prog_stop_all(&why) || !msr_write(msr, mask, &why)) {
		test_fail("ECX %08XH: %s", c->ecx, text);
		return;
	}
	if (!run_rdpmc_case(&rc, &o, &why)) {
		report_rdpmc_mismatch(&rc, &o, text);
		return;
	}
	value = edx_eax(&o);
	if (value != mask)
		test_fail("ECX %08XH after WRMSR(%XH, 0x%llx): RDPMC reads 0x%llx, not the %u-bit all-ones 0x%llx (ARCH-7)",
			  c->ecx, msr, (unsigned long long)mask,
			  (unsigned long long)value, c->width,
			  (unsigned long long)mask);
	else
		test_note("ECX %08XH: EDX:EAX = 0x%llx, %u bits", c->ecx,
			  (unsigned long long)value, c->width);
	if (value == mask && counter_is_gp(c) && !full_width)
		check_wrap(s, c);
}

static void run(unsigned i)
{
	const struct exec_state *s = check_context(i % CHECK_CONTEXTS);
	unsigned k = i / CHECK_CONTEXTS;
	struct counter counters[MAX_COUNTERS];
	unsigned n = 0;

	if (!check_context_usable(s))
		return;
	check_invalid_encoding(s, kinds[k].invalid_base);
	if (!kinds[k].full_width || check_pmu()->fw_write)
		n = model_counters_of(kinds[k].wanted, counters, MAX_COUNTERS);
	if (n == 0) {
		no_counters(k);
		return;
	}
	if (!prog_writes_hold(kinds[k].wanted == is_fixed))
		return;
	for (unsigned c = 0; c < n; c++)
		check_counter(s, &counters[c], kinds[k].full_width);
	prog_leave_cleared();
}

static const struct suite data_width = { 0, KINDS * CHECK_CONTEXTS, describe, run };
REGISTER_SUITE(data_width);
