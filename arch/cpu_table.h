/*
 * The table of CPUs: each slot's APIC ID, state, work and why it failed,
 * shared by the AP start-up and hand-over (arch/cpus.c, arch/smp.c), the
 * contained runs (arch/platform.c) and the trap path (arch/trap.c), which
 * records an AP's unexpected exception in it. It calls only the local
 * APIC's IPI (arch/apic.h), so the trap path reaches no file above it.
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
	bool in_contained_run;	/* between contained_begin() and _end() */
	unsigned waiter;	/* the CPU that waits for this one's state */
	/* Of a waiter: halted for the wake-up IPI (arch/cpus.c); APs in
	 * cpu_wake_waiter() now, an IPI to it maybe on its way. */
	volatile bool halted;
	volatile unsigned waking;
};

extern struct cpu cpu_table[CPUS_MAX];

/* On AP cpu, after it changed its state or needs its waiter to empty
 * the ring (arch/ap_console.h): the wake-up IPI to its waiter, where the
 * waiter halts. Sequentially consistent against the waiter's halt_while()
 * (arch/cpus.c): the AP writes its state, then reads `halted`; the waiter
 * sets `halted`, then reads the state. Either the AP sees it halted and
 * sends, or the waiter sees the new state and does not halt. */
void cpu_wake_waiter(unsigned cpu);

/* An exception on an AP outside a contained run: recorded for its
 * waiter (platform_wait_cpu()), woken, and the AP halts for good. */
void smp_ap_fault(unsigned cpu, const struct trap_frame *f)
	__attribute__((noreturn));

#endif
