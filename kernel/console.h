#ifndef PMCTEST_CONSOLE_H
#define PMCTEST_CONSOLE_H

#include <stdarg.h>

/*
 * The longest line of the log, its newline not counted. Xen prints what a
 * guest writes to port E9H a line at a time, and cuts a line at 199
 * characters (hvm_print_line(): a 200-byte buffer, DOMAIN_PBUF_SIZE): 198
 * characters and the newline arrive as one line.
 */
#define LOG_LINE_MAX 198

/* Output goes to the platform a whole line at a time: on a debug port
 * under a hypervisor every write is an exit. A line longer than
 * LOG_LINE_MAX goes on in a new line that starts "# ", a TAP comment (the
 * TAP writer keeps its own lines shorter; this is for free text, such as
 * the header's copy of a long command line). */
void console_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_vprintf(const char *fmt, va_list ap);

/* After the CPU writing was lost (kernel/cpus.h): the line it had not
 * finished is dropped, none of it having reached the platform. */
void console_take_over(void);

#endif
