/*
 * The deviations pmctest-sim can inject, one at a time, each a real class
 * of hypervisor or emulator bug: the mutations the suite must catch.
 */
#ifndef PMCTEST_DEVIATION_H
#define PMCTEST_DEVIATION_H

#include <stdbool.h>

enum deviation {
	DEV_NONE,
#define DEVIATION(id, name, statements, text) DEV_##id,
#include "deviation_list.h"
#undef DEVIATION
	DEV_COUNT
};

struct deviation_info {
	const char *name;		/* "cpl3-only" */
	const char *statements;		/* what it breaks: "PRIV-2" */
	const char *description;	/* the bug, one line */
};

const struct deviation_info *deviation_info(enum deviation d);

/* DEV_COUNT if no deviation has this name. */
enum deviation deviation_by_name(const char *name);

struct sim_cpu;

/*
 * Whether injecting d into this CPU changes anything the spec constrains:
 * a fast-flag bug needs an architectural Intel PMU, a metrics bug
 * PERF_METRICS, and so on.
 */
bool deviation_applies(enum deviation d, const struct sim_cpu *cpu);

#endif
