/* COM1, a polled 16550 at 115200 8N1. */
#ifndef PMCTEST_SERIAL_H
#define PMCTEST_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

bool serial_present(void);	/* a UART answers at COM1 */
void serial_init(void);
void serial_write(const char *s, size_t n);
void serial_flush(void);	/* until the transmitter is empty */

#endif
