/* strbuf: see strbuf.h. */
#include "strbuf.h"

#include <stdbool.h>

void strbuf_init(struct strbuf *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	if (size)
		buf[0] = '\0';
}

void strbuf_putc(struct strbuf *sb, char c)
{
	if (sb->len + 1 < sb->size) {
		sb->buf[sb->len] = c;
		sb->buf[sb->len + 1] = '\0';
	}
	sb->len++;
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	while (*s)
		strbuf_putc(sb, *s++);
}

static void put_padded(struct strbuf *sb, const char *digits, size_t n,
		       bool negative, unsigned width, bool left, bool zero)
{
	size_t body = n + (negative ? 1 : 0);
	size_t pad = width > body ? width - body : 0;

	if (!left && !zero)
		while (pad--)
			strbuf_putc(sb, ' ');
	if (negative)
		strbuf_putc(sb, '-');
	if (!left && zero)
		while (pad--)
			strbuf_putc(sb, '0');
	while (n)
		strbuf_putc(sb, digits[--n]);
	if (left)
		while (pad--)
			strbuf_putc(sb, ' ');
}

static void put_number(struct strbuf *sb, uint64_t value, unsigned base,
		       bool upper, bool negative, unsigned width, bool left,
		       bool zero)
{
	const char *set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[24];	/* reversed: least significant first */
	size_t n = 0;

	do {
		digits[n++] = set[value % base];
		value /= base;
	} while (value);
	put_padded(sb, digits, n, negative, width, left, zero);
}

void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		bool left = false, zero = false;
		unsigned width = 0, longs = 0;
		int precision = -1;	/* %.Ns and %.*s: at most N characters */
		bool size_t_arg = false;

		if (*fmt != '%') {
			strbuf_putc(sb, *fmt);
			continue;
		}
		for (fmt++; *fmt == '-' || *fmt == '0'; fmt++) {
			if (*fmt == '-')
				left = true;
			else
				zero = true;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + (unsigned)(*fmt - '0');
		if (*fmt == '.') {
			fmt++;
			precision = 0;
			if (*fmt == '*') {
				precision = va_arg(ap, int);
				fmt++;
			}
			for (; *fmt >= '0' && *fmt <= '9'; fmt++)
				precision = precision * 10 + (*fmt - '0');
		}
		for (; *fmt == 'l' || *fmt == 'z'; fmt++) {
			if (*fmt == 'l')
				longs++;
			else
				size_t_arg = true;
		}

		switch (*fmt) {
		case 'c':
			strbuf_putc(sb, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			size_t n = 0;

			if (!s)
				s = "(null)";
			while (s[n] && (precision < 0 || n < (size_t)precision))
				n++;
			if (!left)
				for (; width > n; width--)
					strbuf_putc(sb, ' ');
			for (size_t k = 0; k < n; k++)
				strbuf_putc(sb, s[k]);
			if (left)
				for (; width > n; width--)
					strbuf_putc(sb, ' ');
			break;
		}
		case 'd':
		case 'i': {
			int64_t v;

			if (size_t_arg || longs)
				v = longs == 1 ? va_arg(ap, long)
					       : va_arg(ap, long long);
			else
				v = va_arg(ap, int);
			put_number(sb, v < 0 ? (uint64_t)0 - (uint64_t)v
					     : (uint64_t)v,
				   10, false, v < 0, width, left, zero);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			uint64_t v;

			if (size_t_arg)
				v = va_arg(ap, size_t);
			else if (longs == 1)
				v = va_arg(ap, unsigned long);
			else if (longs > 1)
				v = va_arg(ap, unsigned long long);
			else
				v = va_arg(ap, unsigned int);
			put_number(sb, v, *fmt == 'u' ? 10 : 16, *fmt == 'X',
				   false, width, left, zero);
			break;
		}
		case 'p':
			strbuf_puts(sb, "0x");
			put_number(sb, (uintptr_t)va_arg(ap, void *), 16, false,
				   false, 16, false, true);
			break;
		case '%':
			strbuf_putc(sb, '%');
			break;
		default:	/* unknown conversion: show it, do not guess */
			strbuf_putc(sb, '%');
			if (*fmt)
				strbuf_putc(sb, *fmt);
			else
				return;
		}
	}
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
}
