/*
 * The table of CPUs: each slot's APIC ID, state, work and why it failed,
 * shared by the AP start-up and hand-over (arch/cpus.c, arch/smp.c), the
 * contained runs (arch/platform.c) and the trap path (arch/trap.c), which
 * records an AP's unexpected exception in it. It calls nothing, so the
 * trap path reaches no file above it.
 */
#ifndef PMCTEST_CPU_TABLE_H
#define PMCTEST_CPU_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu_slots.h"
#include "cpus.h"
#include "trap.h"

struct cpu {
	uint32_t apic_id;
	volatile enum cpu_state state;
	void (*volatile fn)(void *);
	void *volatile arg;
	struct cpu_fault fault;
	char failure[256];	/* CPU_FAILED, CPU_LOST: why */
	bool in_contained_run;	/* inside platform_run_contained() */
};

extern struct cpu cpu_table[CPUS_MAX];

/* An exception on an AP outside a contained run: recorded for its
 * waiter (platform_wait_cpu()), and the AP halts for good. */
void smp_ap_fault(unsigned cpu, const struct trap_frame *f)
	__attribute__((noreturn));

#endif
