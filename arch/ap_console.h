/*
 * What an AP writes to the log: whole lines into a ring that CPU 0 copies
 * to the consoles as it waits for the AP (kernel/cpus.h). Only CPU 0
 * touches the ports, and a line leaves the ring only once the AP has put
 * all of it there: an AP lost partway through a line (SMP-6) leaves no
 * part of it on the wire.
 */
#ifndef PMCTEST_AP_CONSOLE_H
#define PMCTEST_AP_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* On an AP: the line s, n bytes (at most PLATFORM_CONSOLE_LINE_MAX of
 * kernel/platform.h), into the ring once it has room; it counts as
 * written when this returns. */
void ap_console_put(const char *s, size_t n);

/* The whole lines in the ring to the consoles; on any CPU but 0, nothing
 * (an AP that waits for another, as a check may have it do, leaves the
 * ring to CPU 0). */
void ap_console_drain(void);

/* Whether the ring holds lines not yet written out: CPU 0 does not halt
 * then (arch/cpus.c), and an AP that finds it full wakes CPU 0. */
bool ap_console_pending(void);

/* Bytes the APs have put, whole lines only. */
uint64_t ap_console_bytes(void);

#endif
