/*
 * How the simulated counters advance: execution comes in stretches of
 * cycles at one CPL, each cycle retiring the same number of instructions
 * and branches, and every counter enabled for that CPL counts its event
 * over the stretch (PROG-1, PROG-2, PROG-5..8). A counter that passes all
 * ones wraps and overflows (OVF-1), which may raise a PMI through the
 * simulated LVT performance-counter entry (PMI-1..3).
 */
#ifndef PMCTEST_SIM_COUNT_H
#define PMCTEST_SIM_COUNT_H

#include <stdint.h>

#include "sim_cpu.h"

struct sim_work {
	unsigned cpl;
	uint64_t cycles;
	unsigned instructions;	/* retired in each cycle */
	unsigned branches;	/* of them, branches */
};

void sim_execute(struct sim_cpu *cpu, const struct sim_work *work);

/* One instruction outside the known loop (RDPMC, RDMSR, WRMSR, ...) at
 * cpl: it retires in one cycle after a few cycles of stall. */
void sim_retire(struct sim_cpu *cpu, unsigned cpl);

#endif
