/*
 * The PMU MSRs of the simulated CPU (PROG-1, PROG-5, PRIV-7, MET-1, AMD-2).
 * Each address resolves to one register; an address the profile does not
 * enumerate resolves to none, and the access raises #GP(0).
 */
#include "sim_msr.h"

#include <stddef.h>

#define MSR_IA32_PMC0			0x0C1u	/* + x */
#define MSR_IA32_PERFEVTSEL0		0x186u	/* + x */
#define MSR_IA32_FIXED_CTR0		0x309u	/* + x */
#define MSR_IA32_PERF_METRICS		0x329u
#define MSR_IA32_PERF_CAPABILITIES	0x345u
#define MSR_IA32_FIXED_CTR_CTRL		0x38Du
#define MSR_IA32_PERF_GLOBAL_CTRL	0x38Fu
#define MSR_IA32_A_PMC0			0x4C1u	/* + x, FW_WRITE */
#define MSR_AMD_PERF_EVTSEL0		0xC0010000u	/* + n, n < 4 */
#define MSR_AMD_PERF_CTR0		0xC0010004u	/* + n, n < 4 */
#define MSR_AMD_PERF_CTL_EXT0		0xC0010200u	/* + 2n, CTR + 2n + 1 */
#define MSR_AMD_L2_CTL0			0xC0010230u	/* + 2n, PerfCtrExtLLC */
#define MSR_AMD_NB_CTL0			0xC0010240u	/* + 2n, PerfCtrExtNB */

enum msr_kind {
	MSR_NONE,		/* #GP(0) */
	MSR_COUNT,		/* a counter: reads keep its width */
	MSR_COUNT_LEGACY,	/* IA32_PMCx: a write sign-extends bit 31 */
	MSR_CONTROL,		/* an event select */
	MSR_REGISTER,		/* a plain 64-bit register */
	MSR_READ_ONLY,		/* IA32_PERF_CAPABILITIES */
};

struct msr_target {
	enum msr_kind kind;
	struct sim_counter *counter;	/* MSR_COUNT*, MSR_CONTROL */
	uint64_t *reg;			/* MSR_REGISTER */
	uint64_t value;			/* MSR_READ_ONLY */
};

static struct msr_target counter_msr(struct sim_counter *c, enum msr_kind k)
{
	return (struct msr_target){ c->present ? k : MSR_NONE, c, NULL, 0 };
}

static struct msr_target reg_msr(bool exists, uint64_t *reg)
{
	return (struct msr_target){ exists ? MSR_REGISTER : MSR_NONE, NULL, reg, 0 };
}

static struct msr_target intel_msr(struct sim_cpu *cpu, uint32_t msr)
{
	const struct pmu_cpuid *e = &cpu->enumeration;
	bool v2 = cpu->version >= 2;

	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->gp[msr - MSR_IA32_PMC0], MSR_COUNT_LEGACY);
	if (msr >= MSR_IA32_PERFEVTSEL0 &&
	    msr < MSR_IA32_PERFEVTSEL0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->gp[msr - MSR_IA32_PERFEVTSEL0], MSR_CONTROL);
	if (cpu->fw_write && msr >= MSR_IA32_A_PMC0 &&
	    msr < MSR_IA32_A_PMC0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->gp[msr - MSR_IA32_A_PMC0], MSR_COUNT);
	if (msr >= MSR_IA32_FIXED_CTR0 &&
	    msr < MSR_IA32_FIXED_CTR0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->fixed[msr - MSR_IA32_FIXED_CTR0], MSR_COUNT);
	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:
		return reg_msr(v2, &cpu->fixed_ctrl);
	case MSR_IA32_PERF_GLOBAL_CTRL:
		return reg_msr(v2, &cpu->global_ctrl);
	case MSR_IA32_PERF_METRICS:
		return reg_msr(cpu->perf_metrics, &cpu->metrics);
	case MSR_IA32_PERF_CAPABILITIES:	/* MET-3: only with PDCM */
		return (struct msr_target){
			cpu->perf_capabilities ? MSR_READ_ONLY : MSR_NONE, NULL,
			NULL, e->has_perf_capabilities ? e->perf_capabilities : 0 };
	}
	return (struct msr_target){ MSR_NONE, NULL, NULL, 0 };
}

/* Pairs CTL, CTR from base: base + 2n is the control, base + 2n + 1 the count. */
static struct msr_target amd_pair(struct sim_counter *c, unsigned n,
				  uint32_t base, uint32_t msr)
{
	if (msr < base || msr >= base + 2 * n)
		return (struct msr_target){ MSR_NONE, NULL, NULL, 0 };
	return counter_msr(&c[(msr - base) / 2],
			   (msr - base) % 2 ? MSR_COUNT : MSR_CONTROL);
}

static struct msr_target amd_msr(struct sim_cpu *cpu, uint32_t msr)
{
	struct msr_target t;

	if (msr >= MSR_AMD_PERF_EVTSEL0 && msr < MSR_AMD_PERF_EVTSEL0 + 4)
		return counter_msr(&cpu->amd_core[msr - MSR_AMD_PERF_EVTSEL0],
				   MSR_CONTROL);
	if (msr >= MSR_AMD_PERF_CTR0 && msr < MSR_AMD_PERF_CTR0 + 4)
		return counter_msr(&cpu->amd_core[msr - MSR_AMD_PERF_CTR0],
				   MSR_COUNT);
	if (cpu->amd_ext_core) {
		t = amd_pair(cpu->amd_core, SIM_AMD_CORE, MSR_AMD_PERF_CTL_EXT0, msr);
		if (t.kind != MSR_NONE)
			return t;
	}
	t = amd_pair(cpu->amd_l2, SIM_AMD_L2, MSR_AMD_L2_CTL0, msr);
	if (t.kind != MSR_NONE)
		return t;
	return amd_pair(cpu->amd_nb, SIM_AMD_NB, MSR_AMD_NB_CTL0, msr);
}

static struct msr_target resolve(struct sim_cpu *cpu, uint32_t msr)
{
	if (cpu->enumeration.vendor == VENDOR_INTEL)
		return intel_msr(cpu, msr);
	if (cpu->enumeration.vendor == VENDOR_AMD)
		return amd_msr(cpu, msr);
	return (struct msr_target){ MSR_NONE, NULL, NULL, 0 };
}

bool sim_rdmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t *value)
{
	struct msr_target t = resolve(cpu, msr);

	switch (t.kind) {
	case MSR_NONE:
		return false;
	case MSR_COUNT:
	case MSR_COUNT_LEGACY:
		*value = sim_counter_value(t.counter);	/* PRIV-7 */
		return true;
	case MSR_CONTROL:
		*value = t.counter->control;
		return true;
	case MSR_REGISTER:
		*value = *t.reg;
		return true;
	case MSR_READ_ONLY:
		*value = t.value;
		return true;
	}
	return false;
}

/* Reserved bits are not checked: no statement of the spec constrains them,
 * and a check must not depend on the simulator's choice there. */
bool sim_wrmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t value)
{
	struct msr_target t = resolve(cpu, msr);

	switch (t.kind) {
	case MSR_NONE:
	case MSR_READ_ONLY:
		return false;
	case MSR_COUNT_LEGACY:	/* PROG-5: sign-extended from bit 31 */
		t.counter->raw = (uint64_t)(int64_t)(int32_t)(uint32_t)value;
		return true;
	case MSR_COUNT:
		t.counter->raw = value;
		return true;
	case MSR_CONTROL:
		t.counter->control = value;
		return true;
	case MSR_REGISTER:
		*t.reg = value;
		return true;
	}
	return false;
}
