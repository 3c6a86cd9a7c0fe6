/* strbuf: append-only text into a caller's buffer. Pure: no globals, no I/O,
 * so the model, the harness and the host tools all format text the same way.
 * Output that does not fit is dropped; the buffer stays NUL-terminated. */
#ifndef PMCTEST_STRBUF_H
#define PMCTEST_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *buf;
	size_t size;	/* capacity including the terminating NUL */
	size_t len;	/* characters written so far (may exceed size - 1) */
};

void strbuf_init(struct strbuf *sb, char *buf, size_t size);
void strbuf_putc(struct strbuf *sb, char c);
void strbuf_puts(struct strbuf *sb, const char *s);

/* printf subset: %c %s %.Ns %.*s %d %i %u %x %X %p %%, flags '-' '0', a width, the
 * length modifiers l, ll, z. %x of a 64-bit value needs ll (or l). */
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap);

#endif
