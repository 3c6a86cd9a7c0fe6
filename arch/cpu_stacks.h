/*
 * Each CPU's stacks (arch/stacks.asm): its CPL 0 kernel stack, TSS.RSP0,
 * the #DF and NMI IST stacks and ring_run()'s, each above a guard page
 * (arch/guard.c). CPU 0 has the boot stacks; each AP a block of its own.
 */
#ifndef PMCTEST_CPU_STACKS_H
#define PMCTEST_CPU_STACKS_H

#include <stdint.h>

enum cpu_stack {
	STACK_KERNEL,	/* CPL 0: the boot stack, an AP's own */
	STACK_RSP0,	/* TSS.RSP0: traps from CPL 1-3 */
	STACK_DF,	/* TSS.IST1 */
	STACK_NMI,	/* TSS.IST2 */
	STACK_RING,	/* code run by ring_run() at CPL 0-3 */
	CPU_STACKS,
};

/* The top of stack `which` of CPU cpu (< CPUS_MAX). */
uint64_t cpu_stack_top(unsigned cpu, enum cpu_stack which);

/* The guard page below it. */
uint64_t cpu_stack_guard(unsigned cpu, enum cpu_stack which);

/* The CPU whose stacks hold address: an AP's if its block does, else 0
 * (the boot stacks, and the legacy modes' stacks, which only CPU 0 runs). */
unsigned cpu_stacks_owner(uint64_t address);

/* What the stack is called in a report ("TSS.RSP0"). */
const char *cpu_stack_name(enum cpu_stack which);

#endif
