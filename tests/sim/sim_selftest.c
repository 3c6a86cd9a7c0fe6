/*
 * selftest.counters-left, the simulator's only selftest: a test that
 * leaves a counter behind on purpose, which the harness must name after
 * it (kernel/counters_left.h). It starts general-purpose counter 0
 * counting on CPU 0 and, where the machine has one, on its last AP,
 * given as work the way tests/lib/cpu_work.c gives it, and leaves both
 * running. Only an explicit tests=selftest.counters-left runs it;
 * tests/mutation.py checks that the harness names the test, each CPU and
 * the counter, and no other test.
 */
#include "cpus.h"
#include "exec.h"
#include "harness.h"
#include "msr.h"

/* Counter 0 at 1000H, counting at every CPL (PROG-1, PROG-3, PROG-5;
 * AMD-2: the extended pair with PerfCtrExtCore). */
static void start_and_leave(void *pmu_info)
{
	const struct pmu_info *pmu = pmu_info;
	struct exec_outcome o;
	uint64_t on = EVTSEL_USR | EVTSEL_OS | EVTSEL_EN;

	if (pmu->vendor == VENDOR_AMD) {
		exec_wrmsr(pmu->amd_ext_core ? MSR_AMD_PERF_CTR_EXT0 : MSR_AMD_PERF_CTR0,
			   0x1000, &o);
		exec_wrmsr(pmu->amd_ext_core ? MSR_AMD_PERF_CTL_EXT0 : MSR_AMD_PERF_EVTSEL0,
			   on | EVTSEL_EVENT(0x76), &o);
		if (pmu->amd_perfmon_v2)
			exec_wrmsr(MSR_AMD_PERF_GLOBAL_CTL, 1, &o);
		return;
	}
	exec_wrmsr(MSR_IA32_PMC0, 0x1000, &o);
	exec_wrmsr(MSR_IA32_PERFEVTSEL0, on | EVTSEL_EVENT(0xC0), &o);
	if (pmu->version >= 2)
		exec_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_GP(0), &o);
}

SINGLE_TEST(counters_left, SUITE_EXPLICIT, "selftest.counters-left", "HARNESS",
	    "a test that leaves counter 0 running on CPU 0 and the last AP is named by the harness")
{
	struct pmu_info pmu;
	unsigned last = platform_cpu_count() - 1;
	char text[120];
	struct strbuf why;

	(void)i;
	pmu_decode(platform_enumeration(), &pmu);
	if (pmu.vendor != VENDOR_AMD &&
	    (pmu.vendor != VENDOR_INTEL || !(pmu.gp_valid & 1))) {
		test_skip("no general-purpose counter 0 to leave running");
		return;
	}
	start_and_leave(&pmu);
	if (last == 0)
		return;
	strbuf_init(&why, text, sizeof(text));
	harness_cpu_worked(last);
	if (!platform_start_on_cpu(last, start_and_leave, &pmu, &why) ||
	    !platform_wait_cpu(last, HARNESS_AP_TIMEOUT_MS, &why))
		test_fail("CPU %u: %s", last, text);
}
