/*
 * A counter left enabled on an application processor while the other CPUs
 * work (smp.running.*, smp.pmi.quiet) or while it halts and runs again
 * (smp.switch.*): the pieces each CPU runs through
 * cpu_work() (tests/lib/cpu_work.h), none of which writes the console, and
 * the sizes of the work, chosen so that the counter's own CPU and the
 * others retire counts no one can take for the other.
 *
 * Every piece of work runs at CPL 3 and the counter counts USR only, so
 * what happens at CPL 0 between the pieces (the AP's return, its HLT, the
 * wake-up IPI and its handler, CPU 0's polling) is outside the count by
 * PROG-2, and the count of the counter's own CPU is its loop plus the
 * ring's way in and out at CPL 3 (LEFT_RING_WAY).
 */
#ifndef PMCTEST_LEFT_COUNTER_H
#define PMCTEST_LEFT_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#include "exec.h"
#include "prog_counter.h"
#include "prog_measure.h"

#define LEFT_CPL	3
/* The counter's own CPU: 20,000 instructions of the loop; every other
 * CPU: 202,000 (PROG_LONG_LOOP), ten times as many. */
#define LEFT_OWN_LOOP	10000ull
#define LEFT_OTHER_LOOP	PROG_LONG_LOOP
/* What the counter's CPU retires at LEFT_CPL in one left_start(): at
 * least its loop's, at most LEFT_RING_WAY more. */
#define LEFT_OWN_INSTRUCTIONS	(KNOWN_LOOP_INSTRUCTIONS * LEFT_OWN_LOOP)

/*
 * The instructions exec_known_loop() retires at CPL 3 beside the loop's
 * iterations: the CALL of the ring's entry (arch/ring_entry.asm), the MOV
 * and JMP of the C step to the loop, the loop's MOV and RET, and IRETQ,
 * which the SDM does not say counts at the CPL it leaves or the one it
 * enters (PROG-2 gives an event the CPL it happens at, a CPL change
 * none); the UD2 that leaves the ring faults and retires nothing. The SDM
 * constrains the rest: USR counts CPL 1-3 alone (PROG-2), and a counter
 * counts its own logical processor's events alone (SMP-7). The counting
 * TCG (docs/counting-tcg.md) with 4 vCPUs counts 20,005 on each AP: the
 * five, IRETQ at CPL 0 there.
 */
#define LEFT_RING_WAY	6ull

/* general-purpose counter 0, which prog_take_counter() gives: RDPMC ECX 0
 * on either vendor (ARCH-1, AMD-1) */
#define LEFT_RDPMC_ECX	0ull

struct left_counter {
	const struct prog_counter *c;
	uint64_t control;	/* OR'ed into the stopped control */
	uint64_t preset;
	uint32_t lvt;		/* the LVT performance-counter entry meanwhile;
				 * 0: left alone */
	/* Write it again after each work: unmasked, as a PMI handler that
	 * takes the next PMI leaves it where delivery masked it (PMI-3). */
	bool lvt_again;
	/* What the counter's CPU runs at LEFT_CPL once the counter is armed
	 * (left_start) and as it runs again (left_resume): `iterations` of
	 * the known loop or of the exiting loop of CPUID (prog_execute());
	 * 0: nothing, so that it halts with the counter armed. */
	enum prog_workload workload;
	uint64_t iterations;
	/* After that work and the interrupt window that ends it: the PMIs
	 * its CPU had taken, and (left_resume) its RDPMC, the counter still
	 * running. */
	unsigned pmis_after_work;
	struct exec_outcome rdpmc_after_work;
	/* As the counter's CPU resumes (left_resume, left_read): PMIs it had
	 * taken, before anything else; then (left_read) its RDPMC (the first
	 * instruction that touches the PMU), then, stopped, the count and the
	 * overflow bit by RDMSR. */
	unsigned pmis_at_resume;
	struct exec_outcome rdpmc;
	uint64_t count;
	bool overflow_bit;
	bool faulted;
	char why[120];
};

/* On the counter's CPU: everything stopped, the LVT entry written, the
 * counter preset, enabled, its gate opened (PROG-3, PROG-5), then its
 * work at LEFT_CPL; it returns with the counter still counting. */
void left_start(void *arg);

/* On it as it runs again, the counter untouched: the PMIs taken so far,
 * its work at LEFT_CPL, then the PMIs and an RDPMC at CPL 0 (which a
 * counter of USR alone does not count). */
void left_resume(void *arg);

/* On it again: the RDPMC first, then everything stopped, the count and
 * the overflow bit read, both cleared (OVF-2), the LVT entry masked. */
void left_read(void *arg);

/* CPU 0 and every AP cpus= chooses but `own`, one after the other, each
 * run LEFT_OTHER_LOOP iterations at LEFT_CPL and then an interrupt window
 * (kernel/exec.h). False if a CPU could not (cpu_work failed the test). */
bool left_others_work(unsigned own);

/* On CPU 0 and every AP cpus= chooses but `except` (CPUS_MAX: none):
 * every counter stopped, a CPU with nothing enabled, and the LVT entry
 * set to lvt. False, with the running test failed saying why, if one
 * could not. */
bool left_quiet_all(unsigned except, uint32_t lvt);

#endif
