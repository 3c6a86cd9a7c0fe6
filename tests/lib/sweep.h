/*
 * A sweep: RDPMC for a long list of RCX values in one context, each outcome
 * compared with the model (tests/lib/rdpmc_check.h), mismatches
 * reported compactly. The RDPMCs run through exec_rdpmc_batch(), in
 * batches that enter the context once, so a sweep of 65,536 values costs
 * 65,536 RDPMCs and their faults, not 65,536 ring switches.
 */
#ifndef PMCTEST_SWEEP_H
#define PMCTEST_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "exec.h"
#include "known_values.h"
#include "model.h"
#include "rdpmc_check.h"

/*
 * The cases of a sweep, all in one test: the first few mismatches are
 * reported (report_rdpmc_mismatch(): the test's first in full, the others
 * in a line each), the rest only counted; a mismatch that reads like the
 * one reported before it but for RCX is counted, not shown.
 * sweep_finish() adds the tally.
 */
#define SWEEP_REPORTS	9

/* What a mismatch's report is made of, but for RCX. */
struct mismatch_shape {
	const char *statements;
	enum verdict verdict;
	bool also_gp, faulted;
	uint8_t vector;
	uint32_t error_code;
	uint64_t rip_offset;		/* saved RIP less the RDPMC's */
	uint64_t rax, rdx, rcx;		/* 0 where a fault kept them */
};

struct sweep {
	unsigned cases;
	unsigned mismatches;
	unsigned reported;	/* mismatches shown, in full or as a line */
	unsigned alike;		/* mismatches not shown: as the one before */
	struct mismatch_shape last_shown;
	struct model_cache model;	/* the model asked once per span */
	/* Where not NULL, a read of a counter it gave a value must return
	 * that value (tests/lib/known_values.h); the first read that does
	 * not is reported, the others counted. */
	const struct known_values *known;
	unsigned values_judged, values_wrong;
	struct {		/* the last step, when a fault kept the registers */
		bool valid, conformed;
		uint8_t vector;
		uint32_t error_code;
		uint64_t rip_offset;
		unsigned asked;	/* model.asked then: the same answer */
	} last_fault;
};

bool sweep_case(struct sweep *sw, const struct rdpmc_case *c);
/* The same for an outcome already observed (exec_rdpmc_batch()). */
bool sweep_outcome(struct sweep *sw, const struct rdpmc_case *c,
		   const struct exec_outcome *o);
/* The tally of the sweep: its mismatches, and of the values it judged. */
void sweep_finish(const struct sweep *sw, const char *what);

/* RCX for step i of a sweep. */
typedef uint64_t (*rcx_at_fn)(unsigned i, const void *arg);

/* Steps 0..n-1 in state s, RAX and RDX holding the sentinels. */
void sweep_rcx(struct sweep *sw, const struct exec_state *s, unsigned n,
	       rcx_at_fn rcx_at, const void *arg);

/*
 * The steps of 0..n-1 (n a power of two) a default sweep runs, so that it
 * costs a couple of hundred RDPMCs instead of n (a trapping RDPMC can cost a
 * millisecond under a hypervisor): below 256 every step the model says
 * reads and every step where its verdict differs from a neighbour's; above,
 * each value with one bit set or one bit clear, every 4096th and the last,
 * with their neighbours. The full sweep is an explicit test. Returns how
 * many steps went to steps[] (at most max).
 */
unsigned sweep_sample(const struct exec_state *s, unsigned n,
		      rcx_at_fn rcx_at, const void *arg, uint32_t *steps,
		      unsigned max);

/* Steps 0..n-1, all of them or the sample. */
void sweep_steps(struct sweep *sw, const struct exec_state *s, unsigned n,
		 rcx_at_fn rcx_at, const void *arg, bool full);

/* The same for a table of ECX values. */
void sweep_table(struct sweep *sw, const struct exec_state *s,
		 const uint32_t *ecx, unsigned n);

#endif
