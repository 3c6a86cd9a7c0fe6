#ifndef PMCTEST_CONSOLE_H
#define PMCTEST_CONSOLE_H

#include <stdarg.h>

void console_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_vprintf(const char *fmt, va_list ap);

#endif
