/*
 * RDPMC on the simulated CPU, written from the spec (docs/spec.md) on its
 * own: the privilege check first (PRIV-1..5), then ECX selects one source
 * (a counter, a fast read, PERF_METRICS) or none (#GP(0)), then the value
 * goes to EDX:EAX (ARCH-7, MODE-1). Each deviation changes one step.
 */
#include "sim_rdpmc.h"

#include <stddef.h>

#include "sim_cpus.h"

#define VECTOR_UD	6
#define VECTOR_GP	13
#define TYPE_GP		0x0000u		/* ARCH-1 */
#define TYPE_METRICS	0x2000u
#define TYPE_FIXED	0x4000u
#define ECX_FAST	0x80000000u	/* NARCH-2 */
#define AMD_BITS_31_30	0xC0000000u
#define CLEAR_EN	(1ull << 14)	/* IA32_FIXED_CTR_CTRL, MET-1 */
#define METRICS_SLOTS	3		/* fixed counter 3, cleared with it */
#define VMWARE_PMC0	0x10000u	/* DEV_VMWARE_BACKDOOR: 1_0000H.. */
#define VMWARE_PMCS	3

enum source { SOURCE_NONE, SOURCE_COUNTER, SOURCE_FAST, SOURCE_METRICS };

struct selection {
	enum source source;
	struct sim_counter *counter;	/* SOURCE_COUNTER, SOURCE_FAST */
};

static const struct selection none = { SOURCE_NONE, NULL };

static struct selection counter(struct sim_counter *c)
{
	return (struct selection){ SOURCE_COUNTER, c };
}

static bool has(const struct sim_cpu *cpu, enum deviation d)
{
	return cpu->deviation == d;
}

/* PRIV-1..4: CR0.PE = 0 always reads; v86 is CPL 3; else CPL 0 or PCE. */
static bool restricted(const struct sim_cpu *cpu, const struct exec_state *s)
{
	unsigned cpl = s->mode == MODE_V86 ? 3 : s->cpl;
	bool pce = s->pce && !has(cpu, DEV_PCE_IGNORED);

	if (s->mode == MODE_REAL)
		return false;
	/* An intercept the hypervisor left on a secondary vCPU (SMP-2). */
	if (has(cpu, DEV_AP_RDPMC_INTERCEPTED) && cpu->index != 0)
		return cpl != 0;
	if (pce)
		return false;
	if (has(cpu, DEV_CPL3_ONLY))
		return cpl == 3;
	return cpl != 0;
}

static bool below_count(const struct sim_cpu *cpu, unsigned index,
			unsigned count)
{
	return has(cpu, DEV_INDEX_OFF_BY_ONE) ? index <= count : index < count;
}

static bool in_bitmap(const struct sim_cpu *cpu, uint32_t bitmap,
		      unsigned index)
{
	return !has(cpu, DEV_BITMAP_IGNORED) && index < SIM_INDEX_BITS &&
	       ((bitmap >> index) & 1);
}

/* ARCH-1..6: ECX[31:16] the type, ECX[15:0] the index. */
static struct selection intel_arch(struct sim_cpu *cpu, uint32_t ecx)
{
	unsigned type, index, fixed_count;

	if (has(cpu, DEV_FAST_FLAG_ACCEPTED))
		ecx &= ~ECX_FAST;
	type = ecx >> 16;
	index = ecx & 0xFFFF;
	if (has(cpu, DEV_TYPE_IGNORED) && type != TYPE_FIXED &&
	    type != TYPE_METRICS)
		type = TYPE_GP;

	switch (type) {
	case TYPE_GP:		/* ARCH-2 */
		if (index < SIM_INDEX_BITS &&
		    (below_count(cpu, index, cpu->gp_count) ||
		     in_bitmap(cpu, cpu->gp_bitmap, index)))
			return counter(&cpu->gp[index]);
		return none;
	case TYPE_FIXED:	/* ARCH-3: EDX[4:0] only for version > 1 */
		fixed_count = has(cpu, DEV_V1_FIXED_ACCEPTED)
			      ? cpu->edx_fixed_count : cpu->fixed_count;
		if (index < SIM_INDEX_BITS &&
		    ((fixed_count && below_count(cpu, index, fixed_count)) ||
		     in_bitmap(cpu, cpu->fixed_bitmap, index)))
			return counter(&cpu->fixed[index]);
		return none;
	case TYPE_METRICS:	/* ARCH-4: only PERF_METRICS itself here */
		if (cpu->perf_metrics && index == 0)
			return (struct selection){ SOURCE_METRICS, NULL };
		return none;
	}
	return none;		/* ARCH-5, ARCH-6 */
}

/* NARCH-1, NARCH-2: PMC0 and PMC1, fast reads supported. */
static struct selection intel_narch(struct sim_cpu *cpu, uint32_t ecx)
{
	uint32_t index = ecx & ~ECX_FAST;

	if (index >= SIM_INDEX_BITS || !cpu->gp[index].present)
		return none;
	return (struct selection){ ecx & ECX_FAST ? SOURCE_FAST : SOURCE_COUNTER,
				   &cpu->gp[index] };
}

/* AMD-2: a plain number; ranges by PerfCtrExtCore / NB / LLC. */
static struct selection amd(struct sim_cpu *cpu, uint32_t ecx)
{
	struct sim_counter *c = NULL;

	if (has(cpu, DEV_AMD_BITS_31_30_IGNORED))
		ecx &= ~AMD_BITS_31_30;
	if (ecx < SIM_AMD_CORE)
		c = &cpu->amd_core[ecx];
	else if (ecx < SIM_AMD_CORE + SIM_AMD_NB)
		c = &cpu->amd_nb[ecx - SIM_AMD_CORE];
	else if (ecx < SIM_AMD_CORE + SIM_AMD_NB + SIM_AMD_L2)
		c = &cpu->amd_l2[ecx - SIM_AMD_CORE - SIM_AMD_NB];
	return c && c->present ? counter(c) : none;
}

static struct selection select_source(struct sim_cpu *cpu,
				      const struct exec_state *s, uint64_t rcx)
{
	/* MODE-1: 64-bit mode ignores RCX[63:32]; elsewhere rcx is ECX. */
	if (s->mode == MODE_LONG && has(cpu, DEV_RCX_HIGH_USED) && rcx >> 32)
		return none;
	switch (cpu->enumeration.vendor) {
	case VENDOR_INTEL:
		return cpu->version ? intel_arch(cpu, (uint32_t)rcx)
				    : intel_narch(cpu, (uint32_t)rcx);
	case VENDOR_AMD:
		return amd(cpu, (uint32_t)rcx);
	case VENDOR_OTHER:
		break;
	}
	return none;
}

/* MET-1, MET-2: the read, then the clear if enabled and enumerated. */
static uint64_t read_metrics(struct sim_cpu *cpu)
{
	uint64_t value = cpu->metrics;
	bool clear = cpu->metrics_clear && (cpu->fixed_ctrl & CLEAR_EN);

	if (has(cpu, DEV_METRICS_NOT_CLEARED))
		clear = false;
	if (has(cpu, DEV_METRICS_ALWAYS_CLEARED))
		clear = true;
	if (clear) {
		cpu->metrics = 0;
		cpu->fixed[METRICS_SLOTS].raw = 0;
	}
	return value;
}

/* The counter RDPMC reads: sel's, or under DEV_RDPMC_STALE_UNTIL_MSR_EXIT
 * the same counter of the CPU whose counters the hardware still holds. */
static const struct sim_counter *held(struct sim_cpu *cpu,
				      const struct sim_counter *c)
{
	const struct sim_cpu *loaded = sim_cpus_loaded();

	return (const struct sim_counter *)((const char *)loaded +
					    ((const char *)c - (const char *)cpu));
}

/* DEV_AP_RDPMC_HOST_COUNTS: what the host's counter holds, a count of its
 * own that has nothing to do with the vCPU's. */
#define HOST_COUNT 0x00003C5A96F0E1D2ull

static uint64_t read_value(struct sim_cpu *cpu, const struct selection *sel)
{
	const struct sim_counter *c;
	uint64_t value;

	if (sel->source == SOURCE_METRICS)
		return read_metrics(cpu);
	c = held(cpu, sel->counter);
	value = has(cpu, DEV_WIDTH_UNMASKED) ? c->raw : sim_counter_value(c);
	if (has(cpu, DEV_AP_RDPMC_HOST_COUNTS) && cpu->index != 0)
		value = HOST_COUNT & (c->width < 64 ? (1ull << c->width) - 1 : ~0ull);
	if (sel->source == SOURCE_FAST && !has(cpu, DEV_EDX_NOT_ZEROED_FAST))
		value &= 0xFFFFFFFF;	/* NARCH-2: EDX = 0 */
	return value;
}

static void fault(struct sim_cpu *cpu, uint8_t vector, uint32_t error_code,
		  struct exec_outcome *out)
{
	out->faulted = true;
	out->vector = vector;
	out->error_code = error_code;
	out->fault_rip = SIM_RDPMC_RIP;		/* PRIV-6 */
	if (has(cpu, DEV_RIP_ADVANCED_ON_FAULT))
		out->fault_rip += SIM_RDPMC_LEN;
	if (has(cpu, DEV_REGS_CLOBBERED_ON_FAULT))
		out->rax = out->rdx = 0;
}

static void raise_gp(struct sim_cpu *cpu, struct exec_outcome *out)
{
	fault(cpu, VECTOR_GP, has(cpu, DEV_GP_ERROR_CODE) ? 1 : 0, out);
}

void sim_rdpmc(struct sim_cpu *cpu, const struct exec_state *state,
	       uint64_t rax, uint64_t rcx, uint64_t rdx,
	       struct exec_outcome *out)
{
	bool long_mode = state->mode == MODE_LONG;
	uint64_t mask = long_mode ? ~0ull : 0xFFFFFFFFull;
	struct selection sel;
	uint64_t value;

	*out = (struct exec_outcome){
		.insn_rip = SIM_RDPMC_RIP,
		.rax = rax & mask, .rcx = rcx & mask, .rdx = rdx & mask,
	};
	/* KVM with enable_vmware_backdoor: three clocks, at any CPL. */
	if (has(cpu, DEV_VMWARE_BACKDOOR) &&
	    (uint32_t)out->rcx - VMWARE_PMC0 < VMWARE_PMCS) {
		cpu->noise += 0x1000;
		out->rax = (uint32_t)cpu->noise;
		out->rdx = (uint32_t)(cpu->noise >> 32);
		return;
	}
	if (restricted(cpu, state)) {		/* PRIV-5: before ECX */
		raise_gp(cpu, out);
		return;
	}
	if (has(cpu, DEV_UD_INSTEAD_OF_READ)) {
		fault(cpu, VECTOR_UD, EXEC_NO_ERROR_CODE, out);
		return;
	}
	sel = select_source(cpu, state, out->rcx);
	if (sel.source == SOURCE_NONE) {	/* ARCH-5, AMD-2 */
		raise_gp(cpu, out);
		return;
	}
	value = read_value(cpu, &sel);
	/* MODE-1: a 32-bit write clears the high half of RAX and RDX. */
	out->rax = (uint32_t)value;
	out->rdx = (uint32_t)(value >> 32);
	if (long_mode && has(cpu, DEV_NO_HIGH_CLEAR)) {
		out->rax |= rax & ~0xFFFFFFFFull;
		out->rdx |= rdx & ~0xFFFFFFFFull;
	}
}
