/*
 * Running code in the legacy modes: real-address mode, virtual-8086 mode,
 * 16-bit and 32-bit protected mode at CPL 0-3 (legacy_trampoline.asm).
 * The body ends with a trap: the UD2 at its exit, or a fault. A fault at the one
 * instruction the caller allows to fault is returned as a value; any other
 * trap is unexpected and fails the running test with its vector and mode.
 */
#ifndef PMCTEST_LEGACY_H
#define PMCTEST_LEGACY_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

/* Keep in step with arch/legacy.inc. */
#define LEGACY_BASE		0x8000
#define LEGACY_REAL		1
#define LEGACY_V86		2
#define LEGACY_PROT16		3
#define LEGACY_PROT32		4
#define LEGACY_TRAPPED_IVT	1
#define LEGACY_TRAPPED_IDT	2
#define LEGACY_NO_ERROR_CODE	0xFFFFFFFFu

enum legacy_body {
	LEGACY_BODY_RDPMC,	/* RDPMC with EAX, ECX, EDX as given */
	LEGACY_BODY_FAULT,	/* UD2: an unexpected #UD (selftests) */
};

struct legacy_outcome {
	bool faulted;		/* at the instruction allowed to fault */
	uint8_t vector;
	uint32_t error_code;	/* LEGACY_NO_ERROR_CODE if none was pushed */
	uint32_t fault_linear;	/* linear address of the faulting instruction */
	uint32_t eax, ecx, edx;	/* at the trap that ended the body */
};

/* Whether mode (MODE_REAL .. MODE_PROT32) at cpl can be run; if not, why. */
bool legacy_available(enum cpu_mode mode, unsigned cpl, struct strbuf *why_not);

/*
 * Run body in mode at cpl with EAX, ECX, EDX. CR4 is used as it is (PCE
 * included). Returns only when the body reached its exit or faulted at the
 * instruction allowed to (the RDPMC of LEGACY_BODY_RDPMC).
 */
void legacy_run(enum cpu_mode mode, unsigned cpl, enum legacy_body body,
		uint32_t eax, uint32_t ecx, uint32_t edx,
		struct legacy_outcome *out);

/* The linear address of the RDPMC of LEGACY_BODY_RDPMC. */
uint32_t legacy_rdpmc_linear(void);

#endif
