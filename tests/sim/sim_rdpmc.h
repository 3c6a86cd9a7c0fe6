/* RDPMC on the simulated CPU, as the spec describes it, with the CPU's
 * deviation (if any) injected. */
#ifndef PMCTEST_SIM_RDPMC_H
#define PMCTEST_SIM_RDPMC_H

#include <stdint.h>

#include "exec.h"
#include "sim_cpu.h"

/* The simulated address of the RDPMC instruction (0F 33). */
#define SIM_RDPMC_RIP	0x401000ull
#define SIM_RDPMC_LEN	2

void sim_rdpmc(struct sim_cpu *cpu, const struct exec_state *state,
	       uint64_t rax, uint64_t rcx, uint64_t rdx,
	       struct exec_outcome *out);

#endif
