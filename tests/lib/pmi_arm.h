/*
 * The PMI as the checks that count interrupts set it up: the local APIC's
 * LVT performance-counter entry unmasked at one vector (PMI-1), the
 * interrupt log cleared; afterwards the entry masked again, the log
 * cleared, and the counter's overflow bit cleared (OVF-2).
 */
#ifndef PMCTEST_PMI_ARM_H
#define PMCTEST_PMI_ARM_H

#include <stdbool.h>
#include <stdint.h>

#include "prog_counter.h"

#define PMI_VECTOR	0xE0	/* any vector of 32-255: fixed delivery */

/* False, with the SKIP reason, where there is no usable local APIC. */
bool pmi_arm(struct strbuf *why);

/* A check's start: SKIP where there is no usable local APIC; a counter
 * (prog_take_counter(), which reports the test where there is none);
 * then the LVT entry written lvt and the interrupt log cleared. False
 * where the test has been reported. */
bool pmi_take_counter(struct prog_counter *c, bool fixed, uint32_t lvt);

/* PMIs taken at PMI_VECTOR since pmi_arm(), and interrupts of any vector. */
unsigned pmi_taken(void);
unsigned pmi_interrupts(void);

void pmi_disarm(const struct prog_counter *c);

/* The counter's overflow bit now (OVF-1); false, with why, if the status
 * MSR cannot be read. */
bool pmi_status_bit(const struct prog_counter *c, bool *set, struct strbuf *why);

#endif
