/* Timed batches of one instruction (arch/bench_batch.asm). */
#ifndef PMCTEST_BENCH_BATCH_H
#define PMCTEST_BENCH_BATCH_H

#include <stdint.h>

#include "hooks.h"

#define BENCH_BATCH 16	/* instructions per batch */

/* Each returns the TSC cycles of one batch, brackets included. */
uint64_t bench_empty(void);	/* the brackets alone */
uint64_t bench_nop(void);
uint64_t bench_lfence(void);
uint64_t bench_rdtsc(void);
uint64_t bench_batch_cpuid(void);	/* leaf 0 */
uint64_t bench_batch_rdpmc(uint32_t ecx);	/* any CPL; faults are captured */
uint64_t bench_batch_rdmsr(uint32_t msr);	/* CPL 0; faults are captured */

/* The batches of instructions that exit to a hypervisor, counted in the
 * exit tally (arch/hooks.h). */
static inline uint64_t bench_cpuid(void)
{
	arch_exits(EXIT_CPUID, 0, BENCH_BATCH);
	return bench_batch_cpuid();
}

static inline uint64_t bench_rdpmc(uint32_t ecx)
{
	arch_exits(EXIT_RDPMC, 0, BENCH_BATCH);
	return bench_batch_rdpmc(ecx);
}

static inline uint64_t bench_rdmsr(uint32_t msr)
{
	arch_exits(EXIT_RDMSR, 0, BENCH_BATCH);
	return bench_batch_rdmsr(msr);
}

#endif
