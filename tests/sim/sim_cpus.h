/* The simulated machine's CPUs beyond kernel/cpus.h: what pmctest-sim
 * and the simulated hardware need (tests/sim/sim_cpus.c). */
#ifndef PMCTEST_SIM_CPUS_H
#define PMCTEST_SIM_CPUS_H

#include "interrupt_log.h"

/* A machine of total CPUs (1..SIM_CPUS_MAX), CPU 0 executing. */
void sim_cpus_init(unsigned total);

/* What the kernel does as each CPU starts: CPU 0 records its PMU MSRs at
 * boot (RESET-1..4), each AP right after INIT-SIPI-SIPI (SMP-5). */
void sim_cpus_start(void);

/* DEV_AP_HANGS, DEV_AP_HANGS_WRITING: the executing CPU stops; its
 * platform_wait_cpu() times out. Only inside platform_start_on_cpu(). */
void sim_cpu_hang(void) __attribute__((noreturn));

/* The executing CPU's MSR exit: the hypervisor loads its counters into
 * the hardware (DEV_RDPMC_STALE_UNTIL_MSR_EXIT loads them only then). */
void sim_cpus_msr_exit(void);

/* The CPU whose counters the hardware holds now: the executing one, but
 * under DEV_RDPMC_STALE_UNTIL_MSR_EXIT the one of the last MSR exit. */
struct sim_cpu *sim_cpus_loaded(void);

/* An interrupt taken by CPU cpu's local APIC, its handler run there. */
void sim_interrupt_to(unsigned cpu, unsigned vector);

#endif
