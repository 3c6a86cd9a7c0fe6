/*
 * Measuring with a programmed counter (tests/lib/prog_counter.h): the
 * known loop counted over two lengths, and the counts judged against what
 * the loop's code retires.
 */
#ifndef PMCTEST_PROG_MEASURE_H
#define PMCTEST_PROG_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "prog_counter.h"
#include "strbuf.h"

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

/* The same, with armed() called between arming the counter and the loop
 * (prog_run_armed). */
bool prog_overflow_armed(struct prog_counter *c, uint64_t control,
			 void (*armed)(void), uint64_t *count,
			 struct strbuf *why);

/*
 * Runs timed by the TSC (REF-1, REF-2): r's workload over `shorter` and
 * over `longer` iterations (r's own are ignored), the TSC read (RDTSC at
 * CPL 0) before and after each prog_run(). The TSC's delta holds the
 * programming of the counter around its window, the counter's does not;
 * both are the same in the two runs and drop out of the difference, which
 * is then the extra iterations' own. A short run before them warms the
 * path up (an emulator translates its code the first time). False, with
 * why, where an MSR access faulted. Where the TSC advanced no more over
 * the long run than over the short one, the short run was disturbed
 * (preempted, under an emulator): `disturbed`, and nothing to judge.
 */
struct prog_timed {
	uint64_t count;		/* the long run's count less the short run's */
	uint64_t tsc;		/* the same for the TSC's deltas */
	uint64_t tsc_short, tsc_long;	/* the TSC's delta over each */
	bool disturbed;		/* tsc_long <= tsc_short */
};

bool prog_measure_timed(struct prog_counter *c, const struct prog_run *r,
			uint64_t shorter, uint64_t longer,
			struct prog_timed *t, struct strbuf *why);

/* The tolerance of an exact count: 0.1% of it plus 2. */
uint64_t prog_tolerance(uint64_t expected);

/*
 * WR-2's bound on the write window (prog_write_window): a write of the
 * running counter adds nothing to what the path after it counts, so
 * w->running is w->enabling within the tolerance of an exact count (which
 * instructions next to either WRMSR count is model-specific). Else fails
 * the running test with both and returns false: a PMU that counts the
 * hypervisor's own work of the write into the counter, or adds to the
 * written value, would otherwise hide in the window it is judged by.
 */
bool prog_window_bounded(const struct prog_counter *c,
			 const struct prog_window *w);

/* Checks d against expected per iteration (0: the loop must not be
 * counted); fails the running test with the counts if it deviates. */
void prog_expect_count(const struct prog_counter *c, const char *what,
		       const struct prog_delta *d, uint64_t per_iteration);

/* Checks that the counter advanced over the long loop and advanced more
 * than over the short one (cycles: no exact count). */
void prog_expect_advance(const struct prog_counter *c, const char *what,
			 const struct prog_delta *d);

/*
 * prog_measure() of a cycle event, made again, up to PROG_ADVANCE_ATTEMPTS
 * times in all, while the short run counts as much as the long one: cycles
 * are time, and a run can take longer for what the work does not decide
 * (an SMI on a processor; a host that preempts an emulator's vCPU thread,
 * which is not halted and whose reference cycles count on, REF-1). A
 * counter that does not count cycles fails every attempt.
 */
#define PROG_ADVANCE_ATTEMPTS	3

bool prog_measure_cycles(struct prog_counter *c, struct prog_delta *d,
			 struct strbuf *why);

/* PROG-2 on a counter of instructions retired: with USR only it counts the
 * loop at CPL cpl iff cpl != 0, with OS only iff cpl == 0. */
void prog_expect_rings(struct prog_counter *c, unsigned cpl);

#endif
