/*
 * The contexts the ECX-encoding and counter-data checks run in: 64-bit mode
 * at CPL 0, and at CPL 3 with CR4.PCE = 1. PRIV-1 permits RDPMC in both, so
 * what they show is the encoding and the data, not the privilege rule.
 */
#ifndef PMCTEST_CHECK_CONTEXT_H
#define PMCTEST_CHECK_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define CHECK_CONTEXTS 2

const struct exec_state *check_context(unsigned i);	/* i < CHECK_CONTEXTS */
const char *check_context_name(unsigned i);		/* "cpl0", "cpl3" */

/* Whether exec_rdpmc() runs in s here; if not, SKIPs the running test. */
bool check_context_usable(const struct exec_state *s);

/*
 * The #GP(0) half of a data check, which runs whatever the PMU: RDPMC in s
 * of the first encoding base | x the model says does not exist, compared
 * with the model (ARCH-5, AMD-2); where it knows none, of base | 256.
 * Fails the running test on a mismatch.
 */
void check_invalid_encoding(const struct exec_state *s, uint32_t base);

#endif
