/*
 * The PMU MSRs of the simulated CPU (PROG-1, PROG-5, PRIV-7, MET-1, AMD-2,
 * WR-1, WR-2, OVF-1..4, MSR-1, MSR-2). Each address resolves to one register; an
 * address the profile does not enumerate resolves to none, and the access
 * raises #GP(0), as does a write that sets a reserved bit; AMD's
 * PerfCntrGlobalCtl, whose reserved bits read as zero (RAZ), takes it.
 */
#include "sim_msr.h"

#include <stddef.h>

#include "sim_count.h"

#define FIXED_FIELDS		16	/* IA32_FIXED_CTR_CTRL: 4 bits each */
#define FIXED_FIELD(i)		(0xFull << (4 * (i)))
#define EVTSEL_EN		(1ull << 22)
#define EVTSEL_ANY		(1ull << 21)	/* PROG-11 */
#define EVTSEL_INT		(1ull << 20)	/* MSR-4 */
#define EVTSEL_HIGH		(~0ull << 32)	/* PROG-10, PROG-12, PROG-13 */
#define EVTSEL_IN_TX		(1ull << 32)	/* PROG-12 */
#define EVTSEL_IN_TXCP		(1ull << 33)	/* PROG-12: IA32_PERFEVTSEL2 only */
#define EVTSEL_EQ		(1ull << 36)	/* PROG-13 */
#define EVTSEL_UMASK2		(0xFFull << 40)	/* PROG-13 */
#define IN_TXCP_SELECT		2
#define INUSE_PMI		(1ull << 63)	/* MSR-4 */
#define INUSE_VERSION		4
#define AMD_EVENT_11_8		(0xFull << 32)	/* AMD-5 */
#define AMD_HOST_GUEST		(3ull << 40)	/* AMD-6 */
#define DEBUGCTL_FREEZE_PERFMON	(1ull << 12)	/* PMI-6 */
#define PDCM_VERSION_FREEZE	2	/* FREEZE_PERFMON_ON_PMI: version > 1 */
#define GLOBAL_EN_METRICS	(1ull << 48)
#define STATUS_MODEL_BITS	0xFFFF000000000000ull	/* 48-63: not counters */

enum msr_kind {
	MSR_NONE,		/* #GP(0) */
	MSR_COUNT,		/* a counter: reads keep its width */
	MSR_COUNT_LEGACY,	/* IA32_PMCx: a write sign-extends bit 31 */
	MSR_COUNT_FIXED,	/* IA32_FIXED_CTRx: written as given (WR-1) */
	MSR_COUNT_FULL,		/* IA32_A_PMCx: full width, no more (WR-3) */
	MSR_CONTROL,		/* an event select */
	MSR_REGISTER,		/* a 64-bit register, `allowed` its bits */
	MSR_REGISTER_RAZ,	/* AMD: the same, its other bits read as zero */
	MSR_FIXED_CTRL,		/* IA32_FIXED_CTR_CTRL, a register as above */
	MSR_READ_ONLY,		/* PERF_CAPABILITIES, the global status */
	MSR_STATUS_CLEAR,	/* writing 1 clears a status bit (OVF-2) */
	MSR_STATUS_SET,		/* writing 1 sets a status bit (OVF-3) */
	MSR_ABSENT_ACCEPTED,	/* DEV_ABSENT_MSRS_ACCEPTED: reads 0 */
	MSR_WRITE_DROPPED,	/* DEV_PERF_CAPS_WRITES_DROPPED: reads `value` */
	MSR_INUSE,		/* IA32_PERF_GLOBAL_INUSE: follows the controls */
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

/* MSR-2, AMD: reserved bits qualified RAZ take a write and read 0. */
static struct msr_target raz_msr(bool exists, uint64_t *reg, uint64_t allowed)
{
	return (struct msr_target){ exists ? MSR_REGISTER_RAZ : MSR_NONE, NULL,
				    reg, 0, allowed };
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

/* MET-3, MSR-3: read-only, and only with PDCM. */
static struct msr_target perf_capabilities(const struct sim_cpu *cpu)
{
	struct msr_target t;

	if (!cpu->perf_capabilities)
		return read_only(has(cpu, DEV_PERF_CAPS_WITHOUT_PDCM), 0);
	t = read_only(true, cpu->enumeration.has_perf_capabilities
			    ? cpu->enumeration.perf_capabilities : 0);
	if (has(cpu, DEV_PERF_CAPS_WRITES_DROPPED))
		t.kind = MSR_WRITE_DROPPED;
	return t;
}

/* PMI-6: IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI exists with PDCM, version > 1. */
static bool freeze_defined(const struct sim_cpu *cpu)
{
	return cpu->perf_capabilities && cpu->version >= PDCM_VERSION_FREEZE;
}

/* MSR-4: IA32_PERF_GLOBAL_INUSE exists from version 4, read-only. */
static struct msr_target global_inuse(const struct sim_cpu *cpu)
{
	struct msr_target t = none;

	if (cpu->version >= INUSE_VERSION && !has(cpu, DEV_INUSE_ABSENT))
		t.kind = has(cpu, DEV_INUSE_WRITABLE) ? MSR_WRITE_DROPPED
						      : MSR_INUSE;
	return t;
}

/* MSR-4: bit x while IA32_PERFEVTSELx[7:0] is non-zero, 32 + i while field
 * i of IA32_FIXED_CTR_CTRL enables a ring, 63 while an interrupt enable
 * (INT, a fixed PMI bit) is set. DEV_INUSE_FOLLOWS_EN takes EN for the
 * event select. */
static uint64_t inuse_value(const struct sim_cpu *cpu)
{
	uint64_t inuse = 0;

	for (unsigned x = 0; x < SIM_INDEX_BITS; x++) {
		const struct sim_counter *c = &cpu->gp[x];
		bool used = has(cpu, DEV_INUSE_FOLLOWS_EN)
			    ? (c->control & EVTSEL_EN) != 0
			    : (c->control & 0xFF) != 0;

		if (!c->present)
			continue;
		if (used)
			inuse |= 1ull << x;
		if (c->control & EVTSEL_INT)
			inuse |= INUSE_PMI;
	}
	for (unsigned i = 0; i < FIXED_FIELDS && i < 31; i++) {
		if (!cpu->fixed[i].present)
			continue;
		if (cpu->fixed_ctrl & (3ull << (4 * i)))
			inuse |= 1ull << (32 + i);
		if (cpu->fixed_ctrl & (8ull << (4 * i)))
			inuse |= INUSE_PMI;
	}
	return inuse;
}

static struct msr_target intel_global_msr(struct sim_cpu *cpu, uint32_t msr)
{
	bool v2 = cpu->version >= 2, v4 = cpu->version >= 4;
	uint64_t counters = intel_counter_bits(cpu);

	switch (msr) {
	case MSR_IA32_FIXED_CTR_CTRL: {
		struct msr_target t = reg_msr(v2, &cpu->fixed_ctrl,
					      fixed_ctrl_bits(cpu));

		if (t.kind == MSR_REGISTER)
			t.kind = MSR_FIXED_CTRL;
		return t;
	}
	case MSR_IA32_PERF_GLOBAL_CTRL:
		return reg_msr(v2, &cpu->global_ctrl,
			       counters | (cpu->perf_metrics ? GLOBAL_EN_METRICS : 0));
	case MSR_IA32_PERF_GLOBAL_STATUS:
		return read_only(v2, cpu->global_status);
	case MSR_IA32_PERF_GLOBAL_OVF_CTRL:
		return status_msr(v2, MSR_STATUS_CLEAR, counters | STATUS_MODEL_BITS);
	case MSR_IA32_PERF_GLOBAL_STATUS_SET:
		return status_msr(v4, MSR_STATUS_SET, counters | STATUS_MODEL_BITS);
	case MSR_IA32_PERF_GLOBAL_INUSE:
		return global_inuse(cpu);
	case MSR_IA32_PERF_METRICS:
		return reg_msr(cpu->perf_metrics, &cpu->metrics, ~0ull);
	case MSR_IA32_PERF_CAPABILITIES:
		return perf_capabilities(cpu);
	case MSR_IA32_DEBUGCTL:	/* PMI-6: FREEZE_PERFMON_ON_PMI alone */
		return reg_msr(true, &cpu->debugctl,
			       freeze_defined(cpu) && !has(cpu, DEV_FREEZE_REFUSED)
			       ? DEBUGCTL_FREEZE_PERFMON : 0);
	case MSR_EFER:
		return read_only(true, cpu->efer);
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
		       ? counter_msr(&cpu->gp[msr - MSR_IA32_A_PMC0], MSR_COUNT_FULL)
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
	case MSR_AMD_PERF_GLOBAL_STATUS:
		return read_only(v2, cpu->global_status);
	case MSR_AMD_PERF_GLOBAL_CTL:	/* bits past the counters: RAZ */
		return raz_msr(v2, &cpu->global_ctrl, bits);
	case MSR_AMD_PERF_GLOBAL_STATUS_CLR:
		return status_msr(v2, MSR_STATUS_CLEAR, bits | STATUS_MODEL_BITS);
	case MSR_AMD_PERF_GLOBAL_STATUS_SET:
		return status_msr(v2, MSR_STATUS_SET, bits | STATUS_MODEL_BITS);
	case MSR_IA32_DEBUGCTL:	/* its freeze is not simulated on AMD */
		return reg_msr(true, &cpu->debugctl, 0);
	case MSR_EFER:
		return read_only(true, cpu->efer);
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
	       (msr >= MSR_IA32_FIXED_CTR_CTRL && msr <= MSR_IA32_PERF_GLOBAL_INUSE) ||
	       (msr >= MSR_AMD_PERF_EVTSEL0 && msr < MSR_AMD_PERF_CTR0 + 4) ||
	       (msr >= MSR_AMD_PERF_CTL_EXT0 && msr < MSR_AMD_NB_CTL0 + 8) ||
	       (msr >= MSR_AMD_PERF_GLOBAL_STATUS && msr <= MSR_AMD_PERF_GLOBAL_STATUS_SET);
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
	case MSR_COUNT_FULL:
		*value = sim_counter_value(t.counter);	/* PRIV-7 */
		return true;
	case MSR_CONTROL:
		*value = t.counter->control;
		return true;
	case MSR_REGISTER:
	case MSR_REGISTER_RAZ:
	case MSR_FIXED_CTRL:
		*value = *t.reg;
		return true;
	case MSR_READ_ONLY:
		*value = t.value;
		return true;
	case MSR_WRITE_DROPPED:
		*value = msr == MSR_IA32_PERF_GLOBAL_INUSE ? inuse_value(cpu)
							   : t.value;
		return true;
	case MSR_INUSE:
		*value = inuse_value(cpu);
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

/* WR-3: a bit at or above the width is reserved, #GP(0); false then. */
static bool within_width(const struct sim_cpu *cpu, const struct sim_counter *c,
			 uint64_t *value)
{
	uint64_t mask = c->width < 64 ? (1ull << c->width) - 1 : ~0ull;

	if (!(*value & ~mask))
		return true;
	*value &= mask;
	return has(cpu, DEV_BEYOND_WIDTH_TRUNCATED);
}

/* What DEV_RUNNING_WRITE_ADDS_CONSTANT adds to a write of a running
 * counter: the host's instructions of handling the WRMSR exit, counted
 * into the guest's counter after the value is set (WR-2). */
#define EXIT_WORK_COUNTED	100

/* A count written: a perf-based hypervisor computes the new overflow
 * point, unless DEV_RUNNING_WRITE_KEEPS_PERIOD skips it while the counter
 * runs (OVF-5). */
static void set_count(struct sim_cpu *cpu, struct sim_counter *c, uint64_t raw)
{
	if (has(cpu, DEV_RUNNING_WRITE_ADDS_CONSTANT) && sim_counter_enabled(cpu, c))
		raw += EXIT_WORK_COUNTED;
	c->raw = raw;
	if (!has(cpu, DEV_RUNNING_WRITE_KEEPS_PERIOD) || !sim_counter_enabled(cpu, c))
		sim_rearm(cpu, c);
}

/* Bits 63:32 of IA32_PERFEVTSELx the enumeration defines: IN_TX with
 * TSX, IN_TXCP with TSX on IA32_PERFEVTSEL2 alone (PROG-12), EQ and UMASK2
 * where CPUID.23H.00H:EBX says (PROG-13); each deviation gets one wrong. */
static uint64_t select_high_defined(const struct sim_cpu *cpu, unsigned x)
{
	uint64_t defined = 0;

	if (cpu->tsx && !has(cpu, DEV_IN_TX_REFUSED))
		defined |= EVTSEL_IN_TX;
	if (cpu->tsx && (x == IN_TXCP_SELECT || has(cpu, DEV_IN_TXCP_ANY_COUNTER)))
		defined |= EVTSEL_IN_TXCP;
	if (has(cpu, DEV_TSX_BITS_WITHOUT_TSX))
		defined |= EVTSEL_IN_TX | EVTSEL_IN_TXCP;
	if (cpu->evtsel_umask2 && !has(cpu, DEV_EVTSEL_EXT_REFUSED))
		defined |= EVTSEL_UMASK2;
	if (cpu->evtsel_eq && !has(cpu, DEV_EVTSEL_EXT_REFUSED))
		defined |= EVTSEL_EQ;
	if (has(cpu, DEV_EVTSEL_EXT_WITHOUT_LEAF23))
		defined |= EVTSEL_UMASK2 | EVTSEL_EQ;
	return defined;
}

/* The value the event select of c takes, false for #GP(0): Intel's
 * reserved bits (PROG-10, PROG-11, PROG-12, PROG-13); AMD keeps every bit
 * (AMD-4). */
static bool select_value(const struct sim_cpu *cpu, const struct sim_counter *c,
			 uint64_t *value)
{
	uint64_t reserved;

	if (cpu->enumeration.vendor == VENDOR_AMD) {
		if (has(cpu, DEV_AMD_EVENTSEL_HIGH_DROPPED))
			*value &= ~AMD_EVENT_11_8;
		if (has(cpu, DEV_HG_ONLY_IGNORED))
			*value &= ~AMD_HOST_GUEST;
		return true;
	}
	reserved = EVTSEL_HIGH &
		   ~select_high_defined(cpu, (unsigned)(c - cpu->gp));
	if (cpu->version < 3 || has(cpu, DEV_ANYTHREAD_REFUSED))
		reserved |= EVTSEL_ANY;
	if (!(*value & reserved))
		return true;
	*value &= ~reserved;
	return has(cpu, DEV_EVTSEL_RESERVED_DROPPED);
}

/* What the fixed counters follow after IA32_FIXED_CTR_CTRL went from old
 * to written: the written value; DEV_FIXED_CTRL_TRUNCATED compares each
 * field with the old value cut to 8 bits (fields 0 and 1) and leaves the
 * counter as it was where they look equal (KVM's reprogram_fixed_counters()
 * with its u8 old_fixed_ctr_ctrl). */
static uint64_t fixed_ctrl_counting(const struct sim_cpu *cpu, uint64_t old,
				    uint64_t written)
{
	uint64_t counting = cpu->fixed_ctrl_counting;

	if (!has(cpu, DEV_FIXED_CTRL_TRUNCATED))
		return written;
	for (unsigned i = 0; i < FIXED_FIELDS; i++) {
		uint64_t field = FIXED_FIELD(i);

		if (((uint8_t)old & field) != (written & field))
			counting = (counting & ~field) | (written & field);
	}
	return counting;
}

bool sim_wrmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t value)
{
	struct msr_target t = resolve(cpu, msr);
	uint64_t old;

	if ((t.kind == MSR_COUNT_LEGACY || t.kind == MSR_COUNT ||
	     t.kind == MSR_COUNT_FULL) && write_lost(cpu, &t))
		return true;
	if (has(cpu, DEV_COUNTER_WRITES_DROPPED) &&
	    (t.kind == MSR_COUNT_LEGACY || t.kind == MSR_COUNT ||
	     t.kind == MSR_COUNT_FIXED || t.kind == MSR_CONTROL))
		return true;		/* no #GP, and nothing changes */
	switch (t.kind) {
	case MSR_NONE:
	case MSR_READ_ONLY:		/* OVF-4, MSR-3 */
	case MSR_INUSE:			/* MSR-4 */
		return false;
	case MSR_COUNT_LEGACY:		/* PROG-5: sign-extended from bit 31 */
		set_count(cpu, t.counter, has(cpu, DEV_PMC_WRITE_ZERO_EXTENDED)
					  ? (uint32_t)value : sign_extend_31(value));
		return true;
	case MSR_COUNT_FIXED:		/* WR-1: as written, WR-3 */
		if (!within_width(cpu, t.counter, &value))
			return false;
		set_count(cpu, t.counter, has(cpu, DEV_FIXED_WRITE_SIGN_EXTENDED)
					  ? sign_extend_31(value) : value);
		return true;
	case MSR_COUNT_FULL:		/* PROG-5, WR-3 */
		if (!within_width(cpu, t.counter, &value))
			return false;
		set_count(cpu, t.counter, value);
		return true;
	case MSR_COUNT:			/* AMD-3: as written */
		set_count(cpu, t.counter, value);
		return true;
	case MSR_CONTROL:
		if (!select_value(cpu, t.counter, &value))
			return false;
		t.counter->control = value;
		t.counter->condition = false;	/* EDGE starts afresh */
		sim_rearm(cpu, t.counter);
		return true;
	case MSR_REGISTER:
		if (reserved(cpu, &t, value))
			return false;
		*t.reg = value;
		sim_rearm_all(cpu);
		return true;
	case MSR_REGISTER_RAZ:		/* MSR-2, AMD: no #GP, the bits read 0 */
		if ((value & ~t.allowed) &&
		    has(cpu, DEV_AMD_GLOBAL_CTL_RESERVED_GP))
			return false;
		if (!has(cpu, DEV_RESERVED_BITS_ACCEPTED))
			value &= t.allowed;
		*t.reg = value;
		sim_rearm_all(cpu);
		return true;
	case MSR_FIXED_CTRL:
		if (reserved(cpu, &t, value))
			return false;
		old = cpu->fixed_ctrl;
		cpu->fixed_ctrl = value;
		cpu->fixed_ctrl_counting = fixed_ctrl_counting(cpu, old, value);
		sim_rearm_all(cpu);
		return true;
	case MSR_STATUS_CLEAR:		/* OVF-2 */
		if (reserved(cpu, &t, value))
			return false;
		/* DEV_STATUS_RESET_IGNORED loses the counters' bits; CTR_Frz
		 * (PMI-6) still clears, or every later check stays frozen. */
		cpu->global_status &= ~(has(cpu, DEV_STATUS_RESET_IGNORED)
					? value & STATUS_MODEL_BITS : value);
		return true;
	case MSR_STATUS_SET:		/* OVF-3 */
		if (reserved(cpu, &t, value))
			return false;
		if (!has(cpu, DEV_STATUS_SET_IGNORED))
			cpu->global_status |= value;
		return true;
	case MSR_ABSENT_ACCEPTED:
	case MSR_WRITE_DROPPED:
		return true;
	}
	return false;
}
