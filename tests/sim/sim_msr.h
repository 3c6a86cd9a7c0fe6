/* The simulated CPU's PMU MSRs: RDMSR and WRMSR at CPL 0. */
#ifndef PMCTEST_SIM_MSR_H
#define PMCTEST_SIM_MSR_H

#include <stdbool.h>
#include <stdint.h>

#include "sim_cpu.h"

/* False where the CPU raises #GP(0): an MSR the profile does not
 * enumerate, or a write to a read-only one. */
bool sim_rdmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t *value);
bool sim_wrmsr(struct sim_cpu *cpu, uint32_t msr, uint64_t value);

#endif
