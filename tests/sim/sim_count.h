/*
 * How the simulated counters advance: execution comes in stretches of
 * cycles at one CPL, each cycle retiring the same number of instructions
 * and branches, and every counter enabled for that CPL counts its event
 * over the stretch (PROG-1, PROG-2, PROG-5..9). A counter that passes all
 * ones wraps and overflows (OVF-1), which may raise a PMI through the
 * simulated LVT performance-counter entry (PMI-1..5) and freeze the
 * counters (PMI-6).
 */
#ifndef PMCTEST_SIM_COUNT_H
#define PMCTEST_SIM_COUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_cpu.h"

struct sim_work {
	unsigned cpl;
	uint64_t cycles;
	unsigned instructions;	/* retired in each cycle */
	unsigned branches;	/* of them, branches */
};

void sim_execute(struct sim_cpu *cpu, const struct sim_work *work);

/* A stretch as the counters see it: the work and the ticks of the TSC and
 * of the crystal clock over it (REF-1, REF-2), which sim_execute() adds. */
struct sim_stretch {
	struct sim_work work;
	uint64_t tsc, crystal;
};

/*
 * The simulated clocks. One CPU executes at a time, and every CPU's
 * stretches follow one another on one time line: the TSC, shared by all
 * CPUs, ticks SIM_TSC_TICKS for every SIM_TSC_CYCLES core cycles of it
 * (the core runs faster than the TSC, as a processor above its base
 * frequency does), whether the CPU that owns a counter executes or
 * halts; the crystal clock ticks once every SIM_CRYSTAL_TSC TSC ticks.
 */
#define SIM_TSC_TICKS	2
#define SIM_TSC_CYCLES	3
#define SIM_CRYSTAL_TSC	84	/* a 24 MHz crystal under a 2.016 GHz TSC */

/* The TSC now (RDTSC). */
uint64_t sim_tsc(void);

/* One instruction outside the known loop (RDPMC, ...) at cpl that the
 * core retires: one cycle after a few cycles of stall. */
void sim_retire(struct sim_cpu *cpu, unsigned cpl);

/* What a counter counts, and how (PROG-4, PROG-8, PMI-1). */
enum sim_event {
	SIM_EV_NONE, SIM_EV_INSTRUCTIONS, SIM_EV_BRANCHES, SIM_EV_CYCLES,
	SIM_EV_SLOTS,
	SIM_EV_REF_TSC,		/* fixed counter 2: the TSC's ticks (REF-1) */
	SIM_EV_REF_CRYSTAL,	/* 3CH/01H: the crystal's (REF-2) */
};

struct sim_counting {
	enum sim_event event;
	unsigned cmask;
	bool inv, edge;
	bool interrupt;		/* INT / the fixed PMI bit: PMI on overflow */
};

/* Calls fn for every counter that counts at cpl now (its own enable, its
 * ring, the global enable, PROG-2, PROG-6), with how it counts. */
typedef void sim_counter_fn(struct sim_cpu *cpu, struct sim_counter *c,
			    const struct sim_counting *how, void *arg);
void sim_for_each_counting(struct sim_cpu *cpu, unsigned cpl,
			   sim_counter_fn *fn, void *arg);

/* What c adds for the stretch s under its CMASK, INV and EDGE (PROG-8). */
uint64_t sim_increment(struct sim_cpu *cpu, struct sim_counter *c,
		       const struct sim_counting *how,
		       const struct sim_stretch *s);

/* c advances by `by` events: past all ones it wraps and overflows. */
void sim_advance(struct sim_cpu *cpu, struct sim_counter *c,
		 const struct sim_counting *how, uint64_t by);

/* c overflowed: its status bit (OVF-1) and, with the interrupt enabled,
 * a PMI request (PMI-1, PMI-6). */
void sim_overflow(struct sim_cpu *cpu, struct sim_counter *c,
		  const struct sim_counting *how);

/* The PMI of cpu's counter through its local APIC (PMI-1..4, SMP-4), its
 * LVT entry masked or not as the overflow found it (PMI-2). */
void sim_pmi_signal(struct sim_cpu *cpu, bool masked);

/* cpu's PMIs on their way (struct sim_cpu's pmi_in_flight) reach its
 * local APIC: at its next instruction, an interrupt window, its halt. */
void sim_pmi_land(struct sim_cpu *cpu);

/* DEV_PMI_TO_NEXT_VCPU: the host injects the PMI it holds, if any, into
 * the executing vCPU, as it handles an exit of that vCPU or switches to
 * it. */
void sim_pmi_release(void);

/* Whether c's overflow interrupts: INT, or its PMI bit of
 * IA32_FIXED_CTR_CTRL (PMI-1). */
bool sim_counter_interrupts(const struct sim_cpu *cpu, const struct sim_counter *c);

/* Whether c's own enable is set: EN for an event select, a ring enable in
 * its field of IA32_FIXED_CTR_CTRL (PROG-6). */
bool sim_counter_enabled(const struct sim_cpu *cpu, const struct sim_counter *c);

/* The overflow point a perf-based hypervisor computes when it programs a
 * counter, and the LVT entry it sees then (struct sim_counter's
 * to_overflow and lvt_programmed), for one counter or all. */
void sim_rearm(const struct sim_cpu *cpu, struct sim_counter *c);
void sim_rearm_all(struct sim_cpu *cpu);

#endif
