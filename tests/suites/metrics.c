/*
 * metrics.read.cpl<0|3>: RDPMC(2000_0000H) as the model says: PERF_METRICS
 * where IA32_PERF_CAPABILITIES.PERF_METRICS_AVAILABLE = 1, else #GP(0)
 * (ARCH-4, MET-3). Runs on every PMU.
 *
 * metrics.clear.<enabled|disabled>.cpl<0|3>: MET-1 / MET-2. Fixed counter 3
 * (topdown slots) and PERF_METRICS start from 0 (MET-4: written 0, fixed
 * counter 3 first, they read 0), count, then stop (IA32_PERF_GLOBAL_CTRL
 * = 0); PERF_METRICS must then hold level-1 metrics, four bytes summing
 * to 0FFH within their rounding (MET-4), so that a clear has something to
 * clear. RDPMC(2000_0000H) must return PERF_METRICS as RDMSR(329H) read
 * it, and afterwards PERF_METRICS (329H) and FIXED_CTR3 (30CH) must be
 * zero with IA32_FIXED_CTR_CTRL.METRICS_CLEAR_EN (bit 14) set, unchanged
 * with it clear. The read half runs first everywhere; the clear half
 * SKIPs naming the bit that is missing.
 */
#include "check_context.h"
#include "counters.h"
#include "harness.h"
#include "msr_access.h"
#include "msr.h"
#include "prog_counter.h"
#include "rdpmc_check.h"

enum metrics_case { CASE_READ, CASE_CLEAR_ENABLED, CASE_CLEAR_DISABLED, CASES };

static const char *const case_ids[CASES] = {
	[CASE_READ] = "read",
	[CASE_CLEAR_ENABLED] = "clear.enabled",
	[CASE_CLEAR_DISABLED] = "clear.disabled",
};

static const char *const case_statements[CASES] = {
	[CASE_READ] = "ARCH-4 MET-3",
	[CASE_CLEAR_ENABLED] = "MET-1 MET-3 MET-4 ARCH-4",
	[CASE_CLEAR_DISABLED] = "MET-2 MET-3 MET-4 ARCH-4",
};

#define SPIN 100000	/* work for the counters to count */

/* MET-4: the level-1 metrics, bytes 0-3 of PERF_METRICS, sum to 0FFH;
 * each byte rounded either way from its fraction, the sum within 3 of it. */
#define METRICS_LEVEL1	4
#define METRICS_UNIT	0xFFu
#define METRICS_ROUNDING 3u

static void describe(unsigned i, struct test_text *t)
{
	enum metrics_case k = i / CHECK_CONTEXTS;

	strbuf_printf(&t->id, "metrics.%s.%s", case_ids[k],
		      check_context_name(i % CHECK_CONTEXTS));
	strbuf_puts(&t->statements, case_statements[k]);
	strbuf_puts(&t->description, k == CASE_READ
		    ? "RDPMC(2000_0000H): PERF_METRICS where enumerated, else #GP(0)"
		    : k == CASE_CLEAR_ENABLED
		    ? "RDPMC(2000_0000H) with METRICS_CLEAR_EN = 1 clears PERF_METRICS and FIXED_CTR3"
		    : "RDPMC(2000_0000H) with METRICS_CLEAR_EN = 0 clears nothing");
}

/* What the clear half needs; false with the SKIP reason in why. */
static bool clear_supported(bool enabled, struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();

	if (pmu->vendor != VENDOR_INTEL)
		strbuf_puts(why, "PERF_METRICS is Intel's: the vendor is not GenuineIntel");
	else if (!pmu->pdcm)
		strbuf_puts(why, "CPUID.01H:ECX.PDCM (bit 15) = 0: no IA32_PERF_CAPABILITIES (MET-3)");
	else if (!pmu->has_perf_capabilities)
		strbuf_puts(why, "IA32_PERF_CAPABILITIES could not be read");
	else if (pmu->family != 6)	/* MET-3: the bits are non-architectural */
		strbuf_printf(why, "family 0x%x: the IA32_PERF_CAPABILITIES bits are trusted on family 6 only (MET-3)",
			      pmu->family);
	else if (!pmu->perf_metrics)
		strbuf_puts(why, "IA32_PERF_CAPABILITIES.PERF_METRICS_AVAILABLE (bit 15) = 0");
	else if (enabled && !pmu->rdpmc_metrics_clear)
		strbuf_puts(why, "IA32_PERF_CAPABILITIES.RDPMC_METRICS_CLEAR (bit 19) = 0");
	else if (!(pmu->fixed_valid & (1u << 3)))
		strbuf_puts(why, "fixed counter 3 (topdown slots) is not enumerated (ARCH-3)");
	else
		return true;
	return false;
}

/* MET-4: software starts PERF_METRICS and fixed counter 3 from 0, fixed
 * counter 3 first; false, with why, where a write faults or either does
 * not read 0 afterwards. */
static bool start_from_zero(struct strbuf *why)
{
	uint64_t slots, metrics;

	if (!msr_write(MSR_IA32_FIXED_CTR3, 0, why) ||
	    !msr_write(MSR_IA32_PERF_METRICS, 0, why) ||
	    !msr_read(MSR_IA32_FIXED_CTR3, &slots, why) ||
	    !msr_read(MSR_IA32_PERF_METRICS, &metrics, why))
		return false;
	if (slots || metrics) {
		strbuf_printf(why, "MET-4: FIXED_CTR3 (30CH) and PERF_METRICS (329H) written 0, in that order, read 0x%llx and 0x%llx; expected 0 and 0",
			      (unsigned long long)slots,
			      (unsigned long long)metrics);
		return false;
	}
	return true;
}

/* MET-4: the sum of the level-1 metrics. */
static unsigned level1_sum(uint64_t metrics)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < METRICS_LEVEL1; i++)
		sum += (unsigned)(metrics >> (8 * i)) & 0xFFu;
	return sum;
}

/* Count slots and metrics for a while, then stop everything. */
static bool count_then_stop(bool enabled, struct strbuf *why)
{
	uint64_t ctrl = FIXED_CTRL_OS(3) | FIXED_CTRL_USR(3) |
			(enabled ? FIXED_CTRL_METRICS_CLEAR_EN : 0);
	volatile unsigned spin = 0;

	if (!prog_stop_all(why) || !start_from_zero(why) ||
	    !msr_write(MSR_IA32_FIXED_CTR_CTRL, ctrl, why) ||
	    !msr_write(MSR_IA32_PERF_GLOBAL_CTRL,
		       GLOBAL_CTRL_FIXED(3) | GLOBAL_CTRL_PERF_METRICS, why))
		return false;
	while (spin < SPIN)
		spin = spin + 1;
	/* FIXED_CTR_CTRL keeps METRICS_CLEAR_EN: only the gate closes. */
	return msr_write(MSR_IA32_PERF_GLOBAL_CTRL, 0, why);
}

static void check_clear(const struct exec_state *s, bool enabled)
{
	struct rdpmc_case c = { *s, ECX_PERF_METRICS, SENTINEL_RAX, SENTINEL_RDX };
	uint64_t metrics, slots, metrics_after, slots_after, value;
	char text[256];
	struct strbuf why;
	struct exec_outcome o;

	strbuf_init(&why, text, sizeof(text));
	if (!clear_supported(enabled, &why)) {
		test_skip("%s", text);
		return;
	}
	/* Counters that do not hold what is written: prog.write.stopped */
	if (!prog_writes_hold(true))
		return;
	if (!count_then_stop(enabled, &why) ||
	    !msr_read(MSR_IA32_PERF_METRICS, &metrics, &why) ||
	    !msr_read(MSR_IA32_FIXED_CTR3, &slots, &why)) {
		test_fail("%s", text);
		return;
	}
	if (slots == 0)
		test_fail("FIXED_CTR3 stayed 0: topdown slots did not count");
	else if (level1_sum(metrics) + METRICS_ROUNDING < METRICS_UNIT ||
		 level1_sum(metrics) > METRICS_UNIT + METRICS_ROUNDING)
		test_fail("MET-4: after FIXED_CTR3 counted %llu slots from 0 with EN_PERF_METRICS, PERF_METRICS = 0x%llx: its level-1 bytes sum to 0x%x; expected 0xFF +- %u (each a fraction of the slots in 1/0FFH)",
			  (unsigned long long)slots, (unsigned long long)metrics,
			  level1_sum(metrics), METRICS_ROUNDING);
	if (!run_rdpmc_case(&c, &o, &why)) {
		report_rdpmc_mismatch(&c, &o, text);
		return;
	}
	value = edx_eax(&o);
	if (!msr_read(MSR_IA32_PERF_METRICS, &metrics_after, &why) ||
	    !msr_read(MSR_IA32_FIXED_CTR3, &slots_after, &why) ||
	    !prog_clear_all(&why)) {
		test_fail("%s", text);
		return;
	}
	if (value != metrics)
		test_fail("RDPMC(2000_0000H) = 0x%llx, RDMSR(329H) = 0x%llx before it (ARCH-4)",
			  (unsigned long long)value, (unsigned long long)metrics);
	if (enabled && (metrics_after || slots_after))
		test_fail("after RDPMC(2000_0000H) with METRICS_CLEAR_EN = 1: PERF_METRICS = 0x%llx, FIXED_CTR3 = 0x%llx; MET-1 requires both 0",
			  (unsigned long long)metrics_after,
			  (unsigned long long)slots_after);
	if (!enabled && (metrics_after != metrics || slots_after != slots))
		test_fail("after RDPMC(2000_0000H) with METRICS_CLEAR_EN = 0: PERF_METRICS 0x%llx -> 0x%llx, FIXED_CTR3 0x%llx -> 0x%llx; MET-2 requires no change",
			  (unsigned long long)metrics,
			  (unsigned long long)metrics_after,
			  (unsigned long long)slots,
			  (unsigned long long)slots_after);
	test_note("FIXED_CTR3 0x%llx, PERF_METRICS 0x%llx (level-1 sum 0x%x); RDPMC(2000_0000H) read 0x%llx; after it FIXED_CTR3 0x%llx, PERF_METRICS 0x%llx",
		  (unsigned long long)slots, (unsigned long long)metrics,
		  level1_sum(metrics), (unsigned long long)value,
		  (unsigned long long)slots_after,
		  (unsigned long long)metrics_after);
}

static void run(unsigned i)
{
	const struct exec_state *s = check_context(i % CHECK_CONTEXTS);
	enum metrics_case k = i / CHECK_CONTEXTS;
	struct rdpmc_case c = { *s, ECX_PERF_METRICS, SENTINEL_RAX, SENTINEL_RDX };

	if (!check_context_usable(s))
		return;
	if (k == CASE_READ) {
		check_rdpmc(&c);
		return;
	}
	/* The read half first: #GP(0) where metrics are not enumerated. */
	if (!check_pmu()->perf_metrics && !check_rdpmc(&c))
		return;
	check_clear(s, k == CASE_CLEAR_ENABLED);
}

static const struct suite metrics = {
	0, CASES * CHECK_CONTEXTS, describe, run,
};
REGISTER_SUITE(metrics);
