/*
 * CPU 0's alarm: the local APIC timer as the bound of a HLT, so that CPU 0
 * halts instead of spinning while it waits (for an AP, or the delays of
 * the AP start-up). Under emulation every vCPU is a host thread, and a
 * spinning CPU 0 takes the host's time from the AP it waits for. The
 * alarm is measured against the TSC and checked to interrupt before any
 * wait halts; where it is not (no timer that counts, an interrupt that
 * does not come), the waits spin as before. A wake-up IPI that is lost
 * costs at most ALARM_PERIOD_US, never a hang.
 */
#ifndef PMCTEST_ALARM_H
#define PMCTEST_ALARM_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

/* The alarm's vector, and the most a halt lasts. Both of priority class
 * FH with the wake-up IPI: a halt raises the TPR to ALARM_TPR, so that a
 * test's interrupt (a PMI, class EH and below) waits in the IRR for the
 * test's own interrupt window, as it does while CPU 0 spins with
 * interrupts disabled. */
#define APIC_ALARM_VECTOR	0xFD
#define ALARM_TPR		0xE0
#define ALARM_PERIOD_US		1000

/* On CPU 0, clock_calibrate() done, interrupts disabled: measures the
 * local APIC timer against the TSC and checks that its interrupt comes.
 * true, how ("CPU 0 halts in its waits, local APIC timer N kHz"),
 * where CPU 0 may halt in its
 * waits; else false, why. */
bool alarm_init(struct strbuf *how, struct strbuf *why_not);

/* Whether the caller may halt on the alarm: CPU 0, interrupts disabled,
 * and alarm_init() found the alarm usable. */
bool alarm_can_halt(void);

/* Where alarm_can_halt(): HLT until an interrupt of class FH (the
 * wake-up IPI, the alarm), at most ALARM_PERIOD_US and not past the TSC's
 * deadline; a wake-up IPI or alarm sent as the halt ended is taken before
 * it returns, interrupts disabled again. Elsewhere false, without
 * halting: the caller spins. */
bool alarm_halt(uint64_t deadline);

/* Where alarm_can_halt(): takes a wake-up IPI that is pending
 * (one an AP sent as CPU 0's halt ended, arch/cpus.c), and no interrupt
 * of a lower class. */
void alarm_absorb(void);

/* Waits until the TSC passes start + us microseconds: halted where the
 * alarm is usable, else spinning (clock_delay_us_since()). */
void alarm_sleep_us_since(uint64_t start, uint64_t us);

/* The trap path: the alarm's interrupt came. */
void alarm_fired(void);

#endif
