/*
 * The simulated hypervisor's world switch (SMP-9): a vCPU's counters are
 * loaded into the hardware as it enters guest mode and saved as it leaves
 * it, at an instruction the hypervisor completes itself (sim_exit.c) and
 * as it halts until another vCPU wakes it (sim_cpus.c). Faithfully the
 * switch is invisible: the counters count on from their value, a PMI
 * still on its way as the vCPU leaves guest mode and one the hypervisor's
 * own count raises there (EXIT-1) are injected as it enters again, once.
 * Each deviation is one way a mediated vPMU can get it wrong.
 */
#ifndef PMCTEST_SIM_SWITCH_H
#define PMCTEST_SIM_SWITCH_H

#include <stdbool.h>

#include "sim_cpu.h"

/* The vCPU leaves guest mode for an instruction the hypervisor completes:
 * a PMI still on its way reaches the hypervisor, which requests it. */
void sim_switch_exit(struct sim_cpu *cpu);

/* It enters guest mode again: the PMIs requested meanwhile are injected. */
void sim_switch_enter(struct sim_cpu *cpu);

/* An overflow of the hypervisor's own count, out of guest mode: its PMI,
 * with the LVT entry masked or not as it found it (PMI-2), requested. */
void sim_switch_request_pmi(struct sim_cpu *cpu, bool masked);

/* The vCPU halts (HLT, an exit), switched out until another vCPU wakes it:
 * what it has pending wakes it first, and is taken in its halt. */
void sim_switch_halt(struct sim_cpu *cpu);

/* It runs again, its state loaded: the PMIs that reached it while it was
 * halted (another vCPU's work counted on its counters) taken first. */
void sim_switch_resume(struct sim_cpu *cpu);

/* One of its MSR exits (DEV_COUNTERS_LOADED_LATE loads its counters then). */
void sim_switch_msr_exit(struct sim_cpu *cpu);

/* Whether its counters count its own work now. */
bool sim_switch_counts(const struct sim_cpu *cpu);

#endif
