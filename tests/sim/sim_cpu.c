/*
 * The simulated PMU built from the profile's enumeration, in its reset
 * state; tests/sim/sim_count.c makes it count.
 */
#include "sim_cpu.h"

#include <string.h>

#include "cpus.h"
#include "sim_count.h"

#define PDCM			(1u << 15)	/* CPUID.01H:ECX, MET-3 */
#define CAP_FW_WRITE		(1ull << 13)	/* PROG-5 */
#define CAP_PERF_METRICS	(1ull << 15)	/* ARCH-4 */
#define CAP_METRICS_CLEAR	(1ull << 19)	/* MET-1 */
#define AMD_EXT_CORE		(1u << 23)	/* CPUID 8000_0001H:ECX, AMD-2 */
#define AMD_EXT_NB		(1u << 24)
#define AMD_EXT_LLC		(1u << 28)

#define NARCH_PMCS	2	/* PMC0 and PMC1, as on P6 and Pentium M */
#define NARCH_WIDTH	40	/* NARCH-3 */
#define AMD_WIDTH	48	/* AMD-3 */

#define AMD_PERFMON_V2	(1u << 0)	/* CPUID 8000_0022H:EAX */
#define LVT_RESET	0x00010000u	/* masked, vector 0 (SDM Vol. 3A, LVT) */
#define ANYTHREAD_DEPRECATED	(1u << 15)	/* CPUID.0AH:EDX, PROG-11 */
#define TSX_HLE_RTM		((1u << 4) | (1u << 11))  /* CPUID.07H:EBX, PROG-12 */
#define EXT_UMASK2		(1u << 0)	/* CPUID.23H.00H:EBX, PROG-13 */
#define EXT_EQ			(1u << 1)
#define TOPOLOGY_SMT		1	/* CPUID.0BH/1FH ECX[15:8], SMP-8 */
/* EFER as a 64-bit kernel runs: LME, LMA, NXE; SVME (bit 12) clear. */
#define EFER_LONG_MODE	0x0D00ull
#define NOISE_SEED	0x9E3779B97F4A7C15ull

static unsigned bits(uint32_t reg, unsigned low, unsigned n)
{
	return (reg >> low) & ((1u << n) - 1);
}

/* RESET-2: a counter and its event select read 0 after reset. */
static void present(struct sim_counter *c, unsigned width)
{
	c->present = true;
	c->width = width;
	c->raw = 0;
	c->control = 0;
}

/* DEV_PMU_NOT_RESET: what a previous boot left in a core counter: a
 * count and an event select still counting cycles in every ring. */
#define PREVIOUS_BOOT_SELECT	0x530076ull	/* En, Int, Os, Usr, 76H */

static void left_by_previous_boot(struct sim_counter *c, unsigned seed)
{
	c->raw = 0x5A10000000ull | (uint64_t)seed << 12;
	c->control = PREVIOUS_BOOT_SELECT;
}

/* DEV_AP_NOT_AS_INIT_LEFT: an application processor starts with its
 * first counter counting, as if INIT (or the VMM that emulates it) did
 * not leave the reset state (SMP-5). */
static void left_by_firmware(struct sim_cpu *cpu)
{
	if (cpu->enumeration.vendor == VENDOR_AMD)
		left_by_previous_boot(&cpu->amd_core[0], 0);
	else
		left_by_previous_boot(&cpu->gp[0], 0);
}

/* SMP-8: the SMT level, of leaf 1FH where it counts, else of 0BH; NULL
 * where neither enumerates one. */
static const struct cpuid_topology_level *smt_level(const struct pmu_cpuid *e)
{
	const struct cpuid_topology_level *smt =
		e->has_leaf1f && bits(e->leaf1f[0].ebx, 0, 16) ? &e->leaf1f[0]
		: e->has_leaf0b ? &e->leaf0b[0] : 0;

	if (!smt || bits(smt->ecx, 8, 8) != TOPOLOGY_SMT ||
	    bits(smt->ebx, 0, 16) == 0)
		return 0;
	return smt;
}

static void init_intel(struct sim_cpu *cpu, const struct pmu_cpuid *e)
{
	unsigned gp_width = bits(e->leaf0a_eax, 16, 8);
	unsigned fixed_width;

	cpu->version = bits(e->leaf0a_eax, 0, 8);
	cpu->gp_count = bits(e->leaf0a_eax, 8, 8);
	cpu->edx_fixed_count = bits(e->leaf0a_edx, 0, 5);
	cpu->edx_fixed_width = bits(e->leaf0a_edx, 5, 8);
	cpu->fixed_count = cpu->version > 1 ? cpu->edx_fixed_count : 0;
	cpu->anythread_deprecated = (e->leaf0a_edx & ANYTHREAD_DEPRECATED) != 0;
	cpu->tsx = (e->leaf07_ebx & TSX_HLE_RTM) != 0;
	cpu->evtsel_umask2 = (e->leaf23_0_ebx & EXT_UMASK2) != 0;
	cpu->evtsel_eq = (e->leaf23_0_ebx & EXT_EQ) != 0;
	if (cpu->deviation == DEV_FIXED_CAPPED_AT_THREE && cpu->fixed_count > 3)
		cpu->fixed_count = 3;	/* and bitmaps still honoured */
	fixed_width = cpu->version > 1 ? cpu->edx_fixed_width : 0;
	cpu->gp_bitmap = e->has_leaf23 ? e->leaf23_1_eax : 0;
	cpu->fixed_bitmap = e->leaf0a_ecx | (e->has_leaf23 ? e->leaf23_1_ebx : 0);

	cpu->perf_capabilities = (e->leaf01_ecx & PDCM) != 0;
	if (cpu->perf_capabilities) {
		uint64_t caps = e->has_perf_capabilities ? e->perf_capabilities : 0;

		cpu->fw_write = (caps & CAP_FW_WRITE) != 0;
		cpu->perf_metrics = (caps & CAP_PERF_METRICS) != 0;
		cpu->metrics_clear = (caps & CAP_METRICS_CLEAR) != 0;
	}

	if (cpu->version == 0) {
		for (unsigned x = 0; x < NARCH_PMCS; x++)
			present(&cpu->gp[x], NARCH_WIDTH);
		return;
	}
	for (unsigned x = 0; x < SIM_INDEX_BITS; x++) {
		if (x < cpu->gp_count || ((cpu->gp_bitmap >> x) & 1))
			present(&cpu->gp[x], gp_width);
		/* A fixed counter enumerated only by a bitmap has the width
		 * of EDX[12:5]; on version 1 none is enumerated (48 bits). */
		if (x < cpu->fixed_count || ((cpu->fixed_bitmap >> x) & 1))
			present(&cpu->fixed[x], fixed_width ? fixed_width : 48);
	}
	/* RESET-1: the general-purpose counters globally enabled (SDM Vol.
	 * 3A, "Processor States Following Power-up, Reset, or INIT"). */
	for (unsigned x = 0; x < SIM_INDEX_BITS && cpu->version >= 2 &&
			     cpu->deviation != DEV_GLOBAL_CTRL_RESET_ZERO; x++)
		if (cpu->gp[x].present)
			cpu->global_ctrl |= 1ull << x;
}

static void init_amd(struct sim_cpu *cpu, const struct pmu_cpuid *e)
{
	cpu->amd_ext_core = (e->ext01_ecx & AMD_EXT_CORE) != 0;
	cpu->amd_perfmon_v2 = (e->ext22_eax & AMD_PERFMON_V2) != 0;
	for (unsigned n = 0; n < (cpu->amd_ext_core ? SIM_AMD_CORE : 4); n++) {
		present(&cpu->amd_core[n], AMD_WIDTH);
		if (cpu->deviation == DEV_PMU_NOT_RESET)
			left_by_previous_boot(&cpu->amd_core[n], n);
	}
	/* RESET-4: legacy software must count without knowing the global
	 * enables, so they start set (APM Vol. 2, PerfCntrGlobalCtl). */
	for (unsigned n = 0; n < SIM_AMD_CORE && cpu->amd_perfmon_v2 &&
			     cpu->deviation != DEV_AMD_GLOBAL_CTL_RESET_ZERO; n++)
		if (cpu->amd_core[n].present)
			cpu->global_ctrl |= 1ull << n;
	/* DEV_PMU_NOT_RESET: the previous boot's overflow, never cleared. */
	if (cpu->amd_perfmon_v2 && cpu->deviation == DEV_PMU_NOT_RESET)
		cpu->global_status = 1;
	if (e->ext01_ecx & AMD_EXT_NB)
		for (unsigned n = 0; n < SIM_AMD_NB; n++)
			present(&cpu->amd_nb[n], AMD_WIDTH);
	if (e->ext01_ecx & AMD_EXT_LLC)
		for (unsigned n = 0; n < SIM_AMD_L2; n++)
			present(&cpu->amd_l2[n], AMD_WIDTH);
}

/* DEV_ENUMERATION_DIFFERS: an application processor enumerates one
 * general-purpose counter fewer (Intel: CPUID.0AH:EAX[15:8]; AMD: no
 * PerfCtrExtCore, 4 core counters instead of 6, or PerfMonV2's count). */
static void enumerate_differently(struct pmu_cpuid *e)
{
	unsigned gp = (e->leaf0a_eax >> 8) & 0xFF;

	if (e->vendor == VENDOR_INTEL && gp > 0)
		e->leaf0a_eax = (e->leaf0a_eax & ~0xFF00u) | (gp - 1) << 8;
	else if (e->vendor == VENDOR_AMD && (e->ext01_ecx & AMD_EXT_CORE))
		e->ext01_ecx &= ~AMD_EXT_CORE;
	else if (e->vendor == VENDOR_AMD)
		e->ext01_ecx |= AMD_EXT_CORE;
}

void sim_cpu_init(struct sim_cpu *cpu, const struct pmu_cpuid *enumeration,
		  enum deviation deviation, unsigned index)
{
	const struct cpuid_topology_level *smt;

	memset(cpu, 0, sizeof(*cpu));
	cpu->enumeration = *enumeration;
	cpu->deviation = deviation;
	cpu->index = index;
	if (index != 0 && deviation == DEV_ENUMERATION_DIFFERS)
		enumerate_differently(&cpu->enumeration);
	cpu->lvt_pc = LVT_RESET;
	cpu->efer = EFER_LONG_MODE;
	cpu->noise = NOISE_SEED;
	smt = smt_level(&cpu->enumeration);
	cpu->smt_shift = smt ? bits(smt->eax, 0, 5) : 0;
	if (cpu->enumeration.vendor == VENDOR_INTEL)
		init_intel(cpu, &cpu->enumeration);
	else if (cpu->enumeration.vendor == VENDOR_AMD)
		init_amd(cpu, &cpu->enumeration);
	if (index != 0 && deviation == DEV_AP_NOT_AS_INIT_LEFT)
		left_by_firmware(cpu);
	sim_rearm_all(cpu);
}

bool sim_same_core(const struct sim_cpu *a, const struct sim_cpu *b)
{
	return platform_cpu_apic_id(a->index) >> a->smt_shift ==
	       platform_cpu_apic_id(b->index) >> b->smt_shift;
}

uint64_t sim_counter_value(const struct sim_counter *c)
{
	return c->width < 64 ? c->raw & ((1ull << c->width) - 1) : c->raw;
}

bool sim_status_bit(const struct sim_cpu *cpu, const struct sim_counter *c,
		    uint64_t *bit)
{
	if (cpu->enumeration.vendor == VENDOR_INTEL && cpu->version >= 2) {
		if (c >= cpu->gp && c < cpu->gp + SIM_INDEX_BITS) {
			*bit = 1ull << (c - cpu->gp);
			return true;
		}
		if (c >= cpu->fixed && c < cpu->fixed + SIM_INDEX_BITS) {
			*bit = 1ull << (32 + (c - cpu->fixed));
			return true;
		}
	}
	if (cpu->amd_perfmon_v2 && c >= cpu->amd_core &&
	    c < cpu->amd_core + SIM_AMD_CORE) {
		*bit = 1ull << (c - cpu->amd_core);
		return true;
	}
	return false;
}
