/*
 * The simulated hypervisor: the instructions it intercepts never retire
 * in the simulated core; it completes them itself and accounts for them
 * in the counters, as EXIT-1 and EXIT-2 require and as its deviations get
 * wrong.
 */
#ifndef PMCTEST_SIM_EXIT_H
#define PMCTEST_SIM_EXIT_H

#include "sim_cpu.h"

/* Which completion path the hypervisor takes: port I/O has its own. */
enum sim_exit_kind { SIM_EXIT_OTHER, SIM_EXIT_PORT_IO };

/* An intercepted instruction (CPUID, RDMSR, WRMSR, IN) that ran at cpl:
 * the cycles it took, then the hypervisor's account of it. */
void sim_exit_complete(struct sim_cpu *cpu, unsigned cpl,
		       enum sim_exit_kind kind);

#endif
