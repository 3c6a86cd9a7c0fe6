/*
 * The counters the model says exist on this PMU, and the encodings it says
 * do not: asked of model_rdpmc() at CPL 0, never known from the CPU.
 */
#ifndef PMCTEST_COUNTERS_H
#define PMCTEST_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/* ECX type bases (ARCH-1). */
#define ECX_TYPE_GP		0x00000000u
#define ECX_TYPE_METRICS	0x20000000u
#define ECX_TYPE_FIXED		0x40000000u
#define ECX_PERF_METRICS	0x20000000u	/* ARCH-4 */
#define ECX_FAST		0x80000000u	/* NARCH-2, ARCH-6 */

struct counter {
	uint32_t ecx;		/* what RDPMC reads it with */
	enum counter_kind kind;
	unsigned index;		/* within its kind */
	unsigned width;		/* 0: the width is not enumerated */
};

/* Room for 32 GP (more only via CPUID.0AH:EAX[15:8]) and 32 fixed. */
#define MAX_COUNTERS 64

/*
 * The counters RDPMC must read at CPL 0 (VERDICT_READ, not PERF_METRICS,
 * not fast reads), in ECX order; returns how many.
 */
unsigned model_counters(struct counter *out, unsigned max);

/* Those of them that `wanted` accepts. */
unsigned model_counters_of(bool (*wanted)(const struct counter *),
			   struct counter *out, unsigned max);

/* Whether c is a general-purpose counter: Intel GP, a non-architectural
 * PMC or any AMD counter (all written through a counter MSR with an event
 * select beside it). */
bool counter_is_gp(const struct counter *c);

/* Every index the spec defines is below this: CPUID.0AH:EAX[15:8], the
 * 32-bit bitmaps of CPUID.0AH:ECX and 23H, AMD's ECX 0-15. */
#define DEFINED_INDICES 256u

/* The first base | x, x < DEFINED_INDICES, that the model says #GP(0)s at
 * CPL 0; false where there is none (a model-specific range). */
bool first_invalid_ecx(uint32_t base, uint32_t *ecx);

/* All ones in the low `width` bits. */
uint64_t width_mask(unsigned width);

#endif
