/*
 * The exception table: instructions that are allowed to fault. A fault at a
 * listed address is a value, not a crash (XTF's exinfo, kvm-unit-tests'
 * *_safe()): the trap handler records it in captured_fault and resumes at
 * the entry's resume address. Entries are emitted by the EXTABLE macro of
 * arch/extable.inc.
 */
#ifndef PMCTEST_EXTABLE_H
#define PMCTEST_EXTABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cpus.h"

enum extable_kind {
	EXTABLE_CAPTURE = 1,
	EXTABLE_RING_EXIT = 2,
};

struct extable_entry {
	uint64_t insn;
	uint64_t resume;
	uint64_t kind;
};

#define NO_ERROR_CODE 0xFFFFFFFFu

struct fault_capture {
	bool happened;
	uint8_t vector;
	uint32_t error_code;	/* NO_ERROR_CODE for vectors without one */
	uint64_t rip;		/* the faulting instruction */
};

/* One per CPU: each captures its own faults. captured_fault is the
 * executing CPU's. */
extern volatile struct fault_capture captured_faults[CPUS_MAX];
#define captured_fault (captured_faults[platform_this_cpu()])

const struct extable_entry *extable_find(uint64_t rip);

#endif
