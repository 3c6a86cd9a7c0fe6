/*
 * The deviations pmctest-sim can inject, one at a time, each a real class
 * of hypervisor or emulator bug: the mutations the suite must catch.
 */
#ifndef PMCTEST_DEVIATION_H
#define PMCTEST_DEVIATION_H

#include <stdbool.h>

enum deviation {
	DEV_NONE,
	DEV_CPL3_ONLY,
	DEV_PCE_IGNORED,
	DEV_GP_ERROR_CODE,
	DEV_UD_INSTEAD_OF_READ,
	DEV_FAST_FLAG_ACCEPTED,
	DEV_TYPE_IGNORED,
	DEV_INDEX_OFF_BY_ONE,
	DEV_BITMAP_IGNORED,
	DEV_V1_FIXED_ACCEPTED,
	DEV_NO_HIGH_CLEAR,
	DEV_RCX_HIGH_USED,
	DEV_WIDTH_UNMASKED,
	DEV_EDX_NOT_ZEROED_FAST,
	DEV_METRICS_NOT_CLEARED,
	DEV_METRICS_ALWAYS_CLEARED,
	DEV_AMD_BITS_31_30_IGNORED,
	DEV_REGS_CLOBBERED_ON_FAULT,
	DEV_RIP_ADVANCED_ON_FAULT,
	/* the counting side */
	DEV_PMC_WRITE_ZERO_EXTENDED,
	DEV_FIXED_WRITE_SIGN_EXTENDED,
	DEV_USR_OS_SWAPPED,
	DEV_EN_IGNORED,
	DEV_GLOBAL_CTRL_IGNORED,
	DEV_BRANCHES_AS_INSTRUCTIONS,
	DEV_CMASK_IGNORED,
	DEV_INV_IGNORED,
	DEV_EDGE_IGNORED,
	DEV_COUNTER_SATURATES,
	DEV_OVERFLOW_STATUS_LOST,
	DEV_STATUS_RESET_IGNORED,
	DEV_STATUS_SET_IGNORED,
	DEV_PMI_LOST,
	DEV_PMI_WITHOUT_INT,
	DEV_PMI_WHILE_MASKED,
	DEV_LVT_NOT_MASKED_ON_PMI,
	DEV_FIXED_PMI_IGNORED,
	DEV_ABSENT_MSRS_ACCEPTED,
	DEV_RESERVED_BITS_ACCEPTED,
	DEV_HOST_COUNTER_SHORTAGE,
	DEV_GLOBAL_CTRL_RESET_ZERO,
	DEV_RUNNING_WRITE_LOST,
	DEV_VMWARE_BACKDOOR,
	DEV_FIXED_CAPPED_AT_THREE,
	DEV_COUNTER_WRITES_DROPPED,
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
