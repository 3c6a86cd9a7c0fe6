/*
 * The logical processors of a run. CPU 0 is the bootstrap processor, the
 * one the loader started; CPUs 1 .. platform_cpu_count() - 1 are the
 * application processors the firmware tables list (ACPI MADT, else the MP
 * table), in table order, that answered INIT-SIPI-SIPI. The kernel
 * implements this on the local APIC (arch/), the simulator on its
 * simulated CPUs (tests/sim/).
 *
 * One CPU runs the harness at a time; an AP that has no work halts until
 * the next platform_start_on_cpu(). Only a check that needs two CPUs in a
 * state at the same time keeps the caller running while the AP works, and
 * then the AP does not write the console.
 */
#ifndef PMCTEST_CPUS_H
#define PMCTEST_CPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

/* The most CPUs a run uses; further entries of the tables are ignored
 * (and the header says so). */
#define CPUS_MAX 16

/* CPUs started and ready, CPU 0 included: 1 where no AP came up. */
unsigned platform_cpu_count(void);

/* The index of the CPU executing the call. */
unsigned platform_this_cpu(void);

/* The local APIC ID of CPU cpu, as the firmware tables gave it. */
uint32_t platform_cpu_apic_id(unsigned cpu);

/*
 * Start fn(arg) on CPU cpu (an AP, not the caller) and return at once.
 * false, with the reason in why, if cpu is not ready: never started, lost
 * (below), or still busy.
 */
bool platform_start_on_cpu(unsigned cpu, void (*fn)(void *), void *arg,
			   struct strbuf *why);

/*
 * Wait at most timeout_ms for CPU cpu to return from the fn that
 * platform_start_on_cpu() gave it, writing out meanwhile the lines it
 * logs (only CPU 0 writes the ports; an AP's lines wait for it). false,
 * with the reason in why, if it did not: it hung, or took an exception
 * outside a contained run (why then names the vector, RIP and error
 * code). Such a CPU is lost: it is never given work again.
 */
bool platform_wait_cpu(unsigned cpu, unsigned timeout_ms, struct strbuf *why);

#endif
