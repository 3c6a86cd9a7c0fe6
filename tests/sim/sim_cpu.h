/*
 * The simulated CPU of pmctest-sim: its PMU as the profile enumerates it,
 * decoded here from the raw CPUID values on its own, without the model, so
 * that the model and the simulator are two independent readings of the
 * spec (docs/spec.md) and a bug in one shows against the other.
 */
#ifndef PMCTEST_SIM_CPU_H
#define PMCTEST_SIM_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "deviation.h"
#include "model.h"

/* Architectural limits of the index spaces (ARCH-2, ARCH-3, AMD-2). */
#define SIM_INDEX_BITS		32
#define SIM_AMD_CORE		6
#define SIM_AMD_NB		4
#define SIM_AMD_L2		6

struct sim_counter {
	bool present;		/* enumerated: RDPMC and its MSRs reach it */
	unsigned width;		/* bits the hardware keeps */
	/* The count as an emulator would store it: WRMSR lands here as
	 * written, reads keep only `width` bits (ARCH-7, NARCH-3, AMD-3). */
	uint64_t raw;
	uint64_t control;	/* its event select; fixed counters: unused */
	bool condition;		/* the CMASK comparison when it last counted
				 * (EDGE counts its rising edges, PROG-8) */
	/* Events left to the overflow as a perf-based hypervisor computed
	 * them when it last programmed the counter. The faithful CPU never
	 * asks (its overflow is the wrap, OVF-5); a deviation does. */
	uint64_t to_overflow;
	/* The LVT performance-counter entry as that hypervisor saw it then;
	 * only DEV_LVT_SAMPLED_AT_WRMSR asks (PMI-2). */
	uint32_t lvt_programmed;
};

struct sim_cpu {
	struct pmu_cpuid enumeration;	/* the profile, as CPUID reports it */
	enum deviation deviation;
	unsigned index;			/* which CPU: 0 the bootstrap processor */
	bool cr4_pce;			/* CR4.PCE as it stays between executions */

	/* Intel, CPUID.0AH / 23H / IA32_PERF_CAPABILITIES */
	unsigned version;		/* 0AH:EAX[7:0]; 0: non-architectural */
	unsigned gp_count;		/* 0AH:EAX[15:8] */
	unsigned fixed_count;		/* 0AH:EDX[4:0], only for version > 1 */
	unsigned edx_fixed_count;	/* 0AH:EDX[4:0] whatever the version */
	unsigned edx_fixed_width;	/* 0AH:EDX[12:5] whatever the version */
	uint32_t gp_bitmap;		/* 23H.01H:EAX, 0 without leaf 23H */
	uint32_t fixed_bitmap;		/* 0AH:ECX | 23H.01H:EBX */
	bool perf_capabilities;		/* the MSR exists (PDCM, MET-3) */
	bool fw_write;			/* bit 13 */
	bool perf_metrics;		/* bit 15 */
	bool metrics_clear;		/* bit 19: RDPMC_METRICS_CLEAR */
	struct sim_counter gp[SIM_INDEX_BITS];	  /* also the NARCH PMCs */
	struct sim_counter fixed[SIM_INDEX_BITS];
	uint64_t fixed_ctrl;		/* IA32_FIXED_CTR_CTRL as it reads */
	uint64_t fixed_ctrl_counting;	/* what the counters follow: the same,
					 * unless DEV_FIXED_CTRL_TRUNCATED */
	bool anythread_deprecated;	/* 0AH:EDX[15] (PROG-11) */
	/* The SMT level's EAX[4:0] of 1FH or 0BH (SMP-8; 0 where neither
	 * has one): the x2APIC ID bits that number the logical processors of
	 * a core. CPUs whose APIC IDs agree above them share a core, whose
	 * AnyThread counters count them all (PROG-11). */
	unsigned smt_shift;
	bool tsx;			/* 07H:EBX HLE or RTM: IN_TX, IN_TXCP (PROG-12) */
	bool evtsel_umask2;		/* 23H.00H:EBX[0]: bits 47:40 (PROG-13) */
	bool evtsel_eq;			/* 23H.00H:EBX[1]: bit 36 (PROG-13) */
	uint64_t debugctl;		/* IA32_DEBUGCTL: FREEZE_PERFMON_ON_PMI */
	uint64_t efer;			/* EFER: SVME stays 0 (AMD-6) */
	uint64_t global_ctrl;		/* IA32_PERF_GLOBAL_CTRL */
	uint64_t metrics;		/* IA32_PERF_METRICS */

	/* AMD, CPUID 8000_0001H:ECX */
	struct sim_counter amd_core[SIM_AMD_CORE];
	struct sim_counter amd_nb[SIM_AMD_NB];
	struct sim_counter amd_l2[SIM_AMD_L2];
	bool amd_ext_core;		/* PerfCtrExtCore: 6 core counters */
	bool amd_perfmon_v2;		/* 8000_0022H:EAX[0], global MSRs */

	/* Overflows (OVF-1): Intel IA32_PERF_GLOBAL_STATUS (version 2 and
	 * up), AMD PerfCntrGlobalStatus (PerfMonV2). AMD PerfMonV2 keeps its
	 * PerfCntrGlobalCtl in global_ctrl. */
	uint64_t global_status;
	/* The local APIC's LVT performance-counter entry (PMI-1..3). */
	uint32_t lvt_pc;
	/* PMIs raised and not yet taken, counted apart by whether the LVT
	 * entry was masked as their overflow found it (PMI-2): those of
	 * overflows in the core, on their way to the local APIC until its
	 * next instruction, interrupt window or halt (PMI-1's skid,
	 * sim_count.c); and those the simulated hypervisor holds as
	 * requests, for overflows it counted itself or PMIs that arrived
	 * once the vCPU had left guest mode, until it enters guest mode
	 * again (sim_switch.c). */
	unsigned pmi_in_flight[2];
	unsigned pmi_requested[2];
	/* The hypervisor is handling an exit of this vCPU: out of guest
	 * mode, an overflow it counts is its to signal. */
	bool out_of_guest;
	/* DEV_COUNTERS_LOADED_LATE: run again after a halt, its counters are
	 * not loaded yet (until its first MSR exit). */
	bool counters_unloaded;
	/* The noise of the surrounding code: a xorshift state. */
	uint64_t noise;
};

/*
 * The simulated CPUs, each with its own state: CR4, counters, event
 * selects, global MSRs, local APIC, enumeration (tests/sim/sim_cpus.c
 * implements kernel/cpus.h on them). The one executing is sim_this().
 */
#define SIM_CPUS_MAX 16		/* CPUS_MAX of kernel/cpus.h */

extern struct sim_cpu sim_cpus[SIM_CPUS_MAX];
extern unsigned sim_cpu_total;	/* how many the machine has, >= 1 */

struct sim_cpu *sim_this(void);

/* Builds CPU index from its enumeration: counters, widths, start values
 * (an application processor's as INIT leaves them). */
void sim_cpu_init(struct sim_cpu *cpu, const struct pmu_cpuid *enumeration,
		  enum deviation deviation, unsigned index);

/* SMP-8: whether CPUs a and b share a core, by their APIC IDs. */
bool sim_same_core(const struct sim_cpu *a, const struct sim_cpu *b);

/* A counter's value as the hardware holds it: `width` bits. */
uint64_t sim_counter_value(const struct sim_counter *c);

/* A counter's overflow bit in global_status, and whether it has one. */
bool sim_status_bit(const struct sim_cpu *cpu, const struct sim_counter *c,
		    uint64_t *bit);

#endif
