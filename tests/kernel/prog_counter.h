/*
 * One performance counter, programmed as PROG-1/PROG-3/PROG-5 say, and the
 * known loop (kernel/exec.h) counted with it at a chosen CPL. Intel
 * general-purpose and fixed counters and AMD core counters look the same
 * from here: a control MSR with an off and an on value, a count MSR, and
 * optionally a global gate.
 */
#ifndef PMCTEST_PROG_COUNTER_H
#define PMCTEST_PROG_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

/* Which rings a counter counts (PROG-2, PROG-5). */
#define FILTER_OS	1u	/* CPL 0 */
#define FILTER_USR	2u	/* CPL 1-3 */

/* A PROG-4 architectural event and its AMD counterpart. */
struct prog_event {
	const char *name;	/* "instructions" */
	int arch_bit;		/* CPUID.0AH:EBX bit */
	uint8_t event, umask;	/* Intel */
	int amd_event;		/* AMD event select; -1: none */
};

enum {
	PROG_CYCLES, PROG_INSTRUCTIONS, PROG_REF_CYCLES, PROG_BRANCHES,
	PROG_EVENTS
};

extern const struct prog_event prog_events[PROG_EVENTS];

struct prog_counter {
	char name[24];		/* "IA32_PMC0", "IA32_FIXED_CTR1", "PerfCtr0" */
	char control_name[24];	/* "IA32_PERFEVTSEL0", "IA32_FIXED_CTR_CTRL" */
	uint32_t count_msr, control_msr;
	uint64_t control_field;	/* this counter's bits of the control MSR */
	uint64_t control_off;	/* EN clear (PROG-3) */
	uint64_t enable_os, enable_usr;	/* bits of the control MSR */
	uint32_t global_msr;	/* 0: no global gate */
	uint64_t global_bit;
	uint64_t global_saved;	/* the gate as found, restored afterwards */
	uint64_t enable_int;	/* its PMI enable in the control MSR (PMI-1) */
	/* Its overflow bit (OVF-1..3); status_msr 0: no global status
	 * (Intel version 1, AMD without PerfMonV2), status_set_msr 0: no
	 * STATUS_SET (Intel version 2 and 3). */
	uint32_t status_msr, status_clear_msr, status_set_msr;
	uint64_t status_bit;
	unsigned width;		/* bits the counter holds */
};

/* General-purpose counter `index` for ev on pmu (Intel: IA32_PMCx, AMD:
 * PerfCtrx); false with the SKIP reason if there is none for it. */
bool prog_gp_counter(const struct pmu_info *pmu, const struct prog_event *ev,
		     unsigned index, struct prog_counter *c, struct strbuf *why);

/* Intel fixed counter index; false with the SKIP reason if absent. */
bool prog_fixed_counter(const struct pmu_info *pmu, unsigned index,
			struct prog_counter *c, struct strbuf *why);

/* The counter most checks run on: general-purpose counter 0 counting
 * instructions retired, or fixed counter 0; usable (below). If there is
 * none, the running test is SKIPped with the reason and false returned. */
bool prog_take_counter(struct prog_counter *c, bool fixed);

/* Whether the MSRs take writes and the count MSR holds a written value;
 * false with the SKIP reason ("WRMSR IA32_PERFEVTSEL0 (186H) raised
 * #GP(0)"). Leaves the counter stopped. */
bool prog_counter_usable(struct prog_counter *c, struct strbuf *why);

/* The control bits that enable counting in the rings of filter. */
uint64_t prog_enables(const struct prog_counter *c, unsigned filter);

/* One counted run of the known loop. */
struct prog_run {
	uint64_t control;	/* OR'ed into the stopped control: enables,
				 * INT, CMASK, INV, EDGE (PROG-1) */
	uint64_t preset;	/* the count written before */
	bool gate_closed;	/* leave the global enable clear (PROG-6) */
	unsigned cpl;
	uint64_t iterations;
};

/* Stop, write the preset, write the control, open the gate, run the loop,
 * stop, read the count. False, with the MSR access that faulted in why, if
 * one did. */
bool prog_run(struct prog_counter *c, const struct prog_run *r,
	      uint64_t *count, struct strbuf *why);

/* prog_run with a WRMSR of `value` to the count while it is enabled (WR-2):
 * r's loop, the write, then `then` more iterations, stop, read. */
bool prog_run_with_write(struct prog_counter *c, const struct prog_run *r,
			 uint64_t value, uint64_t then, uint64_t *count,
			 struct strbuf *why);

/* The same for n counters at once, control[k] for counters[k]; they share
 * one global enable MSR. The gates are restored as counters[0] found them. */
bool prog_run_many(struct prog_counter *counters, unsigned n,
		   const uint64_t *control, const struct prog_run *r,
		   uint64_t *count, struct strbuf *why);

/*
 * The counting checks compare two runs of the loop, PROG_SHORT_LOOP and
 * PROG_LONG_LOOP iterations: the cost of programming the counter and of
 * entering the ring is the same in both and drops out, so the difference
 * is the loop's own count, known exactly from its code.
 */
#define PROG_SHORT_LOOP	1000ull
#define PROG_LONG_LOOP	101000ull
#define PROG_LOOP_DELTA	(PROG_LONG_LOOP - PROG_SHORT_LOOP)

struct prog_delta {
	uint64_t short_count, long_count;
};

bool prog_measure(struct prog_counter *c, unsigned filter, unsigned cpl,
		  struct prog_delta *d, struct strbuf *why);

/* The same two runs for r (its iterations are ignored). */
bool prog_measure_run(struct prog_counter *c, const struct prog_run *r,
		      struct prog_delta *d, struct strbuf *why);

/* prog_measure_run(); where the runs cannot be made, the test fails
 * saying why. */
bool prog_measure_run_or_fail(struct prog_counter *c, const struct prog_run *r,
			      struct prog_delta *d);

/*
 * Overflow runs (OVF-1, PMI-1): the counter starts PROG_OVERFLOW_MARGIN
 * below the top of its width and counts the short loop (more instructions
 * than the margin) at CPL 0 with both rings enabled and `control` added.
 * The count it reads afterwards is what it counted past the wrap.
 */
#define PROG_OVERFLOW_MARGIN	500ull

bool prog_overflow(struct prog_counter *c, uint64_t control, uint64_t *count,
		   struct strbuf *why);

/* The tolerance of an exact count: 0.1% of it plus 2. */
uint64_t prog_tolerance(uint64_t expected);

/* Checks d against expected per iteration (0: the loop must not be
 * counted); fails the running test with the counts if it deviates. */
void prog_expect_count(const struct prog_counter *c, const char *what,
		       const struct prog_delta *d, uint64_t per_iteration);

/* Checks that the counter advanced over the long loop and advanced more
 * than over the short one (cycles: no exact count). */
void prog_expect_advance(const struct prog_counter *c, const char *what,
			 const struct prog_delta *d);

/* PROG-2 on a counter of instructions retired: with USR only it counts the
 * loop at CPL cpl iff cpl != 0, with OS only iff cpl == 0. */
void prog_expect_rings(struct prog_counter *c, unsigned cpl);

#endif
