/*
 * topology: which logical processors share a core, as CPUID.1FH or 0BH
 * enumerates it (SMP-8): those whose x2APIC IDs agree above the SMT
 * level's shift. Pure, like model.h: the kernel, pmctest-sim and the
 * unit tests compile it. Nothing the target hands over is believed until
 * it keeps every rule of SMP-8: a leaf that is absent or counts nothing,
 * a level number that is not its sub-leaf, level types out of order or
 * repeated, a count of zero or one its shift cannot number, a valid level
 * after the invalid one: each leaves the core unknown.
 */
#ifndef PMCTEST_TOPOLOGY_H
#define PMCTEST_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

struct topology {
	bool known;			/* the levels keep every rule of SMP-8 */
	unsigned leaf;			/* 1FH or 0BH, the leaf read; 0: none */
	unsigned levels;		/* the valid levels among those read */
	unsigned smt_shift;		/* the SMT level's EAX[4:0] */
	unsigned smt_count;		/* its EBX[15:0], for display (SDM) */
};

/* Decodes raw's topology into *out. What it found, or the rule it found
 * broken with the sub-leaf's registers, is appended to `why` as one
 * clause for a diagnostic. */
void topology_decode(const struct pmu_cpuid *raw, struct topology *out,
		     struct strbuf *why);

/* SMP-8: whether the logical processors of these x2APIC IDs share a core
 * in a known topology ("the same next level ID share current level"). */
bool topology_share_core(const struct topology *t, uint32_t apic_a,
			 uint32_t apic_b);

#endif
