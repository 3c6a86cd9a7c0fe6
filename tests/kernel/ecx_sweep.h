/*
 * A sweep: RDPMC for a long list of RCX values in one context, each outcome
 * compared with the model, mismatches reported compactly (struct sweep).
 * The RDPMCs run through exec_rdpmc_batch(), in batches that enter the
 * context once, so a sweep of 65,536 values costs 65,536 RDPMCs and their
 * faults, not 65,536 ring switches.
 */
#ifndef PMCTEST_ECX_SWEEP_H
#define PMCTEST_ECX_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "rdpmc_check.h"

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
