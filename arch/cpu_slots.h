/*
 * The table of CPUs (arch/cpu_table.h, arch/cpus.c) as the AP start-up (arch/smp.c) fills
 * it: a slot given to the CPU of an APIC ID, the wait while it starts, and
 * why it did not come up. CPUs 0 .. platform_cpu_count() - 1 are up; the
 * next AP to start takes slot platform_cpu_count().
 */
#ifndef PMCTEST_CPU_SLOTS_H
#define PMCTEST_CPU_SLOTS_H

#include <stdint.h>

#define INIT_DELAY_US	10000	/* SDM 9.4.4.1: 10 ms after INIT */

enum cpu_state {
	CPU_STARTING,	/* SIPI sent, not ready yet */
	CPU_READY,	/* halted, waiting for work */
	CPU_RUNNING,	/* running the fn of platform_start_on_cpu() */
	CPU_FINISHED,	/* fn returned; platform_wait_cpu() makes it ready */
	CPU_FAULTED,	/* an exception outside a contained run */
	CPU_FAILED,	/* could not set itself up: cpu_failure() says why */
	CPU_LOST,	/* never given work again */
};

/* An exception outside a contained run (smp_ap_fault()). */
struct cpu_fault {
	uint64_t vector, error_code, rip, cr2;
};

/* Slot cpu is the CPU of APIC ID apic_id, CPU_STARTING, with no failure:
 * CPU 0's once its APIC ID is read, an AP's before its start-up IPIs. */
void cpu_slot_assign(unsigned cpu, uint32_t apic_id);

/* CPU 0's CR0, CR4 and EFER, which every AP takes in ap_main(): recorded
 * once, before the first AP starts. */
void cpus_record_bsp_registers(void);

/* The AP's first C, on the kernel stack of its slot cpu
 * (arch/ap_trampoline.asm calls it with the slot). */
void ap_main(unsigned cpu) __attribute__((noreturn));

/* Waits until CPU cpu leaves `state` or timeout_ms pass, writing out the
 * lines the AP logs meanwhile; the state then. */
enum cpu_state cpu_wait_while(unsigned cpu, enum cpu_state state,
			      unsigned timeout_ms);

/* The AP in slot platform_cpu_count(), ready, joins the run: the count
 * grows by one. */
void cpus_add_ready(void);

/* CPU cpu's state now; why it failed (CPU_FAILED, CPU_LOST); the
 * exception it took (CPU_FAULTED). */
enum cpu_state cpu_state_now(unsigned cpu);
const char *cpu_failure(unsigned cpu);
const struct cpu_fault *cpu_fault(unsigned cpu);

#endif
