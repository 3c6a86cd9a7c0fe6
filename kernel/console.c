/* printf to the platform's console, one buffer at a time. */
#include "console.h"

#include "platform.h"
#include "strbuf.h"

void console_vprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	strbuf_vprintf(&sb, fmt, ap);
	platform_console_write(buf, sb.len < sizeof(buf) ? sb.len
							 : sizeof(buf) - 1);
}

void console_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	console_vprintf(fmt, ap);
	va_end(ap);
}
