#include "pmu_msr.h"

#include "exec.h"
#include "rdpmc_check.h"

static void explain_fault(const struct exec_outcome *o, struct strbuf *why)
{
	if (o->error_code == EXEC_NO_ERROR_CODE)
		strbuf_printf(why, "raised vector %u", o->vector);
	else
		strbuf_printf(why, "raised vector %u (error code 0x%x)",
			      o->vector, o->error_code);
}

bool msr_read(uint32_t msr, uint64_t *value, struct strbuf *why)
{
	struct exec_outcome o;

	exec_rdmsr(msr, &o);
	if (o.faulted) {
		strbuf_printf(why, "RDMSR(%XH) ", msr);
		explain_fault(&o, why);
		return false;
	}
	*value = edx_eax(&o);
	return true;
}

bool msr_write(uint32_t msr, uint64_t value, struct strbuf *why)
{
	struct exec_outcome o;

	exec_wrmsr(msr, value, &o);
	if (o.faulted) {
		strbuf_printf(why, "WRMSR(%XH, 0x%llx) ", msr,
			      (unsigned long long)value);
		explain_fault(&o, why);
		return false;
	}
	return true;
}

/* AMD core counter i: the PerfCtrExtCore pair, else the legacy four. */
static uint32_t amd_core_msr(unsigned i, bool select)
{
	if (check_pmu()->amd_ext_core)
		return (select ? MSR_AMD_PERF_CTL_EXT0 : MSR_AMD_PERF_CTR_EXT0) +
		       2 * i;
	return (select ? MSR_AMD_PERF_EVTSEL0 : MSR_AMD_PERF_CTR0) + i;
}

uint32_t counter_msr(const struct counter *c, bool full_width)
{
	switch (c->kind) {
	case COUNTER_GP:
	case COUNTER_PMC:
		return (full_width ? MSR_IA32_A_PMC0 : MSR_IA32_PMC0) + c->index;
	case COUNTER_FIXED:
		return MSR_IA32_FIXED_CTR0 + c->index;
	case COUNTER_METRICS:
		return MSR_IA32_PERF_METRICS;
	case COUNTER_AMD_CORE:
		return amd_core_msr(c->index, false);
	case COUNTER_AMD_NB:
		return MSR_AMD_NB_CTL0 + 2 * c->index + 1;
	case COUNTER_AMD_L2:
		return MSR_AMD_L2_CTL0 + 2 * c->index + 1;
	}
	return 0;
}

uint32_t counter_select_msr(const struct counter *c)
{
	switch (c->kind) {
	case COUNTER_GP:
	case COUNTER_PMC:
		return MSR_IA32_PERFEVTSEL0 + c->index;
	case COUNTER_AMD_CORE:
		return amd_core_msr(c->index, true);
	case COUNTER_AMD_NB:
		return MSR_AMD_NB_CTL0 + 2 * c->index;
	case COUNTER_AMD_L2:
		return MSR_AMD_L2_CTL0 + 2 * c->index;
	case COUNTER_FIXED:
	case COUNTER_METRICS:
		break;
	}
	return 0;
}

bool pmu_stop_counters(struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();
	struct counter counters[MAX_COUNTERS];
	unsigned n = model_counters(counters, MAX_COUNTERS);
	bool fixed = false;

	if (pmu->vendor == VENDOR_INTEL && pmu->version >= 2 &&
	    !msr_write(MSR_IA32_PERF_GLOBAL_CTRL, 0, why))	/* PROG-5 */
		return false;
	if (pmu->vendor == VENDOR_AMD && pmu->amd_perfmon_v2 &&
	    !msr_write(MSR_AMD_PERF_GLOBAL_CTL, 0, why))
		return false;
	for (unsigned i = 0; i < n; i++) {
		if (counters[i].kind == COUNTER_FIXED)
			fixed = true;
		else if (!msr_write(counter_select_msr(&counters[i]), 0, why))
			return false;
	}
	return !fixed || msr_write(MSR_IA32_FIXED_CTR_CTRL, 0, why);
}

uint64_t pmu_cycle_event(struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();

	if (pmu->vendor == VENDOR_AMD)
		return EVTSEL_EVENT(0x76);
	if (pmu->vendor != VENDOR_INTEL || pmu->version == 0) {
		strbuf_puts(why, "no architectural PMU (CPUID.0AH:EAX[7:0] = 0): no architectural event to count (PROG-4)");
		return 0;
	}
	if (pmu->gp_count == 0) {
		strbuf_puts(why, "no general-purpose counter (CPUID.0AH:EAX[15:8] = 0)");
		return 0;
	}
	/* PROG-4: EBX bit i = 1 (below the length) means event i is absent. */
	if (pmu->events_length > 0 && !(pmu->events_unavailable & 1))
		return EVTSEL_EVENT(0x3C);			/* core cycles */
	if (pmu->events_length > 1 && !(pmu->events_unavailable & 2))
		return EVTSEL_EVENT(0xC0);			/* instructions */
	strbuf_printf(why, "CPUID.0AH:EBX = 0x%x (length %u): neither unhalted core cycles nor instructions retired is available (PROG-4)",
		      pmu->events_unavailable, pmu->events_length);
	return 0;
}

bool pmu_start_counter(const struct counter *c, uint64_t event,
		       uint64_t initial, struct strbuf *why)
{
	const struct pmu_info *pmu = check_pmu();

	if (!pmu_stop_counters(why) || !msr_write(counter_msr(c, false), initial, why) ||
	    !msr_write(counter_select_msr(c),
		       event | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN, why))
		return false;
	if (pmu->vendor == VENDOR_INTEL && pmu->version >= 2)	/* PROG-5 */
		return msr_write(MSR_IA32_PERF_GLOBAL_CTRL, GLOBAL_CTRL_GP(c->index), why);
	if (pmu->vendor == VENDOR_AMD && pmu->amd_perfmon_v2)
		return msr_write(MSR_AMD_PERF_GLOBAL_CTL, 1ull << c->index, why);
	return true;
}
