/*
 * The ports the log goes to: COM1, port E9H or both (the screen takes it
 * too wherever the loader set one up, arch/fbcon.h).
 */
#ifndef PMCTEST_CONSOLES_H
#define PMCTEST_CONSOLES_H

#include <stddef.h>

/* COM1 where a UART answers there, else port E9H: a PVH domain under Xen
 * has no UART, and Xen prints what it writes to E9H on its own console. */
void consoles_init(void);

/* The console= option: these ports (CONSOLE_COM1, CONSOLE_E9 of
 * kernel/platform.h) from now on, whether or not a UART answered. */
void consoles_select(unsigned ports);

void consoles_write(const char *s, size_t n);
void consoles_flush(void);	/* until COM1's transmitter is empty */

#endif
