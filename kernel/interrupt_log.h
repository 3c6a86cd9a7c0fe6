/*
 * The external interrupts the platform has taken (a PMI among them), for
 * the checks to count: the kernel's interrupt hook and the simulator's
 * simulated local APIC both record here. Pure: also built for the host.
 */
#ifndef PMCTEST_INTERRUPT_LOG_H
#define PMCTEST_INTERRUPT_LOG_H

void interrupt_log_record(unsigned vector);
void interrupt_log_clear(void);

/* Taken since the last clear: of one vector, and of any vector. */
unsigned interrupt_log_count(unsigned vector);
unsigned interrupt_log_total(void);

#endif
