/*
 * What an AP writes to the log: whole lines into a ring that CPU 0 copies
 * to the consoles as it waits for the AP (kernel/cpus.h). Only CPU 0
 * touches the ports, and a line leaves the ring only once the AP has put
 * all of it there: an AP lost partway through a line (SMP-6) leaves no
 * part of it on the wire.
 */
#ifndef PMCTEST_AP_CONSOLE_H
#define PMCTEST_AP_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

/* On an AP: the line s, n bytes (at most AP_CONSOLE_LINE_MAX), into the
 * ring once it has room; it counts as written when this returns. */
#define AP_CONSOLE_LINE_MAX 256
void ap_console_put(const char *s, size_t n);

/* On CPU 0: the whole lines in the ring to the consoles. */
void ap_console_drain(void);

/* Bytes the APs have put, whole lines only. */
uint64_t ap_console_bytes(void);

#endif
