/*
 * pmi.freeze: with IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI set, a counter
 * overflow with its interrupt enable set freezes the counters (PMI-6):
 * versions 2 and 3 clear the enables of IA32_PERF_GLOBAL_CTRL, version 4
 * and up set IA32_PERF_GLOBAL_STATUS.CTR_Frz (bit 59) until bit 59 of
 * IA32_PERF_GLOBAL_STATUS_RESET is written. Frozen, the counter does not
 * count the next loop. How far it counted past the overflow before the
 * freeze (skid) is model-specific and not checked.
 */
#include "exec.h"
#include "harness.h"
#include "msr_access.h"
#include "pmi_arm.h"
#include "msr.h"
#include "prog_counter.h"
#include "prog_measure.h"
#include "rdpmc_check.h"

/* What the PMI left: the count, the global enables, the status. */
struct after_pmi {
	uint64_t count, global, status;
};

/* Counter c overflows with INT over the short loop; false, with why, if
 * an MSR access faulted. */
static bool overflow(struct prog_counter *c, struct after_pmi *a,
		     struct strbuf *why)
{
	bool ok = msr_write(c->global_msr, c->global_saved & ~c->global_bit, why) &&
		  msr_write(c->control_msr, c->control_off, why) &&
		  msr_write(c->count_msr,
			    width_mask(c->width) - PROG_OVERFLOW_MARGIN + 1, why) &&
		  msr_write(c->control_msr, c->control_off | c->enable_int |
			    prog_enables(c, FILTER_OS | FILTER_USR), why) &&
		  msr_write(c->global_msr, c->global_saved | c->global_bit, why);

	if (!ok)
		return false;
	exec_known_loop(0, PROG_SHORT_LOOP);
	return msr_read(c->count_msr, &a->count, why) &&
	       msr_read(c->global_msr, &a->global, why) &&
	       msr_read(c->status_msr, &a->status, why);
}

/* The loop again; how far the counter moved. */
static bool counted(const struct prog_counter *c, uint64_t from, uint64_t *moved,
		    struct strbuf *why)
{
	uint64_t now;

	exec_known_loop(0, PROG_SHORT_LOOP);
	if (!msr_read(c->count_msr, &now, why))
		return false;
	*moved = now - from;
	return true;
}

static void expect_frozen(struct prog_counter *c, unsigned version,
			  struct strbuf *why)
{
	struct after_pmi a;
	uint64_t moved;
	char text[160];
	struct strbuf fault;

	strbuf_init(&fault, text, sizeof(text));
	if (!overflow(c, &a, &fault) || !counted(c, a.count, &moved, &fault)) {
		test_fail("%s", text);
		return;
	}
	if (pmi_taken() != 1)
		test_fail("PMI-1: %s overflowed with INT set: expected 1 PMI, observed %u",
			  c->name, pmi_taken());
	else if (moved != 0)
		test_fail("PMI-6: after the PMI with FREEZE_PERFMON_ON_PMI set %s counted %llu more over %llu iterations (IA32_PERF_GLOBAL_CTRL 0x%llx, status 0x%llx): not frozen",
			  c->name, (unsigned long long)moved, PROG_SHORT_LOOP,
			  (unsigned long long)a.global, (unsigned long long)a.status);
	else if (version < 4 && (a.global & c->global_bit))
		test_fail("PMI-6: version %u freezes by clearing IA32_PERF_GLOBAL_CTRL, but it reads 0x%llx after the PMI",
			  version, (unsigned long long)a.global);
	else if (version >= 4 && !(a.status & GLOBAL_STATUS_CTR_FRZ))
		test_fail("PMI-6: version %u freezes through IA32_PERF_GLOBAL_STATUS.CTR_Frz (bit 59), but the status reads 0x%llx after the PMI",
			  version, (unsigned long long)a.status);
	else if (version >= 4 &&
		 (!msr_write(c->status_clear_msr, GLOBAL_STATUS_CTR_FRZ, why) ||
		  !counted(c, a.count, &moved, why)))
		test_fail("%s", why->buf);
	else if (version >= 4 && moved == 0)
		test_fail("PMI-6: after writing bit 59 of IA32_PERF_GLOBAL_STATUS_RESET %s still does not count",
			  c->name);
	else
		test_note("%s frozen at 0x%llx by the PMI (IA32_PERF_GLOBAL_CTRL 0x%llx, status 0x%llx)",
			  c->name, (unsigned long long)a.count,
			  (unsigned long long)a.global, (unsigned long long)a.status);
}

SINGLE_TEST(pmi_freeze, 0, "pmi.freeze", "PMI-6 PMI-1 OVF-1 PROG-6",
	    "FREEZE_PERFMON_ON_PMI: an overflow with INT freezes the counters until software unfreezes them")
{
	const struct pmu_info *pmu = check_pmu();
	char text[160];
	struct strbuf why;
	struct prog_counter c;
	uint64_t debugctl;

	(void)i;
	strbuf_init(&why, text, sizeof(text));
	if (pmu->vendor != VENDOR_INTEL || pmu->version < 2 || !pmu->pdcm) {
		test_skip("FREEZE_PERFMON_ON_PMI needs Intel, CPUID.01H:ECX.PDCM = 1 and version > 1 (version %u, PDCM %u)",
			  pmu->version, pmu->pdcm);
		return;
	}
	if (!pmi_arm(&why)) {
		test_skip("%s", text);
		return;
	}
	if (!prog_take_counter(&c, false))
		return;
	if (!msr_read(MSR_IA32_DEBUGCTL, &debugctl, &why) ||
	    !msr_write(MSR_IA32_DEBUGCTL, debugctl | DEBUGCTL_FREEZE_PERFMON_ON_PMI, &why)) {
		test_fail("PMI-6: FREEZE_PERFMON_ON_PMI exists by the enumeration (PDCM, version %u): %s",
			  pmu->version, text);
		pmi_disarm(&c);
		return;
	}
	expect_frozen(&c, pmu->version, &why);
	msr_write(MSR_IA32_DEBUGCTL, debugctl, &why);
	msr_write(c.control_msr, c.control_off, &why);
	msr_write(c.count_msr, 0, &why);	/* left cleared */
	if (pmu->version >= 4)	/* unfrozen, whatever happened above */
		msr_write(c.status_clear_msr, GLOBAL_STATUS_CTR_FRZ, &why);
	msr_write(c.global_msr, c.global_saved, &why);
	pmi_disarm(&c);
}
