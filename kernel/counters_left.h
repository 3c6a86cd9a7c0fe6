/*
 * What a test leaves in the counters. A test that starts a counter stops
 * it and writes it 0 again, so that the next test, and the next CPU's
 * part, start from a PMU with nothing running and nothing counted
 * (tests/lib/prog_counter.h). After each test the harness reads, on every
 * CPU the test ran on, each counter of the enumerated PMU (Intel:
 * IA32_PMCx with IA32_PERFEVTSELx, IA32_FIXED_CTRi with
 * IA32_FIXED_CTR_CTRL, gated by IA32_PERF_GLOBAL_CTRL, PROG-1, PROG-5;
 * AMD: the core counters with their event selects, gated by
 * PerfCntrGlobalCtl with PerfMonV2, AMD-2), and names each one left
 * running or not reading 0. Pure: exec_rdmsr()/exec_wrmsr() only.
 */
#ifndef PMCTEST_COUNTERS_LEFT_H
#define PMCTEST_COUNTERS_LEFT_H

#include "model.h"

struct counters_left {
	unsigned found;		/* counters left running or not 0 */
	char text[120];		/* "IA32_PMC0 (C1H) 0xffffffffffff running, ..." */
	struct strbuf sb;	/* writes text */
};

/*
 * On the executing CPU: each counter pmu enumerates that is running (its
 * enable set, and its global gate where the PMU has one) or does not read
 * 0 is counted in left and named in left->text, then stopped (its enable
 * cleared) and written 0, so that the next test is not blamed for it. An
 * MSR whose RDMSR faults is not judged, here or in later calls: the
 * tests of MSR access report that.
 */
void counters_left_take(const struct pmu_info *pmu, struct counters_left *left);

#endif
