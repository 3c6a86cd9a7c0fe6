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

/* The first base | x, x < limit, that the model says #GP(0)s at CPL 0. */
bool first_invalid_ecx(uint32_t base, uint32_t limit, uint32_t *ecx);

/* All ones in the low `width` bits. */
uint64_t width_mask(unsigned width);

#endif
