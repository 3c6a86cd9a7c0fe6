/*
 * The PMU MSRs of the simulated CPU (PROG-1, PROG-5, PRIV-7, MET-1, AMD-2,
 * WR-1, WR-2, OVF-1..4, MSR-1, MSR-2). Each address resolves to one register; an
 * address the profile does not enumerate resolves to none, and the access
 * raises #GP(0), as does a write that sets a reserved bit.
 */
#include "sim_msr.h"

#include <stddef.h>

#define FIXED_FIELDS		16	/* IA32_FIXED_CTR_CTRL: 4 bits each */
#define EVTSEL_EN		(1ull << 22)
#define GLOBAL_EN_METRICS	(1ull << 48)
#define STATUS_MODEL_BITS	0xFFFF000000000000ull	/* 48-63: not counters */

enum msr_kind {
	MSR_NONE,		/* #GP(0) */
	MSR_COUNT,		/* a counter: reads keep its width */
	MSR_COUNT_LEGACY,	/* IA32_PMCx: a write sign-extends bit 31 */
	MSR_COUNT_FIXED,	/* IA32_FIXED_CTRx: written as given (WR-1) */
	MSR_CONTROL,		/* an event select */
	MSR_REGISTER,		/* a 64-bit register, `allowed` its bits */
	MSR_READ_ONLY,		/* PERF_CAPABILITIES, the global status */
	MSR_STATUS_CLEAR,	/* writing 1 clears a status bit (OVF-2) */
	MSR_STATUS_SET,		/* writing 1 sets a status bit (OVF-3) */
	MSR_ABSENT_ACCEPTED,	/* DEV_ABSENT_MSRS_ACCEPTED: reads 0 */
};

struct msr_target {
	enum msr_kind kind;
	struct sim_counter *counter;	/* MSR_COUNT*, MSR_CONTROL */
	uint64_t *reg;			/* MSR_REGISTER */
	uint64_t value;			/* MSR_READ_ONLY */
	uint64_t allowed;		/* MSR_REGISTER, MSR_STATUS_*: MSR-2 */
};

static const struct msr_target none = { MSR_NONE, NULL, NULL, 0, 0 };

static bool has(const struct sim_cpu *cpu, enum deviation d)
{
	return cpu->deviation == d;
}

static struct msr_target counter_msr(struct sim_counter *c, enum msr_kind k)
{
	return (struct msr_target){ c->present ? k : MSR_NONE, c, NULL, 0, 0 };
}

static struct msr_target reg_msr(bool exists, uint64_t *reg, uint64_t allowed)
{
	return (struct msr_target){ exists ? MSR_REGISTER : MSR_NONE, NULL, reg,
				    0, allowed };
}

static struct msr_target status_msr(bool exists, enum msr_kind k,
				    uint64_t allowed)
{
	return (struct msr_target){ exists ? k : MSR_NONE, NULL, NULL, 0, allowed };
}

static struct msr_target read_only(bool exists, uint64_t value)
{
	return (struct msr_target){ exists ? MSR_READ_ONLY : MSR_NONE, NULL,
				    NULL, value, 0 };
}

/* The counter bits of the global MSRs: x for PMCx, 32 + i for fixed i. */
static uint64_t intel_counter_bits(const struct sim_cpu *cpu)
{
	uint64_t bits = 0;

	for (unsigned x = 0; x < 32; x++) {
		if (cpu->gp[x].present)
			bits |= 1ull << x;
		if (x < FIXED_FIELDS && cpu->fixed[x].present)
			bits |= 1ull << (32 + x);
	}
	return bits;
}

static uint64_t fixed_ctrl_bits(const struct sim_cpu *cpu)
{
	uint64_t bits = 0;

	for (unsigned i = 0; i < FIXED_FIELDS; i++)
		if (cpu->fixed[i].present)
			bits |= 0xFull << (4 * i);
	return bits;
}

static struct msr_target intel_global_msr(struct sim_cpu *cpu, uint32_t msr)
{
	bool v2 = cpu->version >= 2, v4 = cpu->version >= 4;
	uint64_t counters = intel_counter_bits(cpu);

	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL:
		return reg_msr(v2, &cpu->fixed_ctrl, fixed_ctrl_bits(cpu));
	case MSR_IA32_PERF_GLOBAL_CTRL:
		return reg_msr(v2, &cpu->global_ctrl,
			       counters | (cpu->perf_metrics ? GLOBAL_EN_METRICS : 0));
	case MSR_IA32_PERF_GLOBAL_STATUS:
		return read_only(v2, cpu->global_status);
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		return status_msr(v2, MSR_STATUS_CLEAR, counters | STATUS_MODEL_BITS);
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		return status_msr(v4, MSR_STATUS_SET, counters | STATUS_MODEL_BITS);
	case MSR_IA32_PERF_METRICS:
		return reg_msr(cpu->perf_metrics, &cpu->metrics, ~0ull);
	case MSR_IA32_PERF_CAPABILITIES:	/* MET-3: only with PDCM */
		return read_only(cpu->perf_capabilities,
				 cpu->enumeration.has_perf_capabilities
				 ? cpu->enumeration.perf_capabilities : 0);
	}
	return none;
}

static struct msr_target intel_msr(struct sim_cpu *cpu, uint32_t msr)
{
	if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->gp[msr - MSR_IA32_PMC0], MSR_COUNT_LEGACY);
	if (msr >= MSR_IA32_PERFEVTSEL0 &&
	    msr < MSR_IA32_PERFEVTSEL0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->gp[msr - MSR_IA32_PERFEVTSEL0], MSR_CONTROL);
	if (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + SIM_INDEX_BITS)
		return cpu->fw_write
		       ? counter_msr(&cpu->gp[msr - MSR_IA32_A_PMC0], MSR_COUNT)
		       : none;
	if (msr >= MSR_IA32_FIXED_CTR0 &&
	    msr < MSR_IA32_FIXED_CTR0 + SIM_INDEX_BITS)
		return counter_msr(&cpu->fixed[msr - MSR_IA32_FIXED_CTR0],
				   MSR_COUNT_FIXED);
	return intel_global_msr(cpu, msr);
}

/* Pairs CTL, CTR from base: base + 2n is the control, base + 2n + 1 the count. */
static struct msr_target amd_pair(struct sim_counter *c, unsigned n,
				  uint32_t base, uint32_t msr)
{
	if (msr < base || msr >= base + 2 * n)
		return none;
	return counter_msr(&c[(msr - base) / 2],
			   (msr - base) % 2 ? MSR_COUNT : MSR_CONTROL);
}

static uint64_t amd_core_bits(const struct sim_cpu *cpu)
{
	uint64_t bits = 0;

	for (unsigned n = 0; n < SIM_AMD_CORE; n++)
		if (cpu->amd_core[n].present)
			bits |= 1ull << n;
	return bits;
}

static struct msr_target amd_global_msr(struct sim_cpu *cpu, uint32_t msr)
{
	bool v2 = cpu->amd_perfmon_v2;
	uint64_t bits = amd_core_bits(cpu);

	switch (msr) {
	case MSR_AMD_GLOBAL_STATUS:
		return read_only(v2, cpu->global_status);
	case MSR_AMD_GLOBAL_CTL:
		return reg_msr(v2, &cpu->global_ctrl, bits);
	case MSR_AMD_GLOBAL_STATUS_CLR:
		return status_msr(v2, MSR_STATUS_CLEAR, bits | STATUS_MODEL_BITS);
	case MSR_AMD_GLOBAL_STATUS_SET:
		return status_msr(v2, MSR_STATUS_SET, bits | STATUS_MODEL_BITS);
	}
	return none;
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
	t = amd_pair(cpu->amd_nb, SIM_AMD_NB, MSR_AMD_NB_CTL0, msr);
	if (t.kind != MSR_NONE)
		return t;
	return amd_global_msr(cpu, msr);
}

/* The address ranges the counter MSRs of either vendor live in. */
static bool in_pmu_range(uint32_t msr)
{
	return (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + 32) ||
	       (msr >= MSR_IA32_PERFEVTSEL0 && msr < MSR_IA32_PERFEVTSEL0 + 32) ||
	       (msr >= MSR_IA32_FIXED_CTR0 && msr < MSR_IA32_FIXED_CTR0 + 16) ||
	       (msr >= MSR_IA32_A_PMC0 && msr < MSR_IA32_A_PMC0 + 32) ||
	       (msr >= MSR_IA32_FIXED_CTR_CTRL && msr <= MSR_IA32_PERF_GLOBAL_STATUS_SET) ||
	       (msr >= MSR_AMD_PERF_EVTSEL0 && msr < MSR_AMD_PERF_CTR0 + 4) ||
	       (msr >= MSR_AMD_PERF_CTL_EXT0 && msr < MSR_AMD_NB_CTL0 + 8) ||
	       (msr >= MSR_AMD_GLOBAL_STATUS && msr <= MSR_AMD_GLOBAL_STATUS_SET);
}

static struct msr_target resolve(struct sim_cpu *cpu, uint32_t msr)
{
	struct msr_target t = none;

	if (cpu->enumeration.vendor == VENDOR_INTEL)
		t = intel_msr(cpu, msr);
	else if (cpu->enumeration.vendor == VENDOR_AMD)
		t = amd_msr(cpu, msr);
	if (t.kind == MSR_NONE && has(cpu, DEV_ABSENT_MSRS_ACCEPTED) &&
	    in_pmu_range(msr))
		t.kind = MSR_ABSENT_ACCEPTED;
	return t;
}

bool sim_rdmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t *value)
{
	struct msr_target t = resolve(cpu, msr);

	switch (t.kind) {
	case MSR_NONE:
		return false;
	case MSR_COUNT:
	case MSR_COUNT_LEGACY:
	case MSR_COUNT_FIXED:
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
	case MSR_STATUS_CLEAR:
	case MSR_STATUS_SET:
	case MSR_ABSENT_ACCEPTED:
		*value = 0;
		return true;
	}
	return false;
}

static uint64_t sign_extend_31(uint64_t value)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)value;
}

/* MSR-2: a reserved bit set is #GP(0). */
static bool reserved(const struct sim_cpu *cpu, const struct msr_target *t,
		     uint64_t value)
{
	return (value & ~t->allowed) && !has(cpu, DEV_RESERVED_BITS_ACCEPTED);
}

/* DEV_RUNNING_WRITE_LOST: the write misses a counter that is enabled. */
static bool write_lost(const struct sim_cpu *cpu, const struct msr_target *t)
{
	return has(cpu, DEV_RUNNING_WRITE_LOST) && (t->counter->control & EVTSEL_EN);
}

bool sim_wrmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t value)
{
	struct msr_target t = resolve(cpu, msr);

	if ((t.kind == MSR_COUNT_LEGACY || t.kind == MSR_COUNT) && write_lost(cpu, &t))
		return true;
	if (has(cpu, DEV_COUNTER_WRITES_DROPPED) &&
	    (t.kind == MSR_COUNT_LEGACY || t.kind == MSR_COUNT ||
	     t.kind == MSR_COUNT_FIXED || t.kind == MSR_CONTROL))
		return true;		/* no #GP, and nothing changes */
	switch (t.kind) {
	case MSR_NONE:
	case MSR_READ_ONLY:		/* OVF-4 */
		return false;
	case MSR_COUNT_LEGACY:		/* PROG-5: sign-extended from bit 31 */
		t.counter->raw = has(cpu, DEV_PMC_WRITE_ZERO_EXTENDED)
				 ? (uint32_t)value : sign_extend_31(value);
		return true;
	case MSR_COUNT_FIXED:		/* WR-1: as written */
		t.counter->raw = has(cpu, DEV_FIXED_WRITE_SIGN_EXTENDED)
				 ? sign_extend_31(value) : value;
		return true;
	case MSR_COUNT:
		t.counter->raw = value;
		return true;
	case MSR_CONTROL:
		t.counter->control = value;
		t.counter->condition = false;	/* EDGE starts afresh */
		return true;
	case MSR_REGISTER:
		if (reserved(cpu, &t, value))
			return false;
		*t.reg = value;
		return true;
	case MSR_STATUS_CLEAR:		/* OVF-2 */
		if (reserved(cpu, &t, value))
			return false;
		if (!has(cpu, DEV_STATUS_RESET_IGNORED))
			cpu->global_status &= ~value;
		return true;
	case MSR_STATUS_SET:		/* OVF-3 */
		if (reserved(cpu, &t, value))
			return false;
		if (!has(cpu, DEV_STATUS_SET_IGNORED))
			cpu->global_status |= value;
		return true;
	case MSR_ABSENT_ACCEPTED:
		return true;
	}
	return false;
}
