/*
 * Time for the AP start-up's delays and the timeouts of
 * platform_wait_cpu(): the TSC, its rate measured once against the 8254
 * PIT's channel 2 (a fixed 1.193182 MHz on every PC, emulated against
 * real time by QEMU and against Bochs' own clock), so that a TSC of any
 * nominal rate (QEMU TCG's, Bochs' IPS-derived one) gives milliseconds.
 * Without the gate of channel 2 (port 61H), channel 0's count read back;
 * where no PIT answers, CPUID 15H or 16H give the rate.
 */
#ifndef PMCTEST_CLOCK_H
#define PMCTEST_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

/* Measures the TSC rate; false, why, where nothing gives it. how says
 * what gave it ("... against PIT channel 2 over 2 ms"). */
bool clock_calibrate(struct strbuf *how, struct strbuf *why_not);

/* TSC ticks in one millisecond, once calibrated. */
uint64_t clock_tsc_per_ms(void);

/* Busy-waits at least us microseconds; since the TSC read start. */
void clock_delay_us(uint64_t us);
void clock_delay_us_since(uint64_t start, uint64_t us);

#endif
