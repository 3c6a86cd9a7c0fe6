/*
 * The external interrupts the platform has taken (a PMI among them), for
 * the checks to count: the kernel's interrupt hook and the simulator's
 * simulated local APIC both record here, each interrupt on the CPU that
 * took it (platform_this_cpu(): a PMI belongs to the local APIC of the CPU
 * whose counter overflowed, SMP-4). Pure: also built for the host.
 */
#ifndef PMCTEST_INTERRUPT_LOG_H
#define PMCTEST_INTERRUPT_LOG_H

#include <stdint.h>

/* An interrupt of this vector taken by the executing CPU. */
void interrupt_log_record(unsigned vector);

/* Forgets what every CPU took, and the probe. */
void interrupt_log_clear(void);

/* Taken by the executing CPU since the last clear: of one vector, and of
 * any vector. */
unsigned interrupt_log_count(unsigned vector);
unsigned interrupt_log_total(void);

/* Taken by CPU cpu since the last clear, of one vector. */
unsigned interrupt_log_count_on(unsigned cpu, unsigned vector);

/*
 * A check that wants the state at the moment an interrupt is taken (the
 * overflow status a PMI finds, PMI-5) installs a probe: it runs inside
 * the handler, at CPL 0, once per interrupt, and the first
 * INTERRUPT_LOG_SAMPLES values it returns are kept in order.
 */
#define INTERRUPT_LOG_SAMPLES 8

void interrupt_log_set_probe(uint64_t (*probe)(void));
unsigned interrupt_log_samples(uint64_t *out, unsigned max);

#endif
